"""The club server's Starlette application: the game list, each game's viewer page, download, upload, recording.

Reading is public; writing (upload, recording) needs a session opened with the club key. A game being recorded
is watched live: its watch page holds one small inline script that takes the page's live part from a server-sent
event stream (:mod:`.live`), and reloads itself without the script. A session is an ``HttpOnly``,
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
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..model.record import Record
from ..recorder.session import Session
from ..viewer.html import asset, csp, text
from .keys import new_token, same
from .live import Feed, Snapshot, StreamsFull
from .recording import MAX_ANSWER_CHARS, PAD, TURNS, Live, PadRecording, Recordings, RecordingError, make_header
from .store import GameRow, Store
from .upload import MAX_UPLOAD_BYTES, UploadCheck, UploadRefused, check_upload, decode

SESSION_COOKIE = "wn_session"
LOGIN_COOKIE = "wn_login"
#: The multipart overhead allowed above the file itself (boundaries, the CSRF field, a pasted text's field name).
_FORM_SLACK = 64 * 1024

_EXTRA_CSS = """nav { display: flex; gap: 1rem; margin: 0 0 .8rem; font-size: .95rem; }
form.inline { display: inline; } button { padding: .35rem .9rem; }
textarea { width: 100%; max-width: 60rem; min-height: 8rem; font: 13px/1.4 ui-monospace, monospace; }
input[type=password] { font: inherit; padding: .3rem; }
pre.diag { white-space: pre-wrap; overflow-wrap: anywhere; background: #fff; border: 1px solid #d0d4d9;
  padding: .4rem; font-size: .85rem; }
.ok { color: #1e6b2f; } .note { color: #5f6368; }
pre.cols { white-space: pre; overflow-x: auto; overflow-wrap: normal; }
.scroll { overflow-x: auto; max-width: 100%; } table.pad { border-collapse: collapse; background: #fff; }
table.pad th, table.pad td { border: 1px solid #d0d4d9; padding: .2rem .45rem; text-align: right; }
table.pad th[scope=row], table.pad thead th:first-child { text-align: left; } table.pad td.now { outline: 2px solid #1a73e8; }
button, select { font: inherit; min-height: 2.75rem; min-width: 2.75rem; }
input:not([type=hidden], [type=checkbox], [type=radio]) { font: inherit; min-height: 2.5rem; padding: .3rem .45rem;
  box-sizing: border-box; max-width: 100%; }
input[type=checkbox], input[type=radio] { width: 1.3rem; height: 1.3rem; vertical-align: middle; margin: 0 .3rem 0 0; }
form.answer input[name=answer] { width: 100%; max-width: 24rem; }
.buttons button { margin: .25rem .4rem .25rem 0; } nav a { padding: .55rem .1rem; }
fieldset { border: 1px solid #d0d4d9; margin: .6rem 0; } ol.recordings li { padding: .5rem 0; }
table.seats { border-collapse: collapse; width: 100%; max-width: 40rem; } table.seats th { text-align: left; }
table.seats td, table.seats th { padding: .15rem .2rem; } table.seats input, table.seats select { width: 100%; }
fieldset label { display: inline-block; padding: .55rem .8rem .55rem 0; }"""

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


#: The watch page's one script: the live part of the page replaced by each event's, the stream closed once the
#: game is stored; a stream refused or lost for good falls back to reloading the page.
_WATCH_SCRIPT = """(() => {
  const live = document.getElementById('live'), status = document.getElementById('live-status');
  if (!live || !status || !window.EventSource) return;
  const say = t => { status.textContent = t; };
  const source = new EventSource(live.dataset.events);
  source.onopen = () => say('Live: this page updates by itself.');
  source.onmessage = e => { live.innerHTML = e.data; };
  source.addEventListener('done', () => {
    source.close();
    say('The game is recorded.');
    const answer = document.getElementById('live-login');
    if (answer) answer.remove();
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) {
      say('Live updates are unavailable: this page reloads every %d s.');
      setTimeout(() => location.reload(), %d000);
    } else say('Reconnecting…');
  };
})();""" % (WATCH_REFRESH, WATCH_REFRESH)


def layout(title: str, body: str, *, csrf: str | None = None, status: int = 200,
           refresh: int | None = None, live: bool = False) -> HTMLResponse:
    """A server page: the club's style, a navigation bar (log out when ``csrf``: the session is open), no
    script at all but for a watch page (``live``: :data:`_WATCH_SCRIPT`, its stream the one request allowed);
    its policy allows its one style block and forms posted to this server only. ``refresh``: seconds between
    reloads, inside ``<noscript>`` on a watch page."""
    style = asset("index.css") + _EXTRA_CSS
    policy = csp((_WATCH_SCRIPT,) if live else (), (style,)).replace("form-action 'none'", "form-action 'self'")
    if live:
        policy = policy.replace("default-src 'none';", "default-src 'none'; connect-src 'self';")
    if csrf is not None:
        session = (f'<form class="inline" method="post" action="/logout"><input type="hidden" name="csrf" '
                   f'value="{text(csrf)}"><button type="submit">Log out</button></form>')
    else:
        session = '<a href="/login">Log in</a>'
    nav = f'<nav><a href="/">Games</a><a href="/upload">Upload</a><a href="/record">Record</a>{session}</nav>\n'
    page = ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{text(policy)}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="referrer" content="no-referrer">\n'
            + (_refresh_meta(refresh, live) if refresh is not None else "")
            + f"<title>{text(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n{nav}{body}"
            + (f"<script>{_WATCH_SCRIPT}</script>\n" if live else "") + "</body>\n</html>\n")
    return HTMLResponse(page, status_code=status)


def _refresh_meta(seconds: int, live: bool) -> str:
    meta = f'<meta http-equiv="refresh" content="{seconds}">'
    return f"<noscript>{meta}</noscript>\n" if live else meta + "\n"


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
    from ..model.vocabulary import EXPANSIONS

    note = f'<p class="bad">{text(message)}</p>' if message else ""
    wonders = "".join(f'<option value="{text(name)}">' for name in dict.fromkeys(w.name for w in load().wonders))
    rows = "".join(
        f'<tr><th scope="row">{k}</th><td><input name="name{k}" maxlength="60" aria-label="seat {k} name" '
        f'placeholder="name"></td><td><input name="wonder{k}" list="wonders" maxlength="40" '
        f'aria-label="seat {k} Wonder" placeholder="Wonder" autocapitalize="words"></td>'
        f'<td><select name="side{k}" aria-label="seat {k} side"><option>day</option><option>night</option>'
        "</select></td></tr>" for k in range(1, 8))
    expansions = "".join(f'<label><input type="checkbox" name="expansion" value="{text(e)}"> {text(e)}</label>'
                         for e in EXPANSIONS)
    return (f"<h2>A new game</h2>{note}<p>The seats in clockwise order, 3 to 7 of them (leave the others empty).</p>"
            f'<form method="post" action="/record"><input type="hidden" name="csrf" value="{text(csrf)}">'
            f'<datalist id="wonders">{wonders}</datalist>'
            '<table class="seats"><thead><tr><th scope="col">seat</th><th scope="col">name</th>'
            f'<th scope="col">Wonder</th><th scope="col">side</th></tr></thead><tbody>{rows}</tbody></table>'
            '<fieldset><legend>Record</legend><label><input type="radio" name="kind" value="turns" checked> '
            'turn by turn</label><label><input type="radio" name="kind" value="pad"> the score pad only</label>'
            f"</fieldset><fieldset><legend>Expansions (score pad only)</legend>{expansions}</fieldset>"
            '<p><label>Event<br><input name="event" maxlength="100"></label></p><p><label>Date<br><input '
            'name="date" maxlength="10" placeholder="today (or 2026.11.30)"></label></p><p class="buttons"><button type="submit">Start recording'
            "</button></p></form>\n")


def _record_index(request: Request, csrf: str | None, message: str = "", status: int = 200) -> Response:
    from .. import parse

    items = []
    store = _store(request)
    for rid, header, answers in store.recordings():
        game = parse(header)
        names = ", ".join(s.name for s in game.seats)
        event = game.tag("Event")
        what = (f"{event}, " if event else "") + ("score pad, " if store.recording_kind(rid) == PAD else "")
        items.append(f'<li><a href="/record/{rid}" class="rt">{text(names)}</a> <span class="rt">({text(what)}'
                     f"{answers} answers)</span></li>")
    listed = f'<ol class="recordings">{"".join(items)}</ol>' if items else "<p>No game is being recorded.</p>"
    form = _new_game_form(csrf, message) if csrf is not None else '<p><a href="/login">Log in</a> to record a game.</p>'
    return layout("Record", f"<h1>Games being recorded</h1><p>Open one to watch it live.</p>{listed}{form}",
                  csrf=csrf, status=status)


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
    form = await _form(request, 16384, fields=40)
    if form is None or not isinstance(form.get("csrf"), str) or not same(str(form.get("csrf")), csrf):
        return await run_in_threadpool(_record_index, request, csrf, "The form had expired; please try again.", 403)

    def field(name: str) -> str:
        value = form.get(name) if form is not None else None
        return " ".join(value.split()) if isinstance(value, str) else ""

    seats = [(field(f"name{k}"), field(f"wonder{k}"), field(f"side{k}")) for k in range(1, 8)]
    seats = [s for s in seats if s[0] or s[1]]
    kind = field("kind") or TURNS
    expansions = tuple(dict.fromkeys(e for e in form.getlist("expansion") if isinstance(e, str)))
    try:
        from ..model.vocabulary import EXPANSIONS

        unknown = [e for e in expansions if e not in EXPANSIONS]
        if unknown:
            raise RecordingError(f"no such expansion: {unknown[0]}")
        header = make_header(seats, field("date"), field("event"), expansions)
        rid = await run_in_threadpool(_recordings(request).start, header, kind)
    except RecordingError as exc:
        return await run_in_threadpool(_record_index, request, csrf, str(exc), 422)
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


def _pre(lines: list[str] | tuple[str, ...], kind: str = "diag") -> str:
    """Lines as a preformatted block: ``diag`` wraps (a record, findings), ``diag cols`` keeps its columns and
    scrolls by itself on a narrow screen (standings)."""
    return f'<pre class="{kind}">{text(chr(10).join(lines))}</pre>' if lines else ""


def _sheet_table(record: Record) -> str:
    """The score sheet of a finished game as a table (a column per seat), scrolling by itself if too wide."""
    from .. import replay
    from ..formats.render import score_table

    sheet = replay(record).scores
    if sheet is None:
        return ""
    header, rows = score_table(record, sheet)
    head = "".join(f'<th scope="col" class="rt">{text(name)}</th>' for name in header[1:])
    body = "".join(f'<tr><th scope="row">{text(row[0])}</th>' + "".join(f"<td>{text(cell)}</td>" for cell in row[1:])
                   + "</tr>" for row in rows)
    return (f'<div class="scroll"><table class="pad"><thead><tr><th scope="col">row</th>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def _pad_table(pad: PadRecording) -> str:
    """The score pad as filled in so far: a column per seat, a row per row of the pad (the one asked next
    outlined), and the ranks once every row is in."""
    session = pad.pad
    asked = session.question() if session.confirm is None else session.confirm[:2]
    head = "".join(f'<th scope="col" class="rt">{text(s.name)}</th>' for s in session.header.seats)
    body = []
    for row in session.rows:
        cells = []
        for seat in range(1, session.header.players + 1):
            value = session.values.get(seat, {}).get(row)
            shown = "" if (seat, row) not in session.answered else ("–" if value is None else str(value))
            now = ' class="now"' if asked == (seat, row) else ""
            cells.append(f"<td{now}>{shown}</td>")
        body.append(f'<tr><th scope="row">{row}</th>{"".join(cells)}</tr>')
    if pad.filled_in():
        ranks = {r.seat: r.rank for r in session.record.results}
        body.append('<tr><th scope="row">rank</th>' + "".join(
            f"<td>{ranks.get(k) or ''}</td>" for k in range(1, session.header.players + 1)) + "</tr>")
    return (f'<div class="scroll"><table class="pad"><thead><tr><th scope="col">row</th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def _pad_prompt(pad: PadRecording) -> str:
    return pad.pad.prompt().removesuffix("> ")


def _state_part(live: Live) -> str:
    """What the record holds so far (under ``live.lock``): a pad's table and findings, or a game's errors
    and its record."""
    session = live.session
    if isinstance(session, PadRecording):
        found = session.pad.findings() if session.filled_in() else []
        return ("<h2>The score pad</h2>" + _pad_table(session)
                + (f"<h2>Findings</h2>{_pre(found)}" if found else ""))
    errors = session.findings_lines()
    return ((f"<h2>Errors recorded</h2>{_pre(errors)}" if errors else "")
            + f"<h2>{'The record' if live.game is not None else 'The record so far'}</h2>{_pre([session.text()])}")


def _watch_part(live: Live) -> str:
    """The part of a recording's page that changes with each answer, as its watchers see it (under
    ``live.lock``): what the last answer said, what comes next or the game stored, the standings, the record."""
    session = live.session
    parts = [_pre(live.lines) if live.game is None else ""]  # once stored, the sheet below says it all
    if live.game is not None:
        parts.append(f'<p class="ok">The game is recorded: <a href="/games/{live.game}">game {live.game}</a>.</p>')
        if isinstance(session, Session):
            parts.append("<h2>The score sheet</h2>" + _sheet_table(session.record))
    elif isinstance(session, PadRecording):
        parts.append("<p>Every row is in: the pad is about to be stored.</p>" if session.filled_in()
                     else f"<p>Next: {text(_pad_prompt(session))}</p>")
    else:
        q = session.question()
        if q is not None:
            parts.append(f"<p>Next: {text(q.prompt)}</p>")
        if session.turns:
            label = session.turns[-1].label
            parts.append(f"<h2>Standings after {text(label)}</h2>{_pre(session.standings(label), 'diag cols')}")
    return "".join(parts) + _state_part(live)


def _answer_part(rid: int, live: Live, csrf: str) -> str:
    """The recorder's forms (under ``live.lock``): the question, an answer field, and buttons for the answers a
    phone would otherwise type (undo, redo, yes and no, the default)."""
    session = live.session
    field = (f'<input type="hidden" name="csrf" value="{text(csrf)}"><input name="answer" list="choices" '
             f'maxlength="{MAX_ANSWER_CHARS}" autocomplete="off" autofocus autocapitalize="none" '
             'enterkeyhint="send">')
    if isinstance(session, PadRecording):
        if session.filled_in():
            return (f'<h2>Every row is in</h2><p>Store the pad, or re-enter a row.</p><form class="answer" '
                    f'method="post" action="/record/{rid}"><label>Row to re-enter (ROW SEAT, e.g. treasury '
                    f'{text(session.header.seats[0].name)}) {field}</label> <button type="submit">Enter</button>'
                    "</form>"
                    f'<div class="buttons">{_answer_form(rid, csrf, "", "Store the score pad")}'
                    f'{_answer_form(rid, csrf, "undo", "Undo")}</div>')
        quick = [("y", "Yes, record it"), ("n", "No")] if session.pad.confirm is not None else []
        asked = session.pad.question()
        if session.pad.confirm is None and asked is not None:
            default = session.pad.default(*asked)
            if default is not None:
                quick.append(("", f"Take {default}"))
            elif asked[1] == "coins":
                quick.append(("", "Not counted"))
        quick.append(("undo", "Undo"))
        return (f'<h2>{text(_pad_prompt(session))}</h2><form class="answer" method="post" action="/record/{rid}">'
                f'<label>Answer {field}</label> <button type="submit">Enter</button></form>'
                f'<div class="buttons">{"".join(_answer_form(rid, csrf, typed, label) for typed, label in quick)}</div>')
    q = session.question()
    if q is None:
        return ""
    intro = "".join(f"<p>{text(line)}</p>" for line in q.intro)
    options = "".join(f'<option value="{text(c.text)}">' for c in q.choices[:400])
    quick = [(c.text, c.text) for c in q.choices] if q.kind in ("confirm", "keep", "purchase") else []
    quick += [("undo", "Undo"), ("redo", "Redo")]
    return (f'<h2>{text(q.label)}</h2>{intro}<form class="answer" method="post" action="/record/{rid}">'
            f'<p><label>{text(q.prompt)} {field}</label> <button type="submit">Enter</button></p>'
            f'<datalist id="choices">{options}</datalist></form>'
            f'<div class="buttons">{"".join(_answer_form(rid, csrf, typed, label) for typed, label in quick)}</div>')


def _record_page(request: Request, csrf: str | None) -> Response:
    rid, live = _live(request)
    with live.lock:
        names = ", ".join(s.name for s in live.session.header.seats)
        title = f'<h1 class="rt">Recording: {text(names)}</h1>'
        if csrf is not None and live.game is None:
            body = title + _pre(live.lines) + _answer_part(rid, live, csrf) + _state_part(live)
            return layout("Recording", body + "\n", csrf=csrf)
        if live.shown is None or live.shown[0] != live.answers:
            live.shown = (live.answers, _watch_part(live))
        fragment = live.shown[1]
        watching = live.game is None
        answers = live.answers
    if not watching:
        return layout("Recording", f"{title}{fragment}\n", csrf=csrf)
    note = (f'<p class="note"><span id="live-status">This page reloads every {WATCH_REFRESH} s.</span> '
            + ('<span id="live-login"><a href="/login">Log in</a> to answer.</span>' if csrf is None else "") + "</p>")
    body = f'{title}{note}<div id="live" data-events="/record/{rid}/events?since={answers}">{fragment}</div>\n'
    return layout("Recording", body, csrf=csrf, refresh=WATCH_REFRESH, live=True)


def _snapshot(live: Live) -> Snapshot:
    """The watch page's live part now (rendered once per answer, whoever watches)."""
    with live.lock:
        if live.shown is None or live.shown[0] != live.answers:
            live.shown = (live.answers, _watch_part(live))
        return Snapshot(live.answers, live.shown[1], live.game)


async def record_page(request: Request) -> Response:
    return await run_in_threadpool(_record_page, request, _csrf(request))


async def record_events(request: Request) -> Response:
    """The recording's server-sent events: the watch page's live part after each answer, then ``done`` with
    the stored game's address (``?since=N`` or ``Last-Event-ID``: the version the page shows)."""
    rid, live = await run_in_threadpool(_live, request)
    mark = request.headers.get("last-event-id") or request.query_params.get("since") or ""
    since = int(mark) if mark.isdigit() and len(mark) < 10 else None

    async def snapshot() -> Snapshot:
        return await run_in_threadpool(_snapshot, live)

    feed = _recordings(request).feed
    try:
        stream = feed.stream(rid, since, snapshot)
    except StreamsFull:
        return Response("every live stream is in use; the page reloads instead\n", status_code=503,
                        media_type="text/plain; charset=utf-8", headers={"retry-after": "30"})
    return StreamingResponse(stream, media_type="text/event-stream", headers={"x-accel-buffering": "no"})


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


def create_app(data: str | Path, *, feed: Feed | None = None, **starlette: Any) -> ASGIApp:
    """The application serving the club database in the folder ``data`` (created with its database when
    missing). ``feed``: the watch pages' streams, which the caller ends before shutting the server down
    (:meth:`.live.Feed.close`; a new one when ``None``); ``starlette``: keyword arguments for
    :class:`~starlette.applications.Starlette` (``debug``)."""
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
        Route("/record/{recording_id:int}/events", record_events, methods=["GET"]),
    ]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found}, **starlette)
    app.state.store = Store(data)
    app.state.login_lock = asyncio.Lock()
    app.state.recordings = Recordings(app.state.store, feed)
    return SecurityHeaders(app)
