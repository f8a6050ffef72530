"""Turn resolution: each seat's play is checked against the turn-start state, then events are decided (R-RESOLVE).

Decide, record, apply: functions here map a state and plays to events and findings; they never change a state
(they fold their own events, as :func:`~wnotation.engine.state.fold` does, to see the result). Wonder powers are
read from effects, never from Wonder names. Reading a Record and the order of a whole game are in :mod:`.replay`.

After an illegal play the replay goes on as the record says, so that one error does not cascade:

* a build or stage that cannot be paid (R-TRADE, R-COST-COINS, R-PRODUCE …) is placed **unpaid**
  (``CardBuilt.how == "unpaid"``): the record's word wins and later chains and counts still see it;
* a duplicate Building (R-UNIQUE), a stage beyond the last (R-STAGE), a build of an unknown card and a missing
  action are applied as a **discard without reward** (the card leaves the hand for the pile, nothing else);
* a card that is not in the hand the seat holds (R-DECK / R-PASS) is played anyway;
* an illegal pick from the discard pile (R-HALI, R-UNIQUE) counts as declined.
"""

from __future__ import annotations

import itertools
import operator
from typing import Iterable, Mapping, NamedTuple, Sequence

from .. import deck
from ..catalog import (
    AGE_NUMERALS,
    Card,
    CatalogError,
    FreeFirstCardEachAge,
    FreeFirstOfColour,
    FreeLastCardEachAge,
    PlayLastCard,
    load,
)
from ..record import Span
from . import events as ev
from .findings import Finding, split_rule
from .state import _DRAFT, _INFO, City, State, _Draft, fold, info, position_of, stage_info
from .trade import _INDEX as _RESOURCE_INDEX
from .trade import Prices, Purchase, _canonical_key, check_purchase, cheapest, explain_unaffordable

NO_PURCHASE = Purchase()
#: Points per military victory in Ages I, II, III; a defeat is always -1 (R-MILITARY).
VICTORY = (1, 3, 5)
DEFEAT = -1
SALE = 3  # coins for a sold card (R-TURN)


class Play(NamedTuple):
    """One seat's action in one turn, as plain values (the replay decodes Record actions into these once).

    ``use`` is ``build``, ``stage`` or ``sell`` (``discard`` is the engine's own fallback for a missing action).
    ``card`` is ``None`` for an unknown card. ``purchase`` is ``(left units, right units)`` as stated, or ``None``
    to let the engine choose (R-TRADE-MINIMAL). ``discard`` is turn 6's last card: ``()`` none stated (the seat
    keeps it, R-BABYLON-N1), ``(None,)`` unseen, ``(card,)``. ``pick`` is Halikarnassos' choice: ``()`` not
    stated, ``(None,)`` declined, ``("Name",)`` the printed name of the card taken from the pile.
    """

    seat: int
    use: str
    card: Card | None
    purchase: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    discard: tuple[Card | None, ...] = ()
    pick: tuple[str | None, ...] = ()
    span: Span | None = None
    pick_span: Span | None = None


def address(age: int, turn: int | str) -> str:
    """``II.3``, ``I.0``, ``III.end``."""
    return f"{AGE_NUMERALS[age]}.{turn}"


def passing(age: int) -> int:
    """The direction hands pass after a turn of ``age``: left in Ages I and III, right in Age II (R-PASS)."""
    return ev.RIGHT if age == 2 else ev.LEFT


# --- who acts -------------------------------------------------------------------------------------------------


_EVERYONE: dict[int, tuple[int, ...]] = {}  # player count -> every seat, in order


def seats_to_act(state: State) -> tuple[int, ...]:
    """The seats that must play a card in the next turn: everybody on turns 1..6, the seats that kept their last
    card on the extra turn (R-BABYLON-N1), nobody once the Age's turns are over (picks and military remain)."""
    if state.age == 0 or state.ended:
        return ()
    if state.turn < 6:
        n = len(state.cities)
        seats = _EVERYONE.get(n)
        if seats is None:
            seats = _EVERYONE[n] = tuple(range(1, n + 1))
        return seats
    if state.turn == 6:
        return tuple(k + 1 for k, h in enumerate(state.hands) if h)
    return ()


def picks_owed(state: State) -> tuple[int, ...]:
    """The seats owed a build from the discard pile (R-HALI), in seat order."""
    cities = state.cities
    if not any(map(_picks_of, cities)):  # the usual answer, asked after every turn: looked for in C
        return ()
    return tuple(c.seat for c in cities if c.picks)


_picks_of = operator.itemgetter(City._fields.index("picks"))


# --- paying ---------------------------------------------------------------------------------------------------


def free_reason(state: State, city: City, card: Card, turn: int) -> str | None:
    """Why ``card`` may be built for free on ``turn``: ``"chain"`` (R-CHAIN), ``"power"`` (R-OLYMPIA-D2,
    R-OLYMPIA-N1, R-OLYMPIA-N2), or ``None``. Reads the turn-start ``city``, so a chain source or a power built
    this same turn does not count."""
    rule = free_rule(state, city, card, turn)
    return None if rule is None else "chain" if rule == "R-CHAIN" else "power"


def free_rule(state: State, city: City, card: Card, turn: int) -> str | None:
    """The rule that makes ``card`` free on ``turn`` (``R-CHAIN``, ``R-OLYMPIA-D2``, ``R-OLYMPIA-N1``,
    ``R-OLYMPIA-N2``; a chain first), or ``None``; as :func:`free_reason`."""
    if card.chain_from and not city.names.isdisjoint(card.chain_from):
        return "R-CHAIN"
    powers = city.powers
    if powers:
        if FreeFirstOfColour in powers and card.colour not in city.colours:
            return "R-OLYMPIA-D2"
        if turn == 1 and FreeFirstCardEachAge in powers and city.power_age(FreeFirstCardEachAge) < state.age:
            return "R-OLYMPIA-N1"
        if turn == 6 and FreeLastCardEachAge in powers:
            return "R-OLYMPIA-N2"
    return None


_FREE_WHY = {"R-CHAIN": "by a chain", "R-OLYMPIA-D2": "as the city's first {colour} Building",
             "R-OLYMPIA-N1": "as the first card of the Age", "R-OLYMPIA-N2": "as the last card of the Age"}


def _free_purchase(t: _Turn, p: Play, card: Card, rule: str) -> None:
    """A purchase stated on a free build is never needed (R-FREE): an R-TRADE-MINIMAL error; nothing is paid."""
    why = _FREE_WHY[rule].format(colour=card.colour)
    t.find("R-TRADE-MINIMAL", f"{t.name(p.seat)} states a purchase for {card.name}, which is free {why} ({rule}): "
           "a free build needs no purchase (R-FREE); built for free, nothing is paid", p.seat, p.span)


def payment(state: State, seat: int, cost: Mapping[str, int], coin_cost: int,
            stated: tuple[tuple[str, ...], tuple[str, ...]] | None) -> Purchase | str:
    """The purchase that pays ``cost`` plus ``coin_cost`` for ``seat`` in ``state`` (the turn-start state), or the
    reason it cannot, ending in a rule ID. A stated purchase is checked; without one the default (the first
    cheapest, R-TRADE-MINIMAL) is chosen. Cost: at most one trade-solver call (memoised)."""
    city = state.cities[seat - 1]
    budget = city.coins - coin_cost
    if budget < 0:
        coins = "1 coin" if coin_cost == 1 else f"{coin_cost} coins"
        return f"costs {coins}, has {city.coins} [R-COST-COINS]"
    buys = stated is not None and (stated[0] or stated[1])
    if not cost and not buys:
        return NO_PURCHASE
    n = len(state.cities)
    left, right = state.cities[seat % n].tradable, state.cities[(seat - 2) % n].tradable
    if stated is None:
        options = _reduced(cost, city.own, left, right, city.prices)  # cheapest_options, inlined (budget >= 0)
        if options and options[0].coins <= budget:
            return options[0]
        return explain_unaffordable(cost, city.own, left, right, city.prices, budget)
    # A stated purchase that is one of the cheapest (the usual case: a record states its purchase when several
    # cheapest exist) is legal, and check_purchase would price it as that very purchase: one memoised answer
    # instead of the checks. Anything else (dearer, illegal, not resources) is checked in full.
    sl, sr = _in_order(stated[0]), _in_order(stated[1])
    if sl is not None and sr is not None:
        for option in _reduced(cost, city.own, left, right, city.prices):
            if option.left == sl and option.right == sr:
                if option.coins <= budget:
                    return option
                break
    return check_purchase(cost, city.own, left, right, city.prices, budget, stated[0], stated[1])


_ORDERED: dict[tuple, tuple | None] = {}  # stated units -> the same in RESOURCES order (see _in_order)


def _in_order(units) -> tuple[str, ...] | None:
    """Stated units sorted in ``catalog.RESOURCES`` order, as a Purchase holds them; ``None`` if one is not a
    resource or ``units`` is not a tuple (memoised: records state few distinct unit lists)."""
    if type(units) is not tuple:
        return None
    found = _ORDERED.get(units, _ORDERED)
    if found is _ORDERED:
        index = _RESOURCE_INDEX
        found = tuple(sorted(units, key=index.__getitem__)) if all(r in index for r in units) else None
        if len(_ORDERED) >= _MEMO_MAX:
            _ORDERED.clear()
        _ORDERED[units] = found
    return found


_COVERED = (NO_PURCHASE,)
_REDUCED: dict[tuple, tuple[Purchase, ...]] = {}  # the reduced questions' answers (see cheapest_options)
_SUPPLY: dict[int, tuple] = {}  # id(sources) -> (sources, singles, either/or sources): see _supply
_MEMO_MAX = 1 << 13  # each memo is cleared when full


def clear_caches() -> None:
    """Forget the memoised trade answers, production summaries and interned events (see
    :func:`.replay.clear_caches`)."""
    _REDUCED.clear()
    _SUPPLY.clear()
    _ORDERED.clear()
    _EVENTS.clear()


def _supply(sources) -> tuple[dict[str, int], tuple]:
    """``sources`` summarised: units per resource of its one-resource sources, and its either/or sources in order.

    A city's production tuple is shared by every state until the city produces more, so the summary is memoised
    on the tuple itself (by identity, the tuple kept alive with it): O(sources) once per production change, one
    dictionary hit after that. Lists are summarised afresh each time."""
    if type(sources) is tuple:
        found = _SUPPLY.get(id(sources))
        if found is None or found[0] is not sources:
            found = _summary(sources)
        return found[1], found[2]
    return _summary(sources)[1:]


def _summary(sources) -> tuple:
    """``(sources, singles, either/or sources)``, memoised by identity when ``sources`` is a tuple."""
    singles: dict[str, int] = {}
    multi = []
    for src in sources:
        if len(src) == 1:
            r = src[0]
            singles[r] = singles.get(r, 0) + 1
        else:
            multi.append(tuple(src))
    found = (sources, singles, tuple(multi))
    if type(sources) is tuple:
        if len(_SUPPLY) >= _MEMO_MAX:
            _SUPPLY.clear()
        _SUPPLY[id(sources)] = found
    return found


def cheapest_options(cost: Mapping[str, int], own, left, right, prices, budget: int) -> tuple[Purchase, ...]:
    """``trade.cheapest`` on a reduced, equivalent question, so that most questions share one memoised answer.

    Reductions (R-PRODUCE): own one-resource sources pay their units first (using one never hurts: it can serve
    nothing else), which answers most questions at once; each either/or source is cut down to the resources still
    needed (no minimal purchase buys, and no covering uses, anything else); an own source left with one needed
    resource pays one unit of it, repeated until no such source is left; sources that offer nothing still needed
    are dropped, and a neighbour's one-resource sources are kept only up to the units still needed of that
    resource (no minimal purchase buys more). Each reduction keeps the set of coverings, hence every minimal
    purchase, its price and the canonical order. Cost: O(cost + either/or sources) per question (each city's
    production summarised once, see :func:`_supply`), plus one solver call per new reduced question (memoised)."""
    if budget < 0:
        return ()
    best = _reduced(cost, own, left, right, prices)
    if not best or best[0].coins > budget:
        return ()
    return best


def _reduced(cost: Mapping[str, int], own, left, right, prices) -> tuple[Purchase, ...]:
    """Every cheapest minimal purchase for ``cost`` at any price (``()`` if none covers it), via the reductions
    described in :func:`cheapest_options`.

    The memo key is compact: what each neighbour offers is keyed as its capped unit count per needed resource
    (in ``need`` order) plus its cut-down either/or sources, which determines :func:`_offered` exactly; the
    offered sources themselves are built only for a new question. The production summaries are looked up inline
    (:func:`_supply`'s memo)."""
    found = _SUPPLY.get(id(own))
    if found is None or found[0] is not own:
        found = _summary(own)
    singles = found[1]
    need = {}
    for r, n in cost.items():
        k = singles.get(r)
        if k:
            n -= k
        if n > 0:
            need[r] = n
    if not need:
        return _COVERED
    rest = found[2]
    if rest:
        changed = True
        while changed and need:
            changed = False
            kept = []
            for src in rest:
                useful = [r for r in src if r in need]
                if not useful:
                    continue
                if len(useful) == 1:
                    r = useful[0]
                    if need[r] == 1:
                        del need[r]
                    else:
                        need[r] -= 1
                    changed = True
                    continue
                kept.append(tuple(useful) if len(useful) < len(src) else src)
            rest = kept
        if not need:
            return _COVERED
        rest = tuple(rest)
    sl = _SUPPLY.get(id(left))
    if sl is None or sl[0] is not left:
        sl = _summary(left)
    sr = _SUPPLY.get(id(right))
    if sr is None or sr[0] is not right:
        sr = _summary(right)
    ls, rs = sl[1], sr[1]
    lk = []
    rk = []
    for r, n in need.items():
        k = ls.get(r, 0)
        lk.append(k if k < n else n)
        k = rs.get(r, 0)
        rk.append(k if k < n else n)
    # the prices as plain ints in the key: hashing and comparing a Prices dataclass runs Python code
    question = (tuple(need.items()), rest, tuple(lk), _cut(sl[2], need) if sl[2] else (), tuple(rk),
                _cut(sr[2], need) if sr[2] else (),
                prices.left_raw, prices.left_manufactured, prices.right_raw, prices.right_manufactured)
    answer = _REDUCED.get(question)
    if answer is None:
        offered_left, offered_right = _offered(left, need), _offered(right, need)
        if rest or question[3] or question[5]:
            answer = cheapest(need, rest, offered_left, offered_right, prices, 1 << 30)
        else:
            answer = _singles_answer(need, offered_left, offered_right, prices)
        if len(_REDUCED) >= _MEMO_MAX:
            _REDUCED.clear()
        _REDUCED[question] = answer
    return answer


def _cut(multi: tuple, need: dict[str, int]) -> tuple:
    """Either/or sources cut down to the resources in ``need``, empty ones dropped (as :func:`_offered` does)."""
    out = []
    for src in multi:
        useful = tuple([r for r in src if r in need])
        if useful:
            out.append(useful)
    return tuple(out)


def _singles_answer(need: dict[str, int], left: tuple, right: tuple, prices: Prices) -> tuple[Purchase, ...]:
    """``trade.cheapest`` at any price when own production has nothing left for ``need`` and each neighbour
    offers one-resource sources only (the usual question): every minimal purchase buys exactly ``need``, each
    resource split between the neighbours independently within their supply, so the cheapest buys each unit
    where it is cheaper, and every split of a resource priced alike on both sides ties. Same answer, in the
    same canonical order, without the general solver."""
    per: list = []  # (resource, units, the left shares that cost least)
    for r in sorted(need, key=_RESOURCE_INDEX.__getitem__):
        n = need[r]
        most = min(n, sum(1 for src in left if src[0] == r))
        least = max(0, n - sum(1 for src in right if src[0] == r))
        if least > most:
            return ()  # the neighbours cannot supply it
        pl, pr = prices.price("left", r), prices.price("right", r)
        per.append((r, n, (most,) if pl < pr else (least,) if pl > pr else tuple(range(least, most + 1)),
                    pl, pr))
    found = []
    for shares in itertools.product(*(choices for _, _, choices, _, _ in per)):
        found.append(Purchase(
            left=tuple(r for (r, _, _, _, _), x in zip(per, shares) for _ in range(x)),
            right=tuple(r for (r, n, _, _, _), x in zip(per, shares) for _ in range(n - x)),
            left_coins=sum(x * pl for (_, _, _, pl, _), x in zip(per, shares)),
            right_coins=sum((n - x) * pr for (_, n, _, _, pr), x in zip(per, shares)),
        ))
    found.sort(key=_canonical_key)
    return tuple(found)


def _offered(sources, need: dict[str, int]) -> tuple:
    """What a neighbour's ``sources`` offer towards ``need``: its one-resource sources of each needed resource, at
    most as many as the units needed, then its either/or sources cut down to the needed resources (empty ones
    dropped)."""
    singles, multi = _supply(sources)
    out: list = []
    for r, n in need.items():
        k = singles.get(r)
        if k:
            out += [(r,)] * (k if k < n else n)
    for src in multi:
        useful = tuple([r for r in src if r in need])
        if useful:
            out.append(useful)
    return tuple(out)


# --- events, interned ---------------------------------------------------------------------------------------------

#: Events are immutable values and few distinct ones occur (a seat, a catalogue card, a small amount), so each is
#: built once and shared by every replay: a dictionary hit instead of a frozen dataclass's ``__init__``. Keys hold
#: a card's ``id``; a hit is used only if it holds that very card (an id is reused only after its card is gone).
_EVENTS: dict[tuple, ev.Event] = {}


def _interned(key: tuple, make) -> ev.Event:
    if len(_EVENTS) >= _MEMO_MAX:
        _EVENTS.clear()
    e = _EVENTS[key] = make()
    return e


def _built(seat: int, card: Card, how: str) -> ev.CardBuilt:
    e = _EVENTS.get((ev.CardBuilt, seat, id(card), how))
    if e is None or e.card is not card:
        e = _interned((ev.CardBuilt, seat, id(card), how), lambda: ev.CardBuilt(seat, card, how))
    return e


def _left(cls, seat: int, card: Card | None) -> ev.CardSold | ev.CardDiscarded:
    """``cls(seat, card)`` for :class:`~.events.CardSold` and :class:`~.events.CardDiscarded`."""
    e = _EVENTS.get((cls, seat, id(card)))
    if e is None or e.card is not card:
        e = _interned((cls, seat, id(card)), lambda: cls(seat, card))
    return e


def _staged(seat: int, stage: int, card: Card | None) -> ev.StageBuilt:
    e = _EVENTS.get((ev.StageBuilt, seat, stage, id(card)))
    if e is None or e.card is not card:
        e = _interned((ev.StageBuilt, seat, stage, id(card)), lambda: ev.StageBuilt(seat, stage, card))
    return e


def _valued(cls, *values) -> ev.Event:
    """``cls(*values)`` for events of plain values (ints and strings)."""
    e = _EVENTS.get((cls, values))
    if e is None:
        e = _interned((cls, values), lambda: cls(*values))
    return e


def _paid(seat: int, n: int, coin_cost: int, p: Purchase, out: list) -> None:
    if coin_cost:
        out.append(_valued(ev.CoinsPaid, seat, None, coin_cost))
    if p.left_coins:
        out.append(_valued(ev.CoinsPaid, seat, seat % n + 1, p.left_coins))
    if p.right_coins:
        out.append(_valued(ev.CoinsPaid, seat, (seat - 2) % n + 1, p.right_coins))


def count(state: State, seat: int, counts: tuple[str, ...], cities: Iterable[str]) -> int:
    """How many of ``counts`` (colours, or ``wonder_stage``) the named ``cities`` of ``seat`` hold in ``state``."""
    n = len(state.cities)
    total = 0
    for where in cities:
        k = seat - 1 if where == "self" else seat % n if where == "left" else (seat - 2) % n
        c = state.cities[k]
        total += sum(1 for b in c.buildings if b.colour in counts)
        if "wonder_stage" in counts:
            total += c.stages
    return total


def card_income(state: State, seat: int, card: Card) -> int:
    """Coins ``card`` gives when built, counted in ``state`` with the card in place (R-COUNT-SAMETURN)."""
    i = info(card)
    coins = i.coins
    for cp in i.coins_per:
        coins += cp.each * count(state, seat, cp.counts, cp.cities)
    return coins


# --- one turn ---------------------------------------------------------------------------------------------------


def _hand_text(hand: Sequence[Card | None]) -> str:
    return ", ".join("?" if c is None else c.name for c in hand) or "nothing"


class _Turn:
    """The working data of one turn's resolution (kept together to keep the functions small)."""

    __slots__ = ("state", "age", "turn", "findings")

    def __init__(self, state: State, turn: int) -> None:
        self.state = state
        self.age = state.age
        self.turn = turn
        self.findings: list[Finding] = []

    @property
    def where(self) -> str:
        return address(self.age, self.turn)

    def name(self, seat: int) -> str:
        return self.state.table.names[seat - 1]

    def find(self, rule: str, message: str, seat: int | None, span: Span | None, severity: str = "error") -> None:
        self.findings.append(Finding(rule, message, self.where, seat, span, severity))


def _check_hand(t: _Turn, p: Play) -> None:
    hand = t.state.hands[p.seat - 1]
    if p.card is None or position_of(hand, p.card) >= 0 or position_of(hand, None) >= 0:
        return
    name = t.name(p.seat)
    holders = [t.name(k + 1) for k, h in enumerate(t.state.hands) if position_of(h, p.card) >= 0]
    last = [t.name(seat) for seat, c in _last_cards_of(t.state) if c is p.card] if t.turn == 7 else []
    if holders:
        t.find("R-PASS", f"{name} plays {p.card.name}, but at this turn that card is in the hand {holders[0]} "
               f"holds; {name} holds {_hand_text(hand)}", p.seat, p.span)
    elif last:
        t.find("R-PASS", f"{name} plays {p.card.name} in the extra turn, but that card was the last one {last[0]} "
               f"held on turn 6; {name} kept {_hand_text(hand)}", p.seat, p.span)
    else:
        t.find("R-DECK", f"{name} plays {p.card.name}, which is not in the hand {name} holds: "
               f"{_hand_text(hand)}", p.seat, p.span)


def _last_cards_of(state: State) -> tuple[tuple[int, Card | None], ...]:
    """After turn 6 (the state the extra turn starts from): each seat that kept no card, with the last card it
    discarded (R-LAST). :func:`_last_cards` puts those on the pile last, in seat order, and nothing reaches the
    pile between turn 6 and the extra turn, so they are the pile's last cards."""
    seats = [k + 1 for k, h in enumerate(state.hands) if not h]
    if len(seats) > len(state.discard):
        return ()
    return tuple(zip(seats, state.discard[len(state.discard) - len(seats):]))


def _place(t: _Turn, p: Play, out: list, incomes: list) -> None:
    """Check ``p`` against the turn-start state; append its placement events to ``out`` and what earns income
    (decided after every placement, R-RESOLVE) to ``incomes``."""
    s, seat, card = t.state, p.seat, p.card
    city = s.cities[seat - 1]
    if card is not None:
        for x in s.hands[seat - 1]:  # position_of, inlined
            if x is card:
                break
        else:
            _check_hand(t, p)
    use = p.use
    if use == "build":
        if card is None:
            t.find("R-TURN", f"{t.name(seat)} builds a card that the record does not name", seat, p.span)
            out.append(_left(ev.CardDiscarded, seat, None))
            return
        if card.name in city.names:
            t.find("R-UNIQUE", f"{t.name(seat)} cannot build {card.name}: the city already has one", seat, p.span)
            out.append(_left(ev.CardDiscarded, seat, card))
            return
        i = _INFO.get(id(card))  # info(card), inlined (hot path)
        if i is None or i.card is not card:
            i = info(card)
        # free_rule is None without a chain source or a power: skip the call in that (common) case
        free = free_rule(s, city, card, t.turn) if card.chain_from or city.powers else None
        stated = p.purchase
        if free is not None:
            if stated and (stated[0] or stated[1]):
                _free_purchase(t, p, card, free)
            out.append(_built(seat, card, "chain" if free == "R-CHAIN" else "power"))
        else:
            coin_cost = card.cost.coins
            cost = i.cost
            if not cost and stated is None and coin_cost <= city.coins:
                paid = NO_PURCHASE  # what payment() answers for a card without a resource cost that is affordable
            else:
                paid = payment(s, seat, cost, coin_cost, stated)
            if isinstance(paid, str):
                rule, why = split_rule(paid, "R-TRADE")
                t.find(rule, f"{t.name(seat)} cannot build {card.name}: {why}", seat, p.span)
                out.append(_built(seat, card, "unpaid"))
            else:
                out.append(_built(seat, card, "paid"))
                if coin_cost or paid is not NO_PURCHASE:
                    _paid(seat, len(s.cities), coin_cost, paid, out)
        if i.coins or i.coins_per:  # a card that earns nothing gains no coins (most cards: skip _incomes' look)
            incomes.append((seat, "card", card))
    elif use == "stage":
        n = city.stages + 1
        if n > len(city.wonder.stages):
            t.find("R-STAGE", f"{t.name(seat)} cannot build a stage: all {city.stages} stages of "
                   f"{city.wonder} are built", seat, p.span)
            out.append(_left(ev.CardDiscarded, seat, card))
            return
        st = city.wonder.stages[n - 1]
        paid = payment(s, seat, stage_info(city.wonder, n).cost, st.cost.coins, p.purchase)
        out.append(_staged(seat, n, card))
        if isinstance(paid, str):
            rule, why = split_rule(paid, "R-TRADE")
            t.find(rule, f"{t.name(seat)} cannot build stage {n} of {city.wonder}: {why}", seat, p.span)
        else:
            _paid(seat, len(s.cities), st.cost.coins, paid, out)
        incomes.append((seat, "stage", n))
    elif use == "sell":
        out.append(_left(ev.CardSold, seat, card))
        incomes.append((seat, "sale", None))
    else:
        out.append(_left(ev.CardDiscarded, seat, card))


def _incomes(placed: _Draft, incomes: list) -> list:
    """The incomes of a turn, decided on the draft holding every placement (R-COUNT-SAMETURN)."""
    out = []
    for seat, kind, what in incomes:
        if kind == "sale":
            out.append(_valued(ev.CoinsGained, seat, SALE, "sale"))
        elif kind == "card":
            i = info(what)
            coins = i.coins
            for cp in i.coins_per:
                coins += cp.each * _count_in(placed, seat, cp.counts, cp.cities)
            if coins:
                out.append(_valued(ev.CoinsGained, seat, coins, "card"))
        else:
            coins = stage_info(placed.fields(seat - 1)[_WONDER], what).coins
            if coins:
                out.append(_valued(ev.CoinsGained, seat, coins, "stage"))
    return out


_WONDER, _BUILDINGS, _STAGES, _POWERS = (City._fields.index(f) for f in ("wonder", "buildings", "stages", "powers"))


def _count_in(placed: _Draft, seat: int, counts: tuple[str, ...], cities: Iterable[str]) -> int:
    """:func:`count` on a draft."""
    n = len(placed.cities)
    total = 0
    for where in cities:
        c = placed.fields(seat - 1 if where == "self" else seat % n if where == "left" else (seat - 2) % n)
        total += sum(1 for b in c[_BUILDINGS] if b.colour in counts)
        if "wonder_stage" in counts:
            total += c[_STAGES]
    return total


def _last_cards(t: _Turn, placed: _Draft, chosen: Mapping[int, Play]) -> list:
    """Turn 6: each remaining card is discarded (R-LAST) unless its seat keeps it (R-BABYLON-N1)."""
    out = []
    for k, hand in enumerate(placed.hands):
        if not hand:
            continue
        seat = k + 1
        p = chosen[seat]
        if not p.discard:
            if p.use == "discard":  # a missing action, already reported (R-TURN)
                out.append(_left(ev.CardDiscarded, seat, hand[0]))
                continue
            city = placed.fields(k)
            if PlayLastCard in city[_POWERS]:
                continue  # kept for the extra turn
            can = any(type(e) is PlayLastCard for st in city[_WONDER].stages for e in st.effects)
            if can:
                t.find("R-BABYLON-N1", f"{t.name(seat)} cannot keep the last card: the stage that allows it "
                       "is not built; it is discarded", seat, p.span)
            else:
                t.find("R-LAST", f"{t.name(seat)} must discard the last card; the record names none",
                       seat, p.span)
            out.append(_left(ev.CardDiscarded, seat, hand[0]))
            continue
        stated = p.discard[0]
        left = hand[0]
        if stated is not None and left is not None and stated is not left and stated != left:
            t.find("R-LAST", f"{t.name(seat)} discards {stated.name}, but the last card left in hand is "
                   f"{left.name}", seat, p.span)
        out.append(_left(ev.CardDiscarded, seat, stated if stated is not None else left))
    return out


def step_turn(state: State, plays: Iterable[Play]) -> tuple[tuple[ev.Event, ...], tuple[Finding, ...], State]:
    """Resolve the next turn: ``(events, findings, state after the events)``.

    Every play is checked against ``state`` (R-RESOLVE, R-COINS-TURNSTART); then incomes are decided with every
    card in place (R-COUNT-SAMETURN); on turn 6 the last cards are discarded or kept (R-LAST, R-BABYLON-N1); hands
    pass (R-PASS). Builds from the discard pile are not part of the turn: see :func:`resolve_picks`. Raises
    ``ValueError`` if no turn can be played at ``state`` (misuse, not a finding).
    """
    acting = seats_to_act(state)
    if not acting:
        raise ValueError(f"no turn can be played at {state.address}")
    t = _Turn(state, state.turn + 1)
    if type(plays) is not list and type(plays) is not tuple:
        plays = list(plays)
    placements: list = []
    incomes: list = []
    # The usual turn: one play per acting seat, in seat order (no seat to look up, nothing to report).
    usual = len(plays) == len(acting)
    if usual:
        for p, seat in zip(plays, acting):
            if p.seat != seat:
                usual = False
                break
    if usual:
        chosen = dict(zip(acting, plays)) if t.turn == 6 else None
        for p in plays:
            _place(t, p, placements, incomes)
    else:
        chosen = _chosen(t, acting, plays)
        for seat in acting:
            p = chosen.get(seat)
            if p is None:
                if t.turn == 7:
                    t.find("R-BABYLON-N1", f"{t.name(seat)} kept a last card but plays no extra turn; it is "
                           "discarded", seat, None)
                else:
                    t.find("R-TURN", f"{t.name(seat)} has no action this turn; a card of the hand is discarded",
                           seat, None)
                p = chosen[seat] = Play(seat, "discard", None)
            _place(t, p, placements, incomes)
    # One draft for the whole turn (as fold(fold(state, placements), tail), in one pass): the incomes and the last
    # cards are decided on the draft holding every placement.
    placed = _Draft(state)
    fast = _DRAFT
    for e in placements:
        f = fast.get(type(e))
        if f is None or not f(placed, e):
            placed.push(e)
    tail = _incomes(placed, incomes)
    if t.turn == 6:
        tail += _last_cards(t, placed, chosen)  # incomes change coins only: the hands and powers are as placed
    elif t.turn < 6:
        tail.append(_valued(ev.HandsPassed, passing(state.age)))
    tail.append(_valued(ev.TurnResolved, state.age, t.turn))
    for e in tail:
        f = fast.get(type(e))
        if f is None or not f(placed, e):
            placed.push(e)
    return tuple(placements + tail), tuple(t.findings), placed.freeze()


def _chosen(t: _Turn, acting: tuple[int, ...], plays: Sequence[Play]) -> dict[int, Play]:
    """Each seat's first play, reporting plays of seats that do not act and second plays (R-TURN, R-BABYLON-N1)."""
    chosen: dict[int, Play] = {}
    for p in plays:
        if p.seat not in acting:
            if t.turn == 7:
                t.find("R-BABYLON-N1", f"{t.name(p.seat)} has no last card to play in an extra turn", p.seat, p.span)
            else:
                t.find("R-TURN", f"seat {p.seat} is not at the table", p.seat, p.span)
        elif p.seat in chosen:
            t.find("R-TURN", f"{t.name(p.seat)} plays twice in one turn; the second play is ignored", p.seat, p.span)
        else:
            chosen[p.seat] = p
    return chosen


def resolve_turn(state: State, plays: Iterable[Play]) -> tuple[tuple[ev.Event, ...], tuple[Finding, ...]]:
    """The events and findings of the next turn (see :func:`step_turn`, which also returns the new state)."""
    events, findings, _ = step_turn(state, plays)
    return events, findings


# --- builds from the discard pile, end of an Age ---------------------------------------------------------------


def pick_options(state: State, seat: int) -> tuple[Card, ...]:
    """The distinct cards ``seat`` may take from the discard pile (R-HALI, R-UNIQUE), in pile order.

    Unknown cards in the pile are not offered (nobody can name them)."""
    names = state.cities[seat - 1].names
    seen: set[str] = set()
    out = []
    for c in state.discard:
        if c is not None and c.name not in names and c.name not in seen:
            seen.add(c.name)
            out.append(c)
    return tuple(out)


def _find_in_pile(state: State, name: str) -> Card | None:
    for c in state.discard:
        if c is not None and c.name == name:
            return c
    return None


def step_picks(state: State, picks: Mapping[int, tuple[str | None, ...]], where: str,
               spans: Mapping[int, Span | None] | None = None
               ) -> tuple[tuple[ev.Event, ...], tuple[Finding, ...], State]:
    """Resolve the builds from the discard pile owed at ``state`` (R-HALI, R-HALI-LAST): ``(events, findings,
    state after)``. ``picks[seat]`` is as :attr:`Play.pick`; a seat owed nothing is not looked at. A picked card
    is built for free and its income applies (R-COUNT-SAMETURN). ``where`` is the address for findings."""
    events: list = []
    findings: list[Finding] = []
    spans = spans or {}
    for seat in picks_owed(state):
        city = state.cities[seat - 1]
        name = state.table.names[seat - 1]
        span = spans.get(seat)
        choice = picks.get(seat, ())
        for _ in range(city.picks):
            card = None
            if not choice:
                if any(c is not None and c.name not in city.names for c in state.discard) or None in state.discard:
                    findings.append(Finding("R-HALI", f"{name} may build a card from the discard pile; the record "
                                            "states no choice, taken as declined", where, seat, span, "warning"))
            elif choice[0] is None:
                pass
            elif choice[0] == "?":
                findings.append(Finding("R-HALI", f"{name} builds from the discard pile a card the record does "
                                        "not name; taken as declined", where, seat, span))
            else:
                card = _find_in_pile(state, choice[0])
                why = ""
                if card is None and None in state.discard:
                    card, why = hidden_design(state, choice[0])
                    why = f"; {why}" if why else ""
                if card is None:
                    findings.append(Finding("R-HALI", f"{name} cannot build {choice[0]} from the discard pile: it "
                                            f"holds {_hand_text(state.discard)}{why}", where, seat, span))
                elif card.name in city.names:
                    findings.append(Finding("R-UNIQUE", f"{name} cannot build {card.name} from the discard pile: "
                                            "the city already has one", where, seat, span))
                    card = None
            if card is None:
                e: ev.Event = ev.PickDeclined(seat)
                state = fold(state, (e,))
                events.append(e)
                continue
            e = ev.PickedFromDiscard(seat, card)
            state = fold(state, (e,))
            events.append(e)
            coins = card_income(state, seat, card)
            if coins:
                e = ev.CoinsGained(seat, coins, "card")
                state = fold(state, (e,))
                events.append(e)
            choice = ()
    return tuple(events), tuple(findings), state


def hidden_design(state: State, name: str) -> tuple[Card | None, str]:
    """The design called ``name`` that one of the pile's unknown cards can be (R-HALI-UNKNOWN), latest Age first,
    with ``""``; or ``None`` and why none can.

    A design can be hidden in the pile when this game's deck of its Age (an Age played so far; player count and
    guilds, :func:`wnotation.deck.copies`) holds more copies than are known to be elsewhere: Buildings (picked
    ones included), cards under a Wonder, cards in a hand. Cost: O(cards in play) per Age."""
    catalog = load()
    players = len(state.cities)
    seen = [c for city in state.cities for c in city.buildings + city.staged]
    seen += [c for hand in state.hands for c in hand]
    reasons = []
    for age in range(state.age, 0, -1):
        try:
            card = catalog.card(name, age)
        except CatalogError:
            continue
        have = deck.copies(age, players, state.table.guilds)[card]
        elsewhere = sum(1 for c in seen if c is card)
        if have > elsewhere:
            return card, ""
        numeral = AGE_NUMERALS[age]
        if not have:
            reasons.append(f"{card.name} is not among this game's guilds" if card.is_guild else
                           f"the Age {numeral} deck for {players} players holds no {card.name}")
        else:
            held = f"1 {card.name}, known" if have == 1 else f"{have} copies of {card.name}, all known"
            reasons.append(f"the Age {numeral} deck for {players} players holds {held} to be elsewhere (in a city, "
                           "under a Wonder or in a hand)")
    return None, ", and ".join(reasons)


def resolve_picks(state: State, picks: Mapping[int, tuple[str | None, ...]], where: str = ""
                  ) -> tuple[tuple[ev.Event, ...], tuple[Finding, ...]]:
    """The events and findings of the builds from the discard pile owed at ``state`` (see :func:`step_picks`)."""
    events, findings, _ = step_picks(state, picks, where or state.address)
    return events, findings


def deal_events(age: int, hands: Sequence[Sequence[Card | None]]) -> tuple[ev.Event, ...]:
    """The event that starts ``age`` with ``hands`` (seat order, 7 cards each)."""
    return (ev.AgeDealt(age, tuple(tuple(h) for h in hands)),)


def end_age(state: State) -> tuple[ev.Event, ...]:
    """Military (R-MILITARY) and the end of the Age, once the turns and the picks are over.

    Each seat compares shields with its left, then its right neighbour: more gives 1/3/5 points by Age, fewer -1.
    """
    n = len(state.cities)
    win = VICTORY[state.age - 1]
    out: list = []
    for c in state.cities:
        for other in (state.cities[c.seat % n], state.cities[(c.seat - 2) % n]):
            if c.shields > other.shields:
                out.append(_valued(ev.ConflictResolved, c.seat, other.seat, win))
            elif c.shields < other.shields:
                out.append(_valued(ev.ConflictResolved, c.seat, other.seat, DEFEAT))
    out.append(_valued(ev.AgeEnded, state.age))
    return tuple(out)
