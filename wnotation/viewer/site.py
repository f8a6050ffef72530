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
from ..record import Record
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
    players: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    totals: tuple[int, ...] = ()


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
               view_seat: int | None = None, keep_comments: bool = False) -> SiteReport:
    """Write a viewer page for every game of ``inputs`` (files or directories of ``*.7wn``) and ``index.html``
    into the folder ``out`` (created if missing). A game that cannot be read gets an index row with the reason
    and no page; a file that cannot be read at all (missing, not UTF-8) is listed in the report. ``view_seat``
    shows every game as that seat number saw it (a game with fewer seats is shown whole). Each page embeds its
    game's own text (``keep_comments``: as :func:`wnotation.viewer.page`'s). Returns the :class:`SiteReport`. Cost: one replay and one page per game, one file's text and
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
        pieces = game_pieces(text, 1)
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
                                             keep_comments=keep_comments))
            sheet = played.scores
            report.games.append(SiteGame(
                str(path), number, name,
                errors=sum(1 for f in played.findings if f.severity == "error"),
                date=game.date or "", event=game.tag("Event") or "",
                players=tuple(f"{s.name} ({s.wonder} {s.side})" for s in game.seats),
                winners=tuple(game.seats[s - 1].name for s in sheet.winners()) if sheet is not None else (),
                totals=tuple(line.total for line in sheet.lines) if sheet is not None else (),
            ))
    write_inside(out_dir, "index.html", index_page(report))
    return report


def index_page(report: SiteReport) -> str:
    """The site's index: a table of every game (date, event, players and Wonders, winner, scores), linking each
    page. No script at all; its policy allows none."""
    rows = []
    for g in report.games:
        if g.page is None:
            rows.append(f'<tr class="bad"><td>{text(Path(g.source).name)} #{g.number}</td>'
                        f'<td colspan="5">cannot be read: <span class="rt">{text(g.error or "")}</span></td></tr>')
            continue
        link = f'<a href="{text(g.page)}">{text(g.page.removesuffix(".html"))}</a>'
        flag = f' <span class="bad">({g.errors} finding{"s" if g.errors != 1 else ""})</span>' if g.errors else ""
        players = "<br>".join(f'<span class="rt">{text(p)}</span>' for p in g.players)
        winners = ", ".join(f'<span class="rt">{text(w)}</span>' for w in g.winners) or "unfinished"
        totals = " – ".join(str(t) for t in g.totals) or "–"
        rows.append(f"<tr><td>{link}{flag}</td><td>{text(g.date)}</td><td class=\"rt\">{text(g.event)}</td>"
                    f"<td>{players}</td><td>{winners}</td><td>{totals}</td></tr>")
    for source, reason in report.unreadable:
        rows.append(f'<tr class="bad"><td>{text(Path(source).name)}</td><td colspan="5">cannot be read: '
                    f"{text(reason)}</td></tr>")
    count = f"{report.pages} game{'s' if report.pages != 1 else ''}"
    body = (f"<header><h1>Games</h1><p>{count}, each viewable offline in its own page.</p></header>\n<main>\n"
            '<table class="games"><thead><tr><th scope="col">game</th><th scope="col">date</th>'
            '<th scope="col">event</th><th scope="col">players (Wonders, seat order)</th>'
            '<th scope="col">winner</th><th scope="col">scores (seat order)</th></tr></thead>\n<tbody>\n'
            + "\n".join(rows) + "\n</tbody></table>\n</main>\n")
    return document("Games", body, style=asset("index.css"))
