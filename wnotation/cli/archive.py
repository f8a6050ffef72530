"""``wnotation export`` and ``wnotation stats``: archives as Parquet or DuckDB, and the standard questions asked
of them. Thin: the work is :mod:`wnotation.archive`'s (DuckDB and Dask are optional extras, imported only here
when a command runs)."""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import TYPE_CHECKING, Any

import click

from .errors import EXIT_FINDINGS, EXIT_OK, UserError
from .inputs import RECORD_PATH, STDIN, STDIN_NAME, expand
from .output import echo, emit_data
from .progress import Progress, games_in

EXPORT_EPILOG = """\b
The archive's tables (games, seats, plays, military, findings, cards) and its manifest
are documented in spec/archive.md (schema 2). All or nothing: DIR is written beside its
place and moved there at the end, manifest.json last (an earlier archive stays readable
until then); the DuckDB file in one transaction. Broken games and unreadable inputs are
rows too (games.readable false, their errors in findings); the summary line counts them
and the games that break the rules, as check's does. A game that comes again is
exported once. Exit codes: 0 every game exported clean, 1 some input or game has an
error (it is in the tables), 2 usage error, an output that cannot be written, a lost
Dask scheduler.

\b
Examples:
  wnotation export replays/ -o archive/
  wnotation export games.7wn -o archive/ --duckdb games.duckdb --jobs 2
  wnotation export big/ -o /shared/archive --scheduler tcp://10.0.0.5:8786"""


def _inputs(found: list[str]) -> list[Any]:
    """The inputs of :func:`~wnotation.archive.export.export` for the expanded paths ``found``: standard input
    read here, as ``(name, text)``."""
    from ..diagnostics import stdin_text

    return [(STDIN_NAME, stdin_text()) if p == STDIN else p for p in found]


def archive_errors() -> tuple[type[Exception], ...]:
    """The exceptions an archive command turns into one ``error:`` line (imported only when a command runs)."""
    from ..archive.store import ArchiveError

    return (ArchiveError,)


def archive_sources(paths: tuple[str, ...]) -> tuple[list[str], list[Any]]:
    """What ``stats`` and ``explore`` read: ``(found, sources)``, the archives themselves when every path is one
    (``found`` empty: nothing to count), else every 7WN input expanded (``found``, for the progress bar) with
    standard input read here."""
    if any(p == STDIN for p in paths) or not all(_is_archive(p) for p in paths):
        found = expand(paths)
        return found, _inputs(found)
    return [], list(paths)


@click.command(epilog=EXPORT_EPILOG, short_help="Export records as an archive: Parquet tables or a DuckDB file.")
@click.argument("paths", nargs=-1, required=True, metavar="SRC...", type=RECORD_PATH)
@click.option("--output", "-o", "out", metavar="DIR", type=click.Path(file_okay=False),
              help="Write the Parquet tables into DIR (created; an earlier archive there is replaced whole, at the end).")
@click.option("--duckdb", "duckdb_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Also (or only) write the tables into the DuckDB file FILE (tables of those names replaced).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, metavar="N",
              help="Export in N worker processes (0: one per CPU). The files are the same whatever N is.")
@click.option("--hands", is_flag=True, help="Also write the hands table: what each seat held at each turn, where "
              "the record knows it (about half as much time again).")
@click.option("--scheduler", metavar="ADDRESS", help="Run the pieces on the Dask cluster whose scheduler is at "
              "ADDRESS (tcp://host:8786); its workers need wnotation and DIR at the same path.")
def export(paths: tuple[str, ...], out: str | None, duckdb_file: str | None, jobs: int, hands: bool,
           scheduler: str | None) -> int:
    """Export 7WN records as an archive for SQL: one row per game, seat, play, military conflict and finding.

    SRC is a .7wn file, a directory (searched recursively for *.7wn files) or - for standard input. Needs
    DuckDB: pip install 'wnotation[analytics]' (and 'wnotation[cluster]' for --scheduler).
    """
    from ..archive.export import export as run_export
    from ..support.gcpolicy import batch_collection

    if out is None and duckdb_file is None:
        raise click.UsageError("give an output: -o DIR, --duckdb FILE or both")
    found = expand(paths)
    inputs = _inputs(found)
    try:
        with batch_collection(), Progress("exporting", lambda: games_in(found)) as progress:
            # forked --jobs workers inherit the collector policy, as check's do
            summary = run_export(inputs, out, duckdb_file=duckdb_file, jobs=jobs, scheduler=scheduler,
                                 progress=progress.advance, hands=hands)
    except archive_errors() as exc:
        raise UserError(str(exc)) from None
    echo(str(summary))
    return EXIT_FINDINGS if summary.problems else EXIT_OK


STATS_EPILOG = """\b
The queries are SQL files in the package (wnotation/archive/sql/*.sql): read them to see
exactly what a figure means, or start your own from them with duckdb. Win rates count a
shared victory as a win for each winner. Dates filter games.played_on (games with an
unknown date drop out once --from or --to is given).

\b
Examples:
  wnotation stats replays/
  wnotation stats archive/ --players 4 --json
  wnotation stats archive/ --report wonders --report cards
  wnotation stats games.duckdb --player Ada --from 2026-01-01"""


#: The reports --report names (the query files of wnotation/archive/sql/, picked_games aside).
REPORTS = ("overview", "wonders", "player_counts", "wonders_by_players", "categories", "cards", "trades",
           "neighbour_coins", "military_tokens", "science", "player", "player_games")
PLAYER_REPORTS = ("player", "player_games")


if TYPE_CHECKING:  # generic from click 8.4 on; pyproject allows 8.1, whose ParamType takes no parameter
    _DateParam = click.ParamType[date]
else:
    _DateParam = click.ParamType


class DateType(_DateParam):
    name = "DATE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> date:
        if isinstance(value, date):
            return value
        text = str(value).replace(".", "-")
        try:
            return date.fromisoformat(text)
        except ValueError:
            self.fail(f"{value!r} is not a date: write YYYY-MM-DD (or YYYY.MM.DD)", param, ctx)


@click.command(epilog=STATS_EPILOG, short_help="Win rates, scores, cards and trades of an archive.")
@click.argument("paths", nargs=-1, required=True, metavar="SRC...", type=RECORD_PATH)
@click.option("--player", metavar="NAME", help="One player's record across games instead (the seat name).")
@click.option("--players", type=click.IntRange(3, 7), metavar="N", help="Only games of N players.")
@click.option("--event", metavar="E", help="Only games whose Event tag is E.")
@click.option("--from", "date_from", type=DateType(), help="Only games played on or after this date.")
@click.option("--to", "date_to", type=DateType(), help="Only games played on or before this date.")
@click.option("--age", type=click.IntRange(1, 3), metavar="N", help="The cards report: only the cards of Age N "
              "(Age I's and Age II's cards of one name are two rows in any case).")
@click.option("--report", "only", multiple=True, metavar="NAME", type=click.Choice(REPORTS),
              help=f"Only this report (repeatable): {', '.join(REPORTS)}.")
@click.option("--json", "as_json", is_flag=True, help="Print every report as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print every report as CSV (a line with the report's name "
              "before each).")
def stats(paths: tuple[str, ...], player: str | None, players: int | None, event: str | None,
          date_from: date | None, date_to: date | None, age: int | None, only: tuple[str, ...], as_json: bool,
          as_csv: bool) -> None:
    """Answer the standard questions of an archive: win rate and average score by Wonder and side and by player
    count, points per category, cards built and how they go with winning, trade flows, coins paid to each
    neighbour, military tokens, science sets; or with --player one player's record.

    SRC is an archive directory written by export, a DuckDB file written by export --duckdb, or 7WN files and
    directories (read into memory first). Needs DuckDB: pip install 'wnotation[analytics]'.
    """
    from ..archive.stats import Filters, run_stats
    from ..support.gcpolicy import batch_collection

    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    found, sources = archive_sources(paths)  # 7WN inputs are read and replayed first (a progress bar counts them)
    filters = Filters(players, event, date_from, date_to, player, age)
    if only and any((name in PLAYER_REPORTS) != (player is not None) for name in only if name != "overview"):
        raise click.UsageError("the player and player_games reports need --player, the others go without it")
    try:
        with batch_collection(), Progress("reading", lambda: games_in(found)) as progress:
            reports = run_stats(sources, filters, only or None, progress=progress.advance)
    except archive_errors() as exc:
        raise UserError(str(exc)) from None
    if as_json:
        from .output import emit_json

        emit_json({"filters": {"players": players, "event": event, "from": _iso(date_from),
                               "to": _iso(date_to), "player": player, "age": age},
                   "reports": [r.to_dict() for r in reports]})
        return
    if as_csv:
        for k, report in enumerate(reports):
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(report.columns)
            writer.writerows(report.rows)
            emit_data(("\n" if k else "") + f"# {report.name}\n" + buffer.getvalue(), f"the CSV of report {report.name}")
        return
    from .output import print_table

    for k, report in enumerate(reports):
        if k:
            echo()
        print_table(list(report.columns), [[cell_text(v) for v in row] for row in report.rows],
                    title=TITLES.get(report.name, report.name), right_align=False)


TITLES = {
    "overview": "Games",
    "wonders": "Wonders: win rate and average score",
    "player_counts": "By player count",
    "wonders_by_players": "Wonders by player count",
    "categories": "Points per category",
    "cards": "Cards built",
    "trades": "Trade flows (buyer -> seller)",
    "neighbour_coins": "Coins paid to each neighbour per seat and game",
    "military_tokens": "Military tokens by Age",
    "science": "Science sets completed",
    "player": "Player record",
    "player_games": "Player games",
}


def _is_archive(path: str) -> bool:
    from pathlib import Path

    from ..archive.stats import is_duckdb_file
    from ..archive.store import is_archive_dir

    return (Path(path).is_dir() and is_archive_dir(path)) or (Path(path).is_file() and is_duckdb_file(path))


def _iso(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def cell_text(value: Any) -> str:
    """A report's cell as a table shows it: empty for NULL, floats without trailing zeros."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"
    return str(value)


COMMANDS = (export, stats)
