"""Wonder powers, read from effects: Olympia (R-OLYMPIA-*), Babylon Night (R-BABYLON-N1), Halikarnassos (R-HALI*)."""

from wnotation.engine import events as ev
from wnotation.engine.position import card, position
from wnotation.engine.rules import Play, seats_to_act, step_picks, step_turn

FILL = ["Altar", "Well", "Theater", "Baths", "Tavern", "Guard Tower"]


def P(seat, use, name=None, age=1, buy=None, discard=None):
    d = () if discard is None else ((None if discard == "?" else card(discard, age)),)
    return Play(seat, use, None if name in (None, "?") else card(name, age), buy, d)


def rules_of(findings):
    return [f.rule for f in findings]


def built(events):
    return [(e.card.name, e.how) for e in events if isinstance(e, ev.CardBuilt)]


OLY_D = [("Olympia", "day"), ("Gizah", "day"), ("Ephesos", "day")]
OLY_N = [("Olympia", "night"), ("Gizah", "day"), ("Ephesos", "day")]


def test_R_OLYMPIA_D2__first_building_of_each_colour_is_free():
    s = position(OLY_D, cities=[{"stages": 2, "coins": 0}], hands=[["Barracks", "Apothecary", *FILL][:7]] * 3)
    events, findings, _ = step_turn(s, [P(1, "build", "Barracks"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert findings == () and built(events) == [("Barracks", "power")]
    # a colour the city already holds is paid as usual
    s = position(OLY_D, cities=[{"stages": 2, "coins": 0, "buildings": ["Stockade"]}],
                 hands=[["Barracks", *FILL]] * 3)
    _, findings, _ = step_turn(s, [P(1, "build", "Barracks"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]  # paid as usual: nobody sells ore


def test_R_OLYMPIA_D2__not_before_the_stage_and_never_for_stages():
    s = position(OLY_D, cities=[{"stages": 1, "coins": 0}], hands=[["Barracks", *FILL]] * 3)
    _, findings, _ = step_turn(s, [P(1, "build", "Barracks"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]  # paid as usual: nobody sells ore
    s = position(OLY_D, cities=[{"stages": 2, "coins": 0}], hands=[["Barracks", *FILL]] * 3)
    _, findings, _ = step_turn(s, [P(1, "stage", "Barracks"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]  # stage 3 needs 3 clay: Olympia has 1, nobody sells more


def test_R_OLYMPIA_N1__first_card_of_each_later_age_is_free():
    s = position(OLY_N, age=2, cities=[{"stages": 1, "stage_ages": (1,), "coins": 0}],
                 hands=[["Statue", *FILL]] * 3)
    events, findings, _ = step_turn(s, [P(1, "build", "Statue", 2), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert findings == () and built(events) == [("Statue", "power")]
    # not in the Age in which the stage is built, not on turn 2
    same_age = position(OLY_N, age=2, cities=[{"stages": 1, "stage_ages": (2,), "coins": 0}],
                        hands=[["Statue", *FILL]] * 3)
    _, findings, _ = step_turn(same_age, [P(1, "build", "Statue", 2), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]  # paid as usual: nobody sells ore
    turn2 = position(OLY_N, age=2, turn=1, cities=[{"stages": 1, "stage_ages": (1,), "coins": 0}],
                     hands=[["Statue", *FILL[:5]]] * 3)
    _, findings, _ = step_turn(turn2, [P(1, "build", "Statue", 2), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]  # paid as usual: nobody sells ore


def test_R_OLYMPIA_N2__card_played_on_turn_six_is_free():
    s = position(OLY_N, turn=5, cities=[{"stages": 2, "coins": 0}],
                 hands=[["Barracks", "Altar"], ["Altar", "Well"], ["Altar", "Well"]])
    events, findings, _ = step_turn(s, [P(1, "build", "Barracks", discard="Altar"),
                                        P(2, "sell", "Altar", discard="Well"), P(3, "sell", "Altar", discard="Well")])
    assert findings == () and built(events) == [("Barracks", "power")]
    s = position(OLY_N, turn=4, cities=[{"stages": 2, "coins": 0}], hands=[["Barracks", "Altar", "Well"]] * 3)
    _, findings, _ = step_turn(s, [P(1, "build", "Barracks"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert rules_of(findings) == ["R-TRADE"]  # paid as usual: nobody sells ore


BAB = [("Babylon", "night"), ("Gizah", "day"), ("Halikarnassos", "night")]


def test_R_BABYLON_N1__keeps_the_last_card_and_plays_it_after_turn_six():
    s = position(BAB, turn=5, cities=[{"stages": 1, "coins": 0}],
                 hands=[["Tavern", "Timber Yard"], ["Altar", "Well"], ["Altar", "Well"]])
    events, findings, after = step_turn(s, [P(1, "build", "Tavern"), P(2, "sell", "Altar", discard="Well"),
                                            P(3, "sell", "Altar", discard="Well")])
    assert findings == ()
    assert seats_to_act(after) == (1,) and after.hands[0] == (card("Timber Yard", 1),)
    # the extra turn is a new turn: the 5 coins of turn 6's Tavern pay the Timber Yard
    events, findings, end = step_turn(after, [P(1, "build", "Timber Yard")])
    assert findings == () and built(events) == [("Timber Yard", "paid")]
    assert end.turn == 7 and seats_to_act(end) == () and end.cities[0].coins == 4


def test_R_BABYLON_N1__power_from_a_stage_built_on_turn_six_itself():
    s = position(BAB, turn=5, cities=[{"buildings": ["Stone Pit", "Excavation"]}],
                 hands=[["Tavern", "Altar"], ["Altar", "Well"], ["Altar", "Well"]])
    _, findings, after = step_turn(s, [P(1, "stage", "Tavern"), P(2, "sell", "Altar", discard="Well"),
                                       P(3, "sell", "Altar", discard="Well")])
    assert findings == () and seats_to_act(after) == (1,)


def test_R_BABYLON_N1__without_the_stage_the_card_is_discarded():
    s = position(BAB, turn=5, hands=[["Tavern", "Altar"], ["Altar", "Well"], ["Altar", "Well"]])
    _, findings, after = step_turn(s, [P(1, "sell", "Tavern"), P(2, "sell", "Altar", discard="Well"),
                                       P(3, "sell", "Altar", discard="Well")])
    assert rules_of(findings) == ["R-BABYLON-N1"]
    assert seats_to_act(after) == () and after.hands[0] == ()
    # and a seat without a kept card cannot play an extra turn
    s = position(BAB, turn=5, cities=[{"stages": 1}], hands=[["Tavern", "Altar"], ["Altar", "Well"],
                                                             ["Altar", "Well"]])
    _, _, after = step_turn(s, [P(1, "sell", "Tavern"), P(2, "sell", "Altar", discard="Well"),
                                P(3, "sell", "Altar", discard="Well")])
    _, findings, _ = step_turn(after, [P(1, "sell", "Altar"), P(2, "sell", "Well")])
    assert rules_of(findings) == ["R-BABYLON-N1"] and findings[0].seat == 2


HALI = [("Halikarnassos", "night"), ("Gizah", "day"), ("Ephesos", "day")]


def hali_staged(discard=("Tavern", "Altar")):
    s = position(HALI, cities=[{"buildings": ["Clay Pool", "Clay Pit"], "coins": 0}],
                 hands=[["Well", *FILL]] * 3, discard=discard)
    events, findings, after = step_turn(s, [P(1, "stage", "Well"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    assert findings == () and after.cities[0].picks == 1
    return after


def test_R_HALI__builds_a_card_from_the_pile_for_free_with_its_effects():
    after = hali_staged()
    events, findings, end = step_picks(after, {1: ("Tavern",)}, "I.1")
    assert findings == ()
    assert events == (ev.PickedFromDiscard(1, card("Tavern", 1)), ev.CoinsGained(1, 5, "card"))
    assert end.cities[0].coins == 5 and "Tavern" in end.cities[0].names
    assert card("Tavern", 1) not in end.discard and end.cities[0].picks == 0


def test_R_HALI__may_decline_and_an_empty_pile_gives_nothing():
    events, findings, end = step_picks(hali_staged(), {1: (None,)}, "I.1")
    assert findings == () and events == (ev.PickDeclined(1),) and end.cities[0].picks == 0
    s = position(HALI, cities=[{"buildings": ["Clay Pool", "Clay Pit"]}], hands=[["Well", *FILL]] * 3)
    _, _, after = step_turn(s, [P(1, "stage", "Well"), P(2, "stage", "?"), P(3, "build", "Altar")])
    events, findings, _ = step_picks(after, {}, "I.1")
    assert events == (ev.PickDeclined(1),) and findings == ()


def test_R_HALI__a_card_not_in_the_pile_or_a_duplicate_is_refused():
    _, findings, end = step_picks(hali_staged(), {1: ("Baths",)}, "I.1")
    assert rules_of(findings) == ["R-HALI"] and "Baths" not in end.cities[0].names
    s = position(HALI, cities=[{"buildings": ["Clay Pool", "Clay Pit", "Altar"]}],
                 hands=[["Well", *FILL]] * 3, discard=["Altar"])
    _, _, after = step_turn(s, [P(1, "stage", "Well"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    _, findings, _ = step_picks(after, {1: ("Altar",)}, "I.1")
    assert rules_of(findings) == ["R-UNIQUE"]


def test_R_HALI__unknown_cards_in_the_pile_may_be_the_pick():
    # Lumber Yard: the 3-player deck's one copy is in no city and no hand, so it can be the pile's "?"
    after = hali_staged(discard=("?", "Altar"))
    events, findings, end = step_picks(after, {1: ("Lumber Yard",)}, "I.1")
    assert findings == () and events[0] == ev.PickedFromDiscard(1, card("Lumber Yard", 1))
    assert None not in end.discard[:1]


def test_R_HALI_UNKNOWN__a_pick_no_hidden_card_can_be_is_refused_and_declined():
    after = hali_staged(discard=("?", "Altar"))
    # Baths: every hand of this position holds one, more than the one copy a 3-player deck has
    events, findings, end = step_picks(after, {1: ("Baths",)}, "I.1")
    assert rules_of(findings) == ["R-HALI"] and events == (ev.PickDeclined(1),)
    assert "holds 1 Baths, known to be elsewhere" in findings[0].message
    # Tavern is not in a 3-player deck: refused, so its 5 coins are not paid
    events, findings, end = step_picks(after, {1: ("Tavern",)}, "I.1")
    assert rules_of(findings) == ["R-HALI"] and "holds no Tavern" in findings[0].message
    assert end.cities[0].coins == after.cities[0].coins and "Tavern" not in end.cities[0].names
    # a card of a later Age cannot be in the pile at all
    _, findings, _ = step_picks(after, {1: ("Temple",)}, "I.1")
    assert rules_of(findings) == ["R-HALI"]


def test_R_HALI__a_refused_pick_says_how_many_unseen_cards_the_pile_holds_rather_than_listing_them():
    """Issue 27 item 15: a pile of sold cards was listed as "?, ?, …" (38 of them in a late game)."""
    after = hali_staged(discard=("?",) * 38 + ("Altar", "?"))  # the turn's two sales of Altar go on top
    _, findings, _ = step_picks(after, {1: ("Baths",)}, "I.1")
    assert rules_of(findings) == ["R-HALI"]
    assert "it holds Altar, Altar, Altar, 39 unseen cards;" in findings[0].message
    assert "?" not in findings[0].message
    _, findings, _ = step_picks(hali_staged(discard=("?",)), {1: ("Baths",)}, "I.1")
    assert "it holds Altar, Altar, 1 unseen card;" in findings[0].message


def test_R_HALI_UNKNOWN__copies_staged_built_or_in_hand_are_known_elsewhere():
    s = position(HALI, age=2, cities=[{"buildings": ["Clay Pool", "Clay Pit"], "coins": 0}, {"buildings": ["Press"]}],
                 hands=[["Well", *FILL]] * 3, discard=("?",))
    _, _, after = step_turn(s, [P(1, "stage", "Well"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    # Press: Age II's copy is in seat 2's city, Age I's copy can still be hidden (names repeat across Ages)
    events, findings, _ = step_picks(after, {1: ("Press",)}, "II.1")
    assert findings == () and events[0] == ev.PickedFromDiscard(1, card("Press", 1))
    # Loom of Age I staged by name, Loom of Age II in a hand: neither can be the "?"
    s = position(HALI, age=2, cities=[{"buildings": ["Clay Pool", "Clay Pit"], "coins": 0}],
                 hands=[["Well", *FILL], ["Loom", *FILL], ["Loom", *FILL]], discard=("?",))
    s = s._replace(cities=(s.cities[0], s.cities[1]._replace(staged=(card("Loom", 1),)), s.cities[2]))
    _, _, after = step_turn(s, [P(1, "stage", "Well"), P(2, "sell", "Altar"), P(3, "sell", "Altar")])
    _, findings, _ = step_picks(after, {1: ("Loom",)}, "II.1")
    assert rules_of(findings) == ["R-HALI"]


def test_R_PASS__the_extra_turn_refuses_another_seats_last_card_as_a_normal_turn_does():
    table = [("Gizah", "day"), ("Babylon", "night"), ("Rhodos", "day")]
    s = position(table, turn=5, cities=[{}, {"stages": 1}],
                 hands=[["Altar", "Theater"], ["Tavern", "Well"], ["Baths", "Loom"]])
    _, findings, after = step_turn(s, [P(1, "sell", "Altar", discard="Theater"), P(2, "sell", "Tavern"),
                                       P(3, "sell", "Baths", discard="?")])
    assert findings == () and seats_to_act(after) == (2,)
    _, findings, _ = step_turn(after, [P(2, "sell", "Theater")])  # seat 1's last card
    assert rules_of(findings) == ["R-PASS"] and findings[0].seat == 2
    _, findings, _ = step_turn(after, [P(2, "sell", "Loom")])  # seat 3's, discarded unseen
    assert rules_of(findings) == ["R-PASS"]
    _, findings, _ = step_turn(after, [P(2, "sell", "Altar")])  # played on turn 6, in no hand: R-DECK
    assert rules_of(findings) == ["R-DECK"]


def test_R_HALI_LAST__turn_six_pick_sees_last_cards_and_babylons_extra_sale():
    table = [("Halikarnassos", "night"), ("Babylon", "night"), ("Gizah", "day")]
    s = position(table, turn=5, cities=[{"buildings": ["Clay Pool", "Clay Pit"]}, {"stages": 1}],
                 hands=[["Well", "Stockade"], ["Tavern", "Theater"], ["Altar", "Baths"]])
    _, findings, after = step_turn(s, [P(1, "stage", "Well", discard="Stockade"), P(2, "sell", "Tavern"),
                                       P(3, "sell", "Altar", discard="Baths")])
    assert findings == () and after.cities[0].picks == 1
    _, findings, after = step_turn(after, [P(2, "sell", "Theater")])
    assert findings == ()
    assert {c.name for c in after.discard} == {"Stockade", "Tavern", "Altar", "Baths", "Theater"}
    events, findings, end = step_picks(after, {1: ("Theater",)}, "I.end")
    assert findings == () and "Theater" in end.cities[0].names
