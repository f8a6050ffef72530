"""The search bot's strength and cost (issue 33, item 6): its win share against three greedy bots, and CPU per move.

Usage: ``python benchmarks/bench_search.py [--games 100] [--playouts 8] [--players 4] [--seed 1000]``. Reported,
never asserted. Game k is dealt from seed ``--seed + k`` with the search bot in seat ``k mod players + 1`` (so
every seat and Wonder takes its turn) and greedy bots in the others; a shared victory counts 1/k to each of its k
winners (R-WIN), so equal strength is a share of 1/players (25 % with 4). The interval is the 95 % Wilson
interval of the win share; the greedy bot in the same seats of the same deals is the baseline. CPU, not wall time:
the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from wnotation.analysis.winchance import wilson  # noqa: E402
from wnotation.engine import COMPILED  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402
from wnotation.model.record import Record  # noqa: E402


def share(game: Record, seat: int) -> float:
    """``seat``'s win share in a finished bot game (R-WIN)."""
    winners = [r.seat for r in game.results if r.rank == 1]
    return 1 / len(winners) if seat in winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--playouts", type=int, default=8)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--against", default="greedy", help="The bot of the other seats (greedy, random, uniform).")
    args = parser.parse_args()
    n = args.players
    print(f"engine {'compiled' if COMPILED else 'pure Python'}; {args.games} {n}-player games, search "
          f"--playouts {args.playouts} against {n - 1} {args.against}")
    won = base = margin = 0.0
    cpu = 0.0
    moves = 0
    for k in range(args.games):
        seat = k % n + 1
        bots = [args.against] * n
        bots[seat - 1] = "search"
        start = time.process_time()
        game = play_game(n, args.seed + k, seats=bots, playouts=args.playouts)
        cpu += time.process_time() - start
        moves += sum(1 for t in game.turns for a in t.actions if a.seat == seat)
        won += share(game, seat)
        baseline = play_game(n, args.seed + k, seats=[args.against] * n)
        base += share(baseline, seat)
        lines = {r.seat: r.total for r in game.results}
        margin += lines[seat] - max(v for s, v in lines.items() if s != seat)
    p = won / args.games
    low, high = wilson(p, args.games)
    q = base / args.games
    qlow, qhigh = wilson(q, args.games)
    print(f"search win share {100 * p:.1f} % (95 % {100 * low:.1f}-{100 * high:.1f}) over {args.games} games; "
          f"{args.against} in the same seats and deals {100 * q:.1f} % ({100 * qlow:.1f}-{100 * qhigh:.1f}); "
          f"equal strength {100 / n:.0f} %")
    print(f"mean score margin of the search seat over the best other seat {margin / args.games:+.1f} points")
    print(f"cost: {cpu / args.games:.2f} CPU s a game (every seat's moves), {cpu / moves:.3f} CPU s per search "
          f"move (upper bound: the other seats' moves included)")


if __name__ == "__main__":
    main()
