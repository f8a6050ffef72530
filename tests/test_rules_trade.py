"""Paying for cards and stages through the engine: production, trade, prices, minimal purchases, coins, chains."""

from wnotation.engine import events as ev
from wnotation.engine.position import card, position
from wnotation.engine.rules import Play, step_turn

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


def test_R_CHAIN__paying_normally_is_still_allowed():
    s = position(TABLE, age=2, cities=[{"buildings": ["Baths", "Quarry"]}], hands=same("Aqueduct"))
    events, findings, _ = step_turn(s, [P(1, "build", "Aqueduct", 2, buy=((), ())), P(2, "sell", "Altar"),
                                        P(3, "sell", "Altar")])
    assert findings == () and ev.CardBuilt(1, card("Aqueduct", 2), "chain") in events
    events, findings, _ = step_turn(s, [P(1, "build", "Aqueduct", 2, buy=(("ore",), ())), P(2, "sell", "Altar"),
                                        P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE-MINIMAL"]  # paying normally: the ore bought is not needed


def test_R_PRODUCE__reduced_solver_questions_give_the_same_answers():
    from itertools import product

    from wnotation.engine.rules import cheapest_options
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

    from wnotation.engine import rules
    from wnotation.engine.trade import Prices, cheapest

    costs = [{"wood": 1}, {"wood": 2}, {"ore": 2, "glass": 1}, {"stone": 3}, {"clay": 2, "papyrus": 1, "wood": 1}]
    supplies = [(), ("wood",), ("wood", "wood"), ("ore", "glass"), ("stone", "stone", "clay", "papyrus"),
                ("wood", "ore", "ore", "stone", "clay", "glass")]
    discounts = (Prices(), Prices(left_raw=1), Prices(right_raw=1, right_manufactured=1))
    for cost, (lefts, rights), prices in product(costs, product(supplies, repeat=2), discounts):
        left, right = tuple((r,) for r in lefts), tuple((r,) for r in rights)
        rules.clear_caches()
        for budget in (0, 3, 99):
            assert rules.cheapest_options(cost, (), left, right, prices, budget) == \
                cheapest(cost, (), left, right, prices, budget), (cost, left, right, prices, budget)


def test_R_TRADE__stated_purchases_priced_as_check_purchase_prices_them():
    """payment() answers a stated purchase found among the cheapest from the memoised answer: the same Purchase
    (or reason) as trade.check_purchase gives, for cheapest, dearer, illegal and unaffordable statements."""
    from itertools import product

    from wnotation.engine import rules
    from wnotation.engine.trade import Prices, check_purchase, minimal_purchases

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
                rules.clear_caches()
                assert rules.payment(s, 1, cost, coin_cost, (sl, sr)) == check_purchase(
                    cost, own, left, right, prices, 4 - coin_cost, sl, sr), (own, left, right, cost, sl, sr)
