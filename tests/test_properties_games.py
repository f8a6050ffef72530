"""Properties of whole bot-played games (issue 6, item 4), beyond what ``test_bot.py`` checks at the game's end.

``test_bot.py`` checks the final position (no findings, conservation of cards and coins, military bounds, a fold
from the start). Here every property holds at **every** position, through **every** route: text, JSON, a
second replay, a replay of a prefix, a fold from a stored position; and the legal-action lister agrees with the
turn resolver on both sides (what it lists resolves without a finding, what it leaves out does not).
Three oracles restate rules of ``rules-2e.md`` independently of the engine's code, so that a rule that the bot and
the replay get wrong *together* still fails here: where each hand came from (R-PASS), which builds are free
(R-CHAIN) and what each bought unit costs (R-PRICE).
Games: Hypothesis draws the player count (3..7), the seed (any 64-bit value) and the bot (random, greedy).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wnotation.model import deck
from wnotation.model.catalog import AGE_NUMERALS, PlayLastCard, TradeDiscount, load
from wnotation.engine import Play, events as ev, replay, seats_to_act
from wnotation.engine.bot import play_game
from wnotation.engine.legal import legal_actions
from wnotation.engine.rules import VICTORY, DEFEAT, step_turn
from wnotation.engine.state import fold
from wnotation.notation import from_json, parse, read_games, to_json, write, write_games
from wnotation.model.record import Record

GAMES = st.tuples(st.integers(3, 7), st.integers(0, 2**64 - 1), st.sampled_from(["random", "greedy"]))
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=64)
def game(players: int, seed: int, bot: str) -> Record:
    return play_game(players, seed, bot)


@lru_cache(maxsize=64)
def replayed(players: int, seed: int, bot: str):
    return replay(game(players, seed, bot))


def between(r, address: str) -> tuple:
    """The events folded to reach ``address`` (a prefix of ``r.events``)."""
    return r.events[: r.marks[address]]


# --- determinism and the two routes ---------------------------------------------------------------------------


@SETTINGS
@given(GAMES)
def test_replaying_twice_and_through_text_gives_the_same_game(g):
    record = game(*g)
    first, second = replay(record), replay(record)
    text_route = replay(parse(write(record), source="<bot>"))
    assert first.findings == ()
    for other in (second, text_route):
        assert other.findings == first.findings
        assert other.events == first.events
        assert other.addresses == first.addresses
        assert other.positions == first.positions
        assert other.marks == first.marks
        assert other.scores == first.scores


@SETTINGS
@given(GAMES)
def test_text_and_json_round_trips_of_bot_games(g):
    record = game(*g)
    text = write(record)
    back = parse(text)
    assert back == record
    assert write(back) == text  # parse -> write is a fixed point on canonical text
    assert from_json(to_json(record)) == record
    assert from_json(to_json(back)) == record
    assert from_json(to_json(record, indent=None)) == record


@settings(max_examples=5, deadline=None)
@given(st.lists(GAMES, min_size=2, max_size=4))
def test_a_stream_of_bot_games_reads_back_game_by_game(gs):
    records = [game(*g) for g in gs]
    assert list(read_games(write_games(records))) == records


# --- conservation at every position ---------------------------------------------------------------------------


@SETTINGS
@given(GAMES)
def test_R_DECK__every_dealt_card_is_in_exactly_one_place_at_every_position(g):
    players, seed, _ = g
    r = replayed(*g)
    dealt = deck.deal(players, seed)
    for address, s in r:
        ages = s.age
        expected = Counter(c.key for age in dealt.hands[:ages] for hand in age for c in hand)
        places = Counter()
        for c in s.cities:
            places.update(b.key for b in c.buildings)
            places.update(b.key for b in c.staged)
        places.update(c.key for c in s.discard)
        places.update(c.key for h in s.hands for c in h)
        assert None not in s.discard and all(None not in h for h in s.hands), address
        assert places == expected, address
        if s.ended:
            assert not any(s.hands), address  # never a card in hand once an Age is over
        elif s.turn < 6:
            assert [len(h) for h in s.hands] == [7 - s.turn] * players, address
        elif s.turn == 6:  # only a seat keeping its last card (R-BABYLON-N1) holds one
            for c, h in zip(s.cities, s.hands):
                assert len(h) == (1 if PlayLastCard in c.powers else 0), address
    assert r.final.finished and sum(places.values()) == 21 * players


@SETTINGS
@given(GAMES)
def test_coins_are_conserved_at_every_position_and_trade_only_between_neighbours(g):
    players, _, _ = g
    r = replayed(*g)
    ledger = [3] * players
    bank_in = bank_out = 0
    done = 0
    for address, s in r:
        for e in r.events[done : r.marks[address]]:
            if isinstance(e, ev.CoinsGained):
                assert e.amount > 0 and e.reason in ("sale", "card", "stage")
                if e.reason == "sale":
                    assert e.amount == 3
                ledger[e.seat - 1] += e.amount
                bank_out += e.amount
            elif isinstance(e, ev.CoinsPaid):
                assert e.amount > 0
                ledger[e.seat - 1] -= e.amount
                if e.to is None:
                    bank_in += e.amount
                else:
                    assert e.to in (s.left(e.seat), s.right(e.seat)) and e.to != e.seat
                    ledger[e.to - 1] += e.amount  # a trade moves coins, it neither makes nor burns them
        done = r.marks[address]
        coins = [c.coins for c in s.cities]
        assert coins == ledger, address
        assert sum(coins) == 3 * players + bank_out - bank_in, address
        assert min(coins) >= 0, address
    assert [ln.coins for ln in r.scores.lines] == ledger


@SETTINGS
@given(GAMES)
def test_R_MILITARY__tokens_pair_up_follow_shields_and_stay_in_bounds(g):
    r = replayed(*g)
    for age in (1, 2, 3):
        numeral = AGE_NUMERALS[age]
        end = r.position(f"{numeral}.end")
        conflicts = [e for e in r.events[r.marks[f"{numeral}.0"] : r.marks[f"{numeral}.end"]]
                     if isinstance(e, ev.ConflictResolved)]
        shields = {c.seat: c.shields for c in end.cities}  # military comes last: after the picks (R-HALI-LAST)
        seen = {(e.seat, e.opponent): e.token for e in conflicts}
        assert len(seen) == len(conflicts)
        for c in end.cities:
            for other in {end.left(c.seat), end.right(c.seat)}:
                mine, theirs = shields[c.seat], shields[other]
                want = VICTORY[age - 1] if mine > theirs else DEFEAT if mine < theirs else None
                assert seen.get((c.seat, other)) == want
        for (seat, opp), token in seen.items():
            assert seen[(opp, seat)] == (DEFEAT if token > 0 else VICTORY[age - 1])
        for c in end.cities:
            assert 2 * DEFEAT * age <= c.military <= sum(2 * v for v in VICTORY[:age])
            assert -6 <= c.military <= 18
    assert [ln.military for ln in r.scores.lines] == [c.military for c in r.final.cities]


# --- a fold equals stepping from a stored position ------------------------------------------------------------


@SETTINGS
@given(GAMES, st.data())
def test_replay_of_a_prefix_gives_the_same_positions(g, data):
    record = game(*g)
    full = replayed(*g)
    cut = data.draw(st.integers(1, len(record.turns)), label="turns kept")
    prefix = replay(record.model_copy(update={"turns": record.turns[:cut], "results": ()}))
    assert prefix.findings == ()
    assert prefix.addresses == full.addresses[: len(prefix.addresses)]
    for address, s in prefix:
        assert s == full.position(address)
    assert prefix.events == full.events[: len(prefix.events)]
    assert record.turns[cut - 1].label in prefix.positions
    assert prefix.complete == (cut == len(record.turns))


@SETTINGS
@given(GAMES, st.data())
def test_folding_from_a_stored_position_reaches_every_later_position(g, data):
    r = replayed(*g)
    k = data.draw(st.integers(0, len(r) - 1), label="from")
    start = r.addresses[k]
    for address in r.addresses[k:]:
        assert fold(r.position(start), r.events[r.marks[start] : r.marks[address]]) == r.position(address)


# --- legal actions and the turn resolver agree ---------------------------------------------------------------


def _plays(record: Record, state, label: str) -> dict[int, Play]:
    """The recorded plays of turn ``label`` as engine plays (cards looked up in the turn's Age)."""
    turn = next(t for t in record.turns if t.label == label)
    catalog = load()
    out = {}
    for a in turn.actions:
        card = catalog.card(a.card, turn.age)
        discard = (catalog.card(a.discard, turn.age),) if a.discard is not None else ()
        purchase = None if a.purchase is None else (a.purchase.left, a.purchase.right)
        out[a.seat] = Play(a.seat, a.use, card, purchase, discard)
    return out


def _with(plays: dict[int, Play], state, seat: int, use: str, card, purchase) -> list[Play]:
    discard = ()
    if state.turn + 1 == 6:  # state the other card as the discard (always legal, even for Babylon)
        rest = list(state.hands[seat - 1])
        rest.remove(card)
        discard = (rest[0],)
    changed = dict(plays)
    changed[seat] = Play(seat, use, card, purchase, discard)
    return [changed[k] for k in sorted(changed)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES, st.data())
def test_legal_actions_agree_with_the_turn_resolver(g, data):
    """Every listed action resolves without a finding; every card of the hand not listed as a build (or as a
    stage) is refused by the resolver, with a finding for that seat."""
    record = game(*g)
    r = replayed(*g)
    playable = [a for a in r.addresses if seats_to_act(r.position(a))]
    address = data.draw(st.sampled_from(playable), label="position")
    state = r.position(address)
    seat = data.draw(st.sampled_from(seats_to_act(state)), label="seat")
    label = f"{AGE_NUMERALS[state.age]}.{state.turn + 1}"
    plays = _plays(record, state, label)
    options = legal_actions(state, seat)
    assert options and all(a.seat == seat for a in options)
    for a in options:
        purchase = None if a.default else (a.purchase.left, a.purchase.right)
        _, found, _ = step_turn(state, _with(plays, state, seat, a.use, a.card, purchase))
        assert found == (), (address, str(a), found)
    city = state.cities[seat - 1]
    for use in ("build", "stage"):
        listed = {a.card.key for a in options if a.use == use}
        for card in set(state.hands[seat - 1]):
            if card.key in listed:
                continue
            _, found, _ = step_turn(state, _with(plays, state, seat, use, card, None))
            assert [f.seat for f in found if f.severity == "error"] == [seat], (address, use, card, found)
            if use == "build" and card.name in city.names:
                assert found[0].rule == "R-UNIQUE"
            if use == "stage" and city.stages == len(city.wonder.stages):
                assert found[0].rule == "R-STAGE"


# --- oracles: rules restated from the reference, independently of the engine's code --------------------------


def _price(city, side: str, resource: str) -> int:
    """R-PRICE from the reference: 2 coins a unit, 1 where a built card or stage discounts that side and unit."""
    effects = [e for b in city.buildings for e in b.effects]
    effects += [e for st in city.wonder.stages[: city.stages] for e in st.effects]
    cheaper = [e.price for e in effects if isinstance(e, TradeDiscount) and side in e.neighbours
               and resource in e.resources]
    return min([2, *cheaper])


@SETTINGS
@given(GAMES)
def test_oracles_R_PASS_R_CHAIN_R_PRICE_at_every_position(g):
    players, seed, _ = g
    r = replayed(*g)
    dealt = deck.deal(players, seed)
    for address, s in r:
        if s.ended:
            continue
        # R-PASS: after t passes, seat i holds what remains of the hand dealt to seat i-t (left, Ages I and III)
        # or i+t (right, Age II); turn 6 and the extra turn pass nothing more.
        passes = min(s.turn, 5)
        step = 1 if s.age == 2 else -1
        for seat in range(1, players + 1):
            origin = (seat - 1 + step * passes) % players
            held = Counter(c.key for c in s.hands[seat - 1])
            assert not held - Counter(c.key for c in dealt.hands[s.age - 1][origin]), (address, seat)
        for seat in seats_to_act(s):
            city = s.cities[seat - 1]
            options = legal_actions(s, seat)
            for card in set(s.hands[seat - 1]):
                chained = card.name not in city.names and not city.names.isdisjoint(card.chain_from)
                builds = [a for a in options if a.use == "build" and a.card is card and not a.keeps]
                if chained:  # R-CHAIN: free, no coins, no purchase
                    assert len(builds) == 1 and builds[0].free and builds[0].coins == 0, (address, seat, card)
            for a in options:
                if a.free:
                    assert a.coins == 0 and not a.purchase.units
                    continue
                if a.use == "sell":
                    continue
                fee = a.card.cost.coins if a.use == "build" else city.wonder.stages[city.stages].cost.coins
                bought = sum(_price(city, side, u) for side in ("left", "right") for u in getattr(a.purchase, side))
                assert a.coins == fee + bought, (address, str(a))
                assert a.purchase.left_coins == sum(_price(city, "left", u) for u in a.purchase.left)
