"""The rollout policy's strength against itself by seat (issue 33, item 5): is the greedy bot's seat order fair?

Usage: ``python benchmarks/bench_analysis.py [--players 4] [--games 40] [--bot greedy] [--first-seed 1]``. Reported,
never asserted. Plays ``--games`` games seeded ``--first-seed`` onwards with every seat played by ``--bot`` and
prints each seat's win share (a shared victory split among its winners, R-WIN) with a 95 % normal interval, and the
CPU seconds per game (CPU, not wall: the machine is shared). With equal seats every share is ``1 / players``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from wnotation.engine.bot import BOTS, play_game  # noqa: E402


def win_shares(players: int, games: int, bot: str, first_seed: int) -> tuple[list[list[float]], float]:
    """Each seat's win share in each game (1/k to each of k winners), and the CPU seconds the games took."""
    shares: list[list[float]] = [[] for _ in range(players)]
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        winners = [r.seat for r in play_game(players, seed, bot).results if r.rank == 1]
        for seat in range(1, players + 1):
            shares[seat - 1].append(1 / len(winners) if seat in winners else 0.0)
    return shares, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--bot", choices=BOTS, default="greedy")
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()
    shares, cpu = win_shares(args.players, args.games, args.bot, args.first_seed)
    print(f"{args.games} games, {args.players} seats, every seat {args.bot}; "
          f"{cpu / args.games:.2f} CPU s a game (shared machine: CPU time, not wall)")
    for seat, row in enumerate(shares, start=1):
        mean = sum(row) / len(row)
        sd = math.sqrt(sum((x - mean) ** 2 for x in row) / max(len(row) - 1, 1))
        half = 1.96 * sd / math.sqrt(len(row))
        print(f"seat {seat}: win share {mean:.3f} ± {half:.3f} (equal: {1 / args.players:.3f})")


if __name__ == "__main__":
    main()
