"""``wnotation score``: the final score sheet of a game, or a provisional one at any position (``--at``)."""

from __future__ import annotations

import click

from . import completion
from .errors import EXIT_FINDINGS, UserError
from .inputs import RECORD_PATH, one_game, replayed
from .output import colour_option, echo, emit_json, err, print_table

SCORE_EPILOG = """\b
The sheet is laid out like the score pad: a column per seat, a row per category (military,
treasury, wonder, civilian, commercial, guilds, science), then total, coins and rank (ties on
points broken by coins; seats still tied share the rank). Findings go to stderr; exit 1 if any
is an error or the game is incomplete. A card a seat built that the record does not name (a
build or a pick of ?) cannot be scored: the sheet then says what it leaves out (--json:
"incomplete" and "missing"). With --at ADDRESS the sheet is provisional: as if the game ended
there (military tokens won so far, coins held, stages built, Buildings, guilds and science on
what the cities hold); it works on unfinished records too (--json: "provisional": true).

\b
Examples:
  wnotation score replays/7p-all-wonders.7wn
  wnotation score club-night.7wn --game 3
  wnotation score replays/3p-babylon-halikarnassos-olympia.7wn --json
  wnotation score replays/partial-4p-niamh.7wn --at II.3"""


@click.command(epilog=SCORE_EPILOG, short_help="Show the final score sheet of a game.")
@click.argument("file", type=RECORD_PATH)
@click.option("--game", type=click.IntRange(min=1), default=None, metavar="N",
              help="Which game of the file (1 first; default: the first, with a note when there are several).")
@click.option("--at", "where", metavar="ADDRESS", shell_complete=completion.address,
              help="Score the position at ADDRESS (e.g. II.3) as if the game ended there: a provisional sheet.")
@click.option("--json", "as_json", is_flag=True, help="Print the score sheet as JSON.")
@colour_option
def score(file: str, game: int | None, where: str | None, as_json: bool) -> int:
    """Replay game N of FILE (- for stdin) and print its final score sheet, or with --at a provisional one.

    The expected results stated in the record are verified: a difference is reported as an R-SCORE finding.
    """
    from ..formats import render

    record, lines, source, game = one_game(file, game)
    played, code = replayed(record, lines, source)
    if where is not None:
        try:
            address = render.canonical_address(where)
            sheet = played.score_at(address)
        except KeyError as exc:
            raise UserError(str(exc.args[0])) from None
    elif played.scores is None:
        last = played.final.address if played.final is not None else "the start"
        err(f"error: game {game} of {source} is incomplete (the record stops at {last}): no score sheet")
        return EXIT_FINDINGS
    else:
        sheet, address = played.scores, "III.end"
    order = played.addresses
    missing = [m for m in render.unnamed_cards(record)
               if m["address"] not in order or order.index(m["address"]) <= order.index(address)]
    if missing:
        err(f"warning: {render.unnamed_text(missing)}")
    if as_json:
        emit_json({"source": source, "game": game, "at": address, "provisional": sheet.provisional}
                  | render.score_data(record, sheet) | {"incomplete": bool(missing), "missing": missing})
    else:
        header, rows = render.score_table(record, sheet)
        title = f"provisional score sheet at {address}, as if the game ended there" if sheet.provisional else None
        print_table(header, rows, title=title, right_align=True)
        if missing:
            echo(render.unnamed_text(missing))
    return code


COMMANDS = (score,)
