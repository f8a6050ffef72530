"""The check pipeline: each game of a text read, replayed and verified, every problem a :class:`Diagnostic`.

This joins the notation and the engine: a notation error, an engine finding and a wrong expected result all
become a diagnostic with file, line, column, severity, rule ID, message and the source line. It neither decides
legality (the engine does) nor prints anything (the CLI does).
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Iterable, Iterator, Sequence

from ..notation.errors import NotationError, Origin
from ..notation.reader.split import is_boundary
from ..model.position_values import PositionError
from ..model.record import Record, Span, has_variations, position_tag, start_of
from .inputs import FileLines, PieceLines, iter_pieces, read_text, source_index, source_lines, unreadable_reason
from .report import Diagnostic, FileReport, GameReport, no_game_remark

if TYPE_CHECKING:
    from ..engine import Finding
    from ..engine.scoring import ScoreSheet

__all__ = ["check", "check_file", "check_piece", "check_pieces", "check_record", "check_read", "check_text",
           "diagnostics_of", "is_check_only", "iter_check", "start_refusal"]


def _line(lines: Sequence[str] | None, number: int) -> str:
    if lines is None or not 1 <= number <= len(lines):
        return ""
    return lines[number - 1]


def diagnostics_of(record: Record, findings: Iterable[Finding], lines: Sequence[str] | None = None,
                   source: str = "<string>", *, line0: int = 0, origin: Origin | None = None
                   ) -> tuple[Diagnostic, ...]:
    """The engine's ``findings`` on ``record`` as diagnostics, placed at the span of the Record element each one
    concerns (the action, the turn, the result line). A finding without a span is placed at the start of the
    game and names its address (``III.0: …``). ``lines`` are the source's lines (for the caret line).
    ``line0`` is for a record read from a piece of a file: the lines of the file before that piece, added to
    every line number (``lines`` and the spans are the piece's). ``origin``, when given, is both (its ``source``
    and ``lines_before``) in one value and wins over them.
    Returns a fresh tuple in source order (line, then column; findings at one place keep the engine's order)."""
    where = origin if origin is not None else Origin(source, line0)
    home = record.span or Span(line=1, column=1)
    out = []
    for f in findings:
        span = f.span or home
        message = f.message if f.span is not None else f"{f.address}: {f.message}"
        out.append(Diagnostic(f.severity, f.rule, message, where.source, where.line(span.line), span.column,
                              _line(lines, span.line), "finding", f.address, f.seat, check_only=f.check_only))
    return tuple(sorted(out, key=lambda d: (d.line, d.column)))


def variation_notes(record: Record, findings: Iterable[Finding], lines: Sequence[str] | None,
                    origin: Origin) -> tuple[Diagnostic, ...]:
    """The findings inside variations (spec 7wn.md 6.2) as notes, each naming its variation address: a
    variation is analysis ("what if Bob had built the Baths?"), so what goes wrong in it is worth showing but
    is no error of the record, and the check's verdict and exit code are the main line's alone."""
    out = []
    for d in diagnostics_of(record, findings, lines, origin=origin):
        shown = d.message if d.address is None or d.message.startswith(f"{d.address}: ") else f"{d.address}: {d.message}"
        out.append(replace(d, severity="note", message=f"in variation {shown}"))
    return tuple(out)


def is_check_only(item: Finding | Diagnostic) -> bool:
    """True for an engine remark (or its diagnostic) that only ``check`` shows, such as the Age III note that a
    record names neither its guilds nor a seed: it qualifies the check itself. The engine marks it
    (:attr:`~wnotation.engine.Finding.check_only`)."""
    return item.check_only


def _score_rows(sheet: ScoreSheet) -> tuple[dict[str, int], ...]:
    fields = ("seat", "military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total",
              "coins", "rank")
    return tuple({name: getattr(line, name) for name in fields} for line in sheet.lines)


def check_record(record: Record, *, lines: Sequence[str] | None = None, source: str = "<string>",
                 index: int = 1, line0: int = 0, origin: Origin | None = None) -> GameReport:
    """Replay ``record`` (expected results verified) and report its findings as diagnostics.

    ``lines`` (the source text split into lines) give the diagnostics their source line; ``index`` is the game's
    number in its file; ``line0`` the lines before the text the record was read from (see
    :func:`diagnostics_of`); ``origin`` is ``source`` and ``line0`` in one value, and wins over them. Cost: one
    replay. Never raises for a valid Record."""
    from ..engine import replay

    where = origin if origin is not None else Origin(source, line0)
    played = replay(record)
    refused = start_refusal(record, lines, where.source) if not played.addresses else None  # a refused start has none
    if refused is not None:
        return _refused_start(refused, lines, where, index)
    start = where.line(record.span.line if record.span is not None else 1)
    found = diagnostics_of(record, played.findings, lines, origin=where)
    if has_variations(record):
        found = tuple(sorted(found + variation_notes(record, played.variation_findings, lines, where),
                             key=lambda d: (d.line, d.column)))
    return GameReport(where.source, index, start, found,
                      seats=tuple(s.name for s in record.seats), complete=played.scores is not None,
                      scores=None if played.scores is None else _score_rows(played.scores))


def start_refusal(record: Record, lines: Sequence[str] | None, source: str = "<string>") -> NotationError | None:
    """The reader's error for ``record``'s ``[Position]`` when the engine, judging it by the rules, refuses it
    (spec/position.md §8): code ``position``, at the offending character of the tag in ``lines`` (the text the
    record was read from); ``None`` for a record that starts at the beginning or from a position the rules allow.
    Cost: nothing for a record without the tag; the judge of one string otherwise."""
    if position_tag(record) is None:
        return None
    from ..engine.position import start_setup
    from ..notation.reader.header import refused_position

    try:
        start_setup(record)
    except PositionError as exc:
        written = start_of(record)
        assert written is not None  # only a record that starts from a position has a position to refuse
        return refused_position(written, exc, "\n".join(lines) if lines is not None else "", source)
    return None


def _refused_start(error: NotationError, lines: Sequence[str] | None, origin: Origin, index: int) -> GameReport:
    """The report of a game whose ``[Position]`` the engine refused: a game that is not replayed, with the
    reader's ``error`` at the offending character of the tag, as for a string the reader refuses itself."""
    start = _game_start(lines, error.line) if lines is not None else 1
    return GameReport(origin.source, index, origin.line(start), _unread(error, lines or [], origin, start), read=False)


def _game_reports(text: str, origin: Origin) -> list[GameReport]:
    """The report of each game of ``text`` in order (games numbered from 1), every line placed by ``origin``."""
    return _reports(_read(text, origin.source), source_index(text), origin)


def _read(text: str, source: str) -> list[Record | NotationError]:
    """Each game of ``text`` read: its Record, or its error."""
    from ..notation import read_games

    return list(read_games(text, source=source))


def _reports(items: list[Record | NotationError], lines: Sequence[str], origin: Origin) -> list[GameReport]:
    """The report of each of the games read (``items``, emptied as they are checked: a Record is dropped once
    replayed), quoting ``lines``."""
    games = []
    items.reverse()
    k = 0
    while items:
        item = items.pop()
        k += 1
        if isinstance(item, NotationError):
            start = _game_start(lines, item.line)
            games.append(GameReport(origin.source, k, origin.line(start), _unread(item, lines, origin, start),
                                    read=False))
        else:
            games.append(check_record(item, lines=lines, index=k, origin=origin))
        del item
    return games


def check_read(text: str, source: str, line0: int, file: FileLines) -> tuple[GameReport, ...]:
    """:func:`check_piece` of a piece of the file that ``file`` indexes, the piece's text dropped once its games
    are read: the lines its diagnostics quote are read back from the file (:meth:`FileLines.piece`), so that a
    game is replayed with its Record alone held, not its text too. Pass the text as the only reference to it
    (``check_read(box.pop(), ...)``): the caller's own would keep it."""
    lines = file.piece(line0, text)
    items = _read(text, source)
    del text
    return tuple(_reports(items, lines, Origin(source, line0)))


def _unread(error: NotationError, lines: Sequence[str], origin: Origin, start: int) -> tuple[Diagnostic, ...]:
    """The diagnostics of a game that could not be read: each of its notation errors (``error``, the first found,
    and the further ones the reader finds: :attr:`NotationError.errors`) in text order, then one note, at the
    game's first line, that the game is not replayed."""
    errors = error.errors
    out = [Diagnostic.from_error(e, origin.lines_before) for e in errors]
    count = f"{len(errors)} notation errors" if len(errors) > 1 else "a notation error"
    out.append(Diagnostic("note", "notation", f"this game is not replayed: its text has {count}",
                          origin.source, origin.line(start), 1, "", "notation"))
    return tuple(out)


def check_text(text: str, source: str = "<string>", *, allow_empty: bool = False) -> FileReport:
    """Check every game of a 7WN ``text``: a broken game is reported and the next one still checked.

    An input without any game (empty, blank, only comments) gets an error, a warning with ``allow_empty``: a
    truncated fixture must not pass. Cost: one parse and one replay per game."""
    games = _game_reports(text, Origin(source))
    if not games:
        return FileReport(source, (), remarks=(no_game_remark(source, _line(source_lines(text), 1), allow_empty),))
    return FileReport(source, tuple(games))


def check_piece(text: str, source: str, line0: int) -> tuple[GameReport, ...]:
    """Check the games of a piece of a file (from :func:`game_pieces`) that starts after ``line0`` lines: their
    reports carry the file's line numbers; their ``index`` counts from 1 within the piece. Made for worker
    processes: it takes and returns plain picklable values (a few hundred bytes per game)."""
    return tuple(_game_reports(text, Origin(source, line0)))


def check_pieces(batch: Sequence[tuple[str, str, int]]) -> tuple[tuple[GameReport, ...], ...]:
    """:func:`check_piece` of each ``(piece, source, line0)`` of ``batch``: one task for a worker process that
    checks several small files (or pieces) at once."""
    return tuple(tuple(_game_reports(piece, Origin(source, line0))) for piece, source, line0 in batch)


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
        for game in _game_reports(piece, Origin(source, line0)):
            index += 1
            yield game if game.index == index else replace(game, index=index)
    if index == 0:
        yield no_game_remark(source, first or "", allow_empty)


def _game_start(lines: Sequence[str], line: int) -> int:
    """The line of the ``[Format`` tag that opens the game holding ``line`` (1 if none)."""
    if isinstance(lines, PieceLines):
        return lines.game_start(line)
    for k in range(min(line, len(lines)), 0, -1):
        if is_boundary(lines[k - 1]):
            return k
    return 1


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
