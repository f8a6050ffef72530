"""The trade solver (wnotation.engine.trade): each test names the rule it checks; a property test compares
``cheapest`` and ``minimal_purchases`` against a brute-force reference written here."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wnotation.model import catalog
from wnotation.model.catalog import RESOURCES
from wnotation.engine.trade import (
    Prices,
    Purchase,
    check_purchase,
    cheapest,
    explain_unaffordable,
    minimal_purchases,
    own_sources,
    prices_for,
    tradable_sources,
)

P = Prices()
W, S, C, O, G, PA, L = ("wood",), ("stone",), ("clay",), ("ore",), ("glass",), ("papyrus",), ("loom",)


def effects(*names: str) -> list:
    return [e for n in names for e in catalog.card(n).effects]


# --- R-PRODUCE: own production -------------------------------------------------------------------------------


def test_own_production_covers_R_PRODUCE():
    assert cheapest({"wood": 1, "clay": 1}, [W, C], [], [], P, 0) == (Purchase(),)
    assert minimal_purchases({"wood": 1, "clay": 1}, [W, C], [W], [C]) == (Purchase(),)
    assert cheapest({}, [], [], [], P, 0) == (Purchase(),)


def test_own_source_gives_one_unit_per_payment_R_PRODUCE():
    # one Lumber Yard does not pay two wood, but it is reusable: it pays one wood on every payment
    assert cheapest({"wood": 2}, [W], [], [], P, 10) == ()
    assert cheapest({"wood": 2}, [W], [W], [], P, 10) == (Purchase(left=("wood",), left_coins=2),)


def test_own_either_or_changes_what_must_be_bought_R_PRODUCE():
    # Timber Yard (wood/stone) must give wood when only stone is for sale, and stone when only wood is
    cost = {"wood": 1, "stone": 1}
    assert cheapest(cost, [("wood", "stone")], [S], [], P, 5) == (Purchase(left=("stone",), left_coins=2),)
    assert cheapest(cost, [("wood", "stone")], [], [W], P, 5) == (Purchase(right=("wood",), right_coins=2),)


def test_own_either_or_gives_two_cheapest_options_R_PRODUCE():
    # Clay Pit (clay/ore) covers either unit: buying wood or buying clay both cost 2
    got = cheapest({"wood": 1, "clay": 1}, [("clay", "ore"), ("wood", "clay")], [], [], P, 5)
    assert got == (Purchase(),)
    got = cheapest({"ore": 1, "clay": 1}, [("clay", "ore")], [O], [C], P, 5)
    assert got == (Purchase(right=("clay",), right_coins=2), Purchase(left=("ore",), left_coins=2))


def test_starting_resource_and_double_cards_as_sources_R_PRODUCE():
    assert own_sources("wood", effects("Sawmill", "Timber Yard")) == (W, W, W, ("wood", "stone"))
    assert cheapest({"wood": 4}, own_sources("wood", effects("Sawmill", "Timber Yard")), [], [], P, 0) == (
        Purchase(),
    )


# --- R-TRADE: what neighbours sell ---------------------------------------------------------------------------


def test_neighbour_either_or_buyer_picks_one_option_R_TRADE():
    # the left neighbour's Excavation (stone/clay) sells stone or clay, never both in one payment
    cost = {"stone": 1, "clay": 1}
    assert cheapest(cost, [], [("stone", "clay")], [], P, 10) == ()
    got = cheapest(cost, [], [("stone", "clay")], [C], P, 10)
    assert got == (Purchase(left=("stone",), right=("clay",), left_coins=2, right_coins=2),)
    assert check_purchase(cost, [], [("stone", "clay")], [C], P, 10, ["stone", "clay"], []) == (
        "left can sell at most 1 of stone/clay per payment, not 2 [R-TRADE]"
    )


def test_neighbour_double_card_sells_two_units_R_TRADE():
    sawmill = [W, W]
    assert cheapest({"wood": 2}, [], sawmill, [], P, 4) == (Purchase(left=("wood", "wood"), left_coins=4),)
    assert cheapest({"wood": 3}, [], sawmill, [], P, 10) == ()


def test_each_unit_source_sold_once_per_payment_R_TRADE():
    cost = {"ore": 2}
    assert cheapest(cost, [], [O], [], P, 10) == ()
    assert cheapest(cost, [], [O], [O], P, 10) == (
        Purchase(left=("ore",), right=("ore",), left_coins=2, right_coins=2),
    )
    assert check_purchase(cost, [], [O], [O], P, 10, ["ore", "ore"], []) == (
        "left can sell at most 1 ore per payment, not 2 [R-TRADE]"
    )


def test_neighbour_sells_only_what_it_produces_R_TRADE():
    assert check_purchase({"glass": 1}, [], [O], [G], P, 5, ["glass"], []) == "left does not sell glass [R-TRADE]"
    assert check_purchase({"glass": 1}, [], [O], [G], P, 5, [], ["glas"]) == (
        "'glas' bought from right is not a resource [R-TRADE]"
    )


def test_non_tradable_production_is_not_passed_R_TRADE():
    """The solver sells whatever it is given: the engine passes a neighbour's tradable_sources, which leave out
    yellow-card (Forum, Caravansery) and Wonder-stage production (Alexandria)."""
    city = effects("Forum", "Caravansery", "Loom") + list(catalog.wonder("Alexandria", "day").stages[1].effects)
    assert tradable_sources("glass", city) == (G, L)
    assert own_sources("glass", city) == (
        G, ("glass", "papyrus", "loom"), ("wood", "stone", "clay", "ore"), L, ("wood", "stone", "clay", "ore"),
    )
    assert cheapest({"papyrus": 1}, [], tradable_sources("glass", city), [], P, 10) == ()


# --- R-PRICE --------------------------------------------------------------------------------------------------


def test_prices_from_discount_cards_R_PRICE():
    assert prices_for([]) == Prices()
    assert prices_for(effects("East Trading Post")) == Prices(right_raw=1)
    assert prices_for(effects("West Trading Post")) == Prices(left_raw=1)
    assert prices_for(effects("Marketplace")) == Prices(left_manufactured=1, right_manufactured=1)
    assert prices_for(effects("East Trading Post", "West Trading Post", "Marketplace", "Altar")) == Prices(1, 1, 1, 1)
    assert Prices(right_raw=1).price("right", "ore") == 1
    assert Prices(right_raw=1).price("left", "ore") == 2
    assert Prices(right_raw=1).price("right", "glass") == 2
    with pytest.raises(ValueError):
        Prices().price("up", "ore")


def test_discount_on_one_side_only_R_PRICE():
    east = prices_for(effects("East Trading Post"))
    assert cheapest({"ore": 1}, [], [O], [O], east, 5) == (Purchase(right=("ore",), right_coins=1),)
    west = prices_for(effects("West Trading Post"))
    assert cheapest({"ore": 1}, [], [O], [O], west, 5) == (Purchase(left=("ore",), left_coins=1),)
    # a raw discount does nothing for glass: both sides cost 2, a tie
    assert len(cheapest({"glass": 1}, [], [G], [G], west, 5)) == 2


def test_marketplace_discounts_manufactured_from_both_R_PRICE():
    market = prices_for(effects("Marketplace"))
    got = cheapest({"glass": 1, "wood": 1}, [], [G, W], [G], market, 5)
    assert got == (
        Purchase(left=("wood",), right=("glass",), left_coins=2, right_coins=1),
        Purchase(left=("wood", "glass"), left_coins=3),
    )


# --- R-TRADE-MINIMAL: minimal purchases, ties, the default ----------------------------------------------------


def test_superfluous_unit_is_rejected_R_TRADE_MINIMAL():
    cost = {"wood": 1, "clay": 1}
    # own either/or covers one of the two; buying both is not minimal
    assert check_purchase(cost, [("wood", "clay")], [W], [C], P, 5, ["wood"], ["clay"]) == (
        "buying wood from left is not needed [R-TRADE-MINIMAL]"
    )
    assert check_purchase(cost, [W], [W], [S, C], P, 5, [], ["stone", "clay"]) == (
        "buying stone from right is not needed [R-TRADE-MINIMAL]"
    )
    assert check_purchase({"wood": 1}, [W], [W], [], P, 5, ["wood"], []) == (
        "buying wood from left is not needed [R-TRADE-MINIMAL]"
    )


def test_stated_purchase_need_not_be_cheapest_R_TRADE_MINIMAL():
    east = Prices(right_raw=1)
    assert check_purchase({"ore": 1}, [], [O], [O], east, 5, ["ore"], []) == Purchase(left=("ore",), left_coins=2)
    assert minimal_purchases({"ore": 1}, [], [O], [O], east) == (
        Purchase(right=("ore",), right_coins=1),
        Purchase(left=("ore",), left_coins=2),
    )


def test_stated_purchase_must_cover_cost_R_PRODUCE():
    assert check_purchase({"wood": 1, "glass": 1}, [], [W], [G], P, 5, ["wood"], []) == (
        "own production and the purchase leave glass unpaid [R-PRODUCE]"
    )


def test_ties_are_listed_in_canonical_order_R_TRADE_MINIMAL():
    """Fewer coins; then fewer coins to the left; then left units, then right units, in RESOURCES order."""
    cost = {"clay": 1, "glass": 1}
    got = cheapest(cost, [], [C, G], [G, C], P, 10)
    assert got == (
        Purchase(right=("clay", "glass"), right_coins=4),
        Purchase(left=("clay",), right=("glass",), left_coins=2, right_coins=2),
        Purchase(left=("glass",), right=("clay",), left_coins=2, right_coins=2),
        Purchase(left=("clay", "glass"), left_coins=4),
    )
    # an own either/or (wood/clay): buy wood or clay from the left, same coins: wood comes first
    got = cheapest({"wood": 1, "clay": 1}, [("wood", "clay")], [W, C], [], P, 10)
    assert [str(p) for p in got] == ["left wood", "left clay"]


def test_cheapest_prefers_fewer_coins_R_TRADE_MINIMAL():
    got = cheapest({"wood": 1, "glass": 1}, [("wood", "glass")], [W], [G], Prices(left_raw=1), 10)
    assert got == (Purchase(left=("wood",), left_coins=1),)


# --- R-COST-COINS / R-COINS-TURNSTART ------------------------------------------------------------------------


def test_one_coin_short_is_unaffordable_R_COST_COINS():
    cost = {"stone": 2, "glass": 1}
    left, right = [S, S], [G]
    assert cheapest(cost, [], left, right, P, 6) == (
        Purchase(left=("stone", "stone"), right=("glass",), left_coins=4, right_coins=2),
    )
    assert cheapest(cost, [], left, right, P, 5) == ()
    assert check_purchase(cost, [], left, right, P, 5, ["stone", "stone"], ["glass"]) == (
        "costs 6 coins, has 5 [R-COST-COINS]"
    )


def test_negative_budget_means_the_coin_cost_is_unaffordable_R_COINS_TURNSTART():
    """budget = coins at turn start − the card's coin cost; below zero even a free payment fails."""
    assert cheapest({"wood": 1}, [W], [], [], P, -1) == ()
    assert cheapest({"wood": 1}, [W], [], [], P, 0) == (Purchase(),)
    assert check_purchase({"wood": 1}, [W], [], [], P, -1, [], []) == (
        "the coin cost alone is more than the coins held [R-COST-COINS]"
    )


# --- explanations --------------------------------------------------------------------------------------------


def test_explain_unaffordable_nobody_sells_R_TRADE():
    text = explain_unaffordable({"wood": 1, "clay": 1, "glass": 1}, [W], [C], [O], P, 10)
    assert text == "needs wood+clay+glass, has wood; left sells clay for 2, nobody sells glass [R-TRADE]"


def test_explain_unaffordable_too_few_units_R_TRADE():
    text = explain_unaffordable({"ore": 3}, [], [O], [O], Prices(right_raw=1), 10)
    assert text == (
        "needs ore+ore+ore, has nothing; left sells ore for 2 (at most 1), right sells ore for 1 (at most 1) [R-TRADE]"
    )


def test_explain_unaffordable_either_or_not_at_once_R_TRADE():
    text = explain_unaffordable({"wood": 1, "clay": 1}, [], [("wood", "clay")], [], P, 10)
    assert text == (
        "needs wood+clay, has nothing; left sells wood for 2, left sells clay for 2, "
        "not all at once (each unit is sold once per payment) [R-TRADE]"
    )


def test_explain_unaffordable_too_dear_R_COST_COINS():
    text = explain_unaffordable({"stone": 2}, [S], [S], [], P, 1)
    assert text == "needs stone+stone, has stone; the cheapest purchase (left stone) costs 2 coins, has 1 [R-COST-COINS]"


def test_explain_when_affordable():
    assert explain_unaffordable({"wood": 1}, [W], [], [], P, 0) == "own production covers the cost"
    assert explain_unaffordable({"wood": 1}, [], [W], [], P, 2) == "affordable: left wood for 2 coins"


# --- values and refusals -------------------------------------------------------------------------------------


def test_purchase_value():
    p = Purchase(left=("clay",), right=("wood", "glass"), left_coins=2, right_coins=4)
    assert str(p) == "left clay; right wood+glass"
    assert str(Purchase()) == "nothing"
    assert p.coins == 6 and p.units == 3
    assert eval(repr(p)) == p
    assert hash(p) == hash(Purchase(left=("clay",), right=("wood", "glass"), left_coins=2, right_coins=4))


def test_refusals():
    with pytest.raises(ValueError):
        cheapest({"gold": 1}, [], [], [], P, 5)
    with pytest.raises(ValueError):
        cheapest({"wood": -1}, [], [], [], P, 5)
    with pytest.raises(ValueError):
        cheapest({"wood": 1}, [()], [], [], P, 5)
    with pytest.raises(ValueError):
        cheapest({"wood": 1}, [("timber",)], [], [], P, 5)
    with pytest.raises(ValueError):
        Prices(left_raw=-1)


def test_source_order_does_not_matter():
    a = cheapest({"wood": 1, "clay": 2}, [("clay", "wood")], [C, W], [("wood", "clay"), C], P, 10)
    b = cheapest({"clay": 2, "wood": 1}, [["wood", "clay"]], [W, C], [C, ("clay", "wood")], P, 10)
    assert a == b


def test_palace_with_many_sources_buys_four_units():
    """How long the solver takes here is measured in benchmarks/bench_timings.py, not asserted."""
    palace = {r: 1 for r in RESOURCES}
    own = [("wood", "stone"), ("clay", "ore"), G]
    left = [("wood", "clay"), ("stone", "ore"), PA, L, O]
    right = [("glass", "papyrus", "loom"), W, S, C, L, PA]
    got = minimal_purchases(palace, own, left, right, Prices(1, 2, 2, 1))
    assert got and all(p.units == 4 for p in got)


# --- property: agree with a brute-force reference ------------------------------------------------------------

POOL = ("wood", "clay", "glass", "loom")
source_st = st.lists(st.sampled_from(POOL), min_size=1, max_size=3, unique=True).map(tuple)
sources_st = st.lists(source_st, max_size=3)
neighbour_st = st.lists(source_st, max_size=4)
cost_st = st.dictionaries(st.sampled_from(POOL), st.integers(1, 2), max_size=3)
prices_st = st.builds(Prices, st.integers(1, 2), st.integers(1, 2), st.integers(1, 2), st.integers(1, 2))


def _outputs(sources):
    """Every multiset (sorted tuple) a list of unit-sources can give in one payment, each source once or not."""
    found = set()
    for pick in itertools.product(*[(None,) + tuple(s) for s in sources]):
        found.add(tuple(sorted((r for r in pick if r), key=RESOURCES.index)))
    return found


def reference_minimal(cost, own, left, right, prices):
    need = Counter(cost)
    own_out = [Counter(o) for o in _outputs(own)]

    def covers(bought):
        return any(not (need - Counter(bought) - o) for o in own_out)

    def minimal(l, r):
        units = list(l) + list(r)
        return covers(units) and not any(covers(units[:i] + units[i + 1:]) for i in range(len(units)))

    out = []
    for l in _outputs(left):
        for r in _outputs(right):
            if minimal(l, r):
                lc = sum(prices.price("left", x) for x in l)
                rc = sum(prices.price("right", x) for x in r)
                out.append(Purchase(l, r, lc, rc))
    # the documented canonical order, restated independently
    out.sort(key=lambda p: (p.coins, p.left_coins, [RESOURCES.index(x) for x in p.left],
                            [RESOURCES.index(x) for x in p.right]))
    return tuple(out)


@settings(max_examples=300, deadline=None)
@given(cost_st, sources_st, neighbour_st, neighbour_st, prices_st, st.integers(0, 10))
def test_solver_agrees_with_brute_force_R_TRADE_MINIMAL(cost, own, left, right, prices, budget):
    expected = reference_minimal(cost, own, left, right, prices)
    assert minimal_purchases(cost, own, left, right, prices) == expected
    best = [p for p in expected if p.coins == expected[0].coins] if expected else []
    want = tuple(best) if best and best[0].coins <= budget else ()
    assert cheapest(cost, own, left, right, prices, budget) == want
    # every minimal purchase buys the same number of units (what own production cannot cover)
    assert len({p.units for p in expected}) <= 1
    # each minimal purchase passes the checker, priced the same
    for p in expected:
        assert check_purchase(cost, own, left, right, prices, 99, p.left, p.right) == p


stated_st = st.lists(st.sampled_from(POOL), max_size=3).map(lambda u: tuple(sorted(u, key=RESOURCES.index)))


@settings(max_examples=300, deadline=None)
@given(cost_st, sources_st, neighbour_st, neighbour_st, prices_st, st.integers(0, 8), stated_st, stated_st)
def test_checker_accepts_exactly_the_affordable_minimal_purchases_R_TRADE_MINIMAL(
    cost, own, left, right, prices, budget, stated_left, stated_right
):
    legal = {(p.left, p.right): p for p in reference_minimal(cost, own, left, right, prices) if p.coins <= budget}
    got = check_purchase(cost, own, left, right, prices, budget, stated_left, stated_right)
    if (stated_left, stated_right) in legal:
        assert got == legal[stated_left, stated_right]
    else:
        assert isinstance(got, str) and got.endswith("]"), got
        rule = got[got.rindex("[") + 1:-1]
        assert rule in {"R-TRADE", "R-PRODUCE", "R-TRADE-MINIMAL", "R-COST-COINS"}
        if rule == "R-TRADE":  # the neighbour really cannot sell those units at once
            side, units, sources = (("left", stated_left, left) if got.startswith("left") else
                                    ("right", stated_right, right))
            assert units not in _outputs(sources)


def test_cost_as_catalogue_pairs():
    temple = catalog.card("Temple").cost.resources
    assert cheapest(temple, [W, C], [G], [], P, 2) == cheapest({"wood": 1, "clay": 1, "glass": 1}, [W, C], [G], [], P, 2)
    assert cheapest(temple, [W, C], [G], [], P, 2) == (Purchase(left=("glass",), left_coins=2),)
