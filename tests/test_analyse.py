"""``wnotation analyse`` and wnotation.analysis: win chances by playouts (issue 33, item 1)."""

from __future__ import annotations

import json
import math

import pytest

import wnotation
from wnotation.analysis import Mark, analyse, annotate, classify, estimate, marks, playout, wilson
from wnotation.analysis.winchance import boundaries, stream
from wnotation.engine import replay
from wnotation.notation import from_json, to_json, write
from wnotation.model.record import Record

from cli_helpers import run

FOUR = "replays/4p-alexandria-ephesos-gizah-rhodos.7wn"
PARTIAL = "replays/partial-4p-niamh.7wn"


def _record(path: str) -> Record:
    record = next(wnotation.read_games(path))
    assert isinstance(record, Record)
    return record


def test_finished_game_is_exact_one_to_the_winner() -> None:
    """R-WIN: at III.end the winner has 1, the others 0, with zero width and no playout."""
    played = replay(_record(FOUR))
    assert played.scores is not None
    winners = played.scores.winners()
    got = estimate(played.position("III.end"), 50, seed=3)
    assert len(winners) == 1
    assert [e.chance for e in got] == [1.0 if e.seat in winners else 0.0 for e in got]
    assert all(e.low == e.high == e.chance and e.playouts == 0 for e in got)


def test_chances_sum_to_one_and_intervals_hold_them() -> None:
    """A shared victory is split (R-WIN), so the seats' chances sum to 1 at every position."""
    played = replay(_record(FOUR))
    for where in ("I.0", "II.3", "III.6"):
        got = estimate(played.position(where), 12, seed=5)
        assert math.isclose(sum(e.chance for e in got), 1.0)
        assert all(e.low <= e.chance <= e.high and e.playouts == 12 for e in got)
        assert all(e.high - e.low > 0 for e in got)


def test_playout_finishes_and_shares_sum_to_one() -> None:
    played = replay(_record(FOUR))
    shares = playout(played.position("I.0"), stream(1, 0, 0))
    assert len(shares) == 4 and math.isclose(sum(shares), 1.0)
    assert set(shares) <= {0.0, 1.0, 0.5, 1 / 3, 0.25}


def test_seed_reproduces_and_jobs_do_not_change_figures() -> None:
    record = _record(PARTIAL)
    one = analyse(record, 3, seed=11)
    assert one == analyse(record, 3, seed=11)
    assert one == analyse(record, 3, seed=11, jobs=2)
    other = analyse(record, 3, seed=12)
    assert one != other
    assert [a.where for a in one] == list(boundaries(replay(record)))


def test_partial_record_hands_are_drawn() -> None:
    """A partial record's unknown hands are filled from what the deck can still hold (R-DECK), so it plays out."""
    played = replay(_record(PARTIAL))
    state = played.position("I.0")
    assert any(c is None for h in state.hands for c in h)
    got = estimate(state, 4, seed=2)
    assert math.isclose(sum(e.chance for e in got), 1.0)


@pytest.mark.parametrize(("p", "n", "low", "high"), [
    (0.5, 100, 0.4038, 0.5962), (0.0, 10, 0.0, 0.2775), (1.0, 10, 0.7225, 1.0), (0.3, 0, 0.3, 0.3),
])
def test_wilson_interval(p: float, n: int, low: float, high: float) -> None:
    got = wilson(p, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_command_on_a_bundled_replay_text_and_json() -> None:
    text = run("analyse", FOUR, "--playouts", "2", "--seed", "4").stdout
    assert "III.end" in text and "Sofia" in text and "2 playouts" in text
    data = json.loads(run("analyse", FOUR, "--playouts", "2", "--seed", "4", "--json").stdout)
    assert data["playouts"] == 2 and data["seed"] == 4
    last = data["positions"][-1]
    assert last["at"] == "III.end"
    assert sorted(s["chance"] for s in last["seats"]) == [0.0, 0.0, 0.0, 1.0]
    for pos in data["positions"]:
        assert math.isclose(sum(s["chance"] for s in pos["seats"]), 1.0, abs_tol=1e-5)
    again = json.loads(run("analyse", FOUR, "--playouts", "2", "--seed", "4", "--json", "--jobs", "2").stdout)
    assert again == data


def test_command_refuses_zero_playouts() -> None:
    assert "--playouts" in run("analyse", FOUR, "--playouts", "0", code=2).stderr


@pytest.mark.parametrize(("loss", "label"), [
    (0.0, None), (0.049, None), (0.05, "inaccuracy"), (0.099, "inaccuracy"), (0.10, "mistake"),
    (0.149, "mistake"), (0.15, "blunder"), (0.9, "blunder"),
])
def test_mark_thresholds_of_the_spec(loss: float, label: str | None) -> None:
    """spec/7wn.md §8.4: inaccuracy from 0.05, mistake from 0.10, blunder from 0.15 of win chance lost."""
    assert classify(loss) == label


def _marked() -> tuple[Record, tuple[Mark, ...]]:
    record = _record("replays/3p-babylon-halikarnassos-olympia.7wn")
    cut = record.model_copy(update={"turns": record.turns[:2], "results": ()})
    return cut, marks(cut, 3, seed=9)


def test_marks_rate_every_action_against_its_alternatives() -> None:
    cut, found = _marked()
    assert [(m.age, m.turn, m.seat) for m in found] == [(1, t, s) for t in (1, 2) for s in (1, 2, 3)]
    assert all(m.best_chance >= m.chance and m.loss == m.best_chance - m.chance for m in found)
    assert found == marks(cut, 3, seed=9)


def test_computed_tags_round_trip_through_fmt_and_json() -> None:
    """spec §8.4: [%win] and [%mark] are tags (§8.1): canonical text and JSON keep them; a human's glyph stays."""
    cut, found = _marked()
    fake = found[1]
    fake = Mark(fake.age, fake.turn, fake.seat, 0.1, "build Clay Pit", 0.35, 3)  # a sure blunder
    annotated = annotate(cut, analyse(cut, 3, seed=9), (fake,))
    text = write(annotated)
    assert "[%mark blunder -0.250 build Clay Pit]" in text and "// [%win " in text
    again = next(wnotation.read_games(text))
    assert isinstance(again, Record)
    assert write(again) == text
    assert from_json(to_json(again)) == again
    tags = dict(again.turns[0].actions[1].annotation.tags)
    assert tags["mark"] == "blunder -0.250 build Clay Pit"
    win = dict(again.turns[0].annotation.tags)["win"].split()
    assert win[-1] == "n=3" and math.isclose(sum(float(x) for x in win[:-1]), 1.0, abs_tol=2e-3)
    glyphs = [a.annotation.glyph for t in cut.turns for a in t.actions]
    assert glyphs == [a.annotation.glyph for t in again.turns for a in t.actions]
    assert "?!" in text  # Priya's glyph of I.2 is the annotator's, kept


def test_command_annotate_prints_canonical_text() -> None:
    out = run("analyse", "replays/3p-babylon-halikarnassos-olympia.7wn", "--playouts", "1", "--annotate").stdout
    assert out.count("[%win ") == len(_record("replays/3p-babylon-halikarnassos-olympia.7wn").turns)
    assert write(next(wnotation.read_games(out))) == out  # type: ignore[arg-type]
