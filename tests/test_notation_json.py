"""JSON import of Records: one or many per document, and clean errors for documents that are not Records."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from helpers import HEADER
from wnotation.notation import parse, records_from_json, to_json

GAME = parse(HEADER + "I.1 Lumber Yard | sell ? | stage ?\n")


def test_an_object_is_one_record_and_an_array_several():
    one = to_json(GAME)
    assert records_from_json(one) == [GAME]
    assert records_from_json("[" + one + "," + one + "]") == [GAME, GAME]
    assert records_from_json(b"[]") == []


@pytest.mark.parametrize("text", ["[" * 100_000, '[{"seats": ' * 50_000, '{"seats": [' + "[" * 100_000],
                         ids=["arrays", "objects", "inside-a-record"])
def test_deeply_nested_json_is_a_clean_error_not_a_recursion_error(text):
    """``json --to-7wn`` on 100,000-deep JSON exited 3 (RecursionError from json.loads)."""
    with pytest.raises(ValueError, match="not JSON: recursion limit exceeded") as info:
        records_from_json(text)
    assert not isinstance(info.value, RecursionError)


@pytest.mark.parametrize("text", ["", "nope", "{'a': 1}", "[1,"])
def test_text_that_is_not_json_is_a_value_error_naming_the_place(text):
    with pytest.raises(ValueError, match="not JSON: .* at line 1 column"):
        records_from_json(text)


def test_an_item_that_is_not_a_record_is_a_validation_error():
    data = json.loads(to_json(GAME))
    data["seats"][0]["wonder"] = "Atlantis"
    with pytest.raises(ValidationError, match="unknown Wonder"):
        records_from_json(json.dumps([json.loads(to_json(GAME)), data]))
