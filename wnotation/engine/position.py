"""Stated positions: build a :class:`~wnotation.engine.state.State` without replaying, from a short description
(:func:`position`, for tests and rules cases) or from a 7WN position string (:func:`from_string`,
spec/position.md), and write a position's string, whole or as one seat sees it (:func:`to_string`,
:func:`projection`). A record that starts from a ``[Position]`` tag gets its first position from :func:`record_start`.

The derived parts of a city (production, prices, shields, powers) come from the same mutators as in a replay. The
text itself (syntax, names) is :mod:`wnotation.model.position_string`'s, the judging of it by the rules
:mod:`.position_rules`'; this module never bypasses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..model.catalog import Card, CatalogError, WonderSide, load
from ..model.record import POSITION_TAG as POSITION_TAG  # re-exported: the engine's users import it from here too
from ..model.position_values import SeatSetup, Setup
from ..model.record import Record, start_of
from ..model.record import position_tag as position_tag
from . import events as ev
from .state import City, Game, State, Table, initial, pile_owners, view

_AGES = {"I": 1, "II": 2, "III": 3}


def card(name: str, age: int = 3) -> Card:
    """The design called ``name`` from ``age`` or the latest earlier Age (``Glassworks`` in Age II is Age II's);
    a key such as ``I:Glassworks`` names the Age. Raises :class:`~wnotation.model.catalog.CatalogError` if unknown."""
    catalog = load()
    numeral, sep, rest = name.partition(":")
    if sep and numeral in _AGES:
        return catalog.card(rest, _AGES[numeral])
    for a in range(age, 0, -1):
        try:
            return catalog.card(name, a)
        except CatalogError:
            continue
    return catalog.card(name)


def _cards(names: Sequence[str | None], age: int) -> tuple[Card | None, ...]:
    return tuple(None if n in (None, "?") else card(n, age) for n in names)


def _cities(table: Table, age: int, specs: Sequence[tuple[Sequence[Card], Sequence[tuple[int, Card | None]],
                                                           Sequence[int], int, int]]) -> tuple[City, ...]:
    """The cities of ``table`` built from ``(buildings, stages as (Age, card), tokens, coins, picks owed)`` per
    seat, through the mutators (in ``age``; each stage in its own Age)."""
    n = table.players
    start = initial(table)
    game = Game(State(table, age, 0, False, start.cities, tuple((None,) * 40 for _ in range(n)), ()))
    for k, (buildings, stages, tokens, _, _) in enumerate(specs):
        seat = k + 1
        for building in buildings:
            game.apply(ev.CardBuilt(seat, building))
        for i, (a, under) in enumerate(stages):
            game.age = a  # this scratch game stands in the Age the stage was built in (its stage_ages)
            game.apply(ev.StageBuilt(seat, i + 1, under))
        game.age = age
        for token in tokens:
            game.apply(ev.ConflictResolved(seat, seat, token))
    return tuple(c._replace(coins=spec[3], picks=spec[4]) for c, spec in zip(game.snapshot().cities, specs))


def position(wonders: Sequence[WonderSide | tuple[str, str]], *, age: int = 1, turn: int = 0,
             cities: Sequence[Mapping[str, Any]] = (), hands: Sequence[Sequence[str | None]] | None = None,
             discard: Sequence[str | None] = (), names: Sequence[str] | None = None) -> State:
    """A position in ``age`` after ``turn`` turns (before the next turn is played).

    ``wonders``: Wonder sides in seat order, objects or ``("Gizah", "night")`` pairs. ``cities[k]`` may hold
    ``buildings`` (names, built in that order), ``stages`` (count), ``stage_ages`` (the Age of each stage, default
    the current one), ``coins`` (default 3) and ``tokens``. ``hands[k]`` is seat k+1's hand (names, ``"?"`` for
    unknown; default ``7 - turn`` unknown cards), ``discard`` the pile. Names resolve to the card design of
    ``age`` or the latest earlier Age. Raises ``CatalogError`` for unknown names.
    """
    catalog = load()
    sides = tuple(w if isinstance(w, WonderSide) else catalog.wonder(*w) for w in wonders)
    n = len(sides)
    table = Table(tuple(names) if names else tuple(f"Seat{k + 1}" for k in range(n)), sides)
    specs = []
    for k in range(n):
        spec = cities[k] if k < len(cities) else {}
        ages = spec.get("stage_ages") or (age,) * spec.get("stages", 0)
        stages = [(a, None) for a in ages[: spec.get("stages", len(ages))]]
        specs.append(([card(b, age) for b in spec.get("buildings", ())], stages, tuple(spec.get("tokens", ())),
                      spec.get("coins", 3), 0))
    held: tuple[tuple[Card | None, ...], ...]
    if hands is None:
        held = tuple((None,) * (7 - min(turn, 6)) for _ in range(n))
    else:
        held = tuple(_cards(h, age) for h in hands)
    return State(table, age, turn, False, _cities(table, age, specs), held, _cards(discard, age))


# --- position strings -------------------------------------------------------------------------------------------


def state_of(setup: Setup) -> State:
    """The engine position a :class:`~wnotation.model.position_string.Setup` states (at an Age's end, ``turn`` is 6)."""
    table = Table(tuple(s.name for s in setup.seats), tuple(s.wonder for s in setup.seats), setup.guilds)
    cities = _cities(table, setup.age, [(s.buildings, s.stages, s.tokens, s.coins, s.picks) for s in setup.seats])
    return State(table, setup.age, setup.turn, setup.ended, cities, tuple(s.hand for s in setup.seats),
                 tuple(c for c, _ in setup.pile), tuple(k for _, k in setup.pile))


def setup_of(state: State, seed: int | None = None) -> Setup:
    """What the position string of ``state`` states (with ``seed``, the game's ``SM64-FY`` seed, when known).
    Raises ``ValueError`` for the position before Age I is dealt, which has no string."""
    if state.age == 0:
        raise ValueError("the start of the game (before Age I is dealt) has no position string")
    seats = tuple(SeatSetup(state.table.names[k], c.wonder, c.coins, c.tokens, tuple(zip(c.stage_ages, c.staged)),
                                 c.buildings, state.hands[k], c.picks) for k, c in enumerate(state.cities))
    return Setup(state.age, 6 if state.ended else state.turn, state.ended, seats,
                      tuple(zip(state.discard, pile_owners(state))), state.table.guilds, seed)


def projection(state: State, seat: int) -> State:
    """What ``seat`` sees of ``state`` (spec/position.md §7): :func:`~.state.view`, without the guilds."""
    seen = view(state, seat)
    return seen._replace(table=Table(state.table.names, state.table.wonders, None))


def to_string(state: State, *, seed: int | None = None, seat: int | None = None) -> str:
    """The canonical position string of ``state``, or with ``seat`` its projection for that seat (no guilds, no
    seed). Raises ``ValueError`` before Age I is dealt. Cost: linear in the cards."""
    from ..model import position_string as text

    if seat is not None:
        return text.write(setup_of(projection(state, seat)))
    return text.write(setup_of(state, seed))


def from_string(position: str) -> tuple[State, int | None]:
    """The position a string states and its seed (``None`` when it states none). Raises
    :class:`~wnotation.model.position_string.PositionError` (a ``ValueError``) for an invalid string."""
    from .position_rules import read

    setup = read(position)
    return state_of(setup), setup.seed


def normal_form(state: State) -> State:
    """``state`` with what a position string does not record put in one order (spec/position.md §9): each city's
    production sources and science symbols sorted, and ``turn`` 6 at an Age's end; two positions are the same
    when their normal forms are equal."""
    cities = tuple(c._replace(own=tuple(sorted(c.own)), science=tuple(sorted(c.science))) for c in state.cities)
    return state._replace(cities=cities, turn=6 if state.ended else state.turn, discarded_by=pile_owners(state))


# --- records that start from a position -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Start:
    """Where a record starts: the position of its ``[Position]`` tag, and the seed that string states."""

    state: State
    seed: int | None


def start_setup(record: Record) -> Setup | None:
    """The position ``record`` starts from (spec/position.md §8), judged by the rules, or ``None`` when it starts
    at the beginning: its :attr:`~wnotation.model.record.Record.start` (read once, by the reader or the validator)
    through :func:`.position_rules.judge`. Raises :class:`~wnotation.model.position_string.PositionError` (a
    ``ValueError``) for a position the rules do not allow, and :func:`~wnotation.model.record.start_of`'s
    ``ValueError`` for a Record made without validation that breaks a rule of §8."""
    written = start_of(record)
    if written is None:
        return None
    from .position_rules import judge  # only a record that starts from a position needs the judge

    return judge(written)


def record_start(record: Record) -> Start | None:
    """The position ``record`` starts from (spec/position.md §8), or ``None`` when it starts at the beginning.

    A ``ValueError`` here is :func:`start_setup`'s: a position the rules do not allow (the engine judges it here;
    :func:`~.replay.replay` turns it into a replay of one finding, and ``check`` reports it as the reader reports a
    bad tag), or a Record made without validation (``model_copy``, ``model_construct``) that breaks a rule of §8."""
    setup = start_setup(record)
    return None if setup is None else Start(state_of(setup), setup.seed)
