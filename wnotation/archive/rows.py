"""Archive rows from the engine: one game's Record and Replay become rows of games, seats, plays, military and
findings (column order as in :mod:`.schema`), and a piece of a file becomes the rows of its games.

A client of the Replay API (events, findings, score sheet): nothing here decides a rule or asks the engine a
question again. What a purchase paid and bought is read from the replay's payment events (``CoinsPaid`` carries
the units its coins bought, whichever way the record states the purchase, or the engine's choice when it leaves
it out, R-TRADE-MINIMAL). Writing the rows is :mod:`.store`'s job. No DuckDB here: rows are plain tuples.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ..catalog import AGE_NUMERALS as _NUMERALS, Card
from ..record import NO_ANNOTATION, UNKNOWN, GameHeader, Record, StatedPurchase, position_tag
from ..engine import Replay, replay
from ..engine import events as ev
from .schema import TABLES, game_id, unread_id

#: One row of a table, its values in the table's column order (schema.TABLES).
Row = tuple[Any, ...]

__all__ = ["Rows", "file_rows", "game_rows", "piece_rows"]

_PLACED = (ev.CardBuilt, ev.StageBuilt, ev.CardSold, ev.CardDiscarded)
_NOTHING = ((), ())


@dataclass
class Rows:
    """Rows of every table (lists of tuples in :data:`~.schema.TABLES` order) and the counts a summary needs."""

    tables: dict[str, list[Row]] = field(default_factory=lambda: {name: [] for name in TABLES})
    games: int = 0  # games (and texts before a first game) seen
    broken: int = 0  # texts that are not a valid 7WN game
    complete: int = 0
    wrong_results: int = 0  # games whose stated results differ from the computed ones
    unreadable: int = 0  # inputs that could not be read at all
    actions: int = 0
    no_game: int = 0  # inputs that hold no game
    #: games left out because the same game (the same key) came earlier in this piece: (key, source, line)
    repeats: list[tuple[int, str, int]] = field(default_factory=list)

    def add(self, other: "Rows") -> None:
        for name, rows in other.tables.items():
            self.tables[name] += rows
        self.repeats += other.repeats
        for name in ("games", "broken", "complete", "wrong_results", "unreadable", "actions", "no_game"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def without(self, gids: set[int]) -> "Rows":
        """These rows but those of the games ``gids`` (counts not recomputed: for reading, not summaries)."""
        out = Rows()
        out.tables = {name: [row for row in rows if row[0] not in gids] for name, rows in self.tables.items()}
        return out

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


def kind_of(record: Record) -> str:
    """What kind of record a game is (``games.kind``): ``scorepad`` (results only, no turn), ``position`` (from a
    ``[Position]`` tag), ``partial`` (one player's view: a ``[%view]`` command or an unseen card ``?``), else
    ``played``: a game played from the deal with every card known."""
    if not record.turns:
        return "scorepad"
    if position_tag(record) is not None:
        return "position"
    if any(k == "view" for k, _ in record.annotation.tags) or any(
            a.card == UNKNOWN for t in record.turns for a in t.actions):
        return "partial"
    return "played"


def _game_row(gid: int, kind: str | None, source: str, index: int, line: int, head: GameHeader | None, read: bool,
              complete: bool, turns: int, actions: int, results_stated: bool, results_match: bool | None,
              counts: dict[str, int]) -> Row:
    """The games row; ``head`` is a Record or a reader Header (:class:`~wnotation.record.GameHeader`), or ``None``."""
    tags: dict[str, str] = {}
    date_text = event = site = seed_alg = guilds = None
    seed = players = None
    if head is not None:
        for t in head.tags:
            tags.setdefault(t.name, t.value)
        date_text = head.date
        event, site = tags.get("Event"), tags.get("Site")
        seed_obj = head.seed
        if seed_obj is not None:
            seed_alg, seed = seed_obj.algorithm, seed_obj.value
        g = head.guilds
        guilds = None if g is None else list(g)
        players = len(head.seats)
    return (gid, kind, source, index, line, read, complete, players, date_text, _played_on(date_text), event, site,
            json.dumps(tags, ensure_ascii=False), seed_alg, seed, guilds, turns, actions, results_stated,
            results_match, counts["error"], counts["warning"], counts["note"])


def _finding_rows(gid: int, diagnostics: Sequence[object]) -> list[Row]:
    return [(gid, d.address, d.seat, d.rule, d.severity, d.kind, d.message, d.line, d.column)  # type: ignore
            for d in diagnostics]


def _tally(diagnostics: Sequence[object]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "note": 0}
    for d in diagnostics:
        counts[d.severity] += 1  # type: ignore[attr-defined]
    return counts


class _Play:
    """What the events of one turn say about one seat: its placement (the first, ``None`` if it placed none),
    the coins it paid to the bank and to each neighbour and the units those bought, its income, turn 6's last
    card (``False``: kept), and the build from the discard pile its play earned (R-HALI)."""

    __slots__ = ("placed", "bank", "left", "right", "bought_left", "bought_right", "income", "last", "pick",
                 "declined")

    def __init__(self, placed: ev.Event | None) -> None:
        self.placed = placed
        self.bank = self.left = self.right = self.income = 0
        self.bought_left: tuple[str, ...] = ()
        self.bought_right: tuple[str, ...] = ()
        self.last: Card | None | bool = False
        self.pick: Card | None = None
        self.declined = False


#: A turn's plays by seat.
_Turn = dict[int, _Play]


class _Events:
    """One pass over a replay's events: each turn's plays by ``(age, turn)``, the stages each seat built and the
    military rows. Picks and their income after turn 1-5 belong to that turn; after the last turn of an Age to
    the seat's extra-turn stage if it built one there, else to its turn-6 play (R-HALI-LAST)."""

    def __init__(self, played: Replay, gid: int, n: int) -> None:
        self.turns: dict[tuple[int, int], _Turn] = {}
        self.stages = [0] * n
        self.military: list[Row] = []
        turns, stages, military = self.turns, self.stages, self.military
        open_: _Turn | None = None
        done: _Turn | None = None  # the turn resolved last, while no placement of the next one has come
        done_key = (0, 0)
        fought: dict[tuple[int, int], int] = {}
        for e in played.events:
            kind = type(e)
            if kind in _PLACED:
                seat = e.seat  # type: ignore[union-attr]
                if open_ is None:
                    open_, done = {}, None
                play = _at(open_, seat)
                if play.placed is None:
                    play.placed = e
                    if kind is ev.StageBuilt:
                        stages[seat - 1] += 1
                elif kind is ev.CardDiscarded:
                    play.last = e.card  # type: ignore[union-attr]
            elif kind is ev.CoinsPaid:  # it follows its seat's placement, in the open turn
                seat, to = e.seat, e.to  # type: ignore[union-attr]
                play = open_[seat]  # type: ignore[index]
                if to is None:
                    play.bank += e.amount  # type: ignore[union-attr]
                elif to == seat % n + 1:
                    play.left += e.amount  # type: ignore[union-attr]
                    play.bought_left += e.units  # type: ignore[union-attr]
                else:
                    play.right += e.amount  # type: ignore[union-attr]
                    play.bought_right += e.units  # type: ignore[union-attr]
            elif kind is ev.CoinsGained:
                seat = e.seat  # type: ignore[union-attr]
                into = open_ if open_ is not None else self._earner(done, done_key, seat)
                if into is not None:
                    _at(into, seat).income += e.amount  # type: ignore[union-attr]
            elif kind is ev.TurnResolved:
                done_key = (e.age, e.turn)  # type: ignore[union-attr]
                turns[done_key] = done = open_ if open_ is not None else {}
                open_ = None
            elif kind is ev.PickedFromDiscard or kind is ev.PickDeclined:
                seat = e.seat  # type: ignore[union-attr]
                into = self._earner(done, done_key, seat)
                if into is not None:
                    if kind is ev.PickedFromDiscard:
                        _at(into, seat).pick = e.card  # type: ignore[union-attr]
                    else:
                        _at(into, seat).declined = True
            elif kind is ev.ConflictResolved:
                fought[(e.seat, e.opponent)] = e.token  # type: ignore[union-attr]
            elif kind is ev.AgeEnded:
                for seat in range(1, n + 1):
                    for other in (seat % n + 1, (seat - 2) % n + 1):
                        token = fought.get((seat, other), 0)
                        result = "victory" if token > 0 else "defeat" if token < 0 else "tie"
                        military.append((gid, e.age, seat, other, token, result))  # type: ignore[union-attr]
                fought = {}
                done = None

    def _earner(self, done: _Turn | None, key: tuple[int, int], seat: int) -> _Turn | None:
        if done is None:
            return None
        if key[1] == 7:
            play = done.get(seat)
            if play is None or type(play.placed) is not ev.StageBuilt:
                return self.turns.get((key[0], 6))
        return done


def _at(turn: _Turn, seat: int) -> _Play:
    play = turn.get(seat)
    if play is None:
        play = turn[seat] = _Play(None)
    return play


def _plays(record: Record, seen: _Events, gid: int, line0: int, errors_at: dict[tuple[int, int], int],
           rows: list[Row]) -> int:
    """Append a plays row for each action of ``record`` to ``rows``; returns how many."""
    before = len(rows)
    seen_turns: set[tuple[int, int]] = set()
    append = rows.append
    for turn in record.turns:
        age, number = turn.age, turn.number
        key = (age, number)
        t = seen.turns.get(key) if key not in seen_turns else None
        missed = "not-replayed" if key not in seen_turns and t is None else "ignored"
        seen_turns.add(key)
        acted: set[int] = set()
        address = f"{_NUMERALS[age]}.{number}"
        six, extra = number == 6, number == 7
        for a in turn.actions:
            seat = a.seat
            play = t.get(seat) if t is not None and seat not in acted else None
            acted.add(seat)
            span = a.span
            if span is None:
                line = column = None
                errors = 0
            else:
                line, column = span.line + line0, span.column
                errors = errors_at.get((line, column), 0) if errors_at else 0
            ann = a.annotation
            annotated = ann is not NO_ANNOTATION and not ann.empty
            card_name = None if a.card == UNKNOWN else a.card
            stated = a.purchase
            placed = None if play is None else play.placed
            if placed is None:
                append((gid, age, number, seat, address, a.use, card_name, None, None, None, missed, None, 0, 0, 0,
                        None, None, stated is not None, 0, extra, False, None, None, None, False, errors, annotated,
                        ann.glyph, line, column))
                continue
            kind = type(placed)
            card = getattr(placed, "card", None)
            stage = free = None
            if kind is ev.CardBuilt:
                outcome = "built"
                how = placed.how  # type: ignore[union-attr]
                if how == "chain" or how == "power":
                    free = how
            elif kind is ev.StageBuilt:
                outcome, stage = "staged", placed.stage  # type: ignore[union-attr]
            elif kind is ev.CardSold:
                outcome = "sold"
            else:
                outcome = "discarded"
            if isinstance(stated, StatedPurchase):
                units_l, units_r = list(stated.left), list(stated.right)
            else:  # what the payment bought: the engine's choice for a purchase left out (R-TRADE-MINIMAL), what
                # stated coins bought (7WN 2); nothing when nothing was paid
                units_l, units_r = list(play.bought_left), list(play.bought_right)  # type: ignore[union-attr]
            last = play.last  # type: ignore[union-attr]
            pick = play.pick  # type: ignore[union-attr]
            append((
                gid, age, number, seat, address, a.use, card_name, None if card is None else card.key,
                None if card is None else card.colour, stage, outcome,
                free, play.bank, play.left, play.right, units_l, units_r, stated is not None,  # type: ignore
                play.income, extra, six and last is False,  # type: ignore[union-attr]
                None if last is False or last is None else last.name,  # type: ignore[union-attr]
                None if pick is None else pick.name, None if pick is None else pick.key,
                play.declined,  # type: ignore[union-attr]
                errors, annotated, ann.glyph, line, column,
            ))
    return len(rows) - before


_AGE_ENDS = ("I.end", "II.end", "III.end")


def _hand_rows(record: Record, played: Replay, gid: int) -> list[Row]:
    """The ``hands`` rows: each seat's hand at the start of each turn the record writes and the replay reached
    (the position at the mark before the turn's), card keys, ``None`` for a card the record hides. Taken in game
    order, so the replay's positions are walked once."""
    marks = list(played.marks)
    before = dict(zip(marks[1:], marks))
    out: list[Row] = []
    seen: set[str] = set()
    for turn in record.turns:
        label = f"{_NUMERALS[turn.age]}.{turn.number}"
        if label in seen or label not in before:
            continue
        seen.add(label)
        hands = played.position(before[label]).hands
        if hands is None:
            continue
        for k, hand in enumerate(hands):
            if hand:
                out.append((gid, turn.age, turn.number, k + 1, [None if c is None else c.key for c in hand]))
    return out


def _end_state(played: Replay, military: list[Row], n: int) -> list[Row]:
    """Each seat's end-state columns of ``seats`` (schema order, from ``tablets``), taken from the replay's
    positions: the final city's science symbols and buildings, coins and shields at each Age end reached, and
    the tokens of each Age (the military rows). NULLs for a record without positions (a score pad)."""
    final = played.final
    if final is None:
        return [(None,) * 8] * n
    ends = [played.position(m) if m in played.marks else None for m in _AGE_ENDS]
    tokens: list[list[int | None]] = [[None, None, None] for _ in range(n)]
    for row in military:
        age, seat, token = row[1], row[2], row[4]
        got = tokens[seat - 1][age - 1]
        tokens[seat - 1][age - 1] = token if got is None else got + token
    out: list[Row] = []
    for k in range(n):
        city = final.cities[k]
        science = city.science
        out.append((science.count("tablet"), science.count("compass"), science.count("gear"), science.count("any"),
                    [None if e is None else e.cities[k].coins for e in ends],
                    [None if e is None else e.cities[k].shields for e in ends], tokens[k],
                    [b.key for b in city.buildings]))
    return out


def game_rows(record: Record, played: Replay, *, gid: int, source: str, index: int, line0: int = 0,
              into: Rows | None = None, hands: bool = False) -> Rows:
    """The rows of one readable game: ``played`` is ``replay(record)``; ``gid`` its key (:func:`~.schema.game_id`),
    ``index`` its place in the file, ``line0`` the lines of the file before the text the record was read from.
    The rows are appended to ``into`` (returned) when given, else to a fresh :class:`Rows`."""
    from ..diagnostics import diagnostics_of

    out = Rows() if into is None else into
    tables = out.tables
    diagnostics = diagnostics_of(record, played.findings, None, source, line0=line0)
    errors_at: dict[tuple[int, int], int] = {}
    for d in diagnostics:
        if d.severity == "error":
            errors_at[(d.line, d.column)] = errors_at.get((d.line, d.column), 0) + 1
    n = record.players
    seen = _Events(played, gid, n)
    actions = _plays(record, seen, gid, line0, errors_at, tables["plays"])
    sheet = played.scores
    built = seen.stages
    seats = tables["seats"]
    if hands:  # asked for: a snapshot of the replay per turn (about half the cost of the rest of the rows)
        tables["hands"] += _hand_rows(record, played, gid)
    end = _end_state(played, seen.military, n)
    final = played.final
    for k, s in enumerate(record.seats):
        # the final city's stages (a position's earlier ones too); a score-pad record does not say
        stages = None if not record.turns else final.cities[k].stages if final is not None else built[k]
        if sheet is None:
            seats.append((gid, k + 1, s.name, s.wonder, s.side) + (None,) * 11 + (stages,) + (None,) * 4
                         + end[k])
        else:
            ln = sheet.lines[k]
            seats.append((gid, k + 1, s.name, s.wonder, s.side, ln.military, ln.treasury, ln.wonder,
                          ln.civilian, ln.commercial, ln.guilds, ln.science, ln.total, ln.coins, ln.rank,
                          ln.rank == 1, stages, ln.cities, ln.leaders, ln.armada, ln.edifice) + end[k])
    tables["military"] += seen.military
    tables["findings"] += _finding_rows(gid, diagnostics)
    wrong = any(f.rule == "R-SCORE" and f.severity == "error" for f in played.findings)
    stated = bool(record.results)
    line = (record.span.line if record.span is not None else 1) + line0
    tables["games"].append(_game_row(gid, kind_of(record), source, index, line, record, True, sheet is not None, len(record.turns),
                                     actions, stated, (not wrong) if stated else None, _tally(diagnostics)))
    out.games += 1
    out.complete += sheet is not None
    out.actions += actions
    out.wrong_results += stated and wrong
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
        out.tables["seats"] = [(gid, k + 1, s.name, s.wonder, s.side) + (None,) * 24
                               for k, s in enumerate(head.seats)]
    out.tables["findings"] = _finding_rows(gid, [d])
    out.tables["games"] = [_game_row(gid, None, source, index, line, head, False, False, 0, 0, False, None,
                                     _tally([d]))]
    out.games, out.broken = 1, 1
    return out


def card_rows() -> list[Row]:
    """The rows of the ``cards`` table: every card design of the catalogue, Age then name order."""
    from ..catalog import Points, Science, Shields, describe, load

    out: list[Row] = []
    for c in sorted(load().cards, key=lambda c: (c.age, c.name)):
        units = [r for r, k in c.cost.resources for _ in range(k)]
        symbols = [e.symbol for e in c.effects if isinstance(e, Science)]
        out.append((c.key, c.name, c.age, c.colour, c.cost.coins, units,
                    sum(e.amount for e in c.effects if isinstance(e, Points)),
                    sum(e.amount for e in c.effects if isinstance(e, Shields)), symbols[0] if symbols else None,
                    [describe(e) for e in c.effects], list(c.chain_from), list(c.chain_to), list(c.copies)))
    return out


def file_rows(input_number: int, source: str, rule: str, message: str, severity: str = "error") -> Rows:
    """The rows of an input that gives no game: unreadable (``rule`` ``unreadable``) or holding none
    (``games``): a games row with ``game`` 0 and line 0, and its finding."""
    gid = unread_id(source, 0, rule)
    out = Rows()
    out.tables["games"] = [_game_row(gid, None, source, 0, 0, None, False, False, 0, 0, False, None,
                                     {"error": int(severity == "error"), "warning": int(severity == "warning"),
                                      "note": int(severity == "note")})]
    out.tables["findings"] = [(gid, None, None, rule, severity, "file", message, 0, 0)]
    out.unreadable = int(rule == "unreadable")
    return out


def piece_rows(text: str, source: str, input_number: int, first_game: int, line0: int = 0,
               hands: bool = False) -> Rows:
    """The rows of every game of a piece of a file (:func:`wnotation.diagnostics.iter_pieces`): ``first_game``
    is the file's number of the piece's first ``[Format`` game (1-based), ``line0`` the lines before the piece.
    Text before a file's first game that does not read is game 0. Cost: one parse and one replay per game; the
    piece is read in one :func:`~wnotation.notation.read_games` call, as ``check`` reads it."""
    from bisect import bisect_right

    from ..notation import NotationError, read_games, write
    from ..notation.lexical import BOUNDARY_RE

    starts: list[int] = []  # the line of each game's [Format tag in the piece, and its offset
    offsets: list[int] = []
    line, seen = 1, 0
    for found in BOUNDARY_RE.finditer(text):
        line += text.count("\n", seen, found.start())
        seen = found.start()
        starts.append(line)
        offsets.append(found.start())
    out = Rows()
    seen_ids: set[int] = set()
    for item in read_games(text, source=source):
        if isinstance(item, NotationError):
            k = bisect_right(starts, item.line)
            if k == 0:  # text before the file's first game
                index, start, chunk = 0, line0 + 1, text[:offsets[0]] if offsets else text
            else:
                index, start = first_game - 1 + k, starts[k - 1] + line0
                chunk = text[offsets[k - 1]:offsets[k] if k < len(offsets) else len(text)]
            out.add(_broken_rows(item, chunk, gid=unread_id(source, start, chunk), source=source, index=index,
                                 line=start, line0=line0))
            continue
        at = item.span.line if item.span is not None else 1
        gid = game_id(write(item))
        if gid in seen_ids:  # the same game again (its canonical text): written once, the repeat noted
            out.repeats.append((gid, source, at + line0))
            continue
        seen_ids.add(gid)
        index = first_game - 1 + max(1, bisect_right(starts, at))
        game_rows(item, replay(item), gid=gid, source=source, index=index, line0=line0, into=out, hands=hands)
    return out


def iter_file_pieces(path: str, games: int) -> Iterator[tuple[str, int, int]]:
    """``(piece, line0, first_game)`` for the pieces of ``games`` games of the file at ``path`` (read lazily;
    run :func:`wnotation.diagnostics.scan_file` first). The same pieces however the caller runs them."""
    from ..diagnostics import file_lines, iter_pieces

    first = 1
    for piece, line0 in iter_pieces(file_lines(path), games):
        yield piece, line0, first
        first += games
