"""wnotation show --legal on turn 6: a seat that may keep its last card (R-BABYLON-N1) sees each play twice, and
the two rows say which is which; every turn-6 row names the card it discards (R-LAST), as the notation writes it."""

from __future__ import annotations

import json

import pytest

from cli_helpers import run
from wnotation import replay, write
from wnotation.engine import legal_actions
from wnotation.engine.bot import play_game


@pytest.fixture(scope="module")
def babylon(tmp_path_factory):
    """4 players, seed 26 (random bot): seat 4 (Dee) may keep its last card after II.5."""
    path = tmp_path_factory.mktemp("show") / "b26.7wn"
    record = play_game(4, 26, "random")
    path.write_text(write(record), encoding="utf-8")
    return str(path), replay(record)


def test_R_BABYLON_N1__show_legal_tells_the_keeping_and_the_declining_row_apart(babylon):
    path, played = babylon
    moves = legal_actions(played.position("II.5"), 4)
    assert any(m.keeps for m in moves) and any(not m.keeps for m in moves)
    out = run("show", path, "--at", "II.5", "--seat", "Dee", "--legal").stdout
    rows = out.split("legal actions of Dee in turn II.6\n", 1)[1].splitlines()[1:]
    assert len(rows) == len(moves) and len(set(rows)) == len(rows)  # no two rows print the same
    for row, move in zip(rows, moves):
        if move.keeps:
            assert row.endswith("keeps the last card (extra turn)") and ", discard" not in row
        else:
            assert move.discard is not None and f", discard {move.discard.name}" in row
            assert "keeps" not in row


def test_R_LAST__every_turn_six_row_names_its_discard(babylon):
    path, played = babylon
    moves = legal_actions(played.position("II.5"), 3)
    assert moves and all(not m.keeps and m.discard is not None for m in moves)
    rows = run("show", path, "--at", "II.5", "--seat", "3", "--legal").stdout.split(" in turn II.6\n", 1)[1]
    for row, move in zip(rows.splitlines()[1:], moves):
        assert row.split("  ")[0].endswith(f", discard {move.discard.name}")


def test_R_BABYLON_N1__legal_json_exports_keeps_and_discard(babylon):
    path, played = babylon
    data = json.loads(run("show", path, "--at", "II.5", "--seat", "Dee", "--legal", "--json").stdout)
    moves = legal_actions(played.position("II.5"), 4)
    got = [(m["keeps"], m["discard"], m["notation"]) for m in data["legal"]["Dee"]]
    assert [(k, d) for k, d, _ in got] == [(m.keeps, m.discard.name if m.discard else None) for m in moves]
    for keeps, discard, notation in got:
        assert notation.endswith(f", discard {discard}") if not keeps else ", discard" not in notation
    early = json.loads(run("show", path, "--at", "II.2", "--seat", "Dee", "--legal", "--json").stdout)
    assert all(m["keeps"] is False and m["discard"] is None for m in early["legal"]["Dee"])
