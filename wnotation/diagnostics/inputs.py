"""Reading 7WN inputs for a check: files as strict UTF-8 (scanned first, then read lazily line by line) and
standard input. Normalising the text (BOM dropped, CRLF and CR as LF) and cutting it into pieces of whole games at
the ``[Format`` boundaries, so that pieces can be checked apart (in worker processes) with the file's own line
numbers, are the reader's (:mod:`wnotation.notation.reader.split`: one normalisation, one splitter for every
caller); :func:`normalise`, :func:`iter_lines` and :func:`iter_pieces` here are those."""

from __future__ import annotations

import os
import sys
from typing import Iterator

from ..notation.reader.split import group_pieces, iter_pieces, normalise, split_stream, stream_lines
from ..notation.reader.split import text_lines as iter_lines

__all__ = ["BLOCK", "file_lines", "game_pieces", "iter_lines", "iter_pieces", "normalise", "read_text",
           "scan_file", "source_lines", "stdin_text", "unreadable_reason"]


def source_lines(text: str) -> list[str]:
    """The text's lines as the reader counts them (BOM dropped, CRLF and CR as LF)."""
    return normalise(text).split("\n")


def game_pieces(text: str, games: int) -> list[tuple[str, int]]:
    """Cut a normalised text (:func:`normalise`) into pieces of ``games`` whole games each (the last may hold
    fewer), at the game boundaries the reader uses (``[Format`` lines, spec/7wn.md section 3): a list of
    ``(piece, line0)``, ``line0`` being the lines before the piece. Any text before the first game goes with
    the first piece, so the pieces join up to ``text``. Checking each piece with :func:`check_piece` gives the
    games :func:`check_text` gives for the whole, lines included (their ``index`` counts within the piece).
    Cost: one pass over the text; the pieces are fresh strings."""
    return list(iter_pieces(iter_lines(text), games))


BLOCK = 1 << 20


def scan_file(path: str | os.PathLike[str]) -> int:
    """Make sure the file at ``path`` can be read as strict UTF-8 (one pass over its bytes, a block at a time,
    nothing kept) and return how many ``[Format`` marks it holds: at least its number of games (a comment may
    hold more), for sizing pieces. Raises :class:`OSError` or the :class:`UnicodeDecodeError` that
    :func:`read_text` raises for the file. Cost: about a thousandth of checking the file."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    marks, tail = 0, b""
    with open(path, "rb") as handle:
        try:
            while block := handle.read(BLOCK):
                decoder.decode(block)
                marks += (tail + block).count(b"[Format")
                tail = block[-6:]  # a mark across two blocks is counted once; 6 bytes cannot hold a whole mark
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            read_text(path)  # raises the error reading the whole text gives (same byte offset in its message)
            raise
    return marks


def file_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of the 7WN file at ``path`` read lazily, as :func:`normalise` gives its text (a leading BOM
    dropped, CRLF and CR turned into LF), each with its ``\\n``: the reader's own :func:`stream_lines`. Run
    :func:`scan_file` first: a file that is not UTF-8 raises :class:`UnicodeDecodeError` only when the bad bytes
    are reached."""
    with open(path, encoding="utf-8", errors="strict", newline="") as handle:
        yield from stream_lines(handle)


def file_pieces(path: str | os.PathLike[str], games: int) -> Iterator[tuple[str, int]]:
    """:func:`iter_pieces` of the 7WN file at ``path`` read lazily in blocks (the reader's :func:`split_stream`):
    the same pieces as of :func:`file_lines`, without a string per line held while a piece is gathered (a huge
    game of short lines is held about once, not ten times). Run :func:`scan_file` first, as for
    :func:`file_lines`."""
    with open(path, encoding="utf-8", errors="strict", newline="") as handle:
        yield from group_pieces(split_stream(handle), games)


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of a 7WN file (strict UTF-8). Raises :class:`OSError` or :class:`UnicodeDecodeError`."""
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def unreadable_reason(error: BaseException) -> str:
    """One lower-case line saying why a file could not be read."""
    if isinstance(error, UnicodeDecodeError):
        return f"not UTF-8 text ({error.reason} at byte {error.start})"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return " ".join(str(error).split())


def stdin_text() -> str:
    """Standard input as UTF-8 text (strict: bytes that are not UTF-8 make it unreadable, whatever the locale).
    The bytes are read from ``sys.stdin.buffer``; a replaced ``sys.stdin`` without one is read as text."""
    raw = getattr(sys.stdin, "buffer", None)
    return raw.read().decode("utf-8") if raw is not None else sys.stdin.read()
