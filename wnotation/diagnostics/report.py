"""Report types of a check: a :class:`Diagnostic` per problem, rendered compiler-style by :func:`render`, and
the reports of a game, a file and a whole check, each with its plain-data form for JSON (streamed by
:mod:`~wnotation.diagnostics.jsonreport`). No reading, no replaying here: plain values, picklable for worker
processes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Literal

from ..support.compiler_style import compiler_style

if TYPE_CHECKING:
    from ..notation.errors import NotationError

Severity = Literal["error", "warning", "note"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "note")


def render(severity: str, rule: str, message: str, source: str, line: int, column: int, source_line: str = "",
           colour: bool = False) -> str:
    """A diagnostic compiler-style: ``file:12:5: error[R-TRADE]: message``, then, when the line is known, the line
    and a caret under the column; control characters from the record shown as visible stand-ins. The one
    rendering of every diagnostic, whatever its severity; the same as a
    :class:`~wnotation.notation.NotationError`'s (both are :func:`~wnotation.support.compiler_style.compiler_style`). With
    ``colour``, the ANSI colours of a terminal (rustc's: the severity and code coloured, the location bold)."""
    return compiler_style(severity, rule, message, source, line, column, source_line, colour)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in a record, where it is and which rule or check it breaks.

    ``kind`` is ``"notation"`` (the text is not valid 7WN: the game could not be read) or ``"finding"`` (the
    engine's verdict on a readable game: an illegal action, a wrong expected result, a remark). ``line`` and
    ``column`` are 1-based; ``source_line`` is the text of that line. ``address`` (``II.3``, ``III.end``,
    ``game``) and ``seat`` (1-based) are set for findings. ``check_only`` marks a remark about the check itself
    (the engine's :attr:`~wnotation.engine.Finding.check_only`): a check report shows it, a score sheet or a
    position leaves it out. ``str()`` gives the compiler-style rendering (:func:`render`).
    """

    severity: Severity
    rule: str
    message: str
    source: str
    line: int
    column: int
    source_line: str = ""
    kind: Literal["notation", "finding"] = "finding"
    address: str | None = None
    seat: int | None = None
    expected: tuple[str, ...] = ()
    suggestion: str | None = None

    check_only: bool = False

    def __str__(self) -> str:
        return self.rendered()

    def rendered(self, colour: bool = False) -> str:
        """The compiler-style rendering (:func:`render`), coloured for a terminal with ``colour``."""
        return render(self.severity, self.rule, self.message, self.source, self.line, self.column, self.source_line,
                      colour)

    @property
    def location(self) -> str:
        """``file:line:column``."""
        return f"{self.source}:{self.line}:{self.column}"

    def to_dict(self) -> dict[str, Any]:
        """The diagnostic as plain data (JSON), ``text`` being the one-line form without the source line."""
        return {
            "kind": self.kind,
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message,
            "source": self.source,
            "line": self.line,
            "column": self.column,
            "source_line": self.source_line,
            "address": self.address,
            "seat": self.seat,
            "expected": list(self.expected),
            "suggestion": self.suggestion,
            "text": str(self).split("\n", 1)[0],
        }

    @classmethod
    def from_error(cls, error: NotationError, line0: int = 0) -> "Diagnostic":
        """The diagnostic of a notation error (same position, rule, message, source line); ``line0`` lines are
        added to its line (the error came from a piece of a file that starts after ``line0`` lines)."""
        return cls("error", error.rule, error.message, error.source, error.line + line0, error.column,
                   error.source_line, "notation", expected=tuple(error.expected), suggestion=error.suggestion)


@dataclass(frozen=True, slots=True)
class GameReport:
    """The check of one game: ``index`` (1-based) in its file, the ``line`` it starts on, its diagnostics in
    order (a notation error first and alone when the game could not be read), and for a readable game the seat
    names and, when complete, the score sheet as plain rows (one dict per seat)."""

    source: str
    index: int
    line: int
    diagnostics: tuple[Diagnostic, ...]
    read: bool = True
    seats: tuple[str, ...] = ()
    complete: bool = False
    scores: tuple[dict[str, int], ...] | None = None

    def count(self, severity: str) -> int:
        return sum(1 for d in self.diagnostics if d.severity == severity)

    @property
    def ok(self) -> bool:
        """True when the game was read and nothing in it is an error (warnings and notes allowed)."""
        return self.read and self.count("error") == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "line": self.line,
            "ok": self.ok,
            "read": self.read,
            "seats": list(self.seats),
            "complete": self.complete,
            "errors": self.count("error"),
            "warnings": self.count("warning"),
            "notes": self.count("note"),
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "scores": None if self.scores is None else [dict(s) for s in self.scores],
        }


@dataclass(frozen=True, slots=True)
class FileReport:
    """The check of one input: its games in file order, or ``error`` (one line) when it could not be read at
    all (missing, not a file, not UTF-8, no permission). ``remarks`` are about the input as a whole: the
    :func:`no_game_remark` of an input that holds no game (an error, or a warning where empty inputs are
    allowed)."""

    source: str
    games: tuple[GameReport, ...] = ()
    error: str | None = None
    remarks: tuple[Diagnostic, ...] = ()

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The remarks, then every game's diagnostics, in file order."""
        return self.remarks + tuple(d for g in self.games for d in g.diagnostics)

    def count(self, severity: str) -> int:
        return sum(1 for d in self.diagnostics if d.severity == severity)

    @property
    def ok(self) -> bool:
        """True when the input was read, no game has an error and no remark is one."""
        return (self.error is None and all(g.ok for g in self.games)
                and not any(d.severity == "error" for d in self.remarks))

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "ok": self.ok, "error": self.error,
                "remarks": [d.to_dict() for d in self.remarks], "games": [g.to_dict() for g in self.games]}


EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2


@dataclass(frozen=True)
class CheckReport:
    """The check of several inputs, in input order; picks the exit code and writes the summary line."""

    files: tuple[FileReport, ...] = field(default_factory=tuple)

    @property
    def games(self) -> tuple[GameReport, ...]:
        return tuple(g for f in self.files for g in f.games)

    def count(self, severity: str) -> int:
        return sum(f.count(severity) for f in self.files)

    @property
    def unreadable(self) -> tuple[FileReport, ...]:
        return tuple(f for f in self.files if f.error is not None)

    @property
    def exit_code(self) -> int:
        """2 if an input could not be read, else 1 if any game or input has an error, else 0."""
        if self.unreadable:
            return EXIT_UNREADABLE
        return EXIT_FINDINGS if any(not f.ok for f in self.files) else EXIT_OK

    def tally(self) -> "CheckTally":
        """The counts behind the summary line and the exit code."""
        tally = CheckTally()
        for f in self.files:
            tally.add_file(f.error, f.remarks)
            for g in f.games:
                tally.add_game(g)
        return tally

    def summary(self) -> str:
        """One line, e.g. ``checked 3 games in 2 files: 1 game with errors (2 errors, 1 warning)``."""
        return self.tally().summary()

    def to_dict(self) -> dict[str, Any]:
        return {"files": [f.to_dict() for f in self.files], "summary": self.tally().summary_dict(),
                "exit_code": self.exit_code}


@dataclass
class CheckTally:
    """What a check of several inputs counts, without keeping any report: files, games, games with errors,
    diagnostics per severity, unreadable files, inputs without a game (and how many of those are errors). It gives the same summary line, summary data and exit code as
    the :class:`CheckReport` of the same inputs (which uses it), so a check can stream its reports through it."""

    files: int = 0
    games: int = 0
    games_with_errors: int = 0
    unreadable: int = 0
    empty: int = 0
    empty_errors: int = 0
    severities: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SEVERITIES, 0))

    def add_file(self, error: str | None = None, remarks: Iterable[Diagnostic] = ()) -> None:
        """Count an input (unreadable when ``error`` is set) and its remarks; its games come by :meth:`add_game`."""
        self.files += 1
        self.unreadable += error is not None
        for d in remarks:
            self.severities[d.severity] += 1
            if d.rule == NO_GAME_RULE:
                self.empty += 1
                self.empty_errors += d.severity == "error"

    def add_game(self, game: GameReport) -> None:
        self.games += 1
        self.games_with_errors += not game.ok
        for d in game.diagnostics:
            self.severities[d.severity] += 1

    def count(self, severity: str) -> int:
        return self.severities[severity]

    @property
    def exit_code(self) -> int:
        """2 if an input could not be read, else 1 if any game has an error or an input without a game is one,
        else 0."""
        if self.unreadable:
            return EXIT_UNREADABLE
        return EXIT_FINDINGS if self.games_with_errors or self.empty_errors else EXIT_OK

    def summary(self) -> str:
        """One line, e.g. ``checked 3 games in 2 files: 1 game with errors (2 errors, 1 warning)``."""
        head = f"checked {_plural(self.games, 'game')} in {_plural(self.files, 'file')}"
        parts = []
        counts = ", ".join(_plural(self.count(s), s) for s in SEVERITIES if self.count(s))
        if self.games_with_errors or self.empty_errors:
            failed = [_plural(self.games_with_errors, "game") + " with errors" if self.games_with_errors else "",
                      f"{_plural(self.empty_errors, 'file')} without a game" if self.empty_errors else ""]
            parts.append(", ".join(p for p in failed if p) + (f" ({counts})" if counts else ""))
        elif self.games:
            parts.append("all good" + (f" ({counts})" if counts else ""))
        if self.unreadable:
            parts.append(f"{_plural(self.unreadable, 'file')} unreadable")
        return f"{head}: {'; '.join(parts)}" if parts else head

    def summary_dict(self) -> dict[str, Any]:
        """The ``summary`` object of the JSON report."""
        return {
            "files": self.files,
            "games": self.games,
            "games_with_errors": self.games_with_errors,
            "errors": self.count("error"),
            "warnings": self.count("warning"),
            "notes": self.count("note"),
            "unreadable": self.unreadable,
            "empty": self.empty,
            "text": self.summary(),
        }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: The rule ID of :func:`no_game_remark`.
NO_GAME_RULE = "games"


def no_game_remark(source: str, first_line: str, allow_empty: bool = False) -> Diagnostic:
    """The diagnostic of an input that holds no game (``first_line``: its first line, without the line end): an
    error, or a warning when empty inputs are allowed."""
    return Diagnostic("warning" if allow_empty else "error", NO_GAME_RULE,
                      "no game in this input: a game starts with a line [Format \"7WN 1\"]",
                      source, 1, 1, first_line, "notation")
