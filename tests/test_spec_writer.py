"""The spec suffices to write 7WN: tests/spec_writer.py, a writer made from spec/7wn.md sections 10 and 14 alone
(it imports nothing of wnotation), writes from a game's JSON exactly the text the reference writes from its
Record: for every bundled record, every example of the spec, and Hypothesis' Records (annotations everywhere,
odd seat names, long purchases)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import spec_writer
from helpers import records
from wnotation.notation import read_games, to_json, write, write_games
from wnotation.model.record import Record

ROOT = Path(__file__).resolve().parents[1]


def _bundled() -> list[tuple[str, Record]]:
    out = []
    for path in sorted((ROOT / "replays").glob("*.7wn")) + sorted((ROOT / "spec" / "cases").glob("*.7wn")):
        for i, game in enumerate(read_games(path.read_text(encoding="utf-8"), source=str(path)), 1):
            if isinstance(game, Record):
                out.append((f"{path.name}#{i}", game))
    return out


BUNDLED = _bundled()


def test_there_are_many_bundled_records():
    assert len(BUNDLED) > 100


@pytest.mark.parametrize("where, record", BUNDLED, ids=[w for w, _ in BUNDLED])
def test_the_spec_writer_writes_what_the_reference_writes(where, record):
    assert spec_writer.write(json.loads(to_json(record))) == write(record)


def test_a_document_of_several_games_is_written_as_the_reference_writes_a_file():
    games = [r for _, r in BUNDLED[:5]]
    document = [json.loads(to_json(r)) for r in games]
    assert spec_writer.write_document(document) == write_games(games)


def test_members_left_out_take_the_defaults_of_section_14():
    """A reader of JSON takes the defaults (14): the smallest game object is format-less, date-less and empty."""
    minimal = {"seats": [{"name": "Ann", "wonder": "Gizah", "side": "day"},
                         {"name": "Ben", "wonder": "Babylon", "side": "night"},
                         {"name": "Cat", "wonder": "Rhodos", "side": "day"}],
               "turns": [{"age": 1, "number": 1, "actions": [
                   {"seat": 3, "use": "sell", "card": "?"}, {"seat": 1, "use": "build", "card": "Lumber Yard"},
                   {"seat": 2, "use": "stage", "card": "?", "pick": {}}]}]}
    from wnotation.notation import records_from_json

    (record,) = records_from_json(json.dumps(minimal))
    assert spec_writer.write(minimal) == write(record)
    assert spec_writer.write(minimal).endswith("\n\nI.1 Lumber Yard | stage ?, pick - | sell ?\n")


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(records())
def test_the_spec_writer_agrees_on_generated_records(record):
    assert spec_writer.write(json.loads(to_json(record))) == write(record)


def test_long_purchases_and_unwritable_seat_names_are_written_as_the_reference_writes():
    """What the generated Records do not reach: runs of more than 99 units (10.6) and seats named #N (10.7)."""
    from wnotation.notation import parse

    text = """[Format "7WN 1"]
[Edition "2e"]
[Date "????.??.??"]
[Seat1 " Ann" "Gizah" "day"]
[Seat2 "王小明" "Babylon" "night"]
[Seat3 "Cat  Lee" "Rhodos" "day"]

I.1 Temple (L 99 wood 99 wood 52 wood, R 99 clay clay) | sell ? | stage ? (R 99 glass 1 glass)
"""
    record = parse(text)
    last = record.turns[0].actions
    turn = record.turns[0].model_copy(update={"number": 7, "actions": last})
    record = record.model_copy(update={"turns": (record.turns[0], turn)})
    expected = write(record)
    assert "I.7 #1: Temple (L 99 wood 99 wood 52 wood, R 99 clay clay) | #2: sell ? | Cat  Lee: stage ? " \
        "(R 99 glass glass)" in expected
    assert spec_writer.write(json.loads(to_json(record))) == expected
