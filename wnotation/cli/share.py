"""``wnotation html`` and ``wnotation sheet``: a game as a self-contained viewer page, a folder of records as a
club site, a score sheet or points-by-Age chart as an SVG picture. Thin: the pages and pictures are
:mod:`wnotation.viewer`'s; this module reads the inputs, reports findings on stderr and writes atomically."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import completion
from .errors import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UserError, worst
from .inputs import RECORD_PATH, STDIN, STDIN_NAME, choose_game, expand, read, replayed, seat_number
from .output import colour_option, count, echo, emit_data, err

if TYPE_CHECKING:
    from ..engine import Replay
    from ..model.record import Record

#: ``html --analyse``'s playouts a position by default, and at most: a page is made in seconds, not hours.
PAGE_PLAYOUTS, MAX_PLAYOUTS = 50, 2000

HTML_EPILOG = """\b
One game becomes one HTML file that needs nothing else: open it from disk, send it, put it on
any web server. It makes no network request; the positions, scores and findings are computed
here and embedded. A record with findings still gets its page, its findings marked at their
turn (exit 1). With a directory (or several files, or -o naming a folder), every game becomes a
page of a small static site in that folder, with an index.html of the games.

\b
Examples:
  wnotation html replays/7p-all-wonders.7wn -o game.html
  wnotation html club-night.7wn --game 3 --view Marta -o marta.html
  wnotation html replays/ -o site/
  wnotation html replays/4p-alexandria-ephesos-gizah-rhodos.7wn --analyse --playouts 40 -o game.html

\b
With --analyse the game is analysed first, as `wnotation analyse --annotate` does: each seat's
chance to win after every turn (--playouts N a position, --seed S), and with --marks each
action's class against the best alternative of its turn (about ten times slower). The page
then draws the win-chance graph, shows the estimate beside the board and the computed marks in
the log, and embeds the annotated record. A record that already carries [%win] tags gets its
graph without --analyse."""

SHEET_EPILOG = """\b
The picture is a standalone SVG (no script, no external reference, same bytes for the same game):
the score pad, or with --chart the points each seat earned in each Age. With --at, the
provisional sheet as if the game ended at that position.

\b
Examples:
  wnotation sheet replays/7p-all-wonders.7wn -o sheet.svg
  wnotation sheet game.7wn --at II.3 -o at-II.3.svg
  wnotation sheet game.7wn --chart -o ages.svg
  wnotation sheet game.7wn --png -o sheet.png"""


@click.command(epilog=HTML_EPILOG, short_help="Write a game as one self-contained HTML viewer page (or a site).")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", type=RECORD_PATH)
@click.option("-o", "--output", "output", metavar="FILE", help="The page to write (default: standard output); "
              "a folder (existing, or ending in /) for a site.")
@click.option("--game", type=click.IntRange(min=1), default=None, metavar="N",
              help="Which game of the file (1 first; default: the first, with a note when there are several).")
@click.option("--view", "view", metavar="SEAT", shell_complete=completion.seat,
              help="Show the game as this seat saw it (a name or a number): other hands and hidden cards unknown, "
              "and no comments or glyphs (they can name hidden cards).")
@click.option("--keep-comments", is_flag=True, help="With --view: keep the annotator's comments and glyphs (the "
              "page then warns that they may reveal what the seat did not see).")
@click.option("--club", metavar="NAME", default="Games", show_default=True,
              help="A site's name: the heading of its index and of every page's link back to it.")
@click.option("--analyse", "--analyze", "analyse", is_flag=True,
              help="Estimate each seat's chance to win after every turn first, and draw it as a graph.")
@click.option("--playouts", type=click.IntRange(1, MAX_PLAYOUTS), default=None, metavar="N",
              help=f"With --analyse: playouts per position (default {PAGE_PLAYOUTS}, at most {MAX_PLAYOUTS}).")
@click.option("--seed", type=click.IntRange(0, (1 << 64) - 1), default=None, metavar="S",
              help="With --analyse: the seed of the playouts' generators (default 0).")
@click.option("--marks", "with_marks", is_flag=True,
              help="With --analyse: also class each action against the best alternative of its turn (slow).")
@colour_option
def html(paths: tuple[str, ...], output: str | None, game: int | None, view: str | None,
         keep_comments: bool, club: str, analyse: bool, playouts: int | None, seed: int | None,
         with_marks: bool) -> int:
    """Write game N of PATH (- for stdin) as one self-contained HTML page, or every game of the PATHs as a site.

    The page shows every position: each city, the turn's actions and trades, the commentary, the provisional
    score and points by Age, the findings; keyboard (arrows, Home, End), deep links (game.html#II.3) and a
    "download .7wn" button.
    """
    site = len(paths) > 1 or any(p != STDIN and os.path.isdir(p) for p in paths) or _names_folder(output)
    if keep_comments and view is None:
        raise click.UsageError("--keep-comments applies to a seat's view: give --view SEAT too")
    if not analyse and (playouts is not None or seed is not None or with_marks):
        raise click.UsageError("--playouts, --seed and --marks apply to --analyse: give --analyse too")
    if analyse and site:
        raise click.UsageError("--analyse makes one game's page; for a site, annotate each record first "
                               "(wnotation analyse FILE --annotate)")
    if analyse and view is not None and not keep_comments:
        raise click.UsageError("a seat's view leaves out the annotations, and the estimates with them: give "
                               "--keep-comments too (the estimates are computed from every hand)")
    if not site:
        plan = (playouts or PAGE_PLAYOUTS, seed or 0, with_marks) if analyse else None
        return _page(paths[0], output, game, view, keep_comments, plan)
    if output is None:
        raise click.UsageError("a site is written to a folder: give -o FOLDER")
    if STDIN in paths:
        raise click.UsageError("a site is built from files and folders, not '-' (stdin)")
    if game is not None:
        raise click.UsageError("--game chooses one game of a file; a site has a page for every game")
    if view is not None and not view.lstrip("#").isdigit():
        raise click.UsageError("a site's --view is a seat number (seat names differ from game to game)")
    return _site(paths, output, int(view.lstrip("#")) if view is not None else None, keep_comments, club)


def _names_folder(output: str | None) -> bool:
    return output is not None and (output.endswith(("/", os.sep)) or os.path.isdir(output))


def _page(path: str, output: str | None, game: int | None, view: str | None, keep_comments: bool = False,
          plan: tuple[int, int, bool] | None = None) -> int:
    from ..diagnostics import game_pieces, normalise, source_lines
    from ..notation import NotationError, read_games
    from ..viewer import page

    text, source = read(path)
    text = normalise(text)
    game = choose_game(text, source, game)
    games = list(read_games(text, source=source))
    if not 1 <= game <= len(games):
        have = "no game" if not games else count(len(games), "game")
        raise UserError(f"{source} has {have}; there is no game {game}")
    record = games[game - 1]
    if isinstance(record, NotationError):
        raise record  # compiler-style, exit 2: there is no Record to show
    seat = seat_number(record, view) if view is not None else None
    played, code = replayed(record, source_lines(text), source)
    pieces = game_pieces(text, 1)
    piece, line0 = pieces[game - 1] if len(pieces) == len(games) else (None, 0)
    if plan is not None:  # the annotated record is the one shown and embedded, as its own canonical text
        record, piece, line0 = _analysed(record, played, *plan), None, 0
    stem = "game" if source == STDIN_NAME else Path(source).stem
    name = f"{stem}-{game}" if len(games) > 1 else stem
    document = page(record, played, view_seat=seat, source=piece, line0=line0, download_name=name,
                    keep_comments=keep_comments)
    _emit(document, output, f"the page of game {game} of {source}")
    return code


def _analysed(record: Record, played: Replay, playouts: int, seed: int, with_marks: bool) -> Record:
    """``record`` with the computed tags ``wnotation analyse --annotate`` writes (spec/7wn.md §8.4), with a
    progress bar on a terminal."""
    from ..analysis import Mark, analyse, annotate, marks
    from ..analysis.winchance import boundaries
    from .progress import Progress

    with Progress("analysing", len(boundaries(played))) as bar:
        found = analyse(record, playouts, seed, 1, lambda _: bar.advance(), played)
    marked: tuple[Mark, ...] = ()
    if with_marks:
        with Progress("marking turns", len(record.turns)) as bar:
            marked = marks(record, playouts, seed, lambda k, n: bar.advance())
    return annotate(record, found, marked)


def _site(paths: tuple[str, ...], output: str, view: int | None, keep_comments: bool = False,
          club: str = "Games") -> int:
    from ..viewer import build_site

    expand(paths)  # a missing path, or a folder without any .7wn file, is a usage error before anything is written
    try:
        report = build_site(paths, output, view_seat=view, keep_comments=keep_comments, club=club)
    except OSError as exc:
        raise UserError(f"cannot write {exc.filename or output}: {(exc.strerror or str(exc)).lower()}") from None
    codes = [EXIT_OK]
    for source, reason in report.unreadable:
        err(f"error: cannot read {source}: {reason}")
        codes.append(EXIT_USAGE)
    for g in report.games:
        if g.page is None:
            err(g.error or f"{g.source}: game {g.number} cannot be read")
            codes.append(EXIT_FINDINGS)
        elif g.errors:
            err(f"{g.source}: game {g.number}: {count(g.errors, 'error finding')}, marked in {g.page}")
            codes.append(EXIT_FINDINGS)
    if not report.games and not report.unreadable:
        err("error: no game in the inputs")
        codes.append(EXIT_FINDINGS)
    echo(f"wrote {count(report.pages, 'page')} and index.html to {report.out}")
    return worst(codes)


def _emit(content: str, output: str | None, what: str) -> None:
    """``content`` to standard output, or atomically to the file ``output`` (a temporary file beside it, then a
    rename: a reader never sees half a page, and a failed write leaves the old file)."""
    if output is None or output == "-":
        emit_data(content, what)
        return
    _write(content, output)


def _write(content: str | bytes, output: str) -> None:
    """``content`` written atomically to the file ``output``, a failure one usage error naming it."""
    from ..viewer.site import write_inside

    target = Path(output)
    try:
        write_inside(target.parent if str(target.parent) else Path("."), target.name, content)
    except OSError as exc:
        raise UserError(f"cannot write {output}: {(exc.strerror or str(exc)).lower()}") from None
    except ValueError as exc:
        raise UserError(str(exc)) from None


@click.command(epilog=SHEET_EPILOG, short_help="Write a game's score sheet (or points-by-Age chart) as SVG.")
@click.argument("file", type=RECORD_PATH)
@click.option("-o", "--output", "output", metavar="FILE", help="The SVG file to write (default: standard output).")
@click.option("--at", "where", metavar="ADDRESS", shell_complete=completion.address,
              help="The position to score, e.g. II.3 (default: the last one; the final sheet of a finished game).")
@click.option("--game", type=click.IntRange(min=1), default=None, metavar="N",
              help="Which game of the file (1 first; default: the first, with a note when there are several).")
@click.option("--chart", is_flag=True, help="The points each seat earned in each Age, as a bar chart.")
@click.option("--png", is_flag=True, help="A PNG picture instead (for forums and chat apps), with a title line: "
              "event, date, players, winner. Needs the png extra: pip install 'wnotation[png]'.")
@colour_option
def sheet(file: str, output: str | None, where: str | None, game: int | None, chart: bool,
          png: bool) -> int:
    """Replay game N of FILE (- for stdin) and write its score sheet, or its points by Age, as an SVG picture
    (or, with --png, a PNG one)."""
    from ..formats.render import canonical_address
    from ..viewer import chart_svg, sheet_svg
    from ..viewer.svg import picture_title, to_png
    from .inputs import one_game

    if png:
        try:
            import resvg_py  # noqa: F401
        except ImportError:
            raise UserError("sheet --png needs resvg-py: pip install 'wnotation[png]'") from None
        if output is None and sys.stdout.isatty():
            raise click.UsageError("a PNG is not for a terminal: give -o FILE.png (or pipe it)")

    record, lines, source, game = one_game(file, game)
    played, code = replayed(record, lines, source)
    pad = played.final is None and played.scores is not None and where is None and not chart  # a score pad
    if played.final is None and not pad:
        raise UserError(f"game {game} of {source} has no turn: there is no position to score")
    title = picture_title(record, played) if png else None
    try:
        at = canonical_address(where) if where is not None else None
        if pad:
            picture = sheet_svg(played, record=record, title=title)
        elif chart:
            picture = chart_svg(played, at, title=title)
        else:
            picture = sheet_svg(played, at, title=title)
    except KeyError as exc:
        raise UserError(str(exc.args[0])) from None
    if png:
        _emit_bytes(to_png(picture), output)
    else:
        _emit(picture, output, f"the picture of game {game} of {source}")
    return code


def _emit_bytes(content: bytes, output: str | None) -> None:
    """:func:`_emit` for a binary picture: to standard output's bytes, or atomically to ``output``."""
    if output is None or output == "-":
        stream = sys.stdout.buffer
        stream.write(content)
        stream.flush()
        return
    _write(content, output)


COMMANDS = (html, sheet)
