"""The analysis in the viewer (issue 33, item 3): a record's computed ``[%win]`` and ``[%mark]`` tags (spec/7wn.md
§8.4) become a win-chance graph per seat, the shown position's estimate beside the board and each action's computed
mark in the turn's log; ``wnotation html --analyse`` computes them on the fly. A record without the tags gets the
page it always got, byte for byte. The browser half runs the real headless Chromium (the fixture and flags of
test_viewer_browser.py) at desktop and phone sizes, with screenshots in tests/artifacts/ and axe-core.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from cli_helpers import run
from test_viewer_browser import ARTIFACTS, Watched, artifacts, axe_source, launch, serious_violations

from wnotation.analysis import Analysis, Mark, analyse, annotate, wilson
from wnotation.engine import Replay, replay
from wnotation.model.record import Record
from wnotation.notation import parse, read_games, write
from wnotation.viewer import game_data, page, page_data
from wnotation.viewer.html import asset, csp_hash, text as escaped
from wnotation.viewer.wins import read_mark, read_win, win_data

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
GAME = REPLAYS / "3p-babylon-halikarnassos-olympia.7wn"  # I.2: Priya's "sell Scriptorium ?!", a human's glyph
DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


def plain() -> Record:
    return next(iter(read_games(GAME)))


#: Computed marks for the record (the class comes from the loss): Priya's glyph at I.2 gets a computed mark too.
MARKS = (Mark(1, 2, 3, 0.20, "build Clay Pit", 0.40, 3), Mark(1, 2, 1, 0.30, "build Glassworks", 0.42, 3),
         Mark(2, 3, 2, 0.10, "sell Loom", 0.16, 3))


@pytest.fixture(scope="module")
def analysed() -> tuple[Record, Replay, tuple[Analysis, ...]]:
    """The sample game with real estimates (3 playouts a position, seed 5) and :data:`MARKS`, read back from its
    canonical text, as ``wnotation analyse --annotate`` would leave it."""
    record = plain()
    played = replay(record)
    found = analyse(record, 3, 5, played=played)
    text = write(annotate(record, found, MARKS))
    again = parse(text)
    return again, replay(again), found


# --- the data --------------------------------------------------------------------------------------------------


def test_a_win_tag_reads_as_each_seats_chance_and_its_playouts() -> None:
    assert read_win("0.250 0.500 0.250 n=200", 3) == ((0.25, 0.5, 0.25), 200)
    assert read_win("0.333 0.333 0.334", 3) == ((0.333, 0.333, 0.334), None)
    assert read_win("1 0 0 0", 4) == ((1.0, 0.0, 0.0, 0.0), None)


@pytest.mark.parametrize("value", ["", "soon", "0.5 0.5", "0.5 0.5 0 0", "0.5 0.5 x", "1.2 -0.2 0",
                                   "0.5 0.2 0.1", "nan 0.5 0.5", "0.5 0.5 0 n=", "0.5 0.5 0 n=0", "0.5 0.5 0 n=-3",
                                   "0.5 0.5 0 n=2.5", "n=3 0.5 0.5 0"])
def test_a_win_tag_that_is_not_one_chance_per_seat_summing_to_one_is_not_read(value: str) -> None:
    assert read_win(value, 3) is None


def test_a_mark_tag_reads_as_its_class_loss_and_best_alternative() -> None:
    assert read_mark("mistake -0.120 build Temple") == {"class": "mistake", "loss": 0.12, "best": "build Temple"}
    assert read_mark("blunder -0.333 sell Ore Vein") == {"class": "blunder", "loss": 0.333, "best": "sell Ore Vein"}
    for bad in ("mistake", "great -0.1 build Temple", "mistake 0.12 build Temple", "mistake -x build Temple",
                "mistake -1.5 build Temple", "mistake -0.12"):
        assert read_mark(bad) is None, bad


def test_the_annotated_record_gives_one_point_per_turn_with_its_wilson_interval_and_its_marks(analysed) -> None:
    record, played, found = analysed
    wins = win_data(record, played.addresses)
    assert wins is not None
    turns = [t.label for t in record.turns]
    assert [p["address"] for p in wins["points"]] == turns  # every turn of the main line, in order
    by_address = {a.where: a for a in found}
    for p in wins["points"]:
        estimates = by_address[p["address"]].estimates
        assert p["chances"] == [round(e.chance, 3) for e in estimates]  # as the tag writes them
        assert p["playouts"] == 3
        assert p["low"] == [round(wilson(c, 3)[0], 4) for c in p["chances"]]
        assert p["high"] == [round(wilson(c, 3)[1], 4) for c in p["chances"]]
    assert wins["marks"] == [
        {"address": "I.2", "seat": 1, "class": "mistake", "loss": 0.12, "best": "build Glassworks"},
        {"address": "I.2", "seat": 3, "class": "blunder", "loss": 0.2, "best": "build Clay Pit"},
        {"address": "II.3", "seat": 2, "class": "inaccuracy", "loss": 0.06, "best": "sell Loom"},
    ]
    assert wins["unread"] == []
    # the human's glyph and comment stay the action's own (spec 7wn.md §8.2 and §8.4); the tags drawn leave the
    # notes, so the commentary is what a person wrote
    data = game_data(record, played)
    assert data["wins"] == wins
    at = list(played.addresses)
    priya = data["positions"][at.index("I.2")]["played"]["actions"][2]
    assert priya["note"]["glyph"] == "?!" and priya["note"]["after"] and priya["note"]["tags"] == []
    for p in data["positions"]:
        if p["played"] is not None:
            assert not [t for t in p["played"]["note"]["tags"] if t[0] == "win"], p["address"]
            assert not [t for a in p["played"]["actions"] for t in a["note"]["tags"] if t[0] == "mark"]
    assert "[%mark blunder -0.200 build Clay Pit]" in data["source"]  # the source pane keeps them all


def test_tags_that_do_not_read_are_listed_not_drawn() -> None:
    text = GAME.read_text(encoding="utf-8")
    text = text.replace("I.3 sell Marketplace | Loom | Lumber Yard", "I.3 sell Marketplace | Loom | Lumber Yard "
                        "// [%win soon]", 1)
    text = text.replace("I.4 Stockade | sell Clay Pit | Guard Tower",
                        "I.4 Stockade [%mark great -0.5 build Loom] | sell Clay Pit | Guard Tower "
                        "// [%win 0.2 0.3 0.5 n=10]", 1)
    record = parse(text)
    wins = win_data(record, replay(record).addresses)
    assert wins is not None
    assert [p["address"] for p in wins["points"]] == ["I.4"] and wins["marks"] == []
    assert wins["unread"] == ["I.3", "I.4"]
    played = replay(record)
    data = game_data(record, played)
    turns = {p["address"]: p["played"] for p in data["positions"] if p["played"] is not None}
    assert turns["I.3"]["note"]["tags"] == [["win", "soon"]]  # not read, so left in the commentary as written
    assert turns["I.4"]["note"]["tags"] == [] and turns["I.4"]["actions"][0]["note"]["tags"] == [
        ["mark", "great -0.5 build Loom"]]


def test_without_computed_tags_the_page_is_the_page_it_always_was() -> None:
    """No ``wins`` in the data, and the page's script and style are the viewer's own: the same bytes as before
    this feature, for every bundled replay whose record carries no computed tag."""
    for path in sorted(REPLAYS.glob("*.7wn")):
        for record in read_games(path):
            assert not isinstance(record, Exception)
            played = replay(record)
            assert win_data(record, played.addresses) is None, path.name
            document = page(record, played)
            assert "wins" not in page_data(document), path.name
            assert f"<script>{asset('viewer.js')}</script>" in document
            assert f"<style>{asset('viewer.css')}</style>" in document
            assert "wingraph" not in document and escaped(csp_hash(asset("viewer.js"))) in document


def test_a_seat_view_leaves_the_estimates_out_unless_it_keeps_the_comments(analysed) -> None:
    record, played, _ = analysed
    assert "wins" not in game_data(record, played, view_seat=2)
    kept = game_data(record, played, view_seat=2, keep_comments=True)
    assert [p["address"] for p in kept["wins"]["points"]] == [t.label for t in record.turns]


def test_an_annotated_page_carries_the_graphs_script_under_its_policy(analysed) -> None:
    record, played, _ = analysed
    document = page(record, played)
    script = asset("viewer.js") + asset("wins.js")
    assert f"<script>{script}</script>" in document and escaped(csp_hash(script)) in document
    assert escaped(csp_hash(asset("viewer.css") + asset("wins.css"))) in document
    assert page(record, played) == document  # same input, same bytes


def test_html_analyse_annotates_the_page_and_checks_its_options(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    run("html", str(GAME), "--analyse", "--playouts", "2", "--seed", "4", "-o", str(out))
    data = page_data(out.read_text(encoding="utf-8"))
    record = plain()
    expected = [[round(e.chance, 3) for e in a.estimates] for a in analyse(record, 2, 4)
                if a.where in {t.label for t in record.turns}]
    assert [p["chances"] for p in data["wins"]["points"]] == expected
    assert "[%win " in data["source"] and data["wins"]["marks"] == []  # the annotated record is embedded
    assert parse(data["source"]).turns[1].actions[2].annotation.glyph == "?!"  # the human's glyph kept
    for args, message in ((["--playouts", "3"], "apply to --analyse"), (["--marks"], "apply to --analyse"),
                          (["--analyse", "--view", "2"], "--keep-comments"),
                          (["--analyse", "--playouts", "0"], "--playouts"),
                          (["--analyse", "--playouts", "2001"], "--playouts")):
        result = run("html", str(GAME), *args, "-o", str(tmp_path / "x.html"), code=2)
        assert message in result.stderr, (args, result.stderr)
    result = run("html", str(REPLAYS), "--analyse", "-o", str(tmp_path / "site") + "/", code=2)
    assert "one game's page" in result.stderr
    assert not (tmp_path / "x.html").exists() and not (tmp_path / "site").exists()


# --- in the browser --------------------------------------------------------------------------------------------

#: The graph and estimate as the page shows them, read in one call.
READ = """() => {
  const q = s => document.querySelector(s), qa = s => [...document.querySelectorAll(s)];
  const cur = q('#winplot .wcursor');
  return {
    label: q('#label').textContent, hash: location.hash,
    paths: qa('#winplot path.wl').map(p => [p.getAttribute('data-seat'), p.getAttribute('d').split(/[ML]/).filter(x => x.trim()).length]),
    legend: qa('#wingraph .wlegend li').map(li => li.textContent),
    sub: q('#winnow .wsub').textContent,
    values: qa('#winnow .wval').map(v => v.textContent),
    widths: qa('#winnow .wfill').map(f => parseFloat(f.style.width)),
    cursor: cur.getAttribute('visibility') === 'visible' ? Number(cur.getAttribute('x1')) : null,
    here: qa('#wingraph tr.here th').map(th => th.textContent),
    nowIn: q('#winnow').parentElement.id || q('#winnow').parentElement.className,
    scrollWidth: document.scrollingElement.scrollWidth,
  };
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory, analysed) -> dict[str, Path]:
    artifacts()
    folder = tmp_path_factory.mktemp("wins")
    record, played, _ = analysed
    out = {"annotated": folder / "annotated.html", "plain": folder / "plain.html"}
    out["annotated"].write_text(page(record, played), encoding="utf-8")
    bare = plain()
    out["plain"].write_text(page(bare, replay(bare)), encoding="utf-8")
    return out


def _percent(c: float) -> str:
    return f"{round(100 * c)}%"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_graph_is_drawn_and_a_click_or_tap_on_it_shows_that_position(browser, pages, analysed, size) -> None:
    record, played, _ = analysed
    wins = win_data(record, played.addresses)
    assert wins is not None
    point = {p["address"]: p for p in wins["points"]}
    viewport = DESKTOP if size == "desktop" else PHONE
    w = Watched(browser, viewport=viewport, has_touch=size == "phone")
    try:
        w.open(pages["annotated"], "#I.0")
        seen = w.page.evaluate(READ)
        assert seen["paths"] == [[str(s), len(wins["points"])] for s in (1, 2, 3)]  # a line per seat, a vertex a turn
        assert seen["legend"] == [s.name for s in record.seats]
        assert seen["sub"].startswith("No estimate yet: the first is after I.1")
        assert seen["values"] == ["\u2013"] * 3
        assert seen["nowIn"] == ("board" if size == "phone" else "side")  # beside the board, or above it
        target = '#winplot .whits rect[data-address="II.3"]'
        if size == "phone":
            w.page.tap(target)
        else:
            w.page.click(target)
        seen = w.page.evaluate(READ)
        assert seen["label"].startswith("II.3: ") and seen["hash"] == "#II.3"
        p = point["II.3"]
        assert seen["values"] == [f"{_percent(c)} ({round(100 * lo)}\u2013{round(100 * hi)})"
                                  for c, lo, hi in zip(p["chances"], p["low"], p["high"])]
        assert seen["widths"] == [pytest.approx(100 * c, abs=0.05) for c in p["chances"]]
        assert seen["sub"] == "After II.3, 3 playouts, 95 % interval" and seen["here"] == ["II.3"]
        hit = w.page.locator(target).bounding_box()
        box = w.page.locator("#winplot").bounding_box()
        assert hit is not None and box is not None
        assert abs(box["x"] + seen["cursor"] * box["width"] / 320 - (hit["x"] + hit["width"] / 2)) < 1.5
        assert seen["scrollWidth"] <= viewport["width"]  # nothing sideways, on a phone too
        w.page.locator("#winnow").screenshot(path=str(ARTIFACTS / f"wins-estimate-{size}-II.3.png"))
        w.page.locator("#wingraph").screenshot(path=str(ARTIFACTS / f"wins-graph-{size}-II.3.png"))
        w.page.screenshot(path=str(ARTIFACTS / f"wins-{size}-II.3.png"))
        w.page.keyboard.press("ArrowRight")  # the viewer's own step: the estimate follows it
        seen = w.page.evaluate(READ)
        assert seen["label"].startswith("II.4: ") and seen["here"] == ["II.4"]
        w.page.click("#last")  # III.end has no [%win]: the last estimate before it, said so
        seen = w.page.evaluate(READ)
        last = record.turns[-1].label  # III.7: Babylon's extra turn
        assert seen["sub"].startswith(f"As of {last} (none at III.end)")
        assert seen["values"][0].startswith(_percent(point[last]["chances"][0]))
        w.assert_quiet(pages["annotated"])
    finally:
        w.close()


def test_each_actions_computed_mark_is_in_the_log_beside_the_humans_glyph(browser, pages) -> None:
    w = Watched(browser, viewport=DESKTOP)
    try:
        w.open(pages["annotated"], "#I.2")
        rows = w.page.evaluate("""() => [...document.querySelectorAll('#actions > li[data-seat]')].map(li => ({
            seat: li.getAttribute('data-seat'),
            parts: [...li.children].map(c => c.className),
            glyph: li.querySelector(':scope > .glyph') ? li.querySelector(':scope > .glyph').textContent : null,
            mark: li.querySelector('.cmark') ? li.querySelector('.cmark').textContent : null,
        }))""")
        assert [r["seat"] for r in rows] == ["1", "2", "3"]
        assert rows[0]["mark"] == "computed mistake \u221212%, best build Glassworks"
        assert rows[1]["mark"] is None
        assert rows[2]["glyph"] == "?!" and rows[2]["mark"] == "computed blunder \u221220%, best build Clay Pit"
        parts = rows[2]["parts"]
        assert parts.index("glyph") < parts.index("cmark m-blunder") < parts.index("log")  # the glyph first, kept
        w.page.locator("#turn").screenshot(path=str(ARTIFACTS / "wins-log-I.2.png"))
        notes = w.page.locator("#notes").text_content() or ""
        assert "Scriptorium lands in the discard pile" in notes and "mark:" not in notes and "win:" not in notes
        # a turn whose only annotations are computed is not flagged as commented in the turn list
        assert w.page.locator("#turnlist button[aria-label^='I.3,']").get_attribute("aria-label") == \
            "I.3, Age I after turn 3"
        w.page.keyboard.press("ArrowRight")
        assert w.page.locator("#actions .cmark").count() == 0  # I.3 has no mark
        w.page.evaluate("() => { location.hash = '#II.3'; }")
        w.page.wait_for_function("() => document.getElementById('label').textContent.startsWith('II.3')")
        assert w.page.locator("#actions > li[data-seat='2'] .cmark").text_content() == \
            "computed inaccuracy \u22126%, best sell Loom"
        w.assert_quiet(pages["annotated"])
    finally:
        w.close()


def test_the_graph_and_its_table_work_from_the_keyboard(browser, pages, analysed) -> None:
    record = analysed[0]
    w = Watched(browser, viewport=DESKTOP)
    try:
        w.open(pages["annotated"], "#I.0")
        w.page.focus("#winplot")
        assert w.page.evaluate("() => document.activeElement.id") == "winplot"
        w.page.keyboard.press("ArrowRight")
        w.page.keyboard.press("ArrowRight")
        assert w.page.locator("#label").text_content().startswith("I.2: ")
        w.page.focus("#wingraph summary")
        w.page.keyboard.press("Enter")  # the table opens
        w.page.keyboard.press("Tab")
        assert w.page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Show I.1"
        w.page.keyboard.press("Enter")
        assert w.page.locator("#label").text_content().startswith("I.1: ")
        label = w.page.locator("#winplot").get_attribute("aria-label") or ""
        assert f"{len(record.turns)} estimates from I.1 to {record.turns[-1].label}" in label and "table below" in label
        w.assert_quiet(pages["annotated"])
    finally:
        w.close()


def test_a_page_without_computed_tags_draws_no_graph(browser, pages) -> None:
    w = Watched(browser, viewport=DESKTOP)
    try:
        w.open(pages["plain"], "#II.3")
        assert w.page.evaluate("() => [!!document.getElementById('wingraph'), !!document.getElementById('winnow'),"
                               " document.querySelectorAll('.cmark').length]") == [False, False, 0]
        w.assert_quiet(pages["plain"])
    finally:
        w.close()


def test_record_text_in_the_graph_and_the_marks_stays_text(browser, tmp_path) -> None:
    hostile = '<img src=x onerror="document.title=1">'
    text = GAME.read_text(encoding="utf-8")
    text = text.replace("I.1 Apothecary", f"I.1 Apothecary [%mark blunder -0.300 {hostile}]", 1)
    record = parse(text.replace("\nI.2 Altar", " // [%win 0.5 0.25 0.25 n=4]\nI.2 Altar", 1))
    assert record.turns[0].annotation.tags == (("win", "0.5 0.25 0.25 n=4"),)
    seats = (record.seats[0].model_copy(update={"name": "M<b>arta</b>"}),) + record.seats[1:]
    record = record.model_copy(update={"seats": seats})
    path = tmp_path / "hostile.html"
    path.write_text(page(record, replay(record)), encoding="utf-8")
    w = Watched(browser, viewport=DESKTOP)
    try:
        w.open(path, "#I.1")
        found = w.page.evaluate("""() => ({
            legend: document.querySelector('#wingraph .wlegend li').textContent,
            mark: document.querySelector('#actions .cmark code').textContent,
            elements: document.querySelectorAll('#wingraph img, #wingraph b, #actions img, #winnow b').length,
            title: document.title,
        })""")
        assert found["legend"] == "M<b>arta</b>" and found["mark"] == hostile
        assert found["elements"] == 0 and found["title"] != "1"
        w.assert_quiet(path)
    finally:
        w.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_serious_issue_in_the_graph_the_estimate_and_the_marks(browser, pages, viewport) -> None:
    axe = axe_source()
    w = Watched(browser, viewport=viewport)
    try:
        for address in ("I.0", "I.2", "III.end"):
            w.open(pages["annotated"], "#" + address)
            w.page.evaluate("() => { document.querySelector('#wingraph details').open = true; }")
            found = serious_violations(w.page, axe)
            assert found == [], (address, found)
        assert all(url.split("#")[0] == pages["annotated"].as_uri() for url in w.requests)
    finally:
        w.close()


def test_a_club_site_page_of_an_annotated_record_has_its_graph(tmp_path: Path, analysed) -> None:
    from wnotation.viewer import build_site

    record = analysed[0]
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "annotated.7wn").write_text(write(record), encoding="utf-8")
    (tmp_path / "in" / "plain.7wn").write_text(GAME.read_text(encoding="utf-8"), encoding="utf-8")
    report = build_site([tmp_path / "in"], tmp_path / "site")
    pages = {Path(g.page).stem: page_data((tmp_path / "site" / g.page).read_text(encoding="utf-8"))
             for g in report.games if g.page is not None}
    assert sorted(pages) == ["annotated", "plain"]
    assert len(pages["annotated"]["wins"]["points"]) == len(record.turns) and "wins" not in pages["plain"]


def test_in_a_variation_the_estimate_says_it_is_of_the_main_line(browser, tmp_path) -> None:
    source = REPLAYS / "variations-3p-rhodos-babylon-olympia.7wn"
    record = next(iter(read_games(source)))
    assert not isinstance(record, Exception)
    record = parse(write(annotate(record, analyse(record, 1, 2))))
    assert record.turns[0].variations  # I.1(1) replaces the main line's I.2
    path = tmp_path / "variations.html"
    path.write_text(page(record, replay(record)), encoding="utf-8")
    w = Watched(browser, viewport=DESKTOP)
    try:
        w.open(path, "#I.1(1).I.2")
        seen = w.page.evaluate(READ)
        assert seen["label"].startswith("variation I.1(1), I.1(1).I.2")
        assert seen["sub"] == "Estimates are of the main line only." and seen["cursor"] is None
        assert seen["values"] == ["\u2013"] * 3
        w.page.click('#winplot .whits rect[data-address="I.2"]')  # back to the main line, at the turn it replaces
        seen = w.page.evaluate(READ)
        assert seen["label"].startswith("I.2: ") and seen["sub"].startswith("After I.2")
        w.assert_quiet(path)
    finally:
        w.close()
