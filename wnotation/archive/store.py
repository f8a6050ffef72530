"""Writing archive rows with DuckDB: into tables of a connection (a DuckDB file, or memory for ``stats``), and
as Parquet parts, one file per table and piece of input, each written whole under a temporary name then renamed,
so that a part named by its piece is written again identically and never twice.

Values reach DuckDB only as data: rows go through a JSON-lines file that ``read_json`` loads with the column
types of :mod:`.schema`, and every path is a bound parameter or an argument of DuckDB's Python API, never SQL
text. Table and column names come from :mod:`.schema` only. DuckDB is an optional dependency (``[analytics]``).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import ArchiveError
from .schema import ORDER, PIECE_TABLES, TABLES

__all__ = ["ArchiveError", "create_tables", "duckdb", "insert_rows", "part_name", "read_parquet_tables",
           "write_part"]

EXTRA_HINT = "install wnotation[analytics] (pip install 'wnotation[analytics]')"
#: The parts' Parquet compression. Snappy (DuckDB's default) rather than zstd: an archive is many small parts, and
#: stats on a million plays in 111 parts a table read them in 0.8 CPU s against 1.1-1.4 s with zstd (the parts are
#: about 35% larger: 12 MB against 8.7 MB); writing costs the same.
COMPRESSION = "snappy"


def duckdb() -> Any:
    """The duckdb module, or :class:`ArchiveError` saying how to install it."""
    try:
        import duckdb as module
    except ImportError:
        raise ArchiveError(f"this needs DuckDB: {EXTRA_HINT}") from None
    return module


def _ident(name: str) -> str:
    """A table or column name of the schema, quoted. Only the package's own names get here."""
    assert name.replace("_", "").isalnum(), name
    return f'"{name}"'


def _create_sql(table: str, *, temp: bool = False, replace: bool = False) -> str:
    cols = ", ".join(f"{_ident(n)} {t}" for n, t in TABLES[table])
    head = "CREATE OR REPLACE" if replace else "CREATE"
    return f"{head} {'TEMP ' if temp else ''}TABLE {_ident(table)} ({cols})"


def create_tables(con: Any, *, replace: bool = False) -> None:
    """Create the archive's empty tables in ``con`` (``replace``: drop tables of those names first)."""
    for table in TABLES:
        con.execute(_create_sql(table, replace=replace))


def _as_text(value: object) -> object:
    """A DATE or UBIGINT value as text, which DuckDB casts exactly (a JSON number past 2**53 would not be)."""
    return None if value is None else str(value)


def _cast(k: int, name: str, kind: str) -> str:
    """The SELECT item of column ``name`` of type ``kind`` from item ``k`` of the row's array: a list's item comes
    as its JSON text, parsed as a list of text (any character of a name or unit stays data)."""
    if kind == "VARCHAR[]":
        return f"""from_json(v[{k + 1}], '["VARCHAR"]') AS {_ident(name)}"""
    return f"CAST(v[{k + 1}] AS {kind}) AS {_ident(name)}"


def _select_sql(table: str) -> str:
    """A SELECT of ``table``'s rows from a JSON file (the one parameter): an array of rows, each an array read as
    text and cast to its column's type (DuckDB's JSON reader cannot type an array's items one by one)."""
    values = ", ".join(_cast(k, name, kind) for k, (name, kind) in enumerate(TABLES[table]))
    return (f"SELECT {values} FROM read_json(?, format = 'array', records = false, columns = {{'v': 'VARCHAR[]'}}, "
            "maximum_object_size = 1073741824)")


def _empty_sql(table: str) -> str:
    """A SELECT of no row with ``table``'s columns (an empty part still carries the schema)."""
    return "SELECT " + ", ".join(f"CAST(NULL AS {kind}) AS {_ident(name)}" for name, kind in TABLES[table]) + \
        " WHERE false"


_SELECT = {table: _select_sql(table) for table in TABLES}
_EMPTY = {table: _empty_sql(table) for table in TABLES}
#: Columns whose values travel as text (see _as_text), by table.
_EXACT = {table: [k for k, (_, kind) in enumerate(spec) if kind in ("DATE", "UBIGINT")] for table, spec in TABLES.items()}


def _relation(con: Any, table: str, rows: Sequence[tuple[Any, ...]], scratch: str | os.PathLike[str] | None) -> tuple[Any, str]:
    """A relation of ``rows`` of ``table`` read from a JSON file written to ``scratch`` (default: the system's
    temporary directory), and that file's path: the caller runs the relation, then removes the file. Cost: one
    JSON encoding of the rows (one call); DuckDB reads and casts them when the relation runs."""
    exact = _EXACT[table]
    if exact:
        rows = [tuple(_as_text(v) if k in exact else v for k, v in enumerate(row)) for row in rows]
    fd, path = tempfile.mkstemp(prefix=f".{table}-", suffix=".json", dir=scratch)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(_ENCODE(rows))
    return con.sql(_SELECT[table], params=[path]), path


def insert_rows(con: Any, table: str, rows: Sequence[tuple[Any, ...]], scratch: str | os.PathLike[str] | None = None) -> None:
    """Append ``rows`` (tuples in the column order of :data:`~.schema.TABLES`) to ``table`` of ``con``, through
    one temporary JSON file in ``scratch`` (see :func:`_relation`), removed afterwards."""
    if not rows:
        return
    rel, path = _relation(con, table, rows, scratch)
    try:
        rel.insert_into(table)
    finally:
        os.unlink(path)


_ENCODE = json.JSONEncoder(ensure_ascii=False, check_circular=False, allow_nan=False).encode


def part_name(table: str, input_number: int, piece: int) -> str:
    """The file of one piece's rows of ``table`` inside an archive directory: ``plays/part-00000-000012.parquet``.
    Named by the piece only, so a piece exported again (a retried task) overwrites its own part."""
    return f"{table}/part-{input_number:05d}-{piece:06d}.parquet"


def writer() -> Any:
    """A DuckDB connection for :func:`write_part` (one thread: the worker processes are the parallelism). Reusing
    one across parts saves its start-up (about 12 ms a part); close it when done."""
    return duckdb().connect(config={"threads": 1})


def write_part(out: str | os.PathLike[str], input_number: int, piece: int, tables: dict[str, list[tuple[Any, ...]]],
               con: Any = None) -> None:
    """Write one piece's rows as one Parquet file per table under ``out`` (empty tables too, so every part has
    the schema), rows in the order given (:mod:`.rows` makes them in :data:`~.schema.ORDER`). Each file is
    written under a temporary name and renamed, so a reader never sees half a part and a retried piece replaces
    its part whole. ``con``: a :func:`writer` to reuse (default: one made and closed here). Memory: the piece's
    rows and their JSON text. Cost: per table one JSON encoding and one DuckDB query writing the file, no table."""
    root = Path(out)
    own = con is None
    if own:
        con = writer()
    try:
        for table in PIECE_TABLES:
            final = root / part_name(table, input_number, piece)  # its folder made by the export, never here:
            # a task still running after its export ended (a lost scheduler) fails instead of writing anew
            temp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
            rows = tables.get(table)
            if rows:
                rel, path = _relation(con, table, rows, root)
                try:
                    rel.write_parquet(str(temp), compression=COMPRESSION)
                finally:
                    os.unlink(path)
            else:
                con.sql(_EMPTY[table]).write_parquet(str(temp), compression=COMPRESSION)
            os.replace(temp, final)
    finally:
        if own:
            con.close()


#: The one part of the ``cards`` table.
CARDS_PART = "cards/part-catalogue.parquet"


def write_cards(out: str | os.PathLike[str], con: Any) -> None:
    """Write the ``cards`` table (the catalogue's designs) as its one part under ``out``."""
    from .rows import card_rows

    final = Path(out) / CARDS_PART
    temp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    rel, path = _relation(con, "cards", card_rows(), out)
    try:
        rel.write_parquet(str(temp), compression=COMPRESSION)
    finally:
        os.unlink(path)
    os.replace(temp, final)


def part_files(out: str | os.PathLike[str], table: str) -> list[str]:
    """The Parquet parts of ``table`` in an archive directory, in piece order."""
    folder = Path(out) / table
    if not folder.is_dir():
        return []
    return sorted(str(p) for p in folder.glob("part-*.parquet"))


def remove_temporaries(out: str | os.PathLike[str]) -> None:
    """Remove what an interrupted part write left (``plays/.part-….tmp``, ``.plays-….json``) under ``out``."""
    root = Path(out)
    for pattern in (".part-*.tmp", "*/.part-*.tmp", *(f".{table}-*.json" for table in TABLES)):
        for p in root.glob(pattern):
            p.unlink(missing_ok=True)


def is_archive_dir(path: str | os.PathLike[str]) -> bool:
    """Whether the directory at ``path`` looks like an archive (a manifest, or a folder for every table): what
    a reader then checks (:func:`~.manifest.verified_parts`) and an export may replace."""
    from .manifest import MANIFEST

    root = Path(path)
    return (root / MANIFEST).is_file() or all((root / t).is_dir() for t in PIECE_TABLES)


def read_parquet_tables(con: Any, out: str | os.PathLike[str]) -> None:
    """Make each table of the Parquet archive directory ``out`` a view of ``con`` (paths passed through DuckDB's
    Python API, never SQL text), once its manifest is checked (:class:`ArchiveError` otherwise)."""
    from .manifest import verified_parts

    for table, files in verified_parts(out).items():
        if files:
            con.read_parquet(files).create_view(table)
        else:
            con.execute(_create_sql(table, temp=True))


def load_parquet(con: Any, out: str | os.PathLike[str], parts: dict[str, list[str]] | None = None, *,
                 replace: bool = True) -> None:
    """Copy the Parquet archive directory ``out`` into tables of ``con`` (a DuckDB file), in key order: its parts
    as its manifest lists them (checked), or ``parts`` when the caller has just written them."""
    from .manifest import verified_parts

    files_of = verified_parts(out) if parts is None else parts
    create_tables(con, replace=replace)
    for table in TABLES:
        files = files_of[table]
        if files:
            rel = con.read_parquet(files)
            rel.insert_into(table)


def read_table(out: str | os.PathLike[str], table: str) -> list[tuple[Any, ...]]:
    """Every row of ``table`` of a Parquet archive directory (its manifest checked), in key order (for tests and
    comparisons)."""
    from .manifest import verified_parts

    con = duckdb().connect()
    try:
        files = verified_parts(out)[table]
        if not files:
            return []
        order = ", ".join(_ident(c) for c in ORDER[table])
        rows: list[tuple[Any, ...]] = con.read_parquet(files).order(order).fetchall()
        return rows
    finally:
        con.close()


def insert_all(con: Any, tables: dict[str, list[tuple[Any, ...]]], scratch: str | None = None) -> None:
    for table in TABLES:
        insert_rows(con, table, tables.get(table, []), scratch)
