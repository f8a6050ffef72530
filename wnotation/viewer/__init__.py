"""Share a game: a self-contained HTML viewer, a static club site, SVG score sheets and charts, a 7WN lexer.

Clients of the library only: every snapshot comes from the engine's Replay (positions, events, findings,
``score_at``), never from rules of their own. Record text is data everywhere: escaped for where it lands, and
pages carry a Content-Security-Policy that forbids every request and every script but their own. Each name is
imported on first use, so loading the Pygments lexer (:mod:`.lexer`) does not load the engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_HOME = {
    "game_data": "data", "points_by_age": "data", "redact": "data", "page": "html", "page_data": "html",
    "build_site": "site", "sheet_svg": "svg", "chart_svg": "svg", "SevenWNLexer": "lexer",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_HOME[name]}", __name__), name)
