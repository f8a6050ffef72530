"""The events of a game: facts that turn resolution decides and :func:`wnotation.engine.state.apply` folds.

Events are small frozen values named as past participles; they hold only what the record fixes (seats are
1-based, cards are catalogue objects, ``None`` is an unknown card). They carry no timestamps, ids or legality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Union

from ..model.catalog import Card
from .memo import Memo, memo

#: ``HandsPassed.direction``: +1 passes to the left neighbour (seat i -> i+1), -1 to the right (R-PASS).
LEFT: Final = 1
RIGHT: Final = -1


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
#: resolution builds each once and every replay shares it, one memo per event class. Keys hold a card's ``id``; a
#: hit is used only if it holds that very card (an id is reused only after its card is gone). The events of an Age
#: or a turn are made once, here.
_BUILT: Final[Memo[tuple[int, int, str], CardBuilt]] = memo("events: shared builds", 1 << 12)
_STAGED: Final[Memo[tuple[int, int, int], StageBuilt]] = memo("events: shared stages", 1 << 10)
_SOLD: Final[Memo[tuple[int, int], CardSold]] = memo("events: shared sales", 1 << 11)
_DISCARDED: Final[Memo[tuple[int, int], CardDiscarded]] = memo("events: shared discards", 1 << 11)
_PAID: Final[Memo[tuple[int, int | None, int, tuple[str, ...]], Event]] = memo("events: shared coins paid",
                                                                             1 << 12)
_GAINED: Final[Memo[tuple[int, int, str], Event]] = memo("events: shared coins gained", 1 << 10)
_CONFLICT: Final[Memo[tuple[int, int, int], Event]] = memo("events: shared conflicts", 1 << 10)

_AGES: Final = range(1, 4)
_TURNS: Final = range(1, 8)
_TURN_OVER: Final[tuple[TurnResolved, ...]] = tuple(TurnResolved(a, t) for a in _AGES for t in _TURNS)
_AGE_OVER: Final[tuple[AgeEnded, ...]] = tuple(AgeEnded(a) for a in _AGES)
_PASSED_LEFT: Final = HandsPassed(LEFT)
_PASSED_RIGHT: Final = HandsPassed(RIGHT)


def built(seat: int, card: Card, how: str) -> CardBuilt:
    key = (seat, id(card), how)
    e = _BUILT.get(key)
    if e is not None and e.card is card:
        return e
    return _BUILT.put(key, CardBuilt(seat, card, how))


def staged(seat: int, stage: int, card: Card | None) -> StageBuilt:
    key = (seat, stage, id(card))
    e = _STAGED.get(key)
    if e is not None and e.card is card:
        return e
    return _STAGED.put(key, StageBuilt(seat, stage, card))


def sold(seat: int, card: Card | None) -> CardSold:
    key = (seat, id(card))
    e = _SOLD.get(key)
    if e is not None and e.card is card:
        return e
    return _SOLD.put(key, CardSold(seat, card))


def discarded(seat: int, card: Card | None) -> CardDiscarded:
    key = (seat, id(card))
    e = _DISCARDED.get(key)
    if e is not None and e.card is card:
        return e
    return _DISCARDED.put(key, CardDiscarded(seat, card))


def paid(seat: int, to: int | None, amount: int, units: tuple[str, ...] = ()) -> Event:
    key = (seat, to, amount, units)
    return _PAID.get(key) or _PAID.put(key, CoinsPaid(seat, to, amount, units))


def gained(seat: int, amount: int, reason: str) -> Event:
    key = (seat, amount, reason)
    return _GAINED.get(key) or _GAINED.put(key, CoinsGained(seat, amount, reason))


def turn_over(age: int, turn: int) -> Event:
    if age in _AGES and turn in _TURNS:
        return _TURN_OVER[(age - 1) * 7 + turn - 1]
    return TurnResolved(age, turn)


def conflict(seat: int, opponent: int, token: int) -> Event:
    key = (seat, opponent, token)
    return _CONFLICT.get(key) or _CONFLICT.put(key, ConflictResolved(seat, opponent, token))


def age_over(age: int) -> Event:
    return _AGE_OVER[age - 1] if age in _AGES else AgeEnded(age)


def passed(direction: int) -> Event:
    return _PASSED_LEFT if direction == LEFT else _PASSED_RIGHT if direction == RIGHT else HandsPassed(direction)
