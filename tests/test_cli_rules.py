"""wnotation rules: the engine's rule registry listed, one rule explained with the casebook cases naming it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cli_helpers import run
from wnotation.engine import rulebook

CASES = Path(__file__).parent.parent / "spec" / "cases"


def _naming(rule_id: str) -> list[str]:
    """The casebook files whose [Rules] tag names ``rule_id`` (exactly: R-TRADE is not R-TRADE-MINIMAL)."""
    out = []
    for path in sorted(CASES.glob("*.7wn")):
        tag = re.search(r'^\[Rules "([^"]*)"\]', path.read_text(encoding="utf-8"), re.MULTILINE)
        if tag and rule_id in tag.group(1).split():
            out.append(path.stem)
    return out


def test_rules_lists_every_rule_of_the_registry_in_order():
    lines = run("rules").stdout.splitlines()
    assert lines[0].split()[:2] == ["rule", "title"]
    assert [line.split()[0] for line in lines[1:]] == list(rulebook.ids())
    assert "(ruling) no droppable bought unit; default purchase" in lines[1 + rulebook.ids().index("R-TRADE-MINIMAL")]


def test_rules_R_TRADE_explains_it_with_exactly_the_cases_that_name_it():
    out = run("rules", "R-TRADE").stdout
    assert out.startswith("R-TRADE: buy from the two neighbours' brown, grey and starting resource only\n")
    assert "chapter 'Paying: production, trade, chains'" in out
    listed = re.findall(r"^(\d{3}-[a-z0-9-]+) +(legal|illegal) ", out, re.MULTILINE)
    assert [name for name, _ in listed] == _naming("R-TRADE")
    assert ("003-right-has-no-wood", "illegal") in listed and ("002-left-is-next-seat", "legal") in listed
    only_minimal = set(_naming("R-TRADE-MINIMAL")) - set(_naming("R-TRADE"))
    assert only_minimal and not only_minimal & {name for name, _ in listed}


def test_a_ruling_is_explained_with_its_section_of_the_spec():
    out = run("rules", "r-hali-last").stdout
    assert "spec/rulings.md, section 'R-HALI-LAST: Halikarnassos on the last turn of an Age" in out
    assert "**Choice.** The order at the end of an Age is" in out
    assert "R-COUNT-SAMETURN" not in out.split("Cases of the casebook")[0]


def test_rules_json_has_every_field_and_the_cases():
    data = json.loads(run("rules", "--json").stdout)
    assert [r["id"] for r in data["rules"]] == list(rulebook.ids())
    one = json.loads(run("rules", "trade", "--json").stdout)
    assert one["id"] == "R-TRADE" and one["breakable"] is True and one["ruling"] is None
    assert [c["file"].removesuffix(".7wn") for c in one["cases"]] == _naming("R-TRADE")
    assert json.loads(run("rules", "R-START", "--json").stdout)["breakable"] is False


def test_an_unknown_rule_is_one_line_with_the_nearest_id():
    result = run("rules", "R-TRAED", code=2)
    assert (result.stdout, result.stderr) == ("", "error: no rule 'R-TRAED'; did you mean R-TRADE?\n")
    assert run("rules", "castling", code=2).stderr == "error: no rule 'castling' (wnotation rules lists them)\n"


def test_another_casebook_directory(tmp_path):
    (tmp_path / "001-x.7wn").write_text('[Format "7WN 1"]\n[Case "001"]\n[Title "T"]\n[Rules "R-WIN R-SEAT"]\n'
                                        '[%expect R-SEAT]\n', encoding="utf-8")
    out = run("rules", "R-SEAT", "--casebook", str(tmp_path)).stdout
    assert re.search(r"^001-x +illegal +T$", out, re.MULTILINE)
    assert "no case of" in run("rules", "R-TRADE", "--casebook", str(tmp_path)).stdout
    lines = run("rules", "--casebook", str(tmp_path)).stdout.splitlines()
    assert lines[1].endswith("0 legal, 1 illegal") and lines[3].endswith("0 legal, 0 illegal")
    missing = run("rules", "--casebook", str(tmp_path / "nope"), code=2)
    assert missing.stderr == f"error: cannot read {tmp_path / 'nope'}: no such directory\n"
