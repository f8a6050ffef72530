"""Stated positions: build a :class:`~wnotation.engine.state.State` from a short description, without replaying.

For tests, rules cases and analysis ("what if Bob held …"). The description uses printed card names; the derived
parts of a city (production, prices, shields, powers) come from the same mutators as in a replay.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..catalog import Card, CatalogError, WonderSide, load
from . import events as ev
from .state import State, Table, apply, initial

_AGES = {"I": 1, "II": 2, "III": 3}


def card(name: str, age: int = 3) -> Card:
    """The design called ``name`` from ``age`` or the latest earlier Age (``Glassworks`` in Age II is Age II's);
    a key such as ``I:Glassworks`` names the Age. Raises :class:`~wnotation.catalog.CatalogError` if unknown."""
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
    s = initial(table)
    blank = tuple((None,) * 40 for _ in range(n))
    s = State(table, age, 0, False, s.cities, blank, ())
    for k, spec in enumerate(cities):
        seat = k + 1
        for name in spec.get("buildings", ()):
            s = apply(s, ev.CardBuilt(seat, card(name, age)))
        ages = spec.get("stage_ages") or (age,) * spec.get("stages", 0)
        for i, a in enumerate(ages[: spec.get("stages", len(ages))]):
            s = apply(s._replace(age=a), ev.StageBuilt(seat, i + 1, None))._replace(age=age)
        for token in spec.get("tokens", ()):
            s = apply(s, ev.ConflictResolved(seat, seat, token))
        c = s.cities[k]._replace(coins=spec.get("coins", 3), picks=0)
        s = s._replace(cities=s.cities[:k] + (c,) + s.cities[k + 1:])
    held: tuple[tuple[Card | None, ...], ...]
    if hands is None:
        held = tuple((None,) * (7 - min(turn, 6)) for _ in range(n))
    else:
        held = tuple(_cards(h, age) for h in hands)
    return State(table, age, turn, False, s.cities, held, _cards(discard, age))
