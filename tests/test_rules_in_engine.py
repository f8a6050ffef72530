"""A rule lives in the engine only (issue 30): outside ``wnotation/engine/`` no code names a rule by its ID, so no
module outside the engine decides by a rule (``f.rule == "R-DECK"``) or raises in its name (``rule="R-STAGE"``).
A rule ID inside a sentence (a message, a docstring) cites it for the reader and is allowed.

The modules below still name rules in code and are being moved over; the list may only shrink.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import wnotation

PACKAGE = Path(wnotation.__file__).parent
RULE_ID = re.compile(r"R-[A-Z][A-Z0-9-]*[A-Z0-9]")

#: module -> why it still names rules (each is open work of issue 30).
NOT_YET = {
    "model/position_checks.py": "the position's checks move into the engine (issue 30 item 3)",
    "archive/rows.py": "the archive's rows become a visitor of the engine's walk (issue 30 item 1)",
    "conformance/vectors.py": "a vector's labels name the rules it exercises",
}


def _named_rules(path: Path) -> list[tuple[int, str]]:
    """(line, ID) of every string constant that is exactly a rule ID."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and RULE_ID.fullmatch(n.value)]


def test_no_code_outside_the_engine_names_a_rule() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("engine/") or rel in NOT_YET:
            continue
        if named := _named_rules(path):
            found[rel] = named
    assert found == {}, f"rules named outside the engine: {found}; ask the engine (e.g. engine/findings.py)"


def test_the_list_of_modules_not_yet_moved_only_shrinks() -> None:
    """A module of NOT_YET that no longer names a rule must leave the list, so the list stays true."""
    stale = [m for m in NOT_YET if not (PACKAGE / m).exists() or not _named_rules(PACKAGE / m)]
    assert stale == []


def test_the_check_sees_a_rule_named_in_code(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text('def f(x):\n    """A docstring citing R-HALI is fine."""\n    return x.rule == "R-DECK"\n')
    assert _named_rules(probe) == [(3, "R-DECK")]


def test_the_recorder_asks_the_engine_which_findings_stop_a_play() -> None:
    """R-LAST and R-BABYLON-N1 errors are settled by the rest of the turn (the discard, the kept card): a recorder
    does not stop a play for them; R-DECK errors are about the deck; a seat's R-HALI warning asks for a pick."""
    from wnotation.engine.findings import Finding, about_the_deck, asks_for_a_pick, blocks_the_play

    assert not blocks_the_play(Finding("R-LAST", "m", "I.6"))
    assert not blocks_the_play(Finding("R-BABYLON-N1", "m", "I.6"))
    assert blocks_the_play(Finding("R-TRADE", "m", "I.2"))
    assert not blocks_the_play(Finding("R-TRADE", "m", "I.2", severity="warning"))
    assert about_the_deck(Finding("R-DECK", "m", "I.0")) and not about_the_deck(Finding("R-TRADE", "m", "I.0"))
    assert asks_for_a_pick(Finding("R-HALI", "m", "I.3", seat=2, severity="warning"), 2)
    assert not asks_for_a_pick(Finding("R-HALI", "m", "I.3", seat=2, severity="warning"), 1)
    assert not asks_for_a_pick(Finding("R-HALI", "m", "I.3", seat=2), 2)
