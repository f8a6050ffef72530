"""A rule lives in the engine only (issue 30): outside ``wnotation/engine/`` no code names a rule by its ID, so no
module outside the engine decides by a rule (``f.rule == "R-DECK"``) or raises in its name (``rule="R-STAGE"``).
A rule ID inside a sentence (a message, a docstring) cites it for the reader and is allowed.

The modules of ``NOT_YET`` would still name rules in code while being moved over; the list may only shrink, and is
empty now.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import wnotation

PACKAGE = Path(wnotation.__file__).parent
RULE_ID = re.compile(r"R-[A-Z][A-Z0-9-]*[A-Z0-9]")

#: module -> why it still names rules (each is open work of issue 30). Empty since the position's checks moved
#: into the engine (engine/position_rules.py) and the archive and the conformance vectors ask the engine by name.
NOT_YET: dict[str, str] = {}


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


def test_the_engine_names_the_rules_that_code_outside_it_labels_or_tells_apart() -> None:
    """The archive asks which findings contradict the stated results (R-SCORE), the conformance vectors which are
    about the results (R-SCORE, R-SCORE-EXP, R-WIN) and which rule each kind of vector exercises: every name is a
    rule of the registry."""
    from wnotation.engine import rulebook
    from wnotation.engine.findings import RESULT_RULES, Finding, about_the_results, contradicts_the_sheet

    assert contradicts_the_sheet(Finding("R-SCORE", "m", "III.end"))
    assert not contradicts_the_sheet(Finding("R-SCORE", "m", "III.end", severity="warning"))
    assert not contradicts_the_sheet(Finding("R-WIN", "m", "game"))
    assert about_the_results("R-WIN") and about_the_results("R-SCORE-EXP") and not about_the_results("R-TRADE")
    named = {rulebook.DEAL, rulebook.SCORE_SHEET, rulebook.WILD_SCIENCE, rulebook.GUILD_COUNT,
             rulebook.CHEAPEST_PURCHASE} | RESULT_RULES
    assert named <= set(rulebook.ids())


def test_the_judge_of_a_position_is_the_engines() -> None:
    """The rules of a position string (R-STAGE, R-MILITARY, R-HALI, ...) are judged in the engine; the model's
    position string reads syntax and names only, so a string the rules refuse parses, and the judge refuses it."""
    from wnotation.engine.position_rules import judge
    from wnotation.model.position_string import parse
    from wnotation.model.position_values import PositionError

    three = "| <Ben> Babylon day; coins 3; hand ?, ?, ?, ?, ? | <Cat> Rhodos day; coins 3; hand ?, ?, ?, ?, ?"
    written = parse(f"I.2 | <Ann> Gizah day; coins 3; tokens 1; hand ?, ?, ?, ?, ? {three}")
    try:
        judge(written)
    except PositionError as exc:
        assert (exc.check, exc.rule, exc.column) == ("tokens", "R-MILITARY", 40)
    else:
        raise AssertionError("a victory token in Age I before its military was not refused")
    for module in ("position_string.py", "position_values.py"):
        assert not RULE_ID.search((PACKAGE / "model" / module).read_text(encoding="utf-8")), module
