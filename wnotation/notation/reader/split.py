"""Cutting an input into games (spec 7wn.md, "Games and files"), the one way every caller does it.

One normalisation (:func:`normalise`: no BOM, line ends LF), one boundary test (:func:`is_boundary`: a line that
starts with ``[Format``, blanks before it allowed), one splitter over lines (:func:`split_lines`), with a text
form (:func:`split_games`, the same cut by one regex) and a grouping form for batch checks (:func:`iter_pieces`).
Also the reader's one input limit, the line length. Nothing here parses a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import IO
from typing import Final

from .. import lexical
from ..errors import Origin, StructureError, at_offset

__all__ = ["normalise", "line_ends", "stream_lines", "text_lines", "is_boundary", "split_lines", "split_games",
           "split_stream", "iter_pieces", "group_pieces", "LINE_LIMIT", "check_line_lengths"]

_BOUNDARY_MATCH: Final[Callable[[str], re.Match[str] | None]] = lexical.BOUNDARY_RE.match
_BLANKS: Final[re.Pattern[str]] = re.compile(r"[ \t]*")


def normalise(text: str) -> str:
    """A whole text as the reader reads it (spec section 2): without its leading BOM, line ends LF. Lines and
    columns of every error count in this text; cutting it at line starts keeps them."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return line_ends(text)


def line_ends(text: str) -> str:
    """CRLF and lone CR made LF: the one line-end normalisation of strings and streams."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def is_boundary(line: str) -> bool:
    """Whether a line of a normalised text starts a game: ``[Format`` after optional blanks, not followed by a
    letter, digit or ``_`` (``[Formats`` is another tag)."""
    return line[:1] in "[ \t" and _BOUNDARY_MATCH(line) is not None


def stream_lines(handle: Iterable[str]) -> Iterator[str]:
    """The lines of an open text file as :func:`normalise` leaves the whole text, each ending in LF (the last
    may lack it), whatever the file's ``newline`` mode: with ``newline="\\n"`` (``io.StringIO``'s default) a
    piece may hold many lone-CR lines, and with ``newline="\\r"`` a CRLF may be cut between two pieces."""
    first = True
    after_cr = False  # the previous piece ended in CR: a LF starting this one is the rest of its CRLF
    for raw in handle:
        if first:
            first = False
            if raw.startswith("\ufeff"):
                raw = raw[1:]
        if "\r" not in raw:
            if after_cr and raw.startswith("\n"):
                raw = raw[1:]
                if not raw:
                    after_cr = False
                    continue
            after_cr = False
            if raw.count("\n", 0, len(raw) - 1):
                yield from text_lines(raw)
            else:
                yield raw
            continue
        if after_cr and raw.startswith("\n"):
            raw = raw[1:]
        after_cr = raw.endswith("\r")
        yield from text_lines(line_ends(raw))


def text_lines(text: str) -> Iterator[str]:
    """``text`` cut after each LF (the last line may lack one)."""
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


def split_lines(lines: Iterable[str]) -> Iterator[tuple[str, int, int]]:
    """Cut the lines of a normalised text into ``(game_text, lines_before, chars_before)`` at game boundaries,
    one game's lines in memory at a time. Text before the first game comes out first, as a chunk that does not
    start with ``[Format``; an input without lines gives one empty chunk."""
    buf: list[str] = []
    line0 = off0 = 0
    line = off = 0
    for raw in lines:
        if raw[:1] in "[ \t" and _BOUNDARY_MATCH(raw):
            if buf or line:
                chunk = "".join(buf)
                buf = []  # the lines go before the game is read: a huge game is held once, not twice
                yield chunk, line0, off0
                del chunk
            buf, line0, off0 = [], line, off
        buf.append(raw)
        line += raw.count("\n")
        off += len(raw)
    if buf or not line:
        chunk = "".join(buf)
        buf.clear()
        yield chunk, line0, off0


def split_games(text: str) -> Iterator[tuple[str, int, int]]:
    """:func:`split_lines` of a whole normalised text, the same chunks found by one regex scan of the text (a test
    compares both)."""
    starts = [m.start() for m in lexical.BOUNDARY_RE.finditer(text)]
    if not starts or starts[0] > 0:
        yield text[: starts[0] if starts else len(text)], 0, 0
    line = text.count("\n", 0, starts[0]) if starts else 0
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        chunk = text[start:end]
        yield chunk, line, start
        line += chunk.count("\n")


#: Characters read at a time by :func:`split_stream`.
STREAM_BLOCK: Final[int] = 1 << 20


def split_stream(handle: IO[str] | Iterable[str], block: int = STREAM_BLOCK) -> Iterator[tuple[str, int, int]]:
    """:func:`split_lines` over an open text file, normalised as it is read, the same chunks. A file (anything with
    ``read``) is read in blocks of ``block`` characters and cut by one regex scan of each (as
    :func:`split_games`), not line by line: a game of many short lines is held as its text, not as a list of line
    strings (about 60 bytes more a line), and each chunk's pieces are dropped before the game is read. Any other
    iterable of strings is read as its pieces come (:func:`stream_lines`)."""
    read = getattr(handle, "read", None)
    if read is None:
        return split_lines(stream_lines(handle))
    return _split_blocks(read, block)


def _split_blocks(read: Callable[[int], str], block: int) -> Iterator[tuple[str, int, int]]:
    # A chunk's text is joined once, from the pieces read: a line longer than a block is never joined apart first
    # (joining it, then the chunk, held a huge line three times while the chunk was made, and left holes below the
    # game's strings that the C allocator does not give back).
    parts: list[str] = []  # the current chunk's text so far, in pieces as read (cut at the chunk's boundaries)
    held: list[str] = []  # text read after the last line end: the start of a line not yet whole (no line end)
    line0 = off0 = 0  # where the current chunk starts
    line = off = 0  # lines and characters cut so far
    carry = ""  # a CR that ended the previous block: it may start a CRLF
    first = True
    while True:
        piece = read(block)
        last = not piece
        if first:
            first = False
            if piece.startswith("\ufeff"):
                piece = piece[1:]
        if carry:
            piece, carry = carry + piece, ""
        if not last and piece.endswith("\r"):
            piece, carry = piece[:-1], "\r"
        piece = line_ends(piece)
        rest = ""
        if last:  # what is left: the last line without its line end, or a CR carried to the end
            text = piece
        else:
            cut = piece.rfind("\n") + 1
            if not cut:
                held.append(piece)
                continue
            text, rest = (piece[:cut], piece[cut:]) if cut < len(piece) else (piece, "")
        del piece
        scan = 0  # where a game may start in text: its first line continues the held line
        if held:
            if _opens_game(held, text):
                if parts:
                    yield _taken(parts), line0, off0
                line0, off0 = line, off
            parts.extend(held)
            off += sum(map(len, held))
            held = []
            scan = text.find("\n") + 1 or len(text)
        pos = 0
        for m in lexical.BOUNDARY_RE.finditer(text, scan):
            start = m.start()
            if start > pos:
                parts.append(text[pos:start])
            if parts:
                yield _taken(parts), line0, off0
            line += text.count("\n", pos, start)
            off += start - pos
            line0, off0, pos = line, off, start
        if pos < len(text):
            parts.append(text[pos:] if pos else text)
            line += text.count("\n", pos)
            off += len(text) - pos
        del text
        if rest:
            held.append(rest)
        if last:
            break
    if parts or not line:
        yield _taken(parts), line0, off0


def _opens_game(held: list[str], text: str) -> bool:
    """Whether the line that starts with the ``held`` pieces (no line end in them) and goes on in ``text`` starts a
    game (:func:`is_boundary`), read from its first characters past its leading blanks."""
    head = ""
    for part in (*held, text):
        if head:
            head += part[:8]
        else:
            blanks = _BLANKS.match(part).end()  # type: ignore[union-attr]  # it matches the empty string
            head = part[blanks : blanks + 8]
        if len(head) >= 8:
            break
    return _BOUNDARY_MATCH(head) is not None


def iter_pieces(lines: Iterable[str], games: int) -> Iterator[tuple[str, int]]:
    """The lines of a normalised text in pieces of ``games`` whole games each (the last may hold fewer):
    ``(piece, lines_before)``, one piece in memory at a time. Any text before the first game goes with the first
    piece, so the pieces join up to the text; an input without lines gives ``("", 0)``. For batch checks that
    hand pieces to worker processes. Raises :class:`ValueError` when ``games`` < 1."""
    return group_pieces(split_lines(lines), games)


def group_pieces(chunks: Iterable[tuple[str, int, int]], games: int) -> Iterator[tuple[str, int]]:
    """:func:`iter_pieces` of chunks already cut (:func:`split_lines`, :func:`split_stream`): an open file's
    pieces from :func:`split_stream`, which holds no list of its lines. Raises :class:`ValueError` when ``games``
    < 1."""
    if games < 1:
        raise ValueError(f"a piece holds at least one game, not {games}")
    return _grouped(chunks, games)


def _grouped(chunks: Iterable[tuple[str, int, int]], games: int) -> Iterator[tuple[str, int]]:
    buf: list[str] = []
    line0 = held = 0
    for chunk, before, _ in chunks:
        if is_boundary(chunk):
            if held == games:
                yield _taken(buf), line0
                line0, held = before, 0
            held += 1
        buf.append(chunk)
        del chunk
    yield _taken(buf), line0


def _taken(parts: list[str]) -> str:
    """``parts`` joined, the list emptied: a generator that yields this holds neither the parts nor their join
    while its caller works on the text (a local name would keep it until the generator resumes)."""
    text = "".join(parts)
    parts.clear()
    return text


#: The most characters a line may hold outside its comments and ``[%tags]`` (spec section 11). Regular expressions
#: that cut a run of actions into pieces need memory in proportion to the run; a turn line is a few hundred.
LINE_LIMIT: Final[int] = 10_000
_LINE_MARKS: Final[re.Pattern[str]] = re.compile(r"[\n{]|\[%")


def check_line_lengths(text: str, origin: Origin) -> None:
    """Raise :class:`StructureError` (rule ``line-length``) at the first character past :data:`LINE_LIMIT` on a
    line of a game's ``text``, comments and ``[%tags]`` not counted. One pass; only games longer than the limit
    need it."""
    line_start = 0  # where the characters counted on this line start counting
    counted = 0  # characters of this line before line_start
    pos = 0
    n = len(text)
    while pos < n:
        m = _LINE_MARKS.search(text, pos)
        end = m.start() if m else n
        if counted + end - line_start > LINE_LIMIT:
            error = at_offset(StructureError, f"this line holds more than {LINE_LIMIT:,} characters outside "
                              "comments and [%tags], the reader's limit (a turn line holds a few hundred)", text,
                              line_start + LINE_LIMIT - counted, origin, rule="line-length")
            error.source_line = ""  # not shown: it is too long to show
            raise error
        if m is None:
            return
        if text[end] == "\n":
            counted, line_start, pos = 0, end + 1, end + 1
            continue
        close = _annotation_end(text, end + (2 if text[end] == "[" else 1), "}" if text[end] == "{" else "]")
        if close < 0:  # unterminated: the parser reports it, without reading past it
            return
        counted += end - line_start
        line_start = pos = close + 1


def _annotation_end(text: str, start: int, closer: str) -> int:
    """The index of the ``closer`` that ends a comment or ``[%tag]`` whose text starts at ``start`` (one preceded
    by an even run of backslashes: a backslash escapes the character after it), or -1."""
    j = text.find(closer, start)
    while j >= 0:
        k = j
        while k > start and text[k - 1] == "\\":
            k -= 1
        if (j - k) % 2 == 0:
            return j
        j = text.find(closer, j + 1)
    return -1
