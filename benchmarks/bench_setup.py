"""A replay's fixed cost per game, its allocation per event, and the memory of reading one huge game (issue 31
items 3 and 5; a benchmark, not a test).

Usage: ``python benchmarks/bench_setup.py [--players 3] [--games 300] [--repeat 7] [--huge-mb 20]``.

* **setup**: the median CPU time per game of ``replay(record)`` and of its parts that do not grow with the turns
  (``Run(record)``: decoding, the seeded deal, the table and the game; the score sheet), on bot games whose
  memoised answers are warm (a replay of each game first); the seeded deal is memoised per seed (256 deals), so
  with more games than that ``Run`` pays it as a corpus check does, once a game, and it is also timed alone,
  unmemoised (``deck.deal``);
* **allocation**: what one replay keeps (tracemalloc), per event, and whether a collection after it finds any
  cyclic garbage (it should find none: the collector is kept out of the way by design);
* **huge game**: one game with a comment of ``--huge-mb`` MB, on one line and over many short lines, read from a
  file in a fresh process: the resident memory it holds after reading and at its peak, per input byte.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from wnotation.engine import replay  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402
from wnotation.engine.results import city_view  # noqa: E402
from wnotation.engine.run import Run, decode  # noqa: E402
from wnotation.engine.scoring import score  # noqa: E402
from wnotation.model import deck  # noqa: E402
from proc_memory import PROC_MEMORY  # noqa: E402
from wnotation.support.gcpolicy import batch_collection  # noqa: E402

HEADER = ('[Format "7WN 1"]\n[Edition "2e"]\n[Date "2026.11.29"]\n[Seat1 "Alice" "Gizah" "day"]\n'
          '[Seat2 "Bob" "Babylon" "night"]\n[Seat3 "Carol" "Halikarnassos" "night"]\n\n')
TAIL = "I.1 Lumber Yard | sell ? | stage ?\n"

CHILD = r"""
import gc, json, os, sys
""" + PROC_MEMORY + r"""
from wnotation.notation import read_games
list(read_games(sys.argv[2]))  # imports and caches warm
gc.collect()
before = rss()
games = list(read_games(sys.argv[1]))
print(json.dumps({"held": rss() - before, "peak": hwm() - before, "read": type(games[0]).__name__}))
"""


def _per_game(fn, items, repeat: int) -> float:
    """Median CPU microseconds of ``fn`` per item over ``repeat`` passes."""
    runs = []
    for _ in range(repeat):
        t = time.process_time()
        for x in items:
            fn(x)
        runs.append(time.process_time() - t)
    return statistics.median(runs) / len(items) * 1e6


def setup(players: int, count: int, repeat: int) -> None:
    games = [play_game(players, seed, "greedy") for seed in range(count)]
    runs = []
    for g in games:
        replay(g)  # memoised answers warm: the steady state of a corpus check
        r = Run(g)
        r.run()
        runs.append(r)
    with batch_collection():
        whole = _per_game(replay, games, repeat)
        made = _per_game(Run, games, repeat)
        rows = [("replay(record), whole", whole), ("Run(record): the setup", made),
                ("  decoding the turns", _per_game(lambda g: decode(g.turns), games, repeat)),
                ("  its seeded deal (SM64-FY), new", _per_game(lambda g: deck.deal(g.players, g.seed.value),
                                                                games, repeat)),
                ("the score sheet", _per_game(lambda r: score([city_view(c) for c in r.game.cities]), runs,
                                              repeat))]
    actions = sum(len(t.actions) for g in games for t in g.turns) / len(games)
    print(f"{players}-player bot games ({count}, {actions:.0f} actions each), CPU µs per game, median of {repeat}:")
    for label, us in rows:
        print(f"  {label:38} {us:8.1f}")
    print(f"  {'setup share of the replay':38} {made / whole:8.0%}")
    gc.collect()
    gc.disable()
    try:
        events = len(replay(games[1]).events)
        tracemalloc.start()
        result = replay(games[1])
        held, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del result
        garbage = gc.collect()
    finally:
        gc.enable()
    print(f"  one replay keeps {held:,} B ({held / events:.0f} B per event, {events} events), peak {peak:,} B;"
          f" cyclic garbage after it: {garbage}")


def huge(mb: float) -> None:
    size = int(mb * 1_000_000)
    comment = ("lorem ipsum " * (size // 12 + 1))[:size]
    cases = {"one comment on one line": HEADER + "{ " + comment + " }\n" + TAIL,
             "one comment over many lines": HEADER + "{ " + comment.replace("m ", "m\n") + " }\n" + TAIL}
    print("one huge game read from a file (read_games(path)), RSS per input byte:")
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "small.7wn")
        with open(small, "w") as f:
            f.write(HEADER + TAIL)
        for name, text in cases.items():
            path = os.path.join(tmp, "huge.7wn")
            with open(path, "w") as f:
                f.write(text)
            out = subprocess.run([sys.executable, "-c", CHILD, path, small], capture_output=True, text=True,
                                 check=True)
            r = json.loads(out.stdout)
            print(f"  {name:30} {len(text):>12,} B: held after reading {r['held'] / len(text):5.2f},"
                  f" peak {r['peak'] / len(text):5.2f} ({r['read']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--huge-mb", type=float, default=20.0)
    args = parser.parse_args()
    setup(args.players, args.games, args.repeat)
    huge(args.huge_mb)


if __name__ == "__main__":
    main()
