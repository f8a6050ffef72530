"""The club server's Starlette application: the game list, each game's viewer page, download, upload, recording.

Reading is public; writing (upload, recording) needs a session opened with the club key. A session is an ``HttpOnly``,
``SameSite=Strict`` cookie; every form that writes also carries the session's CSRF token, and the login form a
double-submit token of its own. Record text is data: every page is built from escaped text
(:func:`wnotation.viewer.html.text`), each game page is the viewer's own self-contained page, and every response
carries a policy under which nothing is loaded from elsewhere and no page can be framed.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..viewer.html import asset, csp, text
from .browse import browse_routes
from .derived import Derived
from .keys import new_token, same
from .reading import keyed_reading
from .recording import MAX_ANSWER_CHARS, Live, Recordings, RecordingError, make_header
from .store import GameRow, Store
from .upload import MAX_UPLOAD_BYTES, UploadCheck, UploadRefused, check_upload, decode

SESSION_COOKIE = "wn_session"
LOGIN_COOKIE = "wn_login"
#: The multipart overhead allowed above the file itself (boundaries, the CSRF field, a pasted text's field name).
_FORM_SLACK = 64 * 1024

_EXTRA_CSS = """nav { display: flex; gap: 1rem; margin: 0 0 .8rem; font-size: .95rem; }
form.inline { display: inline; } button { font: inherit; padding: .35rem .9rem; }
textarea { width: 100%; max-width: 60rem; min-height: 8rem; font: 13px/1.4 ui-monospace, monospace; }
input[type=password] { font: inherit; padding: .3rem; }
pre.diag { white-space: pre-wrap; overflow-wrap: anywhere; background: #fff; border: 1px solid #d0d4d9;
  padding: .4rem; font-size: .85rem; }
.ok { color: #1e6b2f; } .note { color: #5f6368; }"""

#: Headers on every response: no framing, no sniffing, no referrer; the pages' own policy is in their <meta>.
_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
            (b"content-security-policy", b"frame-ancestors 'none'; base-uri 'none'; object-src 'none'"),
            (b"cache-control", b"no-store")]


class SecurityHeaders:
    """ASGI middleware adding :data:`_HEADERS` to every HTTP response, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _HEADERS
            await send(message)

        await self.app(scope, receive, with_headers)


#: Seconds between reloads of a game being recorded, for those who watch it (not for the phone answering).
WATCH_REFRESH = 5


def layout(title: str, body: str, *, csrf: str | None = None, status: int = 200,
           refresh: int | None = None) -> HTMLResponse:
    """A server page: the club's style, a navigation bar (log out when ``csrf``: the session is open), no
    script at all; its policy allows its one style block and forms posted to this server only."""
    style = asset("index.css") + _EXTRA_CSS
    policy = csp((), (style,)).replace("form-action 'none'", "form-action 'self'")
    if csrf is not None:
        session = (f'<form class="inline" method="post" action="/logout"><input type="hidden" name="csrf" '
                   f'value="{text(csrf)}"><button type="submit">Log out</button></form>')
    else:
        session = '<a href="/login">Log in</a>'
    nav = (f'<nav><a href="/">Games</a><a href="/browse">Find</a><a href="/players">Players</a><a href="/stats">Stats'
           f'</a><a href="/upload">Upload</a><a href="/record">Record</a>{session}</nav>\n')
    page = ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{text(policy)}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="referrer" content="no-referrer">\n'
            + (f'<meta http-equiv="refresh" content="{refresh}">\n' if refresh is not None else "")
            + f"<title>{text(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n{nav}{body}</body>\n</html>\n")
    return HTMLResponse(page, status_code=status)


def _session(request: Request) -> tuple[str, str] | None:
    """``(token, csrf)`` of the request's live session, or ``None``."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 200:
        return None
    csrf = _store(request).session_csrf(token)
    return None if csrf is None else (token, csrf)


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _csrf(request: Request) -> str | None:
    found = _session(request)
    return None if found is None else found[1]


def _seats(row: GameRow) -> str:
    return "<br>".join(f'<a href="/?player={quote(name)}"><span class="rt">{text(name)}</span></a> '
                       f"({text(wonder)} {text(side)})" for name, wonder, side in row.seats)


async def game_list(request: Request) -> Response:
    """Every game newest first (``?player=NAME``: that player's), each linking its page."""
    player = request.query_params.get("player")
    rows = await run_in_threadpool(_store(request).games, player)
    lines = []
    for g in rows:
        flag = f' <span class="bad">({g.errors} finding{"s" if g.errors != 1 else ""})</span>' if g.errors else ""
        winners = " and ".join(g.winners)
        link = text(g.event + ": " if g.event else "") + (text(winners) if winners else "unfinished")
        totals = " – ".join(str(t) for t in g.totals) or "–"
        lines.append(f'<tr><td data-h="game"><a href="/games/{g.id}" class="rt">{link}</a>{flag} '
                     f'<a href="/games/{g.id}.7wn">7WN</a></td><td data-h="date">{text(g.date or "unknown")}</td>'
                     f'<td data-h="players">{_seats(g)}</td><td data-h="scores">{totals}</td></tr>')
    count = f"{len(rows)} game{'s' if len(rows) != 1 else ''}"
    head = f"{text(player)}’s games" if player is not None else "The club’s games"
    body = (f'<header><h1 class="rt">{head}</h1><p>{count}, newest first.'
            + (' <a href="/">All games</a>.' if player is not None else ' <a href="/games.7wn">Download them all'
               "</a> as one 7WN file.") + "</p></header>\n<main>\n"
            '<table class="games"><thead><tr><th scope="col">game (event: winner)</th><th scope="col">date</th>'
            '<th scope="col">players (Wonders, seat order)</th><th scope="col">scores (seat order)</th></tr>'
            "</thead>\n<tbody>\n" + "\n".join(lines) + "\n</tbody></table>\n</main>\n")
    return layout("Games", body, csrf=_csrf(request))


@lru_cache(maxsize=64)
def _viewer_page(game_id: int, canonical: str) -> str:
    """The viewer's page of the stored game (cached by its text: a game page costs one replay)."""
    from .. import parse, replay
    from ..viewer.html import page

    record = parse(canonical)
    return page(record, replay(record), download_name=f"game-{game_id}", back="Games")


def _game_text(request: Request) -> tuple[int, str]:
    game_id = int(request.path_params["game_id"])
    canonical = _store(request).game_text(game_id)
    if canonical is None:
        raise HTTPException(404, f"there is no game {game_id}")
    return game_id, canonical


async def game_page(request: Request) -> Response:
    game_id, canonical = await run_in_threadpool(_game_text, request)
    return HTMLResponse(await run_in_threadpool(_viewer_page, game_id, canonical))


async def game_download(request: Request) -> Response:
    game_id, canonical = await run_in_threadpool(_game_text, request)
    return Response(canonical.encode("utf-8"), media_type="text/plain; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="game-{game_id}.7wn"'})


async def archive_download(request: Request) -> Response:
    """Every game of the club as one 7WN file, in upload order (a file ``wnotation check`` reads as it is)."""
    texts = await run_in_threadpool(lambda: list(_store(request).texts()))
    return Response("\n".join(texts).encode("utf-8"), media_type="text/plain; charset=utf-8",
                    headers={"content-disposition": 'attachment; filename="club-games.7wn"'})


async def back_to_list(request: Request) -> Response:
    """The viewer page's link back (``index.html`` beside it) leads to the list."""
    return RedirectResponse("/", status_code=303)


async def login_form(request: Request, message: str = "", status: int = 200) -> Response:
    token = new_token()
    note = f'<p class="bad">{text(message)}</p>' if message else ""
    body = (f"<h1>Log in</h1>{note}<p>Uploading games needs the club key.</p>"
            '<form method="post" action="/login"><p><label>Club key <input type="password" name="key" '
            f'autocomplete="current-password" required></label></p><input type="hidden" name="csrf" '
            f'value="{text(token)}"><p><button type="submit">Log in</button></p></form>\n')
    response = layout("Log in", body, status=status)
    response.set_cookie(LOGIN_COOKIE, token, max_age=3600, httponly=True, samesite="strict", path="/login")
    return response


async def _form(request: Request, limit: int, files: int = 0, fields: int = 4) -> FormData | None:
    """The request's form, read only up to ``limit`` bytes (``None`` past them)."""
    raw = await _bounded_body(request, limit)
    if raw is None:
        return None
    body = raw

    async def replay_body() -> Message:
        return {"type": "http.request", "body": body, "more_body": False}

    return await Request(request.scope, replay_body).form(max_files=files, max_fields=fields,
                                                             max_part_size=limit)


#: Seconds a wrong key holds the login lock: with the lock, at most a few guesses a second reach the server.
WRONG_KEY_DELAY = 0.5


async def login(request: Request) -> Response:
    form = await _form(request, 8192)
    if form is None:
        return await login_form(request, "That form is too large.", 413)
    key, csrf, expected = form.get("key"), form.get("csrf"), request.cookies.get(LOGIN_COOKIE, "")
    if not isinstance(csrf, str) or not expected or not same(csrf, expected):
        return await login_form(request, "The form had expired; please try again.", 403)
    lock: asyncio.Lock = request.app.state.login_lock
    async with lock:  # one key check at a time, a wrong one slowed: guessing the key online stays slow
        right = isinstance(key, str) and await run_in_threadpool(_store(request).check_key, key)
        if not right:
            await asyncio.sleep(WRONG_KEY_DELAY)
    if not right:
        return await login_form(request, "That is not the club key.", 403)
    token, _ = await run_in_threadpool(_store(request).open_session)
    response = RedirectResponse("/upload", status_code=303)
    response.set_cookie(SESSION_COOKIE, token, max_age=30 * 24 * 3600, httponly=True, samesite="strict", path="/")
    response.delete_cookie(LOGIN_COOKIE, path="/login")
    return response


async def logout(request: Request) -> Response:
    found = _session(request)
    form = await _form(request, 8192)
    csrf = None if form is None else form.get("csrf")
    if found is None or not isinstance(csrf, str) or not same(csrf, found[1]):
        return layout("Log out", '<p class="bad">Not logged in, or the form had expired.</p>', status=403)
    await run_in_threadpool(_store(request).close_session, found[0])
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def _recordings(request: Request) -> Recordings:
    found: Recordings = request.app.state.recordings
    return found


def _new_game_form(csrf: str, message: str = "") -> str:
    from ..model.catalog import load

    note = f'<p class="bad">{text(message)}</p>' if message else ""
    wonders = "".join(f'<option value="{text(name)}">' for name in dict.fromkeys(w.name for w in load().wonders))
    rows = "".join(
        f'<tr><th scope="row">{k}</th><td><input name="name{k}" maxlength="60" aria-label="seat {k} name"></td>'
        f'<td><input name="wonder{k}" list="wonders" maxlength="40" aria-label="seat {k} Wonder"></td>'
        f'<td><select name="side{k}" aria-label="seat {k} side"><option>day</option><option>night</option>'
        "</select></td></tr>" for k in range(1, 8))
    return (f"<h2>A new game</h2>{note}<p>The seats in clockwise order, 3 to 7 of them (leave the others empty).</p>"
            f'<form method="post" action="/record"><input type="hidden" name="csrf" value="{text(csrf)}">'
            f'<datalist id="wonders">{wonders}</datalist>'
            '<table class="games"><thead><tr><th scope="col">seat</th><th scope="col">name</th>'
            f'<th scope="col">Wonder</th><th scope="col">side</th></tr></thead><tbody>{rows}</tbody></table>'
            '<p><label>Event <input name="event" maxlength="100"></label> <label>Date <input name="date" '
            'maxlength="10" placeholder="today"></label></p><p><button type="submit">Start recording</button></p>'
            "</form>\n")


def _record_index(request: Request, csrf: str | None, message: str = "", status: int = 200) -> Response:
    from .. import parse

    items = []
    for rid, header, answers in _store(request).recordings():
        names = ", ".join(s.name for s in parse(header).seats)
        items.append(f'<li><a href="/record/{rid}" class="rt">{text(names)}</a> ({answers} answers)</li>')
    listed = f"<ol>{''.join(items)}</ol>" if items else "<p>No game is being recorded.</p>"
    form = _new_game_form(csrf, message) if csrf is not None else '<p><a href="/login">Log in</a> to record a game.</p>'
    return layout("Record", f"<h1>Games being recorded</h1>{listed}{form}", csrf=csrf, status=status)


def _key_needed(title: str, what: str) -> Response:
    """The 403 page of a write without a session: what needed the key, and where to log in."""
    return layout(title, f'<p class="bad">{what} needs the club key: <a href="/login">log in</a>.</p>', status=403)


async def record_index(request: Request) -> Response:
    return await run_in_threadpool(_record_index, request, _csrf(request))


async def record_new(request: Request) -> Response:
    found = _session(request)
    if found is None:
        return _key_needed("Record", "Recording")
    csrf = found[1]
    form = await _form(request, 16384, fields=30)
    if form is None or not isinstance(form.get("csrf"), str) or not same(str(form.get("csrf")), csrf):
        return await run_in_threadpool(_record_index, request, csrf, "The form had expired; please try again.", 403)

    def field(name: str) -> str:
        value = form.get(name) if form is not None else None
        return " ".join(value.split()) if isinstance(value, str) else ""

    seats = [(field(f"name{k}"), field(f"wonder{k}"), field(f"side{k}")) for k in range(1, 8)]
    seats = [s for s in seats if s[0] or s[1]]
    try:
        header = make_header(seats, field("date"), field("event"))
    except RecordingError as exc:
        return await run_in_threadpool(_record_index, request, csrf, str(exc), 422)
    rid = await run_in_threadpool(_recordings(request).start, header)
    return RedirectResponse(f"/record/{rid}", status_code=303)


def _live(request: Request) -> tuple[int, Live]:
    rid = int(request.path_params["recording_id"])
    live = _recordings(request).live(rid)
    if live is None:
        raise HTTPException(404, f"there is no recording {rid}")
    return rid, live


def _answer_form(rid: int, csrf: str, typed: str, label: str) -> str:
    return (f'<form class="inline" method="post" action="/record/{rid}"><input type="hidden" name="csrf" '
            f'value="{text(csrf)}"><input type="hidden" name="answer" value="{text(typed)}">'
            f'<button type="submit">{text(label)}</button></form> ')


def _record_page(request: Request, csrf: str | None) -> Response:
    rid, live = _live(request)
    with live.lock:
        session = live.session
        q = session.question()
        names = ", ".join(s.name for s in session.header.seats)
        parts = [f'<h1 class="rt">Recording: {text(names)}</h1>']
        if live.lines:
            parts.append(f'<pre class="diag">{text(chr(10).join(live.lines))}</pre>')
        if live.game is not None:
            parts.append(f'<p class="ok">The game is recorded: <a href="/games/{live.game}">game {live.game}</a>.</p>')
            parts.append(f'<pre class="diag">{text(chr(10).join(session.sheet_lines()))}</pre>')
        elif q is not None and csrf is not None:
            intro = "".join(f"<p>{text(line)}</p>" for line in q.intro)
            options = "".join(f'<option value="{text(c.text)}">' for c in q.choices[:400])
            parts.append(
                f'<h2>{text(q.label)}</h2>{intro}<form method="post" action="/record/{rid}">'
                f'<input type="hidden" name="csrf" value="{text(csrf)}"><p><label>{text(q.prompt)} '
                f'<input name="answer" list="choices" maxlength="{MAX_ANSWER_CHARS}" autocomplete="off" autofocus '
                f'autocapitalize="none"></label> <button type="submit">Enter</button></p>'
                f'<datalist id="choices">{options}</datalist></form>'
                f"<p>{_answer_form(rid, csrf, 'undo', 'Undo')}{_answer_form(rid, csrf, 'redo', 'Redo')}</p>")
        elif q is not None:
            parts.append(f'<p>Next: {text(q.prompt)} (this page reloads every {WATCH_REFRESH} s; '
                         '<a href="/login">log in</a> to answer)</p>')
        errors = session.findings_lines()
        if errors:
            parts.append(f'<h2>Errors recorded</h2><pre class="diag">{text(chr(10).join(errors))}</pre>')
        parts.append(f'<h2>The record so far</h2><pre class="diag">{text(session.text())}</pre>')
        watching = csrf is None and live.game is None
    return layout("Recording", "".join(parts) + "\n", csrf=csrf, refresh=WATCH_REFRESH if watching else None)


async def record_page(request: Request) -> Response:
    return await run_in_threadpool(_record_page, request, _csrf(request))


async def record_answer(request: Request) -> Response:
    found = _session(request)
    if found is None:
        return _key_needed("Record", "Recording")
    form = await _form(request, 4096)
    sent = None if form is None else form.get("csrf")
    typed = None if form is None else form.get("answer", "")
    if not isinstance(sent, str) or not same(sent, found[1]) or not isinstance(typed, str):
        return layout("Record", '<p class="bad">The form had expired; please answer again.</p>', csrf=found[1],
                      status=403)
    rid, live = await run_in_threadpool(_live, request)
    try:
        await run_in_threadpool(_recordings(request).answer, rid, live, typed)
    except RecordingError as exc:
        return layout("Record", f'<p class="bad">{text(str(exc))}.</p><p><a href="/record/{rid}">Back</a></p>',
                      csrf=found[1], status=422)
    return RedirectResponse(f"/record/{rid}", status_code=303)


def _upload_form(csrf: str, message: str = "") -> str:
    note = f'<p class="bad">{text(message)}</p>' if message else ""
    return (f"<h1>Upload games</h1>{note}<p>A .7wn file of one or more games (at most "
            f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MiB). Each game is checked; every readable game is kept, "
            "with its findings, and a game that cannot be read is shown and left out.</p>"
            '<form method="post" action="/upload" enctype="multipart/form-data">'
            f'<input type="hidden" name="csrf" value="{text(csrf)}">'
            '<p><label>File <input type="file" name="file" accept=".7wn,text/plain"></label></p>'
            '<p><label>or paste the text<br><textarea name="text" spellcheck="false"></textarea></label></p>'
            '<p><button type="submit">Upload</button></p></form>\n')


async def upload_form(request: Request) -> Response:
    csrf = _csrf(request)
    if csrf is None:
        return RedirectResponse("/login", status_code=303)
    return layout("Upload", _upload_form(csrf), csrf=csrf)


async def _bounded_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or ``None`` as soon as it passes ``limit`` bytes (the rest is not read)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def upload(request: Request) -> Response:
    found = _session(request)
    if found is None:
        return _key_needed("Upload", "Uploading")
    csrf = found[1]
    form = await _form(request, MAX_UPLOAD_BYTES + _FORM_SLACK, files=1)
    if form is None:
        return layout("Upload", _upload_form(csrf, f"The upload is larger than the "
                                             f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MiB allowed."),
                      csrf=csrf, status=413)
    sent = form.get("csrf")
    if not isinstance(sent, str) or not same(sent, csrf):
        return layout("Upload", _upload_form(csrf, "The form had expired; please upload again."), csrf=csrf,
                      status=403)
    file, pasted = form.get("file"), form.get("text")
    name = "pasted text"
    data = b""
    if isinstance(file, UploadFile) and file.filename:
        data = await file.read(MAX_UPLOAD_BYTES + 1)
        name = file.filename[-200:]
    elif isinstance(pasted, str) and pasted.strip():
        data = pasted.encode("utf-8", "surrogatepass")
    else:
        return layout("Upload", _upload_form(csrf, "Choose a .7wn file or paste its text."), csrf=csrf, status=400)
    try:
        checked = await run_in_threadpool(check_upload, decode(data), name)
    except UploadRefused as refused:
        return layout("Upload", _upload_form(csrf, f"{name}: {refused}."), csrf=csrf, status=422)
    stored = await run_in_threadpool(_keep, _store(request), checked)
    return layout("Uploaded", _upload_report(checked, stored), csrf=csrf)


def _keep(store: Store, checked: UploadCheck) -> list[tuple[int, bool] | None]:
    """Store every readable game of ``checked``: ``(id, new)`` per game, ``None`` for a game not stored."""
    return [None if g.game is None else store.add_game(g.game) for g in checked.games]


def _upload_report(checked: UploadCheck, stored: list[tuple[int, bool] | None]) -> str:
    kept = sum(1 for s in stored if s is not None)
    items = []
    for game, where in zip(checked.games, stored):
        if where is None:
            verdict = '<span class="bad">not kept: its text cannot be read</span>'
        else:
            game_id, new = where
            verdict = (f'<span class="ok">kept</span> as <a href="/games/{game_id}">game {game_id}</a>' if new
                       else f'already kept as <a href="/games/{game_id}">game {game_id}</a>')
        title = f' <span class="rt">{text(game.title)}</span>' if game.title else ""
        shown = [d.rendered() for d in game.diagnostics if not d.check_only or d.severity == "error"]
        found = (f'<pre class="diag">{text(chr(10).join(shown))}</pre>' if shown
                 else '<p class="ok">No findings.</p>')
        items.append(f"<li><p>Game {game.number}:{title}: {verdict}.</p>{found}</li>")
    total = len(checked.games)
    return (f'<h1>Uploaded <span class="rt">{text(checked.file)}</span></h1><p>{kept} of {total} '
            f"game{'s' if total != 1 else ''} kept.</p><ol>{''.join(items)}</ol>"
            '<p><a href="/upload">Upload more</a> · <a href="/">The games</a></p>\n')


async def not_found(request: Request, exc: Exception) -> Response:
    detail = exc.detail if isinstance(exc, HTTPException) else "no such page"
    status = exc.status_code if isinstance(exc, HTTPException) else 404
    title = "Not found" if status == 404 else "Not allowed"
    return layout(title, f'<h1>{title}</h1><p class="rt">{text(str(detail))}.</p>', status=status)


def create_app(data: str | Path, **starlette: Any) -> ASGIApp:
    """The application serving the club database in the folder ``data`` (created with its database when
    missing). ``starlette``: keyword arguments for :class:`~starlette.applications.Starlette` (``debug``)."""
    routes = [
        Route("/", game_list),
        Route("/games/{game_id:int}", game_page),
        Route("/games/{game_id:int}.7wn", game_download),
        Route("/games/index.html", back_to_list),
        Route("/games.7wn", archive_download),
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/upload", upload_form, methods=["GET"]),
        Route("/upload", upload, methods=["POST"]),
        Route("/record", record_index, methods=["GET"]),
        Route("/record", record_new, methods=["POST"]),
        Route("/record/{recording_id:int}", record_page, methods=["GET"]),
        Route("/record/{recording_id:int}", record_answer, methods=["POST"]),
    ] + browse_routes(layout, _csrf)
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found}, **starlette)
    app.state.store = Store(data)
    app.state.login_lock = asyncio.Lock()
    app.state.recordings = Recordings(app.state.store)
    app.state.derived = Derived(app.state.store)
    return SecurityHeaders(keyed_reading(app, app.state.store, SESSION_COOKIE))
