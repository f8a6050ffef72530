"""The Record's classes are native (issue 31 item 1): slotted, no pydantic on the reader's path, and alike in every
way callers see to the pydantic models they were, whose twins (``wnotation.model.record_json``) now hold the JSON
boundary. The bundled replays' JSON, dumps and reprs were compared byte for byte with main's when this was made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from wnotation.model import record, record_json
from wnotation.model.record import Action, Annotation, CoinsPaid, Record, Seat, Span, StatedPurchase, Turn
from wnotation.notation import from_json, parse, to_json

ROOT = Path(__file__).resolve().parent.parent
GAME = parse((ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn").read_text(encoding="utf-8"))


def test_the_classes_are_native_and_slotted():
    for cls in (record.Span, record.Annotation, StatedPurchase, CoinsPaid, record.Pick, Action, Turn,
                record.Variation, Seat, record.Deal, record.Seed, record.Tag, record.SeatResult, Record):
        assert not issubclass(cls, BaseModel)
        assert not hasattr(cls.model_construct(), "__dict__"), cls
        assert cls.__name__ in record_json._TWINS  # the schema's names, the errors' titles


def test_equality_and_hash_ignore_where_an_element_was_read():
    action = GAME.turns[0].actions[0]
    moved = action.model_copy(update={"span": Span(line=99, column=1)})
    assert moved == action and hash(moved) == hash(action) and moved.span != action.span
    assert action.model_copy(update={"card": "Loom"}) != action


def test_a_constructor_given_values_it_cannot_keep_lets_the_twin_coerce_or_refuse_them():
    """Quick check passed: kept as given. Failed: coerced as pydantic coerces (R-BOARD's names), or refused."""
    seat = Seat(name="Jose\u0301", wonder="Giza", side="day")
    assert (seat.name, seat.wonder) == ("Jos\u00e9", "Gizah")
    turn = Turn(age=1, number=1, actions=[Action(seat=1, use="build", card="Loom")])  # type: ignore[arg-type]
    assert type(turn.actions) is tuple
    with pytest.raises(ValidationError, match="left_coins"):
        CoinsPaid(left_coins=-1, right_coins=0)
    with pytest.raises(ValidationError, match="glyph"):
        Annotation(glyph="?!?")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="seats are 1..3"):
        GAME.model_validate(GAME.model_dump() | {"results": ({"seat": 4},)})


def test_json_writes_the_members_in_the_order_their_fields_were_set_as_pydantic_did():
    """A record read from text: the reader's order (tags before seats); validated or built in code: the model's."""
    read = list(json.loads(to_json(GAME)))
    assert read.index("tags") < read.index("seats")
    validated = list(json.loads(to_json(from_json(to_json(GAME)))))
    assert validated.index("seats") < validated.index("tags")
    assert list(json.loads(to_json(GAME.model_copy(update={"results": ()})))) == read
    assert from_json(to_json(GAME)) == GAME


def test_the_readers_records_equal_validated_ones():
    again = Record.model_validate(GAME.model_dump())
    assert again == GAME and hash(again) == hash(GAME) and again.span is None and GAME.span is not None
