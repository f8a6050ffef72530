"""Game state: :class:`Game`, the mutable aggregate a replay advances with one mutator per event class, and the
immutable positions it hands out as snapshots (:class:`State`, :class:`City`). :func:`apply` and :func:`fold` are the
reference semantics on positions. Each event class has a check, that the event comes at the right step
(:class:`IntegrityError`), and a mutator; :meth:`Game.apply` runs both, :meth:`Game.commit` (the rules' own events)
the mutators alone. Neither judges legality: that is :mod:`wnotation.engine.rules`' job.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Callable, Final, Iterable, Mapping, NamedTuple

from ..model.catalog import (
    AGE_NUMERALS,
    BuildFromDiscard,
    Card,
    Coins,
    CoinsPer,
    Effect,
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
from ..model.vocabulary import left_of, right_of
from . import events as ev
from .errors import IntegrityError as IntegrityError  # re-exported: state.IntegrityError as before
from .memo import Memo, memo
from .trade import Prices, Supply, prices_for

Source = tuple[str, ...]
Hand = tuple[Card | None, ...]

#: The Wonder powers (effect classes) a city holds once their stage is built; rules read these, never names.
POWERS: Final[frozenset[type]] = frozenset(
    {PlayLastCard, BuildFromDiscard, FreeFirstOfColour, FreeFirstCardEachAge, FreeLastCardEachAge})


@dataclass(frozen=True, slots=True)
class Table:
    """What never changes during a game: the seats' names and Wonder sides, and the guilds when known."""

    names: tuple[str, ...]
    wonders: tuple[WonderSide, ...]
    guilds: tuple[Card, ...] | None = None

    @property
    def players(self) -> int:
        return len(self.names)


# --- what the engine needs of a card or a stage ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What the engine needs of a card design or a Wonder stage, computed once (see :func:`info`)."""

    card: Card | None  # None for a Wonder stage
    sources: tuple[Source, ...]  # one entry per unit it produces (a double card gives two)
    tradable: tuple[Source, ...]
    shields: int
    science: str | None
    coins: int  # coins taken once when built
    coins_per: tuple[CoinsPer, ...]
    discounts: tuple[TradeDiscount, ...]
    cost: Mapping[str, int]  # resource units to pay (read-only)
    powers: frozenset[type]  # Wonder powers it grants (see POWERS)
    picks: int  # builds from the discard pile it grants (R-HALI)
    # The card's own facts the rules read each time it is played (a stage: "", "", (), its coin cost, False), kept
    # here so that turn resolution reads one compiled record rather than the catalogue's Card.
    name: str
    colour: str
    chain_from: tuple[str, ...]
    coin_cost: int  # coins paid to the bank (R-COST-COINS)
    earns: bool  # gives coins when built: a fixed amount or so many per counted thing (R-COUNT-SAMETURN)


_INFO: Final[Memo[int, CardInfo]] = memo("state: card facts by card identity", 4096)
_STAGE_INFO: Final[Memo[int, tuple[WonderSide, tuple[CardInfo, ...]]]] = memo("state: stage facts by Wonder side",
                                                                             256)


def info(card: Card) -> CardInfo:
    """The :class:`CardInfo` of ``card``, memoised by identity (catalogue cards live as long as the process)."""
    found = _INFO.get(id(card))
    if found is None or found.card is not card:
        found = _INFO.put(id(card), _info_of(card.effects, card, dict(card.cost.resources), card.cost.coins))
    return found


def stage_info(wonder: WonderSide, stage: int) -> CardInfo:
    """The :class:`CardInfo` of stage ``stage`` (1-based) of ``wonder`` (``card`` is ``None``)."""
    found = _STAGE_INFO.get(id(wonder))
    if found is None or found[0] is not wonder:
        stages = tuple(_info_of(st.effects, None, dict(st.cost.resources), st.cost.coins) for st in wonder.stages)
        found = _STAGE_INFO.put(id(wonder), (wonder, stages))
    return found[1][stage - 1]


def _info_of(effects: Iterable[Effect], card: Card | None, cost: dict[str, int], coin_cost: int) -> CardInfo:
    sources: list[Source] = []
    tradable: list[Source] = []
    shields = coins = picks = 0
    science = None
    coins_per: list[CoinsPer] = []
    discounts: list[TradeDiscount] = []
    powers: set[type] = set()
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
        if type(e) in POWERS:
            powers.add(type(e))
        if isinstance(e, BuildFromDiscard):
            picks += 1
    name, colour, chain_from = ("", "", ()) if card is None else (card.name, card.colour, card.chain_from)
    return CardInfo(card, tuple(sources), tuple(tradable), shields, science, coins, tuple(coins_per),
                    tuple(discounts), MappingProxyType(cost), frozenset(powers), picks, name, colour, chain_from,
                    coin_cost, bool(coins or coins_per))


# --- positions: immutable snapshots ---------------------------------------------------------------------------


class City(NamedTuple):
    """One seat's city in a position. Production is kept as unit sources for the trade solver (R-PRODUCE,
    R-TRADE)."""

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
        return _power_age(self.wonder, self.stages, self.stage_ages, power)

    @property
    def military(self) -> int:
        return sum(self.tokens)


def _power_age(wonder: WonderSide, stages: int, stage_ages: tuple[int, ...], power: type) -> int | None:
    for k, st in enumerate(wonder.stages[:stages]):
        if any(type(e) is power for e in st.effects):
            return stage_ages[k]
    return None


class State(NamedTuple):
    """A position: the cities, the hands, the discard pile, and where the game stands.

    ``age`` is 0 before Age I is dealt; ``turn`` counts the turns resolved in this Age (7 after Babylon's extra
    turn); ``ended`` is true once the Age's military is resolved. ``hands[seat-1]`` is the hand that seat holds
    now, ``None`` standing for an unknown card. ``discarded_by[k]`` is the seat that put ``discard[k]`` on the
    pile (0: not known; a position made without it may leave it empty). A position shares with earlier ones
    whatever did not change.
    """

    table: Table
    age: int
    turn: int
    ended: bool
    cities: tuple[City, ...]
    hands: tuple[Hand, ...]
    discard: tuple[Card | None, ...]
    discarded_by: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.cities)

    @property
    def address(self) -> str:
        """This position's address: ``I.0`` after the deal, ``II.3`` after a turn, ``III.end`` after military."""
        return _address(self.age, self.turn, self.ended)

    @property
    def finished(self) -> bool:
        return self.age == 3 and self.ended

    def left(self, seat: int) -> int:
        """The left neighbour of ``seat``: seat i+1 (R-SEAT)."""
        return left_of(seat, len(self.cities))

    def right(self, seat: int) -> int:
        """The right neighbour of ``seat``: seat i-1 (R-SEAT)."""
        return right_of(seat, len(self.cities))


def _address(age: int, turn: int, ended: bool) -> str:
    if age == 0:
        return "start"
    return f"{AGE_NUMERALS[age]}.{'end' if ended else turn}"


# --- the aggregate --------------------------------------------------------------------------------------------


_LIST_PRICES: Final = prices_for(())  # 2 coins a unit from either neighbour (R-PRICE): a frozen value, shared
_NONE: Final[frozenset[str]] = frozenset()
_NO_POWERS: Final[frozenset[type]] = frozenset()


#: :class:`City`'s fields in order: the one list of a city's fields. :class:`CityState` holds each as a mutable
#: attribute of the same name, and copies them in and out by this list, so that a new field is declared once (with
#: its type on :class:`CityState`, which mypy and mypyc need; tests/test_engine_state.py checks the two agree).
CITY_FIELDS: tuple[str, ...] = City._fields
#: The fields :class:`CityState` keeps as a mutable set, grown in place at each build and frozen by a snapshot.
GROWN_FIELDS: Final[tuple[str, ...]] = ("names", "colours")
_city_values = attrgetter(*CITY_FIELDS)
_GROWN_AT: Final = tuple(CITY_FIELDS.index(f) for f in GROWN_FIELDS)


class CityState:
    """One seat's city in a :class:`Game`: the fields of :class:`City`, mutable, plus the production summaries
    the trade questions read (``own_supply``, ``tradable_supply``). ``names`` and ``colours`` (:data:`GROWN_FIELDS`)
    are sets grown in place, so a build copies neither; :meth:`snapshot` freezes them. Only the mutators change it,
    and each change starts at :meth:`changing`."""

    __slots__ = CITY_FIELDS + ("own_supply", "tradable_supply", "snapshot_taken")

    # The types of City's fields (the names and order are CITY_FIELDS'), a set for a frozenset in GROWN_FIELDS.
    seat: int
    wonder: WonderSide
    buildings: tuple[Card, ...]
    names: set[str]
    colours: set[str]
    stages: int
    stage_ages: tuple[int, ...]
    staged: tuple[Card | None, ...]
    coins: int
    shields: int
    science: tuple[str, ...]
    tokens: tuple[int, ...]
    own: tuple[Source, ...]
    tradable: tuple[Source, ...]
    discounts: tuple[TradeDiscount, ...]
    prices: Prices
    powers: frozenset[type]
    picks: int

    def __init__(self, city: City) -> None:
        values: list[Any] = list(city)
        for k in _GROWN_AT:
            values[k] = set(values[k])
        for field, value in zip(CITY_FIELDS, values):
            setattr(self, field, value)
        self.own_supply = Supply.of(city.own)
        self.tradable_supply = Supply.of(city.tradable)
        #: The last snapshot, while the city has not changed since: snapshots share unchanged cities.
        self.snapshot_taken: City | None = city

    def snapshot(self) -> City:
        """This city as an immutable :class:`City` (the same object until the city changes)."""
        found = self.snapshot_taken
        if found is None:
            values = list(_city_values(self))
            for k in _GROWN_AT:
                values[k] = frozenset(values[k])
            found = self.snapshot_taken = City._make(values)
        return found

    def changing(self) -> CityState:
        """This city, about to change: its last snapshot no longer holds. The one place that says so: every
        mutator takes the city it changes from here (or changes it through :meth:`build`, which does)."""
        self.snapshot_taken = None
        return self

    def power_age(self, power: type) -> int | None:
        """The Age in which the first stage granting ``power`` was built, or ``None``."""
        return _power_age(self.wonder, self.stages, self.stage_ages, power)

    @property
    def military(self) -> int:
        return sum(self.tokens)

    def add(self, i: CardInfo) -> None:
        """Take in the production, shields, science and discounts of a Building or stage."""
        if i.shields:
            self.shields += i.shields
        if i.science:
            self.science = self.science + (i.science,)
        if i.sources:
            self.own = self.own + i.sources
            self.own_supply = self.own_supply.plus(i.sources)
        if i.tradable:
            self.tradable = self.tradable + i.tradable
            self.tradable_supply = self.tradable_supply.plus(i.tradable)
        if i.discounts:
            self.discounts = self.discounts + i.discounts
            self.prices = prices_for(self.discounts)

    def build(self, card: Card) -> None:
        """Place ``card`` as a Building."""
        i = info(card)
        self.changing()
        self.buildings = self.buildings + (card,)
        self.names.add(i.name)
        self.colours.add(i.colour)
        self.add(i)


def new_city(seat: int, wonder: WonderSide) -> City:
    """A city before Age I: the starting resource and 3 coins (R-START)."""
    start = ((wonder.resource,),)
    # positional, in CITY_FIELDS' order: a call with 18 keywords costs a compiled caller ~12k instructions
    return City(seat, wonder, (), _NONE, _NONE, 0, (), (), 3, 0, (), (), start, start, (), _LIST_PRICES, _NO_POWERS,
                0)


_NEIGHBOURS: Final[Memo[int, tuple[tuple[int, ...], tuple[int, ...]]]] = memo("state: neighbours by table size", 16)


def neighbours(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(lefts, rights)`` of an ``n``-seat table: ``lefts[seat-1]`` is the seat's left neighbour, ``rights[seat-1]``
    its right one (R-SEAT, by :func:`~wnotation.model.vocabulary.left_of` / ``right_of``), made once per size."""
    found = _NEIGHBOURS.get(n)
    if found is None:
        found = _NEIGHBOURS.put(n, (tuple(left_of(seat, n) for seat in range(1, n + 1)),
                                    tuple(right_of(seat, n) for seat in range(1, n + 1))))
    return found


class Game:
    """A game being played or replayed: the mutable aggregate. :meth:`apply` and :meth:`commit` are the only ways
    it changes (one mutator per event class; :meth:`apply` validates first); :meth:`snapshot` hands out the position
    it stands at.

    Read like a :class:`State` (``cities[k].coins``, ``hands``, ``discard``, ``age``, ``turn``, ``ended``).
    """

    __slots__ = ("table", "age", "turn", "ended", "cities", "hands", "discard", "discarded_by", "hands_taken",
                 "lefts", "rights")

    def __init__(self, state: State) -> None:
        """A game standing at ``state`` (cities, hands and pile shared with it until they change)."""
        self.table = state.table
        self.age = state.age
        self.turn = state.turn
        self.ended = state.ended
        self.cities = [CityState(c) for c in state.cities]
        self.hands = list(state.hands)
        self.discard = state.discard
        self.discarded_by = pile_owners(state)
        #: The hands of the last snapshot, while no hand has changed since.
        self.hands_taken: tuple[Hand, ...] | None = state.hands
        seats = neighbours(len(state.cities))
        #: ``lefts[seat-1]`` and ``rights[seat-1]``: the seat's neighbours (R-SEAT), asked at every payment.
        self.lefts: Final = seats[0]
        self.rights: Final = seats[1]

    @property
    def players(self) -> int:
        return len(self.cities)

    @property
    def address(self) -> str:
        return _address(self.age, self.turn, self.ended)

    @property
    def finished(self) -> bool:
        return self.age == 3 and self.ended

    def apply(self, event: ev.Event) -> None:
        """Apply ``event``. Raises :class:`IntegrityError`, changing nothing, if it cannot happen at this step."""
        kind = type(event)
        CHECKS[kind](self, event)
        MUTATORS[kind](self, event)

    def commit(self, events: Iterable[ev.Event]) -> None:
        """Apply ``events`` in order, each without its step check: for the events that :mod:`.rules` decided on
        this very game, which come at their step by construction (turn resolution checked every play). Events
        from anywhere else go through :meth:`apply`."""
        for e in events:
            MUTATORS[type(e)](self, e)

    def snapshot(self) -> State:
        """The position the game stands at: an immutable :class:`State` sharing every city and hand that did not
        change since the last snapshot. Cost: O(seats), plus one :class:`City` per city changed."""
        hands = self.hands_taken
        if hands is None:
            hands = self.hands_taken = tuple(self.hands)
        return State(self.table, self.age, self.turn, self.ended, tuple(c.snapshot() for c in self.cities), hands,
                     self.discard, self.discarded_by)

    def set_hand(self, k: int, hand: Hand) -> None:
        self.hands[k] = hand
        self.hands_taken = None

    def playing(self) -> None:
        """Raise :class:`IntegrityError` unless a turn is in progress."""
        if self.age == 0 or self.ended:
            raise IntegrityError(f"no turn is in progress at {self.address}")


def initial(table: Table) -> State:
    """The position before Age I is dealt."""
    cities = tuple(new_city(k + 1, w) for k, w in enumerate(table.wonders))
    return State(table, 0, 0, True, cities, tuple(() for _ in cities), ())


def pile_owners(state: State) -> tuple[int, ...]:
    """The seat that put each card of ``state``'s discard pile there, 0 where not known."""
    owners = state.discarded_by
    return owners if len(owners) == len(state.discard) else (0,) * len(state.discard)


def position_of(cards: tuple[Card | None, ...], card: Card | None) -> int:
    """The index of ``card`` in ``cards`` by identity (catalogue cards are singletons), or -1. Cheaper than
    ``tuple.index``, which falls back on the dataclass ``__eq__`` for every other card."""
    for k, x in enumerate(cards):
        if x is card:
            return k
    return -1


def _take(hand: tuple[Card | None, ...], card: Card | None) -> tuple[Card | None, ...]:
    """``hand`` without ``card``. An unknown card takes an unknown slot: an unknown slot stands for a card that
    leaves unseen, and the replay deals hands whose named cards are all shown leaving later whenever they have an
    unknown slot (:func:`.deals.revealed`), so that this never keeps a card the hand may have lost. When no unknown
    slot is left, the card may have been any of the hand's, which can no longer be told apart: all become unknown.
    A known card missing from the hand takes an unknown slot, else the last card (the rules engine has reported
    R-DECK: the record's action wins over the deal)."""
    if card is not None:
        k = position_of(hand, card)
        if k >= 0:
            return hand[:k] + hand[k + 1:]
    k = position_of(hand, None)
    if k < 0:
        if not hand:
            raise IntegrityError("a card left an empty hand")
        return (None,) * (len(hand) - 1) if card is None else hand[:-1]
    return hand[:k] + hand[k + 1:]


# --- checks and mutators: one of each per event class ---------------------------------------------------------


def _playing(g: Game, e: ev.Event) -> None:
    g.playing()


def _stage_check(g: Game, e: ev.StageBuilt) -> None:
    g.playing()
    c = g.cities[e.seat - 1]
    if e.stage != c.stages + 1 or e.stage > len(c.wonder.stages):
        raise IntegrityError(f"stage {e.stage} after {c.stages} of {c.wonder}")


def _gained_check(g: Game, e: ev.CoinsGained) -> None:
    if g.age == 0:
        raise IntegrityError("coins gained before Age I")


def _picked_check(g: Game, e: ev.PickedFromDiscard) -> None:
    if g.cities[e.seat - 1].picks < 1:
        raise IntegrityError(f"seat {e.seat} picks from the discard pile without a stage that allows it")


def _declined_check(g: Game, e: ev.PickDeclined) -> None:
    if g.cities[e.seat - 1].picks < 1:
        raise IntegrityError(f"seat {e.seat} declines a pick it was not owed")


def _dealt_check(g: Game, e: ev.AgeDealt) -> None:
    if e.age != g.age + 1 or not g.ended or any(g.hands):
        raise IntegrityError(f"Age {e.age} dealt at {g.address}")
    if len(e.hands) != len(g.cities):
        raise IntegrityError(f"{len(e.hands)} hands dealt to {len(g.cities)} seats")


def _turn_check(g: Game, e: ev.TurnResolved) -> None:
    g.playing()
    if e.age != g.age or e.turn != g.turn + 1:
        raise IntegrityError(f"turn {e.age}.{e.turn} resolved at {g.address}")


def _age_ended_check(g: Game, e: ev.AgeEnded) -> None:
    g.playing()
    if e.age != g.age or any(g.hands) or any(c.picks for c in g.cities):
        raise IntegrityError(f"Age {e.age} ended at {g.address} with cards in hand or picks owed")


def _card_built(g: Game, e: ev.CardBuilt) -> None:
    k = e.seat - 1
    g.set_hand(k, _take(g.hands[k], e.card))
    g.cities[k].build(e.card)


def _stage_built(g: Game, e: ev.StageBuilt) -> None:
    k = e.seat - 1
    c = g.cities[k]
    g.set_hand(k, _take(g.hands[k], e.card))
    i = stage_info(c.wonder, e.stage)
    c.changing()
    c.stages = e.stage
    c.stage_ages = c.stage_ages + (g.age,)
    c.staged = c.staged + (e.card,)
    c.add(i)
    if i.powers:
        c.powers = c.powers | i.powers
    c.picks += i.picks


def _card_left(g: Game, e: ev.CardSold | ev.CardDiscarded) -> None:
    k = e.seat - 1
    g.set_hand(k, _take(g.hands[k], e.card))
    g.discard = g.discard + (e.card,)
    g.discarded_by = g.discarded_by + (e.seat,)


def _card_sold(g: Game, e: ev.CardSold) -> None:
    _card_left(g, e)


def _card_discarded(g: Game, e: ev.CardDiscarded) -> None:
    _card_left(g, e)


def _coins_paid(g: Game, e: ev.CoinsPaid) -> None:
    g.cities[e.seat - 1].changing().coins -= e.amount
    if e.to is not None:
        g.cities[e.to - 1].changing().coins += e.amount


def _coins_gained(g: Game, e: ev.CoinsGained) -> None:
    g.cities[e.seat - 1].changing().coins += e.amount


def _picked(g: Game, e: ev.PickedFromDiscard) -> None:
    c = g.cities[e.seat - 1]
    card = e.card
    if card is None:
        raise IntegrityError(f"seat {e.seat} picks an unknown card from the discard pile")
    pile = _take(g.discard, card)
    k = position_of(g.discard, card)  # the slot _take empties: the card's own, else an unknown one
    k = k if k >= 0 else position_of(g.discard, None)
    c.build(card)  # through changing()
    c.picks -= 1
    g.discard = pile
    g.discarded_by = g.discarded_by[:k] + g.discarded_by[k + 1:] if k >= 0 else g.discarded_by[:-1]


def _declined(g: Game, e: ev.PickDeclined) -> None:
    g.cities[e.seat - 1].changing().picks -= 1


def _age_dealt(g: Game, e: ev.AgeDealt) -> None:
    g.age, g.turn, g.ended = e.age, 0, False
    g.hands = list(e.hands)
    g.hands_taken = e.hands


def _hands_passed(g: Game, e: ev.HandsPassed) -> None:
    h = g.hands
    # direction +1: seat i's hand goes to seat i+1, so the new hand of seat i is the old hand of seat i-1.
    g.hands = h[-1:] + h[:-1] if e.direction == ev.LEFT else h[1:] + h[:1]
    g.hands_taken = None


def _turn_resolved(g: Game, e: ev.TurnResolved) -> None:
    g.turn = e.turn


def _conflict(g: Game, e: ev.ConflictResolved) -> None:
    c = g.cities[e.seat - 1].changing()
    c.tokens = c.tokens + (e.token,)


def _age_ended(g: Game, e: ev.AgeEnded) -> None:
    g.ended = True


#: The check of each event class: raises :class:`IntegrityError` if the event cannot come at the game's step, and
#: changes nothing. :meth:`Game.apply` runs it before the mutator.
CHECKS: Final[dict[type, Callable[[Game, Any], None]]] = {
    ev.AgeDealt: _dealt_check,
    ev.CardBuilt: _playing,
    ev.StageBuilt: _stage_check,
    ev.CardSold: _playing,
    ev.CardDiscarded: _playing,
    ev.CoinsPaid: _playing,
    ev.CoinsGained: _gained_check,
    ev.PickedFromDiscard: _picked_check,
    ev.PickDeclined: _declined_check,
    ev.HandsPassed: _playing,
    ev.TurnResolved: _turn_check,
    ev.ConflictResolved: _playing,
    ev.AgeEnded: _age_ended_check,
}

#: The mutator of each event class: the only code that changes a :class:`Game`. It trusts that its event comes at
#: the right step (the check's, or the rules', which decided it); a card missing from a hand or the pile still
#: raises :class:`IntegrityError` before anything changes (:func:`_take`).
MUTATORS: Final[dict[type, Callable[[Game, Any], None]]] = {
    ev.AgeDealt: _age_dealt,
    ev.CardBuilt: _card_built,
    ev.StageBuilt: _stage_built,
    ev.CardSold: _card_sold,
    ev.CardDiscarded: _card_discarded,
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
    """The position after ``event``. Raises :class:`IntegrityError` if the event cannot happen at this step."""
    g = Game(state)
    g.apply(event)
    return g.snapshot()


def fold(state: State, events: Iterable[ev.Event]) -> State:
    """``state`` after every event of ``events`` in order, as applying them one by one with :func:`apply` gives it
    (same result, same :class:`IntegrityError`). Every city and hand that no event touches is shared with
    ``state``. Cost: O(seats + events)."""
    g = Game(state)
    for e in events:
        g.apply(e)
    return g.snapshot()


def view(state: State, seat: int) -> State:
    """What ``seat`` can see of ``state``: its own hand and cards; the other hands as unknown cards (``None``), the
    cards under the other boards unknown too, and of the face-down discard pile only the cards ``seat`` put there
    (who discarded each card is seen). Buildings, stages, coins and tokens are public. The result is a State like
    any other (legal actions and trades can be computed on it)."""
    k = seat - 1
    hands = tuple(h if i == k else (None,) * len(h) for i, h in enumerate(state.hands))
    cities = tuple(c if i == k or not c.staged else c._replace(staged=(None,) * len(c.staged))
                   for i, c in enumerate(state.cities))
    owners = pile_owners(state)
    pile = tuple(c if owner == seat else None for c, owner in zip(state.discard, owners))
    return State(state.table, state.age, state.turn, state.ended, cities, hands, pile, owners)
