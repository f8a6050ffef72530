"""The Record's validator: what the engine may assume (record.py) holds for every Record that validates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

import wnotation
from helpers import HEADER
from wnotation.diagnostics import check_record
from wnotation.engine import replay
from wnotation.notation import from_json, parse, to_json, write
from wnotation.model.record import Record

GAME = HEADER + "I.1 Lumber Yard | Clay Pool | Stone Pit\nresult Alice: coins 2\n"


def _data() -> dict:
    return json.loads(to_json(parse(GAME)))


def _load(data: dict) -> Record:
    return from_json(json.dumps(data))


@pytest.mark.parametrize("seat", [0, 4, 99, -1])
def test_a_result_for_a_seat_outside_the_table_is_refused(seat):
    data = _data()
    data["results"][0]["seat"] = seat
    with pytest.raises(ValidationError, match="seats are 1..3"):
        _load(data)


def test_two_results_for_one_seat_are_refused():
    data = _data()
    data["results"].append(dict(data["results"][0]))
    with pytest.raises(ValidationError, match="two results for seat 1"):
        _load(data)


def test_a_seat_acting_twice_in_a_turn_is_refused():
    data = _data()
    data["turns"][0]["actions"][1]["seat"] = 1
    with pytest.raises(ValidationError, match="seat 1 acts twice"):
        _load(data)


@pytest.mark.parametrize("wonder", ["", " ", "Atlantis"])
def test_an_unknown_or_empty_wonder_is_refused_where_the_record_is_made(wonder):
    data = _data()
    data["seats"][1]["wonder"] = wonder
    with pytest.raises(ValidationError, match="unknown Wonder"):
        _load(data)


@pytest.mark.parametrize("wonder, name", [("Alexandria ", "Alexandria"), ("rhodes", "Rhodos"),
                                          ("The Colossus of Rhodes", "Rhodos"), ("Olympia", "Olympia")])
def test_a_validated_record_holds_the_catalogue_wonder_name_and_replays(wonder, name):
    """Any accepted spelling becomes the catalogue's name, so ``replay`` finds the Wonder (before, a Record that
    ``from_json`` accepted made ``replay`` and ``check_record`` raise CatalogError)."""
    data = _data()
    data["seats"][1]["wonder"] = wonder
    record = _load(data)
    assert record.seats[1].wonder == name
    wnotation.replay(record)
    check_record(record)


def test_a_wonder_spelt_as_another_seats_wonder_is_a_duplicate():
    data = _data()
    data["seats"][1]["wonder"] = "Giza"  # seat 1 plays Gizah
    with pytest.raises(ValidationError, match="same Wonder"):
        _load(data)


def test_actions_listed_out_of_seat_order_keep_their_seats_through_the_text():
    """``json --to-7wn`` wrote actions in list order, giving each to the seat of its place."""
    data = _data()
    data["turns"][0]["actions"].reverse()
    record = _load(data)
    assert parse(write(record)) == parse(GAME)


def test_the_renamed_models_keep_their_old_names_and_published_schema_names():
    """record.Purchase is now StatedPurchase (the engine's trade.Purchase is another thing); the old name stays
    importable and JSON and its schema keep the published name."""
    from wnotation.model import record

    assert record.Purchase is record.StatedPurchase
    schema = record.json_schema()
    assert "Purchase" in schema["$defs"] and "StatedPurchase" not in schema["$defs"]
    assert '"#/$defs/StatedPurchase"' not in json.dumps(schema)
    assert schema["$defs"]["Purchase"]["title"] == "Purchase"


# --- a record that starts from a position (spec/position.md §8) --------------------------------------------------

POSITION_REPLAY = Path(__file__).resolve().parents[1] / "replays" / "position-4p-rhodos-from-age-2.7wn"


def _position_data() -> dict:
    return json.loads(to_json(parse(POSITION_REPLAY.read_text(encoding="utf-8"))))


def _position_tag(data: dict) -> dict:
    return next(t for t in data["tags"] if t["name"] == "Position")


def test_a_record_that_starts_from_a_valid_position_validates_and_replays_as_read():
    data = _position_data()
    assert replay(_load(data)).scores == replay(parse(POSITION_REPLAY.read_text(encoding="utf-8"))).scores


@pytest.mark.parametrize("change, message", [
    (lambda d: _position_tag(d).update(value=_position_tag(d)["value"].replace("coins", "coinz", 1)),
     r"\[Position\]: position string, column \d+: syntax: "),
    (lambda d: d["tags"].append(dict(_position_tag(d))), r"\[Position\]: a record holds at most one \[Position\] tag"),
    (lambda d: d.update(seed={"algorithm": "SM64-FY", "value": 7}), r"\[Guilds\] or \[Seed\]"),
    (lambda d: d["seats"][0].update(side="night" if d["seats"][0]["side"] == "day" else "day"), "plays"),
    (lambda d: d.update(deals=[{"age": 2, "hands": [["?"] * 7] * 4}]), "deal of an Age"),
])
def test_a_record_whose_position_breaks_a_rule_of_spec_position_8_is_refused(change, message):
    """Once made in code or from JSON such a Record only failed when replayed (a ValueError from replay()); the
    validator now refuses it with the rule it breaks, as the reader refuses the tag."""
    data = _position_data()
    change(data)
    with pytest.raises(ValidationError, match=message):
        _load(data)


def test_a_position_tag_in_version_1_is_a_free_tag_and_is_not_read():
    data = _position_data()
    data["format"] = "7WN 1"
    _position_tag(data)["value"] = "not a position"
    data["turns"] = []
    assert _load(data).tag("Position") == "not a position"
