"""The sample games of replays/: each reads, replays with no error finding, has its stated results verified by
the engine (a mismatch is an R-SCORE error), is already canonical and annotated; together they cover 3 to 7
players and every Wonder side, and one is a partial record with unknown cards."""

from pathlib import Path

import pytest

from wnotation.engine import replay
from wnotation.notation import parse, write

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
FILES = sorted(REPLAYS.glob("*.7wn"))
WONDERS = ("Alexandria", "Babylon", "Ephesos", "Gizah", "Halikarnassos", "Olympia", "Rhodos")


def _read(path: Path):
    return parse(path.read_text(encoding="utf-8"), source=path.name)


@pytest.fixture(scope="module")
def games():
    return {p.name: _read(p) for p in FILES}


def test_there_are_sample_games():
    assert len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_replays_without_errors_and_results_verified(path, games):
    rec = games[path.name]
    rp = replay(rec)
    errors = [str(f) for f in rp.findings if f.severity == "error"]
    assert errors == []
    assert rp.complete
    assert rec.results, "a sample game states its expected results"
    # every stated value is checked by the engine; make sure they are really there and equal
    for r in rec.results:
        line = rp.scores.line(r.seat)
        assert r.total == line.total and r.rank == line.rank


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_is_canonical(path, games):
    assert write(games[path.name]) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_is_annotated(path, games):
    rec = games[path.name]
    comments = len(rec.annotation.before) + len(rec.annotation.after)
    for t in rec.turns:
        comments += len(t.annotation.before) + len(t.annotation.after)
        for a in t.actions:
            comments += len(a.annotation.before) + len(a.annotation.after)
            if a.pick is not None:
                comments += len(a.pick.annotation.before) + len(a.pick.annotation.after)
    assert comments >= 5
    for tag in ("Event", "Site"):
        assert any(t.name == tag for t in rec.tags), tag
    assert rec.date and "?" not in rec.date


def test_full_games_are_seeded_with_every_seat_scored(games):
    full = [r for r in games.values() if r.seed is not None]
    assert len(full) >= 5
    for rec in full:
        assert {r.seat for r in rec.results} == set(range(1, rec.players + 1))
        assert all(r.total is not None and r.coins is not None and r.rank is not None for r in rec.results)


def test_set_covers_player_counts_and_every_wonder_side(games):
    assert {r.players for r in games.values()} >= {3, 4, 5, 6, 7}
    sides = {(s.wonder, s.side) for r in games.values() for s in r.seats}
    assert sides == {(w, side) for w in WONDERS for side in ("day", "night")}


def test_a_partial_record_from_one_point_of_view(games):
    partial = [r for r in games.values() if r.seed is None
               and any(a.card == "?" for t in r.turns for a in t.actions)]
    assert partial
    for rec in partial:
        assert rec.guilds is None
        rp = replay(rec)
        assert rp.ok and rp.complete
        # unknown cards only where the rules hide them: never a built card
        assert all(a.use != "build" or a.card != "?" for t in rec.turns for a in t.actions)
