"""Exporting an archive: inputs cut into pieces of whole games, each piece's rows written as its own Parquet
parts (:func:`export_piece`), pieces run here, in a process pool (``jobs``) or as tasks on a Dask cluster
(:mod:`.cluster`); then, if asked, the parts loaded into one DuckDB file.

Pieces are cut the same way whatever runs them (``PIECE_GAMES`` games each), and a part is named by its piece,
so every way of running gives the same files with the same rows. Memory of the Parquet export: one piece's text
and rows per worker, a bounded number of pieces in flight, and in the exporting process each game's key and line
(to leave repeats out, tens of bytes a game). The DuckDB file is loaded in one transaction, DuckDB's memory
bounded by :data:`DUCKDB_MEMORY` but not flat: peak RSS 155 MiB for 1,000 5-player games and 248 MiB for
20,000 (measured for issue 29 item 8, ``export -o DIR --duckdb FILE``, one job). Unreadable inputs and broken
games are rows too (``games`` and ``findings``), never dropped. The CLI's ``export`` command is a thin shell over :func:`export`.
"""

from __future__ import annotations

import ctypes
import io
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .rows import Rows, file_rows, piece_rows
from .manifest import MANIFEST, write_db_manifest, write_manifest
from .schema import PIECE_TABLES, TABLES
from .store import (
    ArchiveError, COMPRESSION, duckdb, is_archive_dir, load_parquet, part_files, part_name, remove_temporaries,
    write_cards, write_part, writer,
)

__all__ = ["ExportSummary", "Piece", "export", "export_piece", "pieces"]

#: Games per piece. Fixed (not derived from the number of workers), so that parts are the same for every run.
#: Each part costs a fixed ~11 ms to write (five DuckDB queries and files): 7% of check's time for 100 games, 3%
#: for 250, whose parts hold ~22,000 plays. The price is memory: a worker holds one piece's rows and their JSON text
#: (peak RSS 117-122 MiB at 250 games against 104 MiB at 100, flat however long the input).
PIECE_GAMES = 250
#: Pieces in flight per worker (local pool or cluster): enough to keep workers busy, few enough to hold.
IN_FLIGHT = 4

#: An input: a path, or ``(source name, text)`` for text already read (standard input).
Input = str | os.PathLike[str] | tuple[str, str]


@dataclass(frozen=True, slots=True)
class Piece:
    """Whole games of one input: the ``number``-th piece (0-based) of input ``input_number``, its ``text``,
    the lines of the input before it (``line0``) and the input's number of its first game (``first_game``)."""

    input_number: int
    number: int
    source: str
    text: str
    line0: int
    first_game: int
    hands: bool = False  # write the hands table's rows too


@dataclass
class ExportSummary:
    """What an export wrote: counts over every input, read back from the archive's ``games`` and ``findings``
    tables once written (``str`` is the one-line summary the CLI prints, worded as ``check``'s)."""

    inputs: int = 0
    games: int = 0
    complete: int = 0
    broken: int = 0
    with_errors: int = 0  # games that read but break the rules (error findings)
    errors: int = 0  # their error findings
    wrong_results: int = 0
    unreadable: int = 0
    no_game: int = 0
    repeats: int = 0  # games left out because the same game (the same game_id) was exported earlier in the run
    actions: int = 0
    pieces: int = 0
    seconds: float = 0.0  # wall clock
    cpu_seconds: float | None = None  # CPU of this process and its worker processes; None on a cluster
    targets: list[str] = field(default_factory=list)

    @property
    def problems(self) -> int:
        """Inputs and games that did not export cleanly (unreadable, no game, broken, breaking the rules)."""
        return self.unreadable + self.no_game + self.broken + self.with_errors

    def __str__(self) -> str:
        def n(count: int, word: str) -> str:
            return f"{count:,} {word}{'' if count == 1 else 's'}"

        parts = [f"{self.complete:,} complete"]
        if self.broken:
            parts.append(f"{self.broken:,} broken")
        if self.with_errors:
            parts.append(f"{self.with_errors:,} with errors ({n(self.errors, 'error')})")
        if self.wrong_results:
            parts.append(f"{self.wrong_results:,} with wrong stated results")
        if self.repeats:
            parts.append(f"{n(self.repeats, 'repeat')} of a game already exported, left out")
        inputs = n(self.inputs, "input")
        bad = [f"{self.unreadable:,} unreadable"] if self.unreadable else []
        bad += [f"{self.no_game:,} without a game"] if self.no_game else []
        if bad:
            inputs += f" ({', '.join(bad)})"
        if self.cpu_seconds is not None:
            rate = (f" ({self.cpu_seconds:.1f} s CPU, {self.actions / self.cpu_seconds:,.0f} actions per CPU "
                    "second)") if self.cpu_seconds > 0 else ""
        else:
            rate = f", {self.actions / self.seconds:,.0f} actions/s (wall clock)" if self.seconds > 0 else ""
        where = f" -> {', '.join(self.targets)}" if self.targets else ""
        return (f"exported {n(self.games, 'game')} ({', '.join(parts)}) and {n(self.actions, 'play')} from "
                f"{inputs} in {self.seconds:.1f} s{rate}{where}")

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in ("inputs", "games", "complete", "broken", "with_errors",
                                                        "errors", "wrong_results", "unreadable", "no_game",
                                                        "repeats", "actions", "pieces", "seconds", "cpu_seconds",
                                                        "targets")}


#: What a piece's export tells the exporting process: the piece, its games' keys and lines in order, the games it
#: left out as repeats, and its number of games (a progress step).
PieceResult = dict[str, Any]


def _result(input_number: int, number: int, source: str, rows: Rows) -> PieceResult:
    return {"input": input_number, "piece": number, "source": source, "games": rows.games,
            "ids": [(row[0], row[4]) for row in rows.tables["games"]],
            "repeats": [(gid, line) for gid, _, line in rows.repeats]}


def export_piece(out: str, piece: Piece, con: Any = None) -> PieceResult:
    """Export one piece: its rows written as its Parquet parts under ``out``; returns what the exporting process
    needs (:data:`PieceResult`). Made for worker processes and cluster tasks: plain values in and out; running
    it again rewrites the same parts. ``con``: a :func:`~.store.writer` to reuse (default: this process's pool
    writer, or a fresh one)."""
    rows = piece_rows(piece.text, piece.source, piece.input_number, piece.first_game, piece.line0, piece.hands)
    write_part(out, piece.input_number, piece.number, rows.tables, con if con is not None else _POOL_WRITER[0])
    return _result(piece.input_number, piece.number, piece.source, rows)


#: In a worker process of :func:`export`'s own pool (and only there): its writer, made by the pool's initializer.
_POOL_WRITER: list[Any] = [None]


def _start_worker() -> None:
    _POOL_WRITER[0] = writer()


def pieces(inputs: Sequence[Input], games: int = PIECE_GAMES,
           on_rows: Callable[[int, Rows], None] | None = None, hands: bool = False) -> Iterator[Piece]:
    """The pieces of every input, read lazily in input order. An input that cannot be read, or where no game
    can start (no ``[Format`` line), is read here at once and its rows (its game 0, or its "no game" finding)
    handed to ``on_rows(input_number, rows)`` instead (``rows.no_game`` set when it holds no game)."""
    from ..diagnostics import NO_GAME_RULE, file_lines, iter_pieces, normalise, scan_file, unreadable_reason

    def hand(k: int, rows: Rows) -> None:
        if on_rows is not None:
            on_rows(k, rows)

    for k, item in enumerate(inputs):
        if isinstance(item, tuple):
            source, text = item
            text = normalise(text)
            marks = text.count("[Format")
            lines: Iterator[str] = iter(io.StringIO(text, newline="\n"))
        else:
            source = os.fspath(item)
            try:
                marks = scan_file(item)
                lines = file_lines(item)
            except (OSError, UnicodeDecodeError) as exc:
                hand(k, file_rows(k, source, "unreadable", f"cannot read {source}: {unreadable_reason(exc)}"))
                continue
        if not marks:  # no game can start here: read whatever it holds at once, as game 0 or "no game"
            rows = Rows()
            for text, line0 in iter_pieces(lines, games):
                rows.add(piece_rows(text, source, k, 1, line0, hands))
            if not rows.games:
                rows = file_rows(k, source, NO_GAME_RULE, "no game in this input: a game starts with a line "
                                 '[Format "7WN 1"]')
                rows.no_game = 1
            hand(k, rows)
            continue
        first = 1
        for number, (text, line0) in enumerate(iter_pieces(lines, games)):
            yield Piece(k, number, source, text, line0, first, hands)
            first += games


# --- the output: written beside the target, moved into place whole ---------------------------------------------

#: The staging directory of an export is ``.NAME.wnotation-export-PID-XXXX`` beside the target ``NAME``: hidden,
#: on the same file system (so the final move is a rename), tied to the process that made it.
STAGE_MARK = ".wnotation-export-"


def _check_target(target: Path) -> None:
    """Refuse an output directory that is neither missing, empty nor an archive (nothing of the user's is ever
    replaced) or that is not a directory, before any work."""
    if target.exists() and not target.is_dir():
        raise ArchiveError(f"{target} is not a directory")
    if target.is_dir() and any(target.iterdir()):
        ours = set(TABLES) | {MANIFEST}
        if not all(p.name in ours or p.name.startswith(".") for p in target.iterdir()) or \
                not is_archive_dir(target):
            raise ArchiveError(f"{target} is not empty and is not an archive: choose an empty or new directory")


def _stage(beside: Path) -> Path:
    """A new staging directory beside ``beside`` (its parent made if missing) with a folder per table; the
    staging directories of exports of the same target whose process is gone (killed) are removed first."""
    from ..support.atomicfile import orphans

    parent = beside.parent
    parent.mkdir(parents=True, exist_ok=True)
    prefix = f".{beside.name}{STAGE_MARK}"
    for name in orphans(parent, prefix):
        if (parent / name).is_dir():
            shutil.rmtree(parent / name, ignore_errors=True)
    stage = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(stage, 0o777 & ~umask)  # as a directory made by mkdir (mkdtemp's is private)
    for table in TABLES:
        (stage / table).mkdir()
    return stage


def _exchange(a: Path, b: Path) -> bool:
    """Swap the directories ``a`` and ``b`` in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``); False
    where the system cannot (then nothing was done)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: this file system or kernel cannot exchange
        return False
    raise OSError(err, os.strerror(err), os.fspath(b))


def _move_into_place(stage: Path, target: Path) -> None:
    """Make the complete archive ``stage`` the directory ``target``: a rename when ``target`` is missing or
    empty, an atomic exchange with the earlier archive otherwise (which is then removed), so that a reader of
    ``target`` sees the earlier archive or the new one, whole. Where the system cannot exchange, the earlier
    archive is renamed aside first (a reader then finds no archive for that moment, never a mix)."""
    if not target.exists() or (target.is_dir() and not any(target.iterdir())):
        os.replace(stage, target)
        return
    if _exchange(stage, target):
        shutil.rmtree(stage, ignore_errors=True)  # the earlier archive, now under the staging name
        return
    aside = stage.with_name(stage.name + "-earlier")
    os.rename(target, aside)
    os.rename(stage, target)
    shutil.rmtree(aside, ignore_errors=True)


def _run_local(out: str, work: Iterator[Piece], jobs: int, done: Callable[[PieceResult], None]) -> None:
    if jobs <= 1:
        con = writer()
        try:
            for piece in work:
                done(export_piece(out, piece, con))
        finally:
            con.close()
        return
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    from .. import engine, notation  # noqa: F401  (loaded once, shared by forked workers)

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_start_worker) as pool:
        flying: deque[Future[PieceResult]] = deque()
        for piece in work:
            flying.append(pool.submit(export_piece, out, piece))
            while len(flying) >= IN_FLIGHT * jobs:
                done(flying.popleft().result())
        while flying:
            done(flying.popleft().result())


def _leave_out_repeats(stage: Path, results: list[PieceResult]) -> list[dict[str, Any]]:
    """Rewrite the parts of the pieces holding a game some earlier piece (in input, then piece order) holds, those
    games' rows left out; returns every repeat (in-piece ones too) as the manifest lists it."""
    seen: set[int] = set()
    repeats: list[dict[str, Any]] = []
    drops: dict[tuple[int, int], list[int]] = {}
    for r in sorted(results, key=lambda r: (r["input"], r["piece"])):
        for gid, line in r["ids"]:
            if gid in seen:
                drops.setdefault((r["input"], r["piece"]), []).append(gid)
                repeats.append({"game_id": gid, "file": r["source"], "start_line": line})
            seen.add(gid)
        repeats += [{"game_id": gid, "file": r["source"], "start_line": line} for gid, line in r["repeats"]]
    if drops:
        con = writer()
        try:
            for (k, number), gids in drops.items():
                for table in PIECE_TABLES:
                    final = stage / part_name(table, k, number)
                    temp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
                    con.sql("SELECT * FROM read_parquet($1) WHERE NOT list_contains($2::BIGINT[], game_id)",
                            params=[str(final), gids]).write_parquet(str(temp), compression=COMPRESSION)
                    os.replace(temp, final)
        finally:
            con.close()
    return repeats


_SUMMARY_SQL = """
SELECT count(*) FILTER (WHERE start_line > 0),
       count(*) FILTER (WHERE complete),
       count(*) FILTER (WHERE NOT readable AND start_line > 0),
       count(*) FILTER (WHERE readable AND error_count > 0),
       coalesce(sum(error_count) FILTER (WHERE readable AND error_count > 0), 0),
       count(*) FILTER (WHERE results_match = false),
       coalesce(sum(actions), 0)
FROM read_parquet($1)
"""
_FILE_ROWS_SQL = """
SELECT count(*) FILTER (WHERE rule_id = 'unreadable'), count(*) FILTER (WHERE rule_id <> 'unreadable')
FROM read_parquet($1) WHERE finding_kind = 'file'
"""


def _count(stage: Path, summary: ExportSummary) -> dict[str, dict[str, int]]:
    """Fill ``summary``'s counts from the tables written under ``stage``; returns the rows of every part."""
    con = writer()
    try:
        games = part_files(stage, "games")
        (summary.games, summary.complete, summary.broken, summary.with_errors, summary.errors,
         summary.wrong_results, summary.actions) = con.execute(_SUMMARY_SQL, [games]).fetchone()
        summary.unreadable, summary.no_game = con.execute(_FILE_ROWS_SQL, [part_files(stage, "findings")]).fetchone()
        rows: dict[str, dict[str, int]] = {}
        for table in TABLES:
            files = part_files(stage, table)
            counted = dict(con.execute("SELECT filename, count(*) FROM read_parquet($1, filename = true) GROUP BY 1",
                                       [files]).fetchall())
            rows[table] = {Path(f).name: counted.get(f, 0) for f in files}
        return rows
    finally:
        con.close()


def _load_duckdb(path: str, stage: Path, games: int) -> None:
    """Write the archive under ``stage`` into the DuckDB file at ``path`` in one transaction: its tables of the
    archive's names replaced and ``archive_manifest`` written, or (killed, failed) none of it. The database's
    other tables are kept. DuckDB holds at most :data:`DUCKDB_MEMORY` in memory (the rest goes to its
    temporary directory beside the file)."""
    db = duckdb()
    try:
        con = db.connect(path, config={"memory_limit": DUCKDB_MEMORY, "threads": 1,
                                       "preserve_insertion_order": True})
    except db.Error as exc:
        raise ArchiveError(f"cannot write the DuckDB file {path}: {' '.join(str(exc).split())}") from None
    try:
        con.execute("BEGIN TRANSACTION")
        try:
            load_parquet(con, stage, {t: part_files(stage, t) for t in TABLES})
            write_db_manifest(con, games)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    except db.Error as exc:
        raise ArchiveError(f"cannot write the DuckDB file {path}: {' '.join(str(exc).split())}") from None
    finally:
        con.close()


#: DuckDB's memory limit while it loads an archive into a file.
DUCKDB_MEMORY = "256MB"


def _cpu_children() -> float:
    try:
        import resource
    except ImportError:  # not POSIX
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def export(inputs: Sequence[Input], out: str | os.PathLike[str] | None = None, *,
           duckdb_file: str | os.PathLike[str] | None = None, jobs: int = 1, scheduler: str | None = None,
           piece_games: int = PIECE_GAMES, progress: Callable[[int], None] | None = None,
           hands: bool = False) -> ExportSummary:
    """Export the games of ``inputs`` (paths, or ``(source, text)`` pairs) as an archive: Parquet parts under
    ``out`` and/or the tables of the DuckDB file ``duckdb_file``. ``jobs`` worker processes (0: one per core), or
    the Dask cluster at ``scheduler`` (its workers must reach ``out``'s parent at the same path and have wnotation
    installed). ``progress`` is called with the number of games of each piece once its parts are written, and of
    each input read whole (a progress bar's steps). ``hands``: write the ``hands`` table's rows (each seat's hand
    at each turn; it costs about half as much again), else that table is empty. Returns the summary.

    All or nothing: the parts are written into a hidden staging directory beside ``out``, the manifest last, and
    the whole moved into place at the end (an earlier archive there stays readable until that moment); the
    DuckDB file is written in one transaction. An interrupted or failed export leaves the earlier archive (or
    nothing) and removes its staging directory; one left by a killed export is removed by the next export of the
    same target. Raises :class:`ArchiveError` when DuckDB (or, for a scheduler, dask.distributed) is missing, an
    output cannot be used or written (the file and the system's reason named), or the scheduler is lost."""
    if out is None and duckdb_file is None:
        raise ArchiveError("nowhere to export to: give an output directory, a DuckDB file or both")
    db = duckdb()
    started, cpu0, children0 = time.perf_counter(), time.process_time(), _cpu_children()
    summary = ExportSummary(inputs=len(inputs))
    target = None if out is None else Path(os.path.abspath(out))
    db_path = None if duckdb_file is None else os.path.abspath(duckdb_file)
    if target is not None:
        _check_target(target)
    if db_path is not None and os.path.isdir(db_path):
        raise ArchiveError(f"{os.fspath(duckdb_file)} is a directory, not a DuckDB file")  # type: ignore[arg-type]
    shown = os.fspath(out) if out is not None else os.fspath(duckdb_file)  # type: ignore[arg-type]
    stage: Path | None = None
    try:
        stage = _stage(target if target is not None else Path(db_path))  # type: ignore[arg-type]
        out_dir = os.fspath(stage)
        results: list[PieceResult] = []

        def whole(k: int, rows: Rows) -> None:
            write_part(out_dir, k, 0, rows.tables)
            results.append(_result(k, 0, rows.tables["games"][0][2] if rows.tables["games"] else "", rows))
            if progress is not None:
                progress(rows.games)

        work = pieces(inputs, piece_games, whole, hands)

        def done(result: PieceResult) -> None:
            summary.pieces += 1
            results.append(result)
            if progress is not None:
                progress(result["games"])

        if scheduler is not None:
            from .cluster import run_export

            run_export(scheduler, out_dir, work, done, export_piece)
        else:
            _run_local(out_dir, work, jobs or os.cpu_count() or 1, done)
        remove_temporaries(out_dir)
        con = writer()
        try:
            write_cards(stage, con)
        finally:
            con.close()
        repeats = _leave_out_repeats(stage, results)
        rows = _count(stage, summary)
        summary.repeats = len(repeats)
        write_manifest(stage, summary.games, rows, repeats, hands)
        if db_path is not None:
            _load_duckdb(db_path, stage, summary.games)
        if target is not None:
            _move_into_place(stage, target)
            stage = None
            summary.targets.append(os.fspath(out))  # type: ignore[arg-type]
        if db_path is not None:
            summary.targets.append(os.fspath(duckdb_file))  # type: ignore[arg-type]
    except OSError as exc:
        raise ArchiveError(f"cannot write {_shown_path(exc, stage, shown)}: {_reason(exc)}") from None
    except db.Error as exc:  # DuckDB writing a part: its own message (disk full, permission)
        raise ArchiveError(f"cannot write {shown}: {' '.join(str(exc).split())}") from None
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
    summary.seconds = time.perf_counter() - started
    if scheduler is None:
        summary.cpu_seconds = time.process_time() - cpu0 + _cpu_children() - children0
    return summary


def _shown_path(exc: OSError, stage: Path | None, shown: str) -> str:
    """The file an OS error concerns, as the user knows it: a path in the staging directory named as the
    same path in the output (``archive/plays/part-00000-000003.parquet``), else the path itself or the output."""
    name = exc.filename
    if not isinstance(name, str):
        return shown
    if stage is not None and (name == os.fspath(stage) or name.startswith(os.fspath(stage) + os.sep)):
        inside = name[len(os.fspath(stage)) + 1:]
        return os.path.join(shown, inside) if inside else shown
    return name


def _reason(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower()
