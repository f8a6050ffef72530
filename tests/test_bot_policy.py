"""The lazily pricing policies (issue 31 item 4): plays listed unpriced, priced one at a time, chosen as pricing
every legal action would choose (greedy) or uniformly over affordable plays (uniform)."""

from collections import Counter

import pytest

from wnotation.model import deck
from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.engine.legal import LegalAction, legal_actions, least_coins, plays, price, priced
from wnotation.engine.policy import (POLICIES, GreedyPolicy, Policy, RandomPolicy, UniformPolicy, choices, estimate,
                                     least_paid)
from wnotation.engine.bot import draw_wonders
from wnotation.engine.rules import deal_events
from wnotation.engine.state import Game, Table, info, initial, stage_info

GAMES = [(players, seed, "greedy" if seed % 2 else "random") for players in (3, 5, 7) for seed in range(4)]


def positions():
    """Every (game, seat) where the seat acts, over a few bot games of each bot."""
    for players, seed, bot in GAMES:
        for _, state in replay(play_game(players, seed, bot)):
            game = Game(state)
            for seat in range(1, players + 1):
                if legal_actions(game, seat):
                    yield game, seat


def _eager_greedy(game: Game, seat: int, rng: deck.SplitMix64) -> LegalAction:
    """The greedy bot as it was: every legal action priced, the best (first among equals), then a draw between
    the cheapest purchases of that play."""
    legal = legal_actions(game, seat)
    options: list[LegalAction] = []
    for a in legal:
        if options and options[-1].keeps and not a.keeps and options[-1].discarding(a.discard) == a:
            continue
        options.append(a)
    values = [estimate(game, seat, a.use, a.card, a.coins) for a in options]
    best = max(range(len(options)), key=lambda k: (values[k], -k))
    chosen = options[best]
    ties = [a for k, a in enumerate(options) if values[k] == values[best] and a.use == chosen.use
            and a.card is chosen.card and a.keeps == chosen.keeps and a.discard == chosen.discard]
    return ties[rng.below(len(ties))] if len(ties) > 1 else chosen


def test_R_TRADE_MINIMAL__priced_plays_are_the_legal_actions():
    """Pricing every unpriced play lists exactly the legal actions (turn 6's keeping ones grouped by play)."""
    seen = 0
    for game, seat in positions():
        listed, legal = priced(game, plays(game, seat)), legal_actions(game, seat)
        assert Counter(listed) == Counter(legal)
        if not any(a.keeps for a in legal):
            assert listed == legal
        seen += 1
    assert seen > 500


def test_R_COST_COINS__least_coins_bounds_every_pricing_of_a_play():
    for game, seat in positions():
        for p in plays(game, seat):
            for a in price(game, p):
                assert least_coins(game, p) <= a.coins
                assert a.free is None or least_coins(game, p) == 0


def test_R_TRADE__least_paid_bounds_every_pricing_and_refuses_only_the_unaffordable():
    """The greedy bot's bound asks no trade question: never above the coins of a priced play, and ``-1`` only for a
    play that pricing finds no purchase for. It must also refuse some (the bot skips them unpriced) and be tighter
    than the coin cost alone for some."""
    refused = tighter = 0
    for game, seat in positions():
        city = game.cities[seat - 1]
        for p in plays(game, seat):
            if p.use == "build":
                cost, coins = info(p.card).cost, p.card.cost.coins
            elif p.use == "stage":
                cost, coins = stage_info(city.wonder, city.stages + 1).cost, city.wonder.stages[city.stages].cost.coins
            else:
                continue
            least = least_paid(game, seat, tuple(cost.items()), coins)
            got = [a for a in price(game, p) if a.free is None]
            if least < 0:
                refused += 1
                assert not price(game, p) or price(game, p)[0].free is not None
            for a in got:
                assert 0 <= least <= a.coins
            tighter += least > coins
    assert refused > 100 and tighter > 100, (refused, tighter)


def test_a_sale_is_always_priced_and_an_unaffordable_play_is_not():
    found_unaffordable = False
    for game, seat in positions():
        for p in plays(game, seat):
            got = price(game, p)
            if p.use == "sell":
                assert len(got) == 1 and got[0].coins == 0
            elif not got:
                found_unaffordable = True
                assert all(not (a.use == p.use and a.card is p.card) for a in legal_actions(game, seat))
    assert found_unaffordable


def test_greedy_chooses_what_pricing_every_action_chooses_with_the_same_draws():
    for k, (game, seat) in enumerate(positions()):
        lazy, eager = deck.SplitMix64(k), deck.SplitMix64(k)
        assert GreedyPolicy().choose(game, seat, lazy) == _eager_greedy(game, seat, eager)
        assert lazy.next() == eager.next()  # the same number of draws


def test_greedy_refuses_a_seat_that_does_not_act():
    """The greedy bot tells a seat that does not act by its empty hand: at every position of these games a seat
    has cards exactly when it acts in the next turn, and the bot refuses one that does not."""
    from wnotation.engine.rules import seats_to_act

    refused = 0
    for players, seed, bot in GAMES[:6]:
        for _, state in replay(play_game(players, seed, bot)):
            game = Game(state)
            for seat in range(1, players + 1):
                assert bool(game.hands[seat - 1]) == (seat in seats_to_act(game))
                if seat not in seats_to_act(game):
                    with pytest.raises(ValueError, match="does not act"):
                        GreedyPolicy().choose(game, seat, deck.SplitMix64(1))
                    refused += 1
    assert refused


def test_R_BABYLON_N1__the_policies_keep_the_last_card_when_they_may():
    kept = 0
    for game, seat in positions():
        options = plays(game, seat)
        if any(p.keeps for p in options):
            for policy in POLICIES.values():
                a = policy.choose(game, seat, deck.SplitMix64(seat))
                assert a.keeps == any(p.keeps and p.use == a.use and p.card is a.card for p in options)
            kept += 1
            chosen = choices(options)
            assert not any(not p.keeps and any(q.keeps and q.use == p.use and q.card is p.card for q in options)
                           for p in chosen)
    assert kept


def test_uniform_draws_each_affordable_play_uniformly():
    """Over many draws at one position, every affordable play comes up, about equally often (R-TRADE-MINIMAL:
    each play once, whatever the number of its cheapest purchases)."""
    game, seat = next((g, s) for g, s in positions()
                      if len({(a.use, a.card.name) for a in legal_actions(g, s)}) >= 6
                      and any(len(price(g, p)) > 1 for p in plays(g, s)))
    affordable = {(p.use, p.card.name) for p in plays(game, seat) if price(game, p)}
    rng = deck.SplitMix64(7)
    n = 600 * len(affordable)
    counts = Counter((a.use, a.card.name) for a in (UniformPolicy().choose(game, seat, rng) for _ in range(n)))
    assert set(counts) == affordable
    assert min(counts.values()) > 0.8 * n / len(affordable) and max(counts.values()) < 1.2 * n / len(affordable)


@pytest.mark.parametrize("name", ["random", "greedy", "uniform"])
def test_the_policies_are_policies_and_pick_from_the_pile(name):
    policy: Policy = POLICIES[name]
    assert isinstance(policy, (RandomPolicy, GreedyPolicy, UniformPolicy))
    records = [play_game(players, seed, name) for players in (5, 7) for seed in range(2, 6)]
    picks = [a.pick for r in records for t in r.turns for a in t.actions if a.pick is not None]
    assert any(p.card is not None for p in picks)  # Halikarnassos builds from the pile (R-HALI)


def test_the_random_bot_keeps_its_seed_stream() -> None:
    """``random`` draws over every legal action, as the golden fixtures were made: the lazy draw is ``uniform``."""
    game = Game(initial(Table(("A", "B", "C"), draw_wonders(3, 5), deck.deal(3, 5).guilds)))
    for e in deal_events(1, deck.deal(3, 5).hands[0]):
        game.apply(e)
    legal = legal_actions(game, 1)
    a, b = deck.SplitMix64(9), deck.SplitMix64(9)
    chosen, expected = RandomPolicy().choose(game, 1, a), legal[b.below(len(legal))]
    assert (chosen.use, chosen.card.name, chosen.coins) == (expected.use, expected.card.name, expected.coins)
