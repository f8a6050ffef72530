"""``wnotation show``: a position of a game (every city, the hands, the discard pile), its legal actions, and its
position string (spec/position.md), whole or as one seat sees it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ..model.catalog import AGE_NUMERALS
from . import completion
from .errors import UserError
from .inputs import RECORD_PATH, one_game, replayed, seat_number
from .output import colour_option, echo, emit_data, emit_json, print_fields, print_table

if TYPE_CHECKING:
    from ..engine import State
    from ..model.record import Record

SHOW_EPILOG = """\b
Addresses: I.0 is Age I dealt, II.3 the position after turn 3 of Age II, I.7 after Babylon's extra
turn, III.end the end of the game (after Age III's military). Without --at, the last position.
A game that starts from a [Position] tag has no position before it.

\b
Examples:
  wnotation show replays/7p-all-wonders.7wn --at II.3
  wnotation show replays/partial-4p-niamh.7wn --at II.3 --seat Bao --legal
  wnotation show game.7wn --at III.end --json
  wnotation show replays/7p-all-wonders.7wn --at II.3 --position --seat 2"""


@click.command(epilog=SHOW_EPILOG, short_help="Show a position: every city, the hands, the discard pile.")
@click.argument("file", type=RECORD_PATH)
@click.option("--at", "where", metavar="ADDRESS", shell_complete=completion.address, help="The position to show, e.g. II.3 (default: the last one).")
@click.option("--game", type=click.IntRange(min=1), default=None, metavar="N",
              help="Which game of the file (1 first; default: the first, with a note when there are several).")
@click.option("--seat", metavar="NAME", shell_complete=completion.seat, help="Only this seat (its name, or its number 1-7).")
@click.option("--legal", is_flag=True, help="List the legal actions of the seat (of every seat without --seat) "
              "in the next turn, with each cheapest purchase and its cost.")
@click.option("--position", "as_string", is_flag=True, help="Print the position string (spec/position.md) "
              "instead; with --seat, the projection for that seat (what it can see).")
@click.option("--json", "as_json", is_flag=True, help="Print the position as JSON (with its position string).")
@colour_option
def show(file: str, where: str | None, game: int | None, seat: str | None, legal: bool, as_string: bool,
         as_json: bool) -> int:
    """Replay game N of FILE (- for stdin) up to a position and show it.

    Each city: Wonder and stages built, coins, production (tradable, and own-use only), shields and military
    tokens, science symbols, trade prices when discounted, Buildings grouped by colour, and the hand (? for a card
    the record does not reveal); then the discard pile. With --legal, the legal actions as you would write them.
    With --position, the one-line position string a record can start from ([Position "…"]).
    """
    from ..formats import render
    from ..engine import legal_actions
    from ..engine.position import to_string

    if as_string and legal:
        raise click.UsageError("--position prints the position string; --legal does not go with it")

    record, lines, source, game = one_game(file, game)
    played, code = replayed(record, lines, source)
    if played.final is None:
        raise UserError(f"game {game} of {source} has no turn: there is no position to show")
    if where is None:
        state = played.final
    else:
        try:
            state = played.position(render.canonical_address(where))
        except KeyError as exc:
            raise UserError(_missing(str(exc.args[0]), played.addresses[0], record)) from None
    from ..engine.variations import split_address

    # a position inside a variation (spec 7wn.md 6.1): the variation's address and the position's label in it
    inside = split_address(where) if where is not None else None  # spelt canonically
    seats = [seat_number(record, seat)] if seat is not None else list(range(1, record.players + 1))
    viewer = seats[0] if seat is not None else None
    string = to_string(state, seed=_seed(record), seat=viewer)
    if as_string and not as_json:
        emit_data(string, f"the position string of game {game} of {source}", nl=True)
        return code
    names = [s.name for s in record.seats]
    moves = {s: legal_actions(state, s) for s in seats} if legal else {}
    if as_json:
        data: dict[str, Any] = {"source": source, "game": game} | render.position_data(state, record, seats)
        data["position"] = string
        if inside is not None:
            data["address"] = f"{inside[0]}.{inside[1]}"
        data["variation"] = inside[0] if inside is not None else None
        data["seen_by"] = names[viewer - 1] if viewer is not None else None
        if legal:
            data["legal"] = {names[s - 1]: render.legal_data(moves[s]) for s in seats}
        emit_json(data)
        return code
    title = render.position_title(state, record.players)
    if inside is not None:
        title = f"variation {inside[0]}, {title}"
    echo(title)
    for s in seats:
        echo()
        title, fields = render.city_fields(state, s, names[s - 1])
        print_fields(title, fields)
    if seat is None:
        echo()
        echo(f"discard pile: {render.discard_text(state)}")
    for s in seats if legal else ():
        echo()
        if not moves[s]:
            echo(f"{names[s - 1]} has no action to play after {state.address}: {_why_idle(state)}")
            continue
        header, rows = render.legal_table(moves[s])
        nxt = f"{AGE_NUMERALS[state.age]}.{state.turn + 1}"
        print_table(header, rows, title=f"legal actions of {names[s - 1]} in turn {nxt}")
    return code


def _seed(record: Record) -> int | None:
    """The game's SM64-FY seed: its [Seed] tag's, or that of the position it starts from (the Record's ``start``,
    which the replay has judged)."""
    from ..model.record import start_of

    start = start_of(record)
    if start is not None:
        return start.seed
    return record.seed.value if record.seed is not None and record.seed.algorithm == "SM64-FY" else None


def _missing(message: str, first: str, record: Record) -> str:
    """The error for an address the game does not have; a game that starts from a position says so."""
    from ..engine.position import position_tag

    if position_tag(record) is None:
        return message
    return f"{message}; the game starts from its [Position] at {first}, so no earlier position exists"


def _why_idle(state: State) -> str:
    if state.finished:
        return "the game is over"
    if state.ended:
        return f"Age {state.address.split('.')[0]} is over; the next position is the next Age's deal"
    if state.turn >= 6:
        return "the Age's turns are over for this seat"
    return "the hand holds only cards the record does not reveal"


COMMANDS = (show,)
