"""Section 12 of spec/7wn.md, run: every refusal case of its ```7wn-errors blocks is refused by the reference
reader with the code and the line:column the case states, and the table of codes lists exactly the codes the
reader can emit (found in the package's source and met in the curated bad inputs).

The codes and positions are normative (another implementation must reproduce them from the spec alone), so a
change of a position in the reader, or a new code, fails here until the spec says the same.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from wnotation.diagnostics import source_lines
from wnotation.diagnostics.pipeline import start_refusal
from wnotation.notation import NotationError, parse, read_games

ROOT = Path(__file__).resolve().parents[1]
SPEC = (ROOT / "spec" / "7wn.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\S*)( [^\n]*)?\n(.*?)```", SPEC, re.S)
HEADER = next(text for kind, attrs, text in BLOCKS if "example-header" in (attrs or ""))
SECTION = SPEC.split("## 12. Errors", 1)[1].split("\n## 13.", 1)[0]
EXPECT = re.compile(r"=> (?P<code>[a-z]+(?:-[a-z]+)*) (?P<line>[0-9]+):(?P<column>[0-9]+)")


def _cases() -> list[tuple[str, str, bytes | str, str, int, int]]:
    """``(id, attrs, input, code, line, column)`` of every case of every ```7wn-errors block."""
    out = []
    for number, (kind, attrs, text) in enumerate(BLOCKS):
        if kind != "7wn-errors":
            continue
        attrs = (attrs or "").split()
        lines: list[str] = []
        for line in text.splitlines():
            m = EXPECT.fullmatch(line)
            if m is None:
                if lines or line:
                    lines.append(line)
                continue
            assert lines, f"block {number}: a case without input"
            source = "\n".join(lines) + "\n"
            if "whole" not in attrs:
                source = HEADER + "\n" + source
            data: bytes | str = source
            if "bytes" in attrs:
                data = re.sub(rb"\\x([0-9A-Fa-f]{2})", lambda b: bytes([int(b.group(1), 16)]), source.encode())
            out.append((f"{m['code']}-{len(out) + 1}", " ".join(attrs), data, m["code"], int(m["line"]),
                        int(m["column"])))
            lines = []
        assert not lines, f"block {number}: input after the last '=>' line"
    return out


CASES = _cases()


def _refusal(data: bytes | str, tmp_path: Path) -> NotationError:
    """The error the reference gives for ``data``: ``parse`` for a text, reading a file for bytes."""
    if isinstance(data, bytes):
        path = tmp_path / "case.7wn"
        path.write_bytes(data)
        items = list(read_games(path))
        assert items and isinstance(items[-1], NotationError), items
        return items[-1]
    try:
        record = parse(data, source="example.7wn")
    except NotationError as exc:
        return exc
    # a [Position] the rules refuse: the reference reader reads it, the engine judges it, and check (every command
    # that reads a game) reports the reader's error for it (spec/position.md §8)
    refused = start_refusal(record, source_lines(data), "example.7wn")
    assert refused is not None, "the reference accepts the case"
    return refused


def test_the_section_has_cases_of_each_kind():
    kinds = {attrs for _, attrs, *_ in CASES}
    assert {"", "whole", "whole bytes"} <= kinds and len(CASES) >= 60


@pytest.mark.parametrize("attrs, data, code, line, column", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_case_is_refused_with_its_code_at_its_position(attrs, data, code, line, column, tmp_path):
    error = _refusal(data, tmp_path)
    offset = 0 if "whole" in attrs else HEADER.count("\n") + 1
    assert (error.rule, error.line - offset, error.column) == (code, line, column), error


def test_line_length_is_refused_at_the_10001st_character_outside_comments():
    """12.4 describes this case in words: a line of 10,001 characters does not fit in a block."""
    line = "I.1 " + "x" * 9997
    for text, column in ((line, 10_001), (line[:50] + "{ a comment }" + line[50:], 10_001 + 13),
                         (line[:50] + "[%key value]" + line[50:], 10_001 + 12)):
        with pytest.raises(NotationError) as info:
            parse(HEADER + "\n" + text, source="example.7wn")
        assert (info.value.rule, info.value.line, info.value.column) == ("line-length", 8, column)
    parse_ok = HEADER + "\n" + line[:-1]  # 10,000 characters: read (and refused for its unknown card only)
    with pytest.raises(NotationError) as info:
        parse(parse_ok)
    assert info.value.rule == "unknown-card"


# --- the table lists every code --------------------------------------------------------------------------------


def _table_codes() -> list[str]:
    start = SECTION.index("| code | a reader refuses |")
    end = SECTION.index("\n\n", start)
    rows = SECTION[start:end].splitlines()[2:]
    return [re.fullmatch(r"\| `([a-z-]+)` \|.*", row).group(1) for row in rows]  # type: ignore[union-attr]


def _error_classes(trees: list[ast.Module]) -> dict[str, str | None]:
    """Every class of the NotationError family defined in the package, with its class-level ``rule``."""
    nodes = [n for tree in trees for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    classes: dict[str, str | None] = {}
    changed = True
    while changed:
        changed = False
        for node in nodes:
            if node.name in classes:
                continue
            bases = {b.id for b in node.bases if isinstance(b, ast.Name)} & set(classes)
            if node.name != "NotationError" and not bases:
                continue
            rule = next((s.value.value for s in node.body if isinstance(s, ast.Assign)
                         and any(getattr(x, "id", None) == "rule" for x in s.targets)
                         and isinstance(s.value, ast.Constant)), None)
            classes[node.name] = rule if rule is not None or not bases else classes[next(iter(bases))]
            changed = True
    return classes


def _source_codes() -> set[str]:
    """The codes the package's source can give an error: the ``rule="…"`` of every call that makes one (the
    error class is the callee or its first argument), or the class's own ``rule`` when the call gives none."""
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in (ROOT / "wnotation").rglob("*.py")]
    classes = _error_classes(trees)
    assert "NotationSyntaxError" in classes
    codes: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            callee = node.func.id if isinstance(node.func, ast.Name) else None
            first = node.args[0].id if node.args and isinstance(node.args[0], ast.Name) else None
            cls = callee if callee in classes else first if first in classes else None
            if cls is None or callee in ("isinstance", "issubclass"):
                continue
            rule = next((k.value for k in node.keywords if k.arg == "rule"), None)
            if rule is None:
                if any(k.arg is None for k in node.keywords):  # **kw: the caller passes the rule on
                    continue
                codes.add(classes[cls])  # type: ignore[arg-type]
            else:
                assert isinstance(rule, ast.Constant), ast.dump(node)
                codes.add(rule.value)
    return codes


def test_the_table_lists_exactly_the_codes_the_reader_can_emit():
    table = _table_codes()
    assert len(table) == len(set(table))
    assert set(table) == _source_codes()


def test_every_code_of_the_table_has_a_case():
    described_in_words = {"line-length"}  # test_line_length_is_refused_at_the_10001st_character_outside_comments
    assert set(_table_codes()) - described_in_words == {c[3] for c in CASES}


def test_every_code_the_curated_bad_inputs_meet_is_in_the_table():
    table = set(_table_codes())
    met = set()
    for path in sorted((ROOT / "tests" / "bad_inputs").glob("*.7wn")):
        for item in read_games(path):
            if isinstance(item, NotationError):
                met.add(item.rule)
    assert met and met <= table, met - table


# --- source positions (section 11) -------------------------------------------------------------------------------

POSITIONS = HEADER + """[Event "x"]
  [DealI "?, ?, ?, ?, ?, ?, ?"
 "?, ?, ?, ?, ?, ?, ?" "?, ?, ?, ?, ?, ?, ?"]

game !
{ c }
  I.1 { b } Lumber Yard | Bob: sell ? | stage ?, pick Loom
I.2 Lumber Yard | sell ? | stage ?, pick -
  result  Alice: total 3
"""


def test_elements_are_where_section_11_puts_them():
    record = parse(POSITIONS)
    at = lambda span: (span.line, span.column)  # noqa: E731
    assert at(record.span) == (1, 1)
    assert [at(s.span) for s in record.seats] == [(4, 1), (5, 1), (6, 1)]
    assert at(record.tags[0].span) == (7, 1) and at(record.deals[0].span) == (8, 3)
    one, two = record.turns
    assert at(one.span) == (13, 3) and at(two.span) == (14, 1)
    assert [at(a.span) for a in one.actions] == [(13, 13), (13, 27), (13, 41)]
    assert at(one.actions[2].pick.span) == (13, 55) and at(two.actions[2].pick.span) == (14, 42)
    assert at(record.results[0].span) == (15, 3)
    offset = POSITIONS.index("Bob: sell")
    assert one.actions[1].span.offset == offset


def test_a_pick_with_a_comment_inside_is_at_its_card():
    record = parse(HEADER + "\nI.1 Lumber Yard | sell ? | stage ?, pick { x } Loom\n")
    assert record.turns[0].actions[2].pick.span.column == 48
