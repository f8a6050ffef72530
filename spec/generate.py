"""Write the parts of the specification that are generated from the package: the names and the JSON Schema.

``spec/names.md`` lists every card (per Age, with its copies per player count), guild and Wonder with the
spellings a reader accepts; ``spec/record.schema.json`` is the JSON Schema of a game (7WN section 14). Both are
normative, and ``tests/test_spec_published.py`` fails when either differs from what this script writes, so the
published files and the package cannot drift apart.

Usage: ``python spec/generate.py`` (rewrites both files), ``--check`` (exit 1 if a file differs).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from wnotation.model.catalog import AGE_NUMERALS, AGES, load
from wnotation.notation import json_schema

HERE = Path(__file__).resolve().parent
PLAYERS = range(3, 8)


def _row(*cells: object) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def names_text() -> str:
    """The text of ``spec/names.md``."""
    catalog = load()
    out = [
        "# 7WN names (normative appendix)",
        "",
        "Generated from the package's catalogue by `python spec/generate.py`; do not edit by hand. Together with",
        "[`7wn.md`](7wn.md) section 7.2 this is the list of names a 7WN reader accepts and a writer writes.",
        "",
        "## Matching",
        "",
        "A name in a record matches a name of these lists when both have the same **matching key**. The key of a",
        "text is computed in two steps:",
        "",
        "1. full Unicode case folding (the `C` and `F` mappings of `CaseFolding.txt`, as Python's `str.casefold`);",
        "2. removal of every character that is not an ASCII letter `a`–`z` or digit `0`–`9` after step 1.",
        "",
        "So blanks, punctuation and any other character count for nothing: `lumber yard`, `LumberYard`,",
        "`Lumber  Yard` and `lumber-yard` all have the key `lumberyard`, and `Craftsmen's Guild` is Craftsmens",
        "Guild. Case folding may turn a non-ASCII letter into ASCII ones (`ſ` folds to `s`, the Kelvin sign `K` to",
        "`k`); any other non-ASCII letter is dropped by step 2. No two names of one list share a key. A writer",
        "always writes the name as printed in the first column.",
        "",
        "## Cards",
        "",
        "Every card design of an Age deck except the guilds, in the canonical deck order of",
        "[`deal.md`](deal.md). *Copies from* gives the smallest player count of each copy of the design; the",
        "columns 3p…7p give how many copies an Age deck for that number of players holds (R-DECK). Glassworks,",
        "Press and Loom are printed in Ages I and II: the two designs are different cards with one name.",
        "",
    ]
    for age in AGES:
        cards = catalog.age_cards(age)
        out += [f"### Age {AGE_NUMERALS[age]}", "",
                _row("name", "colour", "copies from", *(f"{n}p" for n in PLAYERS)),
                _row(*["---"] * (3 + len(PLAYERS)))]
        for card in cards:
            out.append(_row(card.name, card.colour, ", ".join(map(str, card.copies)),
                            *(card.copies_for(n) for n in PLAYERS)))
        out.append("")
        totals = [sum(c.copies_for(n) for c in cards) for n in PLAYERS]
        guilds = "" if age != 3 else ", plus N+2 guilds"
        out += ["Cards per deck: " + ", ".join(f"{n}p {t}{guilds}" for n, t in zip(PLAYERS, totals)) + ".", ""]
    out += ["### Guilds", "",
            f"The {len(catalog.guilds)} guilds (Age III, purple, one copy each); N+2 of them are in an N-player "
            "game (R-DECK).", "",
            _row("name"), _row("---")]
    out += [_row(g.name) for g in catalog.guilds]
    out += ["", "## Wonders", "",
            "Each Wonder has a day and a night side (a record writes `day` or `night`; a reader also accepts `A`",
            "and `B`). A reader accepts every spelling of the second column; a writer writes the first.", "",
            _row("name", "also accepted", "starting resource"), _row("---", "---", "---")]
    spellings = catalog.wonder_spellings()
    for name in dict.fromkeys(w.name for w in catalog.wonders):
        day = catalog.wonder(name, "day")
        out.append(_row(name, ", ".join(spellings[name]) or "—", day.resource))
    out.append("")
    return "\n".join(out)


def schema_text() -> str:
    """The text of ``spec/record.schema.json``: the JSON Schema of one game, as ``wnotation schema`` prints it."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


FILES = {"names.md": names_text, "record.schema.json": schema_text}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, make in FILES.items():
        path = HERE / name
        text = make()
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8", newline="\n")
    for name in stale:
        print(f"spec/{name} differs from the package: run python spec/generate.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
