"""``check --json`` written as the games come, byte for byte the text of ``json.dumps(report.to_dict(),
indent=2)`` for the whole :class:`~wnotation.diagnostics.CheckReport`, without holding the reports."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .report import CheckTally, Diagnostic, GameReport

#: A file's games are held in memory up to this size, then in a temporary file.
SPOOL_BYTES = 4 << 20


class JsonReport:
    """The JSON report of a check, streamed to ``write``: :meth:`start` an input, :meth:`game` each of its game
    reports, :meth:`end` it, and :meth:`finish` after the last input (the summary comes from ``tally``, which the
    caller keeps). A file's ``ok`` comes before its games in that layout, so each file's games are spooled (to a
    temporary file past ``SPOOL_BYTES``) until the file is done. Memory stays flat whatever the number of
    games."""

    def __init__(self, tally: CheckTally, write: Callable[[str], object]) -> None:
        self.tally, self.write = tally, write
        self.files, self.ok, self.empty, self.source = 0, True, True, ""
        self.spool: IO[str] | None = None

    def start(self, source: str) -> None:
        self.source, self.ok, self.empty = source, True, True
        self.spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+", encoding="utf-8")

    def game(self, game: GameReport) -> None:
        assert self.spool is not None, "game() before start()"
        self.ok = self.ok and game.ok
        self.spool.write(("" if self.empty else ",\n") + json_at(game.to_dict(), 4, first=True))
        self.empty = False

    def end(self, error: str | None, remarks: Sequence[Diagnostic]) -> None:
        assert self.spool is not None, "end() before start()"
        ok = error is None and self.ok and not any(d.severity == "error" for d in remarks)
        head = {"source": self.source, "ok": ok, "error": error,
                "remarks": [d.to_dict() for d in remarks], "games": []}
        text = json_at(head, 2, first=True)
        assert text.endswith('"games": []\n    }')
        self.write((",\n" if self.files else '{\n  "files": [\n') + text[: -len("[]\n    }")])
        if self.empty:
            self.write("[]")
        else:
            self.write("[\n")
            self.spool.seek(0)
            shutil.copyfileobj(self.spool, _Writer(self.write))
            self.write("\n      ]")
        self.write("\n    }")
        self.spool.close()
        self.spool = None
        self.files += 1

    def finish(self) -> None:
        summary = json_at(self.tally.summary_dict(), 1)
        files = "\n  ]" if self.files else '{\n  "files": []'
        self.write(f'{files},\n  "summary": {summary},\n  "exit_code": {self.tally.exit_code}\n}}\n')


class _Writer:
    """A writable object over a ``write`` function (for ``shutil.copyfileobj``)."""

    def __init__(self, write: Callable[[str], object]) -> None:
        self.write = write


def json_at(value: Any, level: int, first: bool = False) -> str:
    """``value`` as ``json.dumps(..., indent=2)`` lays it out ``level`` levels deep in a bigger document: every
    line but the first indented by ``2 * level`` spaces (the first too with ``first``)."""
    pad = "  " * level
    text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + pad)
    return pad + text if first else text
