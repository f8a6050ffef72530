"""Replay-only throughput on bot-played 7-player games: actions replayed per second (a benchmark, not a test).

Usage: ``python benchmarks/bench_replay.py [--games 200] [--jobs 2] [--profile]``. The games are generated first
(not timed); the timed part is ``wnotation.engine.replay(record)`` on ready Records, decoding included. Reported:
each game replayed once after a warm-up on other games (a corpus check), the same games replayed again (memoised
deals and trade-solver answers: stepping through positions, re-checking), and the first figure with 2 processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from wnotation.engine import replay  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402


def _games(count: int, start: int = 0):
    return [play_game(7, seed, "random" if seed % 2 else "greedy") for seed in range(start, start + count)]


def _actions(games) -> int:
    return sum(len(t.actions) + sum(1 for a in t.actions if a.pick is not None) for g in games for t in g.turns)


def _time(games, warm) -> float:
    """CPU time (this process; the machine is shared and CPU time is steadier than wall time) to replay each of
    ``games`` once, after replaying the other games ``warm`` to fill the trade solver's caches. Each timed game is
    replayed once, so memoised deals do not flatter the figure: this is the steady state of a corpus check."""
    for g in warm:
        replay(g)
    t = time.process_time()
    for g in games:
        r = replay(g)
        assert not r.findings, r.findings[:1]
    return time.process_time() - t


def _worker(args):
    count, start = args
    games = _games(count, start)
    return _actions(games), _time(games, _games(20, 10_000 + start))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    games = _games(args.games)
    actions = _actions(games)
    dt = _time(games, _games(20, 10_000))
    print(f"1 process, each game once: {len(games)} games, {actions} actions in {dt:.3f} s: "
          f"{actions / dt:,.0f} actions/s, {len(games) / dt:,.0f} games/s")
    again = min(_time(games, ()) for _ in range(3))
    print(f"1 process, replayed again (deals and trades memoised): {actions / again:,.0f} actions/s")
    if args.jobs > 1:
        share = args.games // args.jobs
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(_worker, [(share, k * share) for k in range(args.jobs)])
        total = sum(a for a, _ in results)
        wall = max(t for _, t in results)
        print(f"{args.jobs} processes, each game once: {total} actions, slowest worker {wall:.3f} s of CPU: "
              f"{total / wall:,.0f} actions/s")
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx("for g in games: replay(g)", globals(), {"games": games}, "/tmp/wnotation_replay.prof")
        pstats.Stats("/tmp/wnotation_replay.prof").sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
