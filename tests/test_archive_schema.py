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
             "guilds INTEGER, science INTEGER, cities INTEGER, leaders INTEGER, armada INTEGER, edifice INTEGER, "
             "total INTEGER, coins INTEGER, rank INTEGER, winner BOOLEAN, "
             "stages INTEGER",
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


def test_the_schema_is_pinned():
    assert {t: ", ".join(f"{n} {k}" for n, k in cols) for t, cols in TABLES.items()} == PINNED


def test_the_spec_documents_every_column_with_its_type():
    text = SPEC.read_text(encoding="utf-8")
    for table, cols in TABLES.items():
        section = text.split(f"### `{table}`", 1)[1].split("\n### ", 1)[0]
        rows = re.findall(r"^\| `([a-z_]+)` \| ([A-Z]+) \|", section, re.M)
        assert rows == list(cols), table


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
