"""The search bot (issue 33, item 6): determinised Monte-Carlo over greedy playouts. Deterministic given a seed,
legal plays only, blind to what its seat cannot see, and clearly stronger than the random bot."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from wnotation.engine import Game, replay
from wnotation.engine.bot import BOTS, draw_wonders, play_game, policy_of
from wnotation.engine.policy import GreedyPolicy
from wnotation.engine.rules import deal_events, play_turn
from wnotation.engine.search import SearchPolicy, as_move, candidates, determinise
from wnotation.engine.state import Table, initial
from wnotation.model import deck


def _position(players: int, seed: int, turns: int) -> Game:
    """A game of ``players`` greedy seats ``turns`` turns into Age I."""
    dealt = deck.deal(players, seed)
    game = Game(initial(Table(("A", "B", "C", "D", "E", "F", "G")[:players], draw_wonders(players, seed),
                              dealt.guilds)))
    for e in deal_events(1, dealt.hands[0]):
        game.apply(e)
    rng = deck.SplitMix64(seed)
    greedy = GreedyPolicy()
    for _ in range(turns):
        play_turn(game, [as_move(game, greedy.choose(game, s, rng)) for s in range(1, players + 1)])
    return game


def test_search_is_a_bot_of_its_own_and_the_others_keep_their_policies():
    assert BOTS == ("random", "greedy", "uniform", "search")
    assert isinstance(policy_of("search", 3), SearchPolicy) and policy_of("search", 3).playouts == 3
    with pytest.raises(ValueError, match="unknown bot"):
        policy_of("minimax")
    with pytest.raises(ValueError, match="at least one"):
        SearchPolicy(0)
    # one bot for every seat: the record is the one it always was, its Event tag naming the bot
    assert play_game(3, 4, "greedy") == play_game(3, 4, seats=("greedy",) * 3).model_copy(
        update={"tags": play_game(3, 4, "greedy").tags})
    assert play_game(3, 4, "greedy").tags[0].value == "wnotation bot game (greedy)"
    with pytest.raises(ValueError, match="2 bots for 3 seats"):
        play_game(3, 4, seats=("greedy", "search"))


def test_a_search_game_is_legal_and_the_same_for_the_same_seed():
    seats = ("search", "greedy", "random")
    first = play_game(3, 21, seats=seats, playouts=2)
    assert first == play_game(3, 21, seats=seats, playouts=2)
    assert first.tags[0].value == "wnotation bot game (search, greedy, random)"
    played = replay(first)
    assert played.findings == ()  # every play legal (R-TRADE, R-COST-COINS ...), every result as recorded (R-SCORE)
    assert played.position("III.end").finished


def test_R_PASS__determinise_keeps_what_the_seat_sees_and_the_hand_it_passed():
    game = _position(4, 8, 2)
    state = game.snapshot()
    world = determinise(state, 1, deck.SplitMix64(5))
    assert world.hands[0] == state.hands[0]  # its own hand
    assert world.hands[1] == state.hands[1]  # Age I passes left: seat 2 holds what seat 1 passed (R-PASS)
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
    assert all(c is not None for h in world.hands for c in h)
    # R-DECK: no design more often than the Age deck holds it, counting what the seat sees in the cities
    shown = Counter(c for h in world.hands for c in h) + Counter(c for city in world.cities for c in city.buildings)
    assert not shown - deck.copies(1, 4)
    assert determinise(state, 1, deck.SplitMix64(5)) == world


def test_determinise_never_reads_the_hands_the_seat_cannot_see():
    """Two positions that differ only in the hands seat 1 cannot see (seats 3 and 4 swap cards) give seat 1 the
    same worlds: nothing of the hidden hands leaks into its search."""
    state = _position(4, 8, 2).snapshot()
    h3, h4 = state.hands[2], state.hands[3]
    assert h3[0] is not h4[0]
    swapped = state._replace(hands=(state.hands[0], state.hands[1], (h4[0],) + h3[1:], (h3[0],) + h4[1:]))
    for k in range(4):
        assert determinise(state, 1, deck.SplitMix64(k)) == determinise(swapped, 1, deck.SplitMix64(k))
    assert SearchPolicy(2).choose(Game(state), 1, deck.SplitMix64(3)) == SearchPolicy(2).choose(
        Game(swapped), 1, deck.SplitMix64(3))


def test_the_candidates_are_legal_and_the_choice_is_one_of_them():
    game = _position(5, 3, 1)
    options = candidates(game, 2)
    assert options and all(a.seat == 2 for option in options for a in option)
    assert len({(o[0].use, o[0].card.name) for o in options}) == len(options)
    assert sum(o[0].use == "stage" for o in options) <= 1 and sum(o[0].use == "sell" for o in options) == 1
    chosen = SearchPolicy(2).choose(game, 2, deck.SplitMix64(1))
    assert any(chosen in option for option in options)


def test_search_beats_random_clearly():
    """One search seat (2 playouts a candidate) against three random bots in 4-player games: equal strength
    would win a quarter; the search wins most of them."""
    won = 0.0
    games = 8
    for k in range(games):
        seat = k % 4 + 1
        bots = ["random"] * 4
        bots[seat - 1] = "search"
        record = play_game(4, 300 + k, seats=bots, playouts=2)
        winners = [r.seat for r in record.results if r.rank == 1]
        won += 1 / len(winners) if seat in winners else 0.0
    assert won / games >= 0.75


def test_generate_plays_the_search_bot_with_its_budget():
    from cli_helpers import run

    text = run("generate", "-p", "3", "-s", "9", "--bot", "search", "--playouts", "1").stdout
    assert '[Event "wnotation bot game (search)"]' in text
    assert run("check", "-", input=text).exit_code == 0
    assert text == run("generate", "-p", "3", "-s", "9", "--bot", "search", "--playouts", "1").stdout
    assert "--bot search" in run("generate", "-p", "3", "-s", "9", "--playouts", "4", code=2).stderr


def _v10() -> tuple[str, list[list[str]]]:
    """spec/deal.md's V10: its prose line and its table rows (Age, turn, each seat's play)."""
    text = (Path(__file__).resolve().parent.parent / "spec" / "deal.md").read_text(encoding="utf-8")
    section = text.split("### V10. Search bot: 3 players, seed 21, 8 playouts", 1)[1].split("\n#", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| I")]
    return section, rows


def test_the_search_bots_stream_reproduces_the_spec_vector():
    """spec/deal.md 10.1, V10: a default ``--bot search`` game of 3 players from seed 21 opens with the plays the
    spec lists, and seat 1's first search draws its base from the play generator SplitMix64(21)."""
    section, rows = _v10()
    assert len(rows) == 3
    game = play_game(3, 21, "search")
    for (age, number, *plays), turn in zip(rows, game.turns):
        assert (age, int(number)) == ("I", turn.number) and turn.age == 1
        assert plays == [f"{a.use} {a.card}" for a in turn.actions]
        assert all(a.purchase is None for a in turn.actions)
    assert "Olympia (day), Ephesos (night), Gizah (day)" in section
    assert [(s.wonder, s.side) for s in game.seats] == [("Olympia", "day"), ("Ephesos", "night"), ("Gizah", "day")]
    # seat 1 searches (7 candidates) and draws its base first; its play has one purchase, so seat 2's base is
    # G's next draw, and seat 3's the one after: nothing else draws from G in between (10, 10.1)
    assert len(candidates(_position(3, 21, 0), 1)) == 7
    g = deck.SplitMix64(21)
    bases = [g.next() for _ in range(3)]
    assert f"base = {bases[0]}" in section
    assert f"base =\n{bases[1]} and {bases[2]}" in section
