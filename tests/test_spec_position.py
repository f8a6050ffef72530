"""spec/position.md, run: every ```7wn-position string is valid and canonical, every ```7wn-position-errors case is
refused with its check and column, every ```7wn game (one that starts from a position) replays without an error,
and the check table lists exactly the checks the reference makes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wnotation.engine import replay
from wnotation.engine.position import from_string, to_string
from wnotation.notation import parse
from wnotation.engine.position_rules import read
from wnotation.model.position_string import CHECKS, PositionError, write

ROOT = Path(__file__).resolve().parents[1]
SPEC = (ROOT / "spec" / "position.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\S*)( [^\n]*)?\n(.*?)```", SPEC, re.S)
STRINGS = [line for kind, _, text in BLOCKS if kind == "7wn-position" for line in text.splitlines() if line]
GAMES = [text for kind, _, text in BLOCKS if kind == "7wn"]
EXPECT = re.compile(r"=> (?P<check>[a-z-]+) (?P<column>[0-9]+)")


def _error_cases() -> list[tuple[str, str, int]]:
    out = []
    for kind, _, text in BLOCKS:
        if kind != "7wn-position-errors":
            continue
        lines = [line for line in text.splitlines() if line]
        for string, verdict in zip(lines[::2], lines[1::2]):
            m = EXPECT.fullmatch(verdict)
            assert m is not None, verdict
            out.append((string, m["check"], int(m["column"])))
    return out


ERRORS = _error_cases()


def test_the_spec_has_examples_of_each_kind():
    assert len(STRINGS) >= 5 and GAMES and len(ERRORS) >= len(CHECKS)


@pytest.mark.parametrize("string", STRINGS, ids=[s[:24] for s in STRINGS])
def test_each_example_string_is_valid_and_canonical(string):
    assert write(read(string)) == string
    state, seed = from_string(string)
    assert to_string(state, seed=seed) == string


@pytest.mark.parametrize("string, check, column", ERRORS, ids=[f"{c}-{k}" for k, (_, c, _) in enumerate(ERRORS)])
def test_each_refusal_case_is_refused_with_its_check_and_column(string, check, column):
    with pytest.raises(PositionError) as caught:
        read(string)
    assert (caught.value.check, caught.value.column) == (check, column), str(caught.value)


def test_every_check_has_a_refusal_case_and_a_row_of_the_table():
    assert {c for _, c, _ in ERRORS} == set(CHECKS)
    table = SPEC.split("## 6. Checks", 1)[1].split("\n## 7.", 1)[0]
    rows = re.findall(r"^\| `([a-z-]+)` \|", table, re.M)
    assert rows == list(CHECKS)


@pytest.mark.parametrize("text", GAMES, ids=[f"game {k + 1}" for k in range(len(GAMES))])
def test_each_example_game_starts_from_its_position_and_replays_without_an_error(text):
    record = parse(text)
    played = replay(record)
    assert [f for f in played.findings if f.severity == "error"] == []
    start = record.tag("Position")
    assert start is not None and played.addresses[0] == read(start).address


def test_the_projections_of_section_7_are_those_of_the_examples_of_section_5():
    section = SPEC.split("## 7.", 1)[1]
    shown = [line for kind, _, text in re.findall(r"```(\S*)( [^\n]*)?\n(.*?)```", section, re.S)
             if kind == "7wn-position" for line in text.splitlines() if line]
    by_address = {s.split(" ", 1)[0]: s for s in STRINGS[:4]}
    first, last = (from_string(by_address[s.split(" ", 1)[0]])[0] for s in shown)
    assert [to_string(first, seat=1), to_string(last, seat=2)] == shown
