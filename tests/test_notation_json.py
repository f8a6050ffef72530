"""JSON import of Records: one or many per document, and clean errors for documents that are not Records."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from pydantic import ValidationError

from helpers import HEADER, records
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
    """``json --to-7wn`` on 100,000-deep JSON exited 3 (RecursionError from json.loads); then it said "not JSON:
    recursion limit exceeded" also for valid JSON: now it says what no Record does (issue 27 item 2)."""
    with pytest.raises(ValueError, match=r"not a Record: the document nests more than 200 deep \(at line 1 column "
                                         r"\d+\), and a Record's JSON at most 137 \(variations nest at most 32") as info:
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


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(records())
def test_the_json_exporter_walk_gives_to_jsons_document(record):
    """The exporter interface (one walk over the Record) and the one-pass serializer write the same JSON."""
    import json

    from wnotation.notation.export import export, export_games
    from wnotation.notation.jsonio import JsonExporter

    data = export(record, JsonExporter())
    assert json.dumps(data, indent=2, ensure_ascii=False) == to_json(record)
    assert list(export_games([record, record], JsonExporter)) == [data, data]


def test_an_exporter_of_ones_own_sees_the_game_in_order():
    """A new format is one Exporter: here the labels of the turns and the seats of the results."""
    from wnotation.notation.export import Exporter, export

    class Labels(Exporter[list]):
        def begin_game(self, record):
            self.out = [record.players]

        def turn(self, turn):
            self.out.append(turn.label)

        def result(self, result):
            self.out.append(result.seat)

        def end_game(self):
            return self.out

    game = parse(HEADER + "I.1 Lumber Yard | sell ? | stage ?\nI.2 Loom | sell ? | stage ?\nresult #3: total 1\n"
                 "result #1: total 2\n")
    assert export(game, Labels()) == [3, "I.1", "I.2", 3, 1]
