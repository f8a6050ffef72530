"""Reading what the commands are given: record paths (files, directories, ``-`` for stdin), one game of a file,
and a game replayed with its findings on stderr. Every failure is a one-line :class:`UserError` (exit 2) or the
notation's own compiler-style error."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from ..batch import STDIN, STDIN_NAME
from .errors import EXIT_FINDINGS, EXIT_OK, UserError
from .output import err

if TYPE_CHECKING:
    from ..engine import Replay
    from ..record import Record

__all__ = ["RECORD_PATH", "STDIN", "STDIN_NAME", "expand", "one_game", "read", "replayed", "seat_number"]

#: A record argument: any path (stdin as ``-``), left to the command to read, so that its errors stay one line; the
#: type lets the shell complete file names.
RECORD_PATH = click.Path(allow_dash=True, readable=False)


def read(path: str) -> tuple[str, str]:
    """``(text, source name)`` of a file or of ``-`` (stdin). Raises ``UserError`` with one line when the input
    cannot be read."""
    from ..diagnostics import read_text, stdin_text, unreadable_reason

    try:
        if path == STDIN:
            return stdin_text(), STDIN_NAME
        return read_text(path), path
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {STDIN_NAME if path == STDIN else path}: {unreadable_reason(exc)}") from None


def expand(paths: Sequence[str]) -> list[str]:
    """The inputs named by ``paths``, in order: files as given, directories searched recursively for ``*.7wn``
    (sorted), ``-`` for stdin. A path that does not exist, or a directory without any ``.7wn`` file, is a
    ``UserError`` (exit 2) before anything is read."""
    import os
    from pathlib import Path

    out: list[str] = []
    for path in paths:
        if path == STDIN:
            out.append(path)
        elif os.path.isdir(path):
            found = sorted(str(p) for p in Path(path).rglob("*.7wn") if p.is_file())
            if not found:
                raise UserError(f"no .7wn file in directory {path}")
            out.extend(found)
        elif os.path.exists(path):
            out.append(path)
        else:
            raise UserError(f"cannot read {path}: no such file or directory")
    if out.count(STDIN) > 1:
        raise click.UsageError("'-' (stdin) can be given only once")
    return out


def one_game(path: str, game: int) -> tuple[Record, list[str], str]:
    """``(record, source lines, source name)`` of game number ``game`` (1-based) of a file. A notation error in
    that game is raised (shown compiler-style, exit 2); a missing game is a ``UserError``."""
    from ..diagnostics import source_lines
    from ..notation import NotationError, read_games

    text, source = read(path)
    count = 0
    for count, item in enumerate(read_games(text, source=source), start=1):
        if count == game:
            if isinstance(item, NotationError):
                raise item
            return item, source_lines(text), source
    have = "no game" if count == 0 else f"{count} game" + ("s" if count > 1 else "")
    raise UserError(f"{source} has {have}; there is no game {game}")


def replayed(record: Record, lines: list[str], source: str) -> tuple[Replay, int]:
    """Replay ``record``, print its findings to stderr (not those that only ``check`` shows), and return the
    replay and the exit code they give."""
    from ..diagnostics import diagnostics_of
    from ..engine import replay

    played = replay(record)
    found = [d for d in diagnostics_of(record, played.findings, lines, source) if not d.check_only]
    for d in found:
        err(str(d))
    return played, EXIT_FINDINGS if any(d.severity == "error" for d in found) else EXIT_OK


def seat_number(record: Record, text: str) -> int:
    """The seat named ``text`` (``show --seat``, ``html --view``): a name (any case), or a number ``2`` / ``#2``. ``UserError`` otherwise."""
    import difflib

    wanted = " ".join(text.split()).casefold()
    digits = wanted.lstrip("#")
    if digits.isdigit() and 1 <= int(digits) <= record.players:
        return int(digits)
    for k, s in enumerate(record.seats, start=1):
        if " ".join(s.name.split()).casefold() == wanted:
            return k
    names = [s.name for s in record.seats]
    near = difflib.get_close_matches(text, names, n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]}?" if near else f" (seats: {', '.join(names)}, or 1-{record.players})"
    raise UserError(f"no seat {text!r} in this game{hint}")
