"""The table of header tags (wnotation/notation/tags.py) drives the reader's header, the writer and the reserved-tag
list: each field of the table has one reader and one writer, and they follow the table's order."""

from __future__ import annotations

import pytest

from helpers import HEADER
from wnotation.lsp import analysis
from wnotation.notation import NotationError, parse, write
from wnotation.notation import tags as tag_table
from wnotation.notation import writer
from wnotation.notation.reader import header as reader_header
from wnotation.model.record import Record, Tag

_SEEDED = HEADER.replace("[Date", '[Seed "SM64-FY 7"]\n[Event "E"]\n[Expansions "Leaders"]\n[Date').replace(
    "\n\n", '\n[DealIII "?, ?, ?, ?, ?, ?, ?" "?, ?, ?, ?, ?, ?, ?" "?, ?, ?, ?, ?, ?, Arena"]\n'
    '[Guilds "Workers Guild, Spies Guild, Traders Guild, Builders Guild, Scientists Guild"]\n\n')


def test_every_field_of_the_table_has_one_reader_and_one_writer_and_is_a_record_field():
    assert tuple(writer.FIELD_WRITERS) == tag_table.FIELDS
    assert tuple(reader_header._FIELD_READERS) == tag_table.FIELDS
    assert set(tag_table.FIELDS) <= set(Record.model_fields)
    assert tag_table.FIELDS == reader_header.Header.HEADER_FIELDS


def test_the_reserved_names_are_those_the_reader_always_reserved():
    before = {"Format", "Edition", "Date", "Guilds", "Seed", "DealI", "DealII", "DealIII", "Expansions",
              *(f"Seat{i}" for i in range(1, 8))}
    assert set(tag_table.RESERVED_TAGS) == before
    assert "Position" in tag_table.FREE_TAGS and "Position" not in tag_table.RESERVED_TAGS
    assert set(tag_table.RESERVED_BY_FOLDED.values()) == before


def test_completions_offer_exactly_the_table_s_tags():
    assert sorted(analysis.OFFERED_TAGS) == sorted(row.name for row in tag_table.TAGS)


def test_the_writer_writes_the_fields_in_the_table_s_order():
    names = [line[1:].split(" ")[0] for line in write(parse(_SEEDED)).splitlines() if line.startswith("[")]
    fields = [tag_table.BY_NAME[n].field if n in tag_table.BY_NAME else "tags" for n in names]
    assert fields == sorted(fields, key=tag_table.FIELDS.index)
    assert set(fields) == set(tag_table.FIELDS)  # every field is written here


def test_a_tag_the_table_shapes_as_a_seat_holds_three_values():
    with pytest.raises(NotationError, match=r"\[Seat2\] holds three values") as info:
        parse(HEADER.replace('"Bob" "Babylon" "night"', '"Bob" "Babylon"'))
    assert info.value.rule == "tag-value"


@pytest.mark.parametrize("name", [row.name for row in tag_table.TAGS if row.reserved and row.shape == "one"])
def test_a_reserved_name_in_the_wrong_case_is_refused_by_the_reader_and_the_writer(name):
    wrong = name.upper()
    with pytest.raises(NotationError, match="case-sensitive") as info:
        parse(HEADER.replace("[Date", f'[{wrong} "x"]\n[Date'))
    assert info.value.rule == "tag-name" and info.value.suggestion == name
    record = parse(HEADER)
    with pytest.raises(ValueError, match="unreserved"):
        write(record.model_copy(update={"tags": (Tag(name=wrong, value="x"),)}))


def test_one_header_type_a_record_gives_the_header_read_headers_gives():
    from wnotation.notation import read_headers
    from wnotation.notation.reader import Header

    read = next(read_headers(_SEEDED, source="g.7wn"))
    assert isinstance(read, Header)
    made = Header.of(parse(_SEEDED), source="g.7wn", index=1, line=1, offset=0)
    assert made == read
    assert made.seed is not None and made.seed.value == 7 and made.expansions == ("Leaders",)
    assert [d.age for d in made.deals] == [3] and made.tag("Event") == "E"


def test_no_header_is_built_from_positional_fields():
    """The 14-positional-argument ``Header(...)`` calls are gone: every Header is built by name (``Header.of``)."""
    import ast
    import pathlib

    import wnotation

    calls = []
    for path in pathlib.Path(wnotation.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Header":
                calls.append((path.name, len(node.args)))
    assert all(n == 0 for _, n in calls), calls
