"""The manifest of an archive: what a complete export wrote, written last, checked by every reader.

A Parquet archive directory holds ``manifest.json``: the schema version, the number of games, and for every table
its parts with their rows, sizes and SHA-256 digests (spec/archive.md, "Manifest"). Export writes it after every
part, in the directory it then moves into place, so a directory with a valid manifest is a complete archive; a
reader (``stats``, :func:`~.store.read_table`, the DuckDB load) refuses a directory without one, of another
schema version, or whose parts differ from it (one missing, one more, one changed), with one sentence saying so.
A DuckDB file holds the same as the table ``archive_manifest``, written in the transaction that writes the
tables. Plain data and hashlib here; the DuckDB side takes a connection.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from .schema import SCHEMA_VERSION, TABLES
from .errors import ArchiveError

__all__ = ["FORMAT", "MANIFEST", "MANIFEST_TABLE", "read_db_manifest", "verified_parts", "write_db_manifest",
           "write_manifest"]

MANIFEST = "manifest.json"
MANIFEST_TABLE = "archive_manifest"
FORMAT = "wnotation archive"
#: The largest manifest a reader reads (a million games in 250-game pieces list 20,000 parts: about 4 MB).
MAX_MANIFEST_BYTES = 64 << 20
_CHUNK = 1 << 20


def digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of the file at ``path``, in hex."""
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(_CHUNK), b""):
            h.update(block)
    return h.hexdigest()


def write_manifest(root: str | os.PathLike[str], games: int, rows: dict[str, dict[str, int]],
                   repeats: list[dict[str, Any]], hands: bool = False) -> dict[str, Any]:
    """Write ``root/manifest.json`` for the parts now under ``root`` (``rows``: table -> part file -> rows) and
    return it. Written under a temporary name, flushed and renamed: the last file of an export."""
    from .. import __version__

    tables: dict[str, Any] = {}
    base = Path(root)
    for table in TABLES:
        parts = []
        for name in sorted(rows.get(table, {})):
            path = base / table / name
            parts.append({"file": f"{table}/{name}", "rows": rows[table][name], "bytes": path.stat().st_size,
                          "sha256": digest(path)})
        tables[table] = {"rows": sum(p["rows"] for p in parts), "parts": parts}
    manifest = {"format": FORMAT, "schema_version": SCHEMA_VERSION, "wnotation": __version__, "games": games,
                "hands": hands, "tables": tables, "repeats": repeats}
    temp = base / f".{MANIFEST}.tmp"
    with open(temp, "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, ensure_ascii=False, indent=1)
        handle.write("\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, base / MANIFEST)
    return manifest


def _refuse(root: str | os.PathLike[str], why: str) -> ArchiveError:
    return ArchiveError(f"{os.fspath(root)} is not a complete wnotation archive: {why}")


def read_manifest(root: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of the archive directory ``root``, its format and schema version checked (not its parts)."""
    path = Path(root) / MANIFEST
    try:
        size = path.stat().st_size
        if size > MAX_MANIFEST_BYTES:
            raise _refuse(root, f"its {MANIFEST} is {size:,} bytes, more than the {MAX_MANIFEST_BYTES:,} a "
                                "reader reads")
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _refuse(root, f"it has no {MANIFEST} (an export that did not finish, or an archive of schema 1, "
                            "which had none): export it again") from None
    except (UnicodeDecodeError, ValueError):
        raise _refuse(root, f"its {MANIFEST} is not valid JSON: export it again") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _refuse(root, f"its {MANIFEST} is not a wnotation archive manifest")
    version = manifest.get("schema_version")
    if version != SCHEMA_VERSION:
        raise _refuse(root, f"it is of schema version {version!r}, and this wnotation reads version "
                            f"{SCHEMA_VERSION}: export it again")
    return manifest


def verified_parts(root: str | os.PathLike[str]) -> dict[str, list[str]]:
    """The Parquet parts of each table of the archive directory ``root``, in piece order, once every part the
    manifest lists is there with its size and digest and no other part is. Raises :class:`ArchiveError` (one
    sentence naming the first difference) otherwise. Cost: one read of every part's bytes (SHA-256)."""
    manifest = read_manifest(root)
    base = Path(root)
    out: dict[str, list[str]] = {}
    tables = manifest.get("tables")
    if not isinstance(tables, dict):
        raise _refuse(root, f"its {MANIFEST} lists no tables")
    for table in TABLES:
        entry = tables.get(table)
        if not isinstance(entry, dict) or not isinstance(entry.get("parts"), list):
            raise _refuse(root, f"its {MANIFEST} does not list the {table} table")
        listed = {}
        for part in entry["parts"]:
            name = part.get("file") if isinstance(part, dict) else None
            if not isinstance(name, str) or not name.startswith(f"{table}/part-") or "/" in name[len(table) + 1:] \
                    or not name.endswith(".parquet"):
                raise _refuse(root, f"its {MANIFEST} lists a part of {table} that is not one: {name!r}")
            listed[name] = part
        folder = base / table
        present = {f"{table}/{p.name}" for p in folder.glob("part-*.parquet")} if folder.is_dir() else set()
        for name in sorted(set(listed) - present):
            raise _refuse(root, f"{name} is missing")
        for name in sorted(present - set(listed)):
            raise _refuse(root, f"{name} is not in its {MANIFEST} (left by another export?)")
        for name in sorted(listed):
            path = base / name
            part = listed[name]
            if path.stat().st_size != part.get("bytes") or digest(path) != part.get("sha256"):
                raise _refuse(root, f"{name} differs from the part its {MANIFEST} lists (changed since the "
                                    "export)")
        out[table] = [str(base / name) for name in sorted(listed)]
    return out


def write_db_manifest(con: Any, games: int) -> None:
    """Write the table ``archive_manifest`` of the DuckDB connection ``con`` (inside the caller's transaction):
    one row per table with its rows, and the schema version and games on each."""
    from .. import __version__

    con.execute(f"CREATE OR REPLACE TABLE {MANIFEST_TABLE} (table_name VARCHAR, table_rows BIGINT, "
                "schema_version INTEGER, games BIGINT, wnotation VARCHAR)")
    for table in TABLES:
        (count,) = con.execute(f'SELECT count(*) FROM "{table}"').fetchone()
        con.execute(f"INSERT INTO {MANIFEST_TABLE} VALUES (?, ?, ?, ?, ?)",
                    [table, count, SCHEMA_VERSION, games, __version__])


def read_db_manifest(con: Any, path: str | os.PathLike[str]) -> None:
    """Check the archive of the DuckDB file at ``path`` (open as ``con``): its ``archive_manifest`` is there, of
    this schema version, and every table has the rows it lists. Raises :class:`ArchiveError` otherwise."""
    where = f"{os.fspath(path)} is not a complete wnotation archive"
    try:
        found = con.execute(f"SELECT table_name, table_rows, schema_version FROM {MANIFEST_TABLE}").fetchall()
    except Exception:  # duckdb.CatalogException: no such table (duckdb is imported by the caller)
        raise ArchiveError(f"{where}: it has no {MANIFEST_TABLE} table (not written by export --duckdb, an "
                           "export that did not finish, or an archive of schema 1): export it again") from None
    versions = {v for _, _, v in found}
    if versions != {SCHEMA_VERSION}:
        raise ArchiveError(f"{where}: it is of schema version {sorted(versions)!r}, and this wnotation reads "
                           f"version {SCHEMA_VERSION}: export it again")
    listed = {t: n for t, n, _ in found}
    for table in TABLES:
        if table not in listed:
            raise ArchiveError(f"{where}: its {MANIFEST_TABLE} does not list the {table} table")
        try:
            (count,) = con.execute(f'SELECT count(*) FROM "{table}"').fetchone()
        except Exception:
            raise ArchiveError(f"{where}: it has no {table} table") from None
        if count != listed[table]:
            raise ArchiveError(f"{where}: its {table} table has {count:,} rows where the manifest lists "
                               f"{listed[table]:,}")
