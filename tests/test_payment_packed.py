"""The usual trade question asked in packed vectors (payment._reduced): the same answers as the trade solver, for
read-only and plain costs, counts on either side of the packing limit, discounts and prices too large to pack."""

import random
from types import MappingProxyType

from wnotation.engine import memo, payment
from wnotation.engine.payment import cheapest_options
from wnotation.engine.trade import PACK_LIMIT, PACK_UNIT, Prices, Supply, cheapest, pack_counts
from wnotation.model.catalog import RESOURCES


def _unpack(packed):
    return [packed >> 4 * i & 15 for i in range(len(RESOURCES))]


def test_pack_counts_packs_each_resource_in_its_field_or_refuses():
    assert pack_counts({}) == 0
    assert pack_counts({"wood": 1, "loom": 7}) == PACK_UNIT[0] + 7 * PACK_UNIT[6]
    assert _unpack(pack_counts({"clay": 3, "glass": 2, "stone": 0})) == [0, 0, 3, 0, 2, 0, 0]
    assert pack_counts({"ore": PACK_LIMIT + 1}) == -1
    assert pack_counts({"ore": -1}) == -1
    assert pack_counts({"gold": 1}) == -1


def test_packed_vectors_subtract_field_by_field_never_below_zero():
    rng = random.Random(7)
    for _ in range(2000):
        a = [rng.randint(0, PACK_LIMIT) for _ in RESOURCES]
        b = [rng.randint(0, PACK_LIMIT) for _ in RESOURCES]
        pa, pb = (sum(n * u for n, u in zip(v, PACK_UNIT)) for v in (a, b))
        assert _unpack(payment._short(pa, pb)) == [max(0, x - y) for x, y in zip(a, b)]


def test_a_supply_and_prices_carry_their_packed_form():
    s = Supply.of([("wood",), ("wood",), ("clay", "ore"), ("glass",)])
    assert _unpack(s.packed) == [2, 0, 0, 0, 1, 0, 0]
    assert _unpack(s.plus([("wood",)] * 5).packed)[0] == 7
    assert s.plus([("wood",)] * 6).packed == -1  # 8 wood: over the limit
    assert Prices(1, 2, 2, 1).packed == 1 | 2 << 4 | 2 << 8 | 1 << 12
    assert Prices(left_raw=16).packed == -1


def _sources(rng, big):
    out = []
    for r in RESOURCES:
        out += [(r,)] * rng.choice((0, 0, 1, 1, 2, 3, big))
    rng.shuffle(out)
    return tuple(out)


def test_packed_questions_give_the_solvers_answers():
    """Random questions (either/or sources on any side, some counts over the packing limit: then the tuple
    questions of _reduced_general are asked), costs read-only or plain: cheapest_options agrees with
    trade.cheapest, for every budget, asked afresh and from the memo."""
    rng = random.Random(31)
    price_lists = (Prices(), Prices(left_raw=1), Prices(right_raw=1, right_manufactured=1), Prices(1, 1, 1, 1),
                   Prices(left_manufactured=20))
    packed_asked = 0
    for k in range(600):
        big = 8 if k % 5 == 0 else 3  # over the packing limit, or not
        cost = {r: rng.choice((1, 1, 2, 3, 4, big)) for r in rng.sample(RESOURCES, rng.randint(1, 4))}
        asked = MappingProxyType(cost) if k % 2 else cost
        own = _sources(rng, big)[: rng.randint(0, 4)]
        if k % 7 == 0:
            own += (("wood", "clay"),)
        if k % 11 == 0:
            own += (("glass", "papyrus", "loom"), ("stone", "ore"))
        left, right = _sources(rng, big), _sources(rng, big + 1)
        if k % 13 == 0:
            left += (("clay", "ore"),)
        if k % 17 == 0:
            right += (("wood", "stone", "clay", "ore"), ("loom", "glass"))
        prices = rng.choice(price_lists)
        if k % 3 == 0:
            memo.clear_all()
        before = len(payment._PACKED)
        for budget in (0, 3, 99):
            want = cheapest(cost, own, left, right, prices, budget)
            assert cheapest_options(asked, own, left, right, prices, budget) == want, (cost, own, left, right)
        packed_asked += len(payment._PACKED) > before
    assert packed_asked > 100  # the packed path answered many of them


def test_a_read_only_cost_is_packed_as_itself_not_as_what_its_id_once_was():
    """The packed-cost memo is keyed by the cost's id: an entry left by another object under that id is not
    taken for this cost."""
    memo.clear_all()
    cost = MappingProxyType({"wood": 2})
    other = MappingProxyType({"glass": 1})
    payment._PACKED_COSTS.put(id(cost), (other, pack_counts(other)))
    left = (("wood",), ("wood",))
    assert cheapest_options(cost, (), left, (), Prices(), 9) == cheapest(cost, (), left, (), Prices(), 9)
    assert cheapest_options(cost, (), left, (), Prices(), 9)[0].left == ("wood", "wood")
