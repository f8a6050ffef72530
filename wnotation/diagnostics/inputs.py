"""Reading 7WN inputs for a check: files as strict UTF-8 (scanned first, then read lazily line by line), standard
input, the text normalised as the reader sees it (BOM dropped, CRLF and CR as LF), and cut into pieces of whole
games at the ``[Format`` boundaries so that pieces can be checked apart (in worker processes) with the file's own
line numbers."""

from __future__ import annotations

import os
import sys
from typing import Iterable, Iterator

__all__ = ["BLOCK", "file_lines", "game_pieces", "iter_lines", "iter_pieces", "normalise", "read_text",
           "scan_file", "source_lines", "stdin_text", "unreadable_reason"]


def normalise(text: str) -> str:
    """The text as the reader sees it: a leading BOM dropped, CRLF and CR turned into LF. Lines and columns of
    every diagnostic count in this text; cutting it at line starts keeps them."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


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


def iter_lines(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its ``\\n`` (the last one may have none), cut at ``\\n`` only."""
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


def iter_pieces(lines: Iterable[str], games: int) -> Iterator[tuple[str, int]]:
    """:func:`game_pieces` over the lines of a normalised text read lazily (each line with its ``\\n``, as an
    open file or :func:`file_lines` gives them): the same ``(piece, line0)`` pairs, one piece in memory at a
    time. Any text before the first game goes with the first piece; a text without lines gives ``("", 0)``."""
    from ..notation.lexical import BOUNDARY_RE

    if games < 1:
        raise ValueError(f"a piece holds at least one game, not {games}")
    buf: list[str] = []
    line0 = line = held = 0
    for raw in lines:
        if raw[:1] in "[ \t" and BOUNDARY_RE.match(raw):
            if held == games:
                yield "".join(buf), line0
                buf, line0, held = [], line, 0
            held += 1
        buf.append(raw)
        line += 1
    if buf or not line:
        yield "".join(buf), line0


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
    dropped, CRLF and CR turned into LF), each with its ``\\n``. Run :func:`scan_file` first: a file that is not
    UTF-8 raises :class:`UnicodeDecodeError` only when the bad bytes are reached."""
    with open(path, encoding="utf-8", errors="strict", newline=None) as handle:
        first = True
        for line in handle:
            if first:
                first = False
                if line.startswith("\ufeff"):
                    line = line[1:]
            yield line


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
