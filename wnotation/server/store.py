"""The club's database: one SQLite file (standard library, WAL mode) in the data folder.

Each game is kept as its canonical 7WN text, the source of truth; the list's columns (date, event, seats,
scores, findings) are derived from that text when it is stored and can be derived again from it. The club key is
kept hashed (:mod:`.keys`), sessions by the hash of their token. Every connection is short-lived, one per call,
so the store can be used from the server's worker threads; WAL lets readers go on while a write commits.
Nothing is written outside the data folder: the database file and SQLite's ``-wal`` and ``-shm`` beside it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .keys import hash_key, key_matches, new_token, token_id

#: The database's file name inside the data folder.
DB_NAME = "club.sqlite3"
#: How long a session lasts (seconds): a club season's evening, a month.
SESSION_SECONDS = 30 * 24 * 3600

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
  id INTEGER PRIMARY KEY,
  text TEXT NOT NULL,            -- canonical 7WN, the source of truth
  digest TEXT NOT NULL UNIQUE,   -- SHA-256 of text: the same game is kept once
  title TEXT NOT NULL,
  date TEXT NOT NULL,
  event TEXT NOT NULL,
  seats TEXT NOT NULL,           -- JSON [[name, wonder, side], ...], seat order
  totals TEXT NOT NULL,          -- JSON [int, ...] or [] for an unfinished game
  winners TEXT NOT NULL,         -- JSON [name, ...]
  errors INTEGER NOT NULL,       -- error findings of the replay
  uploaded TEXT NOT NULL,        -- UTC, ISO 8601
  file TEXT NOT NULL             -- the uploaded file's name, shown only
);
CREATE TABLE IF NOT EXISTS recordings (
  id INTEGER PRIMARY KEY,
  header TEXT NOT NULL,          -- the new game's 7WN header (roster, date, event), canonical
  answers TEXT NOT NULL,         -- JSON [typed, ...]: every answer, in order; the session is their replay
  game INTEGER,                  -- the games row once the record is complete
  created TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'turns'  -- 'turns' (the recorder's session) or 'pad' (its score pad)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, csrf TEXT NOT NULL, created REAL NOT NULL);
"""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of the list: its id and the columns derived from its text."""

    id: int
    title: str
    date: str
    event: str
    seats: tuple[tuple[str, str, str], ...]
    totals: tuple[int, ...]
    winners: tuple[str, ...]
    errors: int
    uploaded: str
    file: str


@dataclass(frozen=True, slots=True)
class NewGame:
    """What :meth:`Store.add_game` stores: the canonical text and what the list shows of it."""

    text: str
    digest: str
    title: str
    date: str
    event: str
    seats: tuple[tuple[str, str, str], ...]
    totals: tuple[int, ...]
    winners: tuple[str, ...]
    errors: int
    file: str


class Store:
    """The database in ``data`` (a folder, created when missing)."""

    def __init__(self, data: str | Path) -> None:
        self.folder = Path(data)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / DB_NAME
        with closing(self._connect()) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            columns = {row[1] for row in db.execute("PRAGMA table_info(recordings)")}
            if "kind" not in columns:  # a database made before score pads were recorded: all turn by turn
                db.execute("ALTER TABLE recordings ADD COLUMN kind TEXT NOT NULL DEFAULT 'turns'")

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        db.execute("PRAGMA busy_timeout=10000")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with closing(self._connect()) as db:
            return list(db.execute(sql, args))

    # the club key and sessions

    def has_key(self) -> bool:
        return bool(self._rows("SELECT 1 FROM meta WHERE key = 'club_key'"))

    def set_key(self, key: str) -> None:
        """Store the club key's hash, replacing any; every session ends (a new key shuts old phones out)."""
        stored = hash_key(key)
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('club_key', ?)", (stored,))
            db.execute("DELETE FROM sessions")
            db.execute("COMMIT")

    def check_key(self, key: str) -> bool:
        rows = self._rows("SELECT value FROM meta WHERE key = 'club_key'")
        return bool(rows) and key_matches(key, rows[0][0])

    def open_session(self) -> tuple[str, str]:
        """A new session: ``(token, csrf)``; the cookie carries the token, the forms the CSRF token."""
        token, csrf = new_token(), new_token()
        with closing(self._connect()) as db:
            db.execute("DELETE FROM sessions WHERE created < ?", (time.time() - SESSION_SECONDS,))
            db.execute("INSERT INTO sessions (id, csrf, created) VALUES (?, ?, ?)", (token_id(token), csrf, time.time()))
        return token, csrf

    def session_csrf(self, token: str) -> str | None:
        """The CSRF token of the live session ``token``, or ``None`` for no such session (or an expired one)."""
        rows = self._rows("SELECT csrf FROM sessions WHERE id = ? AND created >= ?", token_id(token),
                          time.time() - SESSION_SECONDS)
        return rows[0][0] if rows else None

    def close_session(self, token: str) -> None:
        self._rows("DELETE FROM sessions WHERE id = ?", token_id(token))

    # games

    def add_game(self, game: NewGame) -> tuple[int, bool]:
        """Store ``game``: ``(id, True)``, or ``(id, False)`` when the same canonical text is already kept."""
        uploaded = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            found = db.execute("SELECT id FROM games WHERE digest = ?", (game.digest,)).fetchone()
            if found is not None:
                db.execute("COMMIT")
                return int(found[0]), False
            cursor = db.execute(
                "INSERT INTO games (text, digest, title, date, event, seats, totals, winners, errors, uploaded, file)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.text, game.digest, game.title, game.date, game.event, json.dumps(game.seats),
                 json.dumps(game.totals), json.dumps(game.winners), game.errors, uploaded, game.file))
            db.execute("COMMIT")
            assert cursor.lastrowid is not None
            return cursor.lastrowid, True

    def game_text(self, game_id: int) -> str | None:
        rows = self._rows("SELECT text FROM games WHERE id = ?", game_id)
        return rows[0][0] if rows else None

    def games(self, player: str | None = None) -> list[GameRow]:
        """Every game (or ``player``'s, by exact name), newest date first, a game without a date last, then by
        upload order."""
        rows = [_game_row(r) for r in self._rows(
            "SELECT id, title, date, event, seats, totals, winners, errors, uploaded, file FROM games "
            "ORDER BY date = '', date DESC, id")]
        if player is not None:
            rows = [r for r in rows if any(s[0] == player for s in r.seats)]
        return rows

    # games being recorded at the table

    def add_recording(self, header: str, kind: str = "turns") -> int:
        """A new recording of ``kind`` (``turns`` or ``pad``) of the game ``header``: its id."""
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with closing(self._connect()) as db:
            cursor = db.execute("INSERT INTO recordings (header, answers, created, kind) VALUES (?, '[]', ?, ?)",
                                (header, created, kind))
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def recording(self, recording_id: int) -> tuple[str, list[str], int | None] | None:
        """``(header, answers, game id or None)`` of a recording, or ``None`` for no such recording."""
        rows = self._rows("SELECT header, answers, game FROM recordings WHERE id = ?", recording_id)
        if not rows:
            return None
        return rows[0][0], list(json.loads(rows[0][1])), rows[0][2]

    def recording_kind(self, recording_id: int) -> str | None:
        """``turns`` or ``pad``, or ``None`` for no such recording."""
        rows = self._rows("SELECT kind FROM recordings WHERE id = ?", recording_id)
        return str(rows[0][0]) if rows else None

    def add_answer(self, recording_id: int, typed: str) -> None:
        """Append one answer, committed before the page answers (a restart loses none)."""
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            (answers,) = db.execute("SELECT answers FROM recordings WHERE id = ?", (recording_id,)).fetchone()
            db.execute("UPDATE recordings SET answers = ? WHERE id = ?",
                       (json.dumps(json.loads(answers) + [typed]), recording_id))
            db.execute("COMMIT")

    def finish_recording(self, recording_id: int, game_id: int) -> None:
        self._rows("UPDATE recordings SET game = ? WHERE id = ?", game_id, recording_id)

    def recordings(self) -> list[tuple[int, str, int]]:
        """The unfinished recordings: ``(id, header, answers so far)``, newest first."""
        return [(int(r[0]), r[1], len(json.loads(r[2])))
                for r in self._rows("SELECT id, header, answers FROM recordings WHERE game IS NULL ORDER BY id DESC")]

    def count(self) -> int:
        return int(self._rows("SELECT count(*) FROM games")[0][0])

    def texts(self) -> Iterator[str]:
        """Every game's canonical text, in upload order."""
        for (text,) in self._rows("SELECT text FROM games ORDER BY id"):
            yield text


def _game_row(r: tuple[Any, ...]) -> GameRow:
    return GameRow(int(r[0]), r[1], r[2], r[3], tuple(tuple(s) for s in json.loads(r[4])),
                   tuple(json.loads(r[5])), tuple(json.loads(r[6])), int(r[7]), r[8], r[9])
