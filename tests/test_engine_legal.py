"""legal_actions: every legal play in a fixed order, each one replaying without a finding."""

from wnotation.engine.legal import legal_actions
from wnotation.engine.position import card, position
from wnotation.engine.rules import Play, seats_to_act, step_turn

TABLE = [("Gizah", "day"), ("Rhodos", "day"), ("Ephesos", "day")]


def test_order_builds_stages_sales_per_card_in_hand_order():
    s = position(TABLE, cities=[{"buildings": ["Lumber Yard", "Timber Yard"]}],
                 hands=[["Altar", "Apothecary", "Stockade", "Altar"], ["Well"] * 4, ["Well"] * 4])
    got = [(a.use, a.card.name) for a in legal_actions(s, 1)]
    assert got == [("build", "Altar"), ("stage", "Altar"), ("sell", "Altar"),
                   ("stage", "Apothecary"), ("sell", "Apothecary"),  # not built: nobody sells loom
                   ("build", "Stockade"), ("stage", "Stockade"), ("sell", "Stockade")]


def test_every_cheapest_purchase_is_listed_and_the_first_is_the_default():
    s = position(TABLE, cities=[{}, {}, {"buildings": ["Stone Pit"]}], hands=[["Baths"]] * 3)
    builds = [a for a in legal_actions(s, 2) if a.use == "build"]
    assert [(a.purchase.left, a.purchase.right, a.coins, a.default) for a in builds] == [
        ((), ("stone",), 2, True), (("stone",), (), 2, False)]
    # every listed action resolves without a finding
    for a in legal_actions(s, 2):
        buy = None if a.default else (a.purchase.left, a.purchase.right)
        plays = [Play(k, "sell", card("Baths", 1)) for k in (1, 3)] + [Play(2, a.use, a.card, buy)]
        assert step_turn(s, plays)[1] == ()


def test_free_builds_are_listed_once_and_unaffordable_stages_not_at_all():
    s = position(TABLE, age=2, cities=[{"buildings": ["Baths"], "coins": 0}], hands=[["Aqueduct"]] * 3)
    assert [(a.use, a.free, a.coins) for a in legal_actions(s, 1)] == [("build", "chain", 0), ("sell", None, 0)]


def test_seats_that_do_not_act_have_no_legal_actions():
    s = position([("Babylon", "night"), ("Rhodos", "day"), ("Ephesos", "day")], turn=6,
                 cities=[{"stages": 1}], hands=[["Altar"], [], []])
    assert seats_to_act(s) == (1,)
    assert legal_actions(s, 2) == () and [a.use for a in legal_actions(s, 1)] == ["build", "sell"]
    assert str(legal_actions(s, 1)[0]) == "build Altar"


def test_R_BABYLON_N1__turn_six_lists_keeping_and_declining_and_both_replay_clean():
    table = [("Babylon", "night"), ("Rhodos", "day"), ("Ephesos", "day")]
    hands = [["Altar", "Theater"], ["Well", "Baths"], ["Well", "Baths"]]
    others = [Play(k, "sell", card("Well", 1), None, (card("Baths", 1),)) for k in (2, 3)]
    s = position(table, turn=5, cities=[{"stages": 1}], hands=hands)
    got = [(a.use, a.card.name, a.keeps) for a in legal_actions(s, 1)]
    assert got == [("build", "Altar", True), ("build", "Altar", False), ("sell", "Altar", True),
                   ("sell", "Altar", False), ("build", "Theater", True), ("build", "Theater", False),
                   ("sell", "Theater", True), ("sell", "Theater", False)]  # stage 2 needs clay and glass
    assert str(legal_actions(s, 1)[0]) == "build Altar, keeps the last card"
    for a in legal_actions(s, 1):
        last = card("Theater" if a.card.name == "Altar" else "Altar", 1)
        play = Play(1, a.use, a.card, None, () if a.keeps else (last,))
        _, found, after = step_turn(s, [play, *others])
        assert found == () and seats_to_act(after) == ((1,) if a.keeps else ())
    # the stage that grants the power, built on turn 6 itself, may keep; the seat's other plays may not
    s = position(table, turn=5, cities=[{"buildings": ["Stone Pit", "Timber Yard"]}], hands=hands)
    assert [(a.use, a.card.name) for a in legal_actions(s, 1) if a.keeps] == [("stage", "Altar"),
                                                                              ("stage", "Theater")]
    assert sum(1 for a in legal_actions(s, 1) if a.use == "stage") == 4
    # a seat without the power lists each play once
    assert not any(a.keeps for a in legal_actions(s, 2)) and len(legal_actions(s, 2)) == 4
