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
    assert run("rules", "castling", code=2).stderr == ("error: no rule, notation code or case 'castling' "
                                                       "(wnotation rules lists the rules)\n")


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


SPEC_CODES = re.findall(r"^\| `([a-z][a-z0-9-]*)` \|",
                        (CASES.parent / "7wn.md").read_text(encoding="utf-8").split("### 12.2 ")[1].split("\n### ")[0],
                        re.MULTILINE)


def test_every_notation_code_of_the_spec_is_explained():
    from wnotation.cli.rules import notation_codes, spec_dir

    assert [c.code for c in notation_codes(spec_dir())] == SPEC_CODES and len(SPEC_CODES) >= 30
    for code in SPEC_CODES:
        out = run("rules", code).stdout
        assert out.startswith(f"{code}: a notation code (spec/7wn.md, section 12.2)") or code == "guild-count", code
        assert "A reader refuses " in out or "is also a notation code" in out, code


def test_a_notation_code_is_explained_from_the_spec_table_as_plain_text():
    out = run("rules", "unknown-card").stdout
    assert out.startswith("unknown-card: a notation code (spec/7wn.md, section 12.2): the text is not valid 7WN")
    assert "matches no card of names.md: in an action" in out and "](" not in out and "`" not in out
    assert "The line and column point at the name's first character (an item: the item)." in out
    data = json.loads(run("rules", "Action-Count", "--json").stdout)
    assert data["code"] == "action-count" and data["refuses"] == "a normal turn with more actions than seats, or fewer"


def test_a_code_that_is_also_a_rule_explains_the_rule_and_names_the_code():
    out = run("rules", "guild-count").stdout
    assert out.startswith("R-GUILD-COUNT: ")
    assert "guild-count is also a notation code (spec/7wn.md, section 12.2): a reader refuses a Guilds value" in out
    assert json.loads(run("rules", "guild-count", "--json").stdout)["notation_code"]["code"] == "guild-count"


def test_a_near_miss_of_a_code_suggests_it():
    assert run("rules", "unknown-crad", code=2).stderr == ("error: no rule, notation code or case 'unknown-crad'; "
                                                          "did you mean unknown-card?\n")


def test_a_casebook_case_is_shown_by_its_file_name_number_or_name():
    text = (CASES / "023-last-card-wrong-discard.7wn").read_text(encoding="utf-8")
    for name in ("023-last-card-wrong-discard", "023-last-card-wrong-discard.7wn", "23", "last-card-wrong-discard"):
        out = run("rules", name).stdout
        assert out.startswith("023-last-card-wrong-discard: Turn 6: the discarded card must be the one left in hand\n")
        assert "illegal: it states the error it expects; it names R-LAST" in out
        assert "\n".join("  " + line if line else "" for line in text.rstrip("\n").split("\n")) in out.replace(
            "\n  \n", "\n\n")
    data = json.loads(run("rules", "023", "--json").stdout)
    assert data["file"] == "023-last-card-wrong-discard.7wn" and data["illegal"] and data["text"] == text
