"""Issue 21: what a record says is data in every output of the viewer. The hostile corpus (tests/hostile/) puts
script, markup, URL, CSS, template, SQL, path, control and bidi payloads into seat names, tag values, comments and
``[%…]`` tags; the pages, the club site and the SVG pictures must keep each one as text: the same elements as for
a harmless record, no script run, no request, every file inside the output folder, size linear in the input.
The browser tests watch Chromium's own events (window.__pwned, requests, console)."""

from __future__ import annotations

import os
import re
import sys
import tracemalloc
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any, Iterator

import pytest
from test_viewer_browser import Watched, launch
from test_viewer_html import assert_self_contained, parsed

from wnotation.engine import replay
from wnotation.notation import read_games
from wnotation.model.record import Record, Tag
from wnotation.viewer import build_site, chart_svg, page, page_data, sheet_svg
from wnotation.viewer.html import script_json
from wnotation.viewer.lexer import SevenWNLexer
from wnotation.viewer.svg import xml_text

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
sys.path.insert(0, str(HOSTILE))
import make_corpus  # noqa: E402

PAYLOADS = make_corpus.payloads()
SVG = "{http://www.w3.org/2000/svg}"
#: Everything an SVG picture may contain: shapes and text, with presentation attributes only.
SVG_ELEMENTS = {"svg", "title", "rect", "text", "g", "line"}
SVG_ATTRIBUTES = {"xmlns", "width", "height", "viewBox", "role", "aria-label", "font-family", "x", "y", "x1", "x2",
                  "y1", "y2", "fill", "stroke", "font-size", "font-weight", "text-anchor"}


@cache
def hostile(name: str) -> Record:
    record = next(iter(read_games(HOSTILE / name)))
    assert isinstance(record, Record), record
    return record


def harmless(record: Record) -> Record:
    """``record`` with every free text replaced by a plain word: the page it gives is the reference structure."""
    def plain(note):
        return note.model_copy(update={"before": tuple("x" for _ in note.before),
                                       "after": tuple("x" for _ in note.after),
                                       "tags": tuple((k, "x") for k, _ in note.tags)})

    turns = tuple(t.model_copy(update={"annotation": plain(t.annotation), "actions": tuple(
        a.model_copy(update={"annotation": plain(a.annotation)}) for a in t.actions)}) for t in record.turns)
    return record.model_copy(update={
        "seats": tuple(s.model_copy(update={"name": f"Seat {k}"}) for k, s in enumerate(record.seats, 1)),
        "tags": tuple(Tag(name=t.name, value="x") for t in record.tags),
        "annotation": plain(record.annotation), "turns": turns})


def structure(document: str) -> list[tuple[str, tuple[tuple[str, str | None], ...]]]:
    """The document's elements in order, with their attributes, but the CSP (its hashes cover the inline blocks)."""
    return [(tag, tuple(sorted(attrs.items()))) for tag, attrs in parsed(document).tags
            if not (tag == "meta" and attrs.get("http-equiv"))]


def every_text(record: Record) -> list[str]:
    out = [s.name for s in record.seats] + [t.value for t in record.tags]
    notes = [record.annotation] + [t.annotation for t in record.turns] + [
        a.annotation for t in record.turns for a in t.actions]
    for n in notes:
        out += list(n.before) + list(n.after) + [v for _, v in n.tags]
    return out


# --- the corpus ---------------------------------------------------------------------------------------------------


def test_the_stored_corpus_is_what_make_corpus_writes() -> None:
    assert make_corpus.main(["--check"]) == 0, "run python tests/hostile/make_corpus.py"


def test_the_corpus_puts_every_payload_in_names_tags_comments_and_annotation_tags() -> None:
    record = hostile("hostile-game.7wn")
    texts = every_text(record)
    for name, payload in PAYLOADS.items():
        assert payload in texts, name
    assert all(payload in [s.name for s in record.seats] for payload in
               (PAYLOADS[k] for k in make_corpus.SEAT_PAYLOADS))
    played = replay(record)
    assert played.ok and played.scores is not None  # a legal game: only its text is hostile
    assert not [f for f in replay(hostile("hostile-illegal.7wn")).findings if f.severity == "error"] == []


def test_the_lexer_classifies_the_hostile_game_without_error_tokens() -> None:
    text = (HOSTILE / "hostile-game.7wn").read_text(encoding="utf-8")
    found = list(SevenWNLexer(stripnl=False, ensurenl=False).get_tokens(text))
    assert "".join(v for _, v in found) == text
    assert not [v for k, v in found if "Error" in str(k)]


# --- HTML ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["hostile-game.7wn", "hostile-illegal.7wn"])
@pytest.mark.parametrize("seat", [None, 2])
def test_a_hostile_page_has_the_elements_of_a_harmless_one(name: str, seat: int | None) -> None:
    record = hostile(name)
    document = page(record, replay(record), view_seat=seat, source=(HOSTILE / name).read_text(encoding="utf-8"))
    reference = page(harmless(record), replay(harmless(record)), view_seat=seat)
    assert structure(document) == structure(reference)
    assert_self_contained(document)
    data = page_data(document)
    assert [s["name"] for s in data["seats"]] == [s.name for s in record.seats]  # kept as they are, as data
    if seat is None:
        assert data["source"] == (HOSTILE / name).read_text(encoding="utf-8")
    outside = re.sub(r'<script type="application/json" id="wn-data">[^<]*</script>', "", document)
    # only as escaped element text (the <title>, the players, sheet and 7WN text shown without JavaScript), never
    # in markup: with every text node taken out, no trace is left
    assert "__pwned" not in re.sub(r">[^<]*<", "><", outside)
    assert "<script>window" not in outside and "<img" not in outside


def _title_of(document: str) -> str:
    return re.search(r"<title>[^<]*</title>", document).group(0)


def test_lone_surrogates_and_controls_of_a_hand_built_record_cannot_break_a_page() -> None:
    record = hostile("hostile-game.7wn")
    odd = record.model_copy(update={"seats": (record.seats[0].model_copy(update={"name": "a\ud800b\x00c"}),)
                                    + record.seats[1:]})
    document = page(odd, replay(odd))
    document.encode("utf-8")  # a page is valid UTF-8 whatever the Record holds
    assert page_data(document)["seats"][0]["name"] == "a\ud800b\x00c"
    assert "\x00" not in document and "\ud800" not in document


MB = 1 << 20


@pytest.mark.parametrize("where", ["seat", "comment", "annotation tag", "tag value"])
def test_a_1_mb_value_gives_a_page_linear_in_it(where: str) -> None:
    record = hostile("hostile-game.7wn")
    big = "<b>" * (MB // 3)
    if where == "seat":
        record = record.model_copy(update={"seats": (record.seats[0].model_copy(update={"name": big}),)
                                           + record.seats[1:]})
    elif where == "comment":
        turn = record.turns[3].model_copy(update={"annotation": record.turns[3].annotation.model_copy(
            update={"after": (big,)})})
        record = record.model_copy(update={"turns": record.turns[:3] + (turn,) + record.turns[4:]})
    elif where == "annotation tag":
        record = record.model_copy(update={"annotation": record.annotation.model_copy(update={"tags": (("k", big),)})})
    else:
        record = record.model_copy(update={"tags": record.tags + (Tag(name="Huge", value=big),)})
    played = replay(record)
    tracemalloc.start()
    try:
        document = page(record, played)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the value is embedded a bounded number of times (the title, the seats, the final sheet, the source's
    # tokens), each escaped for JSON, never once per position or per event
    unit = len(script_json(big))
    assert len(document) < 6 * unit + MB, len(document) / unit
    assert peak < 120 * len(big), peak / len(big)  # 100 before the page's own copy of its text, for no script
    assert structure(document) == structure(page(harmless(record), replay(harmless(record))))
    picture = sheet_svg(played)  # a name in full once (its column's <title>), shortened where it is drawn
    assert len(picture) < 2 * len(xml_text(big)) + 100_000


# --- SVG ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("draw", [sheet_svg, chart_svg], ids=["sheet", "chart"])
@pytest.mark.parametrize("at", [None, "II.3"])
def test_hostile_pictures_hold_shapes_and_text_only(draw, at) -> None:
    record = hostile("hostile-illegal.7wn")
    picture = draw(replay(record), at)
    root = ET.fromstring(picture)  # well-formed XML whatever the names hold (controls stripped)
    for element in root.iter():
        assert element.tag.startswith(SVG) and element.tag[len(SVG):] in SVG_ELEMENTS, element.tag
        assert set(element.attrib) <= SVG_ATTRIBUTES, element.attrib
        assert not any("url(" in v or "javascript" in v.lower() for v in element.attrib.values())
    assert "foreignObject" not in picture and "<script" not in picture and "href" not in picture
    titles = {t.text for t in root.iter(f"{SVG}title")}
    stripped = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\u202a-\u202e\u2066-\u2069]")
    for s in record.seats:
        assert stripped.sub("", s.name) in titles  # the names are there, as text


# --- files --------------------------------------------------------------------------------------------------------


FILE_NAMES = ["<script>alert(1)<.7wn", "..%2F..%2Fx.7wn", "con.7wn", "index.7wn", "INDEX.7wn", "-rf.7wn",
              "a b;rm -rf ~.7wn", "\u202egnp.7wn", "nul.txt.7wn", ".hidden-looking.7wn"]


def test_build_site_writes_every_file_inside_the_folder_whatever_the_names_say(tmp_path: Path) -> None:
    records = tmp_path / "records"
    (records / "sub" / "..." / "deeper").mkdir(parents=True)
    text = (HOSTILE / "hostile-game.7wn").read_text(encoding="utf-8")
    for name in FILE_NAMES:
        (records / name).write_text(text, encoding="utf-8")
    (records / "sub" / "..." / "deeper" / "index.7wn").write_text(text, encoding="utf-8")
    (records / "both.7wn").write_text((HOSTILE / "hostile-unreadable.7wn").read_text(encoding="utf-8"), "utf-8")
    outside = tmp_path / "outside.html"
    outside.write_text("keep me", encoding="utf-8")
    out = tmp_path / "site"
    out.mkdir()
    for name in ("index.html", "hostile-game.html", "unused.html"):  # links where the site writes: replaced,
        os.symlink(outside, out / name)  # never followed; one it does not write is left alone
    report = build_site([records, HOSTILE], out)
    assert outside.read_text(encoding="utf-8") == "keep me"
    assert (out / "unused.html").is_symlink()
    written = sorted(n for n in os.listdir(out) if n != "unused.html")
    for name in written:
        path = out / name
        assert path.is_file() and not path.is_symlink(), name
        assert re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9._-]*\.html", name), name
        assert path.resolve().parent == out.resolve()
    assert "index.html" in written and not any(n.casefold() in ("index.html",) for n in written if n != "index.html")
    assert not any(re.match(r"(?i)(con|prn|aux|nul|com\d|lpt\d)(\.|$)", n) for n in written)
    pages = [g.page for g in report.games if g.page is not None]
    shown = [n for n in FILE_NAMES if not n.startswith(".")]  # hidden files are not records of the site
    assert len(pages) == len(set(p.casefold() for p in pages)) == len(shown) + 1 + 2  # + deeper, + the corpus
    players = [n for n in written if n.startswith("player-")]  # a page per player: safe names like the rest
    assert len(players) == len({n for g in report.games if g.page for n in g.names})
    assert sorted(pages + ["index.html"] + players) == written and "hostile-game.html" in pages
    assert [g.error is not None for g in report.games].count(True) == 4  # hostile-unreadable.7wn and its copy: 2 each
    index = (out / "index.html").read_text(encoding="utf-8")
    assert_self_contained(index, links=True)
    tags = {tag for tag, _ in parsed(index).tags}
    assert tags <= {"html", "head", "meta", "title", "style", "body", "header", "h1", "p", "main", "table",
                    "thead", "tbody", "tr", "th", "td", "a", "span", "br"}, tags
    hrefs = [a["href"] for tag, a in parsed(index).tags if tag == "a"]
    assert sorted(h for h in hrefs if h not in players) == sorted(pages) and set(players) <= set(hrefs)


# --- in the browser -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


#: Whether anything of a payload ran or was added: window.__pwned, elements no viewer page has, scripts beyond the
#: page's one and its JSON block, a refresh, a base URL.
PROBE = """() => ({
  pwned: window.__pwned === undefined ? null : String(window.__pwned),
  parentPwned: window.parent.__pwned === undefined ? null : String(window.parent.__pwned),
  injected: [...document.querySelectorAll('img, iframe, object, embed, link, base, form, meta[http-equiv=refresh], '
    + 'svg script, foreignObject, [onerror], [onload], [onmouseover], [srcdoc]')].map(e => e.outerHTML.slice(0, 80)),
  scripts: [...document.querySelectorAll('script')].map(s => s.type || 'classic'),
  baseURI: document.baseURI,
})"""


def _clean(probe: dict[str, Any], uri: str, scripts: list[str]) -> None:
    assert probe["pwned"] is None and probe["parentPwned"] is None, probe
    assert probe["injected"] == [], probe["injected"]
    assert probe["scripts"] == scripts
    assert probe["baseURI"].split("#")[0] == uri


@pytest.mark.browser
@pytest.mark.parametrize("name", ["hostile-game.7wn", "hostile-illegal.7wn"])
def test_no_payload_runs_adds_an_element_or_makes_a_request_in_chromium(browser, tmp_path: Path, name: str) -> None:
    record = hostile(name)
    path = tmp_path / "hostile.html"
    path.write_text(page(record, replay(record), source=(HOSTILE / name).read_text(encoding="utf-8")), "utf-8")
    w = Watched(browser, viewport={"width": 1280, "height": 900})
    try:
        w.open(path)
        w.page.click("#source-h")  # the source pane open, so its tokens are laid out too
        n = len(replay(record).addresses)
        for _ in range(n):  # every position rendered: turns, cities, commentary, findings, sheet, chart
            w.page.keyboard.press("ArrowRight")
            w.page.hover("#notes")
        w.page.hover("#cities")
        _clean(w.page.evaluate(PROBE), path.as_uri(), ["application/json", "classic"])
        shown = w.page.evaluate("""() => ({
            cities: [...document.querySelectorAll('#cities article h3')].map(h => h.textContent),
            tags: [...document.querySelectorAll('#tags dd')].map(d => d.textContent),
            title: document.getElementById('title').textContent,
            notes: document.body.textContent })""")
        assert shown["cities"] == [s.name for s in record.seats]  # the names shown as text, exactly
        assert shown["tags"] == [t.value for t in record.tags]
        w.page.keyboard.press("Home")
        notes = w.page.text_content("#notes")
        for payload in record.annotation.before:
            assert payload in notes
        w.assert_quiet(path)
    finally:
        w.close()


@pytest.mark.browser
def test_a_hostile_fragment_is_parsed_never_inserted(browser, tmp_path: Path) -> None:
    record = hostile("hostile-game.7wn")
    path = tmp_path / "fragment.html"
    path.write_text(page(record, replay(record)), encoding="utf-8")
    w = Watched(browser)
    try:
        for fragment in ("#\"><img src=x onerror=\"window.__pwned='hash'\">", "#javascript:window.__pwned=1",
                         "#%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D2%3E", "#II.3<script>window.__pwned=3",
                         "#%E0%A4%A"):
            w.open(path, fragment)
            assert w.page.evaluate(
                "document.getElementById('label').textContent").startswith("I.0: "), fragment
            _clean(w.page.evaluate(PROBE), path.as_uri(), ["application/json", "classic"])
        w.assert_quiet(path)
    finally:
        w.close()


@pytest.mark.browser
def test_hostile_svg_and_site_index_run_nothing_in_chromium(browser, tmp_path: Path) -> None:
    record = hostile("hostile-illegal.7wn")
    played = replay(record)
    sheet = tmp_path / "sheet.svg"
    sheet.write_text(sheet_svg(played), encoding="utf-8")
    chart = tmp_path / "chart.svg"
    chart.write_text(chart_svg(played, "II.3"), encoding="utf-8")
    build_site([HOSTILE], tmp_path / "site")
    index = tmp_path / "site" / "index.html"
    w = Watched(browser)
    try:
        for picture in (sheet, chart):
            w.page.goto(picture.as_uri())
            probe = w.page.evaluate(PROBE)
            _clean(probe, picture.as_uri(), [])
            assert w.page.evaluate("document.documentElement.namespaceURI") == "http://www.w3.org/2000/svg"
        w.page.goto(index.as_uri())
        _clean(w.page.evaluate(PROBE), index.as_uri(), [])
        links = w.page.evaluate("[...document.querySelectorAll('a')].map(a => a.getAttribute('href'))")
        assert links and all(re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9._-]*\.html", h) for h in links)
        w.page.click(f"a[href='{links[0]}']")  # a page of the site, opened from its index
        w.page.wait_for_function("document.getElementById('label').textContent.length > 0")
        _clean(w.page.evaluate(PROBE), (tmp_path / "site" / links[0]).as_uri(), ["application/json", "classic"])
        w.assert_quiet(sheet, chart, index, tmp_path / "site" / links[0])
    finally:
        w.close()
