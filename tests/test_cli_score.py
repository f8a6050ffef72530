"""wnotation score --at: a provisional score sheet at any position (Replay.score_at), marked so in text and JSON."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import game_text, run
from wnotation import parse, replay

ROOT = Path(__file__).resolve().parents[1]
PARTIAL = str(ROOT / "replays" / "partial-4p-niamh.7wn")


def test_score_at_a_position_is_the_replays_provisional_sheet(tmp_path):
    path = tmp_path / "g.7wn"
    path.write_text(game_text(), encoding="utf-8")
    played = replay(parse(game_text()))
    data = json.loads(run("score", str(path), "--at", "ii.3", "--json").stdout)
    sheet = played.score_at("II.3")
    assert (data["at"], data["provisional"]) == ("II.3", True) and sheet.provisional
    assert [s["total"] for s in data["seats"]] == [line.total for line in sheet.lines]
    assert [s["coins"] for s in data["seats"]] == [c.coins for c in played.position("II.3").cities]
    final = json.loads(run("score", str(path), "--json").stdout)
    assert (final["at"], final["provisional"]) == ("III.end", False)
    assert json.loads(run("score", str(path), "--at", "III.end", "--json").stdout) == final
    assert [s["total"] for s in final["seats"]] != [s["total"] for s in data["seats"]]


def test_score_at_says_provisional_in_the_text_and_works_on_an_unfinished_record():
    lines = run("score", PARTIAL, "--at", "II.3").stdout.splitlines()
    assert lines[0] == "provisional score sheet at II.3, as if the game ended there"
    assert lines[1].split() == ["Niamh", "Bao", "Carmen", "Dmitri"]
    assert not run("score", PARTIAL).stdout.startswith("provisional")
    unfinished = "\n".join(ln for ln in game_text().splitlines() if not ln.startswith(("III.", "result"))) + "\n"
    assert "is incomplete" in run("score", "-", input=unfinished, code=1).stderr
    data = json.loads(run("score", "-", "--at", "II.end", "--json", input=unfinished).stdout)
    assert data["provisional"] and data["at"] == "II.end"
    sheet = replay(parse(unfinished)).score_at("II.end")
    assert [s["total"] for s in data["seats"]] == [line.total for line in sheet.lines]


def test_score_at_an_address_the_game_does_not_have_is_one_line():
    result = run("score", PARTIAL, "--at", "II.9", code=2)
    assert result.stdout == "" and result.stderr.startswith("error: no position 'II.9' in this game (positions: I.0, ")
    assert result.stderr.count("\n") == 1


def test_score_at_a_position_inside_a_variation_in_any_letter_case():
    game = str(ROOT / "replays" / "variations-3p-rhodos-babylon-olympia.7wn")
    lower = run("score", game, "--at", "i.5(1).i.6", "--json").stdout
    data = json.loads(lower)
    assert data["at"] == "I.5(1).I.6" and data["provisional"]
    assert lower == run("score", game, "--at", "I.5(1).I.6", "--json").stdout
    assert data != json.loads(run("score", game, "--at", "I.6", "--json").stdout)  # the variation's, not the main line's
