"""The notation error family: every problem the reader finds in a 7WN text, with where and why.

One base class, :class:`NotationError` (a :class:`ValueError`), and one subclass per question that failed.
Errors render compiler-style (``game.7wn:12:5: error[syntax]: …`` plus the line and a caret) and expose the
same data structured (:meth:`NotationError.to_dict`). Legality findings are the engine's, not errors here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..support.compiler_style import compiler_style, visible
from ..errors import InputError


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a text sits in its input: the input's name and the lines and characters before the text (a game in
    the middle of a file, a piece of a file checked alone). One value carried from the reader to the reports, as
    black carries one ``Mode``, instead of a name and two counts threaded separately; positions counted in the
    text move into the input's by it (a column never moves: a text starts a line)."""

    source: str = "<string>"
    lines_before: int = 0
    chars_before: int = 0

    @property
    def first_line(self) -> int:
        """The input's 1-based line of the text's first line."""
        return self.lines_before + 1

    def line(self, line: int) -> int:
        """The input's line of the text's 1-based ``line``."""
        return line + self.lines_before

    def offset(self, offset: int) -> int:
        """The input's 0-based character offset of the text's ``offset``."""
        return offset + self.chars_before

    def line_in_text(self, line: int) -> int:
        """The text's 1-based line of the input's ``line`` (the inverse of :meth:`line`)."""
        return line - self.lines_before

    def after(self, lines: int, chars: int = 0) -> Origin:
        """The origin of a text that starts ``lines`` lines and ``chars`` characters into this one."""
        return Origin(self.source, self.lines_before + lines, self.chars_before + chars)


class NotationError(InputError, ValueError):
    """A text that is not valid 7WN. ``line``/``column`` are 1-based; ``offset`` is 0-based in the text.

    Attributes: ``message`` (lower-case, names the token and its context), ``source`` (file name or
    ``"<string>"``), ``line``, ``column``, ``offset``, ``source_line`` (the text of that line, no newline),
    ``rule`` (the check that failed, e.g. ``"syntax"``, ``"unknown-card"``, ``"action-count"``),
    ``expected`` (what would have been accepted, in plain words) and ``suggestion`` (a "did you mean").
    :attr:`errors` holds every error of the game, this one (the first found) among them.
    """

    rule = "notation"

    def __init__(
        self,
        message: str,
        *,
        source: str = "<string>",
        line: int = 1,
        column: int = 1,
        offset: int = 0,
        source_line: str = "",
        rule: str | None = None,
        expected: tuple[str, ...] = (),
        suggestion: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.offset = offset
        self.source_line = source_line
        if rule is not None:
            self.rule = rule
        self.expected = expected
        self.suggestion = suggestion
        self._further: tuple[NotationError, ...] | None = None
        self._recover: Callable[[], tuple[NotationError, ...]] | None = None

    @property
    def errors(self) -> tuple[NotationError, ...]:
        """Every notation error of the game this error was found in, in text order (line, then column): this one,
        the game's first, and the further ones the reader finds by recovering at the next line (at most one per
        line; see :mod:`wnotation.notation.reader.recovery`). Searched when first asked for (the reader reads the
        game again, a few times), then kept. An error made elsewhere has itself alone."""
        if self._further is None:
            recover, self._recover = self._recover, None
            self._further = recover() if recover is not None else ()
        return tuple(sorted((self, *self._further), key=lambda e: (e.line, e.column)))

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled (to and from worker processes) with its further errors found, not with the search
        self.errors  # noqa: B018
        # its data only: an attribute a caller or a parser attached (a Lark object holds local callbacks) stays here
        state = {name: self.__dict__[name] for name in _PICKLED if name in self.__dict__}
        return (type(self), self.args, state)

    @property
    def caret(self) -> str:
        """Spaces (tabs kept as tabs, so terminals line it up) and a ``^`` under the column of the shown line."""
        prefix = visible(self.source_line)[: self.column - 1]
        return "".join(c if c == "\t" else " " for c in prefix) + "^"

    def __str__(self) -> str:
        return compiler_style("error", self.rule, self.message, self.source, self.line, self.column, self.source_line)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, line={self.line}, column={self.column})"

    def to_dict(self) -> dict[str, Any]:
        """The error as plain data (for JSON reports): kind, rule, message, position, expected, suggestion."""
        return {
            "kind": type(self).__name__,
            "rule": self.rule,
            "message": self.message,
            "source": self.source,
            "line": self.line,
            "column": self.column,
            "offset": self.offset,
            "source_line": self.source_line,
            "expected": list(self.expected),
            "suggestion": self.suggestion,
        }


#: What a pickled error keeps (:meth:`NotationError.__reduce__`): the fields of its constructor and the further
#: errors, once found.
_PICKLED = ("message", "source", "line", "column", "offset", "source_line", "rule", "expected", "suggestion",
            "_further")


class NotationSyntaxError(NotationError):
    """The text does not follow the grammar; ``expected`` says what would have been accepted there."""

    rule = "syntax"


class UnknownNameError(NotationError):
    """A card, Wonder, guild, seat or resource name that is not known; ``suggestion`` is the nearest name."""

    rule = "unknown-name"


class TagError(NotationError):
    """A header tag that is missing, repeated, reserved or has a malformed value."""

    rule = "tag"


class RosterError(NotationError):
    """The seats do not form a table: wrong count, gaps in numbering, a Wonder or name used twice."""

    rule = "roster"


class StructureError(NotationError):
    """A well-formed line in the wrong place or with the wrong count (turn order, actions per turn, …)."""

    rule = "structure"


def at_offset(
    cls: type[NotationError],
    message: str,
    text: str,
    pos: int,
    origin: Origin,
    **kw: Any,
) -> NotationError:
    """An error of class ``cls`` at character ``pos`` of ``text`` (a game placed in its input by ``origin``): line,
    column and the source line are counted here, only when an error is made."""
    pos = max(0, min(pos, len(text)))
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    if end < 0:
        end = len(text)
    return cls(
        message,
        source=origin.source,
        line=origin.line(text.count("\n", 0, pos) + 1),
        column=pos - start + 1,
        offset=origin.offset(pos),
        source_line=text[start:end],
        **kw,
    )
