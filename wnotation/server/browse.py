"""The club server's browsing pages: the game list filtered by date, player, Wonder and event; a page per player;
the ``stats`` answers as pages with their charts; the whole archive as a zip of the Parquet archive.

Built on the tables derived from the stored texts (:mod:`.derived`): the list and the player pages from the
SQLite ones (no extra needed), the stats pages and the Parquet download from the Parquet archive, which needs
DuckDB (the ``[analytics]`` extra): without it those pages say so and no page links the download. Every filter
is a bound parameter, every shown value escaped (:func:`wnotation.viewer.html.text`, the charts'
:func:`~wnotation.viewer.svg.xml_text`). :func:`browse_routes` returns the routes; the application gives them its
page layout and its session check (this module does not import :mod:`.app`).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, Callable, Protocol, Sequence
from urllib.parse import quote, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from ..viewer.html import text
from .charts import bar_chart
from .derived import ARCHIVE_ZIP, Derived, GameFilter, PlayerSummary
from .store import GameRow

__all__ = ["ANALYTICS_MISSING", "analytics_available", "browse_routes"]

#: What the stats pages and the Parquet download say without DuckDB.
ANALYTICS_MISSING = ("the stats pages and the Parquet archive need DuckDB, which this server does not have: "
                     "pip install 'wnotation[analytics]' and start it again")

#: Each stats answer's chart: the column drawn, the columns naming a bar, and whether the value is a fraction.
CHARTS: dict[str, tuple[str, tuple[str, ...], bool]] = {
    "wonders": ("win_rate", ("wonder", "side"), True),
    "player_counts": ("avg_score", ("players",), False),
    "wonders_by_players": ("win_rate", ("players", "wonder", "side"), True),
    "categories": ("avg_points", ("category",), False),
    "cards": ("built", ("card", "age"), False),
    "trades": ("coins", ("buyer", "seller"), False),
    "neighbour_coins": ("left_per_game", ("players",), False),
    "military_tokens": ("tokens", ("age", "token"), False),
    "science": ("win_rate", ("sets",), True),
}
#: What each stats answer is, for its heading.
TITLES = {"overview": "The games", "wonders": "Wonders: win rate and average score",
          "player_counts": "By number of players", "wonders_by_players": "Wonders by number of players",
          "categories": "Points by category", "cards": "Cards built", "trades": "Trade between neighbours (Wonders)",
          "neighbour_coins": "Coins paid to each neighbour", "military_tokens": "Military tokens by Age",
          "science": "Science sets"}
_RATE_COLUMNS = {"win_rate", "share", "builder_win_rate"}


class BadQuery(ValueError):
    """A filter of the address that cannot be used (a malformed date, a name too long): a 400 page says why."""


class Layout(Protocol):
    def __call__(self, title: str, body: str, *, csrf: str | None = None, status: int = 200,
                 refresh: int | None = None) -> Response: ...


def analytics_available() -> bool:
    """True when DuckDB can be imported (the stats pages and the Parquet archive)."""
    from importlib.util import find_spec

    return find_spec("duckdb") is not None


def _derived(request: Request) -> Derived:
    found: Derived = request.app.state.derived
    return found


def _player_link(name: str) -> str:
    return f'<a href="/player?name={quote(name, safe="")}"><span class="rt">{text(name)}</span></a>'


def _game_rows(rows: Sequence[GameRow]) -> str:
    """The games as the list's table (seat names linking their player pages)."""
    lines = []
    for g in rows:
        flag = f' <span class="bad">({g.errors} finding{"s" if g.errors != 1 else ""})</span>' if g.errors else ""
        winners = " and ".join(g.winners)
        link = text(g.event + ": " if g.event else "") + (text(winners) if winners else "unfinished")
        seats = "<br>".join(f"{_player_link(name)} ({text(wonder)} {text(side)})" for name, wonder, side in g.seats)
        totals = " – ".join(str(t) for t in g.totals) or "–"
        lines.append(f'<tr><td data-h="game"><a href="/games/{g.id}" class="rt">{link}</a>{flag} '
                     f'<a href="/games/{g.id}.7wn">7WN</a></td><td data-h="date">{text(g.date or "unknown")}</td>'
                     f'<td data-h="players">{seats}</td><td data-h="scores">{totals}</td></tr>')
    return ('<table class="games"><thead><tr><th scope="col">game (event: winner)</th><th scope="col">date</th>'
            '<th scope="col">players (Wonders, seat order)</th><th scope="col">scores (seat order)</th></tr>'
            "</thead>\n<tbody>\n" + "\n".join(lines) + "\n</tbody></table>\n")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _field(request: Request, name: str) -> str | None:
    value = request.query_params.get(name)
    value = None if value is None else " ".join(value.split())
    if value is not None and len(value) > 200:
        raise BadQuery(f"the {name} asked for is too long")
    return value or None


def _date(request: Request, name: str) -> date | None:
    value = _field(request, name)
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise BadQuery(f"{value!r} is not a date (YYYY-MM-DD)") from None


def _game_filter(request: Request) -> GameFilter:
    return GameFilter(player=_field(request, "player"), wonder=_field(request, "wonder"),
                      event=_field(request, "event"), date_from=_date(request, "from"), date_to=_date(request, "to"))


def _text_input(label: str, name: str, value: str | None, options: Sequence[str] = (), kind: str = "text") -> str:
    listed = f' list="{name}-choices"' if options else ""
    choices = (f'<datalist id="{name}-choices">' + "".join(f'<option value="{text(o)}">' for o in options)
               + "</datalist>") if options else ""
    return (f'<label>{label} <input type="{kind}" name="{name}" value="{text(value or "")}" maxlength="200"'
            f"{listed}></label>{choices} ")


def _downloads() -> str:
    parquet = (' · <a href="/archive.zip">the Parquet archive</a> (a zip: <code>wnotation stats archive/</code> '
               "reads it)") if analytics_available() else f' · <span class="note">{text(ANALYTICS_MISSING)}.</span>'
    return f'<p>Download every game: <a href="/games.7wn">one 7WN file</a>{parquet}</p>\n'


def _browse(request: Request, layout: Layout, csrf: str | None) -> Response:
    wanted = _game_filter(request)
    derived = _derived(request)
    keep = derived.game_ids(wanted)
    rows = derived.store.games_among(keep)
    choices = derived.choices()
    form = ('<form method="get" action="/browse"><p>'
            + _text_input("Player", "player", wanted.player, choices["player"])
            + _text_input("Wonder", "wonder", wanted.wonder, choices["wonder"])
            + _text_input("Event", "event", wanted.event, choices["event"])
            + _text_input("From", "from", None if wanted.date_from is None else wanted.date_from.isoformat(),
                          kind="date")
            + _text_input("to", "to", None if wanted.date_to is None else wanted.date_to.isoformat(), kind="date")
            + '<button type="submit">Show</button></p></form>\n')
    said = "every game" if wanted.empty else "the games kept by the filters"
    body = (f'<header><h1>Find games</h1><p>{_count(len(rows), "game")}: {said}, newest first. A player and a '
            "Wonder together: that player with that Wonder. Dates: games whose whole date is known. "
            '<a href="/players">Every player</a> · <a href="/stats">the stats</a>'
            + (' · <a href="/browse">all games</a>' if not wanted.empty else "") + "</p></header>\n<main>\n"
            + form + _game_rows(rows) + _downloads() + "</main>\n")
    return layout("Find games", body, csrf=csrf)


def _average(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def _players(request: Request, layout: Layout, csrf: str | None) -> Response:
    found = _derived(request).players()
    rows = "".join(f'<tr><td data-h="player">{_player_link(p.name)}</td><td data-h="games">{p.games}</td>'
                   f'<td data-h="wins">{p.wins}</td><td data-h="average">{_average(p.average)}</td></tr>'
                   for p in found)
    body = (f'<header><h1>Players</h1><p>{_count(len(found), "player")}, most games first; the average is over '
            "their complete games.</p></header>\n<main>\n"
            '<table class="games"><thead><tr><th scope="col">player</th><th scope="col">games</th>'
            '<th scope="col">wins</th><th scope="col">average points</th></tr></thead>\n<tbody>'
            f"{rows}</tbody></table>\n</main>\n")
    return layout("Players", body, csrf=csrf)


def _wonder_rows(p: PlayerSummary) -> str:
    return "".join(f'<tr><td data-h="Wonder">{text(w)} {text(side)}</td><td data-h="games">{n}</td>'
                   f'<td data-h="wins">{wins}</td><td data-h="average">{_average(avg)}</td></tr>'
                   for w, side, n, wins, avg in p.wonders)


def _player(request: Request, layout: Layout, csrf: str | None) -> Response:
    name = _field(request, "name")
    derived = _derived(request)
    found = None if name is None else derived.player(name)
    if found is None or name is None:
        raise HTTPException(404, "no stored game seats that player")
    keep = derived.game_ids(GameFilter(player=name))
    games = derived.store.games_among(keep)
    chart = bar_chart(f"{name}: games by Wonder", [((w, side), n) for w, side, n, _, _ in found.wonders])
    body = (f'<header><p><a href="/players">\u2190 Players</a></p><h1 class="rt">{text(found.name)}</h1>'
            f"</header>\n<main>\n<p>{_count(found.games, 'game')} ({found.complete} complete), "
            f"{_count(found.wins, 'win')}, average points {_average(found.average)}.</p>\n"
            f"<h2>Wonders</h2>{chart}\n"
            '<table class="games"><thead><tr><th scope="col">Wonder</th><th scope="col">games</th>'
            f'<th scope="col">wins</th><th scope="col">average points</th></tr></thead>\n<tbody>{_wonder_rows(found)}'
            f"</tbody></table>\n<h2>Games, newest first</h2>\n{_game_rows(games)}</main>\n")
    return layout(found.name, body, csrf=csrf)


def _cell(column: str, value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, (float, Decimal)) and column in _RATE_COLUMNS:
        return f"{float(value) * 100:.1f}%"
    if isinstance(value, (float, Decimal)):
        return f"{float(value):g}"
    return text(str(value))


def _report_section(report: Any, link: bool) -> str:
    title = TITLES.get(report.name, report.name)
    heading = (f'<h2><a href="/stats/{report.name}">{text(title)}</a></h2>' if link
               else f"<h1>{text(title)}</h1>")
    if report.name == "overview" and report.rows:
        row = report.rows[0]
        return heading + "<p>" + ", ".join(f"{_cell(c, v)} {text(c.replace('_', ' '))}"
                                          for c, v in zip(report.columns, row)) + ".</p>\n"
    chart = ""
    if report.name in CHARTS and report.rows:
        column, labels, rate = CHARTS[report.name]
        at = report.columns.index(column)
        named = [report.columns.index(c) for c in labels]
        chart = bar_chart(f"{title} ({column.replace('_', ' ')})", [(tuple(row[k] for k in named), None if row[at] is None else float(row[at]))
                                  for row in report.rows], rate=rate)
    head = "".join(f'<th scope="col">{text(c.replace("_", " "))}</th>' for c in report.columns)
    rows = "".join("<tr>" + "".join(f'<td data-h="{text(c.replace("_", " "))}">{_cell(c, v)}</td>' for c, v in zip(report.columns, row))
                   + "</tr>" for row in report.rows)
    table = (f'<table class="games"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
             if report.rows else "<p>No games to count.</p>")
    return f"{heading}{chart}\n{table}\n"


def _stats_filters(request: Request) -> Any:
    from ..archive.stats import Filters

    players = _field(request, "players")
    if players is not None and not (players.isdigit() and 3 <= int(players) <= 7):
        raise BadQuery("players is a number of players, 3 to 7")
    return Filters(players=None if players is None else int(players), event=_field(request, "event"),
                   date_from=_date(request, "from"), date_to=_date(request, "to"))


def _stats(request: Request, layout: Layout, csrf: str | None) -> Response:
    """Every stats answer (``/stats``) or one (``/stats/NAME``)."""
    from ..archive.stats import QUERIES

    name: str | None = request.path_params.get("name")

    if name is not None and name not in QUERIES:
        raise HTTPException(404, "there is no such stats page")
    if not analytics_available():
        return layout("Stats", f'<h1>Stats</h1><p class="note">{text(ANALYTICS_MISSING)}.</p>\n', csrf=csrf)
    filters = _stats_filters(request)
    derived = _derived(request)
    names = [name] if name is not None else list(QUERIES)
    reports = derived.reports(filters, names)
    events = derived.choices()["event"]
    action = "/stats" if name is None else f"/stats/{name}"
    form = (f'<form method="get" action="{action}"><p>'
            + _text_input("Players", "players", None if filters.players is None else str(filters.players),
                          kind="number")
            + _text_input("Event", "event", filters.event, events)
            + _text_input("From", "from", None if filters.date_from is None else filters.date_from.isoformat(),
                          kind="date")
            + _text_input("to", "to", None if filters.date_to is None else filters.date_to.isoformat(), kind="date")
            + '<button type="submit">Show</button></p></form>\n')
    query = {k: v for k, v in (("players", filters.players), ("event", filters.event),
                               ("from", filters.date_from), ("to", filters.date_to)) if v is not None}
    back = f'<p><a href="/stats?{text(urlencode(query, quote_via=quote))}">\u2190 All the stats</a></p>' if name else ""
    intro = ("<header><h1>Stats</h1><p>The answers of <code>wnotation stats</code> over the club's games "
             "(complete games; a shared victory is a win for each winner).</p></header>\n") if name is None else ""
    sections = "".join(_report_section(r, name is None) for r in reports)
    return layout("Stats", f"{intro}<main>\n{back}{form}{sections}{_downloads()}</main>\n", csrf=csrf)


def browse_routes(layout: Layout, csrf_of: Callable[[Request], str | None]) -> list[Route]:
    """The browsing routes, each page made with the application's ``layout`` and session check ``csrf_of``."""

    def page(make: Callable[[Request, Layout, str | None], Response]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            csrf = csrf_of(request)
            try:
                return await run_in_threadpool(make, request, layout, csrf)
            except BadQuery as bad:
                return layout("Not understood", f'<h1>Not understood</h1><p class="bad">{text(str(bad))}.</p>\n',
                              csrf=csrf, status=400)
        return endpoint

    async def archive_zip(request: Request) -> Response:
        if not analytics_available():
            raise HTTPException(404, ANALYTICS_MISSING)
        _, zipped, _ = await run_in_threadpool(_derived(request).parquet)
        return FileResponse(zipped, media_type="application/zip", filename=ARCHIVE_ZIP)

    return [Route("/browse", page(_browse)), Route("/players", page(_players)), Route("/player", page(_player)),
            Route("/stats", page(_stats)), Route("/stats/{name}", page(_stats)),
            Route("/archive.zip", archive_zip)]
