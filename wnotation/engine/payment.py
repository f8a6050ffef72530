"""Trade questions: what a seat pays for a cost in a game, as a value, :class:`Payment` or
:class:`~wnotation.engine.trade.Refusal` (R-PRODUCE, R-TRADE, R-TRADE-MINIMAL, R-COST-COINS).

Questions are asked of the trade solver (:mod:`.trade`) in a reduced form that many share, and memoised. It decides
nothing about turns, chains or powers: free builds are the rules' business.
"""

from __future__ import annotations

import itertools
from types import MappingProxyType
from typing import Final, Mapping, Sequence

from ..model.catalog import RESOURCES
from .coins import Coins, bought_by
from .memo import Memo, memo
from .state import Game
from .trade import (
    PACK_UNIT,
    RESOURCE_INDEX,
    Prices,
    Purchase,
    Refusal,
    Source,
    SourceLike,
    Supply,
    canonical_key,
    cheapest,
    pack_counts,
    stated_purchase,
    unaffordable,
)

NO_PURCHASE: Final = Purchase()
#: A purchase as a record states it: the units bought from the left and from the right neighbour.
#: Or the coins paid to each side (:class:`.coins.Coins`, 7WN 2): they buy what :func:`.coins.bought_by` finds.
Stated = tuple[Sequence[str], Sequence[str]] | Coins


class Payment:
    """How a seat pays: ``bank`` coins to the bank (the coin cost) and ``purchase`` from its neighbours. A value
    with ``Final`` fields, as :class:`~.trade.Purchase` is."""

    __slots__ = ("purchase", "bank")

    def __init__(self, purchase: Purchase, bank: int) -> None:
        self.purchase: Final = purchase
        self.bank: Final = bank

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Payment) and self.purchase == other.purchase and self.bank == other.bank

    def __hash__(self) -> int:
        return hash((self.purchase, self.bank))

    def __repr__(self) -> str:
        return f"Payment(purchase={self.purchase!r}, bank={self.bank})"

    @property
    def coins(self) -> int:
        """All the coins the seat pays."""
        return self.bank + self.purchase.coins


#: Payments that buy nothing, by their coin cost: most plays pay so, and they are shared.
_BANK_ONLY: Final = tuple(Payment(NO_PURCHASE, coins) for coins in range(8))
#: The payment of a play that costs nothing.
NOTHING_PAID: Final = _BANK_ONLY[0]


def bank_only(coin_cost: int) -> Payment:
    """The payment of ``coin_cost`` coins to the bank and nothing to the neighbours."""
    return _BANK_ONLY[coin_cost] if 0 <= coin_cost < len(_BANK_ONLY) else Payment(NO_PURCHASE, coin_cost)


def pay(game: Game, seat: int, cost: Mapping[str, int], coin_cost: int, stated: Stated | None
        ) -> Payment | Refusal:
    """What ``seat`` pays in ``game`` (the turn-start position) for ``cost`` resource units plus ``coin_cost``
    coins, given the purchase the record ``stated`` (``None``: the engine chooses the first cheapest,
    R-TRADE-MINIMAL; :class:`.coins.Coins`: the purchase those coins buy); or the refusal, with its rule. A
    stated purchase need not be the cheapest, only legal. Cost: one memoised question, plus the solver's full
    check for a stated purchase that is not among the cheapest."""
    city = game.cities[seat - 1]
    budget = city.coins - coin_cost
    if budget < 0:
        coins = "1 coin" if coin_cost == 1 else f"{coin_cost} coins"
        return Refusal("R-COST-COINS", f"costs {coins}, has {city.coins}")
    if stated is not None and isinstance(stated, Coins):  # stated in coins (7WN 2): the purchase those coins buy
        found = bought_by(game, seat, cost, budget, stated)
        return found if isinstance(found, Refusal) else Payment(found, coin_cost)
    buys = stated is not None and bool(stated[0] or stated[1])
    if not cost and not buys:
        return bank_only(coin_cost)
    left, right = game.cities[game.lefts[seat - 1] - 1], game.cities[game.rights[seat - 1] - 1]
    options = _reduced(cost, city.own_supply, left.tradable_supply, right.tradable_supply, city.prices)
    if stated is None:
        if options and options[0].coins <= budget:
            best = options[0]
            return bank_only(coin_cost) if best is NO_PURCHASE else Payment(best, coin_cost)
        return unaffordable(cost, city.own, left.tradable, right.tradable, city.prices, budget)
    # A stated purchase among the cheapest is legal and priced as that very purchase; anything else (dearer,
    # illegal, not resources) is checked in full.
    sl, sr = _in_order(stated[0]), _in_order(stated[1])
    if sl is not None and sr is not None:
        for option in options:
            if option.left == sl and option.right == sr:
                if option.coins <= budget:
                    return Payment(option, coin_cost)
                break
    found = stated_purchase(cost, city.own, left.tradable, right.tradable, city.prices, budget, stated[0],
                            stated[1])
    return found if isinstance(found, Refusal) else Payment(found, coin_cost)


def cheapest_for(game: Game, seat: int, cost: Mapping[str, int], budget: int) -> tuple[Purchase, ...]:
    """Every cheapest purchase with which ``seat`` pays ``cost`` within ``budget`` coins in ``game``, in canonical
    order (``(Purchase(),)`` when own production covers it, ``()`` when nothing within the budget does)."""
    if budget < 0:
        return ()
    city = game.cities[seat - 1]
    best = _asked(cost, city.own_supply, game.cities[game.lefts[seat - 1] - 1].tradable_supply,
                  game.cities[game.rights[seat - 1] - 1].tradable_supply, city.prices)
    if not best or best[0].coins > budget:
        return ()
    return best


def cheapest_options(cost: Mapping[str, int], own: Sequence[SourceLike], left: Sequence[SourceLike],
                     right: Sequence[SourceLike], prices: Prices, budget: int) -> tuple[Purchase, ...]:
    """:func:`cheapest_for` on unit-source lists: the same answer as ``trade.cheapest``, through the reduced,
    memoised questions."""
    if budget < 0:
        return ()
    best = _reduced(cost, Supply.of(own), Supply.of(left), Supply.of(right), prices)
    if not best or best[0].coins > budget:
        return ()
    return best


# --- the questions, by the values asked about ------------------------------------------------------------------

#: Answers by the very objects a question is asked of: a read-only cost (a card's or a stage's, see
#: :func:`~.state.info`), the seat's supply summary, its neighbours' and its prices. All are immutable and a city
#: replaces them when they change, so the same objects ask the same question: enumerating legal actions asks again
#: whenever nothing changed, for each card of each hand each turn (:func:`cheapest_for`). Keys hold the cost's and
#: the prices' ids (a Supply hashes by identity); an entry keeps those objects alive and a hit must hold them.
#: :func:`pay` does not use it: a replay pays each card at a state asked about once, where a miss costs ~5%.
_ASKED: Final[Memo[tuple[int, Supply, Supply, Supply, int], tuple[Mapping[str, int], Prices, tuple[Purchase, ...]]]] = \
    memo("payment: trade questions by the objects asked about", 1 << 14)


def _asked(cost: Mapping[str, int], own: Supply, left: Supply, right: Supply, prices: Prices
           ) -> tuple[Purchase, ...]:
    """:func:`_reduced`'s answer, memoised by identity when ``cost`` is read-only (a mutable mapping could change
    under the same identity, so it is asked afresh)."""
    if type(cost) is not MappingProxyType:
        return _reduced(cost, own, left, right, prices)
    key = (id(cost), own, left, right, id(prices))
    found = _ASKED.get(key)
    if found is not None and found[0] is cost and found[1] is prices:
        return found[2]
    answer = _reduced(cost, own, left, right, prices)
    _ASKED.put(key, (cost, prices, answer))
    return answer


# --- the reduced questions ------------------------------------------------------------------------------------

_COVERED: Final = (NO_PURCHASE,)
#: A reduced question: what is still needed, own either/or sources left, each neighbour's capped one-resource
#: units per needed resource and cut-down either/or sources, and the four prices.
Question = tuple[tuple[tuple[str, int], ...], tuple[Source, ...], tuple[int, ...], tuple[Source, ...],
                 tuple[int, ...], tuple[Source, ...], int, int, int, int]
_ANSWERS: Final[Memo[Question, tuple[Purchase, ...]]] = memo("payment: reduced trade questions", 1 << 13)
#: Reduced questions in packed vectors (see :func:`_reduced`): (need << 32 | the left neighbour's capped units,
#: the right one's << 16 | the packed prices), then any either/or masks left.
_PACKED: Final[Memo[tuple[int, ...], tuple[Purchase, ...]]] = memo("payment: packed trade questions", 1 << 13)
#: A read-only cost's packed vector, by the cost's id (the entry holds the cost, and a hit must be that very object).
_PACKED_COSTS: Final[Memo[int, tuple[Mapping[str, int], int]]] = memo("payment: packed costs", 1 << 12)
#: The fourth bit of each resource's field in a packed vector.
_GUARDS: Final = sum(8 * unit for unit in PACK_UNIT)
#: 7 in each resource's field: adding it carries into the fourth bit of each field that is not 0.
_SEVENS: Final = sum(7 * unit for unit in PACK_UNIT)
_ORDERED: Final[Memo[tuple[str, ...], tuple[bool, tuple[str, ...]]]] = memo("payment: stated units in order",
                                                                           1 << 10)


def _in_order(units: Sequence[str]) -> tuple[str, ...] | None:
    """Stated units sorted in ``catalog.RESOURCES`` order, as a Purchase holds them; ``None`` if one is not a
    resource."""
    key = tuple(units)
    found = _ORDERED.get(key)
    if found is None:
        index = RESOURCE_INDEX
        known = all(r in index for r in key)
        found = _ORDERED.put(key, (known, tuple(sorted(key, key=index.__getitem__)) if known else ()))
    return found[1] if found[0] else None


def _reduced(cost: Mapping[str, int], own: Supply, left: Supply, right: Supply, prices: Prices
             ) -> tuple[Purchase, ...]:
    """Every cheapest minimal purchase for ``cost`` at any price (``()`` if none covers it), asked as a reduced,
    equivalent question so that most questions share one memoised answer.

    The question is asked in packed vectors (:data:`.trade.PACK_UNIT`) when the cost, the supplies and the prices
    are packed (always, but for counts over :data:`.trade.PACK_LIMIT` or prices over 15: then
    :func:`_reduced_general` asks the same question in tuples). The reductions are :func:`_reduced_general`'s, done
    field by field: own one-resource sources pay first (the cost less them, never below 0); an own either/or
    source is cut to the resources still needed (its mask and the needed fields), and one left with one needed
    resource pays one unit of it, repeated until none is; each neighbour's one-resource units are capped at what
    is still needed, its either/or sources cut down to it. The key is two small ints (what is needed and the left
    neighbour's capped units; the right one's and the prices), followed by the either/or masks left, if any, with
    ``-1`` between the seat's and each neighbour's. Cost: a few integer operations and one look-up."""
    if type(cost) is MappingProxyType:  # a card's or a stage's read-only cost: its packed form is memoised
        found = _PACKED_COSTS.get(id(cost))
        if found is not None and found[0] is cost:
            code = found[1]
        else:
            code = _PACKED_COSTS.put(id(cost), (cost, pack_counts(cost)))[1]
    else:
        code = pack_counts(cost)
    lp, rp, pp = left.packed, right.packed, prices.packed
    if code < 0 or own.packed < 0 or lp < 0 or rp < 0 or pp < 0:
        return _reduced_general(cost, own, left, right, prices)
    need = _short(code, own.packed)
    if not need:
        return _COVERED
    rest: tuple[int, ...] = own.masks
    if rest:
        changed = True
        while changed and need:
            changed = False
            needed = _nonzero(need)
            kept: list[int] = []
            for mask in rest:
                useful = mask & needed
                if not useful:
                    continue
                if not useful & (useful - 1):  # one resource still needed: pay one unit of it
                    need -= useful
                    needed = _nonzero(need)
                    changed = True
                    continue
                kept.append(useful)
            rest = tuple(kept)
        if not need:
            return _COVERED
    lcap = lp - _short(lp, need)
    rcap = rp - _short(rp, need)
    key: tuple[int, ...] = (need << 32 | lcap, rcap << 16 | pp)
    lcut: tuple[int, ...] = ()
    rcut: tuple[int, ...] = ()
    if rest or left.masks or right.masks:
        needed = _nonzero(need)
        lcut = tuple([m & needed for m in left.masks if m & needed])
        rcut = tuple([m & needed for m in right.masks if m & needed])
        if rest or lcut or rcut:
            key = key + rest + (-1,) + lcut + (-1,) + rcut
    answer = _PACKED.get(key)
    if answer is None:
        if len(key) == 2:
            answer = _packed_answer(need, lcap, rcap, prices)
        else:
            wants = {r: need >> 4 * i & 7 for i, r in enumerate(RESOURCES) if need >> 4 * i & 7}
            answer = cheapest(wants, _unmasked(rest), _offered(wants, _counted(wants, lcap), _unmasked(lcut)),
                              _offered(wants, _counted(wants, rcap), _unmasked(rcut)), prices, 1 << 30)
        _PACKED.put(key, answer)
    return answer


def _nonzero(packed: int) -> int:
    """The packed vector with a 1 in each field where ``packed`` is not 0."""
    return ((packed + _SEVENS) & _GUARDS) >> 3


def _unmasked(masks: tuple[int, ...]) -> tuple[Source, ...]:
    """Either/or sources from their masks, each resource in ``catalog.RESOURCES`` order."""
    return tuple([tuple([r for i, r in enumerate(RESOURCES) if m >> 4 * i & 1]) for m in masks])


def _counted(wants: Mapping[str, int], packed: int) -> tuple[int, ...]:
    """The counts of a packed vector for the resources of ``wants``, in its order."""
    return tuple([packed >> 4 * RESOURCE_INDEX[r] & 7 for r in wants])


def _short(have: int, less: int) -> int:
    """``have`` less ``less`` field by field, none below 0, for packed vectors (counts at most 7, so the fourth bit
    of each field is free to borrow from: a field whose bit survives the subtraction did not go below 0)."""
    d = (have | _GUARDS) - less
    m = d & _GUARDS
    return d & (m - (m >> 3))


def _packed_answer(need: int, lcap: int, rcap: int, prices: Prices) -> tuple[Purchase, ...]:
    """:func:`_singles_answer` for a packed question: ``need`` the units still needed, ``lcap`` and ``rcap`` the
    neighbours' one-resource units capped at ``need`` (packed vectors)."""
    resources: list[str] = []
    units: list[int] = []
    most: list[int] = []
    least: list[int] = []
    for i, r in enumerate(RESOURCES):
        n = need >> 4 * i & 7
        if n:
            resources.append(r)
            units.append(n)
            most.append(lcap >> 4 * i & 7)
            least.append(max(0, n - (rcap >> 4 * i & 7)))
    return _split_answer(resources, units, most, least, prices)


def _reduced_general(cost: Mapping[str, int], own: Supply, left: Supply, right: Supply, prices: Prices
                     ) -> tuple[Purchase, ...]:
    """Every cheapest minimal purchase for ``cost`` at any price (``()`` if none covers it), asked as a reduced,
    equivalent question so that most questions share one memoised answer.

    Reductions (R-PRODUCE): own one-resource sources pay their units first (using one never hurts: it can serve
    nothing else), which answers most questions at once; each either/or source is cut down to the resources still
    needed (no minimal purchase buys, and no covering uses, anything else); an own source left with one needed
    resource pays one unit of it, repeated until no such source is left; sources that offer nothing still needed
    are dropped, and a neighbour's one-resource sources are kept only up to the units still needed of that
    resource (no minimal purchase buys more). Each reduction keeps the set of coverings, hence every minimal
    purchase, its price and the canonical order. Cost: O(cost + either/or sources) per question, plus one solver
    call per new reduced question."""
    singles = own.singles
    need: dict[str, int] = {}
    for r, n in cost.items():
        k = singles.get(r)
        if k:
            n -= k
        if n > 0:
            need[r] = n
    if not need:
        return _COVERED
    rest: tuple[Source, ...] = own.multi
    if rest:
        changed = True
        while changed and need:
            changed = False
            kept: list[Source] = []
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
            rest = tuple(kept)
        if not need:
            return _COVERED
    wanted = tuple(need.items())
    left_singles, right_singles = left.singles, right.singles
    left_units = tuple([min(left_singles.get(r, 0), n) for r, n in wanted])
    right_units = tuple([min(right_singles.get(r, 0), n) for r, n in wanted])
    question: Question = (wanted, rest, left_units, _cut(left.multi, need) if left.multi else (), right_units,
                          _cut(right.multi, need) if right.multi else (), prices.left_raw, prices.left_manufactured,
                          prices.right_raw, prices.right_manufactured)
    answer = _ANSWERS.get(question)
    if answer is None:
        offered_left = _offered(need, left_units, question[3])
        offered_right = _offered(need, right_units, question[5])
        if rest or question[3] or question[5]:
            answer = cheapest(need, rest, offered_left, offered_right, prices, 1 << 30)
        else:
            answer = _singles_answer(need, offered_left, offered_right, prices)
        _ANSWERS.put(question, answer)
    return answer


def _cut(multi: tuple[Source, ...], need: Mapping[str, int]) -> tuple[Source, ...]:
    """Either/or sources cut down to the resources in ``need``, empty ones dropped."""
    out = []
    for src in multi:
        useful = tuple([r for r in src if r in need])
        if useful:
            out.append(useful)
    return tuple(out)


def _offered(need: Mapping[str, int], units: tuple[int, ...], multi: tuple[Source, ...]) -> tuple[Source, ...]:
    """What a neighbour offers towards ``need``: ``units[i]`` one-resource sources of the i-th needed resource,
    then its either/or sources cut down to the needed resources."""
    out: list[Source] = []
    for r, k in zip(need, units):
        out += [(r,)] * k
    out += multi
    return tuple(out)


def _singles_answer(need: Mapping[str, int], left: tuple[Source, ...], right: tuple[Source, ...],
                    prices: Prices) -> tuple[Purchase, ...]:
    """``trade.cheapest`` at any price when own production has nothing left for ``need`` and each neighbour
    offers one-resource sources only (the usual question): every minimal purchase buys exactly ``need``, each
    resource split between the neighbours independently within their supply, so the cheapest buys each unit
    where it is cheaper, and every split of a resource priced alike on both sides ties. Same answer, in the
    same canonical order, without the general solver."""
    resources = sorted(need, key=RESOURCE_INDEX.__getitem__)
    units = [need[r] for r in resources]
    most = [min(n, sum(1 for src in left if src[0] == r)) for r, n in zip(resources, units)]
    least = [max(0, n - sum(1 for src in right if src[0] == r)) for r, n in zip(resources, units)]
    return _split_answer(resources, units, most, least, prices)


def _split_answer(resources: list[str], units: list[int], most: list[int], least: list[int], prices: Prices
                  ) -> tuple[Purchase, ...]:
    """:func:`_singles_answer`'s purchases: ``units[k]`` of ``resources[k]`` (in ``catalog.RESOURCES`` order) are
    bought, at most ``most[k]`` and at least ``least[k]`` of them from the left neighbour, the rest from the
    right."""
    shares: list[tuple[int, ...]] = []
    left_prices: list[int] = []
    right_prices: list[int] = []
    for r, lo, hi in zip(resources, least, most):
        if lo > hi:
            return ()  # the neighbours cannot supply it
        pl, pr = prices.price("left", r), prices.price("right", r)
        shares.append((hi,) if pl < pr else (lo,) if pl > pr else tuple(range(lo, hi + 1)))
        left_prices.append(pl)
        right_prices.append(pr)
    found: list[Purchase] = []
    for split in itertools.product(*shares):
        bought_left: list[str] = []
        bought_right: list[str] = []
        left_coins = right_coins = 0
        for r, n, x, pl, pr in zip(resources, units, split, left_prices, right_prices):
            if x:
                bought_left += [r] * x
                left_coins += x * pl
            if n > x:
                bought_right += [r] * (n - x)
                right_coins += (n - x) * pr
        found.append(Purchase(tuple(bought_left), tuple(bought_right), left_coins, right_coins))
    if len(found) > 1:
        found.sort(key=canonical_key)
    return tuple(found)
