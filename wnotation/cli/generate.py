"""``wnotation generate``: complete legal games played by a built-in bot, as canonical 7WN."""

from __future__ import annotations

import click

from .output import emit_data
from .progress import Progress

GENERATE_EPILOG = """\b
Game k of --count K (k = 0, 1, ...) is dealt and played from seed S+k: the deal by SM64-FY
(spec/deal.md), the Wonders by the generator seeded with (S+k) xor 0x574F4E44455253, the bot's
choices by SplitMix64 from S+k (both in spec/deal.md, section 10). Each game records its seed,
guilds and expected results, so 'wnotation check' verifies it, and is canonical, purchases
included ('wnotation fmt --check' passes on it). The same options give the same bytes on every machine.

\b
Examples:
  wnotation generate --players 5 --seed 42
  wnotation generate --players 7 --seed 1 --count 100 --bot greedy > fixtures.7wn
  wnotation generate -p 3 -s 7 | wnotation check -"""


@click.command(epilog=GENERATE_EPILOG, short_help="Generate complete legal games (fixtures) in canonical 7WN.")
@click.option("--players", "-p", type=click.IntRange(3, 7), required=True, metavar="N", help="Seats (3-7).")
@click.option("--seed", "-s", type=click.IntRange(0, (1 << 64) - 1), required=True, metavar="S",
              help="Seed of the first game (0 to 2^64-1).")
@click.option("--count", "-n", type=click.IntRange(min=1), default=1, metavar="K", help="Number of games.")
@click.option("--bot", type=click.Choice(["random", "greedy", "search"]), default="random",
              help="Who plays: uniformly random legal actions, a one-move greedy heuristic, or a search over greedy "
              "playouts (stronger, about a second a 4-player game).")
@click.option("--playouts", type=click.IntRange(min=1), default=None, metavar="N",
              help="The search bot's playouts per candidate play (default 8; more is stronger and slower).")
def generate(players: int, seed: int, count: int, bot: str, playouts: int | None) -> None:
    """Play complete legal games with a built-in bot and print them as canonical 7WN, with expected results."""
    from ..engine.bot import play_game
    from ..engine.search import PLAYOUTS
    from ..support.gcpolicy import batch_collection
    from ..notation import write

    if playouts is not None and bot != "search":
        raise click.UsageError("--playouts is the search bot's: give it with --bot search")
    if seed + count - 1 >= 1 << 64:
        raise click.UsageError(f"--seed {seed} with --count {count} runs past the largest seed, 2^64-1")
    with Progress("generating", count, writes=True) as progress, batch_collection():
        for k in range(count):
            # A bot's Record is canonical already, purchases included (tests/test_bot.py: no second replay needed).
            # One write a game, the blank line between games included, left in stdout's buffer (flushed when the
            # command ends): a flush a game cost a write(2) a game.
            text = write(play_game(players, seed + k, bot, playouts=playouts or PLAYOUTS))
            emit_data("\n" + text if k else text, "the generated game", flush=False)
            progress.advance()


COMMANDS = (generate,)
