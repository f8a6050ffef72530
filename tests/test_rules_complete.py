"""Completeness: every rule of the engine's registry (wnotation/engine/rulebook.py) has an engine test named after
its ID, is the rule index of spec/rulings.md, and is the only kind of ID the engine cites.

A test covers rule ``R-X-Y`` when its name contains ``R_X_Y__`` (the double underscore ends the ID, so R-HALI
and R-HALI-LAST are told apart), or, for the hand-worked game, ends with ``_R_X_Y``.
"""

import ast
import re
from pathlib import Path

import pytest

from wnotation.engine import rulebook

#: The IDs of the registry, in the reference's order (tests/test_casebook.py checks the casebook against them).
RULES = rulebook.ids()

HERE = Path(__file__).parent
RULINGS = HERE.parent / "spec" / "rulings.md"


def _test_names():
    for path in sorted(HERE.glob("test_rules_*.py")) + [HERE / "test_replay.py", HERE / "test_bot.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                yield node.name


def test_every_rule_has_a_named_test():
    names = list(_test_names())
    missing = []
    for rule in RULES:
        key = rule.replace("-", "_")
        if not any(f"{key}__" in n or n.endswith(f"_{key}") for n in names):
            missing.append(rule)
    assert missing == []


def test_every_rule_the_engine_cites_is_a_known_rule():
    source = "\n".join(p.read_text(encoding="utf-8")
                       for p in (HERE.parent / "wnotation" / "engine").glob("*.py"))
    cited = set(re.findall(r"R-[A-Z0-9]+(?:-[A-Z0-9]+)*", source))
    assert cited - set(RULES) == set()


def _index_rows() -> list[list[str]]:
    table = RULINGS.read_text(encoding="utf-8").split("## Rule index", 1)[1]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in table.splitlines() if re.match(r"\| R-", line)]


def test_the_rulings_index_is_the_registry_titles_and_marks_included():
    rows = _index_rows()
    assert [row[0] for row in rows] == list(RULES)
    for (rule_id, what, _legal, _illegal, note), rule in zip(rows, rulebook.RULES):
        assert what == (f"(ruling) {rule.title}" if rule.is_ruling else rule.title), rule_id
        assert ("no illegal side" in note) == (not rule.breakable), rule_id


def test_each_ruling_section_of_the_spec_is_a_registry_entry():
    headings = re.findall(r"^### (.+)$", RULINGS.read_text(encoding="utf-8"), re.MULTILINE)
    assert headings == [r.ruling for r in rulebook.RULES if r.ruling is not None]
    assert all(r.is_ruling for r in rulebook.RULES if r.ruling is not None)
    assert all(h.startswith(f"{r.id}: ") for h, r in zip(headings, [r for r in rulebook.RULES if r.ruling]))


def test_registry_entries_are_complete_and_unique():
    assert len(set(RULES)) == len(RULES) == len(rulebook.RULES)
    sections = (rulebook.SETUP, rulebook.TURN, rulebook.PAYING, rulebook.POWERS, rulebook.AGE_END, rulebook.SCORING,
                rulebook.EXPANSION_ROWS)
    order = [sections.index(r.section) for r in rulebook.RULES]
    assert order == sorted(order)  # the reference's chapters, in its order
    for rule in rulebook.RULES:
        assert re.fullmatch(r"R-[A-Z0-9]+(-[A-Z0-9]+)*", rule.id)
        assert rule.title and rule.summary.endswith(".") and len(rule.summary) > len(rule.title)


@pytest.mark.parametrize("text, found", [("R-TRADE", "R-TRADE"), ("r-trade", "R-TRADE"), ("TRADE", "R-TRADE"),
                                         ("trade minimal", "R-TRADE-MINIMAL"), ("R_HALI_LAST", "R-HALI-LAST")])
def test_lookup_takes_any_case_and_spacing(text, found):
    assert rulebook.lookup(text).id == found


def test_an_unknown_rule_suggests_the_nearest():
    with pytest.raises(rulebook.UnknownRule) as info:
        rulebook.lookup("R-TRAED")
    assert info.value.suggestion == "R-TRADE"
    assert str(info.value) == "no rule 'R-TRAED'; did you mean R-TRADE?"
    with pytest.raises(KeyError):
        rulebook.lookup("castling")


def test_every_finding_the_engine_makes_carries_a_registry_id():
    """The casebook (legal and illegal cases), the bundled replays and bot games: every finding names a rule of
    the registry, so 'wnotation rules ID' can explain every finding a user sees."""
    from wnotation.engine import replay
    from wnotation.engine.bot import play_game
    from wnotation.notation import NotationError, read_games

    texts = [p.read_text(encoding="utf-8") for p in sorted((HERE.parent / "spec" / "cases").glob("*.7wn"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((HERE.parent / "replays").glob("*.7wn"))]
    records = [r for text in texts for r in read_games(text) if not isinstance(r, NotationError)]
    records += [play_game(n, seed, bot) for n in (3, 5, 7) for seed in (1, 2) for bot in ("random", "greedy")]
    cited = {f.rule for r in records for f in replay(r).findings}
    assert len(records) > 100 and len(cited) >= 10
    assert cited - set(RULES) == set()
