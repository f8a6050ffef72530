"""``wnotation explore`` (issue 33, item 4): the opening explorer's table and each card built against passed, on an
archive small enough to count by hand, and against a count made from the replays without SQL.

The archive: ``play_game(3, seed, "greedy")`` for seeds 1, 2, 3, exported with ``--hands``. Age I, turn 1 (the
first pick), each seat's hand and the card it built (every first play of these games is a build), then its
final score and place (from the records' results):

    seed 1 (all night)   seat 1 Alexandria  Altar, Apothecary, East Trading Post, Lumber Yard, Press, Stockade,
                                            Theater                              -> Altar        42, 3rd
                         seat 2 Rhodos      Barracks, Glassworks, Ore Vein, Stone Pit, Timber Yard,
                                            West Trading Post, Workshop          -> Workshop     45, 1st
                         seat 3 Olympia     Baths, Clay Pit, Clay Pool, Guard Tower, Loom, Marketplace,
                                            Scriptorium                          -> Guard Tower  42, 2nd
    seed 2 (all day)     seat 1 Alexandria  Apothecary, Baths, Guard Tower, Lumber Yard, Press, Stockade,
                                            Theater                              -> Theater      40, 2nd
                         seat 2 Rhodos      Barracks, Clay Pool, Marketplace, Scriptorium, Stone Pit,
                                            West Trading Post, Workshop          -> Workshop     41, 1st
                         seat 3 Olympia     Altar, Clay Pit, East Trading Post, Glassworks, Loom, Ore Vein,
                                            Timber Yard                          -> Altar        32, 3rd
    seed 3               seat 1 Babylon n.  Clay Pit, Glassworks, Press, Stockade, Stone Pit, Timber Yard,
                                            West Trading Post                    -> Stockade     45, 2nd
                         seat 2 Alexandria n. Altar, Barracks, Baths, Clay Pool, Loom, Marketplace,
                                            Workshop                             -> Altar        44, 3rd
                         seat 3 Gizah day   Apothecary, East Trading Post, Guard Tower, Lumber Yard, Ore Vein,
                                            Scriptorium, Theater                 -> Theater      51, 1st

Counted: Altar 3 times (42, 32, 44: no win, average 39.33), Workshop 2 (both won, average 43), Theater 2 (one
win, average 45.5), Guard Tower 1, Stockade 1: 9 hands. Holding Loom (seed 1 seat 3, seed 2 seat 3, seed 3 seat
2): Altar 2 (32, 44: average 38), Guard Tower 1. Alexandria: Altar 2, Theater 1. Turn 2 after taking Altar first
(seed 1 seat 1, seed 2 seat 3, seed 3 seat 2, all lost): Loom, Stone Pit, Press, once each.

Cards on turn 1: Workshop held 3 times, built twice (both won), passed once (seed 3 seat 2, lost): 1.0 against
0.0. Theater held 3 times, built twice (one win), passed once (seed 1 seat 1, lost): 0.5 against 0.0. Loom held 3
times, never built, passed 3 times, every passer lost. Altar held 3 times, built 3 times, never passed (no
passed rate, no difference).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict

import pytest

duckdb = pytest.importorskip("duckdb")

from cli_helpers import run  # noqa: E402
from wnotation.analysis.explore import CARDS, MOVES, Question, card_key, explore  # noqa: E402
from wnotation.archive.export import export  # noqa: E402
from wnotation.archive.store import ArchiveError  # noqa: E402
from wnotation.engine import replay  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402
from wnotation.model.catalog import CatalogError  # noqa: E402
from wnotation.notation import write  # noqa: E402

SEEDS = (1, 2, 3)


@pytest.fixture(scope="module")
def games():
    return [play_game(3, seed, "greedy") for seed in SEEDS]


@pytest.fixture(scope="module")
def archive(tmp_path_factory, games):
    root = tmp_path_factory.mktemp("explore")
    source = root / "games.7wn"
    source.write_text("\n".join(write(g) for g in games), encoding="utf-8")
    export([source], root / "archive", hands=True)
    export([source], root / "bare")
    return root


def table(report):
    """The moves report as {(use, card): (times, share, win_rate, avg_points)}."""
    return {(r[0], r[1]): r[3:] for r in report.rows}


def moves(archive, **asked):
    return explore([str(archive / "archive")], Question(**asked), None)[0]


def test_the_first_pick_table_is_the_hand_count(archive):
    report = moves(archive)
    assert report.name == MOVES
    assert table(report) == {
        ("build", "Altar"): (3, 0.3333, 0.0, 39.33),
        ("build", "Workshop"): (2, 0.2222, 1.0, 43.0),
        ("build", "Theater"): (2, 0.2222, 0.5, 45.5),
        ("build", "Guard Tower"): (1, 0.1111, 0.0, 42.0),
        ("build", "Stockade"): (1, 0.1111, 0.0, 45.0),
    }
    # most taken first, then the better win rate, then the card's name
    assert [r[1] for r in report.rows] == ["Altar", "Workshop", "Theater", "Guard Tower", "Stockade"]


def test_a_hand_a_wonder_and_a_first_pick_narrow_the_hands(archive):
    loom = moves(archive, hand=(card_key("Loom", 1),))
    assert table(loom) == {("build", "Altar"): (2, 0.6667, 0.0, 38.0), ("build", "Guard Tower"): (1, 0.3333, 0.0, 42.0)}
    both = moves(archive, hand=(card_key("Loom", 1), card_key("Workshop", 1)))
    assert table(both) == {("build", "Altar"): (1, 1.0, 0.0, 44.0)}  # seed 3 seat 2 holds both
    alexandria = moves(archive, wonder="Alexandria")
    assert {k: v[0] for k, v in table(alexandria).items()} == {("build", "Altar"): 2, ("build", "Theater"): 1}
    day = moves(archive, wonder="Alexandria", side="day")
    assert {k: v[0] for k, v in table(day).items()} == {("build", "Theater"): 1}
    after = moves(archive, turn=2, first=card_key("Altar", 1))
    assert {k: v[:3] for k, v in table(after).items()} == {
        ("build", "Loom"): (1, 0.3333, 0.0), ("build", "Stone Pit"): (1, 0.3333, 0.0),
        ("build", "Press"): (1, 0.3333, 0.0)}
    assert moves(archive, players=4).rows == ()


def test_each_card_built_against_passed_on_the_first_turn(archive):
    report = explore([str(archive / "archive")], None, Question(age=1, turn=1))[0]
    assert report.name == CARDS
    at = {name: k for k, name in enumerate(report.columns)}
    rows = {r[at["card"]]: r for r in report.rows}

    def fate(card):
        r = rows[card]
        return tuple(r[at[c]] for c in ("held", "taken", "taken_win_rate", "passed", "passed_win_rate", "difference"))

    assert fate("Workshop") == (3, 2, 1.0, 1, 0.0, 1.0)
    assert fate("Theater") == (3, 2, 0.5, 1, 0.0, 0.5)
    assert fate("Loom") == (3, 0, None, 3, 0.0, None)
    assert fate("Altar") == (3, 3, 0.0, 0, None, None)
    assert report.rows[0][at["card"]] == "Workshop"  # the largest difference first
    assert sum(r[at["held"]] for r in report.rows) == 63  # 3 games x 3 hands x 7 distinct cards


def test_the_cards_table_over_the_age_is_the_replays_count(archive, games):
    """Every turn of Age I, counted from the replays' positions without SQL: per card, built from the hand and
    the builder's place, or passed on (another card played)."""
    count = defaultdict(lambda: [0, 0, 0, 0])  # held, taken, taken wins, passed, passed wins -> see below
    wins = defaultdict(lambda: [0, 0])
    for record in games:
        played = replay(record)
        winners = {r.seat for r in record.results if r.rank == 1}
        for t in record.turns:
            if t.age != 1:
                continue
            hands = played.position(f"I.{t.number - 1}").hands
            for a in t.actions:
                for name in sorted({c.name for c in hands[a.seat - 1] if c is not None}):
                    c = count[name]
                    c[0] += 1
                    if a.card == name and a.use == "build":
                        c[1] += 1
                        wins[name][0] += a.seat in winners
                    elif a.card != name:
                        c[2] += 1
                        wins[name][1] += a.seat in winners
    report = explore([str(archive / "archive")], None, Question(age=1, turn=None))[0]
    at = {name: k for k, name in enumerate(report.columns)}
    got = {r[at["card"]]: (r[at["held"]], r[at["taken"]], r[at["passed"]], r[at["taken_win_rate"]],
                           r[at["passed_win_rate"]]) for r in report.rows}
    want = {name: (c[0], c[1], c[2], round(wins[name][0] / c[1], 4) if c[1] else None,
                   round(wins[name][1] / c[2], 4) if c[2] else None) for name, c in count.items()}
    assert got == want


def test_the_seven_wn_files_themselves_give_the_same_answer(archive):
    assert explore([str(archive / "games.7wn")], Question(), None)[0].rows == moves(archive).rows


def test_an_archive_without_hands_says_how_to_export_it(archive):
    with pytest.raises(ArchiveError, match="--hands"):
        explore([str(archive / "bare")], Question(), None)
    result = run("explore", str(archive / "bare"), code=2)
    assert "--hands" in result.stderr


def test_card_names_are_checked_against_the_catalogue():
    assert card_key("loom", 2) == "II:Loom"
    with pytest.raises(CatalogError, match="Loom"):
        card_key("Lom", 1)
    with pytest.raises(CatalogError):
        card_key("Senate", 1)  # an Age III card


def test_the_command_prints_the_tables_and_json(archive):
    text = run("explore", str(archive / "archive"), "--hand", "loom").stdout
    assert "Taken from these hands" in text and "Altar" in text and "Cards: built against passed on" in text
    data = json.loads(run("explore", str(archive / "archive"), "--report", "moves", "--json").stdout)
    assert data["question"]["age"] == 1 and data["question"]["turn"] == 1
    [report] = data["reports"]
    assert {(r["card"], r["times"]) for r in report["rows"]} == {
        ("Altar", 3), ("Workshop", 2), ("Theater", 2), ("Guard Tower", 1), ("Stockade", 1)}
    assert "did you mean Loom" in run("explore", str(archive / "archive"), "--hand", "Lom", code=2).stderr
    empty = run("explore", str(archive / "archive"), "--wonder", "Gizah", "--side", "night", "--report", "moves")
    assert "no hand in the archive matches" in empty.stdout


def test_hostile_text_is_bound_not_run(archive):
    """A Wonder or card from the user is looked up in the catalogue, never pasted into SQL."""
    result = run("explore", str(archive / "archive"), "--wonder", "x' OR 1=1 --", code=2)
    assert "error:" in result.stderr


def test_without_duckdb_explore_says_what_to_install(monkeypatch, archive):
    monkeypatch.setitem(sys.modules, "duckdb", None)  # import duckdb now raises ImportError
    result = run("explore", str(archive / "games.7wn"), code=2)
    assert "install wnotation[analytics]" in result.stderr


def test_the_how_to_shows_the_sql_the_command_runs():
    """docs/howto/explore.md prints both queries: they are the package's files, word for word (as plain text:
    Pygments' SQL lexers stop at DuckDB's ``$name`` parameters, and the site builds with -W)."""
    from pathlib import Path

    from wnotation.archive.stats import query_text

    page = (Path(__file__).resolve().parent.parent / "docs" / "howto" / "explore.md").read_text(encoding="utf-8")
    for name in (MOVES, CARDS):
        assert f"`wnotation/archive/sql/{name}.sql`:\n\n```text\n{query_text(name)}```" in page
