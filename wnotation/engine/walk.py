"""One walk of a replayed game: a :class:`Visitor` is told the game's start, each position reached with what
happened since the one before, each turn (the position before, each seat's typed outcome, the position after, the
turn's findings), each Age's battles, each variation and the end.

The clients that read a replay (archive rows, the viewer, the canonical form) used to rebuild "turn + outcome"
from the flat event list, each repeating engine rules: which income and pick belong to which play (R-HALI-LAST),
which neighbour a payment went to, which seats fought, which written action the engine played (R-TURN), what a
seat sees of another's card. Here the engine says it once, in python-chess's visitor style: subclass
:class:`Visitor`, override the hooks wanted, call :func:`walk`. Positions are snapshots taken only when a visitor
reads :attr:`TurnView.before`, :attr:`TurnView.after` or :attr:`PositionView.state`, so a visitor that does not
pays nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..model.catalog import AGE_NUMERALS, Card
from ..model.record import Action, Record, Turn
from ..model.vocabulary import left_of, right_of
from . import events as ev
from .findings import Finding
from .legal import LegalAction, legal_actions
from .results import Positions, Replay, VariationReplay
from .state import State

__all__ = ["Battle", "Fact", "MainLineVisitor", "PositionView", "SeatOutcome", "TurnView", "Visitor", "fact_of", "walk"]


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing that happened, as a log tells it: ``what`` is ``built`` (``how`` as the build's way), ``staged``
    (``stage``), ``sold``, ``discarded``, ``paid`` (``amount`` to seat ``to``, ``None`` the bank), ``gained``
    (``amount`` for ``reason``), ``picked`` (from the discard pile, R-HALI), ``declined`` (the pick) or ``fought``
    (``token`` against ``opponent``, R-MILITARY); ``card`` ``None`` when unseen; ``kind`` names the engine's event.
    The bookkeeping of a game (a deal, hands passed, a turn or an Age over) is no fact."""

    what: str
    kind: str
    seat: int
    card: Card | None = None
    how: str | None = None
    stage: int | None = None
    to: int | None = None
    amount: int = 0
    reason: str | None = None
    opponent: int | None = None
    token: int = 0

    def seen_by(self, seat: int) -> Fact:
        """The fact as ``seat`` saw it: the card another seat sold, discarded or put under a stage is face down
        (as :func:`wnotation.engine.view` hides staged cards and the discard pile)."""
        if self.seat != seat and self.card is not None and self.what in ("sold", "discarded", "staged"):
            return replace(self, card=None)
        return self


def fact_of(event: object) -> Fact | None:
    """The fact an engine event tells, or ``None`` for bookkeeping (and for anything that is not an event)."""
    kind = type(event).__name__
    if isinstance(event, ev.CardBuilt):
        return Fact("built", kind, event.seat, event.card, how=event.how)
    if isinstance(event, ev.StageBuilt):
        return Fact("staged", kind, event.seat, event.card, stage=event.stage)
    if isinstance(event, ev.CardSold):
        return Fact("sold", kind, event.seat, event.card)
    if isinstance(event, ev.CardDiscarded):
        return Fact("discarded", kind, event.seat, event.card)
    if isinstance(event, ev.CoinsPaid):
        return Fact("paid", kind, event.seat, to=event.to, amount=event.amount)
    if isinstance(event, ev.CoinsGained):
        return Fact("gained", kind, event.seat, amount=event.amount, reason=event.reason)
    if isinstance(event, ev.PickedFromDiscard):
        return Fact("picked", kind, event.seat, event.card)
    if isinstance(event, ev.PickDeclined):
        return Fact("declined", kind, event.seat)
    if isinstance(event, ev.ConflictResolved):
        return Fact("fought", kind, event.seat, opponent=event.opponent, token=event.token)
    return None


class SeatOutcome:
    """What one turn did for one seat. ``placed``: ``built``, ``staged``, ``sold``, ``discarded`` or ``None`` (the
    seat placed nothing: its action was ignored, or it only took income or a pick earned earlier); ``card`` the
    placed card (``None`` if unseen), ``how`` a build's way (``paid``, ``chain``, ``power``, ``unpaid``),
    ``stage`` the stage built; coins paid to the bank and to each neighbour (R-TRADE) and the units those bought,
    whichever way the record stated the purchase; ``income`` the coins the play (and its pick) brought; on turn 6
    the last card: ``kept_last`` (Babylon plays it, R-BABYLON-N1) or ``last`` (the discarded card, R-LAST); ``pick``
    the card built from the discard pile that this play earned and ``declined`` if it went unused (R-HALI,
    R-HALI-LAST: picks after the Age's last turn belong to the extra-turn stage that earned them, else to turn 6).
    When :func:`walk` is given the record, ``action`` is the written action the engine played for the seat and
    ``index`` its place among the turn's actions (R-TURN: a seat's first action of the turn's first writing).
    """

    __slots__ = ("seat", "placed", "card", "how", "stage", "bank", "left", "right", "bought_left", "bought_right",
                 "income", "kept_last", "last", "pick", "declined", "action", "index")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.placed: str | None = None
        self.card: Card | None = None
        self.how: str | None = None
        self.stage: int | None = None
        self.bank = 0
        self.left = 0
        self.right = 0
        self.bought_left: tuple[str, ...] = ()
        self.bought_right: tuple[str, ...] = ()
        self.income = 0
        self.kept_last = True
        self.last: Card | None = None
        self.pick: Card | None = None
        self.declined = False
        self.action: Action | None = None
        self.index: int | None = None

    def __repr__(self) -> str:
        return f"SeatOutcome(seat={self.seat}, placed={self.placed!r}, card={self.card!r})"


class Battle:
    """One seat's conflict with one neighbour at the end of ``age`` (R-MILITARY): ``token`` 1/3/5, -1, or 0 for a
    tie; ``result`` ``victory``, ``defeat`` or ``tie``. Each seat fights its left, then its right neighbour."""

    __slots__ = ("age", "seat", "opponent", "token", "result")

    def __init__(self, age: int, seat: int, opponent: int, token: int) -> None:
        self.age = age
        self.seat = seat
        self.opponent = opponent
        self.token = token
        self.result = "victory" if token > 0 else "defeat" if token < 0 else "tie"


class TurnView:
    """One turn of a line of play as the walk hands it over: ``age``, ``number`` (7: Babylon's extra turn),
    ``label`` (``I.3``), ``address`` (``I.3`` on the main line, ``I.3(1).I.4`` in a variation), each seat's
    outcome in seat order, the findings at the turn's address, and the positions before and after it (snapshots,
    taken when read; ``after`` is the position at the turn's own label, so turn 6's picks come after it).
    ``written`` is the record's turn the engine played (its first writing, R-TURN) when :func:`walk` is given the
    record, and ``written_at`` its place among the line's written turns (0-based); else both ``None``."""

    __slots__ = ("age", "number", "label", "address", "seats", "findings", "written", "written_at", "_line")

    def __init__(self, line: _Line, age: int, number: int, seats: dict[int, SeatOutcome]) -> None:
        self.age = age
        self.number = number
        self.label = f"{AGE_NUMERALS[age]}.{number}"
        self.address = line.prefix + self.label
        self.seats: Mapping[int, SeatOutcome] = dict(sorted(seats.items()))
        self.findings: tuple[Finding, ...] = tuple(f for f in line.findings if f.address == self.address)
        self.written: Turn | None = None
        self.written_at: int | None = None
        self._line = line

    @property
    def before(self) -> State | None:
        """The position the turn was played from (``None`` if the replay holds none, a variation refused)."""
        return self._line.before(self.label)

    @property
    def after(self) -> State | None:
        return self._line.at(self.label)

    def purchases(self, seat: int) -> tuple[LegalAction, ...]:
        """The legal plays at the turn's start that place ``seat``'s card as it was placed (built or staged),
        each cheapest purchase once, in the trade solver's order: the first is what the engine pays for a record
        that states none (R-TRADE-MINIMAL). ``()`` when there is none: nothing built or staged, an unseen card,
        a card not in the known hand, no position before."""
        out = self.seats.get(seat)
        state = self.before
        if out is None or out.card is None or state is None or out.placed not in ("built", "staged"):
            return ()
        use = "build" if out.placed == "built" else "stage"
        name = out.card.name
        listed: list[LegalAction] = []  # a play may be listed once per turn-6 choice of the last card
        for a in legal_actions(state, seat):
            if a.use == use and a.card.name == name and all(a.purchase != b.purchase for b in listed):
                listed.append(a)
        return tuple(listed)

    def _link(self, at: int | None, written: Sequence[Turn]) -> set[int]:
        """Tie each seat's outcome to the action the engine played: the seat's first action (R-TURN) of the written
        turn ``at``. Returns the indices of the actions tied."""
        if at is None:
            return set()
        turn = self.written = written[at]
        self.written_at = at
        tied = set()
        for index, action in enumerate(turn.actions):
            out = self.seats.get(action.seat)
            if out is not None and out.action is None:
                out.action, out.index = action, index
                tied.add(index)
        return tied


class PositionView:
    """One position of a line as the walk reaches it: ``label`` (``I.3``, ``I.end``), ``address`` (the full one,
    ``I.3(1).I.4`` in a variation), ``line`` (the variation's address, ``""`` on the main line), ``state`` (a
    snapshot, taken when read) and ``facts``: what happened since the line's position before (since the line's
    start for its first), in the engine's order."""

    __slots__ = ("label", "address", "line", "_positions", "_events", "_from", "_to")

    def __init__(self, line: _Line, label: str, start: int, end: int) -> None:
        self.label = label
        self.address = line.prefix + label
        self.line = line.address
        self._positions = line.positions
        self._events = line.events
        self._from, self._to = start, end

    @property
    def state(self) -> State:
        return self._positions[self.label]

    @property
    def facts(self) -> tuple[Fact, ...]:
        return tuple(f for e in self._events[self._from:self._to] if (f := fact_of(e)) is not None)


class Visitor:
    """The hooks of :func:`walk`, each doing nothing: override those wanted."""

    def begin_game(self, played: Replay) -> None:
        pass

    def position(self, at: PositionView) -> None:
        """The current line reached position ``at`` (told before the turn that ends there)."""

    def turn(self, turn: TurnView) -> None:
        """Turn ``turn`` of the current line (the main line, or the variation begun last) is over."""

    def unplayed(self, line: str, at: int, index: int, why: str) -> None:
        """Told when :func:`walk` is given the record, once a line is walked, for each written action of it that the
        engine did not play: action ``index`` of the line's written turn ``at`` (places 0-based; ``line`` the
        variation's address, ``""`` the main line). ``why``: ``not-replayed`` (the line stops before that turn)
        or ``ignored`` (R-TURN: a second writing of the turn, a seat's second action, a seat that does not act)."""

    def end_age(self, age: int, battles: tuple[Battle, ...]) -> None:
        """Age ``age`` of the current line ended; ``battles`` in seat order, left neighbour first."""

    def begin_variation(self, variation: VariationReplay) -> None:
        pass

    def end_variation(self, variation: VariationReplay) -> None:
        pass

    def end_game(self, played: Replay) -> None:
        pass


class MainLineVisitor(Visitor):
    """A :class:`Visitor` that counts how deep in variations the walk is (``depth``, 0 on the main line), for the
    visitors that keep to the main line."""

    def __init__(self) -> None:
        self.depth = 0

    def begin_variation(self, variation: VariationReplay) -> None:
        self.depth += 1

    def end_variation(self, variation: VariationReplay) -> None:
        self.depth -= 1


class _Line:
    """A line of play being walked: its events, positions and findings, its address (``""``: the main line) and
    the prefix of its addresses; given the record, its written turns, the place of each turn's first writing by
    ``(age, number)`` and, as the walk ties them, the actions played by ``(place, index)``."""

    __slots__ = ("events", "positions", "findings", "address", "prefix", "parent", "previous", "written", "first",
                 "played", "told")

    def __init__(self, events: Sequence[ev.Event], positions: Positions, findings: Sequence[Finding], address: str,
                 parent: _Line | None, written: Sequence[Turn] | None) -> None:
        self.events = events
        self.positions = positions
        self.findings = findings
        self.address = address
        self.prefix = address + "." if address else ""
        self.parent = parent
        self.written = written
        self.first = {} if written is None else _first_writings(written)
        self.played: set[tuple[int, int]] = set()
        self.told: set[int] = set()  # the places of the written turns the walk told
        labels = list(positions.marks)
        self.previous = dict(zip(labels[1:], labels))

    def at(self, label: str) -> State | None:
        if label in self.positions.marks:
            return self.positions[label]
        return None

    def before(self, label: str) -> State | None:
        prior = self.previous.get(label)
        if prior is not None:
            return self.positions[prior]
        # a variation's first turn: the position it branches from, on the nearest line it branches from that has
        # it (a nested variation's parent starts at the same turn)
        age, _, number = label.partition(".")
        if not number.isdigit():
            return None
        back = f"{age}.{6 if number == '7' else int(number) - 1}"
        line = self.parent
        while line is not None:
            got = line.at(back)
            if got is not None:
                return got
            line = line.parent
        return None


def walk(played: Replay, visitor: Visitor, record: Record | None = None) -> None:
    """Walk ``played`` once: ``begin_game``, then the main line's positions and turns in game order (each
    variation, walked the same way between ``begin_variation`` and ``end_variation``, right after the turn it
    replaces, or after its line's last turn when that line never reaches the turn; a variation's own variations
    inside it; every variation of the replay once), each Age's ``end_age``, then ``end_game``. Given ``record``
    (the one ``played`` replays), each turn is tied to its written turn and each outcome to its written action."""
    visitor.begin_game(played)
    main = _Line(played.events, played.positions, played.findings, "", None, None if record is None else record.turns)
    lines = None if record is None else _written_lines(record.turns, "")
    _walk_line(main, played.variations, lines, visitor)
    visitor.end_game(played)


def _first_writings(turns: Sequence[Turn]) -> dict[tuple[int, int], int]:
    """The place of each turn's first writing among a line's written turns, by ``(age, number)`` (R-TURN: a
    second writing is ignored)."""
    out: dict[tuple[int, int], int] = {}
    for k, t in enumerate(turns):
        out.setdefault((t.age, t.number), k)
    return out


def _written_lines(turns: Sequence[Turn], prefix: str) -> dict[str, Sequence[Turn]]:
    """Each variation's written turns by its address (spec 7wn.md §6.1), nested ones too; the variations of a
    turn's first writing only, as the replay plays them."""
    out: dict[str, Sequence[Turn]] = {}
    for k in _first_writings(turns).values():
        t = turns[k]
        for n, v in enumerate(t.variations, 1):
            where = f"{prefix}{t.label}({n})"
            out[where] = v.turns
            out.update(_written_lines(v.turns, where + "."))
    return out


def _walk_line(line: _Line, variations: Mapping[str, VariationReplay],
               lines: Mapping[str, Sequence[Turn]] | None, visitor: Visitor) -> None:
    """One pass over a line's events, folding each turn's events into its seats' outcomes and telling each
    position when its mark is reached."""
    marks = list(line.positions.marks.items())
    reached = 0  # positions told
    walked: set[str] = set()  # the variations of this line walked

    def reach(mark: int) -> None:
        nonlocal reached
        while reached < len(marks) and marks[reached][1] <= mark:
            label, end = marks[reached]
            visitor.position(PositionView(line, label, marks[reached - 1][1] if reached else 0, end))
            reached += 1

    start = line.positions.start
    n = 0 if start is None else len(start.cities)  # a record from a position deals nothing
    pending: list[TurnView] = []  # turns 6 and 7 of an Age, told once its last picks are in (R-HALI-LAST)
    open_: dict[int, SeatOutcome] | None = None
    done: dict[int, SeatOutcome] | None = None  # the turn resolved last, while the next one has not begun
    done_key = (0, 0)
    six: dict[int, SeatOutcome] | None = None
    fought: list[ev.ConflictResolved] = []

    def tell(view: TurnView) -> None:
        _tell(view, line, variations, lines, walked, visitor)

    for i, e in enumerate(line.events):
        reach(i)
        if isinstance(e, ev.AgeDealt):
            n = len(e.hands)
            continue
        if isinstance(e, (ev.CardBuilt, ev.StageBuilt, ev.CardSold, ev.CardDiscarded)):
            if open_ is None:
                if done is not None and done_key[1] < 6:
                    tell(TurnView(line, done_key[0], done_key[1], done))
                open_, done = {}, None
            seat = e.seat
            out = _at(open_, seat)
            if out.placed is None:
                out.card = e.card
                if isinstance(e, ev.CardBuilt):
                    out.placed, out.how = "built", e.how
                elif isinstance(e, ev.StageBuilt):
                    out.placed, out.stage = "staged", e.stage
                elif isinstance(e, ev.CardSold):
                    out.placed = "sold"
                else:
                    out.placed = "discarded"
            elif isinstance(e, ev.CardDiscarded):
                out.kept_last, out.last = False, e.card
        elif isinstance(e, ev.CoinsPaid):  # it follows its seat's placement, in the open turn
            if open_ is None:
                continue
            out = _at(open_, e.seat)
            if e.to is None:
                out.bank += e.amount
            elif n and e.to == left_of(e.seat, n):
                out.left += e.amount
                out.bought_left += e.units
            else:
                out.right += e.amount
                out.bought_right += e.units
        elif isinstance(e, ev.CoinsGained):
            into = open_ if open_ is not None else _earner(done, done_key, six, e.seat)
            if into is not None:
                _at(into, e.seat).income += e.amount
        elif isinstance(e, ev.TurnResolved):
            if done is not None and done_key[1] < 6:  # a turn in which nobody placed a card
                tell(TurnView(line, done_key[0], done_key[1], done))
            done_key = (e.age, e.turn)
            done = open_ if open_ is not None else {}
            open_ = None
            if e.turn == 6:
                six = done
            if e.turn >= 6:
                pending.append(TurnView(line, e.age, e.turn, done))
        elif isinstance(e, (ev.PickedFromDiscard, ev.PickDeclined)):
            into = _earner(done, done_key, six, e.seat)
            if into is not None:
                if isinstance(e, ev.PickedFromDiscard):
                    _at(into, e.seat).pick = e.card
                else:
                    _at(into, e.seat).declined = True
        elif isinstance(e, ev.ConflictResolved):
            fought.append(e)
        elif isinstance(e, ev.AgeEnded):
            for view in pending:
                tell(view)
            pending = []
            tokens = {(c.seat, c.opponent): c.token for c in fought}
            battles = tuple(Battle(e.age, seat, other, tokens.get((seat, other), 0))
                            for seat in range(1, n + 1) for other in (left_of(seat, n), right_of(seat, n)))
            visitor.end_age(e.age, battles)
            fought = []
            done = six = None
    reach(len(line.events))
    if done is not None and done_key[1] < 6:
        tell(TurnView(line, done_key[0], done_key[1], done))
    for view in pending:  # the line stops inside an Age's last turns
        tell(view)
    if line.written is not None:
        _tell_unplayed(line, visitor)
    for v in variations.values():  # those replacing a turn this line never reaches (not replayed, R-TURN)
        if v.parent == line.address and v.address not in walked:
            _walk_variation(v, line, variations, lines, walked, visitor)


def _tell(view: TurnView, line: _Line, variations: Mapping[str, VariationReplay],
          lines: Mapping[str, Sequence[Turn]] | None, walked: set[str], visitor: Visitor) -> None:
    """Hand a turn over, then walk the variations that replace it."""
    if line.written is not None:
        at = line.first.get((view.age, view.number))
        if at is not None:
            line.told.add(at)
            line.played.update((at, index) for index in view._link(at, line.written))
    visitor.turn(view)
    for v in variations.values():
        if v.parent == line.address and v.replaces == view.label and v.address not in walked:
            _walk_variation(v, line, variations, lines, walked, visitor)


def _tell_unplayed(line: _Line, visitor: Visitor) -> None:
    """Each written action of the line the engine did not play, in record order (see :meth:`Visitor.unplayed`)."""
    assert line.written is not None
    for at, turn in enumerate(line.written):
        first = line.first[(turn.age, turn.number)] == at
        for index in range(len(turn.actions)):
            if (at, index) not in line.played:
                why = "not-replayed" if first and at not in line.told else "ignored"
                visitor.unplayed(line.address, at, index, why)


def _walk_variation(v: VariationReplay, line: _Line, variations: Mapping[str, VariationReplay],
                    lines: Mapping[str, Sequence[Turn]] | None, walked: set[str],
                    visitor: Visitor) -> None:
    walked.add(v.address)
    visitor.begin_variation(v)
    inner = _Line(v.events, v.positions, v.findings, v.address, line,
                  None if lines is None else lines.get(v.address, ()))
    _walk_line(inner, variations, lines, visitor)
    visitor.end_variation(v)


def _earner(done: dict[int, SeatOutcome] | None, key: tuple[int, int], six: dict[int, SeatOutcome] | None,
            seat: int) -> dict[int, SeatOutcome] | None:
    """The turn a pick or its income after ``key`` belongs to (R-HALI-LAST: after the extra turn, turn 6's play
    unless the seat built a stage on the extra turn)."""
    if done is None:
        return None
    if key[1] == 7:
        got = done.get(seat)
        if got is None or got.placed != "staged":
            return six
    return done


def _at(turn: dict[int, SeatOutcome], seat: int) -> SeatOutcome:
    got = turn.get(seat)
    if got is None:
        got = turn[seat] = SeatOutcome(seat)
    return got
