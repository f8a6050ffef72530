"""Purchases stated in coins (7WN 2, spec/7wn.md §7.4; R-TRADE-MINIMAL "Coins stated" in spec/rulings.md).

The headline property (issue 14, part 3): take generated games, replace every purchase by the coins it paid to
each neighbour, and the replay is identical; ``fmt``'s canonical form writes the resource form again."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wnotation import notation
from wnotation.formats.canonical import canonical_purchases, same_replay
from wnotation.engine import events as ev
from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.engine.coins import Coins, bought_by
from wnotation.engine.state import Game
from wnotation.engine.trade import Purchase
from wnotation.notation.errors import NotationError
from wnotation.model.record import CoinsPaid, Record, StatedPurchase

HEADER = """[Format "7WN {version}"]
[Edition "2e"]
[Date "????.??.??"]
[Seat1 "Ann" "Gizah" "day"]
[Seat2 "Ben" "Babylon" "day"]
[Seat3 "Cat" "Rhodos" "day"]

"""


def game(body: str, version: int = 2) -> Record:
    """Ann (Gizah, stone) between Ben (left, Babylon: wood) and Cat (right, Rhodos: ore)."""
    return notation.parse(HEADER.format(version=version) + body)


def errors(record: Record) -> list[tuple[str, str, int | None]]:
    return [(f.rule, f.address, f.seat) for f in replay(record).findings if f.severity == "error"]


def in_coins(record: Record) -> Record:
    """``record`` with every paid build's and stage's purchase replaced by the coins the replay shows it paying to
    each neighbour (``(L 0 coins)`` when it paid none), as a version-2 record."""
    played = replay(record)
    keys = list(played.marks)
    events = {k: played.events[played.marks[p]:played.marks[k]] for p, k in zip(keys, keys[1:])}
    n = len(record.seats)
    turns = []
    for turn in record.turns:
        happened = events[turn.label]
        free = {e.seat for e in happened if type(e) is ev.CardBuilt and e.how != "paid"}
        actions = []
        for a in turn.actions:
            if a.use == "sell" or a.seat in free:
                actions.append(a)
                continue
            paid = {to: 0 for to in (a.seat % n + 1, (a.seat - 2) % n + 1)}
            for e in happened:
                if type(e) is ev.CoinsPaid and e.seat == a.seat and e.to is not None:
                    paid[e.to] += e.amount
            coins = CoinsPaid(left_coins=paid[a.seat % n + 1], right_coins=paid[(a.seat - 2) % n + 1])
            actions.append(a.model_copy(update={"purchase": coins}))
        turns.append(turn.model_copy(update={"actions": tuple(actions)}))
    return record.model_copy(update={"format": "7WN 2", "turns": tuple(turns)})


# --- the headline property ------------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 7), seed=st.integers(0, 2**64 - 1), bot=st.sampled_from(["random", "greedy"]))
def test_R_TRADE_MINIMAL__every_purchase_replaced_by_its_coins_replays_identically(players, seed, bot):
    record = play_game(players, seed, bot)
    coins = in_coins(record)
    stated = [a.purchase for t in coins.turns for a in t.actions if isinstance(a.purchase, CoinsPaid)]
    assert stated, "a generated game pays for something"
    assert same_replay(replay(record), replay(coins))  # events, findings (none) and the score sheet
    text = notation.write(coins)
    assert notation.parse(text) == coins  # the writer round-trips the coin form
    assert notation.from_json(notation.to_json(coins)) == coins  # and so does JSON
    back = canonical_purchases(coins)  # what fmt writes: the resource form
    assert not any(isinstance(a.purchase, CoinsPaid) for t in back.turns for a in t.actions)
    assert same_replay(replay(record), replay(back))
    # where the record left the purchase to the engine (its default: the first cheapest in canonical order, hence
    # the first of its coins), fmt writes back what the record's canonical form writes
    ref = canonical_purchases(record)
    for old, new, want in zip(record.turns, back.turns, ref.turns):
        for a, b, c in zip(old.actions, new.actions, want.actions):
            if a.purchase is None:
                assert b.purchase == c.purchase, (old.label, a.seat)


# --- the engine: which purchase coins buy ---------------------------------------------------------------------


def test_R_TRADE_MINIMAL__coins_buy_a_dearer_legal_purchase_too():
    # case 057 in coins: Ben sells wood for 2, Cat for 1 (East Trading Post); paying Ben 2 is legal
    record = game("I.1 East Trading Post | sell ? | Lumber Yard\nI.2 Stockade (L 2 coins) | sell ? | sell ?\n")
    assert errors(record) == []
    assert [c.coins for c in replay(record).positions["I.2"].cities] == [1, 11, 6]
    assert "I.2 Stockade (L wood) |" in notation.write(canonical_purchases(record))


def test_R_TRADE_MINIMAL__coins_no_purchase_pays_are_an_error():
    record = game("I.1 East Trading Post | sell ? | Lumber Yard\nI.2 Stockade (L 1 coin) | sell ? | sell ?\n")
    (finding,) = [f for f in replay(record).findings if f.severity == "error"]
    assert (finding.rule, finding.address, finding.seat) == ("R-TRADE-MINIMAL", "I.2", 1)
    assert "no legal purchase pays exactly 1 coin to the left and 0 coins to the right" in finding.message
    assert "L 0 R 1" in finding.message and "L 2 R 0" in finding.message
    assert "(L 1 coin)" in notation.write(canonical_purchases(record))  # an illegal action keeps what it states


def test_R_COST_COINS__coins_more_than_held_are_refused():
    # Ann pays 1 coin for the Clay Pit and holds 2; Gizah's first stage (2 wood) from Ben and Cat costs 4
    body = "I.1 Clay Pit | sell ? | Lumber Yard\nI.2 stage ? (L 2 coins, R 2 coins) | sell ? | sell ?\n"
    assert errors(game(body)) == [("R-COST-COINS", "I.2", 1)]


def test_R_FREE__coins_on_a_free_build_are_an_error_and_nothing_paid_is_redundant():
    chain = "I.1 Baths | sell ? | sell ?\nI.2 sell ? | sell ? | sell ?\nI.3 sell ? | sell ? | sell ?\n" \
            "I.4 sell ? | sell ? | sell ?\nI.5 sell ? | sell ? | sell ?\nI.6 sell ?, discard ? | sell ?, discard ? |" \
            " sell ?, discard ?\nII.1 Aqueduct {} | sell ? | sell ?\n"
    paid = game(chain.replace("Aqueduct {}", "Aqueduct (R 2 coins)"))
    assert errors(paid) == [("R-TRADE-MINIMAL", "II.1", 1)]
    nothing = game(chain.replace("Aqueduct {}", "Aqueduct (L 0 coins)"))
    assert errors(nothing) == []
    assert "II.1 Aqueduct |" in notation.write(canonical_purchases(nothing))


SALES = ("I.1 Lumber Yard | Stone Pit | Clay Pool\n"
         "I.2 sell Stockade (L wood) | sell ? (L 2 coins) | sell ? (L 0 coins)\n"
         "I.3 sell Baths () | sell ? (R 1 coin) | Loom\n")


def test_R_TRADE_MINIMAL__a_purchase_stated_on_a_sale_is_an_error_and_nothing_is_paid():
    """Issue 27 item 6: ``sell Stockade (L wood)`` and ``sell ? (L 2 coins)`` replayed with no finding and no coin
    moved; a sale needs no resource (R-SELL), so each is an R-TRADE-MINIMAL error as on a free build (case 274),
    while ``()`` and ``(L 0 coins)`` buy and pay nothing and are true."""
    record = game(SALES)
    rp = replay(record)
    assert errors(record) == [("R-TRADE-MINIMAL", "I.2", 1), ("R-TRADE-MINIMAL", "I.2", 2),
                              ("R-TRADE-MINIMAL", "I.3", 2)]
    messages = [f.message for f in rp.findings]
    assert messages[0] == "Ann states a purchase for selling Stockade: a sale needs no resource (R-SELL); sold, " \
        "nothing is paid"
    assert messages[1].startswith("Ben states a purchase for selling an unseen card: a sale needs no resource")
    assert not any(isinstance(e, ev.CoinsPaid) for e in rp.events)
    assert [c.coins for c in rp.position("I.2").cities] == [6, 6, 6]  # 3 + a sale each, nothing paid
    assert [c.coins for c in rp.position("I.3").cities] == [9, 9, 6]


def test_fmt_keeps_a_purchase_stated_on_a_sale_as_written():
    record = game(SALES)
    assert canonical_purchases(record) == record
    assert notation.write(record).endswith(SALES)


KNOCK_ON = ("I.1 sell ? | Timber Yard | Glassworks\n"
            "I.2 Stockade (L 3 coins) | Clay Pit | sell ?\n"
            "I.3 sell ? | Workshop | sell ?\n")


def test_R_COST_COINS__a_knock_on_error_names_the_refused_purchase_that_did_not_pay_the_seller():
    """Issue 27 item 7 (case 275): Ann's refused "(L 3 coins)" never reaches Ben, whose purchase on I.3 then fails
    with "has 1" and no hint; the finding now names the cause. Paid as stated, nothing fails."""
    rp = replay(game(KNOCK_ON))
    assert [(f.rule, f.address, f.seat) for f in rp.findings] == [("R-TRADE-MINIMAL", "I.2", 1),
                                                                    ("R-COST-COINS", "I.3", 2)]
    assert rp.findings[1].message == ("Ben cannot build Workshop: needs glass, has nothing; the cheapest purchase "
                                      "(left glass) costs 2 coins, has 1: 3 coins of I.2 from Ann were not paid, "
                                      "that purchase was refused")
    assert errors(game(KNOCK_ON.replace("(L 3 coins)", "(L 2 coins)"))) == []


def test_R_COST_COINS__without_a_refused_purchase_to_the_seat_the_error_names_no_cause():
    # Ben short of coins by his own spending alone (Ann's refused purchase pays Cat, her right neighbour)
    body = KNOCK_ON.replace("Stockade (L 3 coins) | Clay Pit | sell ?", "Stockade (R 3 coins) | Clay Pit | sell ?")
    [cost] = [f for f in replay(game(body)).findings if f.rule == "R-COST-COINS"]
    assert cost.message.endswith("costs 2 coins, has 1")


def test_R_COST_COINS__a_knock_on_error_inside_a_variation_names_the_refused_purchase_of_the_line_before_it():
    body = KNOCK_ON.replace("I.3 sell ? | Workshop | sell ?\n", "I.3 sell ? | sell ? | sell ?\n( I.3 Ben: Workshop )\n")
    rp = replay(game(body))
    [f] = rp.variation_findings
    assert (f.rule, f.address) == ("R-COST-COINS", "I.3(1).I.3")
    assert f.message.endswith("has 1: 3 coins of I.2 from Ann were not paid, that purchase was refused")


def test_R_TRADE_MINIMAL__the_tie_break_among_purchases_paying_the_same_coins():
    # After I.1 Ann's left neighbour (Ben: Babylon's wood, a Stone Pit) and right one (Cat: Gizah's stone, a
    # Lumber Yard) both sell wood and stone for 2: for wood + stone, paying 2 to each side buys wood on the left
    # and stone on the right, or the reverse; the canonical order takes the left units in resource order first.
    record = notation.parse(HEADER.format(version=2).replace('"Gizah" "day"]\n[Seat2', '"Alexandria" "day"]\n[Seat2')
                            .replace('"Rhodos"', '"Gizah"') + "I.1 sell ? | Stone Pit | Lumber Yard\n")
    g = Game(replay(record).positions["I.1"])
    cost = {"wood": 1, "stone": 1}
    found = bought_by(g, 1, cost, 10, Coins(2, 2))
    assert found == Purchase(left=("wood",), right=("stone",), left_coins=2, right_coins=2)
    assert bought_by(g, 1, cost, 10, Coins(4, 0)) == Purchase(left=("wood", "stone"), left_coins=4)
    assert bought_by(g, 1, cost, 3, Coins(2, 2)).rule == "R-COST-COINS"  # more than held
    assert bought_by(g, 1, cost, 10, Coins(3, 1)).rule == "R-TRADE-MINIMAL"  # no purchase pays that
    assert bought_by(g, 1, {"papyrus": 1}, 10, Coins(2, 0)).rule == "R-TRADE"  # nobody sells papyrus
    assert bought_by(g, 1, {}, -1, Coins(0, 0)).rule == "R-COST-COINS"  # the coin cost alone is too much
    assert bought_by(g, 1, {"glass": 1}, 0, Coins(0, 0)) == Purchase()  # Alexandria's own glass: nothing bought


# --- the notation -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("written, left, right, canonical", [
    ("(L 2 coins)", 2, 0, "(L 2 coins)"),
    ("(r 1 COIN)", 0, 1, "(R 1 coin)"),
    ("( left 1coins ,right 2 coin )", 1, 2, "(L 1 coin, R 2 coins)"),
    ("(R 1 coin, L 2 coins, R 1 coin)", 2, 2, "(L 2 coins, R 2 coins)"),
    ("(R 0 coins)", 0, 0, "(L 0 coins)"),
])
def test_the_coin_form_is_read_and_written(written, left, right, canonical):
    record = game(f"I.1 Stockade {written} | sell ? | sell ?\n")
    assert record.turns[0].actions[0].purchase == CoinsPaid(left_coins=left, right_coins=right)
    text = notation.write(record)
    assert f"I.1 Stockade {canonical} | sell ? | sell ?" in text
    assert notation.parse(text) == record


def test_more_than_99_coins_to_a_side_are_written_in_groups_that_add_up():
    record = game("I.1 Stockade (L 2 coins) | sell ? | sell ?\n")
    turn = record.turns[0]
    big = turn.actions[0].model_copy(update={"purchase": CoinsPaid(left_coins=150, right_coins=0)})
    record = record.model_copy(update={"turns": (turn.model_copy(update={"actions": (big, *turn.actions[1:])}),)})
    text = notation.write(record)
    assert "(L 99 coins, L 51 coins)" in text and notation.parse(text) == record


def test_a_version_1_game_refuses_the_coin_form_and_its_writer_too():
    game("I.1 Stockade (L 2 coins) | sell ? | sell ?\n")  # the same piece read first in a version-2 game
    with pytest.raises(NotationError) as caught:
        game("I.1 Stockade (L 2 coins) | sell ? | sell ?\n", version=1)
    assert (caught.value.rule, caught.value.line, caught.value.column) == ("version", 8, 14)
    record = game("I.1 Stockade (L 2 coins) | sell ? | sell ?\n").model_copy(update={"format": "7WN 1"})
    with pytest.raises(ValueError, match="needs format 7WN 2"):
        notation.write(record)


def test_a_version_2_game_without_coins_reads_as_its_version_1_twin():
    body = "I.1 Stockade (L wood) | sell ? | sell ?\n"
    assert game(body, 2).model_copy(update={"format": "7WN 1"}) == game(body, 1)
    assert game(body, 2).format == "7WN 2" and notation.write(game(body, 2)).startswith('[Format "7WN 2"]')


@pytest.mark.parametrize("written, column", [
    ("(L 2 coins, R wood)", 28),  # after coins, a side pays coins: the count's place
    ("(L 2 coins, R 1 wood)", 30),  # ... and the word after a count is 'coins'
    ("(L wood, R 1 coin)", 27),  # after units, 'coin' is no resource: at its first letter
    ("(L 100 coins)", 19),
])
def test_a_purchase_never_mixes_units_and_coins(written, column):
    with pytest.raises(NotationError) as caught:
        game(f"I.1 Stockade {written} | sell ? | sell ?\n")
    assert (caught.value.rule, caught.value.column) == ("syntax", column)


@pytest.mark.parametrize("written, column", [("(L 100 coins)", 19), ("(R 07 coins)", 18), ("(L 2 coins, R 250 coins)", 30)])
def test_a_coin_amount_out_of_range_says_so_where_the_grammar_stops(written, column):
    with pytest.raises(NotationError) as caught:
        game(f"I.1 Stockade {written} | sell ? | sell ?\n")
    assert caught.value.column == column  # the first digit the grammar cannot take (spec 12.3)
    assert "0 to 99 coins" in caught.value.message and "resource" not in caught.value.message


def test_json_carries_the_coins_and_refuses_half_a_coins_object():
    record = game("I.1 Stockade (L 2 coins) | sell ? | sell ?\n")
    text = notation.to_json(record)
    assert '"purchase": {\n' in text and '"left_coins": 2' in text and '"right_coins": 0' in text
    assert notation.from_json(text) == record
    with pytest.raises(ValueError):  # pydantic ValidationError: left_coins without right_coins
        notation.from_json(text.replace('"right_coins": 0', '"right": []'))
    assert notation.from_json(text.replace('"left_coins": 2,\n', "").replace('"right_coins": 0', '"left": []')
                              ).turns[0].actions[0].purchase == StatedPurchase()
