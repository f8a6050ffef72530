"""``wnotation html`` (a page, or a site from a folder) and ``wnotation sheet`` (SVG), run in-process: exit codes
as the other commands' (0 ok, 1 findings, 2 unreadable input or usage), findings on stderr compiler-style, the
page written atomically and still written for a record with findings."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

from cli_helpers import run

from wnotation.engine import replay
from wnotation.notation import read_games
from wnotation.viewer import page_data

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
SVG = "{http://www.w3.org/2000/svg}"


def test_html_writes_one_page_with_the_files_text_and_nothing_on_stdout(tmp_path: Path) -> None:
    game = REPLAYS / "7p-all-wonders.7wn"
    out = tmp_path / "game.html"
    result = run("html", str(game), "-o", str(out))
    assert result.stdout == "" and result.stderr == ""
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["source"] == game.read_text(encoding="utf-8")
    assert data["download"] == "7p-all-wonders.7wn"
    assert [p["address"] for p in data["positions"]] == list(replay(next(iter(read_games(game)))).addresses)
    assert sorted(os.listdir(tmp_path)) == ["game.html"]  # no temporary file left beside it
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # readable as any new file, not mkstemp's 0600


def test_html_without_output_prints_the_page_and_is_the_same_bytes_each_time() -> None:
    game = str(REPLAYS / "3p-babylon-halikarnassos-olympia.7wn")
    one, two = run("html", game).stdout, run("html", game).stdout
    assert one == two and one.startswith("<!DOCTYPE html>")
    assert page_data(one)["positions"][-1]["address"] == "III.end"


def test_html_of_game_n_embeds_that_game_and_names_lines_of_it(tmp_path: Path) -> None:
    first = (REPLAYS / "3p-babylon-halikarnassos-olympia.7wn").read_text(encoding="utf-8")
    case = (ROOT / "spec" / "cases" / "023-last-card-wrong-discard.7wn").read_text(encoding="utf-8")
    both = tmp_path / "club.7wn"
    both.write_text(first + "\n" + case, encoding="utf-8")
    result = run("html", str(both), "--game", "2", "-o", str(tmp_path / "two.html"), code=1)
    line = len((first + "\n").split("\n")) - 1 + 20  # case 023's I.6 is its line 20
    assert f"club.7wn:{line}:89: error[R-LAST]" in result.stderr
    data = page_data((tmp_path / "two.html").read_text(encoding="utf-8"))
    assert data["source"] == case and data["download"] == "club-2.7wn"
    finding = next(f for f in data["findings"] if f["rule"] == "R-LAST")
    assert finding["line"] == 20 and case.split("\n")[19].startswith("I.6 ")
    run("html", str(both), "--game", "3", code=2)


def test_a_record_with_findings_still_gets_its_page_with_them_marked_R_LAST(tmp_path: Path) -> None:
    case = ROOT / "spec" / "cases" / "023-last-card-wrong-discard.7wn"
    out = tmp_path / "broken.html"
    result = run("html", str(case), "-o", str(out), code=1)
    assert f"{case}:20:89: error[R-LAST]: Cat discards Altar" in result.stderr
    data = page_data(out.read_text(encoding="utf-8"))
    [at] = [p for p in data["positions"] if p["findings"]]
    assert at["address"] == "I.6" and data["findings"][at["findings"][0]]["rule"] == "R-LAST"


def test_an_unreadable_record_is_reported_at_its_line_and_column_and_writes_nothing(tmp_path: Path) -> None:
    case = ROOT / "spec" / "cases" / "012-board-two-gizah.7wn"
    out = tmp_path / "x.html"
    result = run("html", str(case), "-o", str(out), code=2)
    assert result.stderr.startswith(f"{case}:8:15: error[duplicate-wonder]:")
    assert "^" in result.stderr and not out.exists()
    missing = run("html", str(tmp_path / "nope.7wn"), code=2)
    assert missing.stderr == f"error: cannot read {tmp_path / 'nope.7wn'}: no such file or directory\n"


def test_html_reads_stdin(tmp_path: Path) -> None:
    text = (REPLAYS / "partial-4p-niamh.7wn").read_text(encoding="utf-8")
    data = page_data(run("html", "-", input=text).stdout)
    assert data["source"] == text and data["download"] == "game.7wn"


def test_html_view_takes_a_seat_name_or_number(tmp_path: Path) -> None:
    game = str(REPLAYS / "partial-4p-niamh.7wn")
    by_name = run("html", game, "--view", "  bao ").stdout
    assert page_data(by_name)["view"] == {"seat": 2, "name": "Bao", "comments": False}
    assert run("html", game, "--view", "#2").stdout == by_name == run("html", game, "--view", "2").stdout
    wrong = run("html", game, "--view", "Zed", code=2)
    assert wrong.stderr == "error: no seat 'Zed' in this game (seats: Niamh, Bao, Carmen, Dmitri, or 1-4)\n"
    run("html", game, "--view", "5", code=2)


def test_html_cannot_write_reports_the_output(tmp_path: Path) -> None:
    out = tmp_path / "no-such-folder" / "game.html"
    result = run("html", str(REPLAYS / "3p-babylon-halikarnassos-olympia.7wn"), "-o", str(out), code=2)
    assert result.stderr == f"error: cannot write {out}: no such file or directory\n"


def test_html_of_a_folder_builds_the_club_site(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = run("html", str(REPLAYS), "-o", f"{site}/")
    pages = len(list(REPLAYS.glob("*.7wn")))
    assert result.stdout == f"wrote {pages} pages and index.html to {site}\n" and result.stderr == ""
    names = sorted(p.name for p in site.iterdir() if not p.name.startswith("player-"))  # + a page per player
    assert names == sorted([p.with_suffix(".html").name for p in REPLAYS.glob("*.7wn")] + ["index.html"])
    assert (site / "player-Grace.html").is_file()
    index = (site / "index.html").read_text(encoding="utf-8")
    for p in REPLAYS.glob("*.7wn"):
        assert f'href="{p.stem}.html"' in index
        data = page_data((site / f"{p.stem}.html").read_text(encoding="utf-8"))
        assert data["source"] == p.read_text(encoding="utf-8")  # the file's own text, lines and all
        played = replay(next(iter(read_games(p))))
        assert [q["address"] for q in data["positions"]] == list(played.addresses)
        assert [q["score"][-1] for q in data["positions"]] == [
            {row: getattr(played.score_at(a).lines[-1], row) for row in q["score"][-1]}
            for a, q in zip(played.addresses, data["positions"])]
        assert [s["total"] for s in data["final"]["seats"]] == [line.total for line in played.scores.lines]
        assert " – ".join(str(line.total) for line in played.scores.lines) in index


def test_a_site_lists_unreadable_games_and_marks_findings_with_exit_1(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    for name in ("012-board-two-gizah.7wn", "023-last-card-wrong-discard.7wn", "001-start-coins.7wn"):
        (records / name).write_text((ROOT / "spec" / "cases" / name).read_text(encoding="utf-8"), encoding="utf-8")
    result = run("html", str(records), "-o", str(tmp_path / "site"), code=1)
    assert f"{records / '012-board-two-gizah.7wn'}:8:15: error[duplicate-wonder]" in result.stderr
    assert "023-last-card-wrong-discard.7wn: game 1: 1 error finding, marked in 023-last-card-wrong-discard.html" \
        in result.stderr
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "012-board-two-gizah.7wn #1" in index and "cannot be read" in index
    assert not (tmp_path / "site" / "012-board-two-gizah.html").exists()


def test_site_usage_errors(tmp_path: Path) -> None:
    assert "give -o FOLDER" in run("html", str(REPLAYS), code=2).stderr
    assert "--game" in run("html", str(REPLAYS), "-o", str(tmp_path), "--game", "2", code=2).stderr
    assert "seat number" in run("html", str(REPLAYS), "-o", str(tmp_path), "--view", "Bao", code=2).stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("html", str(empty), "-o", str(tmp_path / "s"), code=2).stderr == \
        f"error: no .7wn file in directory {empty}\n"


def test_a_site_seat_view_by_number(tmp_path: Path) -> None:
    run("html", str(REPLAYS / "3p-babylon-halikarnassos-olympia.7wn"), str(REPLAYS / "partial-4p-niamh.7wn"),
        "-o", str(tmp_path / "site"), "--view", "2")
    for name, seat in (("3p-babylon-halikarnassos-olympia", "Jonas"), ("partial-4p-niamh", "Bao")):
        data = page_data((tmp_path / "site" / f"{name}.html").read_text(encoding="utf-8"))
        assert data["view"]["name"] == seat


def svg_of(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def test_sheet_writes_the_final_score_sheet(tmp_path: Path) -> None:
    game = REPLAYS / "7p-all-wonders.7wn"
    out = tmp_path / "sheet.svg"
    assert run("sheet", str(game), "-o", str(out)).stdout == ""
    root = svg_of(out.read_text(encoding="utf-8"))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    played = replay(next(iter(read_games(game))))
    for line in played.scores.lines:
        assert str(line.total) in texts
    assert "Score sheet" in texts and "Final" in texts
    assert run("sheet", str(game)).stdout == out.read_text(encoding="utf-8")


def test_sheet_at_a_position_is_provisional_and_chart_draws_points_by_age(tmp_path: Path) -> None:
    game = str(REPLAYS / "3p-babylon-halikarnassos-olympia.7wn")
    at = svg_of(run("sheet", game, "--at", "ii.3").stdout)
    assert [t.text for t in at.iter(f"{SVG}text")][0] == "Provisional score sheet at II.3"
    chart = svg_of(run("sheet", game, "--chart", "--at", "II.3").stdout)
    assert len([r for r in chart.iter(f"{SVG}rect")]) == 1 + 3 + 3 * 3  # background, legend, 3 bars per seat
    bad = run("sheet", game, "--at", "IV.1", code=2)
    assert bad.stderr.startswith("error: no position 'IV.1' in this game (positions: I.0, I.1,")


def test_sheet_of_a_record_with_findings_exits_1_and_still_draws(tmp_path: Path) -> None:
    case = ROOT / "spec" / "cases" / "023-last-card-wrong-discard.7wn"
    result = run("sheet", str(case), code=1)
    assert "error[R-LAST]" in result.stderr
    svg_of(result.stdout)


def test_help_lists_the_commands_with_examples() -> None:
    top = run("--help").stdout
    assert "html" in top and "sheet" in top
    assert "wnotation html replays/ -o site/" in run("html", "--help").stdout
    assert "--chart" in run("sheet", "--help").stdout


def test_a_sites_report_never_sends_control_characters_to_the_terminal(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    case = (ROOT / "spec" / "cases" / "023-last-card-wrong-discard.7wn").read_text(encoding="utf-8")
    (records / "\x1b]0;pwned\x07\u202e.7wn").write_text(case, encoding="utf-8")  # a name that retitles a terminal
    result = run("html", str(records), "-o", str(tmp_path / "site"), code=1)
    assert "1 error finding" in result.stderr
    assert not any(ch in result.stderr for ch in "\x1b\x07\u202e")


def test_a_seat_view_drops_the_comments_that_name_hidden_cards_unless_kept(tmp_path: Path) -> None:
    game = str(REPLAYS / "7p-all-wonders.7wn")
    secret = "the kept Caravansery is sold"  # Mateo's sale, which Elif's view shows as "sell ?"
    assert secret in run("html", game).stdout
    seen = run("html", game, "--view", "Elif").stdout
    data = page_data(seen)
    assert secret not in seen and "Caravansery is sold" not in data["source"]
    assert "!" not in {a["note"]["glyph"] for p in data["positions"] if p["played"] for a in p["played"]["actions"]}
    assert data["view"] == {"seat": 1, "name": "Elif", "comments": False}
    assert data["download"] == "7p-all-wonders-seen-by-Elif.7wn"
    kept = run("html", game, "--view", "Elif", "--keep-comments").stdout
    assert secret in kept and page_data(kept)["view"]["comments"] is True
    run("html", game, "--keep-comments", code=2)  # only a seat's view has comments to keep


def test_sheet_png_is_a_picture_with_its_title_line(tmp_path: Path) -> None:
    import struct

    import pytest

    pytest.importorskip("resvg_py", reason="the png extra: pip install -e '.[png]'")
    from wnotation.viewer import sheet_svg
    from wnotation.viewer.svg import picture_title

    game = REPLAYS / "3p-babylon-halikarnassos-olympia.7wn"
    out = tmp_path / "sheet.png"
    done = run("sheet", str(game), "--png", "-o", str(out))
    assert done.stdout == ""
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    record = next(iter(read_games(game)))
    played = replay(record)
    title = picture_title(record, played)
    assert title == "Winner: Jonas\nThursday board-game night, 2026.10.03: Marta, Jonas, Priya"
    svg = ET.fromstring(sheet_svg(played, title=title))
    assert (width, height) == (2 * int(svg.get("width")), 2 * int(svg.get("height")))  # drawn at twice the size
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert texts[:2] == ["Winner: Jonas", "Thursday board-game night, 2026.10.03: Marta, Jonas, Priya \u00b7 Final"]
    chart = tmp_path / "ages.png"
    run("sheet", str(game), "--png", "--chart", "-o", str(chart))
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
