"""A directory of records as a small static site: one viewer page per game and an index, all offline.

Page names come from the input file's path (relative to the directory given) and the game's number only, made
safe; never from record text. Every file is written atomically inside the output folder, and a path that would
leave it is refused (issue 21). Non-goals: no server, no search, no assets beside the pages.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from ..diagnostics import game_pieces, normalise, read_text, unreadable_reason
from ..notation import NotationError, read_games
from ..model.record import Record
from .html import asset, document, file_name, page, text

#: Names Windows reserves for devices, with any extension: a page never gets one.
_DEVICES = re.compile(r"(?i)^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$")


@dataclass(frozen=True, slots=True)
class SiteGame:
    """One game of the site: where it came from, its page (``None`` when it could not be read) and its row."""

    source: str  # the input file, as given
    number: int  # 1-based, in file order
    page: str | None  # file name inside the output folder
    error: str | None = None  # why there is no page
    errors: int = 0  # error findings of the replay
    date: str = ""
    event: str = ""
    players: tuple[str, ...] = ()  # "name (Wonder side)", seat order
    winners: tuple[str, ...] = ()
    totals: tuple[int, ...] = ()
    names: tuple[str, ...] = ()  # the seats' names, seat order
    wonders: tuple[str, ...] = ()  # the seats' Wonders, seat order


@dataclass(slots=True)
class SiteReport:
    """What :func:`build_site` wrote: the games in input order and the files that could not be read."""

    out: Path
    games: list[SiteGame] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)

    @property
    def pages(self) -> int:
        return sum(1 for g in self.games if g.page is not None)


def record_files(inputs: Iterable[str | os.PathLike[str]]) -> list[tuple[Path, str]]:
    """Every ``*.7wn`` file of ``inputs`` (files as given, directories searched recursively, sorted), each with
    the stem its pages are named after: the path relative to the directory it was found in."""
    out = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            for found in sorted(path.rglob("*.7wn")):
                if found.is_file() and not found.name.startswith("."):
                    out.append((found, "--".join(found.relative_to(path).with_suffix("").parts)))
        else:
            out.append((path, path.stem))
    return out


def page_name(stem: str, number: int, many: bool, taken: set[str]) -> str:
    """A safe, unused file name for game ``number`` of the file named ``stem``: ``stem.html`` for a one-game
    file, ``stem-2.html`` for the second game of several; never ``index.html`` nor a device name."""
    base = file_name(stem, "game") + (f"-{number}" if many else "")
    if base.casefold() == "index" or _DEVICES.match(base):
        base = "game-" + base
    name = f"{base}.html"
    k = 2
    while name.casefold() in taken:
        name = f"{base}-{k}.html"
        k += 1
    taken.add(name.casefold())
    return name


def _file_mode() -> int:
    """The mode ``open()`` gives a new file (0o666 less the umask); ``mkstemp`` makes its files 0o600, which a
    web server could not read."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_inside(out: Path, name: str, content: str | bytes) -> Path:
    """Write ``content`` to ``out/name`` atomically: a hidden temporary file beside it (not ``*.html`` nor
    ``*.7wn``), flushed to disk, given the mode a new file gets, then renamed over ``name``, which replaces a
    link there rather than following it. Raises ``ValueError`` when ``name`` is not a plain name inside ``out``,
    ``OSError`` when the folder cannot be written (the temporary file is then removed). ``bytes`` are written as
    they are (a PNG), text as UTF-8 with ``\n`` line ends."""
    if not name or name != Path(name).name or name in (".", "..") or "\\" in name or "\x00" in name:
        raise ValueError(f"refusing to write {name!r}: not a plain file name inside {out}")
    target = out / name
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=out)
    try:
        if isinstance(content, bytes):
            with os.fdopen(fd, "wb") as raw:
                raw.write(content)
                raw.flush()
                os.fsync(raw.fileno())
        else:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, _file_mode())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return target


def build_site(inputs: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *,
               view_seat: int | None = None, keep_comments: bool = False, club: str = "Games") -> SiteReport:
    """Write a viewer page for every game of ``inputs`` (files or directories of ``*.7wn``) and ``index.html``
    into the folder ``out`` (created if missing). A game that cannot be read gets an index row with the reason
    and no page; a file that cannot be read at all (missing, not UTF-8) is listed in the report. ``view_seat``
    shows every game as that seat number saw it (a game with fewer seats is shown whole). Each page embeds its
    game's own text (``keep_comments``: as :func:`wnotation.viewer.page`'s) and a link back to the index; the
    index is headed ``club``, and each player (by name) gets a page of their games (:func:`player_pages`). Returns the :class:`SiteReport`. Cost: one replay and one page per game, one file's text and
    Records in memory at a time."""
    from ..engine import replay

    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    report = SiteReport(out_dir)
    taken: set[str] = {"index.html"}
    for path, stem in record_files(inputs):
        try:
            text = normalise(read_text(path))
        except (OSError, UnicodeDecodeError) as exc:
            report.unreadable.append((str(path), unreadable_reason(exc)))
            continue
        games = list(read_games(text, source=str(path)))
        pieces: Sequence[tuple[str | None, int]] = game_pieces(text, 1)
        if len(pieces) != len(games):  # text before the first game, or none: embed the canonical text
            pieces = [(None, 0)] * len(games)
        many = len(games) > 1
        for number, (game, (piece, line0)) in enumerate(zip(games, pieces), 1):
            name = page_name(stem, number, many, taken)
            if not isinstance(game, Record):
                message = str(game).splitlines()[0] if isinstance(game, NotationError) else str(game)
                report.games.append(SiteGame(str(path), number, None, error=message))
                continue
            played = replay(game)
            seat = view_seat if view_seat is not None and view_seat <= game.players else None
            write_inside(out_dir, name, page(game, played, view_seat=seat, source=piece, line0=line0,
                                             download_name=name.removesuffix(".html"),
                                             keep_comments=keep_comments, back=club))
            sheet = played.scores
            report.games.append(SiteGame(
                str(path), number, name,
                errors=sum(1 for f in played.findings if f.severity == "error"),
                date=game.date or "", event=game.tag("Event") or "",
                players=tuple(f"{s.name} ({s.wonder} {s.side})" for s in game.seats),
                winners=tuple(game.seats[s - 1].name for s in sheet.winners()) if sheet is not None else (),
                totals=tuple(line.total for line in sheet.lines) if sheet is not None else (),
                names=tuple(s.name for s in game.seats), wonders=tuple(s.wonder for s in game.seats),
            ))
    players = player_pages(report, club)
    for name, document_text in players.values():
        write_inside(out_dir, name, document_text)
    write_inside(out_dir, "index.html", index_page(report, club, {p: n for p, (n, _) in players.items()}))
    return report


def _newest_first(games: Sequence[SiteGame]) -> list[SiteGame]:
    """The games by date, newest first (a game without a date last), input order among equals."""
    dated = sorted((g for g in games if g.date), key=lambda g: g.date, reverse=True)
    return dated + [g for g in games if not g.date]


def _link_text(g: SiteGame) -> str:
    """What a game's link says: its event (or its players) and its winner."""
    what = g.event or ", ".join(g.names)
    if g.winners:
        return f"{what}: {' and '.join(g.winners)} {'share' if len(g.winners) > 1 else 'wins'}"
    return f"{what} (unfinished)"


def player_pages(report: SiteReport, club: str = "Games") -> dict[str, tuple[str, str]]:
    """A page for each player of the site's games, by name as written: player -> (file name, document), listing
    their games newest first with their score and place, and their games, wins, average score (of the scored
    games) and favourite Wonder (the one played most; the first played among equals). File names are
    ``player-NAME.html`` made safe and unique; never record text beyond that."""
    games: dict[str, list[tuple[SiteGame, int]]] = {}
    for g in report.games:
        if g.page is None:
            continue
        for k, name in enumerate(g.names):
            games.setdefault(name, []).append((g, k))
    taken = {"index.html"} | {g.page.casefold() for g in report.games if g.page}
    order = {id(g): k for k, g in enumerate(_newest_first(report.games))}
    out: dict[str, tuple[str, str]] = {}
    for player in sorted(games, key=str.casefold):
        played = games[player]
        file = page_name("player-" + player, 1, False, taken)
        scored = [g.totals[k] for g, k in played if g.totals]
        wins = sum(1 for g, _ in played if player in g.winners)
        counts: dict[str, int] = {}
        for g, k in played:
            counts[g.wonders[k]] = counts.get(g.wonders[k], 0) + 1
        favourite = max(counts, key=lambda w: counts[w])  # max keeps the first played among equals
        average = f"{sum(scored) / len(scored):.1f}" if scored else "none scored"
        rows = "".join(
            f'<li><a href="{text(g.page or "")}">{text(_link_text(g))}</a> '
            f"<span>{text(g.date or 'date unknown')}</span> · {text(g.wonders[k])}"
            + (f" · {g.totals[k]} points" if g.totals else "") + "</li>"
            for g, k in sorted(played, key=lambda gk: order[id(gk[0])]))
        body = (f'<header><p class="back"><a href="index.html">\u2190 {text(club)}</a></p>'
                f'<h1 class="rt">{text(player)}</h1></header>\n<main>\n<dl class="stats">'
                f"<div><dt>games</dt><dd>{len(played)}</dd></div><div><dt>wins</dt><dd>{wins}</dd></div>"
                f"<div><dt>average score</dt><dd>{average}</dd></div>"
                f"<div><dt>favourite Wonder</dt><dd>{text(favourite)} ({counts[favourite]} of {len(played)})</dd></div>"
                f'</dl>\n<h2>Games, newest first</h2><ol class="list">{rows}</ol>\n</main>\n')
        out[player] = (file, document(f"{player}: {club}", body, style=asset("index.css")))
    return out



def index_page(report: SiteReport, club: str = "Games", players: dict[str, str] | None = None) -> str:
    """The site's index, headed ``club``: every game newest first, its link saying its event and winner, with its
    date, players (each linking their page in ``players``: name -> file name) and Wonders, and scores; the games
    that cannot be read after them. No script at all; its policy allows none."""
    players = players or {}
    rows = []

    def who(name: str, wonder: str) -> str:
        shown = f'<span class="rt">{text(name)}</span> ({text(wonder)})'
        return f'<a href="{text(players[name])}">{shown}</a>' if name in players else shown

    for g in _newest_first([g for g in report.games if g.page is not None]):
        link = f'<a href="{text(g.page or "")}" class="rt">{text(_link_text(g))}</a>'
        flag = f' <span class="bad">({g.errors} finding{"s" if g.errors != 1 else ""})</span>' if g.errors else ""
        seated = "<br>".join(who(n, w) for n, w in zip(g.names, g.wonders))
        totals = " – ".join(str(t) for t in g.totals) or "–"
        rows.append(f'<tr><td data-h="game">{link}{flag}</td><td data-h="date">{text(g.date or "unknown")}</td>'
                    f'<td data-h="players">{seated}</td><td data-h="scores">{totals}</td></tr>')
    for g in report.games:
        if g.page is None:
            rows.append(f'<tr class="bad"><td>{text(Path(g.source).name)} #{g.number}</td>'
                        f'<td colspan="3">cannot be read: <span class="rt">{text(g.error or "")}</span></td></tr>')
    for source, reason in report.unreadable:
        rows.append(f'<tr class="bad"><td>{text(Path(source).name)}</td><td colspan="3">cannot be read: '
                    f"{text(reason)}</td></tr>")
    count = f"{report.pages} game{'s' if report.pages != 1 else ''}"
    body = (f'<header><h1 class="rt">{text(club)}</h1><p>{count}, newest first, each viewable offline in its own '
            "page; a player's name leads to their games.</p></header>\n<main>\n"
            '<table class="games"><thead><tr><th scope="col">game (event: winner)</th><th scope="col">date</th>'
            '<th scope="col">players (Wonders, seat order)</th><th scope="col">scores (seat order)</th></tr>'
            "</thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody></table>\n</main>\n")
    return document(club, body, style=asset("index.css"))
