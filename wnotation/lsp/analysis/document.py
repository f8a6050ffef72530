"""A document cut into games, each game's check kept by its text, and the diagnostics placed in the document.

A document is cut at the reader's boundaries (:func:`~wnotation.diagnostics.game_pieces`); each game is checked
by the diagnostics layer (:func:`~wnotation.diagnostics.check_piece`) and the answer is kept by the game's text
(:class:`GameCache`), so a keystroke re-checks only the game it changed.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

from ...diagnostics import Diagnostic, GameReport, check_piece, game_pieces, no_game_remark, normalise
from ...model.record import Record
from ...notation.errors import NotationError
from .text import action_end, token_end

if TYPE_CHECKING:
    from ...engine import Replay

#: Games kept by their text (and their checks) across the open documents: a 10,000-game archive open in an editor
#: stays checked; and the games whose Record and Replay are kept (the ones completion and hover last asked about).
CACHE_GAMES = 16384
CACHE_REPLAYS = 32


@dataclass(frozen=True, slots=True)
class Related:
    """A location that explains a diagnostic (an earlier error of the same seat), with a message."""

    line: int
    column: int
    end_column: int
    message: str


@dataclass(frozen=True, slots=True)
class LspDiagnostic:
    """A diagnostic of the diagnostics layer placed in the document: 0-based line, columns of the range it
    covers on that line, and the earlier locations it relates to."""

    diagnostic: Diagnostic
    line: int
    column: int
    end_column: int
    related: tuple[Related, ...] = ()


def docs_href(rule: str, base: str) -> str:
    """The page of the documentation site that explains ``rule``: a rule ID's entry of the rules page, or the
    table of the notation's codes (spec 12.2) for a notation code."""
    base = base.rstrip("/")
    if rule.startswith("R-"):
        return f"{base}/rules.html#rule-{rule.lower()}"
    return f"{base}/spec/7wn.html#122-the-codes"


class GameView:
    """One game's text and what is known about it, computed when first asked: the diagnostics layer's report
    (``line0`` 0: lines counted from the game's first line), kept as long as the view; the Record (``None`` when
    the game does not read) and its Replay, kept in the ``played`` store of the cache (a few games: a replay holds
    every position). Shared between documents holding the same text."""

    __slots__ = ("text", "_report", "_played")

    def __init__(self, text: str, played: OrderedDict[str, tuple[Record | None, Replay | None]],
                 keep: int) -> None:
        self.text = text
        self._report: GameReport | None = None
        self._played = (played, keep)

    @property
    def report(self) -> GameReport | None:
        """The check of the game (``None`` for a piece without a game: text before the first ``[Format``)."""
        if self._report is None:
            reports = check_piece(self.text, "<document>", 0)
            if not reports:
                return None
            self._report = reports[0]
        return self._report

    def _read(self) -> tuple[Record | None, Replay | None]:
        store, keep = self._played
        found = store.get(self.text)
        if found is not None:
            store.move_to_end(self.text)
            return found
        record = read_record(self.text)
        played = None
        if record is not None:
            from ...engine import replay

            played = replay(record)
        store[self.text] = (record, played)
        if len(store) > keep:
            store.popitem(last=False)
        return record, played

    @property
    def record(self) -> Record | None:
        return self._read()[0]

    @property
    def replay(self) -> Replay | None:
        return self._read()[1]


def read_record(text: str) -> Record | None:
    """The first game of ``text`` as a Record, or ``None`` when it does not read."""
    from ...notation import read_games

    for item in read_games(text):
        return None if isinstance(item, NotationError) else item
    return None


class GameCache:
    """Game views by their text, the least recently used dropped past ``size`` (a view keeps its text and its
    check, a few kilobytes), and the Records and Replays of the last ``played`` games asked for (completion and
    hover ask for those near the cursor): the work of unchanged games is reused across keystrokes and documents.
    ``hits`` and ``misses`` count the look-ups of views (for the benchmark)."""

    def __init__(self, size: int = CACHE_GAMES, played: int = CACHE_REPLAYS) -> None:
        self.size = size
        self._views: OrderedDict[str, GameView] = OrderedDict()
        self._played: OrderedDict[str, tuple[Record | None, Replay | None]] = OrderedDict()
        self._keep = played
        self.hits = self.misses = 0

    def view(self, text: str) -> GameView:
        found = self._views.get(text)
        if found is not None:
            self.hits += 1
            self._views.move_to_end(text)
            return found
        self.misses += 1
        made = GameView(text, self._played, self._keep)
        self._views[text] = made
        if len(self._views) > self.size:
            self._views.popitem(last=False)
        return made


@dataclass(frozen=True, slots=True)
class Piece:
    """A game of the document: its view and the lines before it."""

    view: GameView
    line0: int
    lines: int

    def holds(self, line: int) -> bool:
        return self.line0 <= line < self.line0 + self.lines


@dataclass
class DocumentAnalysis:
    """A document cut into games (:class:`Piece`), with its lines as the reader counts them."""

    lines: list[str]
    pieces: list[Piece] = field(default_factory=list)

    def piece_at(self, line: int) -> Piece | None:
        for p in self.pieces:
            if p.holds(line):
                return p
        return None

    def diagnostics(self) -> list[LspDiagnostic]:
        """Every diagnostic of every game, in document order, each with its range and related locations; an
        input without any game gets the diagnostics layer's remark, as a warning (a new file is empty)."""
        out: list[LspDiagnostic] = []
        games = 0
        for p in self.pieces:
            report = p.view.report
            if report is None:
                continue
            games += 1
            out.extend(self._placed(report.diagnostics, p.line0))
        if not games:
            d = no_game_remark("<document>", self.lines[0] if self.lines else "", True)
            out.append(LspDiagnostic(d, 0, 0, len(self.lines[0]) if self.lines else 0))
        return out

    def _placed(self, found: tuple[Diagnostic, ...], line0: int) -> Iterator[LspDiagnostic]:
        first_error: dict[int, LspDiagnostic] = {}
        for d in found:
            line = d.line - 1 + line0
            text = self.lines[line] if 0 <= line < len(self.lines) else ""
            column = max(0, min(d.column - 1, len(text)))
            end = token_end(text, column) if d.kind == "notation" else action_end(text, column)
            related: tuple[Related, ...] = ()
            earlier = first_error.get(d.seat) if d.seat is not None else None
            if earlier is not None and earlier.line < line:
                what = earlier.diagnostic
                related = (Related(earlier.line, earlier.column, earlier.end_column,
                                   f"an earlier error of this seat ({what.address}, {what.rule}) may cause this one"),)
            placed = LspDiagnostic(d, line, column, end, related)
            if d.severity == "error" and d.seat is not None and d.seat not in first_error:
                first_error[d.seat] = placed
            yield placed


def analyse(text: str, cache: GameCache) -> DocumentAnalysis:
    """The document ``text`` cut into games, each game's view taken from ``cache`` (checked lazily, when its
    diagnostics are first asked for). Cost: one pass over the text plus, for each game not in the cache, one
    parse and one replay when asked."""
    norm = normalise(text)
    doc = DocumentAnalysis(norm.split("\n"))
    for piece, line0 in game_pieces(norm, 1):
        doc.pieces.append(Piece(cache.view(piece), line0, piece.count("\n") + (0 if piece.endswith("\n") else 1)))
    return doc
