"""The trade solver: how a city pays a resource cost from its own production and its neighbours' (R-PRODUCE,
R-TRADE, R-PRICE, R-TRADE-MINIMAL, R-COST-COINS). Pure, memoised functions over tuples; it knows resources,
unit-sources and prices, never cards, turns, chains or a card's coin cost (the caller subtracts that from the budget).

Canonical order of purchases (R-TRADE-MINIMAL): fewer coins in all; then fewer coins paid to the left neighbour;
then the left units, then the right units, compared as sequences in ``catalog.RESOURCES`` order. (Every minimal
purchase of one cost buys the same number of units, what own production cannot cover, so units never break a tie.)

A *unit-source* is a tuple of the resources one symbol can give for one payment: ``("wood",)``, ``("wood", "clay")``.
A double card (Sawmill) is two sources. The caller passes only what may be used: all of a city's own production,
but only the *tradable* production of each neighbour (starting resource, brown and grey cards; R-TRADE), and never
a neighbour's Building placed this same turn (:func:`tradable_sources` builds that list from effects).

Cost: for a cost with ``c_r`` units of resource ``r`` the solver works on the ``Π(c_r + 1)`` sub-costs (at most 128
for a 7-unit cost): one pass per unit-source over them, then ``Π C(c_r + 2, 2)`` candidate splits (at most 2,187,
for the Palace). Results are memoised on the normalised arguments, so repeated questions are dictionary look-ups.
Refused with :class:`ValueError`: unknown resource names, negative counts, empty sources, negative prices.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Callable, Final, TypeGuard

from wnotation.model.catalog import MANUFACTURED, RAW, RESOURCES, Effect, Produce, TradeDiscount

from .memo import Memo, memo

Source = tuple[str, ...]
#: What callers may pass as a unit-source (a list works as well as a tuple).
SourceLike = Sequence[str]
SIDES = ("left", "right")

#: Each resource's place in ``catalog.RESOURCES``: the order of units in a purchase.
RESOURCE_INDEX: dict[str, int] = {r: i for i, r in enumerate(RESOURCES)}
_INDEX = RESOURCE_INDEX
_RAW = frozenset(RAW)

#: A *packed* count vector (:attr:`Supply.packed`, :attr:`Prices.packed`, a cost's in :mod:`.payment`): one small
#: int holding a count per resource, four bits each in ``catalog.RESOURCES`` order (wood in the lowest), each count
#: at most :data:`PACK_LIMIT`, so that the fourth bit of every field stays clear and counts can be subtracted field
#: by field in one integer operation. ``-1`` stands for a vector with a count over the limit (not packed).
PACK_UNIT: Final = tuple(1 << 4 * i for i in range(len(RESOURCES)))
PACK_LIMIT: Final = 7


def pack_counts(counts: Mapping[str, int]) -> int:
    """``counts`` (resource -> units) as a packed vector, or ``-1`` if a count is negative or over
    :data:`PACK_LIMIT` or a name is not a resource."""
    packed = 0
    for r, n in counts.items():
        i = _INDEX.get(r, -1)
        if i < 0 or n < 0 or n > PACK_LIMIT:
            return -1
        packed += n << 4 * i
    return packed


# --- values --------------------------------------------------------------------------------------------------
# Plain classes with ``Final`` fields rather than frozen dataclasses: mypy refuses an assignment to a field, the
# compiled build refuses it at run time too, and mypyc builds them as native classes, whose construction costs a
# tenth of a frozen dataclass's generated ``__init__`` (which stays interpreted Python).


class Prices:
    """Coins per unit bought, by neighbour and resource class; 2 everywhere unless a discount applies (R-PRICE).
    A value: read-only, compared and hashed by its four prices."""

    __slots__ = ("left_raw", "left_manufactured", "right_raw", "right_manufactured", "packed")

    def __init__(self, left_raw: int = 2, left_manufactured: int = 2, right_raw: int = 2,
                 right_manufactured: int = 2) -> None:
        if min(left_raw, left_manufactured, right_raw, right_manufactured) < 0:
            raise ValueError(f"negative price in Prices(left_raw={left_raw}, left_manufactured={left_manufactured}, "
                             f"right_raw={right_raw}, right_manufactured={right_manufactured})")
        self.left_raw: Final = left_raw
        self.left_manufactured: Final = left_manufactured
        self.right_raw: Final = right_raw
        self.right_manufactured: Final = right_manufactured
        #: The four prices in one small int (four bits each, in the order above), or ``-1`` if one is over 15: a
        #: part of a trade question's key (:mod:`.payment`).
        self.packed: Final = (left_raw | left_manufactured << 4 | right_raw << 8 | right_manufactured << 12
                              if max(left_raw, left_manufactured, right_raw, right_manufactured) < 16 else -1)

    def _fields(self) -> tuple[int, int, int, int]:
        return self.left_raw, self.left_manufactured, self.right_raw, self.right_manufactured

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Prices) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Prices(left_raw={self.left_raw}, left_manufactured={self.left_manufactured}, "
                f"right_raw={self.right_raw}, right_manufactured={self.right_manufactured})")

    def price(self, side: str, resource: str) -> int:
        """Coins for one unit of ``resource`` bought from the ``side`` ("left" or "right") neighbour."""
        if resource not in _INDEX:
            raise ValueError(f"unknown resource {resource!r}")
        raw = resource in _RAW
        if side == "left":
            return self.left_raw if raw else self.left_manufactured
        if side == "right":
            return self.right_raw if raw else self.right_manufactured
        raise ValueError(f"unknown neighbour {side!r}: expected left or right")


DEFAULT_PRICES = Prices()


class Purchase:
    """One way to pay by trading (R-TRADE): the units bought from each neighbour and the coins paid to each.

    Unit tuples are sorted in ``catalog.RESOURCES`` order; ``Purchase()`` buys nothing. A value: read-only,
    compared and hashed by its four fields.
    """

    __slots__ = ("left", "right", "left_coins", "right_coins")

    def __init__(self, left: tuple[str, ...] = (), right: tuple[str, ...] = (), left_coins: int = 0,
                 right_coins: int = 0) -> None:
        self.left: Final = left
        self.right: Final = right
        self.left_coins: Final = left_coins
        self.right_coins: Final = right_coins

    def _fields(self) -> tuple[tuple[str, ...], tuple[str, ...], int, int]:
        return self.left, self.right, self.left_coins, self.right_coins

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Purchase) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Purchase(left={self.left!r}, right={self.right!r}, left_coins={self.left_coins}, "
                f"right_coins={self.right_coins})")

    @property
    def coins(self) -> int:
        return self.left_coins + self.right_coins

    @property
    def units(self) -> int:
        return len(self.left) + len(self.right)

    def __str__(self) -> str:
        parts = [f"{side} {'+'.join(units)}" for side, units in (("left", self.left), ("right", self.right)) if units]
        return "; ".join(parts) if parts else "nothing"


class Refusal:
    """Why a cost cannot be paid: the ``rule`` broken (``R-TRADE``, ``R-PRODUCE``, ``R-COST-COINS`` …) and a
    ``reason`` a player understands; ``str`` is the reason followed by the rule ID in brackets. A value, as
    :class:`Purchase` is."""

    __slots__ = ("rule", "reason")

    def __init__(self, rule: str, reason: str) -> None:
        self.rule: Final = rule
        self.reason: Final = reason

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and (self.rule, self.reason) == (other.rule, other.reason)

    def __hash__(self) -> int:
        return hash((self.rule, self.reason))

    def __repr__(self) -> str:
        return f"Refusal(rule={self.rule!r}, reason={self.reason!r})"

    def __str__(self) -> str:
        return f"{self.reason} [{self.rule}]"


class Supply:
    """A list of unit-sources summarised for trade questions: the units per resource of its one-resource sources
    (``singles``) and its either/or sources in order (``multi``). Never mutated once built: :meth:`plus` makes the
    summary of more sources.

    The same in packed form (:data:`PACK_UNIT`), which :mod:`.payment` asks its questions in: ``packed``, the
    one-resource counts as a packed vector, and ``masks``, each either/or source as the packed vector with a 1 in
    the field of each resource it offers; ``packed`` is ``-1`` when a count is over :data:`PACK_LIMIT` or a source
    names something that is not a resource."""

    __slots__ = ("singles", "multi", "packed", "masks")

    def __init__(self, singles: dict[str, int], multi: tuple[Source, ...]) -> None:
        self.singles = singles
        self.multi = multi
        packed = 0
        for r, n in singles.items():
            i = _INDEX.get(r, -1)
            if i < 0 or n <= 0 or n > PACK_LIMIT:  # packed holds every count, or is -1
                packed = -1
                break
            packed += n << 4 * i
        masks: list[int] = []
        for src in multi:
            mask = 0
            for r in src:
                i = _INDEX.get(r, -1)
                if i < 0:
                    packed = -1
                    break
                mask |= PACK_UNIT[i]
            masks.append(mask)
        self.packed = packed
        self.masks = tuple(masks)

    @staticmethod
    def of(sources: Iterable[SourceLike]) -> Supply:
        return Supply({}, ()).plus(sources)

    def plus(self, sources: Iterable[SourceLike]) -> Supply:
        """The summary of this supply's sources followed by ``sources``: a shared value, memoised by content (a
        city's production grows by the same cards in many games)."""
        if self.packed >= 0 and _all_tuples(sources):
            key = (self.packed, self.multi, sources)
            found = _SUPPLIES.get(key)
            if found is None:
                found = _SUPPLIES.put(key, self._plus(sources))
            return found
        return self._plus(sources)

    def _plus(self, sources: Iterable[SourceLike]) -> Supply:
        singles = dict(self.singles)
        multi = list(self.multi)
        for src in sources:
            if len(src) == 1:
                singles[src[0]] = singles.get(src[0], 0) + 1
            else:
                multi.append(tuple(src))
        return Supply(singles, tuple(multi))


def canonical_key(p: Purchase) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """The sort key of the canonical order of purchases (see the module docstring)."""
    return (
        p.coins,
        p.left_coins,
        tuple(_INDEX[r] for r in p.left),
        tuple(_INDEX[r] for r in p.right),
    )


# --- building the inputs from effects ------------------------------------------------------------------------


def prices_for(effects: Iterable[Effect]) -> Prices:
    """The prices a city pays, from its ``TradeDiscount`` effects (R-PRICE); other effects are ignored.

    A discount must name whole resource classes (all raw or all manufactured); anything else is refused with
    :class:`ValueError`, since :class:`Prices` is kept per class.
    """
    price = {("left", "raw"): 2, ("left", "manufactured"): 2, ("right", "raw"): 2, ("right", "manufactured"): 2}
    for effect in effects:
        if not isinstance(effect, TradeDiscount):
            continue
        named = set(effect.resources)
        classes = [name for name, members in (("raw", RAW), ("manufactured", MANUFACTURED)) if named & set(members)]
        covered = set().union(*(RAW if c == "raw" else MANUFACTURED for c in classes))
        if named != covered:
            raise ValueError(f"trade discount on {sorted(named)} does not name whole resource classes")
        for side in effect.neighbours:
            if side not in SIDES:
                raise ValueError(f"trade discount for {side!r}: expected left or right")
            for cls in classes:
                price[side, cls] = min(price[side, cls], effect.price)
    return Prices(price["left", "raw"], price["left", "manufactured"], price["right", "raw"],
                  price["right", "manufactured"])


def own_sources(starting: str | None, effects: Iterable[Effect]) -> tuple[Source, ...]:
    """A city's unit-sources for its own payments: its starting resource and every ``Produce`` (R-PRODUCE)."""
    return _sources(starting, effects, tradable_only=False)


def tradable_sources(starting: str | None, effects: Iterable[Effect]) -> tuple[Source, ...]:
    """What a neighbour sells (R-TRADE): its starting resource and its tradable ``Produce`` effects only.

    Yellow-card and Wonder-stage production is marked non-tradable in the catalogue and left out here.
    """
    return _sources(starting, effects, tradable_only=True)


def _sources(starting: str | None, effects: Iterable[Effect], *, tradable_only: bool) -> tuple[Source, ...]:
    out: list[Source] = [(starting,)] if starting else []
    for effect in effects:
        if isinstance(effect, Produce) and (effect.tradable or not tradable_only):
            out.extend([_source(effect.choices)] * effect.amount)
    return tuple(out)


# --- normalisation -------------------------------------------------------------------------------------------


_SOURCES: Memo[tuple[str, ...], Source] = memo("trade: normalised unit-sources", 1024)
#: Supplies by what they summarise (packed one-resource counts, either/or sources) and the sources added.
_SUPPLIES: Final[Memo[tuple[int, tuple[Source, ...], tuple[Source, ...]], Supply]] = memo("trade: supplies", 1 << 12)
_SOURCES_KEYS: Memo[tuple[Source, ...], tuple[Source, ...]] = memo("trade: source lists in canonical order", 4096)
_SPACES: Memo[tuple[int, ...], _Space] = memo("trade: sub-cost lattices", 512)
_REACH: Memo[tuple[tuple[int, ...], tuple[Source, ...]], bytes] = memo("trade: coverable sub-costs", 8192)
_SOLVED: Memo[tuple[tuple[int, ...], tuple[Source, ...], tuple[Source, ...], tuple[Source, ...], Prices],
              tuple[Purchase, ...]] = memo("trade: minimal purchases", 8192)


def _source(choices: tuple[str, ...]) -> Source:
    found = _SOURCES.get(choices)
    if found is None:
        found = _SOURCES.put(choices, _new_source(choices))
    return found


def _new_source(choices: tuple[str, ...]) -> Source:
    if not choices:
        raise ValueError("a unit-source must offer at least one resource")
    for r in choices:
        if r not in _INDEX:
            raise ValueError(f"unknown resource {r!r} in unit-source {choices!r}")
    return tuple(sorted(set(choices), key=_INDEX.__getitem__))


def _all_tuples(sources: Iterable[SourceLike]) -> TypeGuard[tuple[Source, ...]]:
    return isinstance(sources, tuple) and all(isinstance(s, tuple) for s in sources)


def _sources_key(sources: Sequence[SourceLike]) -> tuple[Source, ...]:
    """Sources in a canonical order (their order never matters), so that equal questions share a cache entry."""
    if _all_tuples(sources):
        return _tuple_sources_key(sources)
    return tuple(sorted(_source(tuple(s)) for s in sources))


def _tuple_sources_key(sources: tuple[Source, ...]) -> tuple[Source, ...]:
    found = _SOURCES_KEYS.get(sources)
    if found is None:
        found = _SOURCES_KEYS.put(sources, tuple(sorted(_source(tuple(s)) for s in sources)))
    return found


def _counts(cost: Mapping[str, int] | Iterable[tuple[str, int]]) -> tuple[int, ...]:
    """A cost as a count per resource in RESOURCES order; also takes pairs, as ``catalog.Cost.resources``."""
    counts = [0] * len(RESOURCES)
    for r, n in (cost.items() if isinstance(cost, Mapping) else cost):
        i = _INDEX.get(r)
        if i is None:
            raise ValueError(f"unknown resource {r!r} in cost")
        if n < 0:
            raise ValueError(f"negative count {n} of {r} in cost")
        counts[i] += n
    return tuple(counts)


def _unit_counts(units: Iterable[str]) -> tuple[int, ...]:
    counts = [0] * len(RESOURCES)
    for r in units:
        counts[_INDEX[r]] += 1
    return tuple(counts)


def _units(counts: Sequence[int]) -> tuple[str, ...]:
    return tuple(r for r, n in zip(RESOURCES, counts) for _ in range(n))


def _text(counts: Sequence[int]) -> str:
    return "+".join(_units(counts)) or "nothing"


# --- the sub-cost lattice ------------------------------------------------------------------------------------


class _Space:
    """The sub-multisets of one cost, numbered in mixed radix so that adding a unit is adding a base."""

    __slots__ = ("counts", "types", "caps", "bases", "size", "digits")

    def __init__(self, counts: tuple[int, ...]) -> None:
        self.counts = counts
        self.types = tuple(i for i, n in enumerate(counts) if n)
        self.caps = tuple(counts[i] for i in self.types)
        bases, size = [], 1
        for cap in self.caps:
            bases.append(size)
            size *= cap + 1
        self.bases = tuple(bases)
        self.size = size
        # product() varies its last factor fastest; feeding it the caps reversed makes the first type the
        # fastest, matching base 1, so digits[idx] is the vector numbered idx
        self.digits = tuple(
            tuple(reversed(d)) for d in itertools.product(*(range(cap + 1) for cap in reversed(self.caps)))
        )

    def index(self, counts: Sequence[int]) -> int:
        """The number of a sub-cost given as a 7-vector (each count at most the cost's)."""
        return sum(counts[t] * b for t, b in zip(self.types, self.bases))

    def vector(self, idx: int) -> tuple[int, ...]:
        out = [0] * len(RESOURCES)
        for t, d in zip(self.types, self.digits[idx]):
            out[t] = d
        return tuple(out)


def _space(counts: tuple[int, ...]) -> _Space:
    found = _SPACES.get(counts)
    if found is None:
        found = _SPACES.put(counts, _Space(counts))
    return found


def _reach(counts: tuple[int, ...], sources: tuple[Source, ...]) -> bytes:
    """See :func:`_new_reach` (memoised)."""
    found = _REACH.get((counts, sources))
    if found is None:
        found = _REACH.put((counts, sources), _new_reach(counts, sources))
    return found


def _new_reach(counts: tuple[int, ...], sources: tuple[Source, ...]) -> bytes:
    """Flags over the sub-costs of ``counts``: 1 where ``sources`` can supply that sub-cost in one payment.

    Each source gives one unit of one of its options, or nothing; the set is closed downwards, so a sub-cost is
    reachable exactly when the sources can cover it (a bipartite matching, built one source at a time).
    """
    space = _space(counts)
    flags = bytearray(space.size)
    flags[0] = 1
    full = space.size - 1
    position = {t: k for k, t in enumerate(space.types)}
    for src in sources:
        steps = [(k, space.bases[k], space.caps[k]) for k in (position.get(_INDEX[r]) for r in src) if k is not None]
        if not steps:
            continue
        new = bytearray(flags)
        for idx in range(space.size):
            if flags[idx]:
                d = space.digits[idx]
                for k, base, cap in steps:
                    if d[k] < cap:
                        new[idx + base] = 1
        flags = new
        if flags[full]:
            return b"\x01" * space.size
    return bytes(flags)


# --- solving -------------------------------------------------------------------------------------------------


def _solve(counts: tuple[int, ...], own: tuple[Source, ...], left: tuple[Source, ...], right: tuple[Source, ...],
           prices: Prices) -> tuple[Purchase, ...]:
    """See :func:`_new_solve` (memoised)."""
    key = (counts, own, left, right, prices)
    found = _SOLVED.get(key)
    if found is None:
        found = _SOLVED.put(key, _new_solve(counts, own, left, right, prices))
    return found


def _new_solve(counts: tuple[int, ...], own: tuple[Source, ...], left: tuple[Source, ...],
               right: tuple[Source, ...], prices: Prices) -> tuple[Purchase, ...]:
    """Every minimal purchase for the cost ``counts``, in canonical order."""
    space = _space(counts)
    own_ok, left_ok, right_ok = _reach(counts, own), _reach(counts, left), _reach(counts, right)
    full = space.size - 1
    n = len(space.types)
    names = [RESOURCES[t] for t in space.types]
    left_price = [prices.price("left", r) for r in names]
    right_price = [prices.price("right", r) for r in names]
    found: list[Purchase] = []
    for bought in range(space.size):
        if not own_ok[full - bought]:
            continue  # own production cannot cover what is not bought
        digits = space.digits[bought]
        if any(digits[k] and own_ok[full - bought + space.bases[k]] for k in range(n)):
            continue  # some bought unit could be dropped (R-TRADE-MINIMAL)
        # each factor runs over k * base for k units of one type from the left: the sub-cost's number is the sum
        for parts in itertools.product(*(range(0, (d + 1) * b, b) for d, b in zip(digits, space.bases))):
            from_left = sum(parts)
            if not (left_ok[from_left] and right_ok[bought - from_left]):
                continue
            split = [part // b for part, b in zip(parts, space.bases)]
            found.append(Purchase(
                left=tuple(names[k] for k in range(n) for _ in range(split[k])),
                right=tuple(names[k] for k in range(n) for _ in range(digits[k] - split[k])),
                left_coins=sum(split[k] * left_price[k] for k in range(n)),
                right_coins=sum((digits[k] - split[k]) * right_price[k] for k in range(n)),
            ))
    found.sort(key=canonical_key)
    return tuple(found)


def minimal_purchases(cost: Mapping[str, int], own: Sequence[SourceLike], left: Sequence[SourceLike],
                      right: Sequence[SourceLike], prices: Prices = DEFAULT_PRICES) -> tuple[Purchase, ...]:
    """Every minimal purchase that covers ``cost`` (no bought unit can be dropped, R-TRADE-MINIMAL), at any price.

    ``cost`` is a mapping resource → units, or (resource, units) pairs as in ``catalog.Cost.resources`` (the same
    holds for every function here).

    Returns a shared tuple in canonical order (see the module docstring); ``()`` when no purchase covers the cost,
    ``(Purchase(),)`` when own production does.
    """
    return _solve(_counts(cost), _sources_key(own), _sources_key(left), _sources_key(right), prices)


def cheapest(cost: Mapping[str, int], own: Sequence[SourceLike], left: Sequence[SourceLike], right: Sequence[SourceLike],
             prices: Prices, budget: int) -> tuple[Purchase, ...]:
    """Every cheapest minimal purchase covering the resource ``cost`` within ``budget`` coins, in canonical order.

    ``budget`` is the coins held at the start of the turn minus the card's coin cost (R-COINS-TURNSTART,
    R-COST-COINS). The first purchase is the one the engine picks when a record states none; more than one means
    a written record must state its purchase. ``()`` if nothing covers the cost or the cheapest exceeds
    ``budget``; ``(Purchase(),)`` when own production covers the cost (and ``budget >= 0``).
    """
    every = _solve(_counts(cost), _sources_key(own), _sources_key(left), _sources_key(right), prices)
    if not every or every[0].coins > budget:
        return ()
    best = every[0].coins
    return tuple(itertools.takewhile(lambda p: p.coins == best, every))


# --- checking a stated purchase and explaining refusals ------------------------------------------------------


def check_purchase(cost: Mapping[str, int], own: Sequence[SourceLike], left: Sequence[SourceLike],
                   right: Sequence[SourceLike], prices: Prices, budget: int, stated_left: Sequence[str],
                   stated_right: Sequence[str]) -> Purchase | str:
    """:func:`stated_purchase` with a refusal written as its text, ``"reason [R-…]"``."""
    found = stated_purchase(cost, own, left, right, prices, budget, stated_left, stated_right)
    return str(found) if isinstance(found, Refusal) else found


def stated_purchase(cost: Mapping[str, int], own: Sequence[SourceLike], left: Sequence[SourceLike],
                    right: Sequence[SourceLike], prices: Prices, budget: int, stated_left: Sequence[str],
                    stated_right: Sequence[str]) -> Purchase | Refusal:
    """The priced :class:`Purchase` for the units a record states, or the :class:`Refusal` naming the rule it
    breaks.

    Checked in this order: the units are resources; each neighbour can supply its units at once, each unit-source
    sold at most once per payment (R-TRADE); with own production they cover the cost (R-PRODUCE); no bought
    unit can be dropped (R-TRADE-MINIMAL); the coins fit in ``budget`` (R-COST-COINS). A legal purchase need
    not be the cheapest one.
    """
    counts = _counts(cost)
    for side, units in (("left", stated_left), ("right", stated_right)):
        for r in units:
            if r not in _INDEX:
                return Refusal("R-TRADE", f"{r!r} bought from {side} is not a resource")
    vectors = {"left": _unit_counts(stated_left), "right": _unit_counts(stated_right)}
    for side, sources in (("left", left), ("right", right)):
        problem = _supply_problem(side, vectors[side], _sources_key(sources))
        if problem is not None:
            return problem

    own_key = _sources_key(own)
    space = _space(counts)
    own_ok = _reach(counts, own_key)
    bought = [a + b for a, b in zip(vectors["left"], vectors["right"])]
    still = [max(0, c - b) for c, b in zip(counts, bought)]
    if not own_ok[space.index(still)]:
        missing = _best_cover(space, own_ok, still)[1]
        return Refusal("R-PRODUCE", f"own production and the purchase leave {_text(missing)} unpaid")
    for side in SIDES:
        for i, n in enumerate(vectors[side]):
            if not n:
                continue
            if bought[i] > counts[i] or own_ok[space.index(still[:i] + [still[i] + 1] + still[i + 1:])]:
                return Refusal("R-TRADE-MINIMAL", f"buying {RESOURCES[i]} from {side} is not needed")

    purchase = Purchase(
        left=_units(vectors["left"]),
        right=_units(vectors["right"]),
        left_coins=sum(prices.price("left", r) for r in stated_left),
        right_coins=sum(prices.price("right", r) for r in stated_right),
    )
    if budget < 0:
        return Refusal("R-COST-COINS", "the coin cost alone is more than the coins held")
    if purchase.coins > budget:
        return Refusal("R-COST-COINS", f"costs {_coins(purchase.coins)}, has {budget}")
    return purchase


def explain_unaffordable(cost: Mapping[str, int], own: Sequence[SourceLike], left: Sequence[SourceLike],
                         right: Sequence[SourceLike], prices: Prices, budget: int) -> str:
    """Why no purchase pays ``cost`` within ``budget``, in one line for a finding, ending with the rule ID.

    e.g. ``"needs wood+clay+glass, has wood; left sells clay for 2, nobody sells glass [R-TRADE]"``. "has" is
    the most that own production covers; the sellers are listed for what remains. If the cost is in fact
    affordable the text says so and names the default purchase.
    """
    return str(_explained(cost, own, left, right, prices, budget))


def unaffordable(cost: Mapping[str, int], own: Sequence[SourceLike], left: Sequence[SourceLike],
                 right: Sequence[SourceLike], prices: Prices, budget: int) -> Refusal:
    """The :class:`Refusal` of a ``cost`` that no purchase pays within ``budget`` (as :func:`explain_unaffordable`
    words it). The caller has found no cheapest purchase within the budget."""
    found = _explained(cost, own, left, right, prices, budget)
    assert isinstance(found, Refusal), found
    return found


def _explained(cost: Mapping[str, int], own: Sequence[SourceLike], left: Sequence[SourceLike],
               right: Sequence[SourceLike], prices: Prices, budget: int) -> Refusal | str:
    counts = _counts(cost)
    own_key, left_key, right_key = _sources_key(own), _sources_key(left), _sources_key(right)
    if budget < 0:
        return Refusal("R-COST-COINS", "the coin cost alone is more than the coins held")
    every = _solve(counts, own_key, left_key, right_key, prices)
    if every and every[0].coins <= budget:
        if not every[0].units:
            return "own production covers the cost"
        return f"affordable: {every[0]} for {_coins(every[0].coins)}"
    space = _space(counts)
    sellers = left_key + right_key
    has, missing = _best_cover(space, _reach(counts, own_key), counts,
                               sold=lambda r: any(r in s for s in sellers))
    head = f"needs {_text(counts)}, has {_text(has)}"
    if every:
        best = every[0]
        return Refusal("R-COST-COINS", f"{head}; the cheapest purchase ({best}) costs {_coins(best.coins)}, "
                       f"has {budget}")
    clauses, short = [], False
    for i, need in enumerate(missing):
        if not need:
            continue
        r = RESOURCES[i]
        offers = []
        for side, key in (("left", left_key), ("right", right_key)):
            supply = sum(1 for s in key if r in s)
            if supply:
                offers.append(f"{side} sells {r} for {prices.price(side, r)}"
                              + (f" (at most {supply})" if supply < need else ""))
        if not offers:
            clauses.append(f"nobody sells {r}")
            short = True
            continue
        if sum(sum(1 for s in key if r in s) for key in (left_key, right_key)) < need:
            short = True
        clauses.append(", ".join(offers))
    if not short:
        clauses.append("not all at once (each unit is sold once per payment)")
    return Refusal("R-TRADE", f"{head}; {', '.join(clauses)}")


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _supply_problem(side: str, wanted: tuple[int, ...], sources: tuple[Source, ...]) -> Refusal | None:
    """Why a neighbour cannot sell ``wanted`` in one payment (R-TRADE), or None if it can."""
    if not any(wanted) or _reach(wanted, sources)[-1]:
        return None
    types = [i for i, n in enumerate(wanted) if n]
    for i in types:
        if not any(RESOURCES[i] in s for s in sources):
            return Refusal("R-TRADE", f"{side} does not sell {RESOURCES[i]}")
    # Hall's condition fails for some set of resources: report the smallest such set.
    for size in range(1, len(types) + 1):
        for group in itertools.combinations(types, size):
            names = {RESOURCES[i] for i in group}
            asked = sum(wanted[i] for i in group)
            offered = sum(1 for s in sources if names & set(s))
            if asked > offered:
                what = "/".join(RESOURCES[i] for i in group)
                of = "" if size == 1 else "of "
                return Refusal("R-TRADE", f"{side} can sell at most {offered} {of}{what} per payment, not {asked}")
    raise AssertionError("Hall's condition must fail when a supply is unreachable")


def _anyone_sells(resource: str) -> bool:
    return True


def _best_cover(space: _Space, ok: bytes, within: Sequence[int], sold: Callable[[str], bool] = _anyone_sells
                ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The largest sub-cost of ``within`` that ``ok`` marks coverable, and what it leaves over.

    Ties prefer leaving over resources that someone sells, then the lowest number (a fixed, arbitrary order).
    """
    best: tuple[tuple[int, int], tuple[int, ...], tuple[int, ...]] | None = None
    for idx in range(space.size):
        if not ok[idx]:
            continue
        vec = space.vector(idx)
        if any(v > w for v, w in zip(vec, within)):
            continue
        rest = tuple(w - v for v, w in zip(vec, within))
        unsold = sum(1 for i, n in enumerate(rest) if n and not sold(RESOURCES[i]))
        key = (-sum(vec), unsold)
        if best is None or key < best[0]:
            best = (key, vec, rest)
    assert best is not None, "the empty sub-cost is always coverable"
    return best[1], best[2]
