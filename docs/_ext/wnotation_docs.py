"""Pages of the documentation site generated from the code, so they cannot drift from it.

``docs/spec/`` mirrors ``spec/``: for every ``spec/*.md`` (and the casebook README) a page that only includes it,
written when the build starts, so a specification added to ``spec/`` is on the site without a copy, and the
specs' links to each other resolve as on GitHub (the grammar and the JSON Schema they link become downloads).
A page line ``% generated: rules`` becomes every rule of the registry (``wnotation.engine.rulebook.RULES``) by
chapter, each with its summary, its ruling and the casebook cases that name it; ``% generated: casebook`` becomes
every case of ``spec/cases/`` with its verdict and text. Both are Markdown handed to MyST (``source-read``), so
headings, anchors and highlighting are those of a written page. Not a general templating tool.
"""

from __future__ import annotations

import re
from pathlib import Path

from wnotation.cli.rules import Case, casebook
from wnotation.engine import rulebook
from pygments.lexer import inherit
from pygments.token import Error, Generic

from wnotation.viewer.lexer import SevenWNLexer, tokens

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "spec" / "cases"
RULINGS = ROOT / "spec" / "rulings.md"
MARKER = re.compile(r"^% generated: (\w+)$", re.M)


def slug(heading: str) -> str:
    """MyST's anchor of a heading (``myst_heading_anchors``): lower case, punctuation dropped, blanks to ``-``."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def expected(text: str, kind: str = "") -> list[str]:
    """The rule IDs a case's record announces with ``[%expect…]`` (``kind`` ``-warning``: warnings,
    ``-variation``: findings inside a variation), in order of appearance, each once."""
    found: list[str] = []
    for group in re.findall(rf"\[%expect{re.escape(kind)} ([^\]]*)\]", text):
        found += [rule for rule in group.split() if rule not in found]
    return found


def _refs(rules: list[str]) -> str:
    return ", ".join(f"{{ref}}`{rule} <rule-{rule.lower()}>`" for rule in rules)


def verdict(case: Case, text: str) -> str:
    """What the case must give, in a few words: legal, the findings it announces (errors, warnings, findings
    inside a variation), or the reader's refusal."""
    notation = re.search(r'^\[Notation "([^"]*)"\]', text, re.M)
    if notation:
        return f"refused by the reader: `{notation.group(1)}`"
    parts = [f"{label}: {_refs(rules)}" for label, rules in (
        ("illegal", expected(text)), ("a warning", expected(text, "-warning")),
        ("illegal in a variation", expected(text, "-variation"))) if rules]
    return "; ".join(parts) or "legal"


def _case_text(case: Case) -> str:
    return (CASES / case.name).read_text(encoding="utf-8")


def compliance(cases: list[Case]) -> str:
    """The compliance statement in figures: rules, rulings, and how the casebook covers them."""
    rules = rulebook.RULES
    named = {rule for case in cases for rule in case.rules}
    both = [r for r in rules if any(r.id in c.rules and c.illegal for c in cases)
            and any(r.id in c.rules and not c.illegal for c in cases)]
    values = [r for r in rules if not r.breakable]
    missing = [r for r in rules if r.breakable and r not in both]
    return (f"**Compliance.** The engine enforces {len(rules)} rules in {len({r.section for r in rules})} chapters; "
            f"{sum(r.is_ruling for r in rules)} of them are rulings of the project. The casebook holds "
            f"{len(cases)} cases: {sum(not c.illegal for c in cases)} legal, {sum(c.illegal for c in cases)} "
            f"illegal. {sum(r.id in named for r in rules)} of the {len(rules)} rules are named by cases; "
            f"{len(both)} have both a legal and an illegal case, and {len(values)} decide values only, so that no "
            "record can break them" + (": " + ", ".join(r.id for r in values) if values else "") + "."
            + (" Breakable rules without both kinds of case: " + ", ".join(r.id for r in missing) + "." if missing
               else "") + "\n")


def rules_page() -> str:
    cases = casebook(CASES)
    out: list[str] = [compliance(cases)]
    section = None
    for rule in rulebook.RULES:
        if rule.section != section:
            section = rule.section
            out.append(f"## {section}\n")
        citing = [case for case in cases if rule.id in case.rules]
        out.append(f"({'rule-' + rule.id.lower()})=\n### {rule.id}: {rule.title}\n\n{rule.summary}\n")
        if rule.ruling is not None:
            out.append(f"A ruling of the project: [{rule.ruling}](spec/rulings.md#{slug(rule.ruling)}).\n")
        if not rule.breakable:
            out.append("This rule decides values only: no record can break it.\n")
        if citing:
            out.append("| case | what it shows | verdict |\n|---|---|---|")
            for case in citing:
                out.append(f"| {{ref}}`{case.number} <case-{case.number}>` | {case.title} | "
                           f"{verdict(case, _case_text(case))} |")
            out.append("")
        else:
            out.append("No casebook case names it.\n")
    return "\n".join(out)


def casebook_page() -> str:
    out: list[str] = []
    for case in casebook(CASES):
        text = _case_text(case)
        lexer = "7wn" if not any(kind == "err" for kind, _ in tokens(text)) else "text"
        rules = ", ".join(f"{{ref}}`{rule} <rule-{rule.lower()}>`" for rule in case.rules)
        out.append(f"(case-{case.number})=\n### {case.number}: {case.title}\n\n"
                   f"`{case.name}` · rules {rules} · {verdict(case, text)}\n\n"
                   f"````{lexer}\n{text.rstrip()}\n````\n")
    return "\n".join(out)


PAGES = {"rules": rules_page, "casebook": casebook_page}


def _expand(app, docname: str, source: list[str]) -> None:
    def generated(match: re.Match[str]) -> str:
        return PAGES[match.group(1)]()

    source[0] = MARKER.sub(generated, source[0])



class FragmentLexer(SevenWNLexer):
    """``7wn-body``: the spec's fragments of a record's body (turn lines without a header), coloured as 7WN."""

    name = "7WN fragment"
    aliases = ["7wn-body"]
    filenames = []


class ErrorExampleLexer(SevenWNLexer):
    """``7wn-errors``/``7wn-error``: the spec's examples of broken records, coloured as far as they are 7WN; what
    is not is marked ``Generic.Error`` rather than ``Error`` (Sphinx refuses a block with an error token), and an
    ``=> code line:col`` verdict line is output."""

    name = "7WN error example"
    aliases = ["7wn-errors", "7wn-error"]
    filenames = []
    tokens = {"root": [(r"=>[^\n]*", Generic.Output), inherit]}

    def get_tokens_unprocessed(self, text, stack=("root",)):
        for index, kind, value in super().get_tokens_unprocessed(text, stack):
            yield index, (Generic.Error if kind in Error else kind), value


def mirror_spec(app, config) -> None:
    """``docs/spec/NAME.md`` including ``spec/NAME.md`` for every specification, ``docs/spec/cases/README.md``
    the casebook's README, and links to the files the specs point at; each written only when it changes."""
    docs = Path(app.srcdir)
    wanted: dict[Path, str] = {}
    for spec in sorted((ROOT / "spec").glob("*.md")):
        wanted[docs / "spec" / spec.name] = f"```{{include}} ../../spec/{spec.name}\n```\n"
    wanted[docs / "spec" / "cases" / "README.md"] = "```{include} ../../../spec/cases/README.md\n```\n"
    for page, text in wanted.items():
        page.parent.mkdir(parents=True, exist_ok=True)
        if not page.is_file() or page.read_text(encoding="utf-8") != text:
            page.write_text(text, encoding="utf-8")
    for page in (docs / "spec").glob("*.md"):
        if page not in wanted:
            page.unlink()  # its specification is gone
    for link, target in ((docs / "grammar" / "7wn.lark", ROOT / "grammar" / "7wn.lark"),
                         (docs / "spec" / "record.schema.json", ROOT / "spec" / "record.schema.json")):
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.is_symlink():
            link.symlink_to(target)


#: The conformance vectors as one download of the site (docs/howto/conformance.md links it).
VECTORS_ZIP = "_vectors/wnotation-conformance-vectors-{version}.zip"


def conformance_vectors(app, config) -> None:
    """``docs/_vectors/…zip``: the conformance vectors generated from this source tree (``wnotation conformance
    vectors``' files), with fixed dates so that the same sources give the same bytes; written only when it
    changes."""
    import io
    import zipfile

    from wnotation.conformance import vectors

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in vectors.files(vectors.generate()).items():
            info = zipfile.ZipInfo(f"wnotation-conformance-vectors-{vectors.VECTORS_VERSION}/{name}",
                                   date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, text)
    target = Path(app.srcdir) / VECTORS_ZIP.format(version=vectors.VECTORS_VERSION)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.is_file() or target.read_bytes() != buffer.getvalue():
        target.write_bytes(buffer.getvalue())


FENCE_LANGUAGE = re.compile(r"^`{3,}[ \t]*(7wn[\w-]*)", re.M)


def register_lexers(app, config) -> None:
    """The lexer of every ``7wn…`` block language the pages and specs use: 7WN itself (the package's entry point),
    fragments, error examples; a language no lexer is installed for (a format being specified, such as
    ``7wn-position``) is shown as plain text rather than failing the build."""
    from pygments.lexers import find_lexer_class_by_name
    from pygments.lexers.special import TextLexer
    from pygments.util import ClassNotFound

    for lexer in (FragmentLexer, ErrorExampleLexer):
        for alias in lexer.aliases:
            app.add_lexer(alias, lexer)
    sources = [*Path(app.srcdir).rglob("*.md"), *(ROOT / "spec").rglob("*.md")]
    used = {name for path in sources for name in FENCE_LANGUAGE.findall(path.read_text(encoding="utf-8"))}
    known = {alias for lexer in (FragmentLexer, ErrorExampleLexer) for alias in lexer.aliases}
    for name in sorted(used - known):
        try:
            find_lexer_class_by_name(name)
        except ClassNotFound:
            app.add_lexer(name, TextLexer)


def setup(app):
    app.connect("config-inited", mirror_spec)
    app.connect("config-inited", register_lexers)
    app.connect("config-inited", conformance_vectors)
    app.connect("source-read", _expand)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
