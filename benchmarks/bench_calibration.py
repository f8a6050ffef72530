"""How good are ``wnotation analyse``'s estimates (issue 33, item 5): calibration, seed spread, cost, policy strength.

Usage: ``python benchmarks/bench_calibration.py [--games 200] [--playouts 100] [--players 4] [--bot greedy]
[--seed 50000] [--cost-playouts 100 400] [--strength-games 1000]``. Reported, never asserted; about 6 CPU minutes
with the defaults (pure-Python engine), bounded by them. CPU seconds, not wall: the machine is shared.

1. Calibration, on held-out games: ``--games`` games of ``--players`` seats played by ``--bot`` from seeds
   ``--seed``, ``--seed + 1`` ... (none of them a seed the tests, fixtures or replays use). At the start of each Age
   (I.0, II.0, III.0) every seat's chance is estimated with ``--playouts`` playouts (seed 1) and set against what
   happened (its win share, R-WIN). Predictions are binned by tenths: the mean prediction against the observed
   rate. The Brier score (mean squared error) is set against always saying 1/players.
2. The spread between two seeds: the same positions estimated again with seed 2; the mean and the 95th percentile
   of the absolute difference, against what two independent estimates of ``--playouts`` each would show, and how
   often seed 2's figure falls inside seed 1's 95 % Wilson interval.
3. The cost: playouts per CPU second (from the Age starts above), and a whole game's every turn boundary estimated
   at each of ``--cost-playouts`` for a 4- and a 7-player game (100 and 400: half-widths at most about 10 and 5
   points), measured, with the widest interval it gave.
4. The rollout policy's strength: ``--strength-games`` 4-player games of one greedy seat (rotating) against three
   uniform-random ones; and greedy in every seat, by seat (equal strength is 25 %).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from wnotation.analysis.winchance import analyse, estimate, shares, wilson  # noqa: E402
from wnotation.engine import COMPILED, replay  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402

STARTS = ("I.0", "II.0", "III.0")


def calibration(args: argparse.Namespace) -> None:
    preds: dict[str, list[tuple[float, float]]] = {a: [] for a in STARTS}
    spread: list[tuple[float, float, float, float]] = []  # p1, p2, low1, high1
    cpu = 0.0
    playouts = 0
    for k in range(args.games):
        record = play_game(args.players, args.seed + k, args.bot)
        played = replay(record)
        outcome = shares(played.position("III.end"))
        for j, where in enumerate(STARTS):
            state = played.position(where)
            start = time.process_time()
            first = estimate(state, args.playouts, 1, 3 * k + j)
            second = estimate(state, args.playouts, 2, 3 * k + j)
            cpu += time.process_time() - start
            playouts += 2 * args.playouts
            for e1, e2 in zip(first, second):
                preds[where].append((e1.chance, outcome[e1.seat - 1]))
                spread.append((e1.chance, e2.chance, e1.low, e1.high))
    n = args.players
    print(f"\n1. calibration: {args.games} {n}-player {args.bot} games from seed {args.seed}, {args.playouts} "
          f"playouts a position (seed 1), at each Age's start")
    everything = [p for a in STARTS for p in preds[a]]
    for label, items in [(a, preds[a]) for a in STARTS] + [("all", everything)]:
        brier = statistics.fmean((p - o) ** 2 for p, o in items)
        base = statistics.fmean((1 / n - o) ** 2 for _, o in items)
        print(f"   {label:>5}: Brier {brier:.4f} against {base:.4f} for always 1/{n} (skill {1 - brier / base:+.3f}); "
              f"{len(items)} predictions")
    print("   bin        predictions  mean predicted  observed (95 % Wilson)")
    for b in range(10):
        inside = [(p, o) for p, o in everything if b / 10 <= p < (b + 1) / 10 or (b == 9 and p == 1.0)]
        if not inside:
            continue
        observed = statistics.fmean(o for _, o in inside)
        low, high = wilson(observed, len(inside))
        print(f"   {b * 10:3d}-{b * 10 + 10:3d} %  {len(inside):11d}  {100 * statistics.fmean(p for p, _ in inside):13.1f} %"
              f"  {100 * observed:6.1f} % ({100 * low:.1f}-{100 * high:.1f})")
    diffs = sorted(abs(p1 - p2) for p1, p2, _, _ in spread)
    expected = statistics.fmean(math.sqrt(2 * p1 * (1 - p1) / args.playouts) * math.sqrt(2 / math.pi)
                                for p1, _, _, _ in spread)
    inside = sum(low <= p2 <= high for _, p2, low, high in spread) / len(spread)
    print(f"\n2. seed 1 against seed 2 on the same {len(spread)} seat-positions: mean |difference| "
          f"{100 * statistics.fmean(diffs):.1f} points, 95th percentile {100 * diffs[int(0.95 * len(diffs))]:.1f}, "
          f"largest {100 * diffs[-1]:.1f} (two independent estimates of {args.playouts} would differ by "
          f"{100 * expected:.1f} on average); seed 2 inside seed 1's 95 % interval {100 * inside:.1f} % of the time")
    print(f"\n3. cost: {playouts / cpu:.0f} playouts per CPU second over those Age starts ({n} players, one core)")


def cost(args: argparse.Namespace) -> None:
    for players, seed in ((4, 60000), (7, 60001)):
        record = play_game(players, seed, args.bot)
        for playouts in args.cost_playouts:
            start = time.process_time()
            found = analyse(record, playouts, 1)
            spent = time.process_time() - start
            half = 100 * max(e.high - e.low for a in found for e in a.estimates) / 2
            print(f"   a whole {players}-player {args.bot} game, {len(found)} turn boundaries at {playouts} playouts a "
                  f"position: {spent:.1f} CPU s on one core (--jobs divides it); widest 95 % half-width "
                  f"{half:.1f} points")


def strength(args: argparse.Namespace) -> None:
    games = args.strength_games
    won = 0.0
    by_seat = [0.0] * 4
    for k in range(games):
        seat = k % 4 + 1
        bots = ["uniform"] * 4
        bots[seat - 1] = "greedy"
        record = play_game(4, args.seed + 100000 + k, seats=bots)
        winners = [r.seat for r in record.results if r.rank == 1]
        won += 1 / len(winners) if seat in winners else 0.0
        record = play_game(4, args.seed + 200000 + k, "greedy")
        winners = [r.seat for r in record.results if r.rank == 1]
        for s in winners:
            by_seat[s - 1] += 1 / len(winners)
    p = won / games
    low, high = wilson(p, games)
    print(f"\n4. rollout policy: one greedy seat against three uniform-random ones wins {100 * p:.1f} % "
          f"({100 * low:.1f}-{100 * high:.1f}) of {games} 4-player games (equal strength 25 %)")
    cells = []
    for s in range(4):
        q = by_seat[s] / games
        lo, hi = wilson(q, games)
        cells.append(f"seat {s + 1} {100 * q:.1f} % ({100 * lo:.1f}-{100 * hi:.1f})")
    print(f"   greedy in every seat, {games} 4-player games: " + "; ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--playouts", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="greedy", help="The bot that plays the held-out games.")
    parser.add_argument("--seed", type=int, default=50000)
    parser.add_argument("--cost-playouts", type=int, nargs="+", default=[100, 400])
    parser.add_argument("--strength-games", type=int, default=1000)
    args = parser.parse_args()
    print(f"engine {'compiled' if COMPILED else 'pure Python'}; {vars(args)}")
    began = time.process_time()
    calibration(args)
    cost(args)
    strength(args)
    print(f"\n{time.process_time() - began:.0f} CPU s in all")


if __name__ == "__main__":
    main()
