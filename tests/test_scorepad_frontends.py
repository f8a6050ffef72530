"""Score-pad records (7WN §9.1) everywhere a score sheet is shown: ``score`` (text and JSON), ``check``, the
viewer's data and page, the SVG sheet, and the archive's ``seats`` rows, the expansion rows (R-SCORE-EXP) in the
score pad's order."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cli_helpers import run
from wnotation.engine import replay
from wnotation.notation import parse
from wnotation.formats.render import score_rows, score_table
from wnotation.model.vocabulary import CATEGORIES

ROOT = Path(__file__).resolve().parent.parent
PAD = ROOT / "replays" / "pad-5p-cities-leaders.7wn"
ROWS = CATEGORIES + ("cities", "leaders", "total", "coins", "rank")


def _pad():
    record = parse(PAD.read_text(encoding="utf-8"))
    return record, replay(record)


def test_the_bundled_pad_checks_clean_and_its_sheet_has_the_expansion_rows_in_the_pads_order():
    record, played = _pad()
    assert record.expansions == ("Cities", "Leaders") and not record.turns
    assert played.ok and played.findings == () and played.addresses == ()
    assert score_rows(played.scores) == ROWS
    assert [ln.total for ln in played.scores.lines] == [r.total for r in record.results]
    assert played.scores.winners() == (1,)  # 72-72 with Tomás, 9 coins to 4 (R-WIN)


def test_score_prints_the_pad_and_json_gives_every_row():
    out = run("score", str(PAD)).stdout
    labels = [line.split()[0] for line in out.splitlines()[2:]]
    assert labels == list(ROWS)
    data = json.loads(run("score", str(PAD), "--json").stdout)
    assert [s["cities"] for s in data["seats"]] == [3, -2, 5, 4, 0]
    assert data["winners"] == ["Marta"] and data["provisional"] is False


def test_check_reports_a_debt_counted_as_one_at_the_result_line(tmp_path):
    case = ROOT / "spec" / "cases" / "202-expansion-debt-counted-one.7wn"
    result = run("check", str(case), code=1)
    assert ":13:1: error[R-SCORE-EXP]: Ann's categories add up to 43" in result.stderr


def test_a_pad_without_coins_shows_an_empty_coins_cell():
    text = PAD.read_text(encoding="utf-8").replace(" coins 4 rank 2", " rank 2")
    record = parse(text)
    header, rows = score_table(record, replay(record).scores)
    coins = next(r for r in rows if r[0] == "coins")
    assert coins[1:] == ["9", "7", "15", "", "10"]


def test_the_viewer_shows_the_pads_final_sheet_and_no_position():
    from wnotation.viewer.data import game_data

    record, played = _pad()
    data = game_data(record, played)
    assert data["positions"] == [] and data["rows"] == list(ROWS)
    assert [s["leaders"] for s in data["final"]["seats"]] == [9, 6, 11, 12, 8]
    assert data["final"]["tie_break"] == ["Marta and Tomás tie on 72 points; Marta ranks first on coins (9 to 4)."]


def test_the_svg_sheet_of_a_pad_has_its_rows_and_the_cli_writes_it(tmp_path):
    from wnotation.viewer import sheet_svg

    record, played = _pad()
    root = ET.fromstring(sheet_svg(played, record=record))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert [t for t in texts if t in ROWS] == list(ROWS)
    assert "Winner: Marta" in texts
    run("sheet", str(PAD), "-o", str(tmp_path / "pad.svg"))
    assert (tmp_path / "pad.svg").read_text(encoding="utf-8") == sheet_svg(played, record=record)
    assert "no position" in run("sheet", str(PAD), "--chart", code=2).stderr


def test_the_archive_seats_rows_carry_the_expansion_rows_and_no_stage_count():
    pytest.importorskip("duckdb")
    from wnotation.archive.rows import game_rows
    from wnotation.archive.schema import TABLES

    record, played = _pad()
    rows = game_rows(record, played, gid=1, source=str(PAD), index=1).tables["seats"]
    names = [c for c, _ in TABLES["seats"]]
    first = dict(zip(names, rows[0]))
    assert (first["cities_points"], first["leaders_points"], first["armada_points"], first["edifice_points"]) == \
        (3, 9, None, None)
    assert first["total_points"] == 72 and first["winner"] is True and first["stages_built"] is None


def test_the_pad_round_trips_through_json_and_its_json_is_valid_under_the_published_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    document = run("json", str(PAD)).stdout
    schema = json.loads((ROOT / "spec" / "record.schema.json").read_text(encoding="utf-8"))
    data = json.loads(document)
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["expansions"] == ["Cities", "Leaders"] and data["results"][1]["tablets"] == 5
    (tmp_path / "pad.json").write_text(document, encoding="utf-8")
    assert run("json", "--to-7wn", str(tmp_path / "pad.json")).stdout == PAD.read_text(encoding="utf-8")
    broken = data | {"expansions": ["Cities", "Seafarers"]}
    assert not jsonschema.Draft202012Validator(schema).is_valid(broken)
