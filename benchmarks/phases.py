"""One measured phase of the benchmark, run in a fresh interpreter: ``python benchmarks/phases.py PHASE ROOT``.

Each phase loads its inputs (not timed), warms up on games outside the corpus, enters the batch collector policy
(:func:`wnotation.support.gcpolicy.batch_collection`: what it loaded is frozen, as if it were streamed), times one pass over the whole corpus, and prints one JSON object:
``cpu`` (process CPU seconds: steadier than wall time on a shared machine), ``wall``, and what was processed.
A fresh process per run keeps the engine's memo caches and the heap from flattering later runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from corpus import Corpus  # noqa: E402

from wnotation.support.gcpolicy import batch_collection  # noqa: E402

PHASES = ("lexer", "lalr", "parse", "parse_lark", "parse_file", "replay", "check", "bot", "json", "chess", "stream",
          "pool")


def _clock():
    return time.process_time(), time.perf_counter()


def _since(start) -> dict:
    cpu, wall = start
    return {"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall}


#: The collector policy of batch callers, entered by :func:`_ready` once a phase's inputs are loaded and left by
#: :func:`main`: every phase, python-chess's included, is timed under the policy ``wnotation check`` runs under.
_BATCH = contextlib.ExitStack()


def _ready() -> None:
    _BATCH.enter_context(batch_collection())


def _game_texts(path: Path) -> list[str]:
    """The games of a .7wn file as the reader cuts them (each game's own text, with a final newline)."""
    from wnotation.notation import reader

    texts = []
    for chunk, _, _ in reader.split_games(reader._normalise(path.read_text(encoding="utf-8"))):
        if reader.lexical.BOUNDARY_RE.match(chunk):
            texts.append(chunk if chunk.endswith("\n") else chunk + "\n")
    return texts


# --- (a) the lexer floor -----------------------------------------------------------------------------------------


class _Recorder:
    """Stands in for Lark's parser state during a real parse and logs each state the contextual lexer asks for."""

    __slots__ = ("_state", "log")

    def __init__(self, state, log: list) -> None:
        self._state = state
        self.log = log

    @property
    def position(self):
        p = self._state.position
        self.log.append(p)
        return p

    def __getattr__(self, name):
        return getattr(self._state, name)


class _Replayer:
    """Feeds the contextual lexer the parser states logged by :class:`_Recorder`, with no parser running."""

    __slots__ = ("position_of",)

    def __init__(self, log: list) -> None:
        self.position_of = iter(log).__next__

    @property
    def position(self):
        return self.position_of()


def lexer(c: Corpus) -> dict:
    """Lark's contextual lexer alone (the reader's own lexer object, same terminals and configuration) over each
    game's text. The contextual lexer picks its sub-lexer from the parser state, so each game is first parsed once
    (untimed) while the states are logged; the timed pass replays those states without the parser. Lark's basic
    lexer cannot serve as the floor: it cannot tokenise 7WN ('I' of 'I.1' lexes as a card-name run)."""
    from lark.lexer import LexerState
    from lark.utils import TextSlice

    from wnotation.notation import parse, reader

    texts = _game_texts(c.wn)
    for text in _game_texts(c.warm):
        parse(text)
    contextual = reader._parser().parser.lexer
    real = contextual.lex
    logs: list[list] = []

    def recording(lexer_state, parser_state):
        return real(lexer_state, _Recorder(parser_state, logs[-1]))

    lark_route = getattr(reader, "_lark_game", None)  # the reader may read plain games without Lark
    contextual.lex = recording
    try:
        for text in texts:
            logs.append([])
            if lark_route is not None:
                lark_route(text, "<bench>", 0, 0)
            else:
                parse(text)
    finally:
        del contextual.lex
    # check once, untimed, that the replay yields as many tokens as the parser asked for (the last state is EOF's)
    for text, log in zip(texts[:50], logs):
        n = sum(1 for _ in contextual.lex(LexerState(TextSlice.cast_from(text)), _Replayer(log)))
        assert n == len(log) - 1, (n, len(log))
    tokens = sum(len(log) - 1 for log in logs)
    inputs = [(TextSlice.cast_from(t), log) for t, log in zip(texts, logs)]
    _ready()
    lex = contextual.lex
    start = _clock()
    for text, log in inputs:
        for _ in lex(LexerState(text), _Replayer(log)):
            pass
    out = _since(start)
    out.update(games=len(texts), tokens=tokens, lexer="contextual (replayed parser states)")
    return out


def lalr(c: Corpus) -> dict:
    """Lark's lexer and LALR parser with callbacks that do nothing, over each game's text: the 7WN grammar built as
    the reader builds it (``grammar.build``, contextual lexer, tree-less) with a transformer whose method for every
    rule returns ``None``. What the reader adds on top of this is its own work (decoding, names, Records)."""
    from lark import Transformer

    from wnotation.notation import grammar

    names = {r.origin.name for r in grammar.tree_parser().rules}
    methods = {str(n): (lambda self, children: None) for n in names if not str(n).startswith("_")}
    null = grammar.build(type("NullTransformer", (Transformer,), dict(methods, __visit_tokens__=False))())
    texts = _game_texts(c.wn)
    for text in _game_texts(c.warm):
        null.parse(text)
    _ready()
    start = _clock()
    for text in texts:
        null.parse(text)
    out = _since(start)
    out.update(games=len(texts), callbacks=len(methods))
    return out


# --- (b) parsing ---------------------------------------------------------------------------------------------------


def parse(c: Corpus) -> dict:
    """``notation.parse`` on each game's text (the texts the lexer floor sees)."""
    from wnotation.notation import parse as parse_one

    texts = _game_texts(c.wn)
    for text in _game_texts(c.warm):
        parse_one(text)
    _ready()
    start = _clock()
    for text in texts:
        parse_one(text)
    out = _since(start)
    out.update(games=len(texts))
    return out


def parse_lark(c: Corpus) -> dict:
    """The reader's Lark route alone (``reader._lark_game``: Lark's parser and the inline transformer, the
    reference route that reads every game the fast route declines, and every error) on each game's text."""
    from wnotation.notation import reader

    lark_route = getattr(reader, "_lark_game", None)
    if lark_route is None:  # a reader with one route: parse() is the Lark route
        return dict(parse(c), route="parse")
    texts = _game_texts(c.wn)
    for text in _game_texts(c.warm):
        lark_route(text, "<bench>", 0, 0)
    _ready()
    start = _clock()
    for text in texts:
        lark_route(text, "<bench>", 0, 0)
    out = _since(start)
    out.update(games=len(texts), route="_lark_game")
    return out


def parse_file(c: Corpus) -> dict:
    """``notation.read_games(path)`` streaming the whole .7wn file (file reading and game splitting included)."""
    from wnotation.notation import NotationError, read_games

    for _ in read_games(c.warm):
        pass
    _ready()
    start = _clock()
    games = errors = 0
    for item in read_games(c.wn):
        games += 1
        errors += isinstance(item, NotationError)
    out = _since(start)
    out.update(games=games, errors=errors)
    return out


# --- (c) replay, (d) the full check -----------------------------------------------------------------------------


def _check_one(item, counts: dict) -> None:
    from wnotation.engine import replay
    from wnotation.notation import NotationError

    if isinstance(item, NotationError):
        counts["errors"] += 1
        return
    r = replay(item)
    counts["findings"] += len(r.findings)
    counts["scored"] += r.scores is not None


def replay(c: Corpus) -> dict:
    """``engine.replay(record)`` on ready Records (read from the .7wn file untimed), each game once."""
    from wnotation.engine import replay as replay_one
    from wnotation.notation import read_games

    records = list(read_games(c.wn))
    for record in read_games(c.warm):
        replay_one(record)
    counts = {"errors": 0, "findings": 0, "scored": 0}
    _ready()
    start = _clock()
    for record in records:
        _check_one(record, counts)
    out = _since(start)
    out.update(games=len(records), **counts)
    return out


def check(c: Corpus, profiler=None) -> dict:
    """The full check in one process: stream the file with ``read_games``, replay each game, score it and verify
    its stated results (what ``wnotation check`` does, without rendering). A ``profiler`` (cProfile.Profile) is
    enabled around the timed pass only."""
    from wnotation.notation import read_games

    counts = {"errors": 0, "findings": 0, "scored": 0}
    for item in read_games(c.warm):
        _check_one(item, counts)
    counts = {"errors": 0, "findings": 0, "scored": 0}
    _ready()
    if profiler is not None:
        profiler.enable()
    start = _clock()
    games = 0
    for item in read_games(c.wn):
        games += 1
        _check_one(item, counts)
    out = _since(start)
    if profiler is not None:
        profiler.disable()
    out.update(games=games, **counts)
    return out


def bot(c: Corpus, count: str = "100") -> dict:
    """The engine's greedy bot playing ``count`` 7-player games (``play_game``: what ``wnotation generate -p 7 --bot
    greedy`` plays, before writing), from seeds outside the corpus, after 3 warm-up games."""
    from wnotation.engine.bot import play_game

    n = int(count)
    for seed in range(3):
        play_game(7, 2_000_000 + seed, "greedy")
    _ready()
    start = _clock()
    actions = 0
    for seed in range(n):
        actions += sum(len(t.actions) for t in play_game(7, 3_000_000 + seed, "greedy").turns)
    out = _since(start)
    out.update(games=n, actions=actions)
    return out


# --- (e) JSON, (f) python-chess -----------------------------------------------------------------------------------


def json_(c: Corpus) -> dict:
    """``notation.from_json`` on each game's JSON file (reading the file included; pydantic validation)."""
    from wnotation.notation import from_json

    paths = sorted(c.json_dir.glob("*.json"))
    for p in paths[:5]:
        from_json(p.read_bytes())
    _ready()
    start = _clock()
    for p in paths:
        from_json(p.read_bytes())
    out = _since(start)
    out.update(games=len(paths))
    return out


def chess(c: Corpus) -> dict:
    """python-chess ``chess.pgn.read_game`` over the PGN corpus (SAN parsed and legality-checked on a board)."""
    import chess as chess_
    import chess.pgn

    with open(c.warm_pgn, encoding="utf-8") as f:
        while chess.pgn.read_game(f) is not None:
            pass
    _ready()
    start = _clock()
    games = errors = 0
    with open(c.pgn, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            errors += bool(game.errors)
    out = _since(start)
    out.update(games=games, errors=errors, version=chess_.__version__)
    return out


# --- (3) memory when streaming --------------------------------------------------------------------------------------


def _rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def stream(c: Corpus, path: str) -> dict:
    """Peak RSS (the process's high-water mark) while ``read_games`` streams ``path``, parse only; the peak is also
    sampled at 1%, 10%, 50% and 100% of the games to show whether it still grows."""
    from wnotation.notation import NotationError, read_games

    import_rss = _rss_kib()
    for _ in read_games(c.warm):
        pass
    total = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    marks = {max(1, total // 100): "1%", max(1, total // 10): "10%", max(1, total // 2): "50%"}
    samples = {}
    start = _clock()
    games = errors = 0
    for item in read_games(path):
        games += 1
        errors += isinstance(item, NotationError)
        if games in marks:
            samples[marks[games]] = _rss_kib()
    out = _since(start)
    samples["100%"] = _rss_kib()
    out.update(games=games, errors=errors, import_rss_kib=import_rss, peak_rss_kib=_rss_kib(), samples=samples,
               file_bytes=os.path.getsize(path))
    return out


# --- (4) a process-pool check, when the CLI has none ----------------------------------------------------------------


def _pool_init() -> None:
    from wnotation.notation import read_games

    for _ in read_games(_pool_init.warm):  # type: ignore[attr-defined]
        pass


def _pool_task(chunk: tuple[str, int, int]) -> tuple[int, int, int]:
    from wnotation.engine import replay
    from wnotation.notation import NotationError, read_games

    games = errors = findings = 0
    for item in read_games(chunk[0]):
        games += 1
        if isinstance(item, NotationError):
            errors += 1
        else:
            findings += len(replay(item).findings)
    return games, errors, findings


def pool(c: Corpus, jobs: str) -> dict:
    """The full check over a process pool of ``jobs`` workers, timed on the wall clock from reading the file to the
    last result, pool start-up included: games are cut from the file and sent in batches of 16 game texts (what a
    ``--jobs`` check does with the same library calls)."""
    import multiprocessing

    from wnotation.notation import reader

    n = int(jobs)
    _pool_init.warm = str(c.warm)  # type: ignore[attr-defined]
    start = _clock()
    texts = [chunk for chunk, _, _ in reader.split_games(reader._normalise(c.wn.read_text(encoding="utf-8")))]
    batches = [("".join(texts[k:k + 16]), k, 0) for k in range(0, len(texts), 16)]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(n, initializer=_pool_init) as p:
        results = p.map(_pool_task, batches, chunksize=1)
    out = _since(start)
    out.update(games=sum(r[0] for r in results), errors=sum(r[1] for r in results),
               findings=sum(r[2] for r in results), jobs=n)
    return out


def main() -> None:
    phase, root = sys.argv[1], sys.argv[2]
    c = Corpus.load(root)
    fn = {"json": json_}.get(phase) or globals()[phase]
    with _BATCH:
        result = fn(c, *sys.argv[3:4])
    from wnotation.engine import COMPILED

    result["phase"] = phase
    result["compiled"] = COMPILED
    result["max_rss_kib"] = _rss_kib()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
