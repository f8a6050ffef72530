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
    "games": "game_id BIGINT, kind VARCHAR, file VARCHAR, game_number INTEGER, start_line INTEGER, readable "
             "BOOLEAN, complete BOOLEAN, players INTEGER, date_text VARCHAR, played_on DATE, event_name VARCHAR, "
             "site VARCHAR, tags VARCHAR, seed_algorithm VARCHAR, seed UBIGINT, guild_list VARCHAR[], turns "
             "INTEGER, actions INTEGER, results_stated BOOLEAN, results_match BOOLEAN, error_count INTEGER, "
             "warning_count INTEGER, note_count INTEGER",
    "seats": "game_id BIGINT, seat INTEGER, player VARCHAR, wonder VARCHAR, side VARCHAR, military_points INTEGER,"
             " treasury_points INTEGER, wonder_points INTEGER, civilian_points INTEGER, commercial_points INTEGER,"
             " guild_points INTEGER, science_points INTEGER, total_points INTEGER, final_coins INTEGER, place "
             "INTEGER, winner BOOLEAN, stages_built INTEGER, cities_points INTEGER, leaders_points INTEGER, "
             "armada_points INTEGER, edifice_points INTEGER, tablets INTEGER, compasses INTEGER, gears INTEGER, "
             "science_wildcards INTEGER, coins_by_age INTEGER[], shields_by_age INTEGER[], tokens_by_age "
             "INTEGER[], city VARCHAR[]",
    "plays": "game_id BIGINT, age INTEGER, turn INTEGER, seat INTEGER, address VARCHAR, play_action VARCHAR, card "
             "VARCHAR, card_key VARCHAR, colour VARCHAR, stage INTEGER, outcome VARCHAR, free_by VARCHAR, "
             "bank_coins INTEGER, left_coins INTEGER, right_coins INTEGER, left_units VARCHAR[], right_units "
             "VARCHAR[], purchase_stated BOOLEAN, income INTEGER, extra_turn BOOLEAN, kept_last BOOLEAN, "
             "discarded_card VARCHAR, picked_card VARCHAR, picked_key VARCHAR, pick_declined BOOLEAN, play_errors "
             "INTEGER, annotated BOOLEAN, glyph VARCHAR, play_line INTEGER, play_column INTEGER",
    "military": "game_id BIGINT, age INTEGER, seat INTEGER, opponent INTEGER, token INTEGER, conflict_result VARCHAR",
    "findings": "game_id BIGINT, finding_address VARCHAR, seat INTEGER, rule_id VARCHAR, severity VARCHAR, "
                "finding_kind VARCHAR, message VARCHAR, finding_line INTEGER, finding_column INTEGER",
    "hands": "game_id BIGINT, age INTEGER, turn INTEGER, seat INTEGER, held VARCHAR[]",
    "cards": "card_key VARCHAR, card_name VARCHAR, card_age INTEGER, card_colour VARCHAR, coin_cost INTEGER, "
             "resource_cost VARCHAR[], card_points INTEGER, card_shields INTEGER, science_symbol VARCHAR, effects "
             "VARCHAR[], chain_from VARCHAR[], chain_to VARCHAR[], copies INTEGER[]",
}

#: Schema 1 (before the manifest, issue 29): every table's columns, in order. Schema 2 renamed the colliding and
#: keyword names (schema.RENAMED, listed by spec/archive.md) and dropped seats.players (games.players).
FIRST_SCHEMA = {
    "games": "game_id file game line read complete players date played_on event site tags seed_algorithm seed guilds "
             "turns actions results_stated results_match errors warnings notes",
    "seats": "game_id seat name wonder side players military treasury wonder_points civilian commercial guilds science "
             "total coins rank winner stages cities leaders armada edifice",
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
    return re.findall(r"^\| `([a-z_]+)` \| ([A-Z]+(?:\[\])?) \|", section, re.M)


def test_the_schema_is_pinned():
    assert {t: ", ".join(f"{n} {k}" for n, k in cols) for t, cols in TABLES.items()} == PINNED


def test_the_spec_documents_every_column_with_its_type_in_the_schemas_order():
    for table, cols in TABLES.items():
        assert spec_columns(table) == list(cols), table


def test_schema_2_renames_every_schema_1_name_it_does_not_keep_and_the_spec_lists_each():
    """Issue 29 item 5: each schema-1 column is kept under its name, renamed (RENAMED, and spec/archive.md's
    table of renames says so), or seats.players, dropped for games.players; the version is 2."""
    from wnotation.archive.schema import RENAMED, SCHEMA_VERSION

    assert SCHEMA_VERSION == 2
    spec = SPEC.read_text(encoding="utf-8")
    for table, names in FIRST_SCHEMA.items():
        now = {n for n, _ in TABLES[table]}
        for name in names.split():
            if name in RENAMED[table]:
                assert RENAMED[table][name] in now and name not in now, (table, name)
                assert f"| `{table}.{name}` | `{RENAMED[table][name]}` |" in spec, (table, name)
            elif (table, name) == ("seats", "players"):
                assert name not in now and "| `seats.players` | (removed: `games.players`) |" in spec
            else:
                assert name in now, (table, name)


def test_names_never_collide_in_joins_and_never_need_quoting():
    """Issue 29 item 5: but for the join keys, no column name is in two tables or is a table's name, and none is
    a DuckDB keyword (of any category), so joins and SELECT * never clash and no name needs quotes."""
    duckdb = pytest.importorskip("duckdb")
    from wnotation.archive.schema import KEYS

    keywords = {k for (k,) in duckdb.sql("SELECT keyword_name FROM duckdb_keywords()").fetchall()}
    seen: dict[str, str] = {}
    for table, cols in TABLES.items():
        assert table not in keywords
        for name, _ in cols:
            assert name not in keywords and name not in TABLES, (table, name)
            if name not in KEYS:
                assert name not in seen, (table, name, seen.get(name))
                seen[name] = table


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


def test_row_types_are_the_tables_columns() -> None:
    """Each named row type (archive/rowtypes.py) has exactly its table's columns, in order: the row builder
    fills rows by column name, so a schema change that forgets the rows fails here."""
    from wnotation.archive.rowtypes import ROW_TYPES
    from wnotation.archive.schema import TABLES

    assert set(ROW_TYPES) == set(TABLES)
    for table, row in ROW_TYPES.items():
        assert row._fields == tuple(name for name, _ in TABLES[table]), table  # type: ignore[attr-defined]


def test_rows_built_by_name() -> None:
    """The plays, military, hands, findings and games rows of a game are the named types, equal to their values."""
    from wnotation.archive.rows import game_rows
    from wnotation.archive.rowtypes import ROW_TYPES
    from wnotation.engine import replay
    from wnotation.notation import parse

    record = parse((Path(__file__).resolve().parent.parent / "replays/3p-babylon-halikarnassos-olympia.7wn")
                   .read_text(encoding="utf-8"))
    rows = game_rows(record, replay(record), gid=1, source="x", index=1, hands=True)
    for table in ("plays", "military", "hands", "findings", "games"):
        got = rows.tables[table]
        assert (got or table == "findings") and all(type(r) is ROW_TYPES[table] for r in got), table
    play = rows.tables["plays"][0]
    assert play.address == "I.1" and play == tuple(play)  # type: ignore[attr-defined]
