"""``wnotation rules``: the engine's rule registry listed, or one rule explained (as ``rustc --explain`` does) with
the casebook cases that exercise it: the ``spec/cases/*.7wn`` records whose ``[Rules]`` tag names it; a notation
code (``unknown-card``, ``action-count``: the codes of spec/7wn.md section 12.2, shown in the same brackets as rule
IDs) explained from the spec's table; a casebook case shown by its name.

The spec's files ship inside the package (``wnotation/spec``: the casebook, rulings.md and 7wn.md, force-included
by pyproject.toml as the grammar is), so that an installed wheel finds them; a source checkout reads ``spec/``."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .errors import UserError
from .output import echo, emit_json, print_table

if TYPE_CHECKING:
    from ..engine.rulebook import Rule

#: The spec as the wheel ships it (``wnotation/spec``), and beside the package in a source tree.
PACKAGED_SPEC = Path(__file__).resolve().parents[1] / "spec"
SOURCE_SPEC = Path(__file__).resolve().parents[2] / "spec"


def spec_dir() -> Path:
    """The spec's directory: the installed package's copy first (as the grammar is found), else the source
    tree's."""
    return PACKAGED_SPEC if (PACKAGED_SPEC / "cases").is_dir() else SOURCE_SPEC


@dataclass(frozen=True)
class Case:
    """A casebook case: its number, file name, title, the rules it names, and whether it expects an error."""

    number: str
    name: str
    title: str
    rules: tuple[str, ...]
    illegal: bool


def _tag(text: str, name: str) -> str:
    """The value of header tag ``name`` read with a regular expression (a case the reader refuses has tags too)."""
    found = re.search(rf'^\s*\[{name}\s+"((?:[^"\\]|\\.)*)"\s*\]', text, re.MULTILINE)
    return found.group(1) if found else ""


def casebook(directory: Path) -> list[Case]:
    """Every case of the casebook in ``directory``, in file order; an illegal case states an expected error
    (``[%expect …]``) or a refused notation (``[Notation …]``)."""
    cases = []
    for path in sorted(directory.glob("*.7wn")):
        text = path.read_text(encoding="utf-8")
        illegal = "[%expect " in text or bool(_tag(text, "Notation"))
        cases.append(Case(_tag(text, "Case"), path.name, _tag(text, "Title"), tuple(_tag(text, "Rules").split()),
                          illegal))
    return cases


def ruling_text(rulings: Path, rule: Rule) -> str | None:
    """The body of the rule's section in spec/rulings.md (``None`` without one or without the file)."""
    if rule.ruling is None or not rulings.is_file():
        return None
    text = rulings.read_text(encoding="utf-8")
    start = text.find(f"### {rule.ruling}\n")
    if start < 0:
        return None
    body = text[start:].split("\n", 1)[1]
    end = re.search(r"^##", body, re.MULTILINE)
    return (body[: end.start()] if end else body).strip()


@dataclass(frozen=True)
class Code:
    """A notation code of spec/7wn.md section 12.2: what a reader refuses under it and where the error points."""

    code: str
    refuses: str
    points_at: str


def _plain(markdown: str) -> str:
    """A cell of the spec's table as plain text: links as their text, code spans without backticks."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    return text.replace("\\|", "|").replace("`", "")


def notation_codes(spec: Path) -> list[Code]:
    """The codes of the table of spec/7wn.md section 12.2, in the spec's order (none without the file)."""
    path = spec / "7wn.md"
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    start = text.find("### 12.2 ")
    end = text.find("\n### ", start + 1)
    if start < 0:
        return []
    codes = []
    for row in re.finditer(r"^\| `([a-z][a-z0-9-]*)` \| (.*?) \| (.*?) \|$", text[start:end], re.MULTILINE):
        codes.append(Code(row[1], _plain(row[2]), _plain(row[3])))
    return codes


def _case_key(text: str) -> str:
    return text.strip().lower().removesuffix(".7wn")


def find_case(cases: list[Case], text: str) -> Case | None:
    """The case named ``text``: its file name with or without ``.7wn`` (``023-last-card-wrong-discard``), its
    number (``023``, ``23``) or its name without the number (``last-card-wrong-discard``)."""
    key = _case_key(text)
    for c in cases:
        stem = c.name.removesuffix(".7wn")
        number, _, words = stem.partition("-")
        if key in (stem, words) or (key.isdigit() and key.isascii() and number.isdigit() and int(key) == int(number)):
            return c
    return None


RULES_EPILOG = """\b
RULE is a rule ID (R-TRADE; any case, R- optional), a notation code shown in the same brackets
(unknown-card, action-count: spec/7wn.md section 12.2) or a casebook case (its file name, number
or name). The casebook ships with wnotation (spec/cases of the source tree; --casebook DIR for
another); a case is legal when it replays without an error, illegal when it states the error it
expects.

\b
Examples:
  wnotation rules
  wnotation rules R-TRADE
  wnotation rules trade-minimal
  wnotation rules unknown-card
  wnotation rules 023-last-card-wrong-discard
  wnotation rules --json"""


@click.command(epilog=RULES_EPILOG, short_help="List the rules the engine enforces, or explain one.")
@click.argument("rule", required=False, metavar="[RULE]")
@click.option("--casebook", "cases_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="The casebook's directory (default: the one shipped with wnotation).")
@click.option("--json", "as_json", is_flag=True, help="Print the rules (or the one rule, code or case) as JSON.")
def rules(rule: str | None, cases_dir: Path | None, as_json: bool) -> None:
    """List every rule ID with its title, or explain RULE (an ID in any case, R- optional): what it says, where
    the spec states it, and the casebook cases that exercise it; or explain a notation code, or show a case."""
    from ..engine import rulebook

    spec = spec_dir()
    directory = cases_dir if cases_dir is not None else spec / "cases"
    if cases_dir is not None and not cases_dir.is_dir():
        raise UserError(f"cannot read {cases_dir}: no such directory")
    cases = casebook(directory) if directory.is_dir() else None
    if rule is None:
        _list(rulebook.RULES, cases, as_json)
        return
    codes = {c.code: c for c in notation_codes(spec)}
    code = codes.get(rule.strip().lower())
    try:
        found = rulebook.lookup(rule)
    except rulebook.UnknownRule as exc:
        if code is not None:
            _explain_code(code, as_json)
            return
        case = find_case(cases or [], rule)
        if case is not None:
            _show_case(case, directory, as_json)
            return
        raise UserError(_unknown(rule, exc, list(codes), cases or [])) from None
    _explain(found, cases, directory, as_json, also=code)


def _unknown(text: str, exc: Any, codes: list[str], cases: list[Case]) -> str:
    """The error for a RULE that names nothing: the nearest rule ID, notation code or case, if one is near."""
    import difflib

    if exc.suggestion is not None:
        return str(exc)
    names = codes + [c.name.removesuffix(".7wn") for c in cases]
    near = difflib.get_close_matches(text.strip().lower(), names, n=1, cutoff=0.8)
    if near:
        return f"no rule, notation code or case {text!r}; did you mean {near[0]}?"
    return f"no rule, notation code or case {text!r} (wnotation rules lists the rules)"


def _citing(cases: list[Case] | None, rule: Rule) -> list[Case]:
    return [c for c in cases or () if rule.id in c.rules]


def _data(rule: Rule, cases: list[Case] | None) -> dict[str, Any]:
    data: dict[str, Any] = {"id": rule.id, "title": rule.title, "summary": rule.summary, "section": rule.section,
                            "is_ruling": rule.is_ruling, "ruling": rule.ruling, "breakable": rule.breakable}
    if cases is not None:
        data["cases"] = [{"case": c.number, "file": c.name, "title": c.title, "illegal": c.illegal}
                         for c in _citing(cases, rule)]
    return data


def _list(registry: tuple[Rule, ...], cases: list[Case] | None, as_json: bool) -> None:
    if as_json:
        emit_json({"rules": [_data(r, cases) for r in registry]})
        return
    header = ["rule", "title"] + (["cases"] if cases is not None else [])
    rows = []
    for r in registry:
        title = f"(ruling) {r.title}" if r.is_ruling else r.title
        row = [r.id, title]
        if cases is not None:
            citing = _citing(cases, r)
            bad = sum(c.illegal for c in citing)
            row.append(f"{len(citing) - bad} legal, {bad} illegal")
        rows.append(row)
    print_table(header, rows)


def _explain(rule: Rule, cases: list[Case] | None, directory: Path, as_json: bool, also: Code | None = None) -> None:
    if as_json:
        emit_json(_data(rule, cases) | ({"notation_code": _code_data(also)} if also is not None else {}))
        return
    kind = "A ruling (this project's choice where the official text is open)" if rule.is_ruling else "A rule"
    echo(f"{rule.id}: {rule.title}")
    echo()
    echo(textwrap.fill(rule.summary, width=100))
    echo()
    echo(f"{kind} of the rules reference, chapter '{rule.section}'."
               + ("" if rule.breakable else " It decides values only: no record breaks it."))
    ruling = ruling_text(directory.parent / "rulings.md", rule)
    if rule.ruling is not None:
        echo(f"spec/rulings.md, section '{rule.ruling}'" + (":" if ruling else "."))
        if ruling:
            echo()
            echo(textwrap.indent(ruling, "  "))
    echo()
    if also is not None:
        echo(f"{also.code} is also a notation code (spec/7wn.md, section 12.2): a reader refuses {also.refuses}.")
        echo()
    if cases is None:
        echo(f"casebook: not found at {directory} (give --casebook DIR)")
        return
    citing = _citing(cases, rule)
    if not citing:
        echo(f"no case of {directory} names {rule.id}")
        return
    echo(f"Cases of the casebook ({directory}) that name {rule.id}:")
    print_table(["case", "", "title"], [[c.name.removesuffix(".7wn"), "illegal" if c.illegal else "legal", c.title]
                                        for c in citing])


def _code_data(code: Code) -> dict[str, Any]:
    return {"code": code.code, "refuses": code.refuses, "points_at": code.points_at, "section": "7wn.md 12.2"}


def _explain_code(code: Code, as_json: bool) -> None:
    if as_json:
        emit_json(_code_data(code))
        return
    echo(f"{code.code}: a notation code (spec/7wn.md, section 12.2): the text is not valid 7WN, so the game is not "
         "replayed")
    echo()
    echo(textwrap.fill(f"A reader refuses {code.refuses}.", width=100))
    echo()
    echo(textwrap.fill(f"The line and column point at {code.points_at}.", width=100))


def _show_case(case: Case, directory: Path, as_json: bool) -> None:
    text = (directory / case.name).read_text(encoding="utf-8")
    if as_json:
        emit_json({"case": case.number, "file": case.name, "title": case.title, "rules": list(case.rules),
                   "illegal": case.illegal, "text": text})
        return
    kind = "illegal: it states the error it expects" if case.illegal else "legal: it replays without an error"
    echo(f"{case.name.removesuffix('.7wn')}: {case.title}")
    echo()
    echo(f"Case {case.number} of the casebook ({directory}), {kind}; it names {' '.join(case.rules) or 'no rule'}.")
    echo()
    echo(textwrap.indent(text.rstrip("\n"), "  "))


COMMANDS = (rules,)
