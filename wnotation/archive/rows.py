"""Archive rows from the engine: one game's Record and Replay become rows of games, seats, plays, military and
findings (column order as in :mod:`.schema`), and a piece of a file becomes the rows of its games.

A client of the Replay API (events, findings, score sheet, marks): nothing here decides a rule. The one question
asked again of the engine is which units a purchase the record leaves out buys (R-TRADE-MINIMAL), answered by
:func:`wnotation.engine.payment.pay` on the turn-start position, as the replay itself answered it. Writing the
rows is :mod:`.store`'s job. No DuckDB here: rows are plain tuples.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date

from ..catalog import Card
from ..record import UNKNOWN, Record
from ..engine import Game, Replay, replay
from ..engine import events as ev
from ..engine.payment import Payment, pay
from ..engine.rules import address
from ..engine.state import info, stage_info
from .schema import TABLES, game_id

__all__ = ["Rows", "file_rows", "game_rows", "piece_rows"]

_PLACED = (ev.CardBuilt, ev.StageBuilt, ev.CardSold, ev.CardDiscarded)


@dataclass
class Rows:
    """Rows of every table (lists of tuples in :data:`~.schema.TABLES` order) and the counts a summary needs."""

    tables: dict[str, list[tuple]] = field(default_factory=lambda: {name: [] for name in TABLES})
    games: int = 0  # games (and texts before a first game) seen
    broken: int = 0  # texts that are not a valid 7WN game
    complete: int = 0
    wrong_results: int = 0  # games whose stated results differ from the computed ones
    unreadable: int = 0  # inputs that could not be read at all
    actions: int = 0
    no_game: int = 0  # inputs that hold no game

    def add(self, other: "Rows") -> None:
        for name, rows in other.tables.items():
            self.tables[name] += rows
        for name in ("games", "broken", "complete", "wrong_results", "unreadable", "actions", "no_game"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def counts(self) -> dict[str, int]:
        """The summary counts, without the rows (what a worker sends back)."""
        return {name: getattr(self, name) for name in ("games", "broken", "complete", "wrong_results",
                                                        "unreadable", "actions", "no_game")}


# --- one game ---------------------------------------------------------------------------------------------------


def _played_on(text: str | None) -> date | None:
    if text is None or "?" in text:
        return None
    try:
        y, m, d = (int(x) for x in text.split("."))
        return date(y, m, d)
    except ValueError:
        return None


def _game_row(gid: int, source: str, index: int, line: int, head: object, read: bool, complete: bool,
              turns: int, actions: int, results_stated: bool, results_match: bool | None,
              counts: dict[str, int]) -> tuple:
    """The games row; ``head`` is a Record or a reader Header (the same header fields), or ``None``."""
    tags: dict[str, str] = {}
    date_text = event = site = seed_alg = guilds = None
    seed = players = None
    if head is not None:
        for t in head.tags:  # type: ignore[attr-defined]
            tags.setdefault(t.name, t.value)
        date_text = head.date  # type: ignore[attr-defined]
        event, site = tags.get("Event"), tags.get("Site")
        seed_obj = head.seed  # type: ignore[attr-defined]
        if seed_obj is not None:
            seed_alg, seed = seed_obj.algorithm, seed_obj.value
        g = head.guilds  # type: ignore[attr-defined]
        guilds = None if g is None else ", ".join(g)
        players = len(head.seats)  # type: ignore[attr-defined]
    return (gid, source, index, line, read, complete, players, date_text, _played_on(date_text), event, site,
            json.dumps(tags, ensure_ascii=False), seed_alg, seed, guilds, turns, actions, results_stated,
            results_match, counts["error"], counts["warning"], counts["note"])


def _finding_rows(gid: int, diagnostics: Sequence[object]) -> list[tuple]:
    return [(gid, d.address, d.seat, d.rule, d.severity, d.kind, d.message, d.line, d.column)  # type: ignore
            for d in diagnostics]


def _tally(diagnostics: Sequence[object]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "note": 0}
    for d in diagnostics:
        counts[d.severity] += 1  # type: ignore[attr-defined]
    return counts


class _Cursor:
    """A game folded forward through a replay's events on demand: the turn-start position a purchase the record
    leaves out was priced at. One pass over the events at most, and none when no such purchase occurs."""

    def __init__(self, played: Replay) -> None:
        self.played = played
        self.game: Game | None = None
        self.done = 0

    def at(self, mark: int) -> Game:
        if self.game is None:
            self.game = Game(self.played.positions.start)
        for e in self.played.events[self.done:mark]:
            self.game.apply(e)
        self.done = mark
        return self.game


def _units(units: Sequence[str]) -> str:
    return " ".join(units)


def _inferred(cursor: _Cursor, mark: int, seat: int, placed: ev.Event) -> Payment | None:
    """The purchase the engine chose for a paid build or stage stated without one, priced again at the turn
    start (the same memoised question the replay asked)."""
    game = cursor.at(mark)
    if isinstance(placed, ev.CardBuilt):
        card = placed.card
        found = pay(game, seat, info(card).cost, card.cost.coins, None)
    elif isinstance(placed, ev.StageBuilt):
        wonder = game.cities[seat - 1].wonder
        found = pay(game, seat, stage_info(wonder, placed.stage).cost, wonder.stages[placed.stage - 1].cost.coins,
                    None)
    else:
        return None
    return found if isinstance(found, Payment) else None


class _Turn:
    """What the events of one turn (from its start mark to the next position) say about each seat."""

    __slots__ = ("placed", "bank", "left", "right", "income", "last", "picks", "declined")

    def __init__(self) -> None:
        self.placed: dict[int, ev.Event] = {}
        self.bank: dict[int, int] = {}
        self.left: dict[int, int] = {}
        self.right: dict[int, int] = {}
        self.income: dict[int, int] = {}
        self.last: dict[int, Card | None] = {}
        self.picks: dict[int, Card | None] = {}
        self.declined: set[int] = set()

    def read(self, events: Sequence[ev.Event], n: int) -> None:
        over = False
        for e in events:
            kind = type(e)
            if kind is ev.TurnResolved:
                over = True
            elif kind in _PLACED:
                seat = e.seat  # type: ignore[union-attr]
                if seat not in self.placed and not over:
                    self.placed[seat] = e
                elif kind is ev.CardDiscarded:
                    self.last[seat] = e.card  # type: ignore[union-attr]
            elif kind is ev.CoinsPaid:
                seat, to = e.seat, e.to  # type: ignore[union-attr]
                box = self.bank if to is None else self.left if to == seat % n + 1 else self.right
                box[seat] = box.get(seat, 0) + e.amount  # type: ignore[union-attr]
            elif kind is ev.CoinsGained:
                self.income[e.seat] = self.income.get(e.seat, 0) + e.amount  # type: ignore[union-attr]
            elif kind is ev.PickedFromDiscard:
                self.picks[e.seat] = e.card  # type: ignore[union-attr]
            elif kind is ev.PickDeclined:
                self.declined.add(e.seat)  # type: ignore[union-attr]


def _turn_marks(played: Replay, age: int, number: int) -> tuple[int, int] | None:
    """Where turn ``number`` of ``age`` starts and ends in the events (its picks included for turns 1-5)."""
    marks = played.marks
    start = marks.get(address(age, min(number - 1, 6)))
    end = marks.get(address(age, number))
    return None if start is None or end is None else (start, end)


def _plays(record: Record, played: Replay, gid: int, line0: int, errors_at: dict[tuple[int, int], int]
           ) -> tuple[list[tuple], int]:
    n = record.players
    rows: list[tuple] = []
    cursor = _Cursor(played)
    seen_turns: set[tuple[int, int]] = set()
    ends: dict[int, _Turn] = {}  # age -> the events after its last turn (picks of turns 6 and 7, military)
    stages = 0
    for turn in record.turns:
        key = (turn.age, turn.number)
        first_time = key not in seen_turns
        seen_turns.add(key)
        span = _turn_marks(played, *key) if first_time else None
        t = _Turn()
        if span is not None:
            t.read(played.events[span[0]:span[1]], n)
            if turn.number >= 6:
                tail = ends.get(turn.age)
                if tail is None:
                    last = address(turn.age, 7) if address(turn.age, 7) in played.marks else address(turn.age, 6)
                    end = played.marks.get(address(turn.age, "end"))
                    tail = ends[turn.age] = _Turn()
                    if end is not None:
                        tail.read(played.events[played.marks[last]:end], n)
                # picks of the end of an Age belong to the extra turn's stage if there is one, else turn 6's
                extra = {a.seat for t7 in record.turns if (t7.age, t7.number) == (turn.age, 7)
                         for a in t7.actions if a.use == "stage"}
                for seat, card in tail.picks.items():
                    if (turn.number == 7) == (seat in extra):
                        t.picks[seat] = card
                for seat in tail.declined:
                    if (turn.number == 7) == (seat in extra):
                        t.declined.add(seat)
        acted: set[int] = set()
        for a in turn.actions:
            seat = a.seat
            placed = t.placed.get(seat) if seat not in acted else None
            acted.add(seat)
            card_name = None if a.card == UNKNOWN else a.card
            colour = stage = free = None
            outcome = "not-replayed" if span is None else "ignored"
            units_l = units_r = None
            left = t.left.get(seat, 0)
            right = t.right.get(seat, 0)
            if placed is not None:
                kind = type(placed)
                card = getattr(placed, "card", None)
                if card is not None:
                    colour = card.colour
                if kind is ev.CardBuilt:
                    outcome = "built"
                    free = placed.how if placed.how in ("chain", "power") else None  # type: ignore[union-attr]
                elif kind is ev.StageBuilt:
                    outcome, stage = "staged", placed.stage  # type: ignore[union-attr]
                    stages += 1
                elif kind is ev.CardSold:
                    outcome = "sold"
                else:
                    outcome = "discarded"
                if a.purchase is not None:
                    units_l, units_r = _units(a.purchase.left), _units(a.purchase.right)
                elif left or right:
                    found = _inferred(cursor, span[0], seat, placed)  # type: ignore[index]
                    if found is not None and (found.purchase.left_coins, found.purchase.right_coins) == (left, right):
                        units_l, units_r = _units(found.purchase.left), _units(found.purchase.right)
                else:
                    units_l = units_r = ""
            else:
                left = right = 0
            pick = t.picks.get(seat) if placed is not None else None
            ann = a.annotation
            where = a.span
            line = None if where is None else where.line + line0
            column = None if where is None else where.column
            rows.append((
                gid, turn.age, turn.number, seat, a.use, card_name, colour, stage, outcome, free,
                t.bank.get(seat, 0) if placed is not None else 0, left, right, units_l, units_r,
                a.purchase is not None, t.income.get(seat, 0) if placed is not None else 0, turn.number == 7,
                placed is not None and turn.number == 6 and seat not in t.last, None if seat not in t.last or
                t.last[seat] is None else t.last[seat].name,  # type: ignore[union-attr]
                None if pick is None else pick.name, placed is not None and seat in t.declined,
                errors_at.get((line, column), 0) if line is not None else 0, not ann.empty, ann.glyph, line, column,
            ))
    return rows, stages


def _military(played: Replay, gid: int, n: int) -> list[tuple]:
    rows: list[tuple] = []
    age, fought = 0, {}
    for e in played.events:
        kind = type(e)
        if kind is ev.AgeDealt:
            age, fought = e.age, {}  # type: ignore[union-attr]
        elif kind is ev.ConflictResolved:
            fought[(e.seat, e.opponent)] = e.token  # type: ignore[union-attr]
        elif kind is ev.AgeEnded:
            for seat in range(1, n + 1):
                for other in (seat % n + 1, (seat - 2) % n + 1):
                    token = fought.get((seat, other), 0)
                    result = "victory" if token > 0 else "defeat" if token < 0 else "tie"
                    rows.append((gid, age, seat, other, token, result))
    return rows


def game_rows(record: Record, played: Replay, *, gid: int, source: str, index: int, line0: int = 0) -> Rows:
    """The rows of one readable game: ``played`` is ``replay(record)``; ``gid`` its key (:func:`~.schema.game_id`),
    ``index`` its place in the file, ``line0`` the lines of the file before the text the record was read from."""
    from ..diagnostics import diagnostics_of

    out = Rows()
    diagnostics = diagnostics_of(record, played.findings, None, source, line0=line0)
    errors_at: dict[tuple[int, int], int] = {}
    for d in diagnostics:
        if d.severity == "error":
            errors_at[(d.line, d.column)] = errors_at.get((d.line, d.column), 0) + 1
    plays, stages = _plays(record, played, gid, line0, errors_at)
    out.tables["plays"] = plays
    n = record.players
    sheet = played.scores
    built = [0] * n
    for e in played.events:
        if type(e) is ev.StageBuilt:
            built[e.seat - 1] += 1  # type: ignore[union-attr]
    seats = out.tables["seats"]
    for k, s in enumerate(record.seats):
        if sheet is None:
            seats.append((gid, k + 1, s.name, s.wonder, s.side, n) + (None,) * 11 + (built[k],))
        else:
            ln = sheet.lines[k]
            seats.append((gid, k + 1, s.name, s.wonder, s.side, n, ln.military, ln.treasury, ln.wonder,
                          ln.civilian, ln.commercial, ln.guilds, ln.science, ln.total, ln.coins, ln.rank,
                          ln.rank == 1, built[k]))
    out.tables["military"] = _military(played, gid, n)
    out.tables["findings"] = _finding_rows(gid, diagnostics)
    wrong = any(f.rule == "R-SCORE" and f.severity == "error" for f in played.findings)
    stated = bool(record.results)
    line = (record.span.line if record.span is not None else 1) + line0
    actions = len(plays)
    out.tables["games"] = [_game_row(gid, source, index, line, record, True, sheet is not None, len(record.turns),
                                     actions, stated, (not wrong) if stated else None, _tally(diagnostics))]
    out.games, out.complete, out.actions = 1, int(sheet is not None), actions
    out.wrong_results = int(stated and wrong)
    return out


def _broken_rows(error: object, chunk: str, *, gid: int, source: str, index: int, line: int, line0: int) -> Rows:
    """A text that is not a valid game: its notation error, and what its tag section says if that reads."""
    from ..diagnostics import Diagnostic
    from ..notation import read_headers

    out = Rows()
    d = Diagnostic.from_error(error, line0)  # type: ignore[arg-type]
    head = None
    if index > 0:
        head = next((h for h in read_headers(chunk, source=source) if not isinstance(h, Exception)), None)
    if head is not None:
        n = len(head.seats)
        out.tables["seats"] = [(gid, k + 1, s.name, s.wonder, s.side, n) + (None,) * 11 + (None,)
                               for k, s in enumerate(head.seats)]
    out.tables["findings"] = _finding_rows(gid, [d])
    out.tables["games"] = [_game_row(gid, source, index, line, head, False, False, 0, 0, False, None,
                                     _tally([d]))]
    out.games, out.broken = 1, 1
    return out


def file_rows(input_number: int, source: str, rule: str, message: str, severity: str = "error") -> Rows:
    """The rows of an input that gives no game: unreadable (``rule`` ``unreadable``) or holding none
    (``games``): a games row with ``game`` 0 and line 0, and its finding."""
    gid = game_id(input_number, 0)
    out = Rows()
    out.tables["games"] = [_game_row(gid, source, 0, 0, None, False, False, 0, 0, False, None,
                                     {"error": int(severity == "error"), "warning": int(severity == "warning"),
                                      "note": int(severity == "note")})]
    out.tables["findings"] = [(gid, None, None, rule, severity, "file", message, 0, 0)]
    out.unreadable = int(rule == "unreadable")
    return out


def piece_rows(text: str, source: str, input_number: int, first_game: int, line0: int = 0) -> Rows:
    """The rows of every game of a piece of a file (:func:`wnotation.diagnostics.iter_pieces`): ``first_game``
    is the file's number of the piece's first ``[Format`` game (1-based), ``line0`` the lines before the piece.
    Text before a file's first game that does not read is game 0. Cost: one parse and one replay per game."""
    from ..diagnostics import iter_pieces
    from ..notation import NotationError, read_games
    from ..notation.lexical import BOUNDARY_RE

    out = Rows()
    index = first_game - 1
    for chunk, at in iter_pieces(io.StringIO(text, newline="\n"), 1):
        if not chunk:
            continue
        found = BOUNDARY_RE.search(chunk)
        start = chunk.count("\n", 0, found.start()) + 1 if found is not None else None  # the [Format line
        if start is not None:
            index += 1
        for item in read_games(chunk, source=source):
            if isinstance(item, NotationError):
                before = start is None or item.line < start
                line = at + line0 + 1 if before else start + at + line0  # type: ignore[operator]
                k = 0 if before else index
                out.add(_broken_rows(item, chunk, gid=game_id(input_number, line), source=source, index=k,
                                     line=line, line0=at + line0))
                continue
            line = (item.span.line if item.span is not None else 1) + at + line0
            out.add(game_rows(item, replay(item), gid=game_id(input_number, line), source=source, index=index,
                              line0=at + line0))
    return out


def iter_file_pieces(path: str, games: int) -> Iterator[tuple[str, int, int]]:
    """``(piece, line0, first_game)`` for the pieces of ``games`` games of the file at ``path`` (read lazily;
    run :func:`wnotation.diagnostics.scan_file` first). The same pieces however the caller runs them."""
    from ..diagnostics import file_lines, iter_pieces

    first = 1
    for piece, line0 in iter_pieces(file_lines(path), games):
        yield piece, line0, first
        first += games
