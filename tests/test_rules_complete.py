"""Completeness: every rule and ruling of the reference has an engine test named after its ID.

A test covers rule ``R-X-Y`` when its name contains ``R_X_Y__`` (the double underscore ends the ID, so R-HALI
and R-HALI-LAST are told apart), or, for the hand-worked game, ends with ``_R_X_Y``.
"""

import ast
from pathlib import Path

# The IDs of ../shared/reference/rules-2e.md, in its order (the reference is not shipped with the repository).
RULES = (
    "R-SEAT R-DECK R-BOARD R-START R-TURN R-UNIQUE R-STAGE R-SELL R-PASS R-LAST R-RESOLVE R-COINS-TURNSTART "
    "R-COUNT-SAMETURN R-PRODUCE R-TRADE R-PRICE R-TRADE-MINIMAL R-COST-COINS R-CHAIN R-OLYMPIA-D2 R-OLYMPIA-N1 "
    "R-OLYMPIA-N2 R-FREE R-BABYLON-N1 R-HALI R-HALI-UNKNOWN R-HALI-LAST R-SCIENCE-ANY R-MILITARY R-SCORE R-GUILD-COUNT R-WIN"
).split()

HERE = Path(__file__).parent


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
    import re
    cited = set(re.findall(r"R-[A-Z0-9]+(?:-[A-Z0-9]+)*", source))
    assert cited - set(RULES) == set()
