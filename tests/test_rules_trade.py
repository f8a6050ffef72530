"""Paying for cards and stages through the engine: production, trade, prices, minimal purchases, coins, chains."""

import pytest

from wnotation.engine import events as ev
from wnotation.engine.position import card, position
from wnotation.engine import memo
from wnotation.engine.payment import Payment, cheapest_options, pay
from wnotation.engine.rules import Play, step_turn
from wnotation.engine.state import Game, info

TABLE = [("Gizah", "day"), ("Rhodos", "day"), ("Ephesos", "day")]  # stone, ore, papyrus
FILL = ["Altar", "Well", "Theater", "Baths", "Tavern", "Guard Tower"]


def P(seat, use, name=None, age=1, buy=None):
    return Play(seat, use, None if name in (None, "?") else card(name, age), buy)


def same(name, *extra):
    return [[name, *extra, *FILL][:7]] * 3


def rules_of(findings):
    return [f.rule for f in findings]


def paid(events):
    return [e for e in events if isinstance(e, ev.CoinsPaid)]


def test_R_PRODUCE__either_or_and_double_cards():
    # Seat 1 (stone) with Timber Yard (wood/stone) builds Temple? needs wood+clay+glass: not enough.
    s = position(TABLE, age=2, cities=[{"buildings": ["Timber Yard", "Clay Pool", "I:Glassworks"]}],
                 hands=same("Temple"))
    events, findings, _ = step_turn(s, [P(1, "build", "Temple", 2), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert findings == () and paid(events) == []  # Timber Yard gives the wood
    s = position(TABLE, age=2, cities=[{"buildings": ["Sawmill"]}], hands=same("Archery Range"))
    # Archery Range: 2 wood + ore. Sawmill gives both wood; ore is bought from Rhodos (left).
    events, findings, _ = step_turn(s, [P(1, "build", "Archery Range", 2), P(2, "sell", "Altar"),
                                        P(3, "sell", "Altar")])
    assert findings == () and paid(events) == [ev.CoinsPaid(1, 2, 2)]


def test_R_PRODUCE__yellow_and_stage_production_serve_the_owner():
    s = position(TABLE, age=2, cities=[{"buildings": ["Caravansery"]}], hands=same("Stockade"))
    _, findings, _ = step_turn(s, [P(1, "build", "Stockade"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert findings == ()
    # a card that needs what nobody has: one clear message
    s = position(TABLE, hands=same("Apothecary"))
    _, findings, _ = step_turn(s, [P(1, "build", "Apothecary"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]
    assert str(findings[0]) == ("I.1 Seat1 cannot build Apothecary: needs loom, has nothing; "
                                "nobody sells loom [R-TRADE]")


def test_R_TRADE__only_neighbours_brown_grey_and_starting_resource_are_for_sale():
    # Seat 2 owns a Forum (yellow): its glass is not for sale to seat 1.
    s = position(TABLE, cities=[{}, {"buildings": ["Forum"]}], hands=same("Workshop"))
    _, findings, _ = step_turn(s, [P(1, "build", "Workshop"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]
    # the same glass from a Glassworks (grey) is
    s = position(TABLE, cities=[{}, {"buildings": ["Glassworks"]}], hands=same("Workshop"))
    events, findings, _ = step_turn(s, [P(1, "build", "Workshop"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert findings == () and paid(events) == [ev.CoinsPaid(1, 2, 2)]


def test_R_TRADE__not_from_a_seat_that_is_not_a_neighbour():
    table = TABLE + [("Babylon", "day")]
    s = position(table, cities=[{}, {}, {"buildings": ["Glassworks"]}], hands=[["Workshop", *FILL]] * 4)
    _, findings, _ = step_turn(s, [P(1, "build", "Workshop"), P(2, "sell", "Altar"), P(3, "sell", "Altar"),
                                   P(4, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]


def test_R_TRADE__a_stated_purchase_is_checked():
    s = position(TABLE, hands=same("Baths"))
    _, findings, _ = step_turn(s, [P(1, "sell", "Altar"), P(2, "build", "Baths", buy=(("stone",), ())),
                                   P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]  # left of seat 2 is seat 3 (papyrus): no stone
    events, findings, _ = step_turn(s, [P(1, "sell", "Altar"), P(2, "build", "Baths", buy=((), ("stone",))),
                                        P(3, "sell", "Altar")])
    assert findings == () and paid(events) == [ev.CoinsPaid(2, 1, 2)]


def test_R_PRICE__trading_posts_and_marketplace():
    s = position(TABLE, cities=[{"buildings": ["East Trading Post"]}, {}, {"buildings": ["Marketplace"]}],
                 hands=same("Barracks", "Scriptorium"))
    # Seat 1: ore from the left (Rhodos) costs 2 — East Trading Post only lowers the right neighbour.
    events, findings, _ = step_turn(s, [P(1, "build", "Barracks"), P(2, "sell", "Altar"),
                                        P(3, "sell", "Altar")])
    assert findings == () and paid(events) == [ev.CoinsPaid(1, 2, 2)]
    s = position(TABLE, cities=[{"buildings": ["West Trading Post"]}, {}, {"buildings": ["Marketplace"]}],
                 hands=same("Barracks", "Scriptorium"))
    events, findings, _ = step_turn(s, [P(1, "build", "Barracks"), P(2, "sell", "Altar"),
                                        P(3, "sell", "Altar")])
    assert findings == () and paid(events) == [ev.CoinsPaid(1, 2, 1)]
    # Marketplace: papyrus from either neighbour at 1. Seat 2 (Rhodos) buys papyrus from Ephesos (its left).
    s = position(TABLE, cities=[{}, {"buildings": ["Marketplace"]}], hands=same("Scriptorium"))
    events, findings, _ = step_turn(s, [P(1, "sell", "Altar"), P(2, "build", "Scriptorium"), P(3, "sell", "Altar")])
    assert findings == () and paid(events) == [ev.CoinsPaid(2, 3, 1)]


def test_R_TRADE_MINIMAL__unneeded_units_are_refused_and_the_default_is_cheapest():
    s = position(TABLE, cities=[{"buildings": ["Lumber Yard"]}], hands=same("Stockade"))
    _, findings, _ = step_turn(s, [P(1, "build", "Stockade", buy=(("ore",), ())), P(2, "sell", "Altar"),
                                   P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE-MINIMAL"]
    # Seat 2 (Rhodos) needs stone: both neighbours sell it for 2; the canonical tie-break pays the right one.
    s = position(TABLE, cities=[{}, {}, {"buildings": ["Stone Pit"]}], hands=same("Baths"))
    events, findings, _ = step_turn(s, [P(1, "sell", "Altar"), P(2, "build", "Baths"), P(3, "sell", "Altar")])
    assert findings == () and paid(events) == [ev.CoinsPaid(2, 1, 2)]


def test_R_COST_COINS__coin_cost_and_trade_together_within_turn_start_coins():
    s = position(TABLE, cities=[{"coins": 0}], hands=same("Timber Yard"))
    _, findings, _ = step_turn(s, [P(1, "build", "Timber Yard"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-COST-COINS"]
    assert "costs 1 coin, has 0" in findings[0].message
    # Sawmill (1 coin) is fine with 1 coin; one coin short of a trade is not.
    s = position(TABLE, age=2, cities=[{"coins": 2}], hands=same("Sawmill", "Statue"))
    events, findings, after = step_turn(s, [P(1, "build", "Sawmill", 2), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert findings == () and ev.CoinsPaid(1, None, 1) in events and after.cities[0].coins == 1
    s = position(TABLE, cities=[{"coins": 1}], hands=same("Barracks"))
    _, findings, _ = step_turn(s, [P(1, "build", "Barracks"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-COST-COINS"]


def test_R_CHAIN__free_from_an_earlier_building_never_for_stages_or_duplicates():
    s = position(TABLE, age=2, cities=[{"buildings": ["Baths"], "coins": 0}], hands=same("Aqueduct"))
    events, findings, _ = step_turn(s, [P(1, "build", "Aqueduct", 2), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert findings == () and ev.CardBuilt(1, card("Aqueduct", 2), "chain") in events
    # without the chain source, Aqueduct needs 3 stone: Gizah has 1, buying 2 more is too dear with 0 coins
    s = position(TABLE, age=2, cities=[{"coins": 0}], hands=same("Aqueduct"))
    _, findings, _ = step_turn(s, [P(1, "build", "Aqueduct", 2), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]
    # a chain does not pay a stage
    s = position(TABLE, age=2, cities=[{"buildings": ["Baths"], "coins": 0}], hands=same("Aqueduct"))
    _, findings, _ = step_turn(s, [P(1, "stage", "Aqueduct", 2), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]
    # a chain does not lift R-UNIQUE
    s = position(TABLE, age=2, cities=[{"buildings": ["Baths", "Aqueduct"]}], hands=same("Aqueduct"))
    _, findings, _ = step_turn(s, [P(1, "build", "Aqueduct", 2), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-UNIQUE"]


# A free build of each kind, with a neighbour selling what the card costs: (position, the card, a purchase that
# would be legal and minimal if the build were paid, its price).
FREE_BUILDS = {
    "R-CHAIN": (lambda: position(TABLE, age=2, cities=[{"buildings": ["Baths"], "coins": 4}, {"buildings": ["Quarry"]}],
                                 hands=same("Aqueduct")), ("Aqueduct", 2), ("stone", "stone"), 4),
    "R-OLYMPIA-D2": (lambda: position([("Olympia", "day"), ("Rhodos", "day"), ("Ephesos", "day")],
                                      cities=[{"stages": 2}, {"buildings": ["Lumber Yard"]}], hands=same("Stockade")),
                     ("Stockade", 1), ("wood",), 2),
    "R-OLYMPIA-N1": (lambda: position([("Olympia", "night"), ("Gizah", "day"), ("Rhodos", "day")], age=2,
                                      cities=[{"stages": 1, "stage_ages": (1,), "coins": 6},
                                              {"buildings": ["Quarry"]}], hands=same("Walls")),
                     ("Walls", 2), ("stone", "stone", "stone"), 6),
    "R-OLYMPIA-N2": (lambda: position([("Olympia", "night"), ("Rhodos", "day"), ("Ephesos", "day")], turn=5,
                                      cities=[{"stages": 2}, {"buildings": ["Lumber Yard"]}],
                                      hands=[["Stockade", "Altar"]] * 3), ("Stockade", 1), ("wood",), 2),
}


def _free_turn(rule: str, buy):
    state, (name, age), _, _ = FREE_BUILDS[rule][0](), *FREE_BUILDS[rule][1:]
    last = state.turn == 5
    discard = (card("Altar"),) if last else ()
    plays = [Play(1, "build", card(name, age), buy, discard)] + \
        [Play(k, "sell", card("Altar"), None, (card("Stockade", 1),) if last else ()) for k in (2, 3)]
    events, findings, after = step_turn(state, plays)
    return state, events, findings, after


@pytest.mark.parametrize("rule", list(FREE_BUILDS))
def test_R_FREE__a_purchase_stated_on_a_free_build_is_an_R_TRADE_MINIMAL_error_and_nothing_is_paid(rule):
    """R-FREE, R-TRADE-MINIMAL: a purchase on a chain or Olympia build is never needed; the build stays free (the
    stated purchase was paid silently before, with no finding)."""
    state, events, findings, after = _free_turn(rule, (FREE_BUILDS[rule][2], ()))
    assert rules_of(findings) == ["R-TRADE-MINIMAL"] and findings[0].seat == 1
    assert f"({rule})" in findings[0].message and "(R-FREE)" in findings[0].message
    assert [e for e in paid(events) if e.seat == 1] == []
    assert after.cities[0].coins == state.cities[0].coins and after.cities[1].coins == state.cities[1].coins + 3
    how = "chain" if rule == "R-CHAIN" else "power"
    assert ev.CardBuilt(1, card(*FREE_BUILDS[rule][1]), how) in events


@pytest.mark.parametrize("rule", list(FREE_BUILDS))
def test_R_FREE__nothing_bought_or_no_purchase_on_a_free_build_is_legal_and_free(rule):
    for buy in (None, ((), ())):
        state, events, findings, after = _free_turn(rule, buy)
        assert findings == () and [e for e in paid(events) if e.seat == 1] == []
        assert after.cities[0].coins == state.cities[0].coins


@pytest.mark.parametrize("rule", list(FREE_BUILDS))
def test_free_builds_fixture_purchases_are_legal_when_the_build_is_paid(rule):
    """The fixture's purchase pays the card when no power or chain applies, so the tests above see it ignored."""
    state = FREE_BUILDS[rule][0]()
    city = state.cities[0]._replace(names=frozenset(), powers=frozenset())
    state = state._replace(cities=(city,) + state.cities[1:])
    c = card(*FREE_BUILDS[rule][1])
    got = pay(Game(state), 1, info(c).cost, c.cost.coins, (FREE_BUILDS[rule][2], ()))
    assert isinstance(got, Payment) and got.coins == FREE_BUILDS[rule][3]


def test_R_PRODUCE__reduced_solver_questions_give_the_same_answers():
    from itertools import product

    from wnotation.engine.trade import Prices, cheapest

    sources = [("wood",), ("stone",), ("wood", "clay"), ("clay", "ore"), ("glass", "papyrus", "loom"),
               ("wood", "stone", "ore", "clay"), ("ore",), ("glass",)]
    costs = [{"wood": 2}, {"clay": 1, "ore": 1}, {"wood": 1, "clay": 1, "glass": 1}, {"stone": 3},
             {"ore": 2, "wood": 1}, {"papyrus": 1, "loom": 1}, {"clay": 2, "glass": 1, "wood": 1}]
    sides = [((("clay",), ("wood", "stone"), ("glass",)), (("ore",), ("clay", "ore"), ("papyrus",), ("wood",))),
             # repeated one-resource sources (kept only up to the units needed) and either/or sources on both sides
             ((("wood",), ("wood",), ("wood",), ("clay",), ("clay",), ("glass", "loom")),
              (("stone",), ("stone",), ("stone",), ("stone",), ("wood", "clay"), ("ore",), ("ore",), ("loom",)))]
    for left, right in sides:
        for prices in (Prices(), Prices(left_raw=1, right_manufactured=1)):
            for mask in product((0, 1), repeat=len(sources)):
                own = tuple(s for s, m in zip(sources, mask) if m)
                for cost in costs:
                    for budget in (0, 2, 9):
                        assert cheapest_options(cost, own, left, right, prices, budget) == \
                            cheapest(cost, own, left, right, prices, budget), (cost, own, budget)


def test_R_TRADE_MINIMAL__one_resource_neighbours_answered_without_the_solver_as_by_it():
    """The closed form for neighbours offering one-resource sources only gives the solver's every cheapest
    purchase, in its canonical order: ties (equal prices) list every split, discounts move units to a side."""
    from itertools import product

    from wnotation.engine.trade import Prices, cheapest

    costs = [{"wood": 1}, {"wood": 2}, {"ore": 2, "glass": 1}, {"stone": 3}, {"clay": 2, "papyrus": 1, "wood": 1}]
    supplies = [(), ("wood",), ("wood", "wood"), ("ore", "glass"), ("stone", "stone", "clay", "papyrus"),
                ("wood", "ore", "ore", "stone", "clay", "glass")]
    discounts = (Prices(), Prices(left_raw=1), Prices(right_raw=1, right_manufactured=1))
    for cost, (lefts, rights), prices in product(costs, product(supplies, repeat=2), discounts):
        left, right = tuple((r,) for r in lefts), tuple((r,) for r in rights)
        memo.clear_all()
        for budget in (0, 3, 99):
            assert cheapest_options(cost, (), left, right, prices, budget) == \
                cheapest(cost, (), left, right, prices, budget), (cost, left, right, prices, budget)


def test_R_TRADE__stated_purchases_priced_as_check_purchase_prices_them():
    """pay() answers a stated purchase found among the cheapest from the memoised answer: the same Purchase
    (or Refusal) as trade.stated_purchase gives, for cheapest, dearer, illegal and unaffordable statements."""
    from itertools import product

    from wnotation.engine.trade import Prices, minimal_purchases, stated_purchase

    s0 = position(TABLE)
    sources = [(("wood",), ("clay", "ore")), (("stone",), ("wood", "clay"), ("glass",)), ()]
    costs = [{"wood": 1}, {"wood": 2, "clay": 1}, {"ore": 1, "glass": 1}, {"stone": 2}]
    offers = [(("wood",), ("clay",), ("ore",), ("glass",)), (("wood", "stone"), ("clay", "ore"), ("stone",))]
    for own, left, right, cost, prices in product(sources, offers, offers, costs,
                                                  (Prices(), Prices(left_raw=1))):
        c1, c2, c3 = s0.cities
        s = s0._replace(cities=(c1._replace(own=own, prices=prices, coins=4), c2._replace(tradable=left),
                                c3._replace(tradable=right)))
        stated = {(p.left, p.right) for p in minimal_purchases(cost, own, left, right, prices)}
        stated |= {(tuple(reversed(sl)), tuple(reversed(sr))) for sl, sr in stated}  # units in any order
        stated |= {(("wood",), ()), ((), ("clay", "wood")), (("ore",), ("glass",)), (("stone", "stone"), ()),
                   (("wood", "gold"), ())}
        for coin_cost in (0, 1):
            for sl, sr in [*stated, (["wood"], []), (["clay", "wood"], ["ore"])]:
                memo.clear_all()
                got = pay(Game(s), 1, cost, coin_cost, (sl, sr))
                want = stated_purchase(cost, own, left, right, prices, 4 - coin_cost, sl, sr)
                if isinstance(got, Payment):
                    got = got.purchase if got.bank == coin_cost else got
                assert got == want, (own, left, right, cost, sl, sr)
