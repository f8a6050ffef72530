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


def test_every_bundled_replay_gets_intervals_and_marks() -> None:
    """Issue 33's done-when: ``analyse`` on every bundled replay finishes with intervals and marks (1 playout a
    position, bounded in CPU time: the machine may be shared); a score pad, which has no position, is refused with
    one clear sentence."""
    import glob
    import time

    start = time.process_time()
    analysed = 0
    for path in sorted(glob.glob("replays/*.7wn")):
        record = _record(path)
        if not record.turns:
            result = run("analyse", path, code=2)
            assert "score-pad record" in result.stderr and "no position to analyse" in result.stderr
            assert result.stdout == ""
            continue
        played = replay(record)
        found = analyse(record, 1, seed=3, played=played)
        assert [a.where for a in found] == list(boundaries(played)) and found[-1].where == "III.end"
        assert all(e.low <= e.chance <= e.high for a in found for e in a.estimates)
        rated = marks(record, 1, seed=3)
        assert {(m.age, m.turn, m.seat) for m in rated} == {(t.age, t.number, a.seat) for t in record.turns
                                                             for a in t.actions}
        assert all(m.best_chance >= m.chance for m in rated)
        analysed += 1
    assert analysed == 8
    assert time.process_time() - start < 60, time.process_time() - start


def test_a_partial_records_unknown_cards_are_drawn_consistently() -> None:
    """R-DECK, R-HALI: at II.3 of Niamh's record the pile holds hidden cards (sold and discarded '?'); a playout's
    fill gives every unknown card of the hands and the pile a card the deck can still hold, so that each Age's
    cards are never more than its copies, and the known cards stay as they are."""
    from collections import Counter

    from wnotation.analysis.winchance import _FILL, _fill, split
    from wnotation.engine import Game
    from wnotation.model import deck

    state = replay(_record(PARTIAL)).position("II.3")
    assert any(c is None for c in state.discard) and any(c is None for h in state.hands for c in h)
    for j in range(20):
        game = Game(state)
        _fill(game, split(j, _FILL, game.age))
        assert all(c is not None for h in game.hands for c in h) and all(c is not None for c in game.discard)
        assert all(c.age == 2 for h in game.hands for c in h)
        for before, after in zip(state.discard, game.discard):
            assert before is None or after == before
        every = [c for h in game.hands for c in h] + [c for c in game.discard if c is not None]
        every += [c for city in game.cities for c in (*city.buildings, *city.snapshot().staged) if c is not None]
        for age in (1, 2):
            have = Counter(c for c in every if c.age == age)
            assert all(n <= deck.copies(age, 4)[c] for c, n in have.items()), age


def test_alternatives_share_the_later_deals_common_random_numbers() -> None:
    """spec §8.4: the same playout stream deals the same later Ages whatever was played before (so a mark compares
    actions, not deals): two different positions of Age I played out with one stream see the same Age II hands."""
    from wnotation.engine import playout as engine_playout

    played = replay(_record(FOUR))
    dealt: list[list[tuple[str, ...]]] = []
    real = engine_playout.deal

    def spy(game, age, guilds, rng):  # type: ignore[no-untyped-def]
        real(game, age, guilds, rng)
        if age == 2:
            dealt.append([tuple(sorted(c.name for c in h if c is not None)) for h in game.hands])

    engine_playout.deal = spy  # type: ignore[assignment]
    try:
        for where in ("I.1", "I.4"):
            playout(played.position(where), stream(7, 0, 0))
    finally:
        engine_playout.deal = real  # type: ignore[assignment]
    assert len(dealt) == 2 and dealt[0] == dealt[1]


def test_jobs_and_scheduler_exclude_each_other() -> None:
    result = run("analyse", FOUR, "--jobs", "2", "--scheduler", "tcp://127.0.0.1:9", code=2)
    assert "exclude each other" in result.stderr


def test_an_unreachable_scheduler_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    from wnotation.archive import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    result = run("analyse", FOUR, "--playouts", "1", "--scheduler", "tcp://127.0.0.1:9", code=2)
    assert "cannot reach the Dask scheduler" in result.stderr and result.stdout == ""


def test_the_scheduler_gives_the_local_figures() -> None:
    """``--scheduler``: each position a task on a real LocalCluster (two worker processes); the same seed gives
    the figures of a local run, in order."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster:
        record = _record(PARTIAL)
        seen: list[str] = []
        remote = analyse(record, 2, seed=13, scheduler=cluster.scheduler_address, done=lambda a: seen.append(a.where))
        assert remote == analyse(record, 2, seed=13)
        assert seen == [a.where for a in remote]
        args = ("analyse", "replays/3p-babylon-halikarnassos-olympia.7wn", "--playouts", "1", "--seed", "5", "--json")
        assert run(*args, "--scheduler", cluster.scheduler_address).stdout == run(*args).stdout


def test_annotated_output_round_trips_through_fmt_and_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """spec §8.4 and issue 33's done-when: ``analyse --marks --annotate`` output is canonical (``fmt`` leaves it
    as it is), and its JSON read back gives the same record and the same computed tags."""
    source = tmp_path / "cut.7wn"
    record = _record("replays/3p-babylon-halikarnassos-olympia.7wn")
    source.write_text(write(record.model_copy(update={"turns": record.turns[:3], "results": ()})), encoding="utf-8")
    out = run("analyse", str(source), "--playouts", "2", "--seed", "1", "--marks", "--annotate").stdout
    assert "[%win " in out and "[%mark " in out
    annotated = tmp_path / "annotated.7wn"
    annotated.write_text(out, encoding="utf-8")
    checked = run("fmt", "--check", str(annotated))  # exit 0: nothing to reformat
    assert "1 file would be left unchanged" in checked.stdout + checked.stderr
    again = next(wnotation.read_games(out))
    assert isinstance(again, Record)
    back = from_json(to_json(again))
    assert back == again and write(back) == out

    def computed(r: Record) -> list[tuple[str, str | None]]:
        return [t for turn in r.turns for note in (turn.annotation, *(a.annotation for a in turn.actions))
                for t in note.tags if t[0] in ("win", "mark")]

    assert computed(back) == computed(again) and len(computed(back)) >= 3


@pytest.mark.parametrize("path", [PARTIAL, "replays/position-4p-rhodos-from-age-2.7wn", FOUR])
def test_marks_rate_every_alternative_from_what_the_whole_record_knows(path: str) -> None:
    """A mark compares like with like: the played action's position and each alternative's are reached by the one
    turn replayed from the position before it, so a partial record's hands keep every card its later turns reveal
    (a record cut after the turn would forget them: 24 unknown cards instead of 6 after Niamh's I.1)."""
    from wnotation.analysis.marks import _after, _reach, _starting
    from wnotation.engine.position import normal_form
    from wnotation.model.catalog import AGE_NUMERALS

    record = _record(path)
    played = replay(record)
    forgot = 0
    for k, turn in enumerate(record.turns):
        before = f"{AGE_NUMERALS[turn.age]}.{turn.number - 1}"
        after = f"{AGE_NUMERALS[turn.age]}.{turn.number}"
        start = _starting(record, played.position(before), turn)
        assert start is not None
        action = turn.actions[0]
        reached = _reach(record, k, start)(action.seat, action)
        assert reached is not None and normal_form(reached) == normal_form(played.position(after))
        cut = replay(_after(record, k, action.seat, action)).position(after)
        forgot += sum(c is None for h in cut.hands for c in h) - sum(c is None for h in reached.hands for c in h)
    assert (forgot > 0) == (path != FOUR)


def test_a_hidden_card_the_record_later_picks_from_the_pile_is_on_the_pile() -> None:
    """R-HALI: Carmen picks a Workshop from the pile at II.4 of Niamh's record, a card nobody saw go there (sold or
    discarded as '?' in Age I). From I.end to II.3 every playout's pile holds it, so a pick can find it; a card
    the pile shows (the Timber Yard picked at II.5) is not asked for again."""
    from wnotation.analysis.winchance import _FILL, _fill, picked_later, split
    from wnotation.engine import Game

    played = replay(_record(PARTIAL))
    asked = {w: [c.name for c in picked_later(played, w)] for w in boundaries(played)}
    assert [w for w, cards in asked.items() if cards] == ["I.end", "II.0", "II.1", "II.2", "II.3"]
    assert asked["II.3"] == ["Workshop"]
    state = played.position("II.3")
    assert all(c is None or c.name != "Workshop" for c in state.discard)
    for j in range(20):
        game = Game(state)
        _fill(game, split(j, _FILL, game.age), picked_later(played, "II.3"))
        assert [c.name for c in game.discard if c is not None].count("Workshop") == 1
    assert math.isclose(sum(e.chance for e in estimate(state, 2, 1, pile=picked_later(played, "II.3"))), 1.0)


def test_any_computed_tags_round_trip_through_the_canonical_form_and_json() -> None:
    """spec §8.4 as a property: whatever chances and marks ``annotate`` writes, the canonical text reads back to a
    record that writes the same text, and its JSON to the same record, the same tags in the same places."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from wnotation.analysis import Analysis, Estimate

    record = _record("replays/3p-babylon-halikarnassos-olympia.7wn")
    cut = record.model_copy(update={"turns": record.turns[:3], "results": ()})
    wheres = [f"I.{t.number}" for t in cut.turns]
    chance = st.floats(0, 1, allow_nan=False)
    positions = st.lists(st.tuples(chance, chance, chance, st.integers(1, 5000)), min_size=3, max_size=3)
    marked = st.lists(st.tuples(st.integers(0, 2), st.integers(1, 3), chance, chance,
                                st.sampled_from(["build Clay Pit", "sell Loom", "stage Altar"])), max_size=6)

    @settings(max_examples=30, deadline=None)
    @given(positions, marked)
    def check(rows: list[tuple[float, float, float, int]], ms: list[tuple[int, int, float, float, str]]) -> None:
        found = [Analysis(w, tuple(Estimate(k + 1, c, c, c, n) for k, c in enumerate(row[:3])))
                 for w, row in zip(wheres, rows) for n in (row[3],)]
        labels = [Mark(1, t + 1, seat, a, best, b, 9) for t, seat, a, b, best in ms]
        text = write(annotate(cut, found, labels))
        again = next(wnotation.read_games(text))
        assert isinstance(again, Record) and write(again) == text
        back = from_json(to_json(again))
        assert back == again

        def computed(r: Record) -> list[tuple[int, str, str | None]]:
            return [(k, key, value) for k, turn in enumerate(r.turns)
                    for note in (turn.annotation, *(a.annotation for a in turn.actions))
                    for key, value in note.tags if key in ("win", "mark")]

        assert computed(back) == computed(again)
        assert sum(key == "win" for _, key, _ in computed(back)) == 3
        expected_marks = {(t + 1, seat) for t, seat, a, b, _ in ms if classify(max(0.0, b - a)) is not None}
        assert sum(key == "mark" for _, key, _ in computed(back)) == len(expected_marks)

    check()
