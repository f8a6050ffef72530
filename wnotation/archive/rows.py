"""Archive rows from the engine: one game's Record and Replay become rows of games, seats, plays, military and
findings (column order as in :mod:`.schema`), and a piece of a file becomes the rows of its games.

A visitor of the engine's walk (:mod:`wnotation.engine.walk`, given the record: each turn's seat outcomes tied to
the written actions, why the others were not played, each Age's battles) and a reader of the findings and score
sheet: nothing here decides a rule (not even which written action counts, R-TURN) or reads an event. What a purchase paid
and bought is the outcome's (the units its coins bought, whichever way the record states the purchase, or the
engine's choice when it leaves it out, R-TRADE-MINIMAL). Writing the rows is :mod:`.store`'s job. No DuckDB here: rows are plain tuples.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ..model.catalog import AGE_NUMERALS as _NUMERALS
from ..model.record import NO_ANNOTATION, UNKNOWN, GameHeader, Record, StatedPurchase, position_tag
from ..engine import Replay, replay
from ..engine.findings import contradicts_the_sheet
from ..engine.walk import Battle, MainLineVisitor, SeatOutcome, TurnView, walk
from .rowtypes import FindingRow, GameRow, HandRow, MilitaryRow, PlayRow
from .schema import TABLES, game_id, unread_id

#: One row of a table, its values in the table's column order (schema.TABLES).
Row = tuple[Any, ...]

__all__ = ["Rows", "file_rows", "game_rows", "piece_rows"]

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
    """The games row; ``head`` is a Record or a reader Header (:class:`~wnotation.model.record.GameHeader`), or ``None``."""
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
    return GameRow(
        game_id=gid, kind=kind, file=source, game_number=index, start_line=line, readable=read, complete=complete,
        players=players, date_text=date_text, played_on=_played_on(date_text), event_name=event, site=site,
        tags=json.dumps(tags, ensure_ascii=False), seed_algorithm=seed_alg, seed=seed, guild_list=guilds,
        turns=turns, actions=actions, results_stated=results_stated, results_match=results_match,
        error_count=counts["error"], warning_count=counts["warning"], note_count=counts["note"])


def _finding_rows(gid: int, diagnostics: Sequence[object]) -> list[Row]:
    return [FindingRow(game_id=gid, finding_address=d.address, seat=d.seat, rule_id=d.rule,  # type: ignore
                       severity=d.severity, finding_kind=d.kind, message=d.message,  # type: ignore
                       finding_line=d.line, finding_column=d.column)  # type: ignore
            for d in diagnostics]


def _tally(diagnostics: Sequence[object]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "note": 0}
    for d in diagnostics:
        counts[d.severity] += 1  # type: ignore[attr-defined]
    return counts


class _Seen(MainLineVisitor):
    """What the engine's walk (given the record) says of the main line: the outcome of each written action it
    played and why it did not play the others, both by ``(place of the written turn, index of the action)``, the
    stages each seat built and the military rows. Variations are not archived."""

    def __init__(self, gid: int, n: int) -> None:
        super().__init__()
        self.gid = gid
        self.played: dict[tuple[int, int], SeatOutcome] = {}
        self.missed: dict[tuple[int, int], str] = {}
        self.stages = [0] * n
        self.military: list[Row] = []

    def turn(self, turn: TurnView) -> None:
        if self.depth:
            return
        at = turn.written_at
        for seat, out in turn.seats.items():
            if out.placed == "staged":
                self.stages[seat - 1] += 1
            if at is not None and out.index is not None:
                self.played[(at, out.index)] = out

    def unplayed(self, line: str, at: int, index: int, why: str) -> None:
        if not line:
            self.missed[(at, index)] = why

    def end_age(self, age: int, battles: tuple[Battle, ...]) -> None:
        if not self.depth:
            self.military += [MilitaryRow(game_id=self.gid, age=age, seat=b.seat, opponent=b.opponent,
                                          token=b.token, conflict_result=b.result) for b in battles]


def _plays(record: Record, seen: _Seen, gid: int, line0: int, errors_at: dict[tuple[int, int], int],
           rows: list[Row]) -> int:
    """Append a plays row for each action of ``record`` to ``rows``; returns how many."""
    before = len(rows)
    append = rows.append
    for at, turn in enumerate(record.turns):
        age, number = turn.age, turn.number
        address = f"{_NUMERALS[age]}.{number}"
        six, extra = number == 6, number == 7
        for index, a in enumerate(turn.actions):
            seat = a.seat
            play = seen.played.get((at, index))
            missed = seen.missed.get((at, index), "ignored")  # played, but placing nothing: ignored
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
            if play is None or play.placed is None:
                append(PlayRow(
                    game_id=gid, age=age, turn=number, seat=seat, address=address, play_action=a.use, card=card_name,
                    card_key=None, colour=None, stage=None, outcome=missed, free_by=None, bank_coins=0, left_coins=0,
                    right_coins=0, left_units=None, right_units=None, purchase_stated=stated is not None, income=0,
                    extra_turn=extra, kept_last=False, discarded_card=None, picked_card=None, picked_key=None,
                    pick_declined=False, play_errors=errors, annotated=annotated, glyph=ann.glyph, play_line=line,
                    play_column=column))
                continue
            card = play.card
            outcome = play.placed
            stage = play.stage
            how = play.how
            free = how if how == "chain" or how == "power" else None
            if isinstance(stated, StatedPurchase):
                units_l, units_r = list(stated.left), list(stated.right)
            else:  # what the payment bought: the engine's choice for a purchase left out (R-TRADE-MINIMAL), what
                # stated coins bought (7WN 2); nothing when nothing was paid
                units_l, units_r = list(play.bought_left), list(play.bought_right)
            last = play.last
            pick = play.pick
            append(PlayRow(
                game_id=gid, age=age, turn=number, seat=seat, address=address, play_action=a.use, card=card_name,
                card_key=None if card is None else card.key, colour=None if card is None else card.colour,
                stage=stage, outcome=outcome, free_by=free, bank_coins=play.bank, left_coins=play.left,
                right_coins=play.right, left_units=units_l, right_units=units_r, purchase_stated=stated is not None,
                income=play.income, extra_turn=extra, kept_last=six and play.kept_last,
                discarded_card=None if play.kept_last or last is None else last.name,
                picked_card=None if pick is None else pick.name, picked_key=None if pick is None else pick.key,
                pick_declined=play.declined, play_errors=errors, annotated=annotated, glyph=ann.glyph,
                play_line=line, play_column=column))
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
                out.append(HandRow(game_id=gid, age=turn.age, turn=turn.number, seat=k + 1,
                                   held=[None if c is None else c.key for c in hand]))
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
    seen = _Seen(gid, n)
    walk(played, seen, record)
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
    wrong = any(contradicts_the_sheet(f) for f in played.findings)
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
    from ..model.catalog import Points, Science, Shields, describe, load

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
