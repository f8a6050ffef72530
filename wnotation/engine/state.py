"""Immutable game state and :func:`apply`, the only way it changes: one small mutator per event class.

States are NamedTuples of tuples (cheap to build, never copied: what an event does not touch is shared with the
previous state). ``apply`` checks that an event comes at the right step (:class:`IntegrityError`), never legality:
that is :mod:`wnotation.engine.rules`' job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from ..catalog import (
    AGE_NUMERALS,
    BuildFromDiscard,
    Card,
    Coins,
    CoinsPer,
    FreeFirstCardEachAge,
    FreeFirstOfColour,
    FreeLastCardEachAge,
    PlayLastCard,
    Produce,
    Science,
    Shields,
    TradeDiscount,
    WonderSide,
)
from . import events as ev
from .trade import Prices, prices_for

Source = tuple[str, ...]

#: The Wonder powers (effect classes) a city holds once their stage is built; rules read these, never names.
POWERS = frozenset({PlayLastCard, BuildFromDiscard, FreeFirstOfColour, FreeFirstCardEachAge, FreeLastCardEachAge})


class IntegrityError(RuntimeError):
    """An event arrived at a step where it cannot happen: a bug in whoever produced the events."""


@dataclass(frozen=True, slots=True)
class Table:
    """What never changes during a game: the seats' names and Wonder sides, and the guilds when known."""

    names: tuple[str, ...]
    wonders: tuple[WonderSide, ...]
    guilds: tuple[Card, ...] | None = None

    @property
    def players(self) -> int:
        return len(self.names)


class CardInfo(NamedTuple):
    """What the engine needs of a card, computed once per card design (see :func:`info`)."""

    card: Card
    sources: tuple[Source, ...]  # one entry per unit it produces (a double card gives two)
    tradable: tuple[Source, ...]
    shields: int
    science: str | None
    coins: int  # coins taken once when built
    coins_per: tuple[CoinsPer, ...]
    discounts: tuple[TradeDiscount, ...]
    cost: dict[str, int]  # resource units to pay (shared: never mutate)


_INFO: dict[int, CardInfo] = {}


def info(card: Card) -> CardInfo:
    """The :class:`CardInfo` of ``card``, cached by identity (catalogue cards live as long as the process)."""
    found = _INFO.get(id(card))
    if found is not None and found.card is card:
        return found
    found = _info_of(card.effects, card)
    _INFO[id(card)] = found
    return found


def _info_of(effects, card) -> CardInfo:
    sources: list[Source] = []
    tradable: list[Source] = []
    shields = coins = 0
    science = None
    coins_per: list[CoinsPer] = []
    discounts: list[TradeDiscount] = []
    for e in effects:
        if isinstance(e, Produce):
            sources.extend([e.choices] * e.amount)
            if e.tradable:
                tradable.extend([e.choices] * e.amount)
        elif isinstance(e, Shields):
            shields += e.amount
        elif isinstance(e, Science):
            science = e.symbol
        elif isinstance(e, Coins):
            coins += e.amount
        elif isinstance(e, CoinsPer):
            coins_per.append(e)
        elif isinstance(e, TradeDiscount):
            discounts.append(e)
    cost = dict(card.cost.resources) if card is not None else {}
    return CardInfo(card, tuple(sources), tuple(tradable), shields, science, coins, tuple(coins_per),
                    tuple(discounts), cost)


_STAGE_INFO: dict[tuple[int, int], CardInfo] = {}


def stage_info(wonder: WonderSide, stage: int) -> CardInfo:
    """The :class:`CardInfo` of stage ``stage`` (1-based) of ``wonder`` (``card`` is ``None``)."""
    key = (id(wonder), stage)
    found = _STAGE_INFO.get(key)
    if found is None:
        st = wonder.stages[stage - 1]
        found = _info_of(st.effects, None)._replace(cost=dict(st.cost.resources))
        _STAGE_INFO[key] = found
    return found


class City(NamedTuple):
    """One seat's city. Production is kept as unit sources for the trade solver (R-PRODUCE, R-TRADE)."""

    seat: int
    wonder: WonderSide
    buildings: tuple[Card, ...]  # in build order
    names: frozenset[str]  # the Buildings' names (R-UNIQUE)
    colours: frozenset[str]
    stages: int  # stages built, left to right (R-STAGE)
    stage_ages: tuple[int, ...]  # the Age in which each built stage was built
    staged: tuple[Card | None, ...]  # the cards under the board
    coins: int
    shields: int
    science: tuple[str, ...]  # symbols, "any" included
    tokens: tuple[int, ...]  # military tokens in the order taken
    own: tuple[Source, ...]  # every unit source the city may use itself
    tradable: tuple[Source, ...]  # the sources its neighbours may buy from (R-TRADE)
    discounts: tuple[TradeDiscount, ...]
    prices: Prices  # what this city pays its neighbours per unit (R-PRICE)
    powers: frozenset[type]  # Wonder powers of the built stages (effect classes)
    picks: int  # builds from the discard pile owed (R-HALI)

    def power_age(self, power: type) -> int | None:
        """The Age in which the first stage granting ``power`` was built, or ``None``."""
        for k, st in enumerate(self.wonder.stages[: self.stages]):
            if any(type(e) is power for e in st.effects):
                return self.stage_ages[k]
        return None

    @property
    def military(self) -> int:
        return sum(self.tokens)


#: Production tuples, interned: ``(id(a), id(b)) -> (a, b, a + b)``. A city's ``own`` and ``tradable`` grow by
#: concatenation from a starting tuple (interned per resource) with a card's or stage's sources (cached per design),
#: so the same production history gives the very same tuple in every game, and whatever is memoised on a
#: production tuple by identity (the trade questions' supply summaries) is computed once per history, not once per
#: game. Equal by value to plain concatenation; bounded (cleared when full, see :func:`clear_caches`).
_JOINED: dict[tuple[int, int], tuple] = {}
_STARTS: dict[str, tuple] = {}
_JOINED_MAX = 1 << 14


def _joined(a: tuple, b: tuple) -> tuple:
    """``a + b``, interned (see ``_JOINED``)."""
    found = _JOINED.get((id(a), id(b)))
    if found is not None and found[0] is a and found[1] is b:
        return found[2]
    if len(_JOINED) >= _JOINED_MAX:
        _JOINED.clear()
    ab = a + b
    _JOINED[(id(a), id(b))] = (a, b, ab)
    return ab


def clear_caches() -> None:
    """Forget the interned production tuples (results never change)."""
    _JOINED.clear()
    _STARTS.clear()


_LIST_PRICES = prices_for(())  # 2 coins a unit from either neighbour (R-PRICE): a frozen value, shared


def new_city(seat: int, wonder: WonderSide) -> City:
    """A city before Age I: the starting resource and 3 coins (R-START)."""
    start = _STARTS.get(wonder.resource)
    if start is None:
        start = _STARTS[wonder.resource] = ((wonder.resource,),)
    return City(seat, wonder, (), frozenset(), frozenset(), 0, (), (), 3, 0, (), (), start, start, (),
                _LIST_PRICES, frozenset(), 0)


class State(NamedTuple):
    """A position: the cities, the hands, the discard pile, and where the game stands.

    ``age`` is 0 before Age I is dealt; ``turn`` counts the turns resolved in this Age (7 after Babylon's extra
    turn); ``ended`` is true once the Age's military is resolved. ``hands[seat-1]`` is the hand that seat holds
    now, ``None`` standing for an unknown card. Everything is shared with earlier states where unchanged.
    """

    table: Table
    age: int
    turn: int
    ended: bool
    cities: tuple[City, ...]
    hands: tuple[tuple[Card | None, ...], ...]
    discard: tuple[Card | None, ...]

    @property
    def players(self) -> int:
        return len(self.cities)

    @property
    def address(self) -> str:
        """This position's address: ``I.0`` after the deal, ``II.3`` after a turn, ``III.end`` after military."""
        if self.age == 0:
            return "start"
        return f"{AGE_NUMERALS[self.age]}.{'end' if self.ended else self.turn}"

    @property
    def finished(self) -> bool:
        return self.age == 3 and self.ended

    def left(self, seat: int) -> int:
        """The left neighbour of ``seat``: seat i+1 (R-SEAT)."""
        return seat % len(self.cities) + 1

    def right(self, seat: int) -> int:
        """The right neighbour of ``seat``: seat i-1 (R-SEAT)."""
        return (seat - 2) % len(self.cities) + 1


def initial(table: Table) -> State:
    """The position before Age I is dealt."""
    cities = tuple(new_city(k + 1, w) for k, w in enumerate(table.wonders))
    return State(table, 0, 0, True, cities, tuple(() for _ in cities), ())


# --- mutators: one per event class ---------------------------------------------------------------------------


def position_of(cards: tuple, card: Card | None) -> int:
    """The index of ``card`` in ``cards`` by identity (catalogue cards are singletons), or -1. Cheaper than
    ``tuple.index``, which falls back on the dataclass ``__eq__`` for every other card."""
    for k, x in enumerate(cards):
        if x is card:
            return k
    return -1


def _take(hand: tuple, card: Card | None) -> tuple:
    """``hand`` without ``card``. An unknown card takes an unknown slot: an unknown slot stands for a card that
    leaves unseen, and the replay deals hands whose named cards are all shown leaving later whenever they have an
    unknown slot (:func:`.deals.revealed`), so that this never keeps a card the hand may have lost. When no unknown
    slot is left, the card may have been any of the hand's, which can no longer be told apart: all become unknown.
    A known card missing from the hand takes an unknown slot, else the last card (the rules engine has reported
    R-DECK: the record's action wins over the deal)."""
    if card is not None:
        for k, x in enumerate(hand):  # by identity: cheaper than tuple.index (see position_of)
            if x is card:
                return hand[:k] + hand[k + 1 :]
    k = position_of(hand, None)
    if k < 0:
        if not hand:
            raise IntegrityError("a card left an empty hand")
        return (None,) * (len(hand) - 1) if card is None else hand[:-1]
    return hand[:k] + hand[k + 1 :]


def _playing(s: State) -> None:
    if s.age == 0 or s.ended:
        raise IntegrityError(f"no turn is in progress at {s.address}")


_new_tuple = tuple.__new__  # builds a NamedTuple without the Python-level __new__ frame (hot path)


def _replace_city(s: State, seat: int, city: City, hands=None, discard=None) -> State:
    cities = s.cities
    return _new_tuple(State, (s.table, s.age, s.turn, s.ended, cities[: seat - 1] + (city,) + cities[seat:],
                              s.hands if hands is None else hands, s.discard if discard is None else discard))


def _hands_without(s: State, seat: int, card: Card | None) -> tuple:
    return s.hands[: seat - 1] + (_take(s.hands[seat - 1], card),) + s.hands[seat:]


def _with_building(c: City, card: Card) -> City:
    i = info(card)
    discounts = c.discounts + i.discounts if i.discounts else c.discounts
    return _new_tuple(City, (
        c.seat, c.wonder, c.buildings + (card,), c.names | {card.name}, c.colours | {card.colour}, c.stages,
        c.stage_ages, c.staged, c.coins, c.shields + i.shields,
        c.science + (i.science,) if i.science else c.science, c.tokens,
        _joined(c.own, i.sources) if i.sources else c.own,
        _joined(c.tradable, i.tradable) if i.tradable else c.tradable, discounts,
        prices_for(discounts) if i.discounts else c.prices, c.powers, c.picks,
    ))


def _card_built(s: State, e: ev.CardBuilt) -> State:
    if s.ended or not s.age:
        _playing(s)
    city = _with_building(s.cities[e.seat - 1], e.card)
    return _replace_city(s, e.seat, city, hands=_hands_without(s, e.seat, e.card))


def _stage_built(s: State, e: ev.StageBuilt) -> State:
    _playing(s)
    c = s.cities[e.seat - 1]
    if e.stage != c.stages + 1 or e.stage > len(c.wonder.stages):
        raise IntegrityError(f"stage {e.stage} after {c.stages} of {c.wonder}")
    st = c.wonder.stages[e.stage - 1]
    i = stage_info(c.wonder, e.stage)
    powers = frozenset(type(x) for x in st.effects if type(x) in POWERS)
    picks = c.picks + sum(1 for x in st.effects if isinstance(x, BuildFromDiscard))
    city = City(
        c.seat, c.wonder, c.buildings, c.names, c.colours, e.stage, c.stage_ages + (s.age,),
        c.staged + (e.card,), c.coins, c.shields + i.shields, c.science + (i.science,) if i.science else c.science,
        c.tokens, _joined(c.own, i.sources) if i.sources else c.own,
        _joined(c.tradable, i.tradable) if i.tradable else c.tradable, c.discounts, c.prices,
        c.powers | powers if powers else c.powers, picks,
    )
    return _replace_city(s, e.seat, city, hands=_hands_without(s, e.seat, e.card))


def _card_sold(s: State, e: ev.CardSold | ev.CardDiscarded) -> State:
    if s.ended or not s.age:
        _playing(s)
    return _new_tuple(State, (s.table, s.age, s.turn, s.ended, s.cities, _hands_without(s, e.seat, e.card),
                              s.discard + (e.card,)))


_COINS, _TOKENS, _PICKS = City._fields.index("coins"), City._fields.index("tokens"), City._fields.index("picks")


def _set(c: City, field: int, value) -> City:
    """``c`` with one field replaced (a cheaper ``_replace`` for the hot path)."""
    return _new_tuple(City, c[:field] + (value,) + c[field + 1 :])


def _coins(s: State, seat: int, delta: int) -> State:
    c = s.cities[seat - 1]
    return _replace_city(s, seat, _set(c, _COINS, c.coins + delta))


def _coins_paid(s: State, e: ev.CoinsPaid) -> State:
    if s.ended or not s.age:
        _playing(s)
    cities = s.cities
    k = e.seat - 1
    payer = cities[k]
    cities = cities[:k] + (_new_tuple(City, payer[:_COINS] + (payer.coins - e.amount,) + payer[_COINS + 1:]),) \
        + cities[k + 1:]
    if e.to is not None:
        k = e.to - 1
        payee = cities[k]
        cities = cities[:k] + (_new_tuple(City, payee[:_COINS] + (payee.coins + e.amount,) + payee[_COINS + 1:]),) \
            + cities[k + 1:]
    return _new_tuple(State, (s.table, s.age, s.turn, s.ended, cities, s.hands, s.discard))


def _coins_gained(s: State, e: ev.CoinsGained) -> State:
    if s.age == 0:
        raise IntegrityError("coins gained before Age I")
    return _coins(s, e.seat, e.amount)


def _picked(s: State, e: ev.PickedFromDiscard) -> State:
    c = s.cities[e.seat - 1]
    if c.picks < 1:
        raise IntegrityError(f"seat {e.seat} picks from the discard pile without a stage that allows it")
    city = _set(_with_building(c, e.card), _PICKS, c.picks - 1)
    pile = _take(s.discard, e.card)
    return _replace_city(s, e.seat, city, discard=pile)


def _declined(s: State, e: ev.PickDeclined) -> State:
    c = s.cities[e.seat - 1]
    if c.picks < 1:
        raise IntegrityError(f"seat {e.seat} declines a pick it was not owed")
    return _replace_city(s, e.seat, _set(c, _PICKS, c.picks - 1))


def _age_dealt(s: State, e: ev.AgeDealt) -> State:
    if e.age != s.age + 1 or not s.ended or any(s.hands):
        raise IntegrityError(f"Age {e.age} dealt at {s.address}")
    if len(e.hands) != len(s.cities):
        raise IntegrityError(f"{len(e.hands)} hands dealt to {len(s.cities)} seats")
    return State(s.table, e.age, 0, False, s.cities, e.hands, s.discard)


def _hands_passed(s: State, e: ev.HandsPassed) -> State:
    _playing(s)
    h = s.hands
    # direction +1: seat i's hand goes to seat i+1, so the new hand of seat i is the old hand of seat i-1.
    hands = h[-1:] + h[:-1] if e.direction == ev.LEFT else h[1:] + h[:1]
    return State(s.table, s.age, s.turn, s.ended, s.cities, hands, s.discard)


def _turn_resolved(s: State, e: ev.TurnResolved) -> State:
    _playing(s)
    if e.age != s.age or e.turn != s.turn + 1:
        raise IntegrityError(f"turn {e.age}.{e.turn} resolved at {s.address}")
    return State(s.table, s.age, e.turn, s.ended, s.cities, s.hands, s.discard)


def _conflict(s: State, e: ev.ConflictResolved) -> State:
    _playing(s)
    c = s.cities[e.seat - 1]
    return _replace_city(s, e.seat, _set(c, _TOKENS, c.tokens + (e.token,)))


def _age_ended(s: State, e: ev.AgeEnded) -> State:
    _playing(s)
    if e.age != s.age or any(s.hands) or any(c.picks for c in s.cities):
        raise IntegrityError(f"Age {e.age} ended at {s.address} with cards in hand or picks owed")
    return State(s.table, s.age, s.turn, True, s.cities, s.hands, s.discard)


_APPLY: dict[type, Callable[[State, ev.Event], State]] = {
    ev.AgeDealt: _age_dealt,
    ev.CardBuilt: _card_built,
    ev.StageBuilt: _stage_built,
    ev.CardSold: _card_sold,
    ev.CardDiscarded: _card_sold,
    ev.CoinsPaid: _coins_paid,
    ev.CoinsGained: _coins_gained,
    ev.PickedFromDiscard: _picked,
    ev.PickDeclined: _declined,
    ev.HandsPassed: _hands_passed,
    ev.TurnResolved: _turn_resolved,
    ev.ConflictResolved: _conflict,
    ev.AgeEnded: _age_ended,
}


def apply(state: State, event: ev.Event) -> State:
    """The state after ``event``. Raises :class:`IntegrityError` if the event cannot happen at this step."""
    return _APPLY[type(event)](state, event)


def fold(state: State, events) -> State:
    """``state`` after every event of ``events`` in order: equal to applying them one by one with :func:`apply`
    (same result, same :class:`IntegrityError`), but built in one pass.

    The frequent events of a turn (builds, stages, sales, discards, coins, passing, military, the end of a turn)
    are applied to a mutable draft of the state, and each City and the State are built once at the end instead of
    once per event; any other event, and any event whose integrity check fails, goes through :func:`apply` itself.
    Every city and hand that no event touches is shared with ``state``. Cost: O(events + seats touched)."""
    if type(events) in (tuple, list) and len(events) == 1:
        e = events[0]
        return _APPLY[type(e)](state, e)
    d = _Draft(state)
    fast = _DRAFT
    for e in events:
        f = fast.get(type(e))
        if f is None or not f(d, e):
            state = _APPLY[type(e)](d.freeze(), e)  # the reference mutator: applies the event, or raises
            d = _Draft(state)
    return d.freeze()


class _Draft:
    """A mutable working copy of a State for :func:`fold`: cities are copied to field lists when first touched."""

    __slots__ = ("state", "age", "turn", "ended", "cities", "open", "hands", "discard")

    def __init__(self, s: State) -> None:
        self.state = s
        self.age, self.turn, self.ended = s.age, s.turn, s.ended
        self.cities = list(s.cities)
        self.open: dict[int, list] = {}  # seat index -> the City's fields, once touched
        self.hands = list(s.hands)
        self.discard = s.discard

    def push(self, e: ev.Event) -> None:
        """Apply ``e`` to the draft, as :func:`fold` does (through :func:`apply` when no draft mutator takes it;
        a caller that tried the draft mutator itself and got False may call this: it is tried again, unchanged)."""
        f = _DRAFT.get(type(e))
        if f is None or not f(self, e):
            self.__init__(_APPLY[type(e)](self.freeze(), e))  # the reference mutator: applies, or raises

    def fields(self, k: int):
        """City ``k``'s fields as they stand in the draft (a City, or its open field list): read-only use."""
        c = self.open.get(k)
        return self.cities[k] if c is None else c

    def city(self, k: int) -> list:
        c = self.open.get(k)
        if c is None:
            c = self.open[k] = list(self.cities[k])
        return c

    def freeze(self) -> State:
        s = self.state
        cities = self.cities
        for k, fields in self.open.items():
            cities[k] = _new_tuple(City, fields)
        self.open = {}
        return _new_tuple(State, (s.table, self.age, self.turn, self.ended, tuple(cities), tuple(self.hands),
                                  self.discard))


(_BUILDINGS, _NAMES, _COLOURS, _STAGES, _STAGE_AGES, _STAGED, _SHIELDS, _SCIENCE, _OWN, _TRADABLE, _DISCOUNTS,
 _PRICES, _POWERS) = (City._fields.index(f) for f in (
    "buildings", "names", "colours", "stages", "stage_ages", "staged", "shields", "science", "own", "tradable",
    "discounts", "prices", "powers"))


# Draft mutators, one per frequent event class: each does exactly what the event's mutator above does, on the
# draft, and returns False (having changed nothing) when that mutator would raise, so that it raises itself.


def _d_card_built(d: _Draft, e: ev.CardBuilt) -> bool:
    if d.ended or not d.age:
        return False
    k = e.seat - 1
    card = e.card
    hand = _take(d.hands[k], card)  # may raise like the mutator, before anything changes
    c = d.open.get(k)  # d.city(k), inlined (hot path)
    if c is None:
        c = d.open[k] = list(d.cities[k])
    i = _INFO.get(id(card))  # info(card), inlined
    if i is None or i.card is not card:
        i = info(card)
    c[_BUILDINGS] = c[_BUILDINGS] + (card,)
    c[_NAMES] = c[_NAMES].union((card.name,))
    if card.colour not in c[_COLOURS]:
        c[_COLOURS] = c[_COLOURS].union((card.colour,))
    if i.shields:
        c[_SHIELDS] += i.shields
    if i.science:
        c[_SCIENCE] = c[_SCIENCE] + (i.science,)
    if i.sources:
        c[_OWN] = _joined(c[_OWN], i.sources)
    if i.tradable:
        c[_TRADABLE] = _joined(c[_TRADABLE], i.tradable)
    if i.discounts:
        c[_DISCOUNTS] = c[_DISCOUNTS] + i.discounts
        c[_PRICES] = prices_for(c[_DISCOUNTS])
    d.hands[k] = hand
    return True


def _d_stage_built(d: _Draft, e: ev.StageBuilt) -> bool:
    if d.ended or not d.age:
        return False
    k = e.seat - 1
    c = d.city(k)
    wonder = c[1]
    if e.stage != c[_STAGES] + 1 or e.stage > len(wonder.stages):
        return False
    hand = _take(d.hands[k], e.card)  # may raise like the mutator, before anything changes
    st = wonder.stages[e.stage - 1]
    i = stage_info(wonder, e.stage)
    powers = frozenset(type(x) for x in st.effects if type(x) in POWERS)
    c[_STAGES] = e.stage
    c[_STAGE_AGES] = c[_STAGE_AGES] + (d.age,)
    c[_STAGED] = c[_STAGED] + (e.card,)
    c[_SHIELDS] += i.shields
    if i.science:
        c[_SCIENCE] = c[_SCIENCE] + (i.science,)
    if i.sources:
        c[_OWN] = _joined(c[_OWN], i.sources)
    if i.tradable:
        c[_TRADABLE] = _joined(c[_TRADABLE], i.tradable)
    if powers:
        c[_POWERS] = c[_POWERS] | powers
    c[_PICKS] += sum(1 for x in st.effects if isinstance(x, BuildFromDiscard))
    d.hands[k] = hand
    return True


def _d_card_sold(d: _Draft, e: ev.CardSold | ev.CardDiscarded) -> bool:
    if d.ended or not d.age:
        return False
    k = e.seat - 1
    d.hands[k] = _take(d.hands[k], e.card)
    d.discard = d.discard + (e.card,)
    return True


def _d_coins_paid(d: _Draft, e: ev.CoinsPaid) -> bool:
    if d.ended or not d.age:
        return False
    opened = d.open
    c = opened.get(e.seat - 1)  # d.city, inlined (hot path)
    if c is None:
        c = opened[e.seat - 1] = list(d.cities[e.seat - 1])
    c[_COINS] -= e.amount
    if e.to is not None:
        c = opened.get(e.to - 1)
        if c is None:
            c = opened[e.to - 1] = list(d.cities[e.to - 1])
        c[_COINS] += e.amount
    return True


def _d_coins_gained(d: _Draft, e: ev.CoinsGained) -> bool:
    if d.age == 0:
        return False
    c = d.open.get(e.seat - 1)  # d.city, inlined (hot path)
    if c is None:
        c = d.open[e.seat - 1] = list(d.cities[e.seat - 1])
    c[_COINS] += e.amount
    return True


def _d_hands_passed(d: _Draft, e: ev.HandsPassed) -> bool:
    if d.age == 0 or d.ended:
        return False
    h = d.hands
    d.hands = h[-1:] + h[:-1] if e.direction == ev.LEFT else h[1:] + h[:1]
    return True


def _d_turn_resolved(d: _Draft, e: ev.TurnResolved) -> bool:
    if d.age == 0 or d.ended or e.age != d.age or e.turn != d.turn + 1:
        return False
    d.turn = e.turn
    return True


def _d_conflict(d: _Draft, e: ev.ConflictResolved) -> bool:
    if d.age == 0 or d.ended:
        return False
    c = d.city(e.seat - 1)
    c[_TOKENS] = c[_TOKENS] + (e.token,)
    return True


_DRAFT: dict[type, Callable[[_Draft, ev.Event], bool]] = {
    ev.CardBuilt: _d_card_built,
    ev.StageBuilt: _d_stage_built,
    ev.CardSold: _d_card_sold,
    ev.CardDiscarded: _d_card_sold,
    ev.CoinsPaid: _d_coins_paid,
    ev.CoinsGained: _d_coins_gained,
    ev.HandsPassed: _d_hands_passed,
    ev.TurnResolved: _d_turn_resolved,
    ev.ConflictResolved: _d_conflict,
}


def view(state: State, seat: int) -> State:
    """What ``seat`` can see of ``state``: its own hand and cards; the other hands as unknown cards (``None``), the
    cards under the other boards and the face-down discard pile unknown too. Buildings, stages, coins and tokens
    are public. The result is a State like any other (legal actions and trades can be computed on it)."""
    k = seat - 1
    hands = tuple(h if i == k else (None,) * len(h) for i, h in enumerate(state.hands))
    cities = tuple(c if i == k or not c.staged else _new_tuple(City, c[:_STAGED] + ((None,) * len(c.staged),)
                                                                  + c[_STAGED + 1:])
                   for i, c in enumerate(state.cities))
    return State(state.table, state.age, state.turn, state.ended, cities, hands, (None,) * len(state.discard))

