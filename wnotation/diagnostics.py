"""Checking records: each game read, replayed and verified, every problem turned into a compiler-style diagnostic.

This module joins the notation and the engine: a notation error, an engine finding and a wrong expected result all
become a :class:`Diagnostic` with file, line, column, severity, rule ID, message and the source line, rendered by
the notation's own renderer (``file:12:5: error[R-TRADE]: … `` plus the line and a caret) and available as plain
data for JSON. Non-goals: it neither decides legality (the engine does) nor prints anything (the CLI does).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import IO, Any, Callable, Iterable, Iterator, Literal, Sequence

from .notation.errors import NotationError
from .record import Record, Span

__all__ = ["CheckReport", "CheckTally", "Diagnostic", "FileReport", "GameReport", "check", "check_file",
           "check_piece", "check_pieces", "check_record", "check_text", "diagnostics_of", "file_lines", "game_pieces",
           "is_check_only", "iter_check", "iter_pieces", "no_game_remark", "normalise", "read_text", "scan_file"]

Severity = Literal["error", "warning", "note"]
SEVERITIES: tuple[str, ...] = ("error", "warning", "note")


class _Rendered(NotationError):
    """A NotationError used only for its compiler-style rendering, with a severity other than ``error``."""

    def __init__(self, message: str, *, severity: str = "error", **kw: Any) -> None:
        super().__init__(message, **kw)
        self.severity = severity

    def __str__(self) -> str:
        text = super().__str__()
        if self.severity == "error":
            return text
        # the notation renders every problem as an error; a warning or a note changes only that word
        head = f"{self.source}:{self.line}:{self.column}: error[{self.rule}]"
        return f"{self.source}:{self.line}:{self.column}: {self.severity}[{self.rule}]{text[len(head):]}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in a record, where it is and which rule or check it breaks.

    ``kind`` is ``"notation"`` (the text is not valid 7WN: the game could not be read) or ``"finding"`` (the
    engine's verdict on a readable game: an illegal action, a wrong expected result, a remark). ``line`` and
    ``column`` are 1-based; ``source_line`` is the text of that line. ``address`` (``II.3``, ``III.end``,
    ``game``) and ``seat`` (1-based) are set for findings. ``str()`` gives the compiler-style rendering.
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

    def __str__(self) -> str:
        return str(_Rendered(self.message, severity=self.severity, source=self.source, line=self.line,
                             column=self.column, source_line=self.source_line, rule=self.rule))

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


# --- joining a record with its replay --------------------------------------------------------------------------


def _line(lines: list[str] | None, number: int) -> str:
    if lines is None or not 1 <= number <= len(lines):
        return ""
    return lines[number - 1]


def diagnostics_of(record: Record, findings: Iterable[Any], lines: list[str] | None = None,
                   source: str = "<string>", *, line0: int = 0) -> tuple[Diagnostic, ...]:
    """The engine's ``findings`` on ``record`` as diagnostics, placed at the span of the Record element each one
    concerns (the action, the turn, the result line). A finding without a span is placed at the start of the
    game and names its address (``III.0: …``). ``lines`` are the source's lines (for the caret line).
    ``line0`` is for a record read from a piece of a file: the lines of the file before that piece, added to
    every line number (``lines`` and the spans are the piece's).
    Returns a fresh tuple in source order (line, then column; findings at one place keep the engine's order)."""
    home = record.span or Span(line=1, column=1)
    out = []
    for f in findings:
        span = f.span or home
        message = f.message if f.span is not None else f"{f.address}: {f.message}"
        out.append(Diagnostic(f.severity, f.rule, message, source, span.line + line0, span.column,
                              _line(lines, span.line), "finding", f.address, f.seat))
    return tuple(sorted(out, key=lambda d: (d.line, d.column)))


def is_check_only(finding: Any) -> bool:
    """True for an engine remark that only ``check`` shows: the Age III note that a record names neither its
    guilds nor a seed. It qualifies the check itself; next to a score sheet or a position it is noise."""
    return (finding.severity == "note" and finding.rule == "R-DECK"
            and "names neither its guilds nor a seed" in finding.message)


def _score_rows(sheet: Any) -> tuple[dict[str, int], ...]:
    fields = ("seat", "military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total",
              "coins", "rank")
    return tuple({name: getattr(line, name) for name in fields} for line in sheet.lines)


def check_record(record: Record, *, lines: list[str] | None = None, source: str = "<string>",
                 index: int = 1, line0: int = 0) -> GameReport:
    """Replay ``record`` (expected results verified) and report its findings as diagnostics.

    ``lines`` (the source text split into lines) give the diagnostics their source line; ``index`` is the game's
    number in its file; ``line0`` the lines before the text the record was read from (see
    :func:`diagnostics_of`). Cost: one replay. Never raises for a valid Record."""
    from .engine import replay

    played = replay(record)
    start = (record.span.line if record.span is not None else 1) + line0
    return GameReport(source, index, start, diagnostics_of(record, played.findings, lines, source, line0=line0),
                      seats=tuple(s.name for s in record.seats), complete=played.scores is not None,
                      scores=None if played.scores is None else _score_rows(played.scores))


def normalise(text: str) -> str:
    """The text as the reader sees it: a leading BOM dropped, CRLF and CR turned into LF. Lines and columns of
    every diagnostic count in this text; cutting it at line starts keeps them."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _lines(text: str) -> list[str]:
    """The text's lines as the reader counts them (BOM dropped, CRLF and CR as LF)."""
    return normalise(text).split("\n")


def _game_reports(text: str, source: str, line0: int = 0) -> list[GameReport]:
    """The report of each game of ``text`` in order (games numbered from 1), ``line0`` added to every line."""
    from .notation import read_games

    lines = _lines(text)
    games = []
    for k, item in enumerate(read_games(text, source=source), start=1):
        if isinstance(item, NotationError):
            games.append(GameReport(source, k, _game_start(lines, item.line) + line0,
                                    (Diagnostic.from_error(item, line0),), read=False))
        else:
            games.append(check_record(item, lines=lines, source=source, index=k, line0=line0))
    return games


def check_text(text: str, source: str = "<string>", *, allow_empty: bool = False) -> FileReport:
    """Check every game of a 7WN ``text``: a broken game is reported and the next one still checked.

    An input without any game (empty, blank, only comments) gets an error, a warning with ``allow_empty``: a
    truncated fixture must not pass. Cost: one parse and one replay per game."""
    games = _game_reports(text, source)
    if not games:
        return FileReport(source, (), remarks=(no_game_remark(source, _line(_lines(text), 1), allow_empty),))
    return FileReport(source, tuple(games))


#: The rule ID of :func:`no_game_remark`.
NO_GAME_RULE = "games"


def no_game_remark(source: str, first_line: str, allow_empty: bool = False) -> Diagnostic:
    """The diagnostic of an input that holds no game (``first_line``: its first line, without the line end): an
    error, or a warning when empty inputs are allowed."""
    return Diagnostic("warning" if allow_empty else "error", NO_GAME_RULE,
                      "no game in this input: a game starts with a line [Format \"7WN 1\"]",
                      source, 1, 1, first_line, "notation")


def game_pieces(text: str, games: int) -> list[tuple[str, int]]:
    """Cut a normalised text (:func:`normalise`) into pieces of ``games`` whole games each (the last may hold
    fewer), at the game boundaries the reader uses (``[Format`` lines, spec/7wn.md section 3): a list of
    ``(piece, line0)``, ``line0`` being the lines before the piece. Any text before the first game goes with
    the first piece, so the pieces join up to ``text``. Checking each piece with :func:`check_piece` gives the
    games :func:`check_text` gives for the whole, lines included (their ``index`` counts within the piece).
    Cost: one pass over the text; the pieces are fresh strings."""
    return list(iter_pieces(_text_lines(text), games))


def _text_lines(text: str) -> Iterator[str]:
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
    from .notation.lexical import BOUNDARY_RE

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


def check_piece(text: str, source: str, line0: int) -> tuple[GameReport, ...]:
    """Check the games of a piece of a file (from :func:`game_pieces`) that starts after ``line0`` lines: their
    reports carry the file's line numbers; their ``index`` counts from 1 within the piece. Made for worker
    processes: it takes and returns plain picklable values (a few hundred bytes per game)."""
    return tuple(_game_reports(text, source, line0))


def check_pieces(batch: Sequence[tuple[str, str, int]]) -> tuple[tuple[GameReport, ...], ...]:
    """:func:`check_piece` of each ``(piece, source, line0)`` of ``batch``: one task for a worker process that
    checks several small files (or pieces) at once."""
    return tuple(tuple(_game_reports(piece, source, line0)) for piece, source, line0 in batch)


def iter_check(lines: Iterable[str], source: str = "<string>", *,
               allow_empty: bool = False) -> Iterator[GameReport | Diagnostic]:
    """Check the games of a normalised text given as lines (see :func:`iter_pieces`; :func:`file_lines` reads
    a file so), yielding each game's report in file order as soon as it is checked, then, if the input holds no
    game, the :func:`no_game_remark`. The same reports as :func:`check_text` of the whole text, while only one
    game's text and report are held: memory stays flat however many games the input holds."""
    index, first = 0, None
    for piece, line0 in iter_pieces(lines, 1):
        if first is None:
            first = _line(piece.split("\n", 1)[:1], 1)
        for game in _game_reports(piece, source, line0):
            index += 1
            yield game if game.index == index else replace(game, index=index)
    if index == 0:
        yield no_game_remark(source, first or "", allow_empty)


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


def _game_start(lines: list[str], line: int) -> int:
    """The line of the ``[Format`` tag that opens the game holding ``line`` (1 if none)."""
    for k in range(min(line, len(lines)), 0, -1):
        if lines[k - 1].lstrip(" \t").startswith("[Format"):
            return k
    return 1


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


def check_file(path: str | os.PathLike[str], source: str | None = None, *, allow_empty: bool = False) -> FileReport:
    """Check the 7WN file at ``path`` (``source`` names it in diagnostics; default the path; ``allow_empty`` as
    for :func:`check_text`). A file that cannot be read gives a report with ``error`` set, never an exception:
    safe to run in a worker process."""
    name = source if source is not None else os.fspath(path)
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        return FileReport(name, (), unreadable_reason(exc))
    return check_text(text, name, allow_empty=allow_empty)


def check(path_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None,
          allow_empty: bool = False) -> FileReport:
    """Check a file (a path), an open text file, or a 7WN text: read every game, replay it, verify its expected
    results. Returns a :class:`FileReport`; ``report.ok`` is true when no game has an error (and the input holds
    a game, unless ``allow_empty``), and ``str(d)`` of each ``d`` in ``report.diagnostics`` is its
    compiler-style rendering."""
    arg = path_or_text
    if isinstance(arg, os.PathLike) or (isinstance(arg, str) and "\n" not in arg and os.path.isfile(arg)):
        return check_file(arg, source, allow_empty=allow_empty)
    if isinstance(arg, str):
        return check_text(arg, source or "<string>", allow_empty=allow_empty)
    return check_text(arg.read(), source or str(getattr(arg, "name", "<stream>")), allow_empty=allow_empty)


# --- formatting, verified --------------------------------------------------------------------------------------


class FormatBug(RuntimeError):
    """The canonical text of a record does not read back as the same games, or does not format to itself: a bug
    in wnotation, never in the user's file."""


def canonical_text(text: str, source: str = "<string>", *, purchases: bool = False,
                   on_game: Callable[[], None] | None = None) -> str:
    """The canonical 7WN text of every game in ``text`` (spec section 10), verified like black verifies.

    With ``purchases=True`` (what ``wnotation fmt`` does unless ``--keep-purchases``) each game's purchases are
    first normalised by the rules engine (:func:`~wnotation.canonical.canonical_purchases`, R-TRADE-MINIMAL: a
    purchase is stated exactly when more than one cheapest purchase exists or the stated one is not the engine's
    default). Without it (the default, the notation alone, no replay) the purchases stay as the record states
    them and the text is canonical only up to that normalisation.

    Verification: the normalised game replays to the same events, findings and scores as the game read; reading
    the result gives Records equal to the normalised ones; formatting it again (normalising included) gives the
    same text. Raises the first :class:`~wnotation.notation.NotationError` when a game does not read (nothing is
    formatted then), :class:`FormatBug` when the verification fails. An input without any game is returned as
    is. ``on_game`` is called once per game as it is read (normalised, with ``purchases``), for a progress bar.
    Cost: two parses and two writes of the text, and with ``purchases`` two replays per game.
    """
    from . import notation

    records = []
    for item in notation.read_games(text, source=source):
        if isinstance(item, NotationError):
            raise item
        records.append(item)
        if on_game is not None and not purchases:
            on_game()
    if not records:
        return text
    replays = [None] * len(records)
    if purchases:
        records, replays = _normalised(records, on_game)
    new = notation.write_games(records)
    try:
        again = notation.parse_many(new, source=f"{source} (canonical)")
    except NotationError as exc:
        raise FormatBug(f"the canonical text does not read back: {exc.message} at line {exc.line}") from None
    if len(again) != len(records):
        raise FormatBug(f"the canonical text reads back as {len(again)} games instead of {len(records)}")
    for k, (old, back) in enumerate(zip(records, again), start=1):
        if old != back:
            raise FormatBug(f"game {k} reads back from its canonical text as a different record")
    if purchases:
        from .canonical import purchase_changes

        for k, (back, played) in enumerate(zip(again, replays), start=1):
            # ``back`` equals the normalised record (checked above), so that record's replay is its replay
            if purchase_changes(back, played):
                raise FormatBug(f"game {k}: normalising its purchases again changes them")
    if notation.write_games(again) != new:
        raise FormatBug("formatting the canonical text again changes it")
    return new


def _normalised(records: list[Record], on_game: Callable[[], None] | None = None) -> tuple[list[Record], list[Any]]:
    """Each record with canonical purchases, and the replay of each result (``on_game`` called after each);
    :class:`FormatBug` if a result does not replay exactly as its original (same events, findings and scores)."""
    from .canonical import canonical_purchases, same_replay
    from .engine import replay

    out, replays = [], []
    for k, record in enumerate(records, start=1):
        played = replay(record)
        new = canonical_purchases(record, played)
        again = played if new is record else replay(new)
        if not same_replay(played, again):
            raise FormatBug(f"game {k}: normalising its purchases changes its replay")
        out.append(new)
        replays.append(again)
        if on_game is not None:
            on_game()
    return out, replays
