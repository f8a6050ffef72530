"""Reading what the commands are given: record paths (files, directories, ``-`` for stdin), one game of a file,
and a game replayed with its findings on stderr. Every failure is a one-line :class:`UserError` (exit 2) or the
notation's own compiler-style error."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from ..diagnostics.batch import STDIN, STDIN_NAME
from .errors import EXIT_FINDINGS, EXIT_OK, UserError
from .output import diagnostic, err

if TYPE_CHECKING:
    from ..engine import Replay
    from ..model.record import Record

__all__ = ["RECORD_PATH", "STDIN", "STDIN_NAME", "choose_game", "expand", "game_note", "games_in_text", "one_game",
           "read", "replayed", "seat_in", "seat_number"]

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


def games_in_text(text: str) -> int:
    """How many games ``text`` holds: its lines that start a game (spec/7wn.md section 3, ``[Format`` at a line
    start), counted as the reader cuts the text. Cost: one regex scan, nothing parsed."""
    from ..notation.lexical import BOUNDARY_RE
    from ..notation.reader.split import normalise

    return sum(1 for _ in BOUNDARY_RE.finditer(normalise(text)))


def game_note(games: int, source: str) -> str:
    """The note of a single-game command run on a file of several games without ``--game``: ``3 games in
    club.7wn; showing game 1, --game N for another``."""
    return f"{games} games in {source}; showing game 1, --game N for another"


def choose_game(text: str, source: str, game: int | None) -> int:
    """The number (1-based) of the game a single-game command shows: ``game`` (``--game N``), else 1, with
    :func:`game_note` on stderr when the file holds several games."""
    if game is not None:
        return game
    games = games_in_text(text)
    if games > 1:
        err(f"note: {game_note(games, source)}")
    return 1


def one_game(path: str, game: int | None) -> tuple[Record, list[str], str, int]:
    """``(record, source lines, source name, game number)`` of game number ``game`` (1-based; ``None``: the
    first, with :func:`game_note` on stderr when there are several) of a file. A notation error in that game is
    raised (shown compiler-style, exit 2); a missing game is a ``UserError``."""
    from ..diagnostics import source_lines
    from ..notation import NotationError, read_games

    text, source = read(path)
    number = choose_game(text, source, game)
    count = 0
    for count, item in enumerate(read_games(text, source=source), start=1):
        if count == number:
            if isinstance(item, NotationError):
                raise item
            return item, source_lines(text), source, number
    have = "no game" if count == 0 else f"{count} game" + ("s" if count > 1 else "")
    raise UserError(f"{source} has {have}; there is no game {number}")


def replayed(record: Record, lines: list[str], source: str) -> tuple[Replay, int]:
    """Replay ``record``, print its findings to stderr (not those that only ``check`` shows), and return the
    replay and the exit code they give."""
    from ..diagnostics import diagnostics_of
    from ..diagnostics.pipeline import start_refusal
    from ..engine import replay

    played = replay(record)
    refused = start_refusal(record, lines, source) if not played.addresses else None  # a refused start has none
    if refused is not None:  # a [Position] the engine refused: the reader's error for it
        raise refused
    found = [d for d in diagnostics_of(record, played.findings, lines, source) if not d.check_only]
    for d in found:
        diagnostic(d)
    return played, EXIT_FINDINGS if any(d.severity == "error" for d in found) else EXIT_OK


def seat_number(record: Record, text: str) -> int:
    """The seat of ``record`` that ``text`` names (``show --seat``, ``html --view``): a number ``2`` / ``#2``, or a
    name matched by the reader's seat key (spec/7wn.md 4.1: Unicode NFC, blanks as one space, case folded; so
    ``José`` matches however it is composed). ``UserError`` otherwise."""
    return seat_in([s.name for s in record.seats], text)


def seat_in(names: Sequence[str], text: str) -> int:
    """The seat (1-based) of the roster ``names`` that ``text`` names: its number (``2``, ``#2``) or its name by
    the reader's seat key (:func:`~wnotation.model.vocabulary.seat_key`), the one seat lookup of every command.
    ``UserError`` naming the closest seat, or the seats, otherwise."""
    import difflib

    from ..model.vocabulary import seat_key

    wanted = seat_key(text)
    digits = wanted.removeprefix("#")
    if digits.isdigit() and digits.isascii() and 1 <= int(digits) <= len(names):
        return int(digits)
    keys = [seat_key(name) for name in names]
    if wanted in keys:
        return keys.index(wanted) + 1
    near = difflib.get_close_matches(wanted, keys, n=1, cutoff=0.6)
    hint = (f"; did you mean {names[keys.index(near[0])]}?" if near
            else f" (seats: {', '.join(names)}, or 1-{len(names)})")
    raise UserError(f"no seat {text!r} in this game{hint}")
