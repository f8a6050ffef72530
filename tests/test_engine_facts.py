"""The per-card records the engine keeps (CardInfo's card facts, scoring's CardPoints) agree with the catalogue, and
the events and payments turn resolution shares are the values it would have made."""

from __future__ import annotations

from wnotation.engine import events as ev
from wnotation.engine.payment import NO_PURCHASE, NOTHING_PAID, Payment, bank_only
from wnotation.engine.scoring import points_of
from wnotation.engine.state import info, stage_info
from wnotation.model import catalog
from wnotation.model.catalog import Coins, CoinsPer, Points, PointsIfWonderComplete, PointsPer, Science


def _cards() -> list[catalog.Card]:
    return list(catalog.load().cards)


def test_card_info_holds_the_cards_own_facts() -> None:
    for c in _cards():
        i = info(c)
        assert (i.name, i.colour, i.chain_from, i.coin_cost) == (c.name, c.colour, c.chain_from, c.cost.coins)
        assert i.earns == any(isinstance(e, (Coins, CoinsPer)) for e in c.effects)


def test_stage_info_holds_the_stage_coin_cost() -> None:
    for w in catalog.load().wonders:
        for k, st in enumerate(w.stages, start=1):
            i = stage_info(w, k)
            assert (i.name, i.colour, i.chain_from, i.coin_cost) == ("", "", (), st.cost.coins)
            assert i.earns == any(isinstance(e, (Coins, CoinsPer)) for e in st.effects)


def test_card_points_are_the_cards_effects() -> None:
    for c in _cards():
        f = points_of(c)
        assert f is points_of(c) and f.card is c and f.colour == c.colour
        assert f.points == sum(e.amount for e in c.effects if isinstance(e, Points))
        assert f.per == tuple(e for e in c.effects if isinstance(e, PointsPer))
        assert f.wonder_complete == sum(e.amount for e in c.effects if isinstance(e, PointsIfWonderComplete))
        assert f.science == tuple(e.symbol for e in c.effects if isinstance(e, Science))


def test_shared_card_events_are_the_events_asked_for() -> None:
    a, b = _cards()[:2]
    for how in ("paid", "chain", "power", "unpaid"):
        e = ev.built(3, a, how)
        assert e == ev.CardBuilt(3, a, how) and e is ev.built(3, a, how)
    assert ev.built(3, a, "paid") != ev.built(3, a, "chain") != ev.built(4, a, "chain")
    assert ev.built(3, a, "paid").card is a and ev.built(3, b, "paid").card is b
    assert ev.built(99, a, "paid") == ev.CardBuilt(99, a, "paid")  # a seat beyond the key's bits: made afresh
    assert ev.staged(2, 1, a) == ev.StageBuilt(2, 1, a) and ev.staged(2, 2, a) == ev.StageBuilt(2, 2, a)
    assert ev.staged(2, 1, None) == ev.StageBuilt(2, 1, None)
    assert ev.sold(5, a) == ev.CardSold(5, a) and ev.discarded(5, a) == ev.CardDiscarded(5, a)
    assert ev.sold(5, None) == ev.CardSold(5, None) and ev.discarded(5, None) == ev.CardDiscarded(5, None)


def test_shared_turn_and_age_events() -> None:
    for age in (1, 2, 3):
        assert ev.age_over(age) == ev.AgeEnded(age)
        for turn in range(1, 8):
            assert ev.turn_over(age, turn) == ev.TurnResolved(age, turn)
    assert ev.turn_over(4, 9) == ev.TurnResolved(4, 9) and ev.age_over(0) == ev.AgeEnded(0)
    assert ev.passed(ev.LEFT) == ev.HandsPassed(1) and ev.passed(ev.RIGHT) == ev.HandsPassed(-1)
    assert ev.passed(0) == ev.HandsPassed(0)


def test_payments_that_buy_nothing() -> None:
    assert NOTHING_PAID == Payment(NO_PURCHASE, 0) and NOTHING_PAID.coins == 0
    for coins in range(12):
        assert bank_only(coins) == Payment(NO_PURCHASE, coins)
    assert bank_only(1) is bank_only(1)
