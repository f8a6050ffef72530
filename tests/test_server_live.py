"""Issue 36, watching a game live and score pads over HTTP: the server-sent event stream of a recording (pushed on
each answer, heartbeat, bounded, ended with the recording and by the server's shutdown), the watch page's one
script, a score pad filled in through the pages (R-SCORE's check on an answer, undo, a restart mid-pad).

A real uvicorn server runs in a thread on a free 127.0.0.1 port (the Starlette TestClient does not stream), made
as ``wnotation serve`` makes it; one test runs the command itself and stops it with SIGINT."""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    for _module in ("starlette", "uvicorn", "python_multipart", "httpx"):
        pytest.importorskip(_module)

import httpx  # noqa: E402

from helpers.server import CSRF_RE, free_port, keyed_folder, log_in, serve_process  # noqa: E402

from wnotation.cli.serve import SHUTDOWN_GRACE, club_server  # noqa: E402
from wnotation.server import live as live_module  # noqa: E402
from wnotation.server.app import _WATCH_SCRIPT  # noqa: E402
from wnotation.server.store import DB_NAME, Store  # noqa: E402
from wnotation.viewer.html import csp_hash  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEATS = [("Ada", "Babylon", "night"), ("Bob", "Ephesos", "day"), ("Cyd", "Gizah", "day")]

#: docs/howto/scorepad.md's session, typed into the pages: Cyd's treasury 2 refused (R-SCORE) and re-entered,
#: civilian 52 undone, "none" refused, science as symbols; the last empty answer stores the pad.
PAD_ANSWERS = ["10", "15", "4", "9", "2", "-2", "", "", "2", "n", "", "6", "12", "15", "12", "20", "52", "undo",
               "25", "4", "none", "0", "3", "7", "5", "0", "3 2 1", "10", "4", "", "", "", ""]
PAD_TEXT = """[Format "7WN 1"]
[Edition "2e"]
[Date "2026.11.30"]
[Seat1 "Ada" "Babylon" "night"]
[Seat2 "Bob" "Ephesos" "day"]
[Seat3 "Cyd" "Gizah" "day"]

result Ada: military 9 treasury 3 wonder 6 civilian 12 commercial 4 guilds 7 science 21 total 62 coins 10 rank 1 tablets 3 compasses 2 gears 1
result Bob: military 2 treasury 5 wonder 12 civilian 20 commercial 0 guilds 5 science 10 total 54 coins 15 rank 2
result Cyd: military -2 treasury 1 wonder 15 civilian 25 commercial 3 guilds 0 science 4 total 46 coins 4 rank 3
"""


class Running:
    """``wnotation serve``'s server on ``data`` in a thread; :meth:`stop` is what Ctrl-C does."""

    def __init__(self, data: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = club_server(str(data), host="127.0.0.1", port=self.port)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> float:
        """Stop the server as a signal would: the seconds its shutdown took."""
        started = time.monotonic()
        self.server.should_exit = True
        self.thread.join(timeout=SHUTDOWN_GRACE + 10)
        assert not self.thread.is_alive(), "the server did not stop"
        return time.monotonic() - started


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return keyed_folder(tmp_path)


@pytest.fixture
def server(data: Path) -> Iterator[Running]:
    running = Running(data)
    try:
        yield running
    finally:
        if running.thread.is_alive():
            running.stop()


def logged_in(url: str) -> tuple[httpx.Client, str]:
    """A client with an open session, and the session's CSRF token."""
    client = httpx.Client(base_url=url, timeout=20)
    log_in(client)
    found = CSRF_RE.search(client.get("/upload").text)
    assert found is not None, "not logged in"
    return client, found.group(1)


def new_recording(client: httpx.Client, csrf: str, kind: str = "turns", **extra: Any) -> httpx.Response:
    fields: dict[str, Any] = {"csrf": csrf, "date": "2026.11.30", "kind": kind, **extra}
    for k, (name, wonder, side) in enumerate(SEATS, 1):
        fields.update({f"name{k}": name, f"wonder{k}": wonder, f"side{k}": side})
    return client.post("/record", data=fields)


def start(client: httpx.Client, csrf: str, kind: str = "turns") -> int:
    started = new_recording(client, csrf, kind)
    assert started.status_code == 303, started.text
    return int(started.headers["location"].rsplit("/", 1)[1])


def answer(client: httpx.Client, csrf: str, rid: int, typed: str) -> None:
    done = client.post(f"/record/{rid}", data={"csrf": csrf, "answer": typed})
    assert done.status_code == 303, done.text


class Stream:
    """An event stream read in a thread: each event as ``(event, id, data)``, comments as ``(":", None, text)``."""

    def __init__(self, url: str, path: str, headers: dict[str, str] | None = None) -> None:
        self.events: queue.Queue[tuple[str, str | None, str]] = queue.Queue()
        self.status: int | None = None
        self.ended = threading.Event()
        self._opened = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(url + path, headers or {}), daemon=True)
        self.thread.start()
        assert self._opened.wait(10), "the stream did not open"

    def _read(self, url: str, headers: dict[str, str]) -> None:
        try:
            with httpx.stream("GET", url, headers=headers, timeout=httpx.Timeout(30, read=30)) as response:
                self.status = response.status_code
                self.type = response.headers.get("content-type", "")
                self._opened.set()
                event, event_id, data = "message", None, []
                for line in response.iter_lines():
                    if line.startswith(":"):
                        self.events.put((":", None, line[1:].strip()))
                    elif line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("id: "):
                        event_id = line[4:]
                    elif line.startswith("data: "):
                        data.append(line[6:])
                    elif line == "" and (data or event_id is not None):
                        self.events.put((event, event_id, "\n".join(data)))
                        event, event_id, data = "message", None, []
        except httpx.HTTPError:
            pass
        finally:
            self._opened.set()
            self.ended.set()

    def next(self, kind: str | None = None, timeout: float = 10) -> tuple[str, str | None, str]:
        """The next event (of ``kind`` if given; others are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            got = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            if kind is None or got[0] == kind:
                return got


def test_a_watcher_is_pushed_every_answer_and_the_stream_ends_with_the_stored_pad(server, data):
    client, csrf = logged_in(server.url)
    rid = start(client, csrf, "pad")
    watching = Stream(server.url, f"/record/{rid}/events?since=0")
    assert watching.status == 200 and watching.type.startswith("text/event-stream")
    seen = []
    for k, typed in enumerate(PAD_ANSWERS[:-1], 1):
        answer(client, csrf, rid, typed)
        _, event_id, fragment = watching.next("message")
        seen.append(event_id)
        if k == 9:  # Cyd's treasury 2, waiting for a yes: the watchers see the finding too
            assert "error[R-SCORE]: Cyd&#x27;s treasury is 1 for 4 coins" in fragment
    assert seen == [str(k) for k in range(1, len(PAD_ANSWERS))], "one event per answer, in order"
    assert "Every row is in" in fragment and "<td>62</td>" in fragment
    answer(client, csrf, rid, PAD_ANSWERS[-1])
    _, _, fragment = watching.next("message")
    event, _, address = watching.next("done")
    (row,) = Store(data).games()
    assert address == f"/games/{row.id}" and f'href="/games/{row.id}"' in fragment
    assert watching.ended.wait(5), "the stream ends once the recording is stored"
    assert Store(data).game_text(row.id) == PAD_TEXT


def test_a_stream_sends_the_state_at_once_to_a_page_behind_and_a_heartbeat_when_idle(server, monkeypatch):
    monkeypatch.setattr(live_module, "HEARTBEAT", 0.2)
    client, csrf = logged_in(server.url)
    rid = start(client, csrf)
    for typed in ("lo", "clay po"):
        answer(client, csrf, rid, typed)
    behind = Stream(server.url, f"/record/{rid}/events", {"last-event-id": "1"})
    _, event_id, fragment = behind.next("message")
    assert event_id == "2" and "Next: I.1 Cyd (Gizah day)" in fragment
    current = Stream(server.url, f"/record/{rid}/events?since=2")
    assert current.next()[0] == ":"  # nothing new to send: a heartbeat comes first
    answer(client, csrf, rid, "al")
    assert current.next("message")[1] == "3"


def test_the_number_of_streams_is_bounded(server, monkeypatch):
    monkeypatch.setattr(live_module, "MAX_STREAMS", 2)
    client, csrf = logged_in(server.url)
    rid = start(client, csrf)
    first, second = (Stream(server.url, f"/record/{rid}/events") for _ in range(2))
    assert first.status == second.status == 200
    refused = httpx.get(f"{server.url}/record/{rid}/events", timeout=10)
    assert refused.status_code == 503 and refused.headers["retry-after"] == "30"
    assert httpx.get(f"{server.url}/record/999/events", timeout=10).status_code == 404


def test_a_watcher_gone_frees_its_stream_at_once(server, monkeypatch):
    """A phone that leaves the page closes its connection: the stream ends and its place is free again."""
    monkeypatch.setattr(live_module, "MAX_STREAMS", 1)
    client, csrf = logged_in(server.url)
    rid = start(client, csrf)
    request = f"GET /record/{rid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode("ascii")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as leaving:
        leaving.sendall(request)
        assert leaving.recv(4096).startswith(b"HTTP/1.1 200")
    deadline = time.monotonic() + 5
    while True:  # the next watcher gets the one place, once the server has seen the first leave
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as next_one:
            next_one.sendall(request)
            status = next_one.recv(4096).split(b"\r\n", 1)[0]
        if status == b"HTTP/1.1 200 OK" or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert status == b"HTTP/1.1 200 OK", status


def test_shutdown_with_open_streams_ends_them_at_once(server):
    client, csrf = logged_in(server.url)
    rid = start(client, csrf)
    streams = [Stream(server.url, f"/record/{rid}/events") for _ in range(3)]
    assert all(s.next("message") for s in streams)
    took = server.stop()
    assert took < SHUTDOWN_GRACE, f"the shutdown waited {took:.1f} s: the streams held it"
    assert all(s.ended.wait(5) for s in streams)


def test_wnotation_serve_stops_on_ctrl_c_while_watchers_are_connected(tmp_path):
    port = free_port()
    process = serve_process(tmp_path / "d", port, cwd=tmp_path)
    try:
        assert process.stdout is not None and process.stdout.readline().startswith("wnotation serve:")
        url = f"http://127.0.0.1:{port}"
        client, csrf = logged_in(url)
        rid = start(client, csrf)
        streams = [Stream(url, f"/record/{rid}/events") for _ in range(2)]
        assert all(s.next("message") for s in streams)
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=SHUTDOWN_GRACE + 10)
        took = time.monotonic() - started
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
    assert process.returncode in (0, 130) and took < SHUTDOWN_GRACE, (process.returncode, took)  # 130: Ctrl-C


def test_a_score_pad_resumes_after_a_restart_where_it_stopped(data):
    first = Running(data)
    client, csrf = logged_in(first.url)
    rid = start(client, csrf, "pad")
    for typed in PAD_ANSWERS[:10]:  # stopped while Cyd's treasury 2 waits for its yes
        answer(client, csrf, rid, typed)
    first.stop()
    second = Running(data, first.port)
    try:
        client = httpx.Client(base_url=second.url, cookies=client.cookies, timeout=20)
        page = client.get(f"/record/{rid}").text
        assert "treasury Cyd [1]" in page and "not recorded: treasury 2 for Cyd" in page
        assert "(score pad, 10 answers)" in client.get("/record").text
        for typed in PAD_ANSWERS[10:]:
            answer(client, csrf, rid, typed)
        (row,) = Store(data).games()
        assert Store(data).game_text(row.id) == PAD_TEXT
    finally:
        second.stop()


def test_R_SCORE__a_pad_answer_with_an_error_waits_for_yes_and_turn_by_turn_refuses_expansions(server):
    client, csrf = logged_in(server.url)
    refused = new_recording(client, csrf, "turns", expansion=["Cities"])
    assert refused.status_code == 422 and "score pad" in refused.text
    unknown = new_recording(client, csrf, "pad", expansion=["Atlantis"])
    assert unknown.status_code == 422 and "no such expansion: Atlantis" in unknown.text
    made = new_recording(client, csrf, "pad", expansion=["Leaders", "Cities"])
    rid = int(made.headers["location"].rsplit("/", 1)[1])
    for typed in ("", "", "", "19"):  # no coins counted; military 19 is more than three Ages give
        answer(client, csrf, rid, typed)
    page = client.get(f"/record/{rid}").text
    assert "error[R-MILITARY]" in page and "record military 19 for Ada with 1 error (R-MILITARY)? [y/N]" in page
    assert 'value="y"' in page and "Yes, record it" in page
    assert "<th scope=\"row\">cities</th>" in page and "<th scope=\"row\">leaders</th>" in page


def test_the_watch_page_holds_one_script_its_policy_allows_and_reloads_without_it(server):
    client, csrf = logged_in(server.url)
    rid = start(client, csrf)
    recorder = client.get(f"/record/{rid}").text
    assert "<script" not in recorder and "refresh" not in recorder  # the phone answering is never reloaded
    watched = httpx.get(f"{server.url}/record/{rid}", timeout=10).text
    scripts = re.findall(r"<script>(.*?)</script>", watched, re.S)
    assert scripts == [_WATCH_SCRIPT]
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', watched)
    assert policy is not None
    shown = policy.group(1).replace("&#x27;", "'")
    assert f"script-src {csp_hash(_WATCH_SCRIPT)};" in shown and "connect-src 'self';" in shown
    assert "default-src 'none'" in shown
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in watched
    assert f'data-events="/record/{rid}/events?since=0"' in watched


def test_a_database_made_before_score_pads_keeps_its_recordings_turn_by_turn(tmp_path):
    folder = tmp_path / "old"
    folder.mkdir()
    with sqlite3.connect(folder / DB_NAME) as db:
        db.execute("CREATE TABLE recordings (id INTEGER PRIMARY KEY, header TEXT NOT NULL, answers TEXT NOT NULL,"
                   " game INTEGER, created TEXT NOT NULL)")
        db.execute("INSERT INTO recordings (header, answers, created) VALUES ('h', '[]', 'then')")
    db.close()
    store = Store(folder)
    assert store.recording_kind(1) == "turns" and store.recording_kind(2) is None
    assert store.recording_kind(store.add_recording("h", "pad")) == "pad"
