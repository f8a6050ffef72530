"""The archive's tables derived from the club's stored texts: never the source of truth, rebuilt when games change.

Two derivations, both from the canonical texts of :class:`~.store.Store` through the archive's own row builder
(:func:`wnotation.archive.rows.piece_rows`, the tables of :mod:`wnotation.archive.schema`):

* SQLite tables ``archive_games``, ``archive_seats``, ``archive_plays``, ... in the club's database (standard
  library only, so the list's filters and the player pages work without DuckDB). Each stored game is derived on
  its own and kept in step with ``games`` by :meth:`Derived.refresh`: a game added is derived, a game gone has its
  rows deleted, a new schema version derives everything again. Lists are JSON text, booleans 0/1, dates ISO text.
* The Parquet archive (``archive/`` in the data folder, the ``[analytics]`` extra: DuckDB): exactly what
  ``wnotation export club-games.7wn -o archive`` writes of the whole-archive download, exported again when the
  games changed, and its zip beside it. The ``stats`` pages query it.

Every value reaches SQL as a bound parameter; table and column names come from the schema only.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import unicodedata
import zipfile
from contextlib import closing
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Sequence

from ..archive.schema import SCHEMA_VERSION, TABLES
from .store import Store

#: The Parquet archive's folder and its zip, inside the data folder.
ARCHIVE_DIR = "archive"
ARCHIVE_ZIP = "club-archive.zip"
#: The source name the derived rows and the Parquet archive give the games (the whole-archive download's name).
ARCHIVE_SOURCE = "club-games.7wn"
#: The derived tables: every table of the schema, each SQLite table named ``archive_`` + its name.
DERIVED_TABLES = tuple(TABLES)
#: How many ``stats`` answers (per filters) are remembered for the current games.
REPORTS_KEPT = 32


def _sqlite_type(kind: str) -> str:
    if kind.endswith("[]") or kind in ("VARCHAR", "DATE", "UBIGINT"):  # UBIGINT: past SQLite's signed 64 bits
        return "TEXT"
    return "INTEGER"  # BIGINT, INTEGER, BOOLEAN


def _ident(name: str) -> str:
    assert name.replace("_", "").isalnum(), name  # only the schema's own names get here
    return f'"{name}"'


def _table(name: str) -> str:
    return _ident("archive_" + name)


def _create_sql(name: str) -> str:
    cols = ", ".join(f"{_ident(c)} {_sqlite_type(t)}" for c, t in TABLES[name])
    return f"CREATE TABLE IF NOT EXISTS {_table(name)} ({cols})"


def _insert_sql(name: str) -> str:
    return f"INSERT INTO {_table(name)} VALUES ({', '.join('?' for _ in TABLES[name])})"


def _sqlite_value(value: Any, kind: str) -> Any:
    if value is None:
        return None
    if kind.endswith("[]"):
        return json.dumps(list(value), ensure_ascii=False)
    if kind == "DATE":
        return value.isoformat() if isinstance(value, date) else str(value)
    if kind == "UBIGINT":
        return str(value)
    if kind == "BOOLEAN":
        return int(bool(value))
    return value


_INDEX_SQL = """CREATE TABLE IF NOT EXISTS archive_index (
  id INTEGER PRIMARY KEY,      -- games.id: the stored game these rows were derived from
  digest TEXT NOT NULL,        -- games.digest of the text they were derived from
  game_id INTEGER NOT NULL     -- its key in every archive_ table (archive.schema.game_id of its text)
)"""
#: True when every stored game (id and digest) has its derived rows and no other game has: nothing to do.
_IN_STEP_SQL = """SELECT (SELECT count(*) FROM games) = (SELECT count(*) FROM archive_index)
  AND NOT EXISTS (SELECT 1 FROM games AS g LEFT JOIN archive_index AS i ON i.id = g.id AND i.digest = g.digest
                  WHERE i.id IS NULL)"""


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Which games the list shows (``None``: no filter). ``player`` and ``wonder`` together: that player with
    that Wonder, in the same seat. Dates are ISO (``YYYY-MM-DD``), on games whose every digit of date is known."""

    player: str | None = None
    wonder: str | None = None
    event: str | None = None
    date_from: date | None = None
    date_to: date | None = None

    @property
    def empty(self) -> bool:
        return all(v is None for v in (self.player, self.wonder, self.event, self.date_from, self.date_to))


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's record over the club's games: all games, complete ones, wins, average points (complete)."""

    name: str
    games: int
    complete: int
    wins: int
    average: float | None
    #: ``(wonder, side, games, wins, average points or None)``, most played first
    wonders: tuple[tuple[str, str, int, int, float | None], ...] = ()


class Derived:
    """The tables derived from ``store``'s games; :meth:`refresh` brings them up to date (thread-safe)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()  # deriving the SQLite tables
        self._parquet_lock = threading.Lock()  # exporting the Parquet archive and querying it: never under the other
        self._reports: dict[tuple[Any, ...], list[Any]] = {}
        self._ready = False  # the tables set up (and of this schema version) by this instance

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.store.path, timeout=10, isolation_level=None)
        db.execute("PRAGMA busy_timeout=10000")
        return db

    def _rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with closing(self._connect()) as db:
            return list(db.execute(sql, args))

    # keeping the SQLite tables in step

    def refresh(self) -> int:
        """Derive the games stored since the last refresh and drop the rows of games no longer stored (a game is
        its id and its text's digest); a schema version other than the one the rows were made with derives every
        game again. Returns the games derived. Cost: one parse and one replay per new game; when nothing changed,
        one query and no lock, so that pages read in parallel."""
        if self._ready:
            with closing(self._connect()) as db:
                if db.execute(_IN_STEP_SQL).fetchone()[0]:
                    return 0
        with self._lock:
            if not self._ready:
                self._set_up()
            with closing(self._connect()) as db:
                stored = dict(db.execute("SELECT id, digest FROM games").fetchall())
                derived = dict(db.execute("SELECT id, digest FROM archive_index").fetchall())
            made = self._derive({game: digest for game, digest in stored.items() if derived.get(game) != digest})
            with closing(self._connect()) as db:
                db.execute("BEGIN IMMEDIATE")  # read again: another process may have changed either meanwhile
                stored = dict(db.execute("SELECT id, digest FROM games").fetchall())
                present = {r[0]: (r[1], r[2]) for r in db.execute("SELECT id, digest, game_id FROM archive_index")}
                for game, (digest, gid) in present.items():
                    if stored.get(game) != digest:
                        for name in DERIVED_TABLES:
                            if name != "cards":
                                db.execute(f"DELETE FROM {_table(name)} WHERE game_id = ?", (gid,))
                        db.execute("DELETE FROM archive_index WHERE id = ?", (game,))
                kept = {g: p for g, p in present.items() if stored.get(g) == p[0]}
                count = 0
                for game, digest, gid, tables in made:
                    if stored.get(game) != digest or game in kept:
                        continue
                    for name, rows_of in tables.items():
                        if name != "cards" and rows_of:
                            db.executemany(_insert_sql(name), [_converted(name, r) for r in rows_of])
                    db.execute("INSERT INTO archive_index (id, digest, game_id) VALUES (?, ?, ?)", (game, digest, gid))
                    count += 1
                db.execute("COMMIT")
            return count

    def _derive(self, games: dict[int, str]) -> list[tuple[int, str, int, dict[str, list[tuple[Any, ...]]]]]:
        """The rows of each game of ``games`` (id -> digest), outside any transaction: the replays are the cost."""
        from ..archive.rows import piece_rows

        made = []
        for game, digest in sorted(games.items()):
            text = self.store.game_text(game)
            if text is None:  # deleted meanwhile
                continue
            rows = piece_rows(text, ARCHIVE_SOURCE, 0, 1)
            gids = [r[0] for r in rows.tables["games"]]
            if len(gids) == 1:
                made.append((game, digest, gids[0], rows.tables))
        return made

    def _set_up(self) -> None:
        """The derived tables and their indexes, made again (empty) for another schema version."""
        from ..archive.rows import card_rows

        with closing(self._connect()) as db:
            version = db.execute("SELECT value FROM meta WHERE key = 'archive_schema'").fetchone()
            if version is None or version[0] != str(SCHEMA_VERSION):
                db.execute("BEGIN IMMEDIATE")
                for name in DERIVED_TABLES:
                    db.execute(f"DROP TABLE IF EXISTS {_table(name)}")
                    db.execute(_create_sql(name))
                db.execute("DROP TABLE IF EXISTS archive_index")
                db.executemany(_insert_sql("cards"), [_converted("cards", r) for r in card_rows()])
                db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('archive_schema', ?)",
                           (str(SCHEMA_VERSION),))
                db.execute("COMMIT")
            db.execute(_INDEX_SQL)
            for name in DERIVED_TABLES:  # what the pages look up by: a game's rows, a player's seats
                if name != "cards":
                    db.execute(f"CREATE INDEX IF NOT EXISTS {_ident('archive_' + name + '_game')} "
                               f"ON {_table(name)} (game_id)")
            db.execute("CREATE INDEX IF NOT EXISTS archive_seats_player ON archive_seats (player)")
            db.execute("CREATE INDEX IF NOT EXISTS archive_index_game ON archive_index (game_id)")
        self._ready = True

    # what the pages ask

    def game_ids(self, wanted: GameFilter) -> set[int]:
        """The stored games (``games.id``) that ``wanted`` keeps."""
        self.refresh()
        player = None if wanted.player is None else unicodedata.normalize("NFC", wanted.player)
        seat = wanted.player is not None or wanted.wonder is not None
        rows = self._rows(
            "SELECT i.id FROM archive_index AS i JOIN archive_games AS g USING (game_id) WHERE g.readable"
            " AND (?1 IS NULL OR g.event_name = ?1)"
            " AND (?2 IS NULL OR g.played_on >= ?2) AND (?3 IS NULL OR g.played_on <= ?3)"
            " AND (NOT ?4 OR EXISTS (SELECT 1 FROM archive_seats AS s WHERE s.game_id = g.game_id"
            " AND (?5 IS NULL OR s.player = ?5) AND (?6 IS NULL OR s.wonder = ?6)))",
            wanted.event, None if wanted.date_from is None else wanted.date_from.isoformat(),
            None if wanted.date_to is None else wanted.date_to.isoformat(), seat, player, wanted.wonder)
        return {int(r[0]) for r in rows}

    def choices(self) -> dict[str, list[str]]:
        """The players, Wonders and events of the club's games (for the list's filter form), sorted."""
        self.refresh()
        return {
            "player": [r[0] for r in self._rows("SELECT DISTINCT player FROM archive_seats WHERE player IS NOT NULL "
                                                "ORDER BY lower(player), player")],
            "wonder": [r[0] for r in self._rows("SELECT DISTINCT wonder FROM archive_seats WHERE wonder IS NOT NULL "
                                                "ORDER BY wonder")],
            "event": [r[0] for r in self._rows("SELECT DISTINCT event_name FROM archive_games "
                                               "WHERE event_name IS NOT NULL ORDER BY lower(event_name), event_name")],
        }

    def players(self) -> list[PlayerSummary]:
        """Every player of the club's readable games, most games first, then by name."""
        self.refresh()
        return [PlayerSummary(r[0], int(r[1]), int(r[2]), int(r[3] or 0), r[4]) for r in self._rows(
            "SELECT s.player, count(*), count(s.total_points), sum(s.winner), avg(s.total_points)"
            " FROM archive_seats AS s JOIN archive_games AS g USING (game_id) WHERE g.readable"
            " GROUP BY s.player ORDER BY count(*) DESC, lower(s.player), s.player")]

    def player(self, name: str) -> PlayerSummary | None:
        """``name``'s record (the name as written), or ``None`` when no stored game seats them."""
        self.refresh()
        name = unicodedata.normalize("NFC", name)
        head = self._rows(
            "SELECT count(*), count(s.total_points), sum(s.winner), avg(s.total_points)"
            " FROM archive_seats AS s JOIN archive_games AS g USING (game_id) WHERE g.readable AND s.player = ?", name)
        if not head or not head[0][0]:
            return None
        wonders = tuple((r[0], r[1], int(r[2]), int(r[3] or 0), r[4]) for r in self._rows(
            "SELECT s.wonder, s.side, count(*), sum(s.winner), avg(s.total_points)"
            " FROM archive_seats AS s JOIN archive_games AS g USING (game_id) WHERE g.readable AND s.player = ?"
            " GROUP BY s.wonder, s.side ORDER BY count(*) DESC, s.wonder, s.side", name))
        games, complete, wins, average = head[0]
        return PlayerSummary(name, int(games), int(complete), int(wins or 0), average, wonders)

    # the Parquet archive (DuckDB)

    def stamp(self) -> str:
        """What identifies the stored games: a digest of their ids and texts' digests, in upload order."""
        found = hashlib.sha256()
        for game_id, digest in self._rows("SELECT id, digest FROM games ORDER BY id"):
            found.update(f"{game_id}:{digest}\n".encode("ascii"))
        return found.hexdigest()

    def parquet(self) -> tuple[Path, Path, str]:
        """The Parquet archive of every stored game, its zip and their stamp, exported again (atomically, with
        :func:`wnotation.archive.export.export`) when the games changed. Raises
        :class:`~wnotation.archive.errors.ArchiveError` without DuckDB. Holds only the Parquet lock: the list
        and the player pages go on while an export runs."""
        with self._parquet_lock:
            return self._parquet()

    def _parquet(self) -> tuple[Path, Path, str]:
        from ..archive.export import export

        folder, zipped = self.store.folder / ARCHIVE_DIR, self.store.folder / ARCHIVE_ZIP
        stamp = self.stamp()
        done = self._rows("SELECT value FROM meta WHERE key = 'parquet_stamp'")
        if done and done[0][0] == stamp and folder.is_dir() and zipped.is_file():
            return folder, zipped, stamp
        export([(ARCHIVE_SOURCE, "\n".join(self.store.texts()))], folder)
        _zip_folder(folder, zipped)
        self._rows("INSERT OR REPLACE INTO meta (key, value) VALUES ('parquet_stamp', ?)", stamp)
        return folder, zipped, stamp

    def reports(self, filters: Any, names: Sequence[str]) -> list[Any]:
        """The ``stats`` answers ``names`` (:data:`wnotation.archive.stats.QUERIES`) under ``filters``
        (:class:`~wnotation.archive.stats.Filters`) on the Parquet archive, remembered until the games change.
        One at a time: an export replacing the archive never runs under a query reading it."""
        from ..archive.stats import connect, prepare, run_query

        with self._parquet_lock:
            folder, _, stamp = self._parquet()
            key = (stamp, filters, tuple(names))
            if key not in self._reports:
                con = connect([folder])
                try:
                    prepare(con, filters)
                    found = [run_query(con, name, filters) for name in names]
                finally:
                    con.close()
                if len(self._reports) >= REPORTS_KEPT:
                    self._reports.pop(next(iter(self._reports)))
                self._reports[key] = found
            return self._reports[key]


def _converted(name: str, row: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(_sqlite_value(v, kind) for v, (_, kind) in zip(row, TABLES[name]))


def _zip_folder(folder: Path, target: Path) -> None:
    """Zip ``folder`` (as ``archive/...`` inside) into ``target``, written under a temporary name and renamed."""
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    with zipfile.ZipFile(temp, "w", compression=zipfile.ZIP_STORED) as out:  # Parquet parts are compressed
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                out.write(path, Path(ARCHIVE_DIR) / path.relative_to(folder))
    os.replace(temp, target)
