"""R-SEAT: a seat's neighbours are computed in one place, ``wnotation.model.vocabulary.left_of`` / ``right_of``;
the engine and every front end call them instead of writing the modular arithmetic again (issue 30 item 8)."""

from __future__ import annotations

import re
from pathlib import Path

import wnotation
from wnotation.model.vocabulary import left_of, neighbour, right_of

PACKAGE = Path(wnotation.__file__).parent
#: ``seat % n + 1``, ``(seat - 2) % n``, ``cities[(i + 1) % n]`` and the like, with any names.
ARITHMETIC = re.compile(r"%\s*\w+\s*\+\s*1\b|\(\s*[\w.]+\s*-\s*2\s*\)\s*%|\(\s*\w+\s*[+-]\s*1\s*\)\s*%\s*\w+\s*\]")
HOME = "model/vocabulary.py"
NOT_YET: dict[str, str] = {}
#: Seat arithmetic that is not about neighbours: R-PASS moves a hand several seats on by the turn.
NOT_NEIGHBOURS = {"engine/deals.py"}


def test_the_neighbour_arithmetic_is_written_once() -> None:
    found = [f"{p.relative_to(PACKAGE)}:{k}: {line.strip()}"
             for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).as_posix() not in {HOME, *NOT_YET, *NOT_NEIGHBOURS}
             for k, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if ARITHMETIC.search(line)]
    assert found == []


def test_the_pattern_sees_the_usual_spellings() -> None:
    for line in ("seat % n + 1", "(seat - 2) % n + 1", "cities[(i + 1) % n]", "(c.seat - 2) % len(x)"):
        assert ARITHMETIC.search(line), line


def test_the_neighbours_of_R_SEAT() -> None:
    """Seat i's left neighbour is seat i+1, its right neighbour seat i-1, around the table."""
    assert [left_of(s, 3) for s in (1, 2, 3)] == [2, 3, 1]
    assert [right_of(s, 3) for s in (1, 2, 3)] == [3, 1, 2]
    assert neighbour(7, 7, "left") == 1 and neighbour(1, 7, "right") == 7
