"""Reading 7WN inputs for a check: files as strict UTF-8 (scanned first, then read lazily line by line) and
standard input. Normalising the text (BOM dropped, CRLF and CR as LF) and cutting it into pieces of whole games at
the ``[Format`` boundaries, so that pieces can be checked apart (in worker processes) with the file's own line
numbers, are the reader's (:mod:`wnotation.notation.reader.split`: one normalisation, one splitter for every
caller); :func:`normalise`, :func:`iter_lines` and :func:`iter_pieces` here are those."""

from __future__ import annotations

import os
import re
import sys
from array import array
from collections.abc import Sequence
from typing import Final, Iterator, overload

from ..notation.reader.split import group_pieces, iter_pieces, normalise, split_stream, stream_lines
from ..notation.reader.split import text_lines as iter_lines

__all__ = ["BLOCK", "SourceLines", "file_lines", "game_pieces", "iter_lines", "iter_pieces", "normalise",
           "read_text", "scan_file", "source_index", "source_lines", "stdin_text", "unreadable_reason"]


def source_lines(text: str) -> list[str]:
    """The text's lines as the reader counts them (BOM dropped, CRLF and CR as LF): a string per line. A check
    quotes a few lines of a text it holds anyway: :func:`source_index` gives them without a string per line."""
    return normalise(text).split("\n")


#: Lines between two entries of a :class:`SourceLines` index.
STRIDE: Final[int] = 64
#: :data:`STRIDE` lines: compiled on first use (``re``'s cache), not when a check imports this module.
_STRIDE_PATTERN: Final[str] = r"(?:[^\n]*\n){%d}" % STRIDE
#: The longest run of :data:`STRIDE` lines kept split while it is read line by line (a walk back to a game's start).
_SPLIT_MOST: Final[int] = 1 << 16


class SourceLines(Sequence[str]):
    """The lines of a text as :func:`source_lines` gives them (same length, same strings at the same indices, the
    text normalised), without a string per line: the normalised text held once, a line sliced from it when it is
    asked for. Where the lines start is found on demand and kept for every :data:`STRIDE`-th line (8 bytes per
    64 lines, one regular-expression match per 64 lines, only as far into the text as a line is asked for);
    the lines of the last stride asked for are kept split when they are short, so that walking line by line,
    forwards or back, costs a split per stride. For a check, which quotes a few lines of each game."""

    __slots__ = ("text", "_count", "_starts", "_block", "_block_lines")

    def __init__(self, text: str) -> None:
        self.text: Final[str] = normalise(text)
        self._count: Final[int] = self.text.count("\n") + 1
        self._starts = array("q", [0])  # where lines 0, STRIDE, 2 * STRIDE, ... (0-based) start, as far as known
        self._block = -1
        self._block_lines: list[str] = []

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self._line(k) for k in range(*index.indices(self._count))]
        k = index + self._count if index < 0 else index
        if not 0 <= k < self._count:
            raise IndexError("line index out of range")
        return self._line(k)

    def __iter__(self) -> Iterator[str]:
        text = self.text
        start = 0
        while (end := text.find("\n", start)) >= 0:
            yield text[start:end]
            start = end + 1
        yield text[start:]

    def _line(self, k: int) -> str:
        """Line ``k`` (0-based, in range)."""
        block, within = divmod(k, STRIDE)
        if block == self._block:
            return self._block_lines[within]
        starts, text = self._starts, self.text
        if len(starts) <= block + 1 and len(starts) * STRIDE < self._count:
            stride = re.compile(_STRIDE_PATTERN).match
            while len(starts) <= block + 1 and len(starts) * STRIDE < self._count:
                m = stride(text, starts[-1])
                if m is None:
                    break
                starts.append(m.end())
        begin = starts[block]
        end = starts[block + 1] - 1 if block + 1 < len(starts) else len(text)
        if end - begin <= _SPLIT_MOST:
            self._block, self._block_lines = block, text[begin:end].split("\n")
            return self._block_lines[within]
        for _ in range(within):
            begin = text.index("\n", begin) + 1
        stop = text.find("\n", begin)
        return text[begin:] if stop < 0 else text[begin:stop]


def source_index(text: str) -> SourceLines:
    """:func:`source_lines` of ``text`` without a string per line (:class:`SourceLines`): what a check gives its
    diagnostics to quote their lines from. Cost: one count of the line ends; a line costs a slice when asked
    for."""
    return SourceLines(text)


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
