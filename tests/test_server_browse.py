"""Issue 36 items 3 and 4: the club server's archive tables derived from the stored texts, the game list filtered by
date, player, Wonder and event, a page per player, the ``stats`` answers as pages with their charts, the whole
archive as a zip of the Parquet archive, and keyed (private) reading.

Through Starlette's TestClient. DuckDB is in the test extra that CI installs, so the stats pages and the Parquet
download are tested for real; their absence is tested by hiding it (the pages must then say so, link nothing)."""

from __future__ import annotations

import io
import os
import re
import socket
import sqlite3
import warnings
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    for _module in ("starlette", "uvicorn", "python_multipart", "httpx", "duckdb"):
        pytest.importorskip(_module)

from cli_helpers import run  # noqa: E402
from helpers.server import KEY, Tags, log_in  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from wnotation.notation import read_games  # noqa: E402
from wnotation.archive.schema import TABLES, columns, game_id  # noqa: E402
from wnotation.archive.stats import QUERIES, Filters, run_stats  # noqa: E402
from wnotation.server import browse  # noqa: E402
from wnotation.server.app import create_app  # noqa: E402
from wnotation.server.derived import ARCHIVE_DIR, ARCHIVE_ZIP, Derived  # noqa: E402
from wnotation.server.store import DB_NAME, Store  # noqa: E402
from wnotation.server.upload import check_upload  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = sorted((ROOT / "replays").glob("*.7wn"))
HOSTILE = ROOT / "tests" / "hostile"
SVG = "{http://www.w3.org/2000/svg}"


def read_games_of(path: Path) -> list[Any]:
    return list(read_games(path))


def fill(store: Store, paths: list[Path] = REPLAYS) -> None:
    for path in paths:
        for game in check_upload(path.read_text(encoding="utf-8"), path.name).games:
            if game.game is not None:
                store.add_game(game.game)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder holding the bundled replays (read-only for the tests that use it)."""
    folder = tmp_path_factory.mktemp("club") / "data"
    store = Store(folder)
    store.set_key(KEY)
    fill(store)
    return folder


@pytest.fixture(scope="module")
def reader(club: Path) -> TestClient:
    return TestClient(create_app(club))


HTML_ALLOWED = {"html", "head", "meta", "title", "style", "body", "nav", "a", "form", "input", "button", "h1", "h2",
                "p", "header", "main", "table", "thead", "tbody", "tr", "th", "td", "span", "br", "ol", "li", "pre",
                "label", "select", "option", "datalist", "code"}
SVG_ALLOWED = {"svg", "title", "rect", "text"}


def assert_browse_page(document: str) -> None:
    """No script, no event handler, links and forms to this server's own paths, inline SVG of shapes and text
    only, and the server's policy (nothing from elsewhere)."""
    parser = Tags()
    parser.feed(document)
    for tag, attrs in parser.tags:
        assert tag in HTML_ALLOWED | SVG_ALLOWED, tag
        assert not any(name.startswith("on") or name == "style" for name in attrs), (tag, attrs)
        for name in ("href", "action"):
            if name in attrs:
                assert re.fullmatch(r"/[A-Za-z0-9/._?=%&+-]*", attrs[name] or ""), (tag, attrs)
    for svg in re.findall(r"<svg.*?</svg>", document, re.S):
        for element in ET.fromstring(svg).iter():
            assert element.tag.removeprefix(SVG) in SVG_ALLOWED, element.tag
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', document)
    assert policy is not None and "default-src &#x27;none&#x27;" in policy.group(1)


def listed(document: str) -> set[int]:
    """The game ids a list page links."""
    return {int(n) for n in re.findall(r'href="/games/(\d+)"', document)}


# the derived tables


def test_the_archive_tables_are_derived_in_sqlite_with_the_schema_columns(club):
    Derived(Store(club)).refresh()
    with sqlite3.connect(club / DB_NAME) as db:
        for table in TABLES:
            cols = tuple(r[1] for r in db.execute(f'PRAGMA table_info("archive_{table}")'))
            assert cols == columns(table), table
        texts = dict(db.execute("SELECT id, text FROM games"))
        index = dict(db.execute("SELECT id, game_id FROM archive_index"))
        assert index == {k: game_id(t) for k, t in texts.items()}  # the archive's content key of each stored text
        seats = db.execute("SELECT count(*) FROM archive_seats").fetchone()[0]
        plays = db.execute("SELECT count(*) FROM archive_plays").fetchone()[0]
        cards = db.execute("SELECT count(*) FROM archive_cards").fetchone()[0]
    assert seats == sum(len(r.seats) for r in Store(club).games()) and plays > 500 and cards > 70


def test_the_derived_tables_follow_the_games_added_removed_and_a_new_schema(tmp_path):
    store = Store(tmp_path / "d")
    fill(store, REPLAYS[:2])
    derived = Derived(store)
    assert derived.refresh() == 2 and derived.refresh() == 0  # nothing changed: nothing derived
    fill(store, REPLAYS[2:3])
    assert derived.refresh() == 1
    first = store.games()[-1].id
    with sqlite3.connect(store.path) as db:  # a game gone from the source of truth
        gid = db.execute("SELECT game_id FROM archive_index WHERE id = ?", (first,)).fetchone()[0]
        db.execute("DELETE FROM games WHERE id = ?", (first,))
    assert derived.refresh() == 0
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT count(*) FROM archive_seats WHERE game_id = ?", (gid,)).fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM archive_games").fetchone()[0] == 2
        other = db.execute("SELECT id FROM games ORDER BY id LIMIT 1").fetchone()[0]
        db.execute("UPDATE games SET text = ?, digest = 'another text' WHERE id = ?",  # the same id, another game
                   (REPLAYS[-1].read_text(encoding="utf-8"), other))
    assert derived.refresh() == 1
    with sqlite3.connect(store.path) as db:
        names = {r[0] for r in db.execute("SELECT s.player FROM archive_seats AS s JOIN archive_index AS i "
                                          "USING (game_id) WHERE i.id = ?", (other,))}
        assert names == {s.name for s in read_games_of(REPLAYS[-1])[0].seats}
        assert db.execute("SELECT count(*) FROM archive_games").fetchone()[0] == 2
        db.execute("UPDATE meta SET value = '1' WHERE key = 'archive_schema'")  # rows of an older schema
    assert Derived(store).refresh() == 2  # a new server derives them again


# the list, filtered


def test_the_list_filters_by_player_wonder_event_and_date(reader, club):
    rows = Store(club).games()
    everything = listed(reader.get("/browse").text)
    assert everything == {r.id for r in rows}
    marta = {r.id for r in rows if any(s[0] == "Marta" for s in r.seats)}
    assert listed(reader.get("/browse", params={"player": "Marta"}).text) == marta and marta
    babylon = {r.id for r in rows if any(s[1] == "Babylon" for s in r.seats)}
    assert listed(reader.get("/browse", params={"wonder": "Babylon"}).text) == babylon and babylon < everything
    same_seat = {r.id for r in rows if ("Marta", "Babylon") in {(s[0], s[1]) for s in r.seats}}
    assert listed(reader.get("/browse", params={"player": "Marta", "wonder": "Babylon"}).text) == same_seat
    assert same_seat < marta
    event = rows[0].event
    assert listed(reader.get("/browse", params={"event": event}).text) == {r.id for r in rows if r.event == event}
    day = rows[0].date.replace(".", "-")
    assert listed(reader.get("/browse", params={"from": day, "to": day}).text) == {
        r.id for r in rows if r.date == rows[0].date}
    assert listed(reader.get("/browse", params={"to": "1999-12-31"}).text) == set()


def test_a_bad_filter_is_a_400_page_and_sql_in_a_filter_is_only_a_value(reader, club):
    bad = reader.get("/browse", params={"from": "3 October"})
    assert bad.status_code == 400 and "is not a date" in bad.text
    assert_browse_page(bad.text)
    assert reader.get("/stats", params={"players": "2; DROP TABLE games"}).status_code == 400
    for value in ("'; DROP TABLE games; --", "\" OR 1=1 --", "%", "_"):
        page = reader.get("/browse", params={"player": value, "event": value})
        assert page.status_code == 200 and listed(page.text) == set()
    assert len(Store(club).games()) == len(listed(reader.get("/browse").text)) > 0


# players


def test_a_page_per_player_with_games_wins_average_and_wonders(reader, club):
    rows = Store(club).games()
    name = "Marta"
    mine = [(r, [s[0] for s in r.seats].index(name)) for r in rows if any(s[0] == name for s in r.seats)]
    wins = sum(1 for r, _ in mine if name in r.winners)
    average = sum(r.totals[k] for r, k in mine) / len(mine)
    page = reader.get("/player", params={"name": name})
    assert page.status_code == 200
    assert_browse_page(page.text)
    assert f"{len(mine)} games ({len(mine)} complete), {wins} win" in page.text
    assert f"average points {average:.1f}" in page.text
    for r, k in mine:
        assert f"{r.seats[k][1]} {r.seats[k][2]}</td>" in page.text  # each Wonder side played
    assert listed(page.text) == {r.id for r, _ in mine}
    assert reader.get("/player", params={"name": "Nobody at all"}).status_code == 404
    everyone = reader.get("/players").text
    names = {s[0] for r in rows for s in r.seats}
    assert set(re.findall(r'<span class="rt">([^<]+)</span>', everyone)) == names


# the stats pages and the Parquet archive


def test_the_stats_pages_are_the_stats_answers_with_their_charts(reader, club):
    texts = reader.get("/games.7wn").text
    expected = {r.name: r for r in run_stats([("club-games.7wn", texts)])}
    page = reader.get("/stats")
    assert page.status_code == 200
    assert_browse_page(page.text)
    for name in QUERIES:
        assert f'href="/stats/{name}"' in page.text
    assert page.text.count("<svg") == len(browse.CHARTS)
    wonders = reader.get("/stats/wonders").text
    assert_browse_page(wonders)
    for wonder, side, seats, wins, _rate, _avg in expected["wonders"].rows:
        assert f"<td data-h=\"wonder\">{wonder}</td><td data-h=\"side\">{side}</td><td data-h=\"seats\">{seats}</td>" \
               f"<td data-h=\"wins\">{wins}</td>" in wonders
    games = expected["overview"].rows[0][0]
    assert f"<p>{games} games," in reader.get("/stats/overview").text
    three = run_stats([("club-games.7wn", texts)], Filters(players=3), ["overview"])[0].rows[0][0]
    assert f"<p>{three} games," in reader.get("/stats/overview", params={"players": "3"}).text and three < games
    assert reader.get("/stats/nothing").status_code == 404


def test_the_whole_archive_downloads_as_a_zip_of_the_parquet_archive(tmp_path):
    store = Store(tmp_path / "d")
    fill(store, REPLAYS[:3])
    client = TestClient(create_app(tmp_path / "d"))
    assert 'href="/archive.zip"' in client.get("/browse").text

    def archive_games() -> int:
        got = client.get("/archive.zip")
        assert got.status_code == 200 and got.headers["content-type"] == "application/zip"
        out = tmp_path / f"unzipped-{len(list(tmp_path.iterdir()))}"
        zipfile.ZipFile(io.BytesIO(got.content)).extractall(out)
        overview = run_stats([out / ARCHIVE_DIR], queries=["overview"])[0]  # `wnotation stats archive/` reads it
        return int(overview.rows[0][0])

    assert archive_games() == 3
    fill(store, REPLAYS[3:5])  # new games: exported again
    assert archive_games() == 5


def test_without_duckdb_the_stats_pages_say_so_and_nothing_links_the_parquet_archive(reader, monkeypatch):
    monkeypatch.setattr(browse, "analytics_available", lambda: False)
    for path in ("/stats", "/stats/wonders"):
        page = reader.get(path)
        assert page.status_code == 200 and "need DuckDB" in page.text and "pip install" in page.text
    listing = reader.get("/browse").text
    assert "/archive.zip" not in listing and "need DuckDB" in listing
    assert reader.get("/archive.zip").status_code == 404
    assert reader.get("/player", params={"name": "Marta"}).status_code == 200  # the SQLite tables need no DuckDB


# record text is data


def test_hostile_records_stay_text_in_every_browse_page(tmp_path):
    store = Store(tmp_path / "d")
    fill(store, [HOSTILE / "hostile-game.7wn", HOSTILE / "hostile-illegal.7wn"])
    fill(store, REPLAYS[:1])
    client = TestClient(create_app(tmp_path / "d"))
    rows = store.games()
    names = {s[0] for r in rows for s in r.seats}
    events = {r.event for r in rows}
    assert any("<script>" in n for n in names) and any("</script>" in e for e in events)
    pages = [client.get(p) for p in ("/browse", "/players", "/stats", *(f"/stats/{q}" for q in QUERIES))]
    pages += [client.get("/player", params={"name": n}) for n in names]
    pages += [client.get("/browse", params={"player": n}) for n in names]
    pages += [client.get("/browse", params={"event": e}) for e in events]
    pages += [client.get("/stats", params={"event": e}) for e in events]
    for page in pages:
        assert page.status_code == 200, page.url
        assert_browse_page(page.text)
        assert "<script>window" not in page.text and "<img src" not in page.text, page.url
    hostile_name = next(n for n in names if "<img" in n)
    assert listed(client.get("/browse", params={"player": hostile_name}).text) == {
        r.id for r in rows if any(s[0] == hostile_name for s in r.seats)} != set()


# keyed reading


READ_PATHS = ("/", "/browse", "/players", "/player?name=Marta", "/stats", "/games/1", "/games/1.7wn", "/games.7wn",
              "/archive.zip", "/record", "/nowhere")


def test_private_reading_needs_the_club_key_for_every_page(tmp_path):
    store = Store(tmp_path / "d")
    store.set_key(KEY)
    fill(store, REPLAYS[:1])
    store.set_private_reading(True)
    client = TestClient(create_app(tmp_path / "d"))
    for path in READ_PATHS:
        shut = client.get(path, follow_redirects=False)
        assert shut.status_code == 303 and shut.headers["location"] == "/login", path
        assert "frame-ancestors 'none'" in shut.headers["content-security-policy"]
        assert "Marta" not in shut.text
    assert client.post("/upload", data={}, follow_redirects=False).headers["location"] == "/login"
    login = client.get("/login")
    assert login.status_code == 200 and "Reading, uploading and recording the club’s games need the club key" in login.text
    assert log_in(client).status_code == 303
    for path in READ_PATHS:
        assert client.get(path).status_code == (404 if path == "/nowhere" else 200), path
    client.cookies.set("wn_session", "a token of no session")
    assert client.get("/", follow_redirects=False).status_code == 303


def test_public_reading_needs_no_key(reader):
    assert "reading is open to all" in reader.get("/login").text
    for path in READ_PATHS:
        assert reader.get(path, follow_redirects=False).status_code == (404 if path == "/nowhere" else 200), path


def test_serve_private_and_public_are_kept_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("WNOTATION_CLUB_KEY", KEY)
    with socket.socket() as taken:  # the setting is stored before the port is tried: a port in use stops it there
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        run("serve", "--data", str(tmp_path / "d"), "--port", port, "--private", code=2)
        assert Store(tmp_path / "d").private_reading()
        run("serve", "--data", str(tmp_path / "d"), "--port", port, code=2)
        assert Store(tmp_path / "d").private_reading()  # kept
        run("serve", "--data", str(tmp_path / "d"), "--port", port, "--public", code=2)
        assert not Store(tmp_path / "d").private_reading()


def test_the_browse_pages_write_only_inside_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Store(tmp_path / "data")
    fill(store, REPLAYS[:2])
    client = TestClient(create_app(tmp_path / "data"))
    for path in ("/browse", "/players", "/stats", "/archive.zip"):
        assert client.get(path).status_code == 200
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    assert {p.name for p in (tmp_path / "data").iterdir()} <= {DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm",
                                                               ARCHIVE_DIR, ARCHIVE_ZIP}
