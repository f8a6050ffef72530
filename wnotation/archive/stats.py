"""The standard questions asked of an archive, as SQL files in ``sql/`` (read them, copy them, start your own
from them) run by DuckDB on an archive: a Parquet directory, a DuckDB file, or 7WN files exported into memory.

Every filter value is a bound named parameter (``$players``, ``$event``, ``$date_from``, ``$date_to``,
``$player``, ``$age``); SQL text comes from the package only. :func:`run_stats` returns plain data (a report per query:
its columns and rows), which the CLI renders as tables, JSON or CSV.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence

from .store import ArchiveError, duckdb, insert_all, is_archive_dir, read_parquet_tables

__all__ = ["QUERIES", "Filters", "Report", "connect", "query_text", "run_query", "run_stats"]

#: The standard report's queries, in the order they are shown; ``player`` reports replace them with --player.
QUERIES = ("overview", "wonders", "player_counts", "wonders_by_players", "categories", "cards", "trades",
           "neighbour_coins", "military_tokens", "science")
PLAYER_QUERIES = ("overview", "player", "player_games")


def query_text(name: str) -> str:
    """The SQL of query ``name`` (a file ``sql/NAME.sql`` of the package)."""
    if not name.replace("_", "").isalnum():
        raise KeyError(name)
    try:
        return resources.files(__package__).joinpath("sql", f"{name}.sql").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise KeyError(f"no query {name!r}") from None


@dataclass(frozen=True, slots=True)
class Filters:
    """Which games a stats run looks at (``None``: no filter) and whose record ``player`` asks for."""

    players: int | None = None
    event: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    player: str | None = None
    age: int | None = None  # the cards report: only the cards of this Age (1, 2, 3)

    def parameters(self, sql: str) -> dict[str, Any]:
        """The named parameters ``sql`` uses, with their values (DuckDB refuses unused ones)."""
        values = {"players": self.players, "event": self.event, "date_from": self.date_from,
                  "date_to": self.date_to, "age": self.age,
                  "player": None if self.player is None else unicodedata.normalize("NFC", self.player)}
        used = set(re.findall(r"\$([a-z_]+)", sql))
        return {k: v for k, v in values.items() if k in used}


@dataclass(frozen=True, slots=True)
class Report:
    """One query's answer: its name, column names and rows (plain Python values)."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "columns": list(self.columns),
                "rows": [dict(zip(self.columns, (_plain(v) for v in row))) for row in self.rows]}


def _plain(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    return value


def connect(sources: Sequence[Any], progress: Callable[[int], None] | None = None, hands: bool = False) -> Any:
    """A DuckDB connection holding the archive of ``sources``: one Parquet archive directory, one DuckDB file
    (opened read-only), or 7WN inputs (paths, or ``(source, text)`` pairs) exported into memory, ``progress``
    told the games of each piece read (as :func:`~.export.export` tells it), with the ``hands`` table's rows
    when ``hands`` is true. Raises :class:`ArchiveError` for a mix of kinds or a missing DuckDB."""
    db = duckdb()
    paths = [s for s in sources if not isinstance(s, tuple)]
    if len(sources) == 1 and paths and Path(paths[0]).is_dir() and is_archive_dir(paths[0]):
        con = db.connect()
        read_parquet_tables(con, paths[0])
        return con
    if len(sources) == 1 and paths and Path(paths[0]).is_file() and is_duckdb_file(paths[0]):
        from .manifest import read_db_manifest

        try:
            con = db.connect(os.fspath(paths[0]), read_only=True)
        except db.Error as exc:
            raise ArchiveError(f"cannot read the DuckDB file {paths[0]}: {' '.join(str(exc).split())}") from None
        try:
            read_db_manifest(con, paths[0])
        except ArchiveError:
            con.close()
            raise
        return con
    if any(Path(p).is_dir() and is_archive_dir(p) or Path(p).is_file() and is_duckdb_file(p) for p in paths):
        raise ArchiveError("give one archive (a Parquet directory or a DuckDB file) or 7WN files, not a mix")
    from .export import pieces
    from .rows import Rows, piece_rows

    con = db.connect()
    from .store import create_tables

    create_tables(con)
    scratch = _Scratch(con)
    rows = Rows()
    seen: set[int] = set()  # a game already read is left out when it comes again, as export leaves it out

    def add(part: Rows) -> None:
        ids = [row[0] for row in part.tables["games"]]
        again = {gid for gid in ids if gid in seen}
        seen.update(ids)
        rows.add(part.without(again) if again else part)

    for piece in pieces(sources, on_rows=lambda k, whole: add(whole), hands=hands):
        part = piece_rows(piece.text, piece.source, piece.input_number, piece.first_game, piece.line0, hands)
        add(part)
        if progress is not None:
            progress(part.games)
        if len(rows.tables["plays"]) > 50_000:
            scratch.flush(rows)
    from .rows import card_rows

    rows.tables["cards"] = card_rows()
    scratch.flush(rows)
    return con


class _Scratch:
    def __init__(self, con: Any) -> None:
        self.con = con

    def flush(self, rows: Any) -> None:
        insert_all(self.con, rows.tables)
        for table in rows.tables.values():
            table.clear()


def is_duckdb_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is a DuckDB database (its header names DUCK at byte 8)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(12)[8:12] == b"DUCK"
    except OSError:
        return False


def run_query(con: Any, name: str, filters: Filters) -> Report:
    """Run query ``name`` on ``con`` (where :func:`prepare` made ``picked_games``)."""
    sql = query_text(name)
    cur = con.execute(sql, filters.parameters(sql))
    names = tuple(d[0] for d in cur.description)
    return Report(name, names, tuple(cur.fetchall()))


def prepare(con: Any, filters: Filters) -> None:
    """Make the temporary table ``picked_games``: the games the filters keep."""
    sql = query_text("picked_games")
    con.execute("CREATE OR REPLACE TEMP TABLE picked_games AS " + sql, filters.parameters(sql))


def run_stats(sources: Sequence[Any], filters: Filters = Filters(), queries: Sequence[str] | None = None,
              progress: Callable[[int], None] | None = None) -> list[Report]:
    """The standard reports on the archive of ``sources`` (see :func:`connect`, which tells ``progress`` the games
    of 7WN inputs as it reads them): :data:`QUERIES`, or with ``filters.player`` the player's record
    (:data:`PLAYER_QUERIES`)."""
    con = connect(sources, progress)
    try:
        prepare(con, filters)
        chosen = queries or (PLAYER_QUERIES if filters.player is not None else QUERIES)
        return [run_query(con, name, filters) for name in chosen]
    finally:
        con.close()
