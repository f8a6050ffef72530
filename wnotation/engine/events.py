"""The events of a game: facts that turn resolution decides and :func:`wnotation.engine.state.apply` folds.

Events are small frozen values named as past participles; they hold only what the record fixes (seats are
1-based, cards are catalogue objects, ``None`` is an unknown card). They carry no timestamps, ids or legality.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..catalog import Card

#: ``HandsPassed.direction``: +1 passes to the left neighbour (seat i -> i+1), -1 to the right (R-PASS).
LEFT, RIGHT = 1, -1


@dataclass(frozen=True, slots=True)
class AgeDealt:
    """Seven cards dealt to every seat at the start of ``age`` (``hands[seat-1]``; ``None`` = unknown card)."""

    age: int
    hands: tuple[tuple[Card | None, ...], ...]


@dataclass(frozen=True, slots=True)
class CardBuilt:
    """``card`` left the seat's hand and became a Building. ``how``: ``paid``, ``chain`` (R-CHAIN), ``power``
    (Olympia), or ``unpaid`` (the record's illegal build, applied as written after a finding)."""

    seat: int
    card: Card
    how: str = "paid"


@dataclass(frozen=True, slots=True)
class StageBuilt:
    """Stage ``stage`` (1-based) of the seat's Wonder was built with ``card`` (``None`` if unseen)."""

    seat: int
    stage: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class CardSold:
    """``card`` (``None`` if unseen) left the hand for the discard pile; the 3 coins come as :class:`CoinsGained`."""

    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """``card`` left the hand for the discard pile without reward (the last card, R-LAST)."""

    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class CoinsPaid:
    """``seat`` paid ``amount`` coins to seat ``to``, or to the bank when ``to`` is ``None``."""

    seat: int
    to: int | None
    amount: int


@dataclass(frozen=True, slots=True)
class CoinsGained:
    """``seat`` took ``amount`` coins from the bank; ``reason`` is ``sale``, ``card`` or ``stage``."""

    seat: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class PickedFromDiscard:
    """Halikarnassos built ``card`` from the discard pile for free (R-HALI)."""

    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class PickDeclined:
    """Halikarnassos declined its build from the discard pile, or the pile offered nothing (R-HALI)."""

    seat: int


@dataclass(frozen=True, slots=True)
class HandsPassed:
    """Every remaining hand moved one seat in ``direction`` (:data:`LEFT` or :data:`RIGHT`)."""

    direction: int


@dataclass(frozen=True, slots=True)
class TurnResolved:
    """Turn ``turn`` (1..6, 7 = Babylon's extra turn) of ``age`` is over."""

    age: int
    turn: int


@dataclass(frozen=True, slots=True)
class ConflictResolved:
    """``seat`` compared shields with neighbour ``opponent`` and took ``token`` (1/3/5 or -1) (R-MILITARY)."""

    seat: int
    opponent: int
    token: int


@dataclass(frozen=True, slots=True)
class AgeEnded:
    age: int


Event = Union[
    AgeDealt, CardBuilt, StageBuilt, CardSold, CardDiscarded, CoinsPaid, CoinsGained, PickedFromDiscard,
    PickDeclined, HandsPassed, TurnResolved, ConflictResolved, AgeEnded,
]
