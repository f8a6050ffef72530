"""The curated bad inputs: each tests/bad_inputs/NAME.7wn is refused with exactly the first line in NAME.expected
(file:line:column, rule and message), so error positions and wording survive edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from wnotation.notation import NotationError, parse_many, read_games

BAD = Path(__file__).resolve().parent / "bad_inputs"
CASES = sorted(p.stem for p in BAD.glob("*.7wn"))


def test_every_case_has_its_expectation():
    assert len(CASES) >= 30
    assert sorted(p.stem for p in BAD.glob("*.expected")) == CASES


@pytest.mark.parametrize("name", CASES)
def test_bad_input_is_refused_at_the_right_place(name):
    text = (BAD / f"{name}.7wn").read_text(encoding="utf-8")
    expected = (BAD / f"{name}.expected").read_text(encoding="utf-8").rstrip("\n")
    with pytest.raises(NotationError) as info:
        parse_many(text, source=f"{name}.7wn")
    error = info.value
    assert str(error).splitlines()[0] == expected
    lines = str(error).splitlines()
    assert lines[1] == "    " + error.source_line
    assert lines[2].index("^") == 4 + error.column - 1
    assert text.splitlines()[error.line - 1] == error.source_line


@pytest.mark.parametrize("name", CASES)
def test_the_stream_reports_the_same_error_and_reads_on(name):
    text = (BAD / f"{name}.7wn").read_text(encoding="utf-8")
    good = (BAD / "misspelt_card.7wn").read_text(encoding="utf-8").replace("Lumbr", "Lumber")
    items = list(read_games(text + "\n" + good, source=f"{name}.7wn"))
    expected = (BAD / f"{name}.expected").read_text(encoding="utf-8").rstrip("\n")
    errors = [i for i in items if isinstance(i, NotationError)]
    assert [str(e).splitlines()[0] for e in errors][:1] == [expected]
    assert type(items[-1]).__name__ == "Record"
