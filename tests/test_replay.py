"""Replaying Records: positions, deals (stated, seeded, rebuilt), expected results, and a hand-worked game."""

import re
from pathlib import Path

import pytest

from wnotation.model import deck
from wnotation.engine import replay
from wnotation.engine import events as ev
from wnotation.engine.bot import play_game
from wnotation.model.record import Action, Deal, Pick, Purchase, Record, Seat, SeatResult, Seed, Span, Turn

NUMERALS = {"I": 1, "II": 2, "III": 3}


def action(seat: int, text: str, line: int = 0) -> Action:
    """``build Stone Pit``, ``sell ? / Theater`` (turn-6 discard), ``stage ? +pick Altar``, ``… [L clay R ore]``."""
    pick = purchase = discard = None
    if " +pick " in text:
        text, name = text.split(" +pick ")
        pick = Pick(card=None if name == "-" else name)
    m = re.search(r" \[(.*)\]$", text)
    if m:
        text = text[: m.start()]
        sides = {"L": [], "R": []}
        side = "L"
        for word in m.group(1).split():
            if word in sides:
                side = word
            else:
                sides[side].append(word)
        purchase = Purchase(left=tuple(sides["L"]), right=tuple(sides["R"]))
    if " / " in text:
        text, discard = text.split(" / ")
    use, card = text.split(" ", 1)
    return Action(seat=seat, use=use, card=card, purchase=purchase, discard=discard, pick=pick,
                  span=Span(line=line, column=seat) if line else None)


def game(seats, turns, **kw) -> Record:
    """``turns``: ``{"I.1": ["build Stone Pit", …], "I.7": [None, …, "sell ?"]}`` (one entry per seat)."""
    built = []
    for line, (label, texts) in enumerate(turns.items(), 1):
        age, number = label.split(".")
        built.append(Turn(age=NUMERALS[age], number=int(number),
                          actions=tuple(action(k + 1, t, line) for k, t in enumerate(texts) if t)))
    return Record(seats=tuple(Seat(name=n, wonder=w, side=s) for n, w, s in seats), turns=tuple(built), **kw)


SEATS = [("Ann", "Babylon", "night"), ("Ben", "Halikarnassos", "night"), ("Cat", "Gizah", "day")]
GUILDS = ("Scientists Guild", "Builders Guild", "Decorators Guild", "Traders Guild", "Spies Guild")

# A complete 3-player game worked out by hand (coins, purchases and the score sheet), covering Babylon Night's
# extra turn, every Halikarnassos Night pick (one after Babylon's extra turn, R-HALI-LAST), chains, Vineyard
# with a same-turn neighbour Building, Arena, the Scientists and Decorators guilds, and the canonical
# purchase tie-break (fewer coins to the left neighbour).
HAND_WORKED = {
    "I.1": ["build Stone Pit", "build Clay Pool", "build Lumber Yard"],
    "I.2": ["build Ore Vein", "build Clay Pit", "build Guard Tower"],        # Cat buys clay from Ben
    "I.3": ["stage ?", "stage ? +pick Altar", "sell Altar"],                # Ann buys stone from Cat
    "I.4": ["sell ?", "build Press", "build Barracks"],                      # Cat: ore from Ben (tie-break)
    "I.5": ["build Stockade", "build Glassworks", "sell ?"],
    "I.6": ["build Scriptorium", "stage ? / Theater +pick Marketplace", "sell ? / ?"],
    "I.7": ["sell Marketplace", None, None],                                 # Babylon's extra turn
    "II.1": ["build Library", "build Vineyard", "build Sawmill"],           # Vineyard: 2 + 2 + 2 brown
    "II.2": ["sell ?", "stage ? +pick Theater", "sell ?"],                  # 3 wood: 2 left, 1 right
    "II.3": ["build Courthouse", "sell ?", "build Stables"],
    "II.4": ["sell ?", "build Temple", "sell ?"],
    "II.5": ["sell ?", "sell ?", "sell ?"],
    "II.6": ["build Dispensary", "sell ? / ?", "sell ? / ?"],
    "II.7": ["sell ?", None, None],
    "III.1": ["build Senate", "build Pantheon", "stage ?"],
    "III.2": ["build University", "build Decorators Guild", "stage ?"],
    "III.3": ["sell ?", "sell ?", "build Arena"],
    "III.4": ["build Scientists Guild", "sell ?", "sell ?"],
    "III.5": ["sell ?", "sell ?", "sell ?"],
    "III.6": ["sell ?", "sell ? / ?", "sell ? / ?"],
    "III.7": ["sell ?", None, None],
}
# seat: military, treasury, wonder, civilian, commercial, guilds, science, total, coins, rank
SHEET = {
    1: (6, 9, 0, 10, 0, 0, 18, 43, 29, 1),   # science: 3 tablets, 1 compass, "any" as a gear: 9+1+1+7
    2: (-6, 14, 3, 17, 0, 7, 0, 35, 43, 3),  # Decorators: all 3 Night stages built
    3: (18, 9, 8, 0, 2, 0, 0, 37, 28, 2),    # Arena: 1 point per stage
}
FIELDS = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total", "coins", "rank")


def hand_worked(**kw) -> Record:
    results = tuple(SeatResult(seat=s, span=Span(line=100 + s, column=1), **dict(zip(FIELDS, v)))
                    for s, v in SHEET.items())
    return game(SEATS, HAND_WORKED, guilds=GUILDS, results=kw.pop("results", results), **kw)


def test_hand_worked_three_player_game_R_SCORE():
    r = replay(hand_worked())
    assert [str(f) for f in r.findings] == []
    assert r.complete
    for line in r.scores.lines:
        assert tuple(getattr(line, f) for f in FIELDS) == SHEET[line.seat]


def test_hand_worked_positions_and_coins():
    r = replay(hand_worked())
    assert r.addresses[:10] == ("I.0", "I.1", "I.2", "I.3", "I.4", "I.5", "I.6", "I.7", "I.end", "II.0")
    assert r.addresses[-1] == "III.end" and len(r) == 3 * 9
    assert [c.coins for c in r.position("I.end").cities] == [5, 8, 10]
    assert [c.coins for c in r.position("II.end").cities] == [17, 23, 21]
    assert [c.tokens for c in r.position("I.end").cities] == [(1, -1), (-1, -1), (1, 1)]
    # Halikarnassos' turn-6 pick happens after Babylon's extra turn (R-HALI-LAST)
    assert "Marketplace" not in r.position("I.7").cities[1].names
    assert "Marketplace" in r.position("I.end").cities[1].names
    assert r.position("I.3").cities[1].names >= {"Altar"}
    with pytest.raises(KeyError, match="II.9"):
        r.position("II.9")


def test_R_SCORE__a_wrong_expected_result_is_reported_with_its_span():
    results = (SeatResult(seat=1, military=5, total=43, span=Span(line=7, column=3)), SeatResult(seat=3, rank=2))
    r = replay(hand_worked(results=results))
    assert [str(f) for f in r.findings] == ["III.end expected military 5 for Ann, computed 6 [R-SCORE]"]
    assert r.findings[0].span == Span(line=7, column=3) and r.findings[0].seat == 1


def test_R_SCORE__results_stated_on_a_record_that_stops_early_are_an_error():
    """R-SCORE: results claim a finished game; a record that stops before III.6 (or a last III.7) is an error at
    the results (it was a warning), and a record without results may stop anywhere."""
    for cut in ("I.7", "III.6", "III.7"):
        turns = {k: v for k, v in HAND_WORKED.items() if list(HAND_WORKED).index(k) <= list(HAND_WORKED).index(cut)}
        if cut == "III.7":
            del turns["III.7"]
        result = SeatResult(seat=1, total=1, span=Span(line=99, column=1))
        r = replay(game(SEATS, turns, guilds=GUILDS, results=(result,)))
        assert r.scores is None
        assert [(f.rule, f.severity, f.address, f.span) for f in r.findings] == [
            ("R-SCORE", "error", "game", result.span)]
        assert "stops at" in r.findings[0].message
        assert replay(game(SEATS, turns, guilds=GUILDS)).findings == ()


def test_the_start_of_the_next_age_exists_once_an_age_is_complete():
    """``II.0``/``III.0`` are positions as soon as the previous Age has ended (turns, Babylon's extra turn, picks,
    military), before any turn of the new Age is written (before, they appeared only with that Age's first turn)."""
    age_one = {k: v for k, v in HAND_WORKED.items() if k.startswith("I.")}
    r = replay(game(SEATS, age_one, guilds=GUILDS))
    assert r.findings == () and r.addresses[-3:] == ("I.7", "I.end", "II.0")
    start = r.position("II.0")
    assert (start.age, start.turn, start.ended) == (2, 0, False)
    assert start.cities == r.position("I.end").cities and all(len(h) == 7 for h in start.hands)
    full = replay(hand_worked())
    assert start.cities == full.position("II.0").cities
    ages = {k: v for k, v in HAND_WORKED.items() if not k.startswith("III.")}
    assert replay(game(SEATS, ages, guilds=GUILDS)).addresses[-2:] == ("II.end", "III.0")
    # an Age that is not complete gives no next position: Babylon's kept card is not played yet
    no_extra = {k: v for k, v in age_one.items() if k != "I.7"}
    assert replay(game(SEATS, no_extra, guilds=GUILDS)).addresses[-1] == "I.6"


def test_R_DECK__rebuilt_hands_beyond_the_deck_are_reported():
    turns = dict(HAND_WORKED)
    turns["I.5"] = ["build Stockade", "build Glassworks", "build Stone Pit"]  # a second Stone Pit in 3p
    r = replay(game(SEATS, turns, guilds=GUILDS))
    rules = [(f.rule, f.address, f.seat) for f in r.findings]
    assert ("R-DECK", "I.5", 3) in rules
    assert "holds 1 copy, this is copy 2" in r.findings[0].message


def test_R_DECK__rebuilt_hands_follow_the_passing_route():
    r = replay(hand_worked())
    dealt = r.position("I.0").hands
    # hand 1 (Ann's): Stone Pit (I.1, Ann), Clay Pit (I.2, Ben), Altar (I.3, Cat), ? (I.4, Ann), Glassworks …
    assert [None if c is None else c.name for c in dealt[0]] == [
        "Stone Pit", "Clay Pit", "Altar", None, "Glassworks", None, None]
    # hand 1 of Age II passes right: II.1 Ann, II.2 Cat, II.3 Ben …
    assert [None if c is None else c.name for c in r.position("II.0").hands[0]][:3] == ["Library", None, None]


def test_R_DECK__explicit_and_seeded_deals_are_checked_against_the_actions():
    rec = play_game(3, 5, "greedy")
    r = replay(rec)
    assert r.findings == ()
    hands = deck.deal(3, 5).hands
    deals = tuple(Deal(age=a + 1, hands=tuple(tuple(c.name for c in h) for h in hands[a])) for a in range(3))
    written = rec.model_copy(update={"deals": deals, "seed": None})
    assert replay(written).findings == ()
    assert replay(written).events == r.events
    # swap two seats' deals in Age I: the plays no longer come from the hands
    bad = list(deals)
    bad[0] = Deal(age=1, hands=(deals[0].hands[1], deals[0].hands[0], deals[0].hands[2]))
    found = replay(written.model_copy(update={"deals": tuple(bad)})).findings
    assert found and {f.rule for f in found} <= {"R-DECK", "R-PASS", "R-TRADE", "R-COST-COINS", "R-UNIQUE",
                                                "R-STAGE", "R-PRODUCE", "R-TRADE-MINIMAL", "R-SCORE", "R-LAST"}
    assert found[0].rule in ("R-DECK", "R-PASS") and found[0].address == "I.1"
    # a seed with another algorithm is noted and not used
    other = rec.model_copy(update={"seed": Seed(algorithm="XYZ", value=5)})
    assert [f.severity for f in replay(other).findings] == ["note"]


def test_R_DECK__a_card_name_from_another_age_is_reported():
    turns = dict(HAND_WORKED)
    turns["II.5"] = ["sell ?", "sell Stone Pit", "sell ?"]
    r = replay(game(SEATS, turns, guilds=GUILDS))
    assert [(f.rule, f.address) for f in r.findings] == [("R-DECK", "II.5")]
    assert "not an Age II card" in r.findings[0].message


def test_R_TURN__a_missing_turn_stops_the_replay_with_a_finding():
    turns = {k: v for k, v in HAND_WORKED.items() if k != "I.4"}
    r = replay(game(SEATS, turns, guilds=GUILDS))
    assert [(f.rule, f.address) for f in r.findings] == [("R-TURN", "I.4")]
    assert r.addresses[-1] == "I.3" and r.scores is None


def test_R_BABYLON_N1__a_missing_extra_turn_discards_the_kept_card():
    turns = {k: v for k, v in HAND_WORKED.items() if k != "I.7"}
    turns["I.6"] = ["build Scriptorium", "stage ? / Theater +pick -", "sell ? / ?"]
    r = replay(game(SEATS, turns, guilds=GUILDS))
    assert ("R-BABYLON-N1", "I.7") in [(f.rule, f.address) for f in r.findings]
    assert "I.7" in r.addresses


def test_R_HALI__a_pick_without_the_stage_is_ignored():
    turns = dict(HAND_WORKED)
    turns["I.4"] = ["sell ?", "build Press +pick Altar", "build Barracks"]
    r = replay(game(SEATS, turns, guilds=GUILDS))
    assert ("R-HALI", "I.4") in [(f.rule, f.address) for f in r.findings]


def test_R_HALI__a_pick_on_an_extra_turn_action_is_reported_and_the_owed_pick_still_made():
    turns = dict(HAND_WORKED)
    turns["I.7"] = ["sell Marketplace +pick Altar", None, None]  # Babylon is owed no pick
    r = replay(game(SEATS, turns, guilds=GUILDS))
    [f] = r.findings
    assert (f.rule, f.address, f.seat, f.severity, f.span.line) == ("R-HALI", "I.7", 1, "error", 7)
    assert "Marketplace" in r.position("I.end").cities[1].names  # Ben's turn-6 pick (R-HALI-LAST) is unchanged


def test_R_HALI__an_unstated_pick_is_warned_at_the_stage_action():
    turns = dict(HAND_WORKED)
    turns["I.3"] = ["stage ?", "stage ?", "sell Altar"]  # Ben's stage earns a pick; the record writes none
    r = replay(game(SEATS, turns, guilds=GUILDS))
    [f] = [f for f in r.findings if f.rule == "R-HALI"]
    assert (f.address, f.seat, f.severity, f.span.line, f.span.column) == ("I.3", 2, "warning", 3, 2)


def test_findings_carry_the_action_span_and_read_like_the_issue():
    turns = dict(HAND_WORKED)
    turns["II.4"] = ["sell ?", "build Temple [L wood R wood]", "sell ?"]
    r = replay(game(SEATS, turns, guilds=GUILDS))
    f = r.findings[0]
    assert (f.rule, f.address, f.seat, f.span.line) == ("R-TRADE-MINIMAL", "II.4", 2, 11)
    assert str(f).startswith("II.4 Ben cannot build Temple: buying wood from")


def test_replay_is_deterministic_and_positions_share_structure():
    a, b = replay(hand_worked()), replay(hand_worked())
    assert a.events == b.events and a.scores == b.scores and list(a) == list(b)
    one, two = a.position("II.3"), a.position("II.4")
    assert one.cities[0].buildings is two.cities[0].buildings or one.cities[0].buildings == \
        two.cities[0].buildings
    assert one.table is two.table
    unchanged = [k for k in range(3) if one.cities[k].buildings == two.cities[k].buildings]
    assert all(one.cities[k].buildings is two.cities[k].buildings for k in unchanged)


def test_replay_events_name_every_fact_of_a_turn():
    r = replay(hand_worked())
    events = r.events[r.marks["I.1"]: r.marks["I.2"]]
    assert ev.CoinsPaid(3, 2, 2) in events and ev.CoinsPaid(2, None, 1) in events
    assert events[-1] == ev.TurnResolved(1, 2) and ev.HandsPassed(ev.LEFT) in events


def test_R_DECK__unknown_guilds_get_one_note_and_missing_actions_the_turn_span():
    turns = dict(HAND_WORKED)
    turns["II.5"] = ["sell ?", "sell ?", None]
    rec = game(SEATS, turns)
    rec = rec.model_copy(update={"turns": tuple(t if t.label != "II.5" else t.model_copy(
        update={"span": Span(line=55, column=1)}) for t in rec.turns)})
    found = replay(rec).findings
    assert [(f.rule, f.severity, f.address) for f in found] == [("R-TURN", "error", "II.5"),
                                                               ("R-DECK", "note", "III.0")]
    assert found[0].span == Span(line=55, column=1)


def _fill(plan: dict[str, str], players: int, seat: int = 1) -> dict[str, list]:
    """Every seat but ``seat`` sells an unseen card (with an unseen discard on turn 6); ``seat`` plays ``plan``."""
    turns = {}
    for age in ("I", "II", "III"):
        for t in range(1, 7):
            label = f"{age}.{t}"
            other = "sell ? / ?" if t == 6 else "sell ?"
            row = [other] * players
            row[seat - 1] = plan.get(label, other)
            turns[label] = row
    return turns


# 5 players, hand-worked: Olympia Night frees the first card of Ages II and III (R-OLYMPIA-N1, stage built in
# Age I) and the turn-6 card of every Age from the stage's own Age (R-OLYMPIA-N2); a shared place (R-WIN).
OLYMPIA_NIGHT = {
    "I.1": "build Ore Vein", "I.2": "stage ?",  # 2 ore: Ore Vein + Rhodos' ore (2 coins to the left)
    "I.3": "build Clay Pool", "I.4": "build Clay Pit",  # 1 coin
    "I.5": "stage ?",  # 3 clay: start, Clay Pool, Clay Pit
    "I.6": "build Workshop / ?",  # free on turn 6: nobody next door sells glass
    "II.1": "build Statue",  # free on turn 1 of a later Age
    "II.6": "build Dispensary / ?",
    "III.1": "build Palace",
    "III.6": "build Scientists Guild / ?",
}
FIVE = [("Oli", "Olympia", "night"), ("Rho", "Rhodos", "night"), ("Eph", "Ephesos", "day"),
        ("Ale", "Alexandria", "day"), ("Giz", "Gizah", "night")]
FIVE_GUILDS = ("Scientists Guild", "Builders Guild", "Decorators Guild", "Traders Guild", "Spies Guild",
               "Magistrates Guild", "Workers Guild")
FIVE_SHEET = {  # military, treasury, wonder, civilian, commercial, guilds, science, total, coins, rank
    1: (0, 8, 5, 12, 0, 0, 10, 35, 24, 1),  # science: gear, compass, "any" as a tablet = 1+1+1+7
    2: (0, 19, 0, 0, 0, 0, 0, 19, 59, 2),  # 18 sales and 2 coins of trade
    3: (0, 19, 0, 0, 0, 0, 0, 19, 57, 3),
    4: (0, 19, 0, 0, 0, 0, 0, 19, 57, 3),
    5: (0, 19, 0, 0, 0, 0, 0, 19, 57, 3),
}

# 7 players, hand-worked: Olympia Day builds the first card of each colour for free (R-OLYMPIA-D2) but pays for
# a second red card; the Decorators Guild scores with all three stages; shared places at 2 and 6.
OLYMPIA_DAY = {
    "I.1": "build Lumber Yard", "I.2": "build Stone Pit", "I.3": "build Timber Yard",  # 1 coin
    "I.4": "stage ?", "I.5": "stage ?",  # 2 stone, then 2 wood, all own
    "I.6": "build Barracks / ?",  # first red: free
    "II.1": "build Temple", "II.2": "build Caravansery", "II.3": "build Laboratory", "II.4": "build Glassworks",
    "II.5": "build Walls",  # second red: 3 stone paid from Stone Pit, Timber Yard and Caravansery
    "II.6": "build Brickyard / ?",  # second brown: 1 coin
    "III.1": "build Senate",  # own: wood, wood, stone, ore (Caravansery)
    "III.2": "build Decorators Guild",  # first purple: free
    "III.3": "stage ?",  # 3 clay: start and Brickyard
}
SEVEN = [("Oly", "Olympia", "day"), ("Ale", "Alexandria", "day"), ("Bab", "Babylon", "day"),
         ("Eph", "Ephesos", "night"), ("Giz", "Gizah", "day"), ("Hal", "Halikarnassos", "day"),
         ("Rho", "Rhodos", "day")]
SEVEN_GUILDS = ("Scientists Guild", "Builders Guild", "Decorators Guild", "Traders Guild", "Spies Guild",
                "Magistrates Guild", "Workers Guild", "Philosophers Guild", "Shipowners Guild")
SEVEN_SHEET = {
    1: (18, 3, 10, 10, 0, 7, 1, 49, 10, 1),  # 3 shields against 0 on both sides, every Age
    2: (-3, 19, 0, 0, 0, 0, 0, 16, 57, 6),
    3: (0, 19, 0, 0, 0, 0, 0, 19, 57, 2),
    4: (0, 19, 0, 0, 0, 0, 0, 19, 57, 2),
    5: (0, 19, 0, 0, 0, 0, 0, 19, 57, 2),
    6: (0, 19, 0, 0, 0, 0, 0, 19, 57, 2),
    7: (-3, 19, 0, 0, 0, 0, 0, 16, 57, 6),
}


@pytest.mark.parametrize("seats,plan,guilds,sheet", [
    (FIVE, OLYMPIA_NIGHT, FIVE_GUILDS, FIVE_SHEET), (SEVEN, OLYMPIA_DAY, SEVEN_GUILDS, SEVEN_SHEET)])
def test_hand_worked_olympia_games_R_OLYMPIA_N2(seats, plan, guilds, sheet):
    results = tuple(SeatResult(seat=s, **dict(zip(FIELDS, v))) for s, v in sheet.items())
    r = replay(game(seats, _fill(plan, len(seats)), guilds=guilds, results=results))
    assert [str(f) for f in r.findings] == []
    built = [e for e in r.events if isinstance(e, ev.CardBuilt) and e.seat == 1]
    free = {e.card.name for e in built if e.how == "power"}
    if seats is FIVE:
        assert free == {"Workshop", "Statue", "Dispensary", "Palace", "Scientists Guild"}
    else:
        assert free == {"Barracks", "Temple", "Caravansery", "Laboratory", "Glassworks", "Decorators Guild"}


def test_positions_are_read_only_and_steppable():
    r = replay(hand_worked())
    with pytest.raises(TypeError):
        r.positions["I.0"] = None
    assert r.step("I.6") == "I.7" and r.step("I.7") == "I.end" and r.step("I.end") == "II.0"
    assert r.step("I.0", -1) is None and r.step("III.end") is None


def test_score_at_a_position_is_provisional_and_hand_worked():
    """``score_at`` scores a position as if the game ended there. At I.end of the hand-worked game: Ann has
    tokens 1 and -1 (0), 5 coins (1), no stage points, a Scriptorium (1 tablet: 1), total 2; Ben tokens -1, -1
    (-2), 8 coins (2), Night stages 1 and 2 (2 + 1 points), Altar (3 civilian), total 6; Cat tokens 1, 1 (2),
    10 coins (3), total 5. Ranks by total: Ben, Cat, Ann."""
    r = replay(hand_worked())
    sheet = r.score_at("I.end")
    assert sheet.provisional
    rows = [(ln.military, ln.treasury, ln.wonder, ln.civilian, ln.commercial, ln.guilds, ln.science, ln.total,
             ln.coins, ln.rank) for ln in sheet.lines]
    assert rows == [(0, 1, 0, 0, 0, 0, 1, 2, 5, 3), (-2, 2, 3, 3, 0, 0, 0, 6, 8, 1), (2, 3, 0, 0, 0, 0, 0, 5, 10, 2)]
    # the start of Age II scores as the end of Age I: nothing happens in between
    assert r.score_at("II.0") == sheet
    # mid-Age: no military yet in Age I, coins and stages as they stand
    early = r.score_at("I.3")
    assert early.provisional and [ln.military for ln in early.lines] == [0, 0, 0]
    assert [ln.wonder for ln in early.lines] == [0, 2, 0]
    final = r.score_at("III.end")
    assert final == r.scores and not final.provisional
    with pytest.raises(KeyError, match="II.9"):
        r.score_at("II.9")


def test_score_at_every_address_of_an_unfinished_record_is_provisional():
    age_one = {k: v for k, v in HAND_WORKED.items() if k.startswith("I.")}
    r = replay(game(SEATS, age_one, guilds=GUILDS))
    assert r.scores is None
    assert all(r.score_at(a).provisional for a in r.addresses)


# --- snapshots against positions rebuilt from scratch ----------------------------------------------------------

REPLAYS = sorted((Path(__file__).resolve().parent.parent / "replays").glob("*.7wn"))


def _bundled():
    from wnotation.notation import read_games

    return [g for path in REPLAYS for g in read_games(path) if isinstance(g, Record)]


@pytest.fixture(scope="module")
def bundled():
    games = _bundled()
    assert len(games) >= 5
    return games


def test_snapshots_asked_in_any_order_equal_positions_rebuilt_from_scratch(bundled):
    """A snapshot is taken from the nearest earlier snapshot (or the start); asked backwards, forwards and at
    random, each equals the fold of every event from the start, and ``fold`` equals ``apply`` one event at a
    time (the reference semantics), on every bundled game."""
    import random

    from wnotation.engine.state import apply, fold

    rng = random.Random(11)
    for record in bundled:
        played = replay(record)
        if played.final is None:
            continue  # a score pad: nothing is dealt, no position
        start = played.positions.start  # the start of the game, or the position a record starts from
        assert start is not None
        addresses = list(played.marks)
        truth = {}
        state = start
        done = 0
        for a in addresses:
            for e in played.events[done:played.marks[a]]:
                state = apply(state, e)
            done = played.marks[a]
            truth[a] = state
            assert fold(start, played.events[:done]) == state
        for order in (addresses[::-1], rng.sample(addresses, len(addresses)), addresses):
            fresh = replay(record)
            for a in order:
                assert fresh.position(a) == truth[a], (record.seats, a)
