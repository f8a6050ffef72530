"""The six questions of docs/howto/archive.md (issue 29): each page's SQL answer equals its polars answer on the
page's own archive, and the first two equal what ``stats`` reports. polars is optional (not a dependency of
wnotation): without it the polars half is skipped, the SQL half still runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")

from wnotation.archive.export import export  # noqa: E402
from wnotation.archive.stats import Filters, run_stats  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "howto" / "archive.md"
BLOCK = re.compile(r"^```(sql|python)\n(-- |# )(q\d|the tables)\n(.*?)^```$", re.M | re.S)


def page_blocks() -> dict[tuple[str, str], str]:
    """The page's question blocks: (language, name) -> code, name ``q1`` … ``q6`` or ``the tables``."""
    return {(lang, name): body for lang, _, name, body in BLOCK.findall(PAGE.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """The page's archive: two bundled games and 200 generated 4-player games, exported as the page does."""
    root = tmp_path_factory.mktemp("questions")
    corpus = subprocess.run([sys.executable, "-m", "wnotation", "generate", "--players", "4", "--seed", "1",
                             "--count", "200"], capture_output=True, text=True, check=True).stdout
    (root / "corpus.7wn").write_text(corpus, encoding="utf-8")
    export([ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn", ROOT / "replays" / "7p-all-wonders.7wn",
            root / "corpus.7wn"], root / "archive")
    return root


def sql_answers(root: Path) -> dict[str, list[tuple]]:
    blocks = page_blocks()
    con = duckdb.connect()
    import os

    old = os.getcwd()
    os.chdir(root)
    try:
        for statement in blocks[("sql", "the tables")].split(";"):
            if statement.strip():
                con.execute(statement)
        return {f"q{k}": con.execute(blocks[("sql", f"q{k}")]).fetchall() for k in range(1, 7)}
    finally:
        os.chdir(old)
        con.close()


def test_the_page_asks_six_questions_in_both_languages():
    blocks = page_blocks()
    for k in range(1, 7):
        assert ("sql", f"q{k}") in blocks and ("python", f"q{k}") in blocks, k


def test_the_sql_answers_are_stats_answers(archive):
    answers = sql_answers(archive)
    wonders = run_stats([str(archive / "archive")], queries=["wonders"])[0]
    by_side = {(w, s): (n, rate) for w, s, n, _, rate, _ in wonders.rows}
    assert {(w, s): (n, rate) for w, s, n, rate in answers["q1"]} == by_side  # both rounded by DuckDB
    cards = run_stats([str(archive / "archive")], Filters(age=1), ["cards"])[0]
    at = {name: k for k, name in enumerate(cards.columns)}
    assert {f"I:{row[at['card']]}": row[at["built"]] for row in cards.rows} == dict(answers["q2"])
    assert [row[1] for row in answers["q2"][:3]] == [173, 171, 113]  # Lumber Yard, Ore Vein, Guard Tower


def test_the_polars_answers_equal_the_sql_answers(archive):
    pytest.importorskip("polars")
    import os

    blocks = page_blocks()
    answers = sql_answers(archive)
    space: dict = {}
    old = os.getcwd()
    os.chdir(archive)
    try:
        exec(blocks[("python", "the tables")], space)  # noqa: S102 (the page's own example code)
        for k in range(1, 7):
            exec(blocks[("python", f"q{k}")], space)  # noqa: S102
    finally:
        os.chdir(old)
    for k in range(1, 7):
        got = [tuple(row) for row in space[f"q{k}"].rows()]
        want = answers[f"q{k}"]
        assert len(got) == len(want), k
        for a, b in zip(got, want):
            assert a == pytest.approx(b), (k, a, b)


def test_the_stats_reports_of_item_14_give_the_page_s_answers(archive):
    """Issue 29 item 14: stats reports the military-token distribution, science sets and coins paid to each
    neighbour, and they agree with questions 3 to 5 of the page (every game of its archive is complete)."""
    answers = sql_answers(archive)
    reports = {r.name: r for r in run_stats([str(archive / "archive")],
                                            queries=["neighbour_coins", "military_tokens", "science"])}
    assert [(age, token, n) for age, token, n, _ in reports["military_tokens"].rows] == answers["q4"]
    assert [(sets, n) for sets, n, _, _ in reports["science"].rows] == answers["q5"]
    rows = reports["neighbour_coins"].rows
    seats = sum(r[1] for r in rows)
    left, right = answers["q3"][0]
    assert sum(r[1] * r[2] for r in rows) / seats == pytest.approx(left, abs=1e-3)
    assert sum(r[1] * r[3] for r in rows) / seats == pytest.approx(right, abs=1e-3)
