"""Parse-only throughput of the 7WN reader on generated 7-player games: games/s, actions/s and MB/s.

Games come from the engine's bot (``wnotation.engine.bot.play_game``, greedy by default) when it is installed,
else from synthetic Records; they are written once, then only ``parse`` is timed (CPU time, best of the passes;
the first pass, with the reader's caches cold, is shown too). For scale it also times the header-only skim
(``read_headers``) and Lark's contextual lexer alone over the same texts: the lexer floor is the cost of only
cutting the texts into Lark tokens, driven through the parser states a real parse visits.
Run: ``python benchmarks/bench_parse.py``.
"""

from __future__ import annotations

import argparse
import random
import time

from wnotation.model import catalog
from wnotation.support.gcpolicy import batch_collection
from wnotation.notation import parse, read_headers, write
from wnotation.notation import reader
from wnotation.model.record import Action, Purchase, Record, Seat, Turn


def bot_games(count: int, bot: str = "greedy") -> list[Record]:
    from wnotation.engine.bot import play_game

    return [play_game(7, seed, bot=bot) for seed in range(count)]


def synthetic_games(count: int) -> list[Record]:
    """Records with the shape of real games (18 turns of 7 actions, discards on turn 6, some purchases)."""
    cat = catalog.load()
    names = [c.name for c in cat.cards]
    wonders = sorted({w.name for w in cat.wonders})
    games = []
    for seed in range(count):
        rng = random.Random(seed)
        seats = tuple(Seat(name=f"Player {i}", wonder=w, side=rng.choice(["day", "night"]))
                      for i, w in enumerate(wonders, 1))
        turns = []
        for age in (1, 2, 3):
            for number in range(1, 7):
                actions = []
                for seat in range(1, 8):
                    use = rng.choice(["build", "build", "build", "sell", "stage"])
                    actions.append(Action(
                        seat=seat, use=use, card=rng.choice(names) if use == "build" or rng.random() < 0.5 else "?",
                        purchase=Purchase(left=("clay",), right=("wood",)) if rng.random() < 0.1 else None,
                        discard=rng.choice(names) if number == 6 else None))
                turns.append(Turn(age=age, number=number, actions=tuple(actions)))
        games.append(Record(date="2026.11.29", seats=seats, turns=tuple(turns)))
    return games


def _lexer_floor(texts: list[str], repeat: int) -> float:
    """CPU seconds (best of ``repeat``) for Lark's contextual lexer alone to cut ``texts`` into tokens, each
    token lexed in the parser state a full Lark parse of the text is in when it asks for that token."""
    from lark.lexer import ContextualLexer, LexerState, TextSlice

    lark = reader._parser()
    lexer = lark.parser.lexer
    assert isinstance(lexer, ContextualLexer)
    original = ContextualLexer.lex
    states: list[int] = []

    def recording(self, lexer_state, parser_state):  # ContextualLexer.lex, noting each token's parser state
        try:
            while True:
                states.append(parser_state.position)
                yield self.lexers[parser_state.position].next_token(lexer_state, parser_state)
        except EOFError:
            pass

    runs = []
    ContextualLexer.lex = recording
    try:
        for text in texts:
            text = text if text.endswith("\n") else text + "\n"
            states.clear()
            reader._lark_game(text, "<bench>", 0, 0)
            runs.append((text, list(states)))
    finally:
        ContextualLexer.lex = original

    class _State:
        __slots__ = ("position",)

    def lex_all() -> None:
        lexers = lexer.lexers
        for text, positions in runs:
            ls, ps = LexerState(TextSlice.cast_from(text)), _State()
            try:
                for position in positions:
                    ps.position = position
                    lexers[position].next_token(ls, ps)
            except EOFError:
                pass

    return _best(lex_all, repeat)


def _best(run, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200, help="distinct games generated (default 200)")
    ap.add_argument("--repeat", type=int, default=5, help="passes over the games; the best is reported (default 5)")
    ap.add_argument("--bot", default="greedy", help="the engine's bot that plays the games (default greedy)")
    ap.add_argument("--synthetic", action="store_true", help="synthetic Records even if the engine's bot exists")
    ap.add_argument("--no-floor", action="store_true", help="skip timing Lark's lexer alone")
    args = ap.parse_args()
    try:
        records = synthetic_games(args.games) if args.synthetic else bot_games(args.games, args.bot)
        origin = "synthetic" if args.synthetic else f"bot ({args.bot})"
    except ImportError:
        records, origin = synthetic_games(args.games), "synthetic"
    texts = [write(r) for r in records]
    actions = sum(len(t.actions) for r in records for t in r.turns)
    # Generating games leaves the engine's caches on the heap; the batch policy freezes them, so that the cyclic
    # garbage collector, triggered by the parser's allocations, does not rescan them and bill the reader for it.
    del records
    with batch_collection():
        _timed(args, texts, actions, origin)


def _timed(args: argparse.Namespace, texts: list[str], actions: int, origin: str) -> None:
    size = sum(len(t.encode("utf-8")) for t in texts)
    parse(texts[0])  # parser construction, catalogue
    reader._PIECES.clear()

    def parse_all() -> None:
        for text in texts:
            parse(text)

    cold = _best(parse_all, 1)
    best = min(cold, _best(parse_all, args.repeat))
    joined = "\n".join(texts)
    skim = _best(lambda: sum(1 for _ in read_headers(joined)), args.repeat)
    print(f"{len(texts)} {origin} 7-player games, {actions} actions, {size / 1e6:.2f} MB")
    print(f"parse:        {len(texts) / best:,.0f} games/s  {actions / best:,.0f} actions/s  {size / best / 1e6:.2f} MB/s"
          f"  (first pass, caches cold: {actions / cold:,.0f} actions/s)")
    print(f"read_headers: {len(texts) / skim:,.0f} games/s")
    if not args.no_floor:
        floor = _lexer_floor(texts, args.repeat)
        print(f"Lark's lexer alone: {actions / floor:,.0f} actions/s; parse runs at {floor / best:.0%} of it")


if __name__ == "__main__":
    main()
