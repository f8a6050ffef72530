"""Rules of a turn (R-TURN, R-UNIQUE, R-STAGE, R-SELL, R-PASS, R-LAST, R-RESOLVE and friends), legal and illegal."""

from wnotation.engine import events as ev
from wnotation.engine.position import card, position
from wnotation.engine.rules import Play, step_turn

TABLE = [("Gizah", "day"), ("Rhodos", "day"), ("Ephesos", "day")]  # stone, ore, papyrus


def P(seat, use, name=None, age=1, buy=None, discard=None, pick=()):
    c = None if name in (None, "?") else card(name, age)
    d = () if discard is None else ((None if discard == "?" else card(discard, age)),)
    return Play(seat, use, c, buy, d, pick)


def hands(*names, n=3):
    return [list(names)] * n


def rules_of(findings):
    return [f.rule for f in findings]


def test_R_SEAT__left_is_next_seat_right_is_previous():
    s = position(TABLE)
    assert (s.left(1), s.right(1)) == (2, 3)
    assert (s.left(3), s.right(3)) == (1, 2)


def test_R_START__three_coins_each():
    s = position(TABLE)
    assert [c.coins for c in s.cities] == [3, 3, 3]


def test_R_TURN__each_seat_uses_one_card_one_way():
    s = position(TABLE, cities=[{}, {"buildings": ["Lumber Yard", "Timber Yard"]}],
                 hands=hands("Altar", "Stockade", "Theater", "Loom", "Press", "Baths", "Tavern"))
    events, findings, after = step_turn(s, [P(1, "build", "Altar"), P(2, "stage", "?"), P(3, "sell", "Loom")])
    assert findings == ()
    assert any(isinstance(e, ev.CardBuilt) for e in events)
    assert [len(h) for h in after.hands] == [6, 6, 6]


def test_R_TURN__missing_and_doubled_actions_are_reported():
    s = position(TABLE, hands=hands("Altar", "Stockade", "Theater", "Loom", "Press", "Baths", "Tavern"))
    _, findings, after = step_turn(s, [P(1, "build", "Altar"), P(1, "sell", "Loom"), P(2, "sell", "Loom")])
    assert rules_of(findings) == ["R-TURN", "R-TURN"]
    assert "plays twice" in findings[0].message and "no action" in findings[1].message
    assert [len(h) for h in after.hands] == [6, 6, 6]  # the missing card is discarded, no cascade
    assert after.cities[2].coins == 3


def test_R_UNIQUE__second_building_of_a_name_is_illegal():
    s = position(TABLE, cities=[{"buildings": ["Altar"]}], hands=hands("Altar", "Loom", "Press", "Baths", "Tavern",
                                                                       "Well", "Theater"))
    _, findings, after = step_turn(s, [P(1, "build", "Altar"), P(2, "build", "Altar"), P(3, "sell", "Loom")])
    assert rules_of(findings) == ["R-UNIQUE"]
    assert findings[0].seat == 1 and str(findings[0]).startswith("I.1 Seat1 cannot build Altar")
    assert [b.name for b in after.cities[0].buildings] == ["Altar"]
    assert after.discard[-2].name == "Altar"  # applied as a discard without reward
    assert after.cities[0].coins == 3


def test_R_UNIQUE__same_name_from_another_age_is_a_duplicate():
    s = position(TABLE, age=2, cities=[{"buildings": ["I:Glassworks"]}],
                 hands=hands("Glassworks", "Loom", "Press", "Baths", "Tavern", "Well", "Theater"))
    _, findings, _ = step_turn(s, [P(1, "build", "Glassworks", age=2), P(2, "sell", "Loom", 2),
                                   P(3, "sell", "Loom", 2)])
    assert rules_of(findings) == ["R-UNIQUE"]


def test_R_STAGE__left_to_right_and_not_beyond_the_last():
    s = position(TABLE, cities=[{"buildings": ["Lumber Yard", "Timber Yard"]}, {"stages": 3}],
                 hands=hands("Altar", "Loom", "Press", "Baths", "Tavern", "Well", "Theater"))
    events, findings, after = step_turn(s, [P(1, "stage", "Altar"), P(2, "stage", "Altar"), P(3, "sell", "Loom")])
    assert rules_of(findings) == ["R-STAGE"]
    assert ev.StageBuilt(1, 1, card("Altar", 1)) in events
    assert after.cities[0].stages == 1 and after.cities[1].stages == 3
    # a staged card is not a Building and not in the pile
    assert after.cities[0].buildings == s.cities[0].buildings
    assert card("Altar", 1) in after.cities[0].staged


def test_R_SELL__always_legal_for_three_coins():
    s = position(TABLE, cities=[{"coins": 0}], hands=hands("Altar", "Loom", "Press", "Baths", "Tavern", "Well",
                                                           "Theater"))
    events, findings, after = step_turn(s, [P(1, "sell", "Altar"), P(2, "sell", "?"), P(3, "sell", "Loom")])
    assert findings == ()
    assert [c.coins for c in after.cities] == [3, 6, 6]
    assert ev.CoinsGained(1, 3, "sale") in events
    assert after.discard == (card("Altar", 1), None, card("Loom", 1))


def test_R_PASS__left_in_age_one_right_in_age_two():
    names = ["Altar", "Loom", "Press", "Baths", "Tavern", "Well", "Theater"]
    one = position(TABLE, hands=[names, ["Stockade"] * 7, ["Barracks"] * 7])
    _, _, after = step_turn(one, [P(1, "sell", "Altar"), P(2, "sell", "Stockade"), P(3, "sell", "Barracks")])
    assert after.hands[1][0].name == "Loom"  # seat 1's hand went to its left neighbour, seat 2
    two = position(TABLE, age=2, hands=[["Temple"] * 7, ["Statue"] * 7, ["Walls"] * 7])
    _, _, after = step_turn(two, [P(1, "sell", "Temple", 2), P(2, "sell", "Statue", 2), P(3, "sell", "Walls", 2)])
    assert after.hands[0][0].name == "Statue"  # seat 2's hand went right, to seat 1
    assert after.hands[2][0].name == "Temple"


def test_R_PASS__a_card_from_another_seats_hand_is_reported():
    s = position(TABLE, hands=[["Altar", "Loom"] + ["Well"] * 5, ["Stockade"] * 7, ["Barracks"] * 7])
    _, findings, _ = step_turn(s, [P(1, "sell", "Altar"), P(2, "sell", "Altar"), P(3, "sell", "Barracks")])
    assert rules_of(findings) == ["R-PASS"]
    assert findings[0].seat == 2


def test_R_LAST__turn_six_discards_the_other_card_without_reward():
    s = position(TABLE, turn=5, hands=[["Altar", "Loom"], ["Stockade", "Well"], ["Barracks", "Press"]])
    events, findings, after = step_turn(s, [P(1, "sell", "Altar", discard="Loom"), P(2, "sell", "Well", discard="?"),
                                            P(3, "sell", "Press", discard="Barracks")])
    assert findings == ()
    assert [c.coins for c in after.cities] == [6, 6, 6]
    assert ev.CardDiscarded(2, card("Stockade", 1)) in events  # the unseen discard is known from the hand
    assert after.hands == ((), (), ()) and len(after.discard) == 6
    assert not any(isinstance(e, ev.HandsPassed) for e in events)


def test_R_LAST__a_missing_or_wrong_discard_is_reported():
    s = position(TABLE, turn=5, hands=[["Altar", "Loom"], ["Stockade", "Well"], ["Barracks", "Press"]])
    _, findings, after = step_turn(s, [P(1, "sell", "Altar"), P(2, "sell", "Well", discard="Altar"),
                                       P(3, "sell", "Press", discard="Barracks")])
    assert rules_of(findings) == ["R-LAST", "R-LAST"]
    assert after.hands == ((), (), ())


def test_R_RESOLVE__placements_first_then_incomes():
    s = position(TABLE, hands=hands("Tavern", "Loom", "Press", "Baths", "Altar", "Well", "Theater"))
    events, _, _ = step_turn(s, [P(1, "build", "Tavern"), P(2, "sell", "Loom"), P(3, "build", "Loom")])
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("CoinsGained") > max(i for i, k in enumerate(kinds) if k in ("CardBuilt", "CardSold"))


def test_R_RESOLVE__a_neighbours_same_turn_building_cannot_be_bought_from():
    # Seat 2 builds a Lumber Yard while seat 1 needs wood for a Stockade: not for sale this turn.
    s = position(TABLE, hands=hands("Stockade", "Lumber Yard", "Press", "Baths", "Altar", "Well", "Theater"))
    _, findings, _ = step_turn(s, [P(1, "build", "Stockade"), P(2, "build", "Lumber Yard"), P(3, "sell", "Press")])
    assert rules_of(findings) == ["R-TRADE"]
    assert "nobody sells wood" in findings[0].message
    s2 = position(TABLE, cities=[{}, {"buildings": ["Lumber Yard"]}],
                  hands=hands("Stockade", "Lumber Yard", "Press", "Baths", "Altar", "Well", "Theater"))
    _, findings, after = step_turn(s2, [P(1, "build", "Stockade"), P(2, "sell", "Press"), P(3, "sell", "Press")])
    assert findings == () and after.cities[1].coins == 3 + 3 + 2


def test_R_COINS_TURNSTART__coins_received_this_turn_cannot_be_spent():
    # Seat 1 holds 1 coin; seat 2 buys its stone (2 coins) while seat 1 needs to buy ore for 2: illegal.
    s = position(TABLE, cities=[{"coins": 1}, {}], hands=hands("Barracks", "Baths", "Press", "Loom", "Altar",
                                                               "Well", "Theater"))
    _, findings, after = step_turn(s, [P(1, "build", "Barracks"), P(2, "build", "Baths"), P(3, "sell", "Press")])
    assert rules_of(findings) == ["R-COST-COINS"]
    assert findings[0].seat == 1
    assert after.cities[0].coins == 1 + 2  # income arrives anyway


def test_R_COUNT_SAMETURN__counts_same_turn_neighbour_buildings_and_itself():
    table = [("Gizah", "day"), ("Rhodos", "day"), ("Ephesos", "day")]
    s = position(table, age=2, cities=[{"buildings": ["Clay Pool"]}],
                 hands=hands("Vineyard", "Sawmill", "Lighthouse", "Loom", "Press", "Baths", "Altar"))
    events, findings, after = step_turn(s, [P(1, "build", "Vineyard", 2), P(2, "build", "Sawmill", 2),
                                            P(3, "sell", "Loom", 2)])
    assert findings == ()
    # Clay Pool (own) + Sawmill (left neighbour, built this same turn) = 2 brown cards.
    assert ev.CoinsGained(1, 2, "card") in events
    three = position(table, age=3, cities=[{"buildings": ["Tavern", "Caravansery"], "coins": 5}],
                     hands=[["Lighthouse"] * 7, ["Palace"] * 7, ["Palace"] * 7])
    events, findings, _ = step_turn(three, [P(1, "build", "Lighthouse", 3), P(2, "sell", "Palace", 3),
                                            P(3, "sell", "Palace", 3)])
    assert findings == ()
    assert ev.CardBuilt(1, card("Lighthouse", 3), "chain") in events
    assert ev.CoinsGained(1, 3, "card") in events  # Tavern, Caravansery and the Lighthouse itself


def test_R_TURN__a_missing_turn_six_action_is_one_finding():
    s = position(TABLE, turn=5, hands=[["Altar", "Loom"], ["Stockade", "Well"], ["Barracks", "Press"]])
    _, findings, after = step_turn(s, [P(1, "sell", "Altar", discard="Loom"), P(2, "sell", "Well", discard="?")])
    assert rules_of(findings) == ["R-TURN"] and after.hands == ((), (), ())


def test_R_TURN__plays_in_any_order_or_from_a_generator_resolve_alike():
    """step_turn's usual path (one play per seat, in seat order) and its general path give the same turn."""
    s = position(TABLE, cities=[{}, {"buildings": ["Lumber Yard", "Timber Yard"]}],
                 hands=hands("Altar", "Stockade", "Theater", "Loom", "Press", "Baths", "Tavern"))
    plays = [P(1, "build", "Altar"), P(2, "stage", "?"), P(3, "sell", "Loom")]
    usual = step_turn(s, plays)
    assert usual[1] == ()
    assert step_turn(s, plays[::-1]) == usual
    assert step_turn(s, iter(plays)) == usual
    assert step_turn(s, tuple(plays)) == usual
