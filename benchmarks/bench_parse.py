"""Parse-only throughput of the 7WN reader on generated 7-player games: games/s, actions/s and MB/s.

Games come from the engine's bot (``wnotation.engine.bot.play_game``) when it is installed, else from
synthetic Records; they are written once, then only ``parse`` is timed. Run: ``python benchmarks/bench_parse.py``.
"""

from __future__ import annotations

import argparse
import gc
import random
import time

from wnotation import catalog
from wnotation.notation import parse, write
from wnotation.record import Action, Purchase, Record, Seat, Turn


def bot_games(count: int) -> list[Record]:
    from wnotation.engine.bot import play_game

    return [play_game(7, seed, bot="random") for seed in range(count)]


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200, help="distinct games generated (default 200)")
    ap.add_argument("--repeat", type=int, default=5, help="passes over the games; the best is reported (default 5)")
    ap.add_argument("--synthetic", action="store_true", help="synthetic Records even if the engine's bot exists")
    args = ap.parse_args()
    try:
        records = synthetic_games(args.games) if args.synthetic else bot_games(args.games)
        origin = "synthetic" if args.synthetic else "bot"
    except ImportError:
        records, origin = synthetic_games(args.games), "synthetic"
    texts = [write(r) for r in records]
    actions = sum(len(t.actions) for r in records for t in r.turns)
    # Generating games leaves the engine's caches on the heap; freeze them so that the cyclic garbage collector,
    # triggered by the parser's allocations, does not rescan them and bill the reader for it.
    del records
    gc.collect()
    gc.freeze()
    size = sum(len(t.encode("utf-8")) for t in texts)
    for text in texts[:5]:  # warm up: parser construction, catalogue, name cache
        parse(text)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for text in texts:
            parse(text)
        best = min(best, time.perf_counter() - start)
    print(f"{len(texts)} {origin} 7-player games, {actions} actions, {size / 1e6:.2f} MB")
    print(f"{len(texts) / best:,.0f} games/s  {actions / best:,.0f} actions/s  {size / best / 1e6:.2f} MB/s")


if __name__ == "__main__":
    main()
