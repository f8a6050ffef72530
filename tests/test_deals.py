"""Dealt hands (wnotation/engine/deals.py): partly known deals, as one seat writes them (spec 7wn.md §4.1).

A hand that names some cards and writes ``?`` for others may lose any of them unseen; the replay must never take
such a loss for one of the ``?`` (R-DECK). The property test hides cards of legal bot games the way a record kept
by one seat does, and more at random, and asserts that the replay still finds nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wnotation.model import deck
from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.engine.deals import holder, revealed
from wnotation.engine.position import card
from wnotation.notation import parse
from wnotation.model.record import Deal, Record

REPRO = """[Format "7WN 1"]
[Edition "2e"]
[Date "????.??.??"]
[Seat1 "Ann" "Gizah" "day"]
[Seat2 "Ben" "Babylon" "day"]
[Seat3 "Cat" "Rhodos" "day"]
[DealI "Lumber Yard, Stone Pit, Clay Pool, Ore Vein, Loom, Press, ?"
  "?, ?, ?, ?, ?, ?, ?"
  "?, ?, ?, ?, ?, ?, ?"]

I.1 sell ? | sell ? | sell ?
I.2 sell ? | Glassworks | sell ?
"""


def cards(*names):
    return tuple(None if n == "?" else card(n, 1) for n in names)


def test_R_DECK__an_unseen_card_leaving_a_partly_known_hand_may_be_a_named_one():
    """R-DECK: the sold card was Lumber Yard and the ``?`` Glassworks (issue 10's example); before, the engine took
    the sale for the ``?`` and reported Ben's Glassworks as not in his hand."""
    r = replay(parse(REPRO))
    assert r.findings == ()
    assert card("Glassworks", 1) in r.position("I.2").cities[1].buildings


def test_revealed_fills_the_unknown_slots_with_the_cards_the_actions_show():
    written = (cards("Altar", "?", "Baths", "?"), cards("?", "?"), cards("Loom", "Press"))
    shown = (cards("?", "Theater", "Altar", "Stockade"), cards("?", "?"), cards("?", "Loom"))
    assert revealed(written, shown) == (cards("Altar", "Theater", "Baths", "Stockade"), cards("?", "?"),
                                        cards("Loom", "Press"))
    # a named card shown twice takes a ``?`` the second time
    assert revealed((cards("Altar", "?"),), (cards("Altar", "Altar"),)) == (cards("Altar", "Altar"),)
    # a shown card that fits nowhere is left for the replay to report, the hand dealt as written otherwise
    assert revealed((cards("Altar", "?", "?"),), (cards("Theater", "Baths", "Stockade"),)) == \
        (cards("Altar", "Theater", "Baths"),)


def test_revealed_never_names_a_card_the_hand_may_lose_unseen():
    """With a ``?`` still unknown, a named card never shown leaving may be the first to leave unseen: it is dealt
    unknown, so that the unseen card may take an unknown slot (R-DECK, R-HALI-UNKNOWN count the hands)."""
    hand = cards("Altar", "?", "Baths", "?")
    assert revealed((hand,), (cards("Theater", "?", "?", "Altar"),)) == (cards("Altar", "Theater", "?", "?"),)
    # without a ``?`` left, the names stay: an unseen card leaving makes the whole hand unknown
    assert revealed((cards("Altar", "?", "Baths"),), (cards("Theater", "?", "?"),)) == \
        (cards("Altar", "Theater", "Baths"),)


# --- the property: a record kept by one seat is never wrong for hiding what that seat did not see ---------------

HIDE = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=32)
def _game(players: int, seed: int, bot: str) -> Record:
    return play_game(players, seed, bot)


def _hand_as_seen(record: Record, dealt, age: int, hand: int, viewer: int, players: int) -> list[str]:
    """Hand ``hand`` of ``age`` as ``viewer`` can write it: the cards in it when it first reaches the viewer, and
    those built from it before; ``?`` for the rest (every card if the hand never reaches the viewer)."""
    plays = {(t.age, t.number): {a.seat: a for a in t.actions} for t in record.turns}
    first = next((t for t in range(1, 7) if holder(hand, t, age, players) == viewer), 7)
    names = [c.name for c in dealt]
    known = Counter(names)
    for t in range(1, first):
        a = plays[(age, t)][holder(hand, t, age, players)]
        if a.use != "build":
            known[a.card] -= 1  # left unseen before the viewer saw the hand
    if first == 7:
        known = Counter(plays[(age, t)][holder(hand, t, age, players)].card for t in range(1, 7)
                        if plays[(age, t)][holder(hand, t, age, players)].use == "build")
    out = []
    for n in names:
        if known[n] > 0:
            known[n] -= 1
            out.append(n)
        else:
            out.append("?")
    return out


def one_seats_record(record: Record, players: int, seed: int, viewer: int, rng: random.Random, more: float,
                     deal_ages: tuple[bool, bool, bool]) -> Record:
    """``record`` as ``viewer`` would keep it: other seats' sales, stages and discards as ``?``, deals (for the
    Ages in ``deal_ages``) as :func:`_hand_as_seen`, no seed; then each remaining name that a record may hide
    hidden with probability ``more``."""
    dealt = deck.deal(players, seed)
    deals = []
    for age in (1, 2, 3):
        if not deal_ages[age - 1]:
            continue
        hands = []
        for h in range(1, players + 1):
            seen = _hand_as_seen(record, dealt.hands[age - 1][h - 1], age, h, viewer, players)
            hands.append(tuple("?" if rng.random() < more else n for n in seen))
        deals.append(Deal(age=age, hands=tuple(hands)))

    def hide(a, name: str) -> str:
        return "?" if a.seat != viewer or rng.random() < more else name

    turns = []
    for t in record.turns:
        actions = []
        for a in t.actions:
            update = {}
            if a.use in ("sell", "stage"):
                update["card"] = hide(a, a.card)
            if a.discard is not None:
                update["discard"] = hide(a, a.discard)
            actions.append(a.model_copy(update=update))
        turns.append(t.model_copy(update={"actions": tuple(actions)}))
    return record.model_copy(update={"turns": tuple(turns), "deals": tuple(deals), "seed": None})


@HIDE
@given(st.integers(3, 7), st.integers(0, 2**64 - 1), st.sampled_from(["random", "greedy"]), st.data())
def test_R_DECK__hiding_what_one_seat_did_not_see_never_makes_a_finding(players, seed, bot, data):
    """R-DECK, R-PASS, R-LAST, R-HALI: a legal game written from one seat's view (partly known deals, unseen
    sales, stages and discards), with more cards hidden at random, replays without a finding and scores the same."""
    record = _game(players, seed, bot)
    viewer = data.draw(st.integers(1, players), label="viewer")
    more = data.draw(st.sampled_from([0.0, 0.2, 0.5]), label="more hidden")
    deal_ages = data.draw(st.tuples(st.booleans(), st.booleans(), st.booleans()), label="deals written")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="hiding"))
    view = one_seats_record(record, players, seed, viewer, rng, more, deal_ages)
    r = replay(view)
    assert [f for f in r.findings if f.severity != "note"] == []
    assert r.scores == replay(record).scores
