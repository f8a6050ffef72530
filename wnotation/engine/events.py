"""The events of a game: facts that turn resolution decides and :func:`wnotation.engine.state.apply` folds.

Events are small frozen values named as past participles; they hold only what the record fixes (seats are
1-based, cards are catalogue objects, ``None`` is an unknown card). They carry no timestamps, ids or legality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from ..model.catalog import Card
from .memo import Memo, memo

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
    """``seat`` paid ``amount`` coins to seat ``to``, or to the bank when ``to`` is ``None``. ``units``: the
    resources those coins bought from neighbour ``to`` (R-TRADE), as the payment lists them; empty for the bank.
    Events compare on the coins alone: which of equally priced purchases was bought changes no state."""

    seat: int
    to: int | None
    amount: int
    units: tuple[str, ...] = field(default=(), compare=False)


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


# --- shared instances -----------------------------------------------------------------------------------------

#: Events are immutable values and few distinct ones occur (a seat, a catalogue card, a small amount), so turn
#: resolution builds each once and every replay shares it. Keys hold a card's ``id``; a hit is used only if it holds
#: that very card (an id is reused only after its card is gone).
_SHARED: Memo[tuple[object, ...], Event] = memo("events: shared instances", 1 << 13)


def built(seat: int, card: Card, how: str) -> CardBuilt:
    key = (CardBuilt, seat, id(card), how)
    e = _SHARED.get(key)
    if isinstance(e, CardBuilt) and e.card is card:
        return e
    made = CardBuilt(seat, card, how)
    _SHARED.put(key, made)
    return made


def staged(seat: int, stage: int, card: Card | None) -> StageBuilt:
    key = (StageBuilt, seat, stage, id(card))
    e = _SHARED.get(key)
    if isinstance(e, StageBuilt) and e.card is card:
        return e
    made = StageBuilt(seat, stage, card)
    _SHARED.put(key, made)
    return made


def sold(seat: int, card: Card | None) -> CardSold:
    key = (CardSold, seat, id(card))
    e = _SHARED.get(key)
    if isinstance(e, CardSold) and e.card is card:
        return e
    made = CardSold(seat, card)
    _SHARED.put(key, made)
    return made


def discarded(seat: int, card: Card | None) -> CardDiscarded:
    key = (CardDiscarded, seat, id(card))
    e = _SHARED.get(key)
    if isinstance(e, CardDiscarded) and e.card is card:
        return e
    made = CardDiscarded(seat, card)
    _SHARED.put(key, made)
    return made


def paid(seat: int, to: int | None, amount: int, units: tuple[str, ...] = ()) -> Event:
    key = (CoinsPaid, seat, to, amount, units)
    return _SHARED.get(key) or _SHARED.put(key, CoinsPaid(seat, to, amount, units))


def gained(seat: int, amount: int, reason: str) -> Event:
    key = (CoinsGained, seat, amount, reason)
    return _SHARED.get(key) or _SHARED.put(key, CoinsGained(seat, amount, reason))


def turn_over(age: int, turn: int) -> Event:
    key = (TurnResolved, age, turn)
    return _SHARED.get(key) or _SHARED.put(key, TurnResolved(age, turn))


def conflict(seat: int, opponent: int, token: int) -> Event:
    key = (ConflictResolved, seat, opponent, token)
    return _SHARED.get(key) or _SHARED.put(key, ConflictResolved(seat, opponent, token))


def age_over(age: int) -> Event:
    key = (AgeEnded, age)
    return _SHARED.get(key) or _SHARED.put(key, AgeEnded(age))


def passed(direction: int) -> Event:
    key = (HandsPassed, direction)
    return _SHARED.get(key) or _SHARED.put(key, HandsPassed(direction))
