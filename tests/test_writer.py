"""Writer unit tests: the canonical form of every construct, and what the writer refuses."""

from __future__ import annotations

import pytest

from helpers import HEADER
from wnotation.notation import format_action, format_purchase, parse, write, write_games
from wnotation.model.record import Action, Annotation, Pick, Purchase, Record, Seat, Tag, Turn

LENIENT = HEADER.replace('"day"', '"A"') + """
game !? [%opening  wood]   {intro}
{before}
I.1   lumber yard!{x} |sell ? ?| STAGE ?(r wood, l 2 clay)
I.2 Temple (R glass, L clay clay) | sell ?, pick {b} altar ! {a} | stage ? , discard ?
result #1: coins 3 total 40
"""

CANONICAL = HEADER + """game !? [%opening  wood] { intro }
{ before }
I.1 Lumber Yard ! { x } | sell ? ? | stage ? (L 2 clay, R wood)
I.2 Temple (L 2 clay, R glass) | sell ?, pick { b } Altar ! { a } | stage ?, discard ?
result Alice: total 40 coins 3
"""


def test_canonical_form_of_a_lenient_text():
    assert write(parse(LENIENT)) == CANONICAL
    assert write(parse(CANONICAL)) == CANONICAL


def test_header_order_and_deal_layout():
    text = HEADER.replace("[Date", '[Seed "SM64-FY 7"]\n[Event "E"]\n[Date').replace(
        "\n\n", '\n[DealIII "?, ?, ?, ?, ?, ?, ?" "?, ?, ?, ?, ?, ?, ?" "?, ?, ?, ?, ?, ?, Arena"]\n'
        '[Guilds "Workers Guild, Spies Guild, Traders Guild, Builders Guild, Scientists Guild"]\n\n')
    lines = write(parse(text)).splitlines()
    assert [l.split(" ")[0] for l in lines] == ["[Format", "[Edition", "[Date", "[Event", "[Seat1", "[Seat2",
                                                "[Seat3", "[Guilds", "[Seed", "[DealIII", "", ""]
    assert lines[-2:] == ['  "?, ?, ?, ?, ?, ?, ?"', '  "?, ?, ?, ?, ?, ?, Arena"]']


def test_header_only_game_has_no_blank_line():
    assert write(parse(HEADER)) == HEADER.rstrip("\n") + "\n"


def test_turn_annotations_after_slashes_and_extra_turn_seats():
    lines = [f"I.{i} Lumber Yard | sell ? | stage ?" for i in range(1, 7)]
    text = HEADER + "\n".join(lines) + "\n{ t }\n[%k v]\nI.7 Bob: sell ? // ?! { after }\n"
    assert write(parse(text)).endswith("{ t }\nI.7 Bob: sell ? // ?! [%k v] { after }\n")


def test_unsafe_seat_names_are_written_by_number():
    text = HEADER.replace('"Bob"', '"B:b {x}"') + "I.1 Altar | sell ? | stage ?\nresult #2: total 1\n"
    assert write(parse(text)).endswith("result #2: total 1\n")


def test_purchase_format():
    assert format_purchase(Purchase(left=("clay", "clay", "glass"), right=())) == "(L 2 clay glass)"
    assert format_purchase(Purchase()) == "()"
    assert format_purchase(Purchase(right=("wood",) * 100)) == "(R 99 wood wood)"


def test_action_format():
    a = Action(seat=1, use="stage", card="?", purchase=Purchase(right=("ore",)), discard="Altar",
               pick=Pick(card=None, annotation=Annotation(glyph="?!")), annotation=Annotation(glyph="?", tags=(("k", "a]b\\"),)))
    assert format_action(a) == "stage ? (R ore) ?, discard Altar [%k a\\]b\\\\], pick - ?!"


def test_escapes_round_trip():
    r = parse(HEADER.replace("[Seat1", '[Event "q\\"b\\\\"]\n[Seat1') + "{ x \\} \\\\ }\nI.1 Altar | sell ? | stage ?\n")
    text = write(r)
    assert '[Event "q\\"b\\\\"]' in text and "{ x \\} \\\\ }" in text
    assert parse(text) == r


def test_write_games_separates_games_with_a_blank_line():
    r = parse(HEADER)
    assert write_games([r, r]) == write(r) + "\n" + write(r)
    assert len(list(parse(write(r)).seats)) == 3


@pytest.mark.parametrize(
    "change",
    [
        {"tags": (Tag(name="Seat4", value="x"),)},
        {"tags": (Tag(name="bad name", value="x"),)},
        {"tags": (Tag(name="Event", value="a\nb"),)},
        {"turns": (Turn(age=1, number=7, actions=()),)},
        {"annotation": Annotation(tags=(("1key", "v"),))},
        {"annotation": Annotation(after=("a\rb",))},
        {"date": "????.??.??"},
        {"date": "2026-11-29"},
        {"date": ""},
    ],
)
def test_writer_refuses_what_no_text_can_express(change):
    seats = tuple(Seat(name=n, wonder=w, side="day") for n, w in (("A", "Gizah"), ("B", "Rhodos"), ("C", "Olympia")))
    with pytest.raises(ValueError):
        write(Record(seats=seats, **change))


def test_unknown_date_has_one_representation():
    """``None`` is the unknown date: written ``????.??.??``, read back as ``None``; partial dates stay strings."""
    seats = tuple(Seat(name=n, wonder=w, side="day") for n, w in (("A", "Gizah"), ("B", "Rhodos"), ("C", "Olympia")))
    for date in (None, "2026.??.??", "2026.11.29"):
        record = Record(seats=seats, date=date)
        text = write(record)
        assert parse(text) == record and write(parse(text)) == text
    assert '[Date "????.??.??"]' in write(Record(seats=seats))
    with pytest.raises(ValueError, match="None"):
        write(Record(seats=seats, date="????.??.??"))


def _three_seat_record(turns, results=()):
    seats = tuple(Seat(name=n, wonder=w, side="day") for n, w in (("Ann", "Gizah"), ("Ben", "Babylon"), ("Cat", "Rhodos")))
    return Record(seats=seats, turns=turns, results=results)


def test_actions_are_written_in_seat_order_whatever_their_order_in_the_record():
    acts = (Action(seat=3, use="build", card="Loom"), Action(seat=1, use="sell", card="?"),
            Action(seat=2, use="build", card="Press"))
    text = write(_three_seat_record((Turn(age=1, number=1, actions=acts),)))
    assert "I.1 sell ? | Press | Loom\n" in text
    assert {a.seat: a.card for a in parse(text).turns[0].actions} == {1: "?", 2: "Press", 3: "Loom"}


def test_a_normal_turn_without_an_action_for_every_seat_is_refused():
    """A turn line gives each action to the seat of its place: writing seats 1 and 3 would make seat 3's play
    seat 2's."""
    acts = (Action(seat=1, use="build", card="Loom"), Action(seat=3, use="build", card="Press"))
    with pytest.raises(ValueError, match="no action for seat 2"):
        write(_three_seat_record((Turn(age=1, number=1, actions=acts),)))


@pytest.mark.parametrize("seat", [0, 4, 99])
def test_a_result_for_a_seat_outside_the_table_is_refused_not_misplaced(seat):
    """Seat 0 was written as the last seat's result and seat 99 raised IndexError (unvalidated Records)."""
    from wnotation.model.record import SeatResult

    record = _three_seat_record(()).model_copy(update={"results": (SeatResult.model_construct(seat=seat, total=3),)})
    with pytest.raises(ValueError, match="this game has seats 1 to 3"):
        write(record)


def test_the_writer_and_reader_share_one_reserved_tag_list_and_the_writer_imports_no_reader():
    import ast
    import pathlib

    import wnotation.notation.writer as writer_module
    from wnotation.notation import reader, tags

    assert reader.RESERVED_TAGS is tags.RESERVED_TAGS
    source = pathlib.Path(writer_module.__file__).with_name("writer.py")  # compiled, __file__ names the .so
    tree = ast.parse(source.read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {m for m in imported if m and m.split(".")[0] == "reader"}


@pytest.mark.parametrize("name", ["Seat3", "seed", "DEALII"])
def test_a_free_tag_under_a_reserved_name_is_refused_by_the_writer(name):
    record = parse(CANONICAL)
    clash = record.model_copy(update={"tags": (*record.tags, Tag(name=name, value="x"))})
    with pytest.raises(ValueError, match="unreserved"):
        write(clash)
