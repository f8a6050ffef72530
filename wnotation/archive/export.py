"""Exporting an archive: inputs cut into pieces of whole games, each piece's rows written as its own Parquet
parts (:func:`export_piece`), pieces run here, in a process pool (``jobs``) or as tasks on a Dask cluster
(:mod:`.cluster`); then, if asked, the parts loaded into one DuckDB file.

Pieces are cut the same way whatever runs them (``PIECE_GAMES`` games each), and a part is named by its piece,
so every way of running gives the same files with the same rows. Memory stays flat: one piece's text and rows per
worker, a bounded number of pieces in flight. Unreadable inputs and broken games are rows too (``games`` and
``findings``), never dropped. The CLI's ``export`` command is a thin shell over :func:`export`.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .rows import Rows, file_rows, piece_rows
from .schema import TABLES
from .store import (
    ArchiveError, duckdb, is_archive_dir, load_parquet, part_files, remove_temporaries, write_part, writer,
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
Input = str | os.PathLike | tuple[str, str]


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


@dataclass
class ExportSummary:
    """What an export wrote: counts over every input (``str`` is the one-line summary the CLI prints)."""

    inputs: int = 0
    games: int = 0
    complete: int = 0
    broken: int = 0
    wrong_results: int = 0
    unreadable: int = 0
    no_game: int = 0
    actions: int = 0
    pieces: int = 0
    seconds: float = 0.0
    targets: list[str] = field(default_factory=list)

    def add(self, counts: dict[str, int]) -> None:
        for name, value in counts.items():
            setattr(self, name, getattr(self, name) + value)

    @property
    def problems(self) -> int:
        """Inputs and games that did not export cleanly (unreadable, no game, broken, wrong results)."""
        return self.unreadable + self.no_game + self.broken + self.wrong_results

    def __str__(self) -> str:
        def n(count: int, word: str) -> str:
            return f"{count:,} {word}{'' if count == 1 else 's'}"

        parts = [f"{self.complete:,} complete"]
        if self.broken:
            parts.append(f"{self.broken:,} broken")
        if self.wrong_results:
            parts.append(f"{self.wrong_results:,} with wrong stated results")
        inputs = n(self.inputs, "input")
        bad = [f"{self.unreadable:,} unreadable"] if self.unreadable else []
        bad += [f"{self.no_game:,} without a game"] if self.no_game else []
        if bad:
            inputs += f" ({', '.join(bad)})"
        rate = f", {self.actions / self.seconds:,.0f} actions/s" if self.seconds > 0 else ""
        where = f" -> {', '.join(self.targets)}" if self.targets else ""
        return (f"exported {n(self.games, 'game')} ({', '.join(parts)}) and {n(self.actions, 'play')} from "
                f"{inputs} in {self.seconds:.1f} s{rate}{where}")

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in ("inputs", "games", "complete", "broken", "wrong_results",
                                                        "unreadable", "no_game", "actions", "pieces", "seconds",
                                                        "targets")}


def export_piece(out: str, piece: Piece, con: Any = None) -> dict[str, int]:
    """Export one piece: its rows written as its Parquet parts under ``out``; returns the piece's counts.
    Made for worker processes and cluster tasks: plain values in and out; running it again rewrites the same
    parts. ``con``: a :func:`~.store.writer` to reuse (default: this process's pool writer, or a fresh one)."""
    rows = piece_rows(piece.text, piece.source, piece.input_number, piece.first_game, piece.line0)
    write_part(out, piece.input_number, piece.number, rows.tables, con if con is not None else _POOL_WRITER[0])
    return rows.counts()


#: In a worker process of :func:`export`'s own pool (and only there): its writer, made by the pool's initializer.
_POOL_WRITER: list[Any] = [None]


def _start_worker() -> None:
    _POOL_WRITER[0] = writer()


def pieces(inputs: Sequence[Input], games: int = PIECE_GAMES,
           on_rows: Callable[[int, Rows], None] | None = None) -> Iterator[Piece]:
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
                rows.add(piece_rows(text, source, k, 1, line0))
            if not rows.games:
                rows = file_rows(k, source, NO_GAME_RULE, "no game in this input: a game starts with a line "
                                 '[Format "7WN 1"]')
                rows.no_game = 1
            hand(k, rows)
            continue
        first = 1
        for number, (text, line0) in enumerate(iter_pieces(lines, games)):
            yield Piece(k, number, source, text, line0, first)
            first += games


def _prepare(out: str) -> None:
    """Make ``out`` an empty archive directory: created if missing, an earlier archive's parts removed; a
    directory holding anything else is refused (nothing of the user's is ever deleted)."""
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise ArchiveError(f"{out} is not a directory")
    if root.is_dir() and any(root.iterdir()):
        ours = set(TABLES)
        if not all(p.name in ours or p.name.startswith(".") for p in root.iterdir()) or not is_archive_dir(out):
            raise ArchiveError(f"{out} is not empty and is not an archive: choose an empty or new directory")
        for table in TABLES:
            for f in part_files(out, table):
                os.unlink(f)
        remove_temporaries(out)
    for table in TABLES:
        (root / table).mkdir(parents=True, exist_ok=True)


def _run_local(out: str, work: Iterator[Piece], jobs: int, done: Callable[[dict[str, int]], None]) -> None:
    if jobs <= 1:
        con = writer()
        try:
            for piece in work:
                done(export_piece(out, piece, con))
        finally:
            con.close()
        return
    import multiprocessing
    import sys
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    from .. import engine, notation  # noqa: F401  (loaded once, shared by forked workers)

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_start_worker) as pool:
        flying: deque = deque()
        for piece in work:
            flying.append(pool.submit(export_piece, out, piece))
            while len(flying) >= IN_FLIGHT * jobs:
                done(flying.popleft().result())
        while flying:
            done(flying.popleft().result())


def export(inputs: Sequence[Input], out: str | os.PathLike[str] | None = None, *,
           duckdb_file: str | os.PathLike[str] | None = None, jobs: int = 1, scheduler: str | None = None,
           piece_games: int = PIECE_GAMES, progress: Callable[[int], None] | None = None) -> ExportSummary:
    """Export the games of ``inputs`` (paths, or ``(source, text)`` pairs) as an archive: Parquet parts under
    ``out`` and/or the tables of the DuckDB file ``duckdb_file`` (replaced if they exist). ``jobs`` worker
    processes (0: one per core), or the Dask cluster at ``scheduler`` (its workers must reach ``out`` at the same
    path and have wnotation installed). ``progress`` is called with the number of games of each piece once its
    parts are written, and of each input read whole (a progress bar's steps). Returns the summary; raises
    :class:`ArchiveError` when DuckDB (or, for a scheduler, dask.distributed) is missing or an output cannot be
    used."""
    if out is None and duckdb_file is None:
        raise ArchiveError("nowhere to export to: give an output directory, a DuckDB file or both")
    duckdb()
    started = time.perf_counter()
    summary = ExportSummary(inputs=len(inputs))
    scratch = None
    if out is None:
        target = Path(duckdb_file).resolve()  # type: ignore[arg-type]
        scratch = tempfile.mkdtemp(prefix=".wnotation-export-", dir=target.parent)
        out_dir = scratch
    else:
        out_dir = os.fspath(out)
    try:
        _prepare(out_dir)

        def whole(k: int, rows: Rows) -> None:
            write_part(out_dir, k, 0, rows.tables)
            summary.add(rows.counts())
            if progress is not None:
                progress(rows.games)

        work = pieces(inputs, piece_games, whole)

        def done(counts: dict[str, int]) -> None:
            summary.pieces += 1
            summary.add(counts)
            if progress is not None:
                progress(counts["games"])

        if scheduler is not None:
            from .cluster import run_export

            run_export(scheduler, out_dir, work, done)
        else:
            _run_local(out_dir, work, jobs or os.cpu_count() or 1, done)
        remove_temporaries(out_dir)
        if out is not None:
            summary.targets.append(out_dir)
        if duckdb_file is not None:
            db = duckdb()
            try:
                con = db.connect(os.fspath(duckdb_file))
            except db.Error as exc:
                raise ArchiveError(f"cannot write the DuckDB file {os.fspath(duckdb_file)}: "
                                   f"{' '.join(str(exc).split())}") from None
            try:
                load_parquet(con, out_dir)
            finally:
                con.close()
            summary.targets.append(os.fspath(duckdb_file))
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    summary.seconds = time.perf_counter() - started
    return summary
