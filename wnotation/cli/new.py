"""``wnotation new``: print the header of a new record, to fill in with an editor."""

from __future__ import annotations

import sys

import click

from .errors import UserError
from .output import emit_data, err

NEW_EPILOG = """\b
The seats come from --seat (NAME:WONDER:SIDE, clockwise; Wonders in any accepted spelling,
sides day/night or A/B) or, in a terminal, are asked with completion on Wonder names. The
date is today's unless --date says otherwise. The output is a canonical 7WN header: append
one line per turn (I.1 Lumber Yard | Clay Pool | …) and check it with wnotation check.

\b
Examples:
  wnotation new --event "Club night" --seat Alice:Gizah:day --seat Bob:Babylon:night --seat Carol:Rhodes:A > club.7wn
  wnotation new > club.7wn"""


@click.command(epilog=NEW_EPILOG, short_help="Print the header of a new record to fill in.")
@click.option("--event", metavar="TEXT", help="The Event tag.")
@click.option("--date", metavar="YYYY.MM.DD", help="The date (default: today).")
@click.option("--seat", "seats", multiple=True, metavar="NAME:WONDER:SIDE",
              help="A seat, clockwise (3 to 7); asked in a terminal when left out.")
def new(event: str | None, date: str | None, seats: tuple[str, ...]) -> int:
    """Print a 7WN header (roster, event, date) for a game to be written by hand."""
    from ..notation import write
    from ..recorder.header import HeaderError, make_header

    try:
        if seats:
            header = make_header(seats=seats, event=event, date=date)
        elif sys.stdin.isatty():
            from prompt_toolkit.output import create_output

            from ..recorder import ui

            # The prompts go to stderr: stdout is the header, often redirected to the new file.
            header = ui.ask_header(event=event, date=date, echo=err,
                                   output=create_output(stdout=sys.stderr))
        else:
            raise UserError("give the seats with --seat NAME:WONDER:SIDE (3 to 7), or run it in a terminal to be "
                            "asked for them")
    except HeaderError as exc:
        raise UserError(str(exc)) from None
    emit_data(write(header), "the header")
    return 0


COMMANDS = (new,)
