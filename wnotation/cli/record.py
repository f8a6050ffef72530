"""``wnotation record``: record a game at the table, turn by turn, the rules checked as each action is entered."""

from __future__ import annotations

import click

from ..support.compiler_style import visible
from .errors import UserError
from .output import echo


def _usage(message: str) -> UserError:
    """The command's usage error, its message shown through the one sanitiser (names and paths are data)."""
    return UserError(visible(message))


RECORD_EPILOG = """\b
Each turn asks every seat's action in seat order, completing from what the engine knows at
this position (the seat's hand when the deal is known, else the cards of this Age still
possible; stage …, sell …, ? for a card not seen) with each play's cost; a paid build with
several cheapest purchases asks which (Enter: the engine's default); turn 6's discard,
Babylon's extra turn and Halikarnassos' pick are asked exactly when the rules call for them.
A finding is shown at once with its rule ID: an action with an error is recorded only on y
to the question naming its errors (anything else cancels it). undo, undo turn, redo, help
and the table commands city SEAT, hand SEAT, pile, coins, sheet at any prompt. After every
turn FILE is rewritten atomically in canonical 7WN (with [Guilds] once the guilds are known)
with coins, shields and provisional points shown; FILE holding an unfinished record goes on
where it stopped. --scores checks each row of the pad as it is typed; ROW SEAT re-enters one.

\b
Examples:
  wnotation record club.7wn
  wnotation record club.7wn --seat Alice:Gizah:day --seat Bob:Babylon:night --seat Carol:Rhodos:day
  wnotation record club.7wn --view Alice
  wnotation record pad.7wn --scores --expansions Cities,Leaders"""


@click.command(epilog=RECORD_EPILOG, short_help="Record a game at the table, the rules checked as you type.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--view", metavar="SEAT", help="Record as this seat (name or number) sees the game: the other seats' "
              "hidden cards (stages, sales, discards) are ? by default.")
@click.option("--event", metavar="TEXT", help="The Event tag of a new record.")
@click.option("--date", metavar="YYYY.MM.DD", help="The date of a new record (default: today).")
@click.option("--seat", "seats", multiple=True, metavar="NAME:WONDER:SIDE",
              help="A seat of a new record, clockwise (3 to 7); asked when left out.")
@click.option("--scores", is_flag=True, help="Fill in a score-pad record instead (final scores only, no turns): "
              "row by row as on the paper pad, with a science calculator.")
@click.option("--expansions", metavar="NAMES", help="With --scores: the expansions played (Cities, Leaders, "
              "Armada, Edifice, comma-separated); their rows are asked too.")
def record(file: str, view: str | None, event: str | None, date: str | None, seats: tuple[str, ...],
           scores: bool = False, expansions: str | None = None) -> int:
    """Record a game in FILE interactively (a new record, or an unfinished one to go on with)."""
    if scores or expansions is not None:
        return _scores(file, event, date, seats, expansions)
    from ..recorder import session as recording
    from ..recorder import ui
    from ..recorder.header import HeaderError, make_header

    if recording.exists(file):
        if seats or event or date:
            raise _usage(f"{file} already holds a record, whose header is kept: leave out --seat, --event and "
                            "--date to go on with it")
        session = recording.Session.open(file)
    else:
        try:
            header = make_header(seats=seats, event=event, date=date) if seats else ui.ask_header(
                event=event, date=date)
        except HeaderError as exc:
            raise _usage(str(exc)) from None
        session = recording.Session(header, path=file)
    if view is not None:
        session.view = _seat(view, [s.name for s in session.header.seats])
    if session.question() is None:
        echo(f"{file} is complete: nothing to record (wnotation score {file} shows its score sheet)")
        return 0
    try:
        session.save()  # at once: the header of a new record, the canonical text of one to go on with
    except OSError as exc:
        raise _usage(f"cannot write {file}: {exc.strerror or exc}") from None
    for line in session.findings_lines():
        echo(line)
    ui.run(session)
    return 0


def _scores(file: str, event: str | None, date: str | None, seats: tuple[str, ...], expansions: str | None) -> int:
    """``--scores``: a score-pad record (spec 9.1) filled in row by row (wnotation.recorder.scores)."""
    from ..recorder import scores as pad
    from ..recorder import session as recording
    from ..recorder import ui
    from ..recorder.header import HeaderError, make_header

    try:
        named = pad.expansions_of(expansions or "")
        if recording.exists(file):
            if seats or event or date or named:
                raise _usage(f"{file} already holds a record, whose header is kept: leave out --seat, --event, "
                                "--date and --expansions to go on with it")
            session = pad.PadSession.open(file)
        else:
            header = make_header(seats=seats, event=event, date=date) if seats else ui.ask_header(
                event=event, date=date)
            session = pad.PadSession(header.model_copy(update={"expansions": named}), file)
    except (HeaderError, ValueError) as exc:
        raise _usage(str(exc)) from None
    try:
        pad.run(session, echo=echo)  # record text (names, tags) shown through the one sanitiser
    except OSError as exc:
        raise _usage(f"cannot write {file}: {exc.strerror or exc}") from None
    return 0


def _seat(text: str, names: list[str]) -> int:
    """A seat number from a number or a name (spelt as the header does, any case)."""
    from ..model.vocabulary import seat_key

    if text.isdigit() and 1 <= int(text) <= len(names):
        return int(text)
    for k, name in enumerate(names, 1):
        if seat_key(name) == seat_key(text):
            return k
    raise _usage(f"--view {text}: no such seat (seats: {', '.join(names)}, or 1 to {len(names)})")


COMMANDS = (record,)
