"""How noisy ``wnotation analyse --marks`` is (issue 33, item 2): the spread of one action's mark between seeds.

Usage: ``python benchmarks/bench_marks.py [--playouts 20] [--turns 6] [--seeds 1 2]``. Reported, never asserted.
For the bundled 3-player replay's first ``--turns`` turns, every action's mark (the best alternative's chance
less the played action's, :class:`wnotation.analysis.Mark`) is computed with each seed, and so is the gap between
the played action and each one of its alternatives; the figures are the mean and the largest absolute difference of
the same figure between the two seeds. With independent playouts for each alternative the gaps differ by the noise
of two estimates; with common random numbers (the same deals and the same random plays for every alternative) the
noise they share cancels in the gap.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import wnotation  # noqa: E402
from wnotation.analysis import estimate, marks  # noqa: E402
from wnotation.analysis.marks import _reach, _starting  # noqa: E402
from wnotation.analysis.rollout import alternatives, as_action  # noqa: E402
from wnotation.engine import replay  # noqa: E402
from wnotation.model.catalog import AGE_NUMERALS  # noqa: E402
from wnotation.model.record import Record  # noqa: E402

GAME = "replays/3p-babylon-halikarnassos-olympia.7wn"


def gaps(record: Record, turns: int, playouts: int, seed: int) -> dict[tuple[int, int, str], float]:
    """Each (turn, seat, alternative): the alternative's chance less the played action's, reached and rated as
    :func:`wnotation.analysis.marks` reaches and rates them."""
    played = replay(record)
    out = {}
    for k, turn in enumerate(record.turns[:turns]):
        before = f"{AGE_NUMERALS[turn.age]}.{turn.number - 1}"
        reach = _reach(record, k, _starting(record, played.position(before), turn))
        reached = reach(turn.actions[0].seat, turn.actions[0])
        assert reached is not None
        chances = estimate(reached, playouts, seed, k)
        for action in turn.actions:
            mine = chances[action.seat - 1].chance
            for alt in alternatives(played.position(before), action.seat):
                other = as_action(alt, turn.number)
                if (other.use, other.card, other.discard) == (action.use, action.card, action.discard):
                    continue
                position = reach(action.seat, other)
                assert position is not None
                got = estimate(position, playouts, seed, k)[action.seat - 1].chance
                out[(k, action.seat, f"{other.use} {other.card} {other.discard}")] = got - mine
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=20)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--seeds", type=int, nargs=2, default=(1, 2))
    args = parser.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..")
    record = next(wnotation.read_games(os.path.join(root, GAME)))
    assert isinstance(record, Record)
    cut = record.model_copy(update={"turns": record.turns[: args.turns], "results": ()})
    start = time.process_time()
    a, b = (marks(cut, args.playouts, s) for s in args.seeds)
    loss = sorted(abs(x.loss - y.loss) for x, y in zip(a, b))
    g1, g2 = (gaps(cut, args.turns, args.playouts, s) for s in args.seeds)
    gap = sorted(abs(g1[key] - g2[key]) for key in g1)
    print(f"{GAME}, first {args.turns} turns, {args.playouts} playouts, seeds {args.seeds[0]} and {args.seeds[1]} "
          f"({time.process_time() - start:.0f} CPU s)")
    print(f"  marks (loss against the best alternative), {len(loss)} actions: mean |difference| "
          f"{100 * sum(loss) / len(loss):.1f} points, largest {100 * loss[-1]:.1f}")
    print(f"  gap played-alternative, {len(gap)} pairs: mean |difference| {100 * sum(gap) / len(gap):.1f} points, "
          f"largest {100 * gap[-1]:.1f}")


if __name__ == "__main__":
    main()
