"""The generated parts of the specification (spec/names.md, spec/record.schema.json) equal the package's.

They are what another implementation reads instead of the package's data files (issue: the spec stands alone), so
a change to the catalogue or the Record that is not republished fails here.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import jsonschema
import pytest

from wnotation.model.catalog import AGES, load, normalise
from wnotation.notation import read_games, to_json
from wnotation.model.record import CATEGORIES, Record

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"


def _generator():
    spec = importlib.util.spec_from_file_location("spec_generate", SPEC / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["names.md", "record.schema.json"])
def test_published_file_equals_what_the_package_generates(name):
    text = (SPEC / name).read_text(encoding="utf-8")
    assert text == _generator().FILES[name](), f"spec/{name} is stale: run python spec/generate.py"


def _table(text: str, heading: str) -> list[list[str]]:
    """The body rows of the first Markdown table at or after ``heading`` (its header row and rule left out)."""
    start = text.index(heading)
    part = text[text.rindex("\n", 0, start) + 1 :]
    rows: list[list[str]] = []
    for line in part.splitlines():
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows[2:]


def test_names_lists_every_card_with_its_copies_and_decks_hold_seven_per_seat():
    text = (SPEC / "names.md").read_text(encoding="utf-8")
    catalog = load()
    for age, numeral in zip(AGES, ("I", "II", "III")):
        rows = _table(text, f"### Age {numeral}\n")
        assert [r[0] for r in rows] == [c.name for c in catalog.age_cards(age)]
        for n, column in zip(range(3, 8), range(3, 8)):
            total = sum(int(r[column]) for r in rows)
            assert total + (n + 2 if age == 3 else 0) == 7 * n, (numeral, n)
    assert [r[0] for r in _table(text, "### Guilds")] == [g.name for g in catalog.guilds]


def test_every_published_wonder_spelling_is_read_as_that_wonder():
    text = (SPEC / "names.md").read_text(encoding="utf-8")
    rows = _table(text, "## Wonders")
    assert len(rows) == 7
    for name, others, _resource in rows:
        for spelling in [name, *filter(None, others.split(", "))]:
            assert load().wonder_name(spelling) == name
            assert load().wonder_name(spelling.upper()) == name


def test_the_matching_key_is_what_the_appendix_defines():
    """Full case folding, then only ASCII letters and digits: the examples of names.md, run."""
    text = (SPEC / "names.md").read_text(encoding="utf-8")
    for example in ("lumber yard", "LumberYard", "Lumber  Yard", "lumber-yard"):
        assert f"`{example}`" in text
        assert normalise(example) == "lumberyard"
        assert load().card_name(example) == "Lumber Yard"
    assert load().card_name("Craftsmen's Guild") == "Craftsmens Guild"
    assert normalise("Lumber Yard") == re.sub(r"[^0-9a-z]", "", "Lumber Yard".casefold())
    assert normalise("ſtone Pit") == "stonepit" and normalise("\u212ailn") == "kiln"
    assert normalise("Café") == "caf"  # a non-ASCII letter that does not fold to ASCII counts for nothing


def _records():
    for path in sorted((ROOT / "replays").glob("*.7wn")) + sorted((SPEC / "cases").glob("*.7wn")):
        for game in read_games(path.read_text(encoding="utf-8"), source=str(path)):
            if isinstance(game, Record):
                yield path.name, game


def test_every_bundled_record_validates_against_the_published_schema():
    schema = json.loads((SPEC / "record.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    count = 0
    for name, record in _records():
        errors = list(validator.iter_errors(json.loads(to_json(record))))
        assert not errors, (name, errors[0].message)
        count += 1
    assert count > 100


def test_the_schema_refuses_what_the_record_refuses():
    schema = json.loads((SPEC / "record.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    good = json.loads(to_json(next(r for _, r in _records())))
    assert validator.is_valid(good)
    for broken in ({**good, "colour": "red"},  # extra fields are forbidden
                   {k: v for k, v in good.items() if k != "seats"},  # seats are required
                   {**good, "turns": [{"age": 4, "number": 1, "actions": []}]}):  # Ages are 1..3
        assert not validator.is_valid(broken)


_OBJECTS = {"game": "Record", "seat": "Seat", "tag": "Tag", "seed": "Seed", "deal": "Deal", "turn": "Turn",
            "variation": "Variation", "action": "Action", "purchase": "Purchase", "coins": "CoinsPaid", "pick": "Pick",
            "result": "SeatResult",
            "annotation": "Annotation"}


def _section_14() -> str:
    text = (SPEC / "7wn.md").read_text(encoding="utf-8")
    return text.split("## 14. JSON", 1)[1].split("\n## 15.", 1)[0]


def test_the_json_section_lists_exactly_the_schemas_members_in_order():
    schema = json.loads((SPEC / "record.schema.json").read_text(encoding="utf-8"))
    listed: dict[str, list[str]] = {}
    current = None
    for row in _table(_section_14(), "| object | member |"):
        current = row[0] or current
        for member in re.findall(r"`(\w+)`", row[1]):
            listed.setdefault(current, []).append(member)
    assert listed["result"][1:3] == [CATEGORIES[0], CATEGORIES[-1]]  # written `military` … `science`
    listed["result"][1:3] = CATEGORIES
    assert set(listed) == set(_OBJECTS)
    for obj, model in _OBJECTS.items():
        definition = schema if model == "Record" else schema["$defs"][model]
        assert listed[obj] == list(definition["properties"]), obj
        assert definition.get("additionalProperties") is False, obj


def test_the_json_example_is_the_7wn_example_after_it():
    section = _section_14()
    document = section.split("```json\n", 1)[1].split("```", 1)[0]
    text = section.split("```7wn\n", 1)[1].split("```", 1)[0]
    from wnotation.notation import parse, records_from_json, write

    (record,) = records_from_json(document)
    assert record == parse(text)
    assert write(record) == text


def test_the_introduction_lists_the_files_of_the_specification():
    """7WN's introduction names the files that together are the specification (the issue's 'Done when'): the
    document, the grammar, every generated file, the deal, the rulings and the casebook, each link resolving."""
    intro = (SPEC / "7wn.md").read_text(encoding="utf-8").split("\n## 1.", 1)[0]
    listed = re.findall(r"^\| \[`([^`]+)`\]\(([^)]+)\)", intro, flags=re.M)
    names = [name for name, _ in listed]
    generated = [f"spec/{name}" for name in _generator().FILES]
    assert set(names) >= {"spec/7wn.md", "grammar/7wn.lark", "spec/deal.md", "spec/rulings.md", "spec/cases/",
                          *generated}
    for name, link in listed:
        assert (SPEC / link).resolve().exists(), (name, link)
        assert (ROOT / name).exists(), name


def _pointer_set(document, pointer: str, value) -> None:
    """Set the member at a JSON Pointer (RFC 6901) of ``document``, adding it if it is missing."""
    *parents, last = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    node = document
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def _pointer_get(document, pointer: str):
    node = document
    for part in pointer.split("/")[1:]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def test_a_json_reader_checks_what_section_14_says_and_nothing_else():
    """Each row of 'What a JSON reader checks' changes one member of the section's example: refused, read as
    given (kept), or read as another value (matched)."""
    import copy

    from wnotation.notation import records_from_json

    section = _section_14()
    example = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    rows = _table(section, "| pointer | value | a reader |")
    assert len(rows) >= 20
    for pointer, value, verdict in rows:
        pointer, value = pointer.strip("`"), json.loads(value.strip("`"))
        document = copy.deepcopy(example)
        _pointer_set(document, pointer, value)
        if verdict.startswith("refuses"):
            with pytest.raises(ValueError):
                records_from_json(json.dumps(document))
            continue
        (record,) = records_from_json(json.dumps(document))
        read = _pointer_get(json.loads(to_json(record)), pointer)
        if verdict == "keeps it":
            assert read == value, pointer
        else:
            assert verdict.startswith("reads `") and read == json.loads(verdict[len("reads `"):-1]), (pointer, read)


def test_deal_md_and_names_md_list_the_same_cards_in_the_same_order_with_the_same_copies():
    """The two normative card lists of the spec agree with each other, not only each with the catalogue: the deal's
    canonical order (deal.md 5) and the names appendix."""
    deal = (SPEC / "deal.md").read_text(encoding="utf-8")
    names = (SPEC / "names.md").read_text(encoding="utf-8")
    for numeral in ("I", "II", "III"):
        in_deal = [(r[1], r[2:7]) for r in _table(deal, f"#### Age {numeral}\n")]
        in_names = [(r[0], r[3:8]) for r in _table(names, f"### Age {numeral}\n")]
        assert in_deal == in_names, numeral
    assert [r[1] for r in _table(deal, "#### Guilds\n")] == [r[0] for r in _table(names, "### Guilds")]
