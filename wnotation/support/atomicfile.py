"""Replacing a file atomically: the one writer of ``fmt --write`` and ``record``.

A reader of the file sees the old text or the new one, never a mix, and a crash at any moment leaves one of the
two: the new text goes to a hidden temporary file in the same directory, is flushed to disk, then renamed over the
original. Not for directories of many outputs (the viewer's site writes its pages its own way).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

__all__ = ["TEMP_MARK", "orphans", "write_atomic"]

#: Temporary files are named ``.NAME.wnotation-PID-XXXX.tmp`` beside the file NAME: hidden and not ``*.7wn``, so
#: ``check DIR`` and ``fmt DIR`` never read one, and tied to the process that made it.
TEMP_MARK = ".wnotation-"


def write_atomic(path: str, text: str) -> None:
    """Replace the file at ``path`` by ``text`` (UTF-8, ``\\n`` line ends) atomically: a temporary file in the same
    directory (the original's permissions, or the umask's for a new file), flushed to disk, then renamed over the
    original. A symbolic link is written through: the file it points to is replaced, the link kept. On any failure
    the original is untouched and the temporary file removed; one left by a killed run (its process gone) is
    removed by the next write of the same file. Raises :class:`OSError`."""
    target = os.path.realpath(path)
    directory, name = os.path.split(target)
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{name}{TEMP_MARK}{os.getpid()}-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _sync_directory(directory)
    _remove_stale_temps(directory, name)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def _sync_directory(directory: str) -> None:
    """Flush the rename itself to disk (POSIX), so that a power cut after the write keeps the new name."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # not possible here (Windows): the rename is as durable as the system makes it
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _remove_stale_temps(directory: str, name: str) -> None:
    """Remove the temporary files for the file ``name`` whose process no longer runs (killed mid-write): they hold
    nothing the file does not."""
    for entry in orphans(directory, f".{name}{TEMP_MARK}"):
        if entry.endswith(".tmp"):
            try:
                os.unlink(os.path.join(directory, entry))
            except OSError:
                pass  # gone already, or not ours to remove: it is hidden and never read


def orphans(directory: str | os.PathLike[str], prefix: str) -> Iterator[str]:
    """The names in ``directory`` made by a writer that is gone: ``prefix``, then the process id of the writer
    and ``-``, where that process no longer runs (killed mid-write). The one reading of those scratch names, for
    this module's temporary files and the archive export's staging folders."""
    for entry in os.listdir(directory):
        pid = entry[len(prefix):].split("-", 1)[0] if entry.startswith(prefix) else ""
        if pid.isdigit() and int(pid) != os.getpid() and not _process_runs(int(pid)):
            yield entry


def _process_runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it runs, under another user
    return True
