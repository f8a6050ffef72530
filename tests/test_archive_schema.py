"""The archive's published schema (spec/archive.md) is stable: these names and types are pinned, the spec lists
every column with its type, the Parquet files carry them; and without DuckDB the package still works and the
archive commands say what to install."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from wnotation.archive.schema import TABLES

from cli_helpers import run

SPEC = Path(__file__).resolve().parent.parent / "spec" / "archive.md"

PINNED = {
    "games": "game_id BIGINT, file VARCHAR, game INTEGER, line INTEGER, read BOOLEAN, complete BOOLEAN, "
             "players INTEGER, date VARCHAR, played_on DATE, event VARCHAR, site VARCHAR, tags VARCHAR, "
             "seed_algorithm VARCHAR, seed UBIGINT, guilds VARCHAR, turns INTEGER, actions INTEGER, "
             "results_stated BOOLEAN, results_match BOOLEAN, errors INTEGER, warnings INTEGER, notes INTEGER",
    "seats": "game_id BIGINT, seat INTEGER, name VARCHAR, wonder VARCHAR, side VARCHAR, players INTEGER, "
             "military INTEGER, treasury INTEGER, wonder_points INTEGER, civilian INTEGER, commercial INTEGER, "
             "guilds INTEGER, science INTEGER, total INTEGER, coins INTEGER, rank INTEGER, winner BOOLEAN, "
             "stages INTEGER, cities INTEGER, leaders INTEGER, armada INTEGER, edifice INTEGER",
    "plays": "game_id BIGINT, age INTEGER, turn INTEGER, seat INTEGER, action VARCHAR, card VARCHAR, "
             "colour VARCHAR, stage INTEGER, outcome VARCHAR, free VARCHAR, bank_coins INTEGER, left_coins INTEGER, "
             "right_coins INTEGER, left_units VARCHAR, right_units VARCHAR, purchase_stated BOOLEAN, "
             "income INTEGER, extra_turn BOOLEAN, kept_last BOOLEAN, discard VARCHAR, pick VARCHAR, "
             "pick_declined BOOLEAN, errors INTEGER, annotated BOOLEAN, glyph VARCHAR, line INTEGER, "
             "column INTEGER",
    "military": "game_id BIGINT, age INTEGER, seat INTEGER, opponent INTEGER, token INTEGER, result VARCHAR",
    "findings": "game_id BIGINT, address VARCHAR, seat INTEGER, rule VARCHAR, severity VARCHAR, kind VARCHAR, "
                "message VARCHAR, line INTEGER, column INTEGER",
}


#: The first schema (the archive as first committed, 6c8ed2b): every table's columns, in order. Columns added since
#: are appended (spec/archive.md), so each of these stays where it was: a reader taking columns by position (a
#: SELECT * into a table of the old layout, a positional INSERT, a client indexing rows) reads the same values.
FIRST_SCHEMA = {
    "games": "game_id file game line read complete players date played_on event site tags seed_algorithm seed guilds "
             "turns actions results_stated results_match errors warnings notes",
    "seats": "game_id seat name wonder side players military treasury wonder_points civilian commercial guilds science "
             "total coins rank winner stages",
    "plays": "game_id age turn seat action card colour stage outcome free bank_coins left_coins right_coins left_units "
             "right_units purchase_stated income extra_turn kept_last discard pick pick_declined errors annotated glyph "
             "line column",
    "military": "game_id age seat opponent token result",
    "findings": "game_id address seat rule severity kind message line column",
}


def spec_columns(table: str) -> list[tuple[str, str]]:
    """The (column, type) rows of ``table``'s section of spec/archive.md, in the order the page lists them."""
    text = SPEC.read_text(encoding="utf-8")
    section = text.split(f"### `{table}`", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \| ([A-Z]+) \|", section, re.M)


def test_the_schema_is_pinned():
    assert {t: ", ".join(f"{n} {k}" for n, k in cols) for t, cols in TABLES.items()} == PINNED


def test_the_spec_documents_every_column_with_its_type_in_the_schemas_order():
    for table, cols in TABLES.items():
        assert spec_columns(table) == list(cols), table


def test_the_first_schemas_columns_come_first_in_their_first_order():
    """Stable across versions: every table starts with the first schema's columns, in that order, in the package,
    in the spec and in the Parquet parts (test_parquet_parts_carry_the_schema_types); new columns only follow.
    The seats table's expansion rows were inserted after science once, which moved total … stages."""
    assert set(FIRST_SCHEMA) == set(TABLES)
    for table, names in FIRST_SCHEMA.items():
        first = names.split()
        assert [n for n, _ in TABLES[table]][:len(first)] == first, table
        assert [n for n, _ in spec_columns(table)][:len(first)] == first, table


def test_parquet_parts_carry_the_schema_types(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    from wnotation.archive.export import export
    from wnotation.archive.store import part_files

    replays = Path(__file__).resolve().parent.parent / "replays"
    export(sorted(replays.glob("*.7wn"))[:1], tmp_path / "out")
    con = duckdb.connect()
    for table, cols in TABLES.items():
        got = [(d[0], d[1]) for d in con.execute("DESCRIBE SELECT * FROM read_parquet(?)",
                                                 [part_files(tmp_path / "out", table)]).fetchall()]
        assert got == list(cols), table


def test_without_duckdb_the_package_works_and_the_archive_commands_say_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "duckdb", None)  # import duckdb now raises ImportError
    replays = Path(__file__).resolve().parent.parent / "replays"
    run("check", str(replays))
    result = run("export", str(replays), "-o", str(tmp_path / "x"), code=2)
    assert "install wnotation[analytics]" in result.stderr
    result = run("stats", str(replays), code=2)
    assert "install wnotation[analytics]" in result.stderr
