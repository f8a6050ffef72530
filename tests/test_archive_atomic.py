"""An export is all or nothing and every reader checks the manifest (issue 29 item 1, issue 27 item 14): an
export killed (SIGKILL) or interrupted (SIGINT) at any point over an earlier archive leaves the earlier archive
or the complete new one, never a mix, for the Parquet directory and the DuckDB file; a write error names the
file and the OS reason; a directory or DuckDB file without a valid manifest is refused in one sentence. And the
sums spec/archive.md states per kind of game hold (item 4)."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")

from wnotation import write  # noqa: E402
from wnotation.archive import export as export_module  # noqa: E402
from wnotation.archive.export import export  # noqa: E402
from wnotation.archive.manifest import MANIFEST, verified_parts  # noqa: E402
from wnotation.archive.schema import TABLES  # noqa: E402
from wnotation.archive.stats import run_stats  # noqa: E402
from wnotation.archive.store import ArchiveError, read_table  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402

from cli_helpers import run  # noqa: E402

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def games_file(path: Path, count: int, seed: int) -> Path:
    path.write_text("\n".join(write(play_game(3 + k % 5, seed + k, "random")) for k in range(count)),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("atomic")
    return games_file(root / "old.7wn", 6, 100), games_file(root / "new.7wn", 40, 700)


def overview(source: Path) -> tuple:
    return run_stats([str(source)], queries=["overview"])[0].rows[0]


#: The exporting child: the export of new.7wn over the archive, its pieces of 2 games, killing itself (or
#: waiting for the test's signal) at the point named by its third argument.
CHILD = textwrap.dedent("""
    import os, signal, sys, time
    from wnotation.archive import export as module
    src, out, point, db = sys.argv[1], sys.argv[2] or None, sys.argv[3], sys.argv[4] or None

    def die():
        os.kill(os.getpid(), signal.SIGKILL)

    if point == "before-manifest":
        real_manifest = module.write_manifest
        def write_manifest(*a, **k):
            die()
        module.write_manifest = write_manifest
    elif point == "before-move":
        def move(*a, **k):
            die()
        module._move_into_place = move
    elif point == "after-exchange":
        real = module._exchange
        def exchange(a, b):
            assert real(a, b)
            die()
        module._exchange = exchange
    elif point == "mid-transaction":
        def manifest(con, games):
            die()
        module.write_db_manifest = manifest
    elif point == "slow":  # a piece takes a while: the test sends its signal while parts are being written
        real_piece = module.export_piece
        def export_piece(*a, **k):
            time.sleep(0.05)
            return real_piece(*a, **k)
        module.export_piece = export_piece
    module.export([src], out, duckdb_file=db, piece_games=2)
""")


def start(src: Path, out: Path | None, point: str, db: Path | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CHILD, str(src), "" if out is None else str(out), point,
                             "" if db is None else str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def staged(parent: Path, name: str) -> int:
    return sum(len(list((s / "plays").glob("part-*.parquet"))) for s in parent.glob(f".{name}.wnotation-export-*"))


@pytest.mark.parametrize("point", ["before-manifest", "before-move", "after-exchange"])
def test_R_archive_an_export_killed_at_each_step_leaves_the_earlier_archive_or_the_new_one(tmp_path, inputs, point):
    old, new = inputs
    out = tmp_path / "archive"
    export([old], out)
    earlier = overview(out)
    child = start(new, out, point)
    child.wait(120)
    assert child.returncode == -signal.SIGKILL
    verified_parts(out)  # whole, whichever it is
    got = overview(out)
    if point == "after-exchange":  # the new archive was in place when the process died
        assert got[0] == 40 and got != earlier
    else:
        assert got == earlier
    export([new], out)  # the next export of the same target removes what the killed one left
    assert not list(tmp_path.glob(".archive.wnotation-export-*"))
    assert overview(out)[0] == 40


@pytest.mark.parametrize("sig, parts", [(signal.SIGKILL, 1), (signal.SIGKILL, 8), (signal.SIGINT, 1),
                                        (signal.SIGINT, 8)])
def test_a_signal_while_parts_are_written_leaves_the_earlier_archive_whole(tmp_path, inputs, sig, parts):
    old, new = inputs
    out = tmp_path / "archive"
    export([old], out)
    before = {t: read_table(out, t) for t in TABLES}
    child = start(new, out, "slow")
    deadline = time.monotonic() + 60
    while staged(tmp_path, "archive") < parts and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert child.poll() is None, child.communicate()  # still exporting: 20 pieces, 8 at most written
    child.send_signal(sig)
    child.wait(60)
    assert {t: read_table(out, t) for t in TABLES} == before
    assert overview(out)[0] == 6
    if sig == signal.SIGINT:  # interrupted, not killed: its staging directory is gone too
        assert not list(tmp_path.glob(".archive.wnotation-export-*"))


def test_a_duckdb_export_killed_mid_transaction_leaves_the_earlier_tables(tmp_path, inputs):
    old, new = inputs
    db = tmp_path / "games.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE mine AS SELECT 42 AS answer")  # the user's own table
    con.close()
    export([old], duckdb_file=db)
    earlier = overview(db)
    child = start(new, None, "mid-transaction", db)
    child.wait(120)
    assert child.returncode == -signal.SIGKILL
    assert overview(db) == earlier
    export([new], duckdb_file=db)
    assert overview(db)[0] == 40
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT answer FROM mine").fetchone() == (42,)
    con.close()


def test_a_write_error_names_the_file_being_written_and_the_reason(tmp_path, inputs, monkeypatch):
    """Issue 27 item 14: not "cannot read" and not the hidden staging folder: the output's own path of the part
    and the system's reason; the earlier archive is untouched and nothing is left behind."""
    old, new = inputs
    out = tmp_path / "archive"
    export([old], out)
    before = overview(out)
    real = export_module.write_part

    def full(root, k, piece, tables, con=None):
        if piece == 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), os.path.join(root, "plays",
                                                                                  "part-00000-000000.parquet"))
        return real(root, k, piece, tables, con)

    monkeypatch.setattr(export_module, "write_part", full)
    result = run("export", str(new), "-o", str(out), code=2)
    assert result.stderr == (f"error: cannot write {out}/plays/part-00000-000000.parquet: "
                             f"{os.strerror(errno.ENOSPC).lower()}\n")
    assert overview(out) == before and not list(tmp_path.glob(".archive.wnotation-export-*"))


def test_readers_refuse_an_archive_without_a_valid_manifest(tmp_path, inputs):
    old, _ = inputs
    out = tmp_path / "archive"
    export([old], out)
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))

    def refused(match: str) -> None:
        with pytest.raises(ArchiveError, match=match):
            run_stats([str(out)])
        with pytest.raises(ArchiveError, match=match):
            read_table(out, "games")
        result = run("stats", str(out), code=2)
        assert result.stderr.startswith(f"error: {out} is not a complete wnotation archive: ")

    part = out / manifest["tables"]["plays"]["parts"][0]["file"]
    data = part.read_bytes()
    part.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    refused("differs from the part its manifest.json lists")
    part.write_bytes(data)
    extra = out / "plays" / "part-00009-000000.parquet"
    extra.write_bytes(data)
    refused("part-00009-000000.parquet is not in its manifest.json")
    extra.unlink()
    part.rename(extra)
    refused("plays/part-00000-000000.parquet is missing")
    extra.rename(part)
    (out / MANIFEST).write_text(json.dumps(manifest | {"schema_version": 1}), encoding="utf-8")
    refused("schema version 1")
    (out / MANIFEST).unlink()
    refused("it has no manifest.json")
    db = tmp_path / "plain.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE games (x INTEGER)")
    con.close()
    with pytest.raises(ArchiveError, match="has no archive_manifest table"):
        run_stats([str(db)])


def test_export_refuses_a_directory_that_is_not_an_archive_and_touches_nothing(tmp_path, inputs):
    old, _ = inputs
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    result = run("export", str(old), "-o", str(out), code=2)
    assert "is not empty and is not an archive" in result.stderr
    assert [p.name for p in out.iterdir()] == ["notes.txt"] and not list(tmp_path.glob(".mine.wnotation-*"))


def test_export_exits_1_and_says_so_when_games_break_the_rules(tmp_path):
    """Issue 29 item 2: the club.7wn of docs/cli.md, where check exits 1: export exits 1 too and its summary
    counts the game with errors, as check's does."""
    club = tmp_path / "club.7wn"
    club.write_text('[Format "7WN 1"]\n[Edition "2e"]\n[Date "2026.11.29"]\n[Seat1 "Alice" "Gizah" "day"]\n'
                    '[Seat2 "Bob" "Babylon" "night"]\n[Seat3 "Carol" "Halikarnassos" "night"]\n\n'
                    "I.1 Lumber Yard | Clay Pool | Stone Pit\nI.2 Baths | stage Altar | Loom\n", encoding="utf-8")
    assert "1 game with errors (1 error)" in run("check", str(club), code=1).stdout
    result = run("export", str(club), "-o", str(tmp_path / "out"), code=1)
    assert result.stdout.startswith("exported 1 game (0 complete, 1 with errors (1 error)) and 6 plays")


def kinds_and_rows(tmp_path: Path) -> dict:
    out = tmp_path / "replays-archive"
    export(sorted(REPLAYS.glob("*.7wn")), out)
    con = duckdb.connect()
    for table, files in verified_parts(out).items():
        con.read_parquet(files).create_view(table)
    return con


def test_every_kind_of_game_is_marked_and_the_sums_the_spec_states_for_it_hold(tmp_path):
    """Issue 29 item 4 (spec/archive.md "Kinds of game and the sums that hold"), on the bundled records, which
    hold each kind: (1) and (2) for all, (3) military tokens and (4) stages for played and partial games, (6)
    the city's Buildings for played games."""
    con = kinds_and_rows(tmp_path)
    kinds = dict(con.execute("SELECT kind, count(*) FROM games GROUP BY kind").fetchall())
    assert kinds == {"played": 6, "partial": 1, "position": 1, "scorepad": 1}
    assert con.execute("""SELECT count(*) FROM games g WHERE actions <> (SELECT count(*) FROM plays p
                          WHERE p.game_id = g.game_id)""").fetchone() == (0,)  # (1)
    assert con.execute("""SELECT count(*) FROM seats JOIN games USING (game_id) WHERE complete AND total_points <>
                          military_points + treasury_points + wonder_points + civilian_points + commercial_points
                          + guild_points + science_points + coalesce(cities_points, 0) + coalesce(leaders_points, 0)
                          + coalesce(armada_points, 0) + coalesce(edifice_points, 0)""").fetchone() == (0,)  # (2)
    tokens = """SELECT s.game_id, s.seat, s.military_points AS points, coalesce(sum(m.token), 0) AS tokens,
                       list_sum(list_filter(s.tokens_by_age, lambda x: x IS NOT NULL)) AS by_age, g.kind
                FROM seats s JOIN games g USING (game_id)
                LEFT JOIN military m ON m.game_id = s.game_id AND m.seat = s.seat
                WHERE g.complete GROUP BY ALL"""
    rows = con.execute(tokens).fetchall()
    assert all(points == total == by_age for _, _, points, total, by_age, kind in rows if kind in ("played",
                                                                                                   "partial"))
    assert any(points != total for _, _, points, total, _, kind in rows if kind == "position")  # not (3)
    stages = con.execute("""SELECT g.kind, s.stages_built, (SELECT count(*) FROM plays p WHERE p.game_id = s.game_id
                            AND p.seat = s.seat AND p.outcome = 'staged') FROM seats s JOIN games g USING (game_id)
                            WHERE g.kind IN ('played', 'partial')""").fetchall()
    assert stages and all(built == staged for _, built, staged in stages)  # (4)
    city = con.execute("""SELECT len(s.city), (SELECT count(*) FROM plays p WHERE p.game_id = s.game_id AND
                          p.seat = s.seat AND p.outcome = 'built') + (SELECT count(*) FROM plays p WHERE p.game_id =
                          s.game_id AND p.seat = s.seat AND p.picked_key IS NOT NULL)
                          FROM seats s JOIN games g USING (game_id) WHERE g.kind = 'played'""").fetchall()
    assert city and all(a == b for a, b in city)  # (6)
    pad = con.execute("SELECT city, coins_by_age FROM seats JOIN games USING (game_id) WHERE kind = 'scorepad'")
    assert all(row == (None, None) for row in pad.fetchall())


def test_stats_cards_divides_by_played_games_only_and_tells_ages_apart(tmp_path):
    """Issue 29 items 4 and 12: the score pad and the position game do not count in cards per game; Age I's and
    Age II's Loom are two rows; --age keeps one Age."""
    con = kinds_and_rows(tmp_path)
    out = tmp_path / "replays-archive"
    played = con.execute("SELECT count(*) FROM games WHERE kind = 'played' AND complete").fetchone()[0]
    cards = run_stats([str(out)], queries=["cards"])[0]
    at = {name: k for k, name in enumerate(cards.columns)}
    for row in cards.rows:
        assert row[at["per_game"]] == pytest.approx(row[at["built"]] / played, abs=1e-4)
    ages = {(row[at["card"]], row[at["age"]]) for row in cards.rows}
    assert {("Loom", "I"), ("Loom", "II")} <= ages
    from wnotation.archive.stats import Filters

    one = run_stats([str(out)], Filters(age=2), ["cards"])[0]
    assert one.rows and {row[at["age"]] for row in one.rows} == {"II"}


def test_export_hands_writes_what_each_seat_held_and_each_play_joins_its_hand(tmp_path):
    """Issue 29 item 13: with hands=True (export --hands) the hands table holds each seat's hand at each turn;
    a played game's build or sale is a card of the hand its row joins; without it the table is empty."""
    out = tmp_path / "with"
    export(sorted(REPLAYS.glob("*.7wn")), out, hands=True)
    con = duckdb.connect()
    for table, files in verified_parts(out).items():
        con.read_parquet(files).create_view(table)
    assert json.loads((out / MANIFEST).read_text(encoding="utf-8"))["hands"] is True
    plays, joined = con.execute("""SELECT count(*), count(*) FILTER (WHERE list_contains(h.held, p.card_key))
        FROM plays p JOIN games g USING (game_id) JOIN hands h USING (game_id, age, turn, seat)
        WHERE g.kind = 'played' AND p.outcome IN ('built', 'sold', 'staged', 'discarded')""").fetchone()
    assert plays > 0 and joined == plays - con.execute(
        "SELECT count(*) FROM plays JOIN games USING (game_id) WHERE kind = 'played' AND card_key IS NULL AND "
        "outcome IN ('built', 'sold', 'staged', 'discarded')").fetchone()[0]
    sizes = con.execute("""SELECT g.players, h.age, h.turn, len(h.held) FROM hands h JOIN games g USING (game_id)
        WHERE g.kind = 'played' AND h.turn <= 6""").fetchall()
    assert sizes and all(size == 8 - turn for _, _, turn, size in sizes)  # 7 cards at turn 1, 2 at turn 6
    without = tmp_path / "without"
    export(sorted(REPLAYS.glob("*.7wn"))[:2], without)
    assert read_table(without, "hands") == []
