"""Issue 36 item 3 in a real browser: the browsing pages (the filtered list, the players, a player's page, the stats
pages with their charts) at phone size (390x844) neither scroll sideways nor offer tap targets under a fingertip,
log no console error (a CSP violation is one) and request nothing from elsewhere; screenshots at phone and
desktop size go to tests/artifacts/. Marked ``browser`` as tests/test_server_browser.py, whose server process and
browser contexts this reuses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

if os.environ.get("CI") != "true":
    for _module in ("starlette", "uvicorn", "python_multipart", "httpx", "duckdb"):
        pytest.importorskip(_module)

from test_server_browser import DESKTOP, Phone, Serve, browser  # noqa: E402, F401  (browser: the fixture)

from wnotation.server.store import Store  # noqa: E402
from wnotation.server.upload import check_upload  # noqa: E402

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parent.parent
PAGES = {"find": "/browse", "find-player": "/browse?player=Marta&wonder=Babylon", "players": "/players",
         "player": "/player?name=Marta", "stats": "/stats", "stats-wonders": "/stats/wonders",
         "stats-cards": "/stats/cards?players=4"}


def test_the_browse_pages_fit_a_phone_and_stay_quiet(browser, tmp_path):  # noqa: F811
    store = Store(tmp_path / "data")
    for path in sorted((ROOT / "replays").glob("*.7wn")):
        for game in check_upload(path.read_text(encoding="utf-8"), path.name).games:
            if game.game is not None:
                store.add_game(game.game)
    serve = Serve(tmp_path / "data")
    try:
        phone = Phone(browser, serve.url)
        desktop = Phone(browser, serve.url, **DESKTOP)
        for name, path in PAGES.items():
            phone.go(path)
            assert phone.page.locator("h1").count() == 1, path
            phone.check_layout(path)
            phone.shot(f"phone-{name}")
            desktop.go(path)
            desktop.shot(f"desktop-{name}")
        phone.go("/stats")
        assert phone.page.locator("svg").count() >= 9
        phone.assert_quiet()
        desktop.assert_quiet()
        phone.close()
        desktop.close()
    finally:
        serve.stop()
