"""Issue 36 item 5, the club server as people use it: a real headless Chromium at phone size (390x844) logs in and
records a whole 3-player game through the pages while a desktop browser watches it live (pushed, never reloaded)
across a restart of the server process on the same data folder; two games recorded at once from two phones; a
score pad filled in with its buttons; an upload holding a broken game. Every page is checked for horizontal
overflow and small tap targets, no console error (a CSP violation is one) and no request leaving the server.
Screenshots at phone and desktop size go to tests/artifacts/ (git-ignored).

Marked ``browser`` (skipped without Chromium or Playwright, failed under CI=true), as tests/test_viewer_browser.py,
whose browser fixture this reuses; the server is ``wnotation serve`` itself, a process on a free 127.0.0.1 port.
"""

from __future__ import annotations

import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI") != "true":
    for _module in ("starlette", "uvicorn", "python_multipart", "httpx"):
        pytest.importorskip(_module)

from helpers.server import KEY, free_port, serve_process  # noqa: E402
from test_server_live import PAD_ANSWERS, PAD_TEXT  # noqa: E402
from test_viewer_browser import artifacts, launch  # noqa: E402

from wnotation.server.store import Store  # noqa: E402

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
GOOD = ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn"
BROKEN = '[Format "7WN 1"]\n[Edition "2e"]\n[Seat1 "Ann" "Gizah" "day"]\nI.1 Stockade |\n'
#: What a page must not do on a phone: scroll sideways, or offer a button smaller than a fingertip (CSS px).
LAYOUT = """() => ({
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  small: [...document.querySelectorAll('button, input:not([type=hidden], [type=checkbox], [type=radio]), select, '
    + 'label:has(> input[type=checkbox]), label:has(> input[type=radio])')]
    .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && r.height < 32).map(([h]) => h),
})"""


class Serve:
    """``wnotation serve`` as a process on ``data`` (the same port again after a restart)."""

    def __init__(self, data: Path, port: int | None = None) -> None:
        self.data, self.port = data, port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = serve_process(data, self.port)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.startswith("wnotation serve:"), line
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=5):
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    running = Serve(tmp_path / "data")
    try:
        yield running
    finally:
        running.stop()


class Phone:
    """A browser context (a phone unless told) with its console errors and every request it makes."""

    def __init__(self, browser: Any, base: str, **context: Any) -> None:
        self.base = base
        self.context = browser.new_context(**(context or PHONE))
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"{m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def go(self, path: str) -> None:
        self.page.goto(self.base + path)

    def log_in(self) -> None:
        self.go("/login")
        self.page.fill("input[name=key]", KEY)
        with self.page.expect_navigation():
            self.page.click("button:text('Log in')")
        assert self.page.url.endswith("/upload")

    def start(self, seats: list[tuple[str, str, str]], *, pad: bool = False, event: str = "", date: str = "") -> int:
        self.go("/record")
        for k, (name, wonder, side) in enumerate(seats, 1):
            self.page.fill(f"input[name=name{k}]", name)
            self.page.fill(f"input[name=wonder{k}]", wonder)
            self.page.select_option(f"select[name=side{k}]", side)
        if pad:
            self.page.check("input[name=kind][value=pad]")
        self.page.fill("input[name=event]", event)
        self.page.fill("input[name=date]", date)
        with self.page.expect_navigation():
            self.page.click("button:text('Start recording')")
        return int(self.page.url.rsplit("/", 1)[1])

    def type_answer(self, typed: str) -> None:
        """An answer typed in the field and sent with the Enter button, as a thumb does."""
        self.page.fill("form.answer input[name=answer]", typed)
        with self.page.expect_navigation():
            self.page.click("form.answer button[type=submit]")

    def tap(self, label: str) -> None:
        with self.page.expect_navigation():
            self.page.click(f"div.buttons button:text-is('{label}')")

    def shot(self, name: str) -> Path:
        path = artifacts() / f"server-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def check_layout(self, what: str) -> None:
        found = self.page.evaluate(LAYOUT)
        assert found["overflow"] <= 0, f"{what} scrolls sideways by {found['overflow']} px"
        assert not found["small"], f"{what}: tap targets under 32 px high: {found['small']}"

    def assert_quiet(self) -> None:
        assert not self.errors, self.errors
        assert all(url.startswith(self.base + "/") for url in self.requests), self.requests

    def close(self) -> None:
        self.context.close()


def test_a_whole_game_recorded_on_a_phone_watched_live_across_a_server_restart(browser, serve):
    from test_recorder_session import THREE, bot_game, expected_text, script

    target = bot_game(*THREE).model_copy(update={"date": None})
    answers = script(bot_game(*THREE))
    seats = [(s.name, s.wonder, s.side) for s in target.seats]
    phone = Phone(browser, serve.url)
    phone.log_in()
    phone.check_layout("the login's next page")
    phone.go("/record")
    phone.check_layout("the new game form")
    phone.shot("phone-new-game")
    rid = phone.start(seats, event="Club night")
    watcher = Phone(browser, serve.url, **DESKTOP)
    watcher.go(f"/record/{rid}")
    watcher.page.evaluate("window.sameDocument = true")
    watcher.page.wait_for_function("() => document.getElementById('live-status').textContent.startsWith('Live')")
    half = len(answers) // 2
    for typed in answers[:half]:
        phone.type_answer(typed)
    phone.check_layout("the recording page")
    phone.shot("phone-recording")
    last = Store(serve.data).recording(rid)
    assert last is not None and last[1] == answers[:half]
    watcher.page.wait_for_function("() => document.querySelector('#live pre:last-of-type') !== null")
    record_so_far = watcher.page.locator("#live pre").last.text_content() or ""
    assert "I.6" in record_so_far or "II." in record_so_far, record_so_far
    watcher.shot("desktop-watching")

    serve.stop()  # a restart mid-game: a new process on the same data folder and port
    watcher.page.wait_for_function("() => document.getElementById('live-status').textContent === 'Reconnecting…'")
    restarted = Serve(serve.data, serve.port)
    serve.process = restarted.process
    phone.go(f"/record/{rid}")  # the phone reloads: the recording goes on where it stopped
    assert "The record so far" in phone.page.content()
    for typed in answers[half:]:
        phone.type_answer(typed)
    assert "The game is recorded" in phone.page.content()
    phone.check_layout("the recorded game")
    phone.shot("phone-recorded")
    watcher.page.wait_for_function("() => document.getElementById('live-status').textContent === 'The game is recorded.'")
    assert watcher.page.evaluate("window.sameDocument === true"), "the watch page reloaded instead of being pushed"
    assert "The game is recorded" in (watcher.page.locator("#live").text_content() or "")
    assert watcher.page.locator("#live-login").count() == 0  # nothing left to answer
    watcher.shot("desktop-recorded")
    (row,) = Store(serve.data).games()
    kept = Store(serve.data).game_text(row.id)
    assert kept is not None and kept.split("\n\n", 1)[1] == expected_text(target).split("\n\n", 1)[1]
    phone.go(f"/games/{row.id}")
    phone.shot("phone-game-page")
    phone.assert_quiet()
    watcher.assert_quiet()
    phone.close()
    watcher.close()


def test_two_games_recorded_at_once_from_two_phones(browser, serve):
    from test_recorder_session import THREE, bot_game, script

    answers = script(bot_game(*THREE))[:8]
    seats = [(s.name, s.wonder, s.side) for s in bot_game(*THREE).seats]
    one, two = Phone(browser, serve.url), Phone(browser, serve.url)
    one.log_in()
    two.log_in()
    first = one.start(seats, event="Table one")
    second = two.start(seats, event="Table two")
    for typed in answers:
        one.type_answer(typed)
        two.type_answer(typed)
    store = Store(serve.data)
    assert first != second
    for rid in (first, second):
        kept = store.recording(rid)
        assert kept is not None and kept[1] == answers
    one.go("/record")
    listed = one.page.content()
    assert f'href="/record/{first}"' in listed and f'href="/record/{second}"' in listed
    assert "(Table one, 8 answers)" in listed and "(Table two, 8 answers)" in listed  # told apart by their event
    one.check_layout("the list of recordings")
    one.shot("phone-two-recordings")
    one.assert_quiet()
    two.assert_quiet()
    one.close()
    two.close()


def test_a_score_pad_filled_in_on_a_phone_with_its_buttons(browser, serve):
    phone = Phone(browser, serve.url)
    phone.log_in()
    phone.start([("Ada", "Babylon", "night"), ("Bob", "Ephesos", "day"), ("Cyd", "Gizah", "day")], pad=True,
                date="2026.11.30")
    buttons = {"n": "No", "undo": "Undo"}
    for k, typed in enumerate(PAD_ANSWERS[:-1]):
        if typed in buttons:
            phone.tap(buttons[typed])
        elif typed == "":  # the default, offered as a button (the treasury from the coins, the total)
            with phone.page.expect_navigation():
                phone.page.click("div.buttons button:text-matches('^Take ')")
        else:
            phone.type_answer(typed)
        if k == 8:  # Cyd's treasury 2: the finding, and a yes or no to tap
            assert "error[R-SCORE]" in phone.page.content()
            phone.check_layout("a pad answer waiting for its yes")
            phone.shot("phone-pad-confirm")
    phone.check_layout("the filled-in pad")
    phone.shot("phone-pad-filled")
    phone.tap("Store the score pad")
    assert "The game is recorded" in phone.page.content()
    (row,) = Store(serve.data).games()
    assert Store(serve.data).game_text(row.id) == PAD_TEXT
    phone.assert_quiet()
    phone.close()


def test_an_upload_with_a_broken_game_keeps_the_others_and_shows_the_error(browser, serve, tmp_path):
    upload = tmp_path / "evening.7wn"
    upload.write_text(GOOD.read_text(encoding="utf-8") + "\n" + BROKEN, encoding="utf-8")
    phone = Phone(browser, serve.url)
    phone.log_in()
    phone.check_layout("the upload form")
    phone.page.set_input_files("input[name=file]", str(upload))
    with phone.page.expect_navigation():
        phone.page.click("button:text('Upload')")
    shown = phone.page.content()
    assert "1 of 2 games kept" in shown and "not kept: its text cannot be read" in shown
    assert "error[" in shown
    phone.check_layout("the upload report")
    phone.shot("phone-upload-report")
    assert len(Store(serve.data).games()) == 1
    desktop = Phone(browser, serve.url, **DESKTOP)
    desktop.go("/")
    desktop.shot("desktop-games")
    phone.go("/")
    phone.check_layout("the game list")
    phone.shot("phone-games")
    phone.assert_quiet()
    phone.close()
    desktop.close()


def test_the_watch_page_falls_back_to_reloading_without_scripts_or_a_stream(browser, serve):
    """Without JavaScript the <noscript> refresh reloads the page; with it but the stream refused (as when every
    stream is in use: 503) the script says so and reloads. Both within the 5 s of WATCH_REFRESH and a margin."""
    from wnotation.server.app import WATCH_REFRESH

    phone = Phone(browser, serve.url)
    phone.log_in()
    rid = phone.start([("Ada", "Babylon", "night"), ("Bob", "Ephesos", "day"), ("Cyd", "Gizah", "day")])
    plain = Phone(browser, serve.url, java_script_enabled=False, **DESKTOP)
    refused = Phone(browser, serve.url, **DESKTOP)
    refused.context.route("**/events*", lambda route: route.fulfill(status=503, body="every stream is in use"))
    for watcher in (plain, refused):
        watcher.go(f"/record/{rid}")
    refused.page.wait_for_function(
        "() => document.getElementById('live-status').textContent.startsWith('Live updates are unavailable')")
    page = f"{serve.url}/record/{rid}"
    deadline = time.monotonic() + WATCH_REFRESH + 5
    while time.monotonic() < deadline and not all(w.requests.count(page) >= 2 for w in (plain, refused)):
        phone.page.wait_for_timeout(200)  # Playwright delivers the requests seen only while it is called
    assert plain.requests.count(page) >= 2, "no reload without JavaScript"
    assert refused.requests.count(page) >= 2, "no reload with the stream refused"
    assert not any("/events" in url for url in plain.requests)
    plain.assert_quiet()
    for watcher in (phone, plain, refused):
        watcher.close()
