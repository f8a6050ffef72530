"""Score-pad records (7WN §9.1; engine/scorepad.py): the checks a pad without turns allows, each with a rule ID of
the reference (R-SCORE, R-SCORE-EXP, R-WIN, R-MILITARY), on Records built here and on generated pads."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wnotation.engine import replay
from wnotation.engine.scorepad import MILITARY, is_score_pad
from wnotation.engine.scoring import science_points
from wnotation.notation import from_json, parse, to_json, write
from wnotation.model.record import Action, Record, Seat, SeatResult, Turn
from wnotation.model.vocabulary import CATEGORIES, EXPANSION_CATEGORIES, EXPANSION_OF_CATEGORY, EXPANSIONS

SEATS = (Seat(name="Ann", wonder="Gizah", side="day"), Seat(name="Ben", wonder="Babylon", side="night"),
         Seat(name="Cat", wonder="Rhodos", side="day"))
BASE = {1: (13, 2, 15, 8, 0, 0, 2), 2: (8, 4, 0, 20, 0, 0, 26), 3: (-3, 5, 3, 30, 0, 0, 9)}
COINS = {1: 7, 2: 12, 3: 16}
RANKS = {1: 3, 2: 1, 3: 2}  # totals 40, 58, 44


def pad(changes: dict[int, dict[str, int | None]] | None = None, expansions: tuple[str, ...] = (),
        rows: dict[int, dict[str, int]] | None = None) -> Record:
    results = []
    for seat in (1, 2, 3):
        values: dict[str, int | None] = dict(zip(CATEGORIES, BASE[seat]))
        values |= (rows or {}).get(seat, {})
        values["total"] = sum(v for v in values.values() if v is not None)
        values |= {"coins": COINS[seat], "rank": RANKS[seat]}
        values |= (changes or {}).get(seat, {})
        results.append(SeatResult(seat=seat, **values))
    return Record(seats=SEATS, expansions=expansions, results=tuple(results))


def errors(record: Record) -> list[tuple[str, int | None]]:
    return [(f.rule, f.seat) for f in replay(record).findings if f.severity == "error"]


def test_R_SCORE__a_score_pad_whose_totals_are_the_sums_checks_clean_and_has_its_sheet():
    played = replay(pad())
    assert played.findings == () and played.events == () and len(played) == 0
    assert [(ln.total, ln.rank, ln.coins) for ln in played.scores.lines] == [(40, 3, 7), (58, 1, 12), (44, 2, 16)]
    assert played.scores.winners() == (2,) and played.scores.rows == CATEGORIES


def test_R_SCORE__a_total_that_is_not_the_sum_and_a_treasury_that_is_not_coins_over_3():
    assert errors(pad({1: {"total": 41}})) == [("R-SCORE", 1)]
    assert errors(pad({1: {"coins": 9}})) == [("R-SCORE", 1)]  # 9 coins: treasury 3, the pad says 2
    assert errors(pad({1: {"coins": 8}})) == []  # 8 coins: 2
    assert errors(pad({1: {"civilian": -1, "total": 31}})) == [("R-SCORE", 1)]  # a blue row is never negative


def test_R_SCORE__a_line_needs_a_total_or_every_category_and_every_seat_a_line():
    record = pad({1: {"total": None, "wonder": None}})
    assert ("R-SCORE", 1) in errors(record) and replay(record).scores is None
    short = Record(seats=SEATS, results=pad().results[:2])
    assert errors(short) == [("R-SCORE", None)]


def test_R_SCORE__science_follows_the_stated_symbols():
    ok = pad({1: {"tablets": 1, "compasses": 1, "gears": 0}})
    assert errors(ok) == []  # 1 + 1 + 0 = 2 points
    assert errors(pad({1: {"tablets": 1, "compasses": 1, "gears": 1}})) == [("R-SCORE", 1)]  # 3 + 7 = 10


@settings(deadline=None)  # the first example builds the engine's caches; the machine is shared
@given(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
def test_R_SCORE__stated_symbols_are_checked_against_the_squares_and_sets(t, c, g):
    science = t * t + c * c + g * g + 7 * min(t, c, g)
    assert science_points(t, c, g) == science
    base = dict(zip(CATEGORIES, BASE[1])) | {"science": science}
    line = SeatResult(seat=1, **base, tablets=t, compasses=c, gears=g)
    lines = (line,) + pad().results[1:]
    record = Record(seats=SEATS, results=lines)
    assert [f.rule for f in replay(record).findings if f.seat == 1 and "symbols" in f.message] == []
    wrong = Record(seats=SEATS, results=(line.model_copy(update={"science": science + 1}),) + lines[1:])
    assert any("symbols" in f.message for f in replay(wrong).findings)


def test_R_MILITARY__military_points_are_made_of_conflict_tokens():
    # Each Age, against each of two neighbours: a victory (1, 3, 5 by Age), a defeat (-1) or nothing.
    outcomes = [(w, -1, 0) for w in (1, 3, 5)]
    sums = {sum(p) for p in itertools.product(*[o for o in outcomes for _ in (0, 1)])}
    assert MILITARY == sums == set(range(-6, 19))
    assert errors(pad({1: {"military": 19, "total": 46, "rank": 2}, 3: {"rank": 3}})) == [("R-MILITARY", 1)]
    assert errors(pad({1: {"military": -7, "total": 20}})) == [("R-MILITARY", 1)]
    assert errors(pad({1: {"military": 18, "total": 45, "rank": 2}, 3: {"rank": 3}})) == []


def test_R_WIN__ranks_follow_totals_then_coins_else_shared():
    tie = {1: {"guilds": 18, "total": 58}}  # Ann 58 with 7 coins, Ben 58 with 12
    assert errors(pad(tie | {1: tie[1] | {"rank": 2}, 3: {"rank": 3}})) == []
    assert errors(pad({1: tie[1] | {"rank": 1}, 2: {"rank": 2}, 3: {"rank": 3}})) == [("R-WIN", 1), ("R-WIN", 2)]
    shared = {1: {"guilds": 18, "total": 58, "coins": 12, "treasury": 4, "rank": 1}}
    played = replay(pad({1: shared[1] | {"wonder": 13}, 3: {"rank": 3}}))
    assert [f for f in played.findings if f.severity == "error"] == []
    assert played.scores.winners() == (1, 2)
    assert errors(pad({1: {"rank": 2}})) == [("R-WIN", 1)]  # Cat's 44 beat Ann's 40


def test_R_WIN__the_treasury_row_breaks_a_tie_when_coins_are_not_stated():
    lines = (SeatResult(seat=1, treasury=3, total=40, rank=1), SeatResult(seat=2, treasury=2, total=40, rank=2),
             SeatResult(seat=3, total=34, rank=3))
    assert errors(Record(seats=SEATS, results=lines)) == []
    swapped = (lines[0].model_copy(update={"rank": 2}), lines[1].model_copy(update={"rank": 1}), lines[2])
    assert {r for r, _ in errors(Record(seats=SEATS, results=swapped))} == {"R-WIN"}
    unknown = (SeatResult(seat=1, total=40, rank=2), SeatResult(seat=2, total=40, rank=1), lines[2])
    assert errors(Record(seats=SEATS, results=unknown)) == []  # the pad cannot tell: either order may be true
    both_second = (unknown[0], unknown[1].model_copy(update={"rank": 2}), lines[2])
    assert errors(Record(seats=SEATS, results=both_second)) == [("R-WIN", 1)]  # one of them is first


def test_R_SCORE_EXP__expansion_rows_count_into_the_total_negative_ones_included():
    rows = {1: {"cities": -3, "leaders": 6}, 2: {"cities": 4, "leaders": 2}, 3: {"cities": 0, "leaders": 5}}
    record = pad(expansions=("Leaders", "Cities"), rows=rows)
    assert record.expansions == ("Cities", "Leaders")  # the score pad's order
    played = replay(record)
    assert errors(record) == [] and played.scores.rows == CATEGORIES + ("cities", "leaders")
    assert [ln.categories[-2:] for ln in played.scores.lines][0] == (("cities", -3), ("leaders", 6))
    # A -5 Debt token counted as -1: Ann's City cards give 2, so cities is -3, not 1; the total 47 is wrong.
    assert errors(pad({1: {"total": 47}}, ("Cities", "Leaders"), rows)) == [("R-SCORE-EXP", 1)]
    edifice = pad(expansions=("Edifice",), rows={1: {"edifice": -3}, 2: {"edifice": 0}, 3: {"edifice": 2}})
    assert errors(edifice) == [] and replay(edifice).scores.line(1).total == 37


def test_R_SCORE_EXP__a_row_of_an_expansion_not_named_and_a_record_with_turns_are_refused():
    rows = {1: {"armada": 1}, 2: {"armada": 0}, 3: {"armada": 0}}
    assert errors(pad(rows=rows)) == [("R-SCORE-EXP", 1), ("R-SCORE-EXP", 2), ("R-SCORE-EXP", 3)]
    turn = Turn(age=1, number=1, actions=tuple(Action(seat=k, use="sell", card="?") for k in (1, 2, 3)))
    played = replay(Record(seats=SEATS, expansions=("Cities",), turns=(turn,)))
    (finding,) = played.findings
    assert finding.rule == "R-SCORE-EXP" and "score-pad record" in finding.message and played.scores is None


def test_the_expansions_are_the_vocabularys_and_round_trip_through_text_and_json():
    assert tuple(EXPANSION_OF_CATEGORY.values()) == EXPANSIONS
    assert tuple(EXPANSION_OF_CATEGORY) == EXPANSION_CATEGORIES
    rows = {1: {"cities": -3, "leaders": 6, "armada": 2, "edifice": -1}}
    record = pad(None, EXPANSIONS, rows | {2: dict.fromkeys(EXPANSION_CATEGORIES, 0),
                                           3: dict.fromkeys(EXPANSION_CATEGORIES, 0)})
    assert is_score_pad(record)
    text = write(record)
    assert '[Expansions "Cities, Leaders, Armada, Edifice"]' in text
    assert parse(text) == record and from_json(to_json(record)) == record
    assert write(parse(text)) == text


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(EXPANSIONS), unique=True),
       st.lists(st.tuples(st.integers(-6, 18), st.integers(0, 30), st.integers(-20, 30)), min_size=3, max_size=3))
def test_generated_pads_round_trip_and_their_computed_sheet_checks_clean(named, seats):
    """A pad whose totals and ranks are computed as R-WIN says: text and JSON round trips, and no error."""
    rows = tuple(EXPANSION_CATEGORIES[EXPANSIONS.index(n)] for n in sorted(named, key=EXPANSIONS.index))
    values = []
    for k, (military, coins, extra) in enumerate(seats, 1):
        v = {"military": military, "treasury": coins // 3, "wonder": 3 * k, "civilian": 5, "commercial": 0,
             "guilds": k, "science": 1, "coins": coins} | {r: extra for r in rows}
        v["total"] = sum(v[c] for c in CATEGORIES + rows)
        values.append(v)
    for v in values:
        v["rank"] = 1 + sum(1 for o in values if (o["total"], o["coins"]) > (v["total"], v["coins"]))
    record = Record(seats=SEATS, expansions=tuple(named),
                    results=tuple(SeatResult(seat=k, **v) for k, v in enumerate(values, 1)))
    assert parse(write(record)) == record and from_json(to_json(record)) == record
    played = replay(record)
    assert [f for f in played.findings if f.severity == "error"] == []
    assert [ln.rank for ln in played.scores.lines] == [v["rank"] for v in values]


@pytest.mark.parametrize("text, code", [
    ('[Expansions "Cities, Cities"]', "expansion"), ('[Expansions "Citties"]', "expansion"),
    ('[Expansions ""]', "expansion"), ('[Expansions "Cities" "Leaders"]', "tag-value"),
])
def test_the_expansions_tag_refusals(text, code):
    from wnotation.notation import NotationError

    head = '[Format "7WN 1"]\n[Edition "2e"]\n[Date "????.??.??"]\n'
    seats = "".join(f'[Seat{k} "{s.name}" "{s.wonder}" "{s.side}"]\n' for k, s in enumerate(SEATS, 1))
    with pytest.raises(NotationError) as info:
        parse(head + text + "\n" + seats)
    assert info.value.rule == code
