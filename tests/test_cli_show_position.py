"""wnotation show --position [--seat NAME]: a position's string (spec/position.md), whole or one seat's projection;
its JSON; and show on a game that starts from a [Position] tag."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import run
from wnotation.engine import replay
from wnotation.engine.position import from_string, normal_form, to_string
from wnotation.notation import parse

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn"
FROM_POSITION = ROOT / "replays" / "position-4p-rhodos-from-age-2.7wn"


def _played(path: Path):
    record = parse(path.read_text(encoding="utf-8"))
    return record, replay(record)


def test_show_position_prints_the_string_of_the_position_with_the_games_seed():
    record, played = _played(GAME)
    out = run("show", str(GAME), "--at", "ii.6", "--position").stdout
    assert out == to_string(played.position("II.6"), seed=record.seed.value) + "\n"
    assert out.rstrip("\n").endswith(f"seed SM64-FY {record.seed.value}")
    assert normal_form(from_string(out.strip())[0]) == normal_form(played.position("II.6"))


def test_show_position_with_a_seat_prints_what_that_seat_sees():
    _, played = _played(GAME)
    out = run("show", str(GAME), "--at", "II.6", "--position", "--seat", "Jonas").stdout.strip()
    assert out == to_string(played.position("II.6"), seat=2)
    assert "seed" not in out and "guilds" not in out and "hand ?" in out  # Marta's kept card, hidden from Jonas


def test_show_json_carries_the_position_string_and_whose_view_it_is():
    record, played = _played(GAME)
    whole = json.loads(run("show", str(GAME), "--at", "I.3", "--json").stdout)
    assert whole["position"] == to_string(played.position("I.3"), seed=record.seed.value)
    assert whole["seen_by"] is None
    one = json.loads(run("show", str(GAME), "--at", "I.3", "--seat", "3", "--json").stdout)
    assert one["position"] == to_string(played.position("I.3"), seat=3) and one["seen_by"] == "Priya"


def test_show_position_does_not_go_with_legal():
    assert "--legal does not go with it" in run("show", str(GAME), "--position", "--legal", code=2).stderr


def test_show_on_a_game_that_starts_from_a_position():
    record, played = _played(FROM_POSITION)
    assert played.addresses[0] == "II.0"
    start = run("show", str(FROM_POSITION), "--at", "II.0", "--position").stdout.strip()
    assert start == record.tag("Position")  # the projection it starts from, written back as it was read
    later = run("show", str(FROM_POSITION), "--at", "III.2", "--position").stdout.strip()
    assert later == to_string(played.position("III.2"))
    before = run("show", str(FROM_POSITION), "--at", "I.3", code=2).stderr
    assert "no position 'I.3'" in before and "starts from its [Position] at II.0" in before
