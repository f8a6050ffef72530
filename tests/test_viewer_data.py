"""The viewer's embedded data is the engine's: at every address of every bundled replay and casebook case, the
page's cities are the position's, its score sheet is ``Replay.score_at``'s, its points by Age add up to it, and a
seat view hides what the engine's ``view`` hides. The data is read back from the page itself (``page_data``)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from wnotation.engine import Replay, replay, view
from wnotation.engine.state import pile_owners
from wnotation.notation import parse, read_games, write
from wnotation.model.record import UNKNOWN, Record
from wnotation.formats.render import SCORE_ROWS, city_data
from wnotation.viewer import game_data, page, page_data, points_by_age, redact
from wnotation.viewer.data import event_text, without_comments

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = sorted((ROOT / "replays").glob("*.7wn"))
CASES = sorted((ROOT / "spec" / "cases").glob("*.7wn"))


@cache
def game(path: Path) -> tuple[Record, Replay]:
    record = next(iter(read_games(path)))
    assert isinstance(record, Record), record
    return record, replay(record)


def readable(paths: list[Path]) -> list[Path]:
    return [p for p in paths if isinstance(next(iter(read_games(p))), Record)]


def as_json(value):
    return json.loads(json.dumps(value))


def check_positions(record: Record, played: Replay, data: dict, seat: int | None = None) -> None:
    names = [s.name for s in record.seats]
    assert [p["address"] for p in data["positions"]] == list(played.addresses)
    for shown in data["positions"]:
        address = shown["address"]
        state = played.position(address)
        seen = view(state, seat) if seat is not None else state
        engine = as_json([city_data(seen, s, names[s - 1]) | {"stage_ages": list(seen.cities[s - 1].stage_ages)}
                          for s in range(1, record.players + 1)])
        assert [c | {"name": names[c["seat"] - 1]} for c in shown["cities"]] == engine
        # the fields the browser tests read, straight from the engine's state (not through render)
        assert [c["coins"] for c in shown["cities"]] == [c.coins for c in state.cities]
        assert [c["stages"] for c in shown["cities"]] == [c.stages for c in state.cities]
        sheet = played.score_at(address)
        assert shown["provisional"] is sheet.provisional
        assert shown["score"] == [{row: getattr(line, row) for row in SCORE_ROWS} for line in sheet.lines]
        by_age = shown["by_age"]
        assert by_age == points_by_age(played, address)
        assert [sum(r) for r in by_age] == [line.total for line in sheet.lines], address
        assert (shown["age"], shown["turn"], shown["ended"]) == (state.age, state.turn, state.ended)
    if played.scores is not None:
        assert [line["total"] for line in data["final"]["seats"]] == [line.total for line in played.scores.lines]
        assert data["final"]["winners"] == [names[s - 1] for s in played.scores.winners()]
    else:
        assert data["final"] is None


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_embedded_positions_and_score_sheets_are_the_engines_at_every_address(path: Path) -> None:
    record, played = game(path)
    data = page_data(page(record, played, source=path.read_text(encoding="utf-8")))
    check_positions(record, played, data)
    assert data["source"] == path.read_text(encoding="utf-8")
    assert not [f for f in data["findings"] if f["severity"] == "error"]


@pytest.mark.parametrize("path", readable(CASES), ids=lambda p: p.name)
def test_every_casebook_case_embeds_the_engines_positions_and_findings(path: Path) -> None:
    record, played = game(path)
    text = path.read_text(encoding="utf-8")
    data = page_data(page(record, played, source=text))
    check_positions(record, played, data)
    shown = [(f["rule"], f["address"], f["severity"], f["message"]) for f in data["findings"]]
    engine = [(f.rule, f.address, f.severity, f.message) for f in played.findings]
    assert all(item in engine for item in shown)
    assert [x for x in engine if x not in shown] == [
        x for x in engine if x[0] == "R-DECK" and x[2] == "note" and "names neither its guilds" in x[3]]
    lines = text.split("\n")
    for f, k in zip(data["findings"], range(len(data["findings"]))):
        if f["line"] is not None:
            assert 1 <= f["line"] <= len(lines)
        where = [p["address"] for p in data["positions"] if k in p["findings"]]
        if not played.addresses:
            assert where == []  # a record of results only (a score pad): its findings are listed, at no position
        else:
            assert where == [f["address"] if f["address"] in played.positions else played.addresses[-1]]


def test_the_cases_the_reader_refuses_give_a_located_error_instead_of_a_record() -> None:
    # they have no page: the CLI reports the error (exit 2) and the site lists it in its index
    refused = [p for p in CASES if p not in readable(CASES)]
    assert "012-board-two-gizah.7wn" in [p.name for p in refused]  # R-BOARD: two seats play Gizah
    for path in refused:
        error = next(iter(read_games(path)))
        assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error\[[a-z-]+\]: ", str(error)), str(error)


def test_finding_lines_name_lines_of_the_embedded_source_R_LAST() -> None:
    path = ROOT / "spec" / "cases" / "023-last-card-wrong-discard.7wn"
    record, played = game(path)
    canonical = page_data(page(record, played))  # the source is the canonical text, read back for its lines
    f = next(f for f in canonical["findings"] if f["rule"] == "R-LAST")
    assert canonical["source"].split("\n")[f["line"] - 1].startswith(f["address"] + " ")
    given = page_data(page(record, played, source=path.read_text(encoding="utf-8")))
    g = next(f for f in given["findings"] if f["rule"] == "R-LAST")
    assert given["source"].split("\n")[g["line"] - 1].startswith(g["address"] + " ")
    # the game as the second of a file: line0 takes the lines before it off
    before = "\n" * 7
    shifted = next(iter(read_games(before + path.read_text(encoding="utf-8"))))
    third = page_data(page(shifted, replay(shifted), source=path.read_text(encoding="utf-8"), line0=7))
    assert [f["line"] for f in third["findings"]] == [f["line"] for f in given["findings"]]


def test_turn_data_carries_actions_annotations_and_the_engines_events() -> None:
    record, played = game(ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn")
    data = game_data(record, played)
    names = [s.name for s in record.seats]
    turns = {t.label: t for t in record.turns}
    for shown in data["positions"]:
        turn = turns.get(shown["address"])
        if turn is None:
            assert shown["played"] is None
            continue
        assert shown["played"]["label"] == turn.label
        assert [a["seat"] for a in shown["played"]["actions"]] == sorted(a.seat for a in turn.actions)
        for a, b in zip(shown["played"]["actions"], sorted(turn.actions, key=lambda a: a.seat)):
            assert a["card"] == b.card and a["use"] == b.use
            assert list(a["note"]["after"]) == list(b.annotation.after)
    extra = [p for p in data["positions"] if p["played"] and p["played"]["extra"]]
    assert extra and all(p["address"].endswith(".7") for p in extra)  # Babylon's extra turns (R-BABYLON-N1)
    log = ["".join(names[x - 1] if isinstance(x, int) else x for x in e["parts"])
           for p in data["positions"] for e in p["log"]]
    assert log == [event_text(e, names) for e in played.events if event_text(e, names) is not None]
    assert any("from the discard pile (Halikarnassos)" in t for t in log)  # R-HALI
    assert any(" paid " in t and " to " in t and "bank" not in t for t in log)  # trades name who got paid


def test_final_sheet_has_the_tie_break_R_WIN() -> None:
    record, played = game(ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn")  # 52-52, decided on coins
    final = game_data(record, played)["final"]
    assert len(final["tie_break"]) == 1
    assert "tie on 52 points" in final["tie_break"][0] and "on coins" in final["tie_break"][0]


@pytest.mark.parametrize("seat", [1, 2, 3, 4])
def test_seat_view_shows_what_the_seat_could_see(seat: int) -> None:
    record, played = game(ROOT / "replays" / "4p-alexandria-ephesos-gizah-rhodos.7wn")
    data = game_data(record, played, view_seat=seat)
    check_positions(record, played, data, seat)
    assert data["view"] == {"seat": seat, "name": record.seats[seat - 1].name, "comments": False}
    for shown in data["positions"]:
        for c in shown["cities"]:
            if c["seat"] != seat:
                assert set(c["hand"]) <= {UNKNOWN}
        # the pile as the seat saw it: its own sales and discards, every other card unknown (spec/position.md §7)
        state = played.position(shown["address"])
        own = [c.name for c, by in zip(state.discard, pile_owners(state)) if by == seat and c is not None]
        assert [c for c in shown["discard"] if c != UNKNOWN] == own
        for a in (shown["played"] or {"actions": []})["actions"]:
            if a["seat"] != seat and a["use"] != "build":
                assert a["card"] == UNKNOWN
        for e in shown["log"]:
            if e["seat"] != seat and e["kind"] in ("CardSold", "CardDiscarded", "StageBuilt"):
                assert e["parts"][-1].endswith(UNKNOWN)
    redacted = parse(data["source"])
    assert redacted == without_comments(redact(record, seat))  # a comment can name a hidden card
    assert "{" not in data["source"]
    kept = game_data(record, played, view_seat=seat, keep_comments=True)
    assert parse(kept["source"]) == redact(record, seat) and kept["view"]["comments"] is True
    assert redacted.seed is None and redacted.guilds is None  # either would tell the hidden deals
    assert "[Seed" not in data["source"] and "[Guilds" not in data["source"]
    assert not [f for f in data["findings"] if f["severity"] == "error"]


def test_seat_view_of_a_seat_not_at_the_table_is_refused() -> None:
    record, played = game(ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn")
    with pytest.raises(ValueError, match="seat 4 is not at the table"):
        game_data(record, played, view_seat=4)


def test_an_unfinished_record_has_provisional_sheets_only() -> None:
    record, _ = game(ROOT / "replays" / "5p-olympia-night-halikarnassos-day.7wn")
    cut = record.model_copy(update={"turns": record.turns[:9], "results": ()})
    played = replay(cut)
    data = game_data(cut, played)
    check_positions(cut, played, data)
    assert data["final"] is None and all(p["provisional"] for p in data["positions"])
    assert parse(write(cut)) == cut
