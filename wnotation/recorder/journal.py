"""Where a recording is kept: the file rewritten atomically in canonical 7WN after every answer that changes the
record, so that a crash loses at most the turn being entered, and read back to go on with an unfinished game."""

from __future__ import annotations

import os

from ..model.record import Record
from ..notation import parse
from ..support.atomicfile import write_atomic
from .progress import Progress

__all__ = ["Journal", "exists", "read"]


class Journal:
    """The file ``path`` holding ``progress``'s record (``None``: nowhere)."""

    def __init__(self, progress: Progress, path: str | None) -> None:
        self.progress = progress
        self.path = path

    def save(self) -> None:
        """Rewrite the file atomically (nothing when there is no path). Raises ``OSError``."""
        if self.path is not None:
            write_atomic(self.path, self.progress.text())


def read(path: str) -> Record:
    """The record in ``path``. Raises ``NotationError`` when the file is not one readable game, ``OSError`` when it
    cannot be read."""
    with open(path, encoding="utf-8") as handle:
        return parse(handle.read(), source=path)


def exists(path: str) -> bool:
    """Whether ``path`` holds a record to go on with (a non-empty file)."""
    return os.path.isfile(path) and os.path.getsize(path) > 0
