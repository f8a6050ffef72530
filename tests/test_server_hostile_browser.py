"""Issue 36 item 4 in a real browser: the hostile corpus of the viewer's tests (tests/hostile/: script, image,
SVG, CSS, meta-refresh, base-URL and attribute payloads in tags, seat names and comments) stored in a club and
every page that shows it opened in headless Chromium: the list, the filtered list, the players, each hostile
player's page, each game in the viewer, its download, the stats pages, and the upload report of the corpus sent
through the upload form. No payload runs (``window.__pwned`` stays unset, no dialog opens), the page requests
nothing from elsewhere (the payloads aim at 127.0.0.1:9) and logs no console error (a CSP violation is one), and
the hostile names are shown as the text they are. Marked ``browser`` as tests/test_server_browser.py, whose
server process and browser contexts this reuses."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import pytest

if os.environ.get("CI") != "true":
    for _module in ("starlette", "uvicorn", "python_multipart", "httpx", "duckdb"):
        pytest.importorskip(_module)

from test_server_browser import DESKTOP, Phone, Serve, browser  # noqa: E402, F401  (browser: the fixture)

from wnotation.server.store import Store  # noqa: E402
from wnotation.server.upload import check_upload  # noqa: E402

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
CORPUS = ("hostile-game.7wn", "hostile-illegal.7wn", "hostile-unreadable.7wn")


def _assert_nothing_ran(phone: Phone, dialogs: list[str], where: str) -> None:
    assert phone.page.evaluate("() => window.__pwned === undefined && parent.__pwned === undefined"), where
    assert dialogs == [], (where, dialogs)


def test_the_hostile_corpus_stays_text_in_every_server_page_in_chromium(browser, tmp_path):  # noqa: F811
    store = Store(tmp_path / "data")
    names: set[str] = set()
    for name in CORPUS[:2]:
        for game in check_upload((HOSTILE / name).read_text(encoding="utf-8"), name).games:
            if game.game is not None:
                store.add_game(game.game)
    ids = [row.id for row in store.games(None)]
    names = {seat[0] for row in store.games(None) for seat in row.seats}
    assert ids and any("<script>" in n for n in names) and any("<img" in n for n in names)
    serve = Serve(tmp_path / "data")
    try:
        for context in ({}, DESKTOP):
            phone = Phone(browser, serve.url, **context)
            dialogs: list[str] = []
            phone.page.on("dialog", lambda d, seen=dialogs: (seen.append(d.message), d.dismiss()))
            paths = ["/", "/browse", "/browse?player=" + quote(min(names), safe=""), "/players", "/stats",
                     "/stats/wonders", *(f"/player?name={quote(n, safe='')}" for n in sorted(names)),
                     *(f"/games/{i}" for i in ids)]
            for path in paths:
                phone.go(path)
                phone.page.wait_for_load_state("load")
                _assert_nothing_ran(phone, dialogs, path)
            phone.go("/players")
            shown = phone.page.inner_text("body")
            assert all(n.strip()[:12] in shown for n in names if "<" in n), "a hostile name is not shown as text"
            phone.log_in()  # lands on the upload form: send the whole corpus, the unreadable game included
            hostile = "\n".join((HOSTILE / n).read_text(encoding="utf-8") for n in CORPUS)
            phone.page.fill("textarea", hostile)
            with phone.page.expect_navigation():
                phone.page.click("form[action='/upload'] button[type=submit]")
            _assert_nothing_ran(phone, dialogs, "the upload report")
            assert "<script>" in phone.page.inner_text("body")  # the report names the games by their text
            phone.shot(f"hostile-upload-{'desktop' if context else 'phone'}")
            phone.assert_quiet()
            phone.close()
    finally:
        serve.stop()
