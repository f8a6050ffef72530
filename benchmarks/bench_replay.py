"""Replay-only throughput on bot-played 7-player games: actions replayed per second (a benchmark, not a test).

Usage: ``python benchmarks/bench_replay.py [--games 300] [--bot greedy] [--repeat 5] [--jobs 2] [--profile]``.
The games are generated first (not timed; ``--games-file`` keeps them in a pickle between runs); the timed part is
``wnotation.engine.replay(record)`` on ready Records, decoding included, under the batch collector policy
(``wnotation.support.gcpolicy.batch_collection``, as ``check`` runs). Reported, as the best of ``--repeat`` runs
(the machine is shared: the best run is the one least disturbed):

* **first replay**: every memoised answer (trade questions, deals) is forgotten, the engine is warmed on 30 other
  games, then each game is replayed once. Generating the games asked the engine the very trade questions the
  replay asks, so without forgetting them the figure would flatter: this is the steady state of a corpus check;
* **replayed again**: the same games at once again (deals and trade answers memoised);
* with ``--jobs N``, the first-replay figure of N processes together.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import pickle
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from wnotation import engine  # noqa: E402
from wnotation.engine import replay  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402
from wnotation.support.gcpolicy import batch_collection  # noqa: E402

WARM = 30


def _games(count: int, start: int, bot: str):
    def kind(seed: int) -> str:
        return ("random" if seed % 2 else "greedy") if bot == "mixed" else bot

    return [play_game(7, seed, kind(seed)) for seed in range(start, start + count)]


def _load(count: int, start: int, bot: str, path: str | None):
    """The games, from ``path`` when it holds these very games, else generated (and saved to ``path``)."""
    key = (count, start, bot)
    if path and os.path.exists(path):
        with open(path, "rb") as f:
            saved = pickle.load(f)
        if saved.get("key") == key:
            return saved["games"], saved["warm"]
    games, warm = _games(count, start, bot), _games(WARM, 10_000 + start, bot)
    if path:
        with open(path, "wb") as f:
            pickle.dump({"key": key, "games": games, "warm": warm}, f)
    return games, warm


def _actions(games) -> int:
    return sum(len(t.actions) + sum(1 for a in t.actions if a.pick is not None) for g in games for t in g.turns)


def _forget() -> None:
    """Forget every memoised answer, so that the next replay of a game sees its trade questions for the first time
    (card look-ups and per-card data stay: any long run has them after a few games)."""
    clear = getattr(engine, "clear_caches", None)
    if clear is not None:
        clear()
        return
    from wnotation.engine import deals, rules, trade  # an engine from before clear_caches (A/B runs)

    for memo in ("_ANSWERS", "_REDUCED"):
        getattr(rules, memo, {}).clear()
    for fn in (trade._solve, trade._reach, trade._tuple_sources_key, deals._deal):
        fn.cache_clear()


def _time(games, warm) -> float:
    """CPU time (this process; CPU time is steadier than wall time on a shared machine) to replay each of ``games``
    once, after forgetting the memoised answers and replaying ``warm`` (other games) to warm up."""
    _forget()
    for g in warm:
        replay(g)
    with batch_collection():
        t = time.process_time()
        for g in games:
            r = replay(g)
            assert not r.findings, r.findings[:1]
        return time.process_time() - t


def _again(games) -> float:
    with batch_collection():
        t = time.process_time()
        for g in games:
            replay(g)
        return time.process_time() - t


def _worker(args):
    count, start, bot, repeat = args
    games, warm = _load(count, start, bot, None)
    return _actions(games), min(_time(games, warm) for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--bot", choices=("greedy", "random", "mixed"), default="greedy")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best is reported")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--games-file", help="a pickle to keep the generated games in between runs")
    parser.add_argument("--profile", action="store_true", help="cProfile one first replay of the games")
    args = parser.parse_args()
    games, warm = _load(args.games, 0, args.bot, args.games_file)
    actions = _actions(games)
    runs = [_time(games, warm) for _ in range(args.repeat)]
    dt = min(runs)
    print(f"first replay: {len(games)} {args.bot} games, {actions} actions, best of {args.repeat}: {dt:.3f} s CPU, "
          f"{actions / dt:,.0f} actions/s, {len(games) / dt:,.0f} games/s (runs: "
          f"{', '.join(f'{actions / t / 1000:.1f}k' for t in runs)})")
    again = min(_again(games) for _ in range(args.repeat))
    print(f"replayed again (deals and trades memoised): {actions / again:,.0f} actions/s")
    if args.jobs > 1:
        share = args.games // args.jobs
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(_worker, [(share, k * share, args.bot, args.repeat) for k in range(args.jobs)])
        total = sum(a for a, _ in results)
        wall = max(t for _, t in results)
        print(f"{args.jobs} processes, first replay: {total} actions, slowest worker {wall:.3f} s of CPU: "
              f"{total / wall:,.0f} actions/s")
    if args.profile:
        import cProfile
        import pstats

        _forget()
        for g in warm:
            replay(g)
        cProfile.runctx("for g in games: replay(g)", globals(), {"games": games}, "/tmp/wnotation_replay.prof")
        pstats.Stats("/tmp/wnotation_replay.prof").sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
