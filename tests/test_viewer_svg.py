"""SVG score sheets and points-by-Age charts: the numbers drawn are the engine's (``Replay.score_at``) at every
address of the bundled replays, the pictures are the same bytes each time and standalone XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from wnotation.engine import Replay, replay
from wnotation.notation import read_games
from wnotation.formats.render import SCORE_ROWS
from wnotation.viewer import chart_svg, points_by_age, sheet_svg

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = sorted((ROOT / "replays").glob("*.7wn"))
SVG = "{http://www.w3.org/2000/svg}"


@cache
def played(path: Path) -> Replay:
    return replay(next(iter(read_games(path))))


def rows_of(picture: str) -> dict[str, list[str]]:
    """The sheet's rows as drawn: the label at x=20, then the cells left to right (text elements on one line)."""
    lines: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for t in ET.fromstring(picture).iter(f"{SVG}text"):
        lines[t.get("y")].append((float(t.get("x")), t.text or ""))
    out = {}
    for cells in lines.values():
        cells.sort()
        if cells[0][0] == 20:
            out[cells[0][1]] = [text for _, text in cells[1:]]
    return out


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_the_sheet_at_every_address_draws_the_engines_score_sheet_R_SCORE(path: Path) -> None:
    game = played(path)
    for address in game.addresses:
        sheet = game.score_at(address)
        rows = rows_of(sheet_svg(game, address))
        for row in SCORE_ROWS:
            assert rows[row] == [str(getattr(line, row)) for line in sheet.lines], (address, row)
        state = game.position(address)
        assert rows["wonder board"] == [f"{w.name} {w.side}" for w in state.table.wonders]


def test_the_final_sheet_names_the_winner_and_the_tie_break_R_WIN() -> None:
    game = played(ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn")
    texts = [t.text for t in ET.fromstring(sheet_svg(game)).iter(f"{SVG}text")]
    assert "Winner: Jonas" in texts
    assert "Marta and Jonas tie on 52 points; Jonas ranks first on coins (18 to 6)." in texts
    provisional = [t.text for t in ET.fromstring(sheet_svg(game, "II.3")).iter(f"{SVG}text")]
    assert provisional[0] == "Provisional score sheet at II.3" and any(t.startswith("Leading: ") for t in provisional)


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_the_chart_draws_the_points_by_age(path: Path) -> None:
    game = played(path)
    if not game.addresses:  # a score-pad record: no Age to chart
        with pytest.raises(KeyError, match="no position"):
            chart_svg(game)
        return
    for address in (game.addresses[len(game.addresses) // 2], game.addresses[-1]):
        root = ET.fromstring(chart_svg(game, address))
        values = [int(t.text) for t in root.iter(f"{SVG}text") if (t.text or "").lstrip("-").isdigit()]
        expected = [v for seat in points_by_age(game, address) for v in seat if v]
        assert values == expected, address
        bars = [r for r in root.iter(f"{SVG}rect")][4:]  # the background and the three legend keys first
        assert len(bars) == 3 * len(game.position(address).cities)


def test_pictures_are_the_same_bytes_each_time_and_refuse_unknown_addresses() -> None:
    path = ROOT / "replays" / "7p-all-wonders.7wn"
    one, two = replay(next(iter(read_games(path)))), replay(next(iter(read_games(path))))
    assert sheet_svg(one) == sheet_svg(two) and chart_svg(one, "II.3") == chart_svg(two, "II.3")
    with pytest.raises(KeyError, match="no position 'IV.1'"):
        sheet_svg(one, "IV.1")
