"""The timings the unit suite used to assert, measured as figures: how fast the reader refuses pathological lines,
how long the trade solver takes on a Palace with many sources, and how much cheaper the header-only skim is than a
full read. Wall-clock limits made the suite flaky on a busy machine (and under pytest-xdist); here they are
reported next to the limit the suite once asserted, never asserted.

Run: ``python benchmarks/bench_timings.py`` (CPU time, best of ``--runs``; about ten seconds).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from wnotation.model.catalog import RESOURCES
from wnotation.engine.trade import Prices, minimal_purchases
from wnotation.notation import NotationError, parse, read_games, read_headers, write

HEADER = """[Format "7WN 1"]
[Edition "2e"]
[Date "2026.11.29"]
[Seat1 "Alice" "Gizah" "day"]
[Seat2 "Bob" "Babylon" "night"]
[Seat3 "Carol" "Halikarnassos" "night"]

"""

#: The lines the reader must refuse quickly (tests/test_notation_properties.py, test_pathological_lines_are_refused).
PATHOLOGICAL = {
    "3,000 repeated names": "I.1 " + "Lumber " * 3000,
    "a 20,000-letter word": "I.1 " + "a" * 20000,
    "an unclosed purchase of 2,000 units": "I.1 Temple (" + "L clay, " * 2000,
    "5,000 seat prefixes": "I.1 " + "x:" * 5000,
    "5,000 opened comments": "I.1 Temple " + "{" * 5000,
    "a result of 5,000 names": "result " + "Al " * 5000,
}


def best(run: Callable[[], object], runs: int) -> tuple[float, float]:
    """CPU time of the first of ``runs`` calls of ``run`` (the library's caches cold) and the least of all, in
    seconds."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return times[0], min(times)


def ms(times: tuple[float, float]) -> str:
    return f"{times[0] * 1000:.1f} ms | {times[1] * 1000:.1f} ms"


def refuse(line: str) -> None:
    try:
        parse(HEADER + line + "\n")
    except NotationError:
        return
    raise AssertionError("the reader accepted a pathological line")


def palace() -> None:
    wood, stone, clay, ore, glass, papyrus, loom = (("wood",), ("stone",), ("clay",), ("ore",), ("glass",),
                                                    ("papyrus",), ("loom",))
    needs = {r: 1 for r in RESOURCES}
    own = [("wood", "stone"), ("clay", "ore"), glass]
    left = [("wood", "clay"), ("stone", "ore"), papyrus, loom, ore]
    right = [("glass", "papyrus", "loom"), wood, stone, clay, loom, papyrus]
    assert all(p.units == 4 for p in minimal_purchases(needs, own, left, right, Prices(1, 2, 2, 1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the best is kept")
    runs = parser.parse_args().runs

    print("| what | first run | best run | the suite's old limit |")
    print("|---|---|---|---|")
    for name, line in PATHOLOGICAL.items():
        print(f"| refuse {name} | {ms(best(lambda line=line: refuse(line), runs))} | 2,000 ms |")
    print(f"| Palace, 17 sources: every cheapest purchase | {ms(best(palace, runs))} | 500 ms |")

    from wnotation.engine.bot import play_game

    games = [write(play_game(players, seed, bot=bot)) for players in (3, 5, 7) for seed in range(3)
             for bot in ("random", "greedy")]
    text = "\n".join(games[-6:] * 4)
    full, skim = best(lambda: list(read_games(text)), runs)[1], best(lambda: list(read_headers(text)), runs)[1]
    print(f"| read 24 games / their headers only (best runs) | {full * 1000:.1f} ms | {skim * 1000:.1f} ms "
          f"({full / skim:.1f}x) | skim at least 2x faster |")


if __name__ == "__main__":
    main()
