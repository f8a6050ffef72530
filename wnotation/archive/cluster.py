"""Running export and check pieces on an existing Dask cluster (``dask.distributed``): each piece of whole games
is one task, submitted in input order with a bounded number in flight, its result gathered in that order.

No scheduler of our own: the cluster's scheduler places the tasks, and when a worker dies it runs the worker's
tasks again elsewhere. That is safe because a task is a pure function of its piece: an export task writes its
piece's own parts (named by the piece, replaced whole), a check task returns reports. The workers need
wnotation installed and, for an export, the output directory at the same path (a shared file system).
Optional dependency: ``pip install 'wnotation[cluster]'``.
"""

from __future__ import annotations

import os
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .errors import ArchiveError

__all__ = ["check_on_cluster", "connect", "run_export"]

CLUSTER_HINT = "install wnotation[cluster] (pip install 'wnotation[cluster]')"
#: Tasks in flight per worker thread.
IN_FLIGHT = 4
#: How long to wait for the scheduler to answer.
CONNECT_TIMEOUT = "10s"
#: Games per check task (as :data:`wnotation.diagnostics.batch.MAX_PIECE_GAMES`).
CHECK_PIECE_GAMES = 32


def connect(address: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address`` (``tcp://host:8786``). Raises
    :class:`ArchiveError` when dask.distributed is missing or nothing answers there within :data:`CONNECT_TIMEOUT`."""
    try:
        from distributed import Client
    except ImportError:
        raise ArchiveError(f"running on a cluster needs dask.distributed: {CLUSTER_HINT}") from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise ArchiveError(f"cannot reach the Dask scheduler at {address}: {' '.join(str(exc).split())}") from None


def _lost(address: str) -> ArchiveError:
    return ArchiveError(f"lost the Dask scheduler at {address} before every piece was done: nothing was "
                        "written; start the scheduler again (or run without --scheduler) and export again")


def _result(future: Any, address: str) -> Any:
    """``future``'s result; a task's own exception raised as it is, the scheduler going away as one
    :class:`ArchiveError` (the future then ends cancelled or lost, not in error)."""
    try:
        return future.result()
    except Exception:
        if future.status == "error":
            raise  # the task's own exception (a part it could not write)
        raise _lost(address) from None


def _ordered(client: Any, calls: Iterable[tuple[str, Callable[..., Any], tuple[Any, ...]]],
             address: str = "") -> Iterator[Any]:
    """The results of ``(key, function, args)`` calls run as cluster tasks, in the order given, with at most
    :data:`IN_FLIGHT` tasks per worker thread submitted and not yet gathered. A task's own exception is raised
    here; a task whose worker died is rerun by the scheduler; a scheduler gone away is :class:`ArchiveError`."""
    try:
        threads = max(1, sum(client.nthreads().values()))
    except (OSError, TimeoutError):
        raise _lost(address) from None
    flying: deque[Any] = deque()
    try:
        for key, function, args in calls:
            try:
                flying.append(client.submit(function, *args, key=key, pure=False))
            except (OSError, TimeoutError, RuntimeError):
                raise _lost(address) from None
            while len(flying) >= IN_FLIGHT * threads:
                yield _result(flying.popleft(), address)
        while flying:
            yield _result(flying.popleft(), address)
    finally:
        for future in flying:
            try:
                future.cancel()
            except Exception:  # the scheduler is gone: nothing to cancel there
                pass


def run_export(address: str, out: str, work: Iterable[Any], done: Callable[[dict[str, int]], None],
               export_piece: Callable[..., Any]) -> None:
    """Export each :class:`~.export.Piece` of ``work`` as a task on the cluster at ``address`` (its parts under
    ``out``, which must be the same path on the workers), passing each task's counts to ``done`` in order.
    ``export_piece`` is the exporter's task function, handed in so that this module does not import the exporter
    (which imports this one)."""
    run = uuid.uuid4().hex[:12]
    target = os.path.abspath(out)
    client = connect(address)
    try:
        calls = ((f"wnotation-export-{run}-{p.input_number}-{p.number}", export_piece, (target, p)) for p in work)
        for counts in _ordered(client, calls, address):
            done(counts)
    finally:
        client.close()


def check_on_cluster(inputs: Sequence[str], address: str, allow_empty: bool = False) -> Iterator[Any]:
    """``check`` on the cluster at ``address``: a :class:`wnotation.diagnostics.batch.Run` per input (a path) in input order,
    with the reports a local check gives (each task checks a piece of :data:`CHECK_PIECE_GAMES` whole games with
    :func:`wnotation.diagnostics.check_piece`). The inputs are read here; only their text goes to the workers."""
    from ..diagnostics.batch import Run
    from ..diagnostics import check_piece, file_lines, iter_pieces, scan_file, unreadable_reason

    run = uuid.uuid4().hex[:12]
    client = connect(address)
    try:
        for k, path in enumerate(inputs):
            try:
                scan_file(path)
                lines = file_lines(path)
            except (OSError, UnicodeDecodeError) as exc:
                yield Run(path, unreadable_reason(exc), iter(()), [], allow_empty)
                continue
            first: list[str] = []

            def calls(lines: Iterator[str] = lines, first: list[str] = first, k: int = k, path: str = path
                      ) -> Iterator[tuple[str, Callable[..., Any], tuple[Any, ...]]]:
                for n, (piece, line0) in enumerate(iter_pieces(lines, CHECK_PIECE_GAMES)):
                    if not first:
                        first.append(piece.split("\n", 1)[0])
                    yield f"wnotation-check-{run}-{k}-{n}", check_piece, (piece, path, line0)

            result = Run(path, None, _ordered(client, calls(), address), first, allow_empty)
            yield result
            for _ in result.games():  # what the caller left unread
                pass
    finally:
        client.close()
