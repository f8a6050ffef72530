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
from typing import IO, Final, Iterator, overload

from ..notation.lexical import BOUNDARY_RE
from ..notation.reader.split import group_pieces, iter_pieces, normalise, split_stream, stream_lines
from ..notation.reader.split import text_lines as iter_lines

__all__ = ["BLOCK", "FileLines", "PieceLines", "SourceLines", "file_lines", "game_pieces", "iter_lines", "iter_pieces", "normalise",
           "read_text", "scan_file", "scan_index", "source_index", "source_lines", "stdin_text", "unreadable_reason"]


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


class _LazyLines(Sequence[str]):
    """A sequence of lines, each made by ``_line(k)`` only when it is asked for (0 <= k < ``len(self)``)."""

    __slots__ = ()

    def _line(self, k: int) -> str:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        n = len(self)
        if isinstance(index, slice):
            return [self._line(k) for k in range(*index.indices(n))]
        k = index + n if index < 0 else index
        if not 0 <= k < n:
            raise IndexError("line index out of range")
        return self._line(k)


class SourceLines(_LazyLines):
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
    return _scan(path, None)


def scan_index(path: str | os.PathLike[str]) -> tuple[int, FileLines | None]:
    """:func:`scan_file` of ``path`` and, in the same pass, a :class:`FileLines` over the file (its lines read
    back from it when a diagnostic quotes one), or ``None`` for a file holding a bare CR line end (its lines a
    byte scan cannot count as the reader does: a check keeps such a file's text to quote from). Same errors as
    :func:`scan_file`."""
    index = FileLines(path)
    marks = _scan(path, index)
    return marks, None if index.bare_cr else index


def _scan(path: str | os.PathLike[str], index: FileLines | None) -> int:
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    marks, tail = 0, b""
    with open(path, "rb") as handle:
        try:
            while block := handle.read(BLOCK):
                decoder.decode(block)
                marks += (tail + block).count(b"[Format")
                if index is not None:
                    index.scan(block, tail[-1:])
                tail = block[-6:]  # a mark across two blocks is counted once; 6 bytes cannot hold a whole mark
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            read_text(path)  # raises the error reading the whole text gives (same byte offset in its message)
            raise
    return marks


#: :data:`STRIDE` lines of bytes, for the block scan of :class:`FileLines`.
_BYTE_STRIDE: Final[re.Pattern[bytes]] = re.compile(rb"(?:[^\n]*\n){%d}" % STRIDE)
#: The most bytes :class:`FileLines` reads back at once to split into lines (strides around the one asked for).
_READ_MOST: Final[int] = 1 << 18


class FileLines:
    """The lines of a 7WN file as :func:`source_lines` gives them for its whole text, read back from the file
    when asked for, nothing of its text held: where every :data:`STRIDE`-th line starts (a byte offset, 8 bytes
    per 64 lines, found by a block scan of the file the first time a line is asked for, as far as it is asked
    for: a file's lines are its LF bytes, CRLF counting once, which is why a file with a bare CR is not indexed),
    and the lines of the strides last read. :func:`scan_index` counts the lines and checks the CRs. A line is read
    back from its stride (a few strides around it, up to 256 KiB, split at once), or, in a stride longer than
    that, by a scan of the stride's bytes a block at a time. :meth:`piece` gives the lines of one piece of the
    file, as :func:`source_index` of its text would."""

    __slots__ = ("path", "count", "bare_cr", "_starts", "_need", "_size", "_indexed", "_crs", "_crlfs", "_first",
                 "_lines")

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path
        self.count = 1  # lines (LF bytes + 1)
        self.bare_cr = False
        self._starts = array("q", [0])  # byte offsets of lines 0, STRIDE, 2 * STRIDE, ...
        self._need = STRIDE  # line ends still to pass before the next stride starts
        self._size = 0  # bytes scanned
        self._indexed = 0  # bytes whose strides are known
        self._crs = self._crlfs = 0
        self._first = 0  # the first line of the lines read back
        self._lines: list[str] = []

    def scan(self, block: bytes, before: bytes) -> None:
        """Take in the file's next ``block`` of bytes (``before``: the last byte of the previous one): its lines
        counted and its CRs checked; where its strides start is found only when a line is asked for."""
        self.count += block.count(b"\n")
        if b"\r" in block or before == b"\r":
            self._crs += block.count(b"\r")
            self._crlfs += (before + block).count(b"\r\n")
        self._size += len(block)
        self.bare_cr = self._crs != self._crlfs

    def _index_to(self, block: int) -> None:
        """Find where strides start, reading the file on from as far as they are known, until stride ``block`` is
        passed or the file ends (then every stride is known)."""
        starts = self._starts
        if len(starts) > block or self._indexed >= self._size:
            return
        match = _BYTE_STRIDE.match
        with open(self.path, "rb") as handle:
            handle.seek(self._indexed)
            while len(starts) <= block and (data := handle.read(BLOCK)):
                ends, pos = data.count(b"\n"), 0
                if ends >= self._need:
                    for _ in range(self._need):
                        pos = data.index(b"\n", pos) + 1
                    starts.append(self._indexed + pos)
                    ends -= self._need
                    self._need = STRIDE
                    while ends >= STRIDE:
                        m = match(data, pos)
                        assert m is not None  # STRIDE line ends are left in the block
                        pos = m.end()
                        starts.append(self._indexed + pos)
                        ends -= STRIDE
                self._need -= ends
                self._indexed += len(data)
            if not data:
                self._indexed = self._size

    def line(self, k: int) -> str:
        """Line ``k`` (0-based, ``0 <= k < count``) as the reader sees it (no BOM, no line end)."""
        within = k - self._first
        if 0 <= within < len(self._lines):
            return self._lines[within]
        block = k // STRIDE
        self._index_to(block + 17)  # the widest read below ends at stride block + 16
        starts = self._starts
        lo, hi = block, block + 1  # the strides to read: [lo, hi)

        def end(b: int) -> int:
            return starts[b] if b < len(starts) else self._size

        while True:
            grown = False
            if lo > 0 and end(hi) - starts[lo - 1] <= _READ_MOST:
                lo, grown = lo - 1, True
            if hi < len(starts) and end(hi + 1) - starts[lo] <= _READ_MOST:
                hi, grown = hi + 1, True
            if not grown or hi - lo >= 16:
                break
        with open(self.path, "rb") as handle:
            if end(hi) - starts[lo] > _READ_MOST:  # one stride, longer than a read: its line alone
                return self._long_line(handle, starts[block], k - block * STRIDE, block == 0)
            handle.seek(starts[lo])
            self._first, self._lines = lo * STRIDE, self._text(handle.read(end(hi) - starts[lo]), lo == 0).split("\n")
        if hi < len(starts):
            self._lines.pop()  # the bytes read end with the line end before line hi * STRIDE: no line after it
        return self._lines[k - self._first]

    def _long_line(self, handle: IO[bytes], start: int, within: int, first: bool) -> str:
        """Line ``within`` of the stride starting at byte ``start``, found a block at a time (nothing kept)."""
        handle.seek(start)
        data = b""
        first = first and within == 0
        while within:
            data = handle.read(BLOCK)
            if not data:
                return ""
            ends = data.count(b"\n")
            if ends >= within:
                pos = 0
                for _ in range(within):
                    pos = data.index(b"\n", pos) + 1
                data = data[pos:]
                break
            within -= ends
        parts = [data]
        while b"\n" not in parts[-1] and (more := handle.read(BLOCK)):
            parts.append(more)
        line = b"".join(parts)
        del parts
        cut = line.find(b"\n")
        if cut >= 0:
            line = line[: cut - 1 if cut and line[cut - 1] == 13 else cut]  # without its LF or CRLF
        return self._text(line, first)

    @staticmethod
    def _text(data: bytes, first: bool) -> str:
        text = data.decode("utf-8")
        if first and text.startswith("\ufeff"):
            text = text[1:]
        return text.replace("\r\n", "\n") if "\r" in text else text

    def piece(self, line0: int, text: str) -> PieceLines:
        """The lines of ``text``, a piece of this file after ``line0`` lines (from :func:`file_pieces`), as
        :func:`source_index` of it gives them, read back from the file: the piece's size (its line ends) and the
        lines where its games start are taken from ``text`` now, so that it need not be held."""
        ends = text.count("\n")
        starts: list[int] = []
        line, pos, last = 1, 0, -1
        at = text.find("[Format")  # a literal search (a multiline regex tries every position: 0.1 s for 20 MB)
        while at >= 0:
            begin = text.rfind("\n", 0, at) + 1  # the start of its line: a boundary if only blanks come before
            if begin > last and BOUNDARY_RE.match(text, begin) is not None:
                line += text.count("\n", pos, begin)
                pos = begin
                starts.append(line)
            last = begin
            at = text.find("[Format", at + 1)
        return PieceLines(self, line0, ends, text.endswith("\n"), tuple(starts), text.startswith("\ufeff"))


class PieceLines(_LazyLines):
    """The lines of a piece of a file (:meth:`FileLines.piece`) as :func:`source_index` of its text gives them
    (same length, same strings at the same indices), read back from the file when asked for; and the lines
    where the piece's games start (:meth:`game_start`), so that a game's start is found without reading lines."""

    __slots__ = ("file", "line0", "ends", "closed", "starts", "bom")

    def __init__(self, file: FileLines, line0: int, ends: int, closed: bool, starts: tuple[int, ...],
                 bom: bool = False) -> None:
        self.file, self.line0, self.ends, self.closed, self.starts = file, line0, ends, closed, starts
        self.bom = bom  # the piece starts with a BOM (a file's second): normalising the piece drops it

    def __len__(self) -> int:
        return self.ends + 1


    def _line(self, k: int) -> str:
        if k == self.ends and self.closed:
            return ""  # after the piece's last line end (the next piece's first line is not this piece's)
        line = self.file.line(self.line0 + k)
        return line[1:] if k == 0 and self.bom else line

    def game_start(self, line: int) -> int:
        """The line (1-based, in the piece) of the ``[Format`` line that opens the game holding ``line``, 1 if
        none: what walking back over the lines to a boundary (:func:`~wnotation.notation.reader.split.is_boundary`)
        finds, without reading them."""
        top = min(line, self.ends + 1)
        found = [s for s in self.starts if s <= top]
        return found[-1] if found else 1


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
