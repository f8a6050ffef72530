"""Bot-played games: complete, legal, deterministic, and every invariant of the game holds (properties)."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wnotation.model import deck
from wnotation.engine import events as ev
from wnotation.engine import replay
from wnotation.engine.bot import draw_wonders, play_game
from wnotation.engine.legal import legal_actions
from wnotation.engine.state import fold, initial

games = st.tuples(st.integers(3, 7), st.integers(0, 2**64 - 1), st.sampled_from(["random", "greedy"]))
SETTINGS = settings(max_examples=25, deadline=None)


@SETTINGS
@given(games)
def test_bot_games_replay_without_findings_and_deterministically(game):
    players, seed, bot = game
    record = play_game(players, seed, bot)
    assert record == play_game(players, seed, bot)
    first, second = replay(record), replay(record)
    assert first.findings == ()
    assert first.events == second.events and first.scores == second.scores
    assert first.complete and first.addresses[0] == "I.0" and first.addresses[-1] == "III.end"
    stated = {(r.seat, r.total, r.coins, r.rank) for r in record.results}
    assert stated == {(ln.seat, ln.total, ln.coins, ln.rank) for ln in first.scores.lines}


@SETTINGS
@given(games)
def test_R_DECK__every_card_ends_in_exactly_one_place(game):
    players, seed, bot = game
    final = replay(play_game(players, seed, bot)).final
    dealt = deck.deal(players, seed)
    everything = Counter(c for age in dealt.hands for hand in age for c in hand)
    placed = Counter(c for city in final.cities for c in city.buildings)
    placed += Counter(c for city in final.cities for c in city.staged)
    placed += Counter(final.discard)
    assert all(not h for h in final.hands)
    assert placed == everything and sum(placed.values()) == 21 * players


@SETTINGS
@given(games)
def test_coins_balance_and_military_bounds(game):
    players, seed, bot = game
    r = replay(play_game(players, seed, bot))
    coins = Counter({k: 3 for k in range(1, players + 1)})
    bank_in = bank_out = 0
    for e in r.events:
        if isinstance(e, ev.CoinsGained):
            coins[e.seat] += e.amount
            bank_out += e.amount
        elif isinstance(e, ev.CoinsPaid):
            coins[e.seat] -= e.amount
            if e.to is None:
                bank_in += e.amount
            else:
                coins[e.to] += e.amount
    final = r.final
    assert [coins[k] for k in range(1, players + 1)] == [c.coins for c in final.cities]
    assert sum(c.coins for c in final.cities) == 3 * players + bank_out - bank_in
    assert all(c.coins >= 0 for _, s in r for c in s.cities)
    for c in final.cities:
        assert -6 <= c.military <= 18 and len(c.tokens) <= 6


@SETTINGS
@given(games)
def test_a_full_fold_equals_every_stored_position(game):
    players, seed, bot = game
    r = replay(play_game(players, seed, bot))
    start = initial(r.final.table)
    for address, state in r:
        assert fold(start, r.events[: r.marks[address]]) == state


def test_legal_actions_of_a_bot_position_are_all_legal():
    r = replay(play_game(5, 7, "greedy"))
    s = r.position("II.2")
    for seat in range(1, 6):
        options = legal_actions(s, seat)
        assert options and options[-1].use == "sell"
        assert sum(1 for a in options if a.use == "sell") == len({c for c in s.hands[seat - 1]})


def test_greedy_and_random_bots_differ_and_names_are_fixed():
    a, b = play_game(4, 11, "random"), play_game(4, 11, "greedy")
    assert a.turns != b.turns
    assert [s.name for s in a.seats] == ["Ada", "Bob", "Cyd", "Dee"]
    assert [(s.wonder, s.side) for s in a.seats] == [(w.name, w.side) for w in draw_wonders(4, 11)]


def test_bot_refuses_bad_arguments():
    with pytest.raises(ValueError):
        play_game(4, 1, "clever")
    with pytest.raises(ValueError):
        play_game(8, 1)


def test_bot_games_exercise_babylon_and_halikarnassos():
    kinds = Counter()
    for seed in range(40):
        record = play_game(7, seed, "greedy")
        kinds["extra"] += sum(1 for t in record.turns if t.number == 7)
        kinds["pick"] += sum(1 for t in record.turns for a in t.actions if a.pick is not None)
        kinds["bought"] += sum(1 for t in record.turns for a in t.actions if a.purchase is not None)
    assert kinds["extra"] and kinds["pick"], kinds


def test_a_bot_record_is_what_its_pydantic_twin_validates():
    """The bot builds its Record unvalidated (``record.make``, as the reader does): the twin, which validates a
    Record built in code, accepts every part of it unchanged, so nothing the validator would refuse or coerce can
    slip in. Equal, with the same repr, JSON (member order included) and dump; picks, extra turns and stated
    purchases are among these games."""
    from wnotation.model.record import Record

    seen = Counter()
    for players in range(3, 8):
        for seed, bot in ((players, "greedy"), (50 + players, "random")):
            record = play_game(players, seed, bot)
            valid = Record.model_validate(record.model_dump())
            assert valid == record and repr(valid) == repr(record)
            assert valid.model_dump_json() == record.model_dump_json()
            assert valid.model_dump() == record.model_dump()
            seen["pick"] += any(a.pick is not None for t in record.turns for a in t.actions)
            seen["bought"] += any(a.purchase is not None for t in record.turns for a in t.actions)
    record = play_game(7, 3, seats=["greedy", "random", "uniform", "greedy", "random", "uniform", "greedy"])
    assert Record.model_validate(record.model_dump()) == record
    assert seen["pick"] and seen["bought"], seen


def test_bot_games_survive_the_notation_round_trip():
    from wnotation.notation import parse, write

    for players in range(3, 8):
        record = play_game(players, 100 + players, "random")
        back = parse(write(record))
        assert back == record
        assert replay(back).findings == ()


def test_bot_plays_given_wonders_R_BABYLON_N1():
    wonders = [("Babylon", "night"), ("Halikarnassos", "night"), ("Olympia", "night"), ("Olympia", "day")]
    with pytest.raises(ValueError):
        play_game(4, 1, wonders=wonders)  # two Olympias (R-BOARD, checked by the Record)
    for seed in range(6):
        record = play_game(3, seed, "greedy", wonders=wonders[:3])
        assert [(s.wonder, s.side) for s in record.seats] == wonders[:3]
        assert replay(record).findings == ()


@SETTINGS
@given(games, st.integers(0, 10**6), st.integers(0, 10**6))
def test_R_DECK__a_single_mutation_is_reported_at_its_turn(game, which, other):
    from wnotation.model.catalog import load

    players, seed, bot = game
    record = play_game(players, seed, bot)
    r = replay(record)
    k = which % len(record.turns)
    turn = record.turns[k]
    action = turn.actions[which % len(turn.actions)]
    held = {c.name for c in r.position(r.step(turn.label, -1)).hands[action.seat - 1]}  # the hand it holds then
    outside = sorted({c.name for c in load().cards if c.age == turn.age} - held)
    mutated = action.model_copy(update={"card": outside[other % len(outside)], "use": "sell", "purchase": None})
    turns = list(record.turns)
    turns[k] = turn.model_copy(update={"actions": tuple(mutated if a is action else a for a in turn.actions)})
    found = replay(record.model_copy(update={"turns": tuple(turns)})).findings
    assert found and (found[0].address, found[0].seat) == (turn.label, action.seat)
    assert found[0].rule in ("R-DECK", "R-PASS")


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_R_BABYLON_N1__the_bots_keep_the_last_card_whenever_legal_actions_offer_it(bot):
    """legal_actions offers keeping and declining; the bots keep (a kept card can at least be sold)."""
    sides = [("Babylon", "night"), ("Gizah", "day"), ("Rhodos", "day")]
    kept = 0
    for seed in range(4):
        record = play_game(3, seed, bot, wonders=sides)
        r = replay(record)
        for turn in record.turns:
            if turn.number != 6:
                continue
            state = r.position(f"{('I', 'II', 'III')[turn.age - 1]}.5")
            a = next(x for x in turn.actions if x.seat == 1)
            offered = [x for x in legal_actions(state, 1) if x.use == a.use and x.card.name == a.card]
            if any(x.keeps for x in offered):
                assert any(not x.keeps for x in offered) and a.discard is None
                kept += 1
    assert kept


@SETTINGS
@given(games)
def test_R_TRADE_MINIMAL__bot_games_are_already_canonical(game):
    """The bots state a purchase exactly where the canonical form does (``canonical_purchases`` changes nothing),
    so a caller that writes a bot game needs no second replay to make it canonical."""
    from wnotation.formats.canonical import canonical_purchases

    record = play_game(*game)
    assert canonical_purchases(record) is record
