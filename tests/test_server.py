"""Issue 36, the club server's first slice: the SQLite store of canonical texts, the club key and sessions, upload
checked game by game, the list, each game's viewer page, download, and ``wnotation serve`` as a real process.

The logic runs through Starlette's TestClient (httpx); one test starts the command on a free 127.0.0.1 port. The
optional ``[server]`` extra is skipped when missing, except under CI=true, where it must be installed."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    for _module in ("starlette", "uvicorn", "python_multipart", "httpx"):
        pytest.importorskip(_module)

import warnings  # noqa: E402

from cli_helpers import run  # noqa: E402
from helpers.server import CSRF_RE, KEY, Tags, free_port, keyed_folder, log_in, serve_process  # noqa: E402

with warnings.catch_warnings():  # starlette 1.x asks for httpx2 over httpx; either drives the app the same way
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import wnotation
from wnotation.model.record import Record, Seat
from wnotation.server import upload as upload_module
from wnotation.server.app import create_app
from wnotation.server.keys import hash_key, key_matches
from wnotation.server.store import DB_NAME, Store
from wnotation.viewer import page_data

ROOT = Path(__file__).resolve().parent.parent
REPLAY = ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn"
ILLEGAL = ROOT / "spec" / "cases" / "003-right-has-no-wood.7wn"
HOSTILE = ROOT / "tests" / "hostile"
BROKEN = '[Format "7WN 1"]\n[Edition "2e"]\n[Seat1 "Ann" "Gizah" "day"]\nI.1 Stockade |\n'


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return keyed_folder(tmp_path)


@pytest.fixture
def client(data: Path) -> TestClient:
    return TestClient(create_app(data))


def csrf_of(client: TestClient) -> str:
    found = CSRF_RE.search(client.get("/upload").text)
    assert found is not None, "no upload form: not logged in"
    return found.group(1)


def send(client: TestClient, content: str | bytes, name: str = "games.7wn", csrf: str | None = None) -> Any:
    raw = content.encode("utf-8") if isinstance(content, str) else content
    return client.post("/upload", data={"csrf": csrf if csrf is not None else csrf_of(client)},
                       files={"file": (name, raw, "text/plain")})


def games_in(data: Path) -> int:
    return Store(data).count()


# the store


def test_store_is_sqlite_in_wal_mode_and_keeps_the_canonical_text(tmp_path):
    from wnotation.server.upload import check_upload

    store = Store(tmp_path / "d")
    with sqlite3.connect(tmp_path / "d" / DB_NAME) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    checked = check_upload(REPLAY.read_text(encoding="utf-8"), "x.7wn")
    game = checked.games[0].game
    assert game is not None
    record = next(wnotation.read_games(REPLAY))
    assert isinstance(record, Record)
    assert game.text == wnotation.write(record)  # the canonical text, not the uploaded bytes
    first = store.add_game(game)
    assert first[1] and Store(tmp_path / "d").add_game(game) == (first[0], False)  # kept once, across reopening
    assert Store(tmp_path / "d").game_text(first[0]) == game.text
    row = store.games()[0]
    assert row.totals == (52, 52, 41) and [s[0] for s in row.seats] == ["Marta", "Jonas", "Priya"]
    assert store.games(player="Priya") == [row] and store.games(player="Nobody") == []


def test_the_club_key_is_stored_only_as_a_salted_scrypt_hash(tmp_path):
    stored = hash_key("open sesame")
    assert stored.startswith("scrypt$") and "open sesame" not in stored
    assert hash_key("open sesame") != stored  # salted
    assert key_matches("open sesame", stored) and not key_matches("open sesamE", stored)
    assert not key_matches("open sesame", "scrypt$1$2$zz$00") and not key_matches("x", "plain")
    store = Store(tmp_path / "d")
    assert not store.has_key()
    store.set_key("open sesame")
    assert store.has_key() and store.check_key("open sesame") and not store.check_key("wrong key!")
    for file in (tmp_path / "d").iterdir():
        assert b"open sesame" not in file.read_bytes()


# keys, sessions, CSRF


def test_reading_is_public_and_writing_needs_the_club_key(client, data):
    assert client.get("/").status_code == 200
    assert client.get("/upload", follow_redirects=False).headers["location"] == "/login"
    refused = client.post("/upload", files={"file": ("a.7wn", REPLAY.read_bytes())})
    assert refused.status_code == 403 and games_in(data) == 0


def test_a_wrong_key_opens_no_session(client, data):
    answer = log_in(client, "not the key")
    assert answer.status_code == 403 and "not the club key" in answer.text
    assert "wn_session" not in answer.cookies
    assert client.get("/upload", follow_redirects=False).status_code == 303


def test_the_login_form_needs_its_own_token(client):
    answer = client.post("/login", data={"key": KEY, "csrf": "forged"}, follow_redirects=False)
    assert answer.status_code == 403 and "wn_session" not in answer.cookies


def test_the_session_cookie_is_httponly_and_samesite_strict(client):
    answer = log_in(client)
    assert answer.status_code == 303 and answer.headers["location"] == "/upload"
    cookie = answer.headers["set-cookie"]
    assert "wn_session=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")


def test_an_upload_without_the_session_csrf_token_is_refused(client, data):
    log_in(client)
    answer = send(client, REPLAY.read_text(encoding="utf-8"), csrf="forged")
    assert answer.status_code == 403 and games_in(data) == 0


def test_log_out_needs_the_token_and_ends_the_session(client):
    log_in(client)
    csrf = csrf_of(client)
    assert client.post("/logout", data={"csrf": "forged"}).status_code == 403
    assert client.post("/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    client.cookies.clear()
    assert client.get("/upload", follow_redirects=False).status_code == 303


def test_a_new_club_key_ends_every_session(client, data):
    log_in(client)
    Store(data).set_key("another key")
    assert client.get("/upload", follow_redirects=False).status_code == 303


# upload, list, page, download


def test_a_broken_game_is_reported_and_the_other_games_of_the_file_are_kept(client, data):
    log_in(client)
    text = REPLAY.read_text(encoding="utf-8") + "\n" + BROKEN + "\n" + ILLEGAL.read_text(encoding="utf-8")
    answer = send(client, text, "evening.7wn")
    assert answer.status_code == 200
    assert "2 of 3 games kept" in answer.text
    assert "not kept: its text cannot be read" in answer.text
    assert "error[R-TRADE]" in answer.text  # the illegal game's finding (R-TRADE), the game kept with it
    assert "evening.7wn:" in answer.text  # findings name the uploaded file's lines
    assert games_in(data) == 2
    rows = Store(data).games()
    assert sorted(r.errors for r in rows) == [0, 1]
    listing = client.get("/").text
    assert "2 games" in listing and "(1 finding)" in listing


def test_uploading_the_same_game_again_keeps_it_once(client, data):
    log_in(client)
    send(client, REPLAY.read_text(encoding="utf-8"))
    again = send(client, REPLAY.read_text(encoding="utf-8"))
    assert "already kept as" in again.text and games_in(data) == 1


def test_a_pasted_text_is_an_upload_too(client, data):
    log_in(client)
    answer = client.post("/upload", data={"csrf": csrf_of(client), "text": REPLAY.read_text(encoding="utf-8")})
    assert "1 of 1 game kept" in answer.text and games_in(data) == 1


def test_each_game_page_is_the_viewer_page_and_the_download_is_its_canonical_text(client, data):
    log_in(client)
    send(client, REPLAY.read_text(encoding="utf-8"))
    (row,) = Store(data).games()
    canonical = Store(data).game_text(row.id)
    shown = client.get(f"/games/{row.id}")
    assert shown.status_code == 200
    assert page_data(shown.text)["source"] == canonical
    got = client.get(f"/games/{row.id}.7wn")
    assert got.headers["content-type"].startswith("text/plain")
    assert got.headers["content-disposition"] == f'attachment; filename="game-{row.id}.7wn"'
    assert got.content.decode("utf-8") == canonical
    back = next(wnotation.read_games(got.text))
    original = next(wnotation.read_games(REPLAY))
    assert isinstance(back, Record) and isinstance(original, Record)
    assert wnotation.write(back) == wnotation.write(original)
    assert client.get("/games/index.html", follow_redirects=False).headers["location"] == "/"  # the page's back link
    assert client.get(f"/games/{row.id + 1}").status_code == 404


def test_the_list_by_player(client, data):
    log_in(client)
    send(client, REPLAY.read_text(encoding="utf-8") + "\n" + ILLEGAL.read_text(encoding="utf-8"))
    assert "2 games" in client.get("/").text
    marta = client.get("/?player=Marta").text
    assert "1 game," in marta and "Priya" in marta and "Cat" not in marta
    assert 'href="/player?name=Marta"' in marta  # each name links the player's page


# limits


def test_an_upload_too_large_is_refused_before_it_is_read(client, data):
    log_in(client)
    answer = send(client, b"x" * (upload_module.MAX_UPLOAD_BYTES + 100 * 1024))
    assert answer.status_code == 413 and "larger than the 2 MiB" in answer.text and games_in(data) == 0


def test_a_file_too_large_inside_the_form_slack_is_refused_by_the_check(client, data):
    log_in(client)
    answer = send(client, b"{" + b" " * upload_module.MAX_UPLOAD_BYTES + b"}")
    assert answer.status_code == 422 and "larger than the 2 MiB" in answer.text


def test_a_line_too_long_is_refused_with_its_number(client, data):
    log_in(client)
    text = REPLAY.read_text(encoding="utf-8") + "{ " + "x" * upload_module.MAX_LINE_CHARS + " }\n"
    answer = send(client, text)
    line = text.count("\n")
    assert answer.status_code == 422 and f"line {line} has" in answer.text and games_in(data) == 0


def test_too_many_games_in_one_file_are_refused(client, data, monkeypatch):
    monkeypatch.setattr(upload_module, "MAX_GAMES", 1)
    log_in(client)
    answer = send(client, REPLAY.read_text(encoding="utf-8") + "\n" + ILLEGAL.read_text(encoding="utf-8"))
    assert answer.status_code == 422 and "at most 1" in answer.text and games_in(data) == 0


def test_a_file_that_is_not_utf8_or_holds_no_game_is_refused(client, data):
    log_in(client)
    bad = send(client, b'[Format "7WN 1"]\n\xff\xfe\n')
    assert bad.status_code == 422 and "not UTF-8" in bad.text
    empty = send(client, "{ only a comment }\n")
    assert empty.status_code == 422 and "holds no game" in empty.text
    nothing = client.post("/upload", data={"csrf": csrf_of(client)})
    assert nothing.status_code == 400 and games_in(data) == 0


# record text is data; nothing from elsewhere; nothing outside the data folder


def assert_server_page(document: str) -> None:
    """A server page: no script, no event handler, links and forms to this server's own paths only, and a
    policy that allows no request elsewhere."""
    parser = Tags()
    parser.feed(document)
    allowed = {"html", "head", "meta", "title", "style", "body", "nav", "a", "form", "input", "button", "h1", "p",
               "header", "main", "table", "thead", "tbody", "tr", "th", "td", "span", "br", "ol", "li", "pre",
               "label", "textarea", "h2", "select", "option", "datalist", "fieldset", "legend", "div"}
    for tag, attrs in parser.tags:
        assert tag in allowed, tag
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        for name in ("href", "action"):
            if name in attrs:
                assert re.fullmatch(r"/[A-Za-z0-9/._?=%-]*", attrs[name] or ""), (tag, attrs)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', document)
    assert policy is not None
    assert "default-src &#x27;none&#x27;" in policy.group(1) and "form-action &#x27;self&#x27;" in policy.group(1)


def test_hostile_records_stay_text_in_every_page(client, data):
    log_in(client)
    hostile = "\n".join((HOSTILE / name).read_text(encoding="utf-8")
                        for name in ("hostile-game.7wn", "hostile-illegal.7wn", "hostile-unreadable.7wn"))
    report = send(client, hostile, '<img src=x onerror=alert(1)>.7wn')
    assert report.status_code == 200
    assert "<img" not in report.text and "&lt;img src=x onerror=alert(1)&gt;.7wn" in report.text
    assert_server_page(report.text)
    listing = client.get("/")
    assert_server_page(listing.text)
    rows = Store(data).games()
    assert len(rows) == 2
    for row in rows:
        for name, _, _ in row.seats:
            assert_server_page(client.get("/", params={"player": name}).text)
        viewer = client.get(f"/games/{row.id}").text
        assert "<script>window" not in viewer and page_data(viewer)["source"] == Store(data).game_text(row.id)


def test_every_response_forbids_framing_and_sniffing(client):
    for path in ("/", "/login", "/games/1", "/nowhere"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"


def test_the_server_writes_only_inside_its_data_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data"
    Store(data).set_key(KEY)
    client = TestClient(create_app(data))
    log_in(client)
    send(client, REPLAY.read_text(encoding="utf-8") + "\n" + BROKEN)
    client.get("/games/1")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    assert {p.name for p in data.iterdir()} <= {DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm"}


# the command


def test_serve_without_the_extra_says_how_to_install_it(monkeypatch):
    import wnotation.server

    monkeypatch.setattr(wnotation.server, "starlette_available", lambda: False)
    assert "pip install 'wnotation[server]'" in run("serve", code=2).stderr


def test_a_first_start_refuses_a_short_key(tmp_path, monkeypatch):
    monkeypatch.setenv("WNOTATION_CLUB_KEY", "short")
    result = run("serve", "--data", str(tmp_path / "d"), code=2)
    assert "at least 8 characters" in result.stderr and not Store(tmp_path / "d").has_key()


def test_a_first_start_without_a_terminal_makes_up_the_key(monkeypatch):
    from wnotation.cli.serve import _first_key

    monkeypatch.delenv("WNOTATION_CLUB_KEY", raising=False)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    key, show = _first_key()
    assert show and len(key) >= 8 and _first_key()[0] != key


def test_wnotation_serve_runs_as_a_process_on_127_0_0_1(tmp_path):
    port = free_port()
    process = serve_process(tmp_path / "d", port, cwd=tmp_path)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith(f"wnotation serve: http://127.0.0.1:{port}/"), line + (process.stderr.read()
                                                                                   if process.stderr else "")
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    body = answer.read().decode("utf-8")
                    assert answer.status == 200
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert "The club’s games" in body and "0 games" in body
        assert Store(tmp_path / "d").check_key(KEY)
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert process.returncode in (0, -15)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d"]


def test_the_whole_archive_downloads_as_one_7wn_file_that_reads_back(client, data):
    log_in(client)
    send(client, REPLAY.read_text(encoding="utf-8") + "\n" + ILLEGAL.read_text(encoding="utf-8"))
    got = client.get("/games.7wn")
    assert got.headers["content-disposition"] == 'attachment; filename="club-games.7wn"'
    games = list(wnotation.read_games(got.text))
    assert all(isinstance(g, Record) for g in games)
    assert [wnotation.write(g) for g in games if isinstance(g, Record)] == list(Store(data).texts())
    assert len(games) == 2 and 'href="/games.7wn"' in client.get("/").text


def test_a_wrong_key_is_answered_slowly(client):
    from wnotation.server.app import WRONG_KEY_DELAY

    started = time.monotonic()
    assert log_in(client, "a wrong guess").status_code == 403
    assert time.monotonic() - started >= WRONG_KEY_DELAY


def test_new_key_replaces_the_key_and_a_port_in_use_is_one_line(tmp_path, monkeypatch):
    Store(tmp_path / "d").set_key("the old key")
    monkeypatch.setenv("WNOTATION_CLUB_KEY", "the new key")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run("serve", "--data", str(tmp_path / "d"), "--port", str(port), "--new-key", code=2)
    assert result.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}") and result.stderr.count("\n") == 1
    store = Store(tmp_path / "d")
    assert store.check_key("the new key") and not store.check_key("the old key")


# recording at the table over HTTP (the recorder's own session)


def _new_game(client: TestClient, target: Record) -> int:
    csrf = CSRF_RE.search(client.get("/record").text)
    assert csrf is not None
    fields = {"csrf": csrf.group(1), "date": target.date or "", "event": target.tag("Event") or ""}
    for k, seat in enumerate(target.seats, 1):
        fields.update({f"name{k}": seat.name, f"wonder{k}": seat.wonder, f"side{k}": seat.side})
    started = client.post("/record", data=fields, follow_redirects=False)
    assert started.status_code == 303, started.text
    return int(started.headers["location"].rsplit("/", 1)[1])


def _answer(client: TestClient, rid: int, typed: str) -> None:
    page = client.get(f"/record/{rid}").text
    csrf = CSRF_RE.search(page)
    assert csrf is not None, page
    done = client.post(f"/record/{rid}", data={"csrf": csrf.group(1), "answer": typed}, follow_redirects=False)
    assert done.status_code == 303, done.text


def test_a_whole_3_player_game_recorded_over_http_with_a_restart_mid_game(data):
    from test_recorder_session import THREE, bot_game, expected_text, script

    target = bot_game(*THREE)
    answers = script(target)
    dated = target.model_copy(update={"date": "2026.10.03"})
    client = TestClient(create_app(data))
    log_in(client)
    rid = _new_game(client, dated)
    half = len(answers) // 2
    for typed in answers[:half]:
        _answer(client, rid, typed)
    cookies = dict(client.cookies)
    client = TestClient(create_app(data), cookies=cookies)  # a restarted server: the session is the answers' replay
    page = client.get(f"/record/{rid}").text
    assert "The record so far" in page
    assert_server_page(page)
    for typed in answers[half:]:
        _answer(client, rid, typed)
    finished = client.get(f"/record/{rid}").text
    assert "The game is recorded" in finished
    (row,) = Store(data).games()
    assert Store(data).game_text(row.id) == expected_text(dated)
    assert client.get("/record").text.count("/record/") == 0  # no longer listed as being recorded


def test_R_DECK__an_illegal_play_needs_an_explicit_yes_over_http_too(data):
    """The recorder's own sequence (test_recorder_session's R-DECK test) through the pages: Ada's second Loom is
    shown with its rule IDs and waits for a yes; undo and redo are answers too, and every answer is kept."""
    client = TestClient(create_app(data))
    log_in(client)
    target = Record(date="2026.11.29", seats=(Seat(name="Ada", wonder="Babylon", side="night"),
                                              Seat(name="Bob", wonder="Ephesos", side="day"),
                                              Seat(name="Cyd", wonder="Halikarnassos", side="night")))
    rid = _new_game(client, target)
    for typed in ("lo", "clay po", "al", "lo"):
        _answer(client, rid, typed)
    page = client.get(f"/record/{rid}").text
    assert "I.2 error[R-DECK]" in page and "I.2 error[R-UNIQUE]" in page
    assert "I.2 record Loom for Ada with 2 errors (R-DECK, R-UNIQUE)? [y/N]" in page
    _answer(client, rid, "n")
    assert "not recorded: Loom for Ada; enter the action again" in client.get(f"/record/{rid}").text
    for typed in ("al", "y", "lu ya", "gla"):
        _answer(client, rid, typed)
    page = client.get(f"/record/{rid}").text
    assert "I.2 Altar | Lumber Yard | Glassworks" in page and "Errors recorded" in page
    _answer(client, rid, "undo")
    assert "I.2 Altar | Lumber Yard | Glassworks" not in client.get(f"/record/{rid}").text
    _answer(client, rid, "redo")
    assert "I.2 Altar | Lumber Yard | Glassworks" in client.get(f"/record/{rid}").text
    kept = Store(data).recording(rid)
    assert kept is not None and kept[1] == ["lo", "clay po", "al", "lo", "n", "al", "y", "lu ya", "gla", "undo",
                                            "redo"]


def test_recording_needs_the_club_key_and_a_bad_roster_is_explained(client, data):
    assert client.post("/record", data={"name1": "Ann"}).status_code == 403
    log_in(client)
    csrf = CSRF_RE.search(client.get("/record").text)
    assert csrf is not None
    bad = client.post("/record", data={"csrf": csrf.group(1), "name1": "Ann", "wonder1": "Atlantis"})
    assert bad.status_code == 422 and "Atlantis" in bad.text and Store(data).recordings() == []


def test_a_hostile_seat_name_stays_text_on_the_recording_pages(client):
    log_in(client)
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    target = Record(date="2026.11.29", seats=(Seat(name=evil, wonder="Babylon", side="night"),
                                              Seat(name="Bob", wonder="Ephesos", side="day"),
                                              Seat(name="Cyd", wonder="Halikarnassos", side="night")))
    rid = _new_game(client, target)
    _answer(client, rid, "lo")
    for page in (client.get(f"/record/{rid}").text, client.get("/record").text):
        assert_server_page(page)
        assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_game_being_recorded_reloads_for_those_who_watch_it_only(data):
    recorder = TestClient(create_app(data))
    log_in(recorder)
    target = Record(date="2026.11.29", seats=(Seat(name="Ada", wonder="Babylon", side="night"),
                                              Seat(name="Bob", wonder="Ephesos", side="day"),
                                              Seat(name="Cyd", wonder="Halikarnassos", side="night")))
    rid = _new_game(recorder, target)
    _answer(recorder, rid, "lo")
    watcher = TestClient(create_app(data))
    watched = watcher.get(f"/record/{rid}").text
    assert '<meta http-equiv="refresh" content="5">' in watched and "Next: I.1 Bob (Ephesos day)" in watched
    assert 'name="answer"' not in watched  # watching is public, answering is not
    assert "http-equiv=\"refresh\"" not in recorder.get(f"/record/{rid}").text  # a reload would lose the typing
