"""Every notation error of a game, not only the first: the reader recovers at the next line and reads on.

A game with an error in its body is read again with the line of each error found so far replaced by a **neutral
line**: the same kind of line with nothing that can be wrong in it. A turn line keeps its variation bracket
``(``, its label and its closing ``)``, and its actions become ``#1: sell ? | … | #N: sell ?`` (valid in every kind
of turn, whole or partial, and in the extra turn); a result or ``game`` line, or a line of no known kind, becomes
an empty line. So every line after it is read in the state it would have after a correct line of that label, and
a further error is one that the text really holds: the recovery never invents an error on a correct line. A line
whose turn label cannot be read is tried empty first; when the next turn line then fails its turn order, the line
is tried with each label that turn order expected there (a line that was no turn then hides that error: it is
missed, never invented).

Errors of the header (the roster the body needs), ``line-length`` and ``encoding`` end the search: the first
error is then the game's only one. So does an error on a line already replaced (an open variation at the end,
reported at its ``(``) and a comment or ``[%tag]`` that never ends (the rest of the game is inside it). The search
is bounded: at most :data:`MAX_ERRORS` errors per game, and :data:`REREAD_BUDGET` characters read again.

The reader's own API does not change: a broken game still gives (or raises) its first error, which holds the
others in :attr:`~wnotation.notation.NotationError.errors`, searched when first asked for.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Iterable, Iterator
from typing import Final

from .. import lexical
from ..errors import NotationError, Origin

#: The most errors reported for one game (the first included); the search stops there.
MAX_ERRORS = 100
#: The most characters read again, in all, to find one game's further errors (a few hundred re-reads of a
#: typical game; a hostile game of megabytes gets its first errors only).
REREAD_BUDGET = 2_000_000

#: The errors after which nothing further is searched: the body cannot be read without a valid header.
_FINAL_RULES = frozenset({"line-length", "encoding", "games"})

_ANNOTATION = rf"(?:{lexical.TERMINALS['COMMENT']}|{lexical.TERMINALS['ATAG']})"
_ANNOTATION_RE = re.compile(_ANNOTATION)
# A turn line: annotations (a comment line's, which the grammar refuses before a label), an optional "(" with
# its annotations, then the label as a whole word.
_TURN_START_RE = re.compile(
    rf"[ \t]*(?:{_ANNOTATION}[ \t]*)*(?P<open>\((?:[ \t]*{_ANNOTATION})*[ \t]*)?"
    rf"(?P<label>{lexical.TERMINALS['LABEL']})(?![0-9.])"
)
_SEAT_TAG_RE = re.compile(r"[ \t]*\[[ \t]*Seat([1-7])[ \t\"]")
_LABEL_RE = re.compile(lexical.TERMINALS["LABEL"])
_CLOSERS_RE = re.compile(r"(?:[ \t]*\))+[ \t]*$")


class _Lines:
    """A game's lines as ``text.split("\\n")`` gives them, without a string per line: the text held (it is the
    reader's), a line sliced when it is asked for. Where a line starts is found by one regular-expression match per
    :data:`_STRIDE` lines from the nearest start known (a stride start is kept, 8 bytes per 64 lines, only as far as
    a line is asked for). A huge game's recovery holds no list of its lines (a broken 20 MB game of short lines
    cost 24 bytes per byte so)."""

    __slots__ = ("text", "count", "_starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self.count = text.count("\n") + 1
        self._starts = array("q", [0])  # where lines 0, _STRIDE, 2 * _STRIDE, ... start, as far as known

    def start(self, k: int) -> int:
        """Where line ``k`` (0-based, in range) starts."""
        block, within = divmod(k, _STRIDE)
        starts, text = self._starts, self.text
        while len(starts) <= block:
            m = _STRIDE_RE.match(text, starts[-1])
            assert m is not None  # line k exists
            starts.append(m.end())
        at = starts[block]
        for _ in range(within):
            at = text.index("\n", at) + 1
        return at

    def end(self, start: int) -> int:
        """Where the line that starts at ``start`` ends (its line end, or the text's end)."""
        stop = self.text.find("\n", start)
        return len(self.text) if stop < 0 else stop

    def line(self, k: int) -> str:
        """Line ``k`` (0-based, in range)."""
        start = self.start(k)
        return self.text[start:self.end(start)]

    def first(self, n: int) -> Iterator[str]:
        """The first ``n`` lines (or all), one at a time."""
        text, start = self.text, 0
        for _ in range(min(n, self.count)):
            stop = self.end(start)
            yield text[start:stop]
            start = stop + 1

    def joined(self, replaced: dict[int, str]) -> str:
        """The text with the lines ``replaced`` (by index) replaced: ``"\\n".join`` of the lines so changed."""
        parts: list[str] = []
        at = 0
        for k in sorted(replaced):
            start = self.start(k)
            parts.append(self.text[at:start])
            parts.append(replaced[k])
            at = self.end(start)
        parts.append(self.text[at:])
        return "".join(parts)

    def joined_length(self, replaced: dict[int, str]) -> int:
        """``len(self.joined(replaced))``, without joining."""
        return len(self.text) + sum(len(line) - len(self.line(k)) for k, line in replaced.items())


_STRIDE: Final[int] = 64
_STRIDE_RE: Final[re.Pattern[str]] = re.compile(r"(?:[^\n]*\n){%d}" % _STRIDE)


def body_line(lines: Iterable[str], count: int) -> int:
    """The 0-based index of the game's first body line: the first line after its tags that is not blank (tags and
    the values that continue them start with ``[`` or ``"``), ``count`` (the number of lines) if none."""
    for k, line in enumerate(lines):
        start = line.lstrip(" \t")
        if start and (start.startswith("[%") or start[0] not in "[\""):
            return k
    return count


def seat_count(lines: Iterable[str]) -> int:
    """The number of seats of the game's ``[SeatN`` tags (valid: the header was read)."""
    return len({m.group(1) for line in lines if (m := _SEAT_TAG_RE.match(line))})


def _closers(line: str, start: int) -> int:
    """How many ``)`` close variations at the end of ``line`` (from ``start``, past its label): those of the
    trailing run of ``)``, less those that close a purchase's ``(`` (comments and tags left out)."""
    bare = _ANNOTATION_RE.sub(" ", line[start:])
    m = _CLOSERS_RE.search(bare)
    if m is None:
        return 0
    count = m.group().count(")")
    head = bare[: m.start()]
    if "//" not in head:  # after "//" only a glyph and annotations stand: no purchase
        depth = 0
        for c in head:
            depth = depth + 1 if c == "(" else max(0, depth - 1) if c == ")" else depth
        count -= min(depth, count)
    return count


def neutral(line: str, seats: int, label: str | None = None) -> str | None:
    """The neutral line that stands for ``line`` (see the module), with ``label`` instead of its own when given;
    ``None`` when ``line`` holds the start of a comment or tag that does not end on it."""
    stripped = _ANNOTATION_RE.sub("", line)
    if "{" in stripped or "[%" in stripped:
        return None
    m = _TURN_START_RE.match(line)
    if m is None and label is None:
        return ""
    actions = " | ".join(f"#{k}: sell ?" for k in range(1, seats + 1))
    if m is None:
        return f"{label} {actions}"
    closers = _closers(line, m.end())
    opener = "( " if m.group("open") is not None else ""
    return f"{opener}{label or m.group('label')} {actions}{' )' * closers}"


def further_errors(first: NotationError, text: str, origin: Origin) -> tuple[NotationError, ...]:
    """The errors of the game ``text`` (read as the reader reads it: a game placed in its file by ``origin``) after
    its first one, ``first``, in the order found. See the module."""
    if first.rule in _FINAL_RULES:
        return ()
    lines = _Lines(text)
    body = body_line(lines.first(lines.count), lines.count)
    seats = seat_count(lines.first(body))
    current: dict[int, str] = {}  # the lines replaced so far, by index
    replaced: set[int] = set()  # the lines replaced by neutral ones
    found: list[NotationError] = []
    error: NotationError | None = first
    budget = REREAD_BUDGET
    guessed: list[int] = []  # lines meant as turns, made empty because their labels could not be read
    while error is not None and len(found) + 1 < MAX_ERRORS:
        k = origin.line_in_text(error.line) - 1
        if not body <= k < lines.count or k in replaced:
            break
        labels = _labels(error)
        if labels:
            # a turn out of order: read on as if it had the label its place expects, unless the next turn line is
            # then out of order too (a turn left out: every later one would be, so the search ends here)
            def fits(e: NotationError, k: int = k) -> bool:
                return not (_labels(e) and origin.line_in_text(e.line) - 1 > k)

            retried = _relabel(lines, current, k, labels, lines.line(k), seats, fits, origin, budget)
            if retried is None:
                break
            current, error, cost = retried
            replaced.add(k)
            budget -= cost
        else:
            line = current[k] if k in current else lines.line(k)
            fix = neutral(line, seats)
            if fix is None:
                break
            if fix == "" and _NOT_A_TURN_RE.match(line) is None:
                guessed.append(k)
            replaced.add(k)
            current[k] = fix
            budget -= lines.joined_length(current)
            if budget < 0:
                break
            error = _reread(lines.joined(current), origin)
        while guessed and error is not None and _labels(error) and origin.line_in_text(error.line) - 1 > guessed[0]:
            # the lines made empty were meant as turns: give them the labels their places expect
            at = origin.line_in_text(error.line) - 1
            run, guessed = [g for g in guessed if g < at], [g for g in guessed if g > at]
            retried = _relabel_run(current, run, lines, seats, error, error, origin, budget)
            if retried is not None:
                current, error, cost = retried
                budget -= cost
        if error is None or error.rule in _FINAL_RULES or origin.line_in_text(error.line) - 1 in replaced:
            break
        found.append(_placed(error, lines, origin))
    return tuple(found)


def _labels(error: NotationError) -> list[str]:
    """The turn labels ``error`` expected, when it is a turn out of order (``turn-order``, or ``variation`` at the
    first label of a variation)."""
    if error.rule not in ("turn-order", "variation"):
        return []
    return [label for label in error.expected if _LABEL_RE.fullmatch(label)]


def _reread(text: str, origin: Origin) -> NotationError | None:
    """The first error of the game ``text`` read by the reference route, ``None`` if it reads."""
    from . import lark_route

    try:
        lark_route.read(text, origin)
    except NotationError as exc:
        return exc
    return None


# The lines that are not turn lines, although made empty: every other line made empty (``IV.1 …``, ``I3 …``) may have
# been meant as one.
_NOT_A_TURN_RE = re.compile(r"[ \t]*(?:(?i:game|result)(?![A-Za-z0-9_])|\[(?!%)|$)")


def _relabel(lines: _Lines, current: dict[int, str], k: int, labels: list[str], original: str, seats: int,
             fits: Callable[[NotationError], bool], origin: Origin, budget: int
             ) -> tuple[dict[int, str], NotationError | None, int] | None:
    """The text ``current`` with line ``k`` (``original`` in the game) made the neutral line of each of ``labels``
    in turn: the first whose re-read reads or gives an error that ``fits``, with that error (``None``: none) and
    the characters read; ``None`` when no label does (or the budget is spent)."""
    cost = 0
    for label in labels:
        fix = neutral(original, seats, label)
        if fix is None:
            return None
        trial = dict(current)
        trial[k] = fix
        cost += lines.joined_length(trial)
        if cost > budget:
            return None
        found = _reread(lines.joined(trial), origin)
        if found is None or (origin.line_in_text(found.line) - 1 != k and fits(found)):
            return trial, found, cost
    return None


def _relabel_run(current: dict[int, str], run: list[int], lines: _Lines, seats: int, late: NotationError,
                 error: NotationError, origin: Origin, budget: int
                 ) -> tuple[dict[int, str], NotationError | None, int] | None:
    """Labels for the lines ``run`` (made empty, meant as turns) that put the turn of ``late`` (out of order after
    them) in order: each line takes a label its place expects (``error`` says which for the first), tried depth
    first. The text, its re-read's error (``None``: none) and the characters read; ``None`` when no labels do."""
    k, rest = run[0], run[1:]
    cost = 0
    for label in _labels(error):
        fix = neutral(lines.line(k), seats, label)
        if fix is None:
            return None
        trial = dict(current)
        trial[k] = fix
        cost += lines.joined_length(trial)
        if cost > budget:
            return None
        found = _reread(lines.joined(trial), origin)
        if found is None or (found.line, found.column) > (late.line, late.column):
            return trial, found, cost
        if rest and _labels(found) and origin.line_in_text(found.line) - 1 > rest[0]:
            deeper = _relabel_run(trial, rest, lines, seats, late, found, origin, budget - cost)
            if deeper is not None:
                return deeper[0], deeper[1], cost + deeper[2]
    return None


def _placed(error: NotationError, lines: _Lines, origin: Origin) -> NotationError:
    """``error`` (found in a text with neutral lines, on a line that is the original's) with its offset and source
    line those of the original text."""
    k = origin.line_in_text(error.line) - 1
    start = lines.start(k)
    error.offset = origin.offset(start + error.column - 1)
    error.source_line = lines.text[start:lines.end(start)]
    return error
