"""``wnotation bgstats``: a finished game as a BG Stats play (the app's documented push-play link or its JSON)."""

from __future__ import annotations

import click

from .errors import UserError
from .inputs import RECORD_PATH, one_game, replayed
from .output import colour_option, echo, emit_json

BGSTATS_EPILOG = """\b
BG Stats imports a play from a link (https://app.bgstatsapp.com/createPlay.html?data=...):
open it on a phone with the app and its import dialog matches the game and the players (once;
the app remembers). The play holds the date (the Date tag; a Time tag HH:MM:SS, else noon),
the Site as location, the Event as comment, and per seat the name, total score, rank (shared
on a tie), winner and the Wonder side as role. The game must be finished and its date known.

\b
Examples:
  wnotation bgstats club.7wn
  wnotation bgstats club.7wn --game 3 --json"""


@click.command(epilog=BGSTATS_EPILOG, short_help="Turn a finished game into a BG Stats play (link or JSON).")
@click.argument("file", type=RECORD_PATH)
@click.option("--game", type=click.IntRange(min=1), default=None, metavar="N",
              help="Which game of the file (1 first; default: the first, with a note when there are several).")
@click.option("--json", "as_json", is_flag=True, help="Print the play's JSON instead of the link.")
@colour_option
def bgstats(file: str, game: int | None, as_json: bool) -> int:
    """Print the BG Stats push-play link of game N of FILE (- for stdin)."""
    from ..formats.bgstats import BGStatsError, play_data, push_url

    record, lines, source, game = one_game(file, game)
    played, code = replayed(record, lines, source)
    try:
        data = play_data(record, played.scores)
    except BGStatsError as exc:
        raise UserError(f"game {game} of {source}: {exc}") from None
    if as_json:
        emit_json(data)
    else:
        echo(push_url(data))
    return code  # 1 when the record has errors (shown on stderr), as score does


COMMANDS = (bgstats,)
