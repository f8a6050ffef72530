"""``wnotation rules``: the engine's rule registry listed, or one rule explained (as ``rustc --explain`` does) with
the casebook cases that exercise it: the ``spec/cases/*.7wn`` records whose ``[Rules]`` tag names it."""

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

#: The spec beside the package in a source tree (an installed wheel has none: then only the registry is shown).
SPEC = Path(__file__).resolve().parents[2] / "spec"


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


RULES_EPILOG = """\b
The casebook is spec/cases/ of the source tree (--casebook DIR elsewhere); a case is legal
when it replays without an error, illegal when it states the error it expects.

\b
Examples:
  wnotation rules
  wnotation rules R-TRADE
  wnotation rules trade-minimal
  wnotation rules --json"""


@click.command(epilog=RULES_EPILOG, short_help="List the rules the engine enforces, or explain one.")
@click.argument("rule", required=False, metavar="[RULE]")
@click.option("--casebook", "cases_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="The casebook's directory (default: spec/cases of the source tree, when there is one).")
@click.option("--json", "as_json", is_flag=True, help="Print the rules (or the one rule) as JSON.")
def rules(rule: str | None, cases_dir: Path | None, as_json: bool) -> None:
    """List every rule ID with its title, or explain RULE (an ID in any case, R- optional): what it says, where
    the spec states it, and the casebook cases that exercise it."""
    from ..engine import rulebook

    directory = cases_dir if cases_dir is not None else SPEC / "cases"
    if cases_dir is not None and not cases_dir.is_dir():
        raise UserError(f"cannot read {cases_dir}: no such directory")
    cases = casebook(directory) if directory.is_dir() else None
    if rule is None:
        _list(rulebook.RULES, cases, as_json)
        return
    try:
        found = rulebook.lookup(rule)
    except rulebook.UnknownRule as exc:
        raise UserError(str(exc)) from None
    _explain(found, cases, directory, as_json)


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


def _explain(rule: Rule, cases: list[Case] | None, directory: Path, as_json: bool) -> None:
    if as_json:
        emit_json(_data(rule, cases))
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


COMMANDS = (rules,)
