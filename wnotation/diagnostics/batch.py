"""Checking many inputs, in worker processes or not: :func:`check_many` yields one :class:`Run` per input, in input
order, with the same reports whatever the number of jobs. No command line here: the CLI's ``check`` prints what
this yields, and tests drive it directly.

The inputs are read a game at a time (:func:`~wnotation.diagnostics.iter_pieces`) and their games gathered into
tasks of whole games, several workers sharing a big file and small files going several to a task; tasks shrink as
the games left to send do (:func:`piece_size`), so that the workers finish together. At most ``PIECES_PER_WORKER``
tasks per worker are in flight, so memory holds only their text. Standard input is ``-``.
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from . import Diagnostic, GameReport
    from .inputs import FileLines

__all__ = ["MAX_PIECE_GAMES", "PIECES_PER_WORKER", "STDIN", "STDIN_NAME", "Run", "WorkerLost", "check_many",
           "piece_size"]

#: The path that names standard input, and the source name its diagnostics carry.
STDIN = "-"
STDIN_NAME = "<stdin>"


class WorkerLost(RuntimeError):
    """A worker process ended before it sent the reports of its task (killed, out of memory): the message names
    the input whose games were lost. The games reported before it are complete and in order."""


class Run:
    """One input as ``check`` streams it: ``source``, ``error`` (why it cannot be read, or ``None``), then its
    game reports in file order (``games()``, numbered across pieces: consume them before asking for the next
    input), then ``remarks`` (set once the games are consumed: the diagnostic of an input without any game)."""

    def __init__(self, source: str, error: str | None, results: Iterator[tuple[GameReport, ...]],
                 first: list[str], allow_empty: bool = False) -> None:
        self.source, self.error, self.results, self.first = source, error, results, first
        self.allow_empty = allow_empty
        self.remarks: tuple[Diagnostic, ...] = ()

    def games(self) -> Iterator[GameReport]:
        from dataclasses import replace

        from . import no_game_remark

        index = 0
        for reports in self.results:
            for game in reports:
                index += 1
                yield game if game.index == index else replace(game, index=index)
        if index == 0 and self.error is None:
            self.remarks = (no_game_remark(self.source, self.first[0] if self.first else "", self.allow_empty),)


def check_many(inputs: Sequence[str], jobs: int = 1, allow_empty: bool = False) -> Generator[Run, None, None]:
    """Yield a :class:`Run` for each input (a path, or ``-`` for standard input) in input order, checked in
    ``jobs`` worker processes (0: one per CPU; 1: in this process). Close the generator (``contextlib.closing``)
    to stop the workers early.

    Each input is read lazily and cut into pieces of whole games (:func:`~wnotation.diagnostics.iter_pieces`;
    a file is first scanned once for UTF-8 and its number of games, so that an unreadable file is reported before
    any of its games). With one job, each piece (one game) is checked here; with more, the first game is checked
    here and worker processes check the others (:func:`~wnotation.diagnostics.check_pieces`) in tasks of
    :func:`piece_size` games, consecutive games of one input joined into one piece; at most
    ``PIECES_PER_WORKER`` tasks per worker are in flight, so only their text is held. Both ways give equal
    reports, in file order."""
    import os

    workers = jobs or os.cpu_count() or 1
    if workers == 1:
        for path in inputs:
            source, error, count, pieces, first, lines = _open_input(path, lambda count: 1)
            yield Run(source, error, _checked(pieces, source, lines), first, allow_empty)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Load the notation and the engine before the workers start: forked workers then share them (jobs 1 pays the
    # same imports). The first game is checked here, before the first task starts the workers (_Pool), so that they
    # also share what a first check builds (the reader's parser and expressions: ~40 ms a process).
    from .. import engine, notation  # noqa: F401

    # fork where it is safe (Linux): workers start at once with all of the above loaded. Nothing here runs a
    # thread before the pool starts (the progress bar redraws without one).
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from _Pool(pool, inputs, workers, allow_empty).runs()


#: Tasks are sized by guided self-scheduling: each holds 1/(GUIDE * N) of the games not yet sent, within 1 and
#: MAX_PIECE_GAMES, so the first tasks are big (few tasks, little overhead) and the last ones hold a game or two, so
#: that the workers finish together: the time of the last task is what a core may stand idle at the end. At most
#: PIECES_PER_WORKER * N tasks are in flight, so memory holds only their text.
PIECES_PER_WORKER = 8
GUIDE = 2
MAX_PIECE_GAMES = 32


def piece_size(games: int, workers: int) -> int:
    """How many games the next task holds when ``games`` games are left to send to ``workers`` workers."""
    return max(1, min(MAX_PIECE_GAMES, -(-games // (GUIDE * workers))))


def _open_input(path: str, size: Any, indexed: bool = True) -> tuple[str, str | None, int, Iterator[tuple[list[str], int]], list[str],
                                               FileLines | None]:
    """``(source, error, marks, pieces, first, lines)`` of an input: ``error`` why it cannot be read (and no
    pieces), ``marks`` its ``[Format`` marks (at least its games), its pieces of ``size(marks)`` games read lazily
    (:func:`~wnotation.diagnostics.iter_pieces`), each as ``([text], line0)`` (take the text out of its list: the
    list is the only other reference to it), ``first``, filled with its first line once read, and for a file its
    :class:`~.inputs.FileLines` (``None`` for standard input, which is read whole as it cannot be scanned twice,
    and for a file with bare CR line ends: their lines are quoted from the text; ``None`` too when not
    ``indexed``: pieces sent to worker processes go with their text)."""
    from . import iter_lines, iter_pieces, normalise, stdin_text, unreadable_reason
    from .inputs import file_pieces, scan_file, scan_index

    source = STDIN_NAME if path == STDIN else path
    index: FileLines | None = None
    try:
        if path == STDIN:
            text = normalise(stdin_text())
            marks = text.count("[Format")
            lines: Iterator[str] | None = iter_lines(text)
        else:
            marks, index = scan_index(path) if indexed else (scan_file(path), None)
            lines = None  # read in blocks (file_pieces), not line by line
    except (OSError, UnicodeDecodeError) as exc:
        return source, unreadable_reason(exc), 0, iter(()), [], None
    first: list[str] = []

    def pieces() -> Iterator[tuple[list[str], int]]:
        cut = iter_pieces(lines, size(marks)) if lines is not None else file_pieces(path, size(marks))
        for piece, line0 in cut:
            if not first:
                end = piece.find("\n")
                first.append(piece if end < 0 else piece[:end])
            box = [piece]
            del piece  # held by the box alone while the piece is checked
            yield box, line0

    return source, None, marks, pieces(), first, index


def _checked(pieces: Iterator[tuple[list[str], int]], source: str,
             lines: FileLines | None) -> Iterator[tuple[GameReport, ...]]:
    """The reports of each piece checked in this process: a file's pieces with their lines read back from it
    (:func:`~.pipeline.check_read`: the text is not held while its games are replayed), other inputs' with their
    text (:func:`~.pipeline.check_piece`)."""
    from .pipeline import check_piece, check_read

    for box, line0 in pieces:
        if lines is not None:
            yield check_read(box.pop(), source, line0, lines)
        else:
            yield check_piece(box.pop(), source, line0)


def _bytes(path: str) -> int:
    """The size of an input in bytes as far as it can be known before reading it (standard input: 0)."""
    import os

    try:
        return 0 if path == STDIN else os.path.getsize(path)
    except OSError:
        return 0


class _Task:
    """Games sent to a worker together: ``entries`` of ``[source, line0, texts]``, one per input they come from (the
    texts of consecutive games of one input joined at submission into one piece), and once submitted the future of
    their reports (one tuple per entry)."""

    def __init__(self) -> None:
        self.entries: list[list[Any]] = []
        self.games = self.count = 0  # games gathered, entries sent
        self.size = 1  # games it is to hold
        self.future: Any = None


class _Pool:
    """The games of every input sent to a process pool in input order, in tasks of guided sizes
    (:func:`piece_size` of the games not yet sent), at most ``PIECES_PER_WORKER`` tasks per worker submitted and not
    yet reported, the reports handed back in input order as :class:`Run` objects. A task may hold games of several
    inputs (small files) or part of one."""

    def __init__(self, pool: Any, inputs: Sequence[str], workers: int, allow_empty: bool = False) -> None:
        from collections import deque

        self.allow_empty = allow_empty
        self.pool, self.workers = pool, workers
        self.limit = PIECES_PER_WORKER * workers
        self.unopened, self.unread = len(inputs), sum(_bytes(path) for path in inputs)  # inputs and bytes to come
        self.marks = self.read = self.sent = 0  # games (marks) and bytes of the inputs opened, games sent
        self.items = self._items(inputs)
        self.slots: deque[tuple[Any, ...]] = deque()  # ("file", source, error, first) and ("piece", task, k)
        self.submitted: deque[_Task] = deque()  # tasks submitted and not yet reported, in order
        self.batch = _Task()  # games waiting for a task
        self.source = ""  # the input being reported
        self.here = True  # the first task (one game) is checked in this process, before the workers start

    def _items(self, inputs: Sequence[str]) -> Iterator[tuple[Any, ...]]:
        for path in inputs:
            source, error, marks, pieces, first, _ = _open_input(path, lambda marks: 1, indexed=False)  # one game a piece
            size = _bytes(path)
            self.unopened, self.unread, self.read = self.unopened - 1, self.unread - size, self.read + size
            self.marks += max(1, marks)
            yield "file", source, error, first
            for box, line0 in pieces:
                yield "piece", box.pop(), source, line0

    def _left(self) -> int:
        """The games not yet gathered into a task: those of the inputs opened, and for the others (at least one
        each) as many per byte as the opened ones hold."""
        later = self.unread * self.marks // self.read if self.read else 0
        return max(1, self.marks + max(self.unopened, later) - self.sent)

    def _submit(self, task: _Task) -> None:
        from concurrent.futures import Future

        from . import check_pieces

        batch = [(entry[2][0] if len(entry[2]) == 1 else "".join(entry[2]), entry[0], entry[1])
                 for entry in task.entries]
        task.count, task.entries = len(batch), []  # once sent, the texts are the pool's to hold, not the task's
        if self.here:
            self.here = False
            task.future = Future()
            task.future.set_result(check_pieces(batch))
        else:
            task.future = self.pool.submit(check_pieces, batch)
        self.submitted.append(task)

    def _flush(self) -> None:
        if self.batch.entries:
            self._submit(self.batch)
            self.batch = _Task()

    def _fill(self) -> None:
        """Read inputs and submit their games until enough tasks are in flight (at least one slot ready)."""
        while len(self.submitted) < self.limit or not self.slots:
            item = next(self.items, None)
            if item is None:
                self._flush()
                return
            if item[0] == "file":
                self.slots.append(item)
                continue
            _, piece, source, line0 = item
            task = self.batch
            if task.games == 0:
                task.size = 1 if self.here else piece_size(self._left(), self.workers)
            last = task.entries[-1] if task.entries else None
            if last is not None and self.slots and self.slots[-1][1] is task:
                last[2].append(piece)  # the next game of the same input: one piece with the previous
            else:
                task.entries.append([source, line0, [piece]])
                self.slots.append(("piece", task, len(task.entries) - 1))
            task.games += 1
            self.sent += 1
            if task.games >= task.size:
                self._flush()
    def runs(self) -> Iterator[Run]:
        while True:
            self._fill()
            if not self.slots:
                return
            _, source, error, first = self.slots.popleft()
            self.source = source
            run = Run(source, error, self._results(), first, self.allow_empty)
            yield run
            for _ in run.results:  # what the caller left unread
                pass

    def _results(self) -> Iterator[tuple[Any, ...]]:
        """The reports of the current input's pieces, in order (waiting for them). Raises :class:`WorkerLost`."""
        from concurrent.futures.process import BrokenProcessPool

        while True:
            self._fill()
            if not self.slots or self.slots[0][0] == "file":
                return
            _, task, k = self.slots.popleft()
            if task.future is None:
                self._flush()
            try:
                reports = task.future.result()[k]
            except BrokenProcessPool:
                raise WorkerLost(f"a worker process ended before it sent the reports of {self.source} "
                                 "(killed, or out of memory?): the games after those shown were not checked") from None
            if k == task.count - 1:
                self.submitted.remove(task)
            yield reports
