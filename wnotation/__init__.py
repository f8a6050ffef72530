"""wnotation: the 7WN notation for games of 7 Wonders (2nd edition) and the engine that replays it.

The package's front door, in the order data flows: :func:`parse` / :func:`read_games` (7WN text → Record),
:func:`write` (Record → canonical text), :func:`replay` (Record → Replay: positions, findings, score sheet) and
:func:`check` (text or file → diagnostics with file:line:column). Each imports its module on first use, so
``import wnotation`` (and ``wnotation --version``) stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .diagnostics import FileReport
    from .engine import Replay
    from .record import Record

__version__ = "0.1.0"

__all__ = ["__version__", "check", "parse", "read_games", "replay", "write", "write_games"]


def parse(text: str, *, source: str = "<string>") -> "Record":
    """The one game in ``text`` as a Record. Raises ``NotationError`` (file:line:column, a caret, the rule)
    if it is not exactly one valid 7WN game. See :func:`wnotation.notation.parse`."""
    from .notation import parse as _parse

    return _parse(text, source=source)


def read_games(path_or_file_or_text: Any, *, source: str | None = None, errors: str = "collect") -> Any:
    """Yield each game of a file, open file or text: a Record, or (``errors="collect"``) the ``NotationError`` of
    a broken game, the next game still read; ``errors="raise"`` raises it instead. See
    :func:`wnotation.notation.read_games`."""
    from .notation import read_games as _read_games

    return _read_games(path_or_file_or_text, source=source, errors=errors)


def write(record: "Record") -> str:
    """The canonical 7WN text of ``record`` (ends with a newline). See :func:`wnotation.notation.write`."""
    from .notation import write as _write

    return _write(record)


def write_games(records: Any) -> str:
    """The canonical text of several games, separated by one empty line."""
    from .notation import write_games as _write_games

    return _write_games(records)


def replay(record: "Record") -> "Replay":
    """Replay ``record``: positions (``replay.position("II.3")``), findings (each with its rule ID and the source
    span of the action it concerns), and the score sheet of a complete game, expected results verified.
    See :func:`wnotation.engine.replay`."""
    from .engine import replay as _replay

    return _replay(record)


def check(path_or_text: Any, *, source: str | None = None) -> "FileReport":
    """Check every game of a file or text: read, replay, verify. Returns a report whose ``diagnostics`` render
    compiler-style (``game.7wn:12:5: error[R-TRADE]: …`` with the line and a caret). See
    :func:`wnotation.diagnostics.check`."""
    from .diagnostics import check as _check

    return _check(path_or_text, source=source)
