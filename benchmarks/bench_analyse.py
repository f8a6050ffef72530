"""The cost of ``wnotation analyse`` (issue 33, item 5): playouts per CPU second, and a whole game's CPU seconds.

Usage: ``python benchmarks/bench_analyse.py [--playouts 100]``. Reported, never asserted. For the bundled 4- and
7-player replays: the playouts per CPU second from I.0 (a whole game played out) and the CPU seconds of every turn
boundary at ``--playouts`` in one process (CPU, not wall: the machine is shared), and with ``--marks`` the CPU
seconds of the first turn's marks.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import wnotation  # noqa: E402
from wnotation.analysis import analyse, estimate, marks  # noqa: E402
from wnotation.engine import COMPILED, replay  # noqa: E402
from wnotation.model.record import Record  # noqa: E402

GAMES = ("replays/4p-alexandria-ephesos-gizah-rhodos.7wn", "replays/7p-all-wonders.7wn")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=100)
    args = parser.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..")
    print(f"engine {'compiled' if COMPILED else 'pure Python'}; --playouts {args.playouts}")
    for path in GAMES:
        record = next(wnotation.read_games(os.path.join(root, path)))
        assert isinstance(record, Record)
        played = replay(record)
        start = time.process_time()
        estimate(played.position("I.0"), args.playouts, 1)
        rate = args.playouts / (time.process_time() - start)
        start = time.process_time()
        found = analyse(record, args.playouts, 1)
        whole = time.process_time() - start
        first = record.model_copy(update={"turns": record.turns[:1], "results": ()})
        start = time.process_time()
        marks(first, args.playouts, 1)
        marked = time.process_time() - start
        print(f"{path}: {rate:.0f} playouts/CPU s from I.0; {len(found)} positions in {whole:.1f} CPU s; "
              f"marks of turn I.1 {marked:.1f} CPU s")


if __name__ == "__main__":
    main()
