"""Keyed reading: a club that keeps its games to itself (``wnotation serve --private``, a setting stored in the
database) lets no page be read without a session opened with the club key.

An ASGI middleware in front of every route, so that no page, download or future route can be forgotten: a
request without a live session gets the login page (a redirect), apart from the login and logout routes
themselves. Public reading (the default) costs nothing: the middleware is not installed.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .store import Store

#: The paths open without a session when reading is keyed: where the session is opened and closed.
OPEN_PATHS = frozenset({"/login", "/logout"})


class KeyedReading:
    """ASGI middleware: every HTTP request but :data:`OPEN_PATHS` needs the live session of ``cookie``."""

    def __init__(self, app: ASGIApp, store: Store, cookie: str) -> None:
        self.app, self.store, self.cookie = app, store, cookie

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] not in OPEN_PATHS and not self._open(scope):
            await RedirectResponse("/login", status_code=303)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _open(self, scope: Scope) -> bool:
        token = HTTPConnection(scope).cookies.get(self.cookie)
        return bool(token) and len(token or "") <= 200 and self.store.session_csrf(token or "") is not None


def keyed_reading(app: ASGIApp, store: Store, cookie: str) -> ASGIApp:
    """``app`` behind :class:`KeyedReading` when ``store`` keeps reading private, else ``app`` itself."""
    return KeyedReading(app, store, cookie) if store.private_reading() else app
