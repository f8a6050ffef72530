"""One walk of a replayed game: a :class:`Visitor` is told the game's start, each turn (the position before, each
seat's typed outcome, the position after, the turn's findings), each Age's battles, each variation and the end.

The clients that read a replay (archive rows, the viewer, the canonical form) used to rebuild "turn + outcome"
from the flat event list, each repeating engine rules: which income and pick belong to which play (R-HALI-LAST),
which neighbour a payment went to, which seats fought. Here the engine says it once, in python-chess's visitor
style: subclass :class:`Visitor`, override the hooks wanted, call :func:`walk`. Positions are snapshots taken only
when a visitor reads :attr:`TurnView.before` or :attr:`TurnView.after`, so a visitor that does not pays nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..model.catalog import AGE_NUMERALS, Card
from ..model.vocabulary import left_of, right_of
from . import events as ev
from .findings import Finding
from .results import Positions, Replay, VariationReplay
from .state import State

__all__ = ["Battle", "SeatOutcome", "TurnView", "Visitor", "walk"]


class SeatOutcome:
    """What one turn did for one seat. ``placed``: ``built``, ``staged``, ``sold``, ``discarded`` or ``None`` (the
    seat placed nothing: its action was ignored, or it only took income or a pick earned earlier); ``card`` the
    placed card (``None`` if unseen), ``how`` a build's way (``paid``, ``chain``, ``power``, ``unpaid``),
    ``stage`` the stage built; coins paid to the bank and to each neighbour (R-TRADE) and the units those bought,
    whichever way the record stated the purchase; ``income`` the coins the play (and its pick) brought; on turn 6
    the last card: ``kept_last`` (Babylon plays it, R-BABYLON-N1) or ``last`` (the discarded card, R-LAST); ``pick``
    the card built from the discard pile that this play earned and ``declined`` if it went unused (R-HALI,
    R-HALI-LAST: picks after the Age's last turn belong to the extra-turn stage that earned them, else to turn 6).
    """

    __slots__ = ("seat", "placed", "card", "how", "stage", "bank", "left", "right", "bought_left", "bought_right",
                 "income", "kept_last", "last", "pick", "declined")

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
    taken when read; ``after`` is the position at the turn's own label, so turn 6's picks come after it)."""

    __slots__ = ("age", "number", "label", "address", "seats", "findings", "_line")

    def __init__(self, line: _Line, age: int, number: int, seats: dict[int, SeatOutcome]) -> None:
        self.age = age
        self.number = number
        self.label = f"{AGE_NUMERALS[age]}.{number}"
        self.address = line.prefix + self.label
        self.seats: Mapping[int, SeatOutcome] = dict(sorted(seats.items()))
        self.findings: tuple[Finding, ...] = tuple(f for f in line.findings if f.address == self.address)
        self._line = line

    @property
    def before(self) -> State | None:
        """The position the turn was played from (``None`` if the replay holds none, a variation refused)."""
        return self._line.before(self.label)

    @property
    def after(self) -> State | None:
        return self._line.at(self.label)


class Visitor:
    """The hooks of :func:`walk`, each doing nothing: override those wanted."""

    def begin_game(self, played: Replay) -> None:
        pass

    def turn(self, turn: TurnView) -> None:
        """Turn ``turn`` of the current line (the main line, or the variation begun last) is over."""

    def end_age(self, age: int, battles: tuple[Battle, ...]) -> None:
        """Age ``age`` of the current line ended; ``battles`` in seat order, left neighbour first."""

    def begin_variation(self, variation: VariationReplay) -> None:
        pass

    def end_variation(self, variation: VariationReplay) -> None:
        pass

    def end_game(self, played: Replay) -> None:
        pass


class _Line:
    """A line of play being walked: its events, positions and findings, the prefix of its addresses."""

    __slots__ = ("events", "positions", "findings", "prefix", "parent", "previous")

    def __init__(self, events: Sequence[ev.Event], positions: Positions, findings: Sequence[Finding], prefix: str,
                 parent: _Line | None) -> None:
        self.events = events
        self.positions = positions
        self.findings = findings
        self.prefix = prefix
        self.parent = parent
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


def walk(played: Replay, visitor: Visitor) -> None:
    """Walk ``played`` once: ``begin_game``, then the main line's turns in game order (each variation, walked the
    same way between ``begin_variation`` and ``end_variation``, right after the turn it replaces; a variation's
    own variations inside it), each Age's ``end_age``, then ``end_game``."""
    visitor.begin_game(played)
    main = _Line(played.events, played.positions, played.findings, "", None)
    _walk_line(main, "", played.variations, visitor)
    visitor.end_game(played)


def _walk_line(line: _Line, address: str, variations: Mapping[str, VariationReplay], visitor: Visitor) -> None:
    """One pass over a line's events, folding each turn's events into its seats' outcomes."""
    start = line.positions.start
    n = 0 if start is None else len(start.cities)  # a record from a position deals nothing
    pending: list[TurnView] = []  # turns 6 and 7 of an Age, told once its last picks are in (R-HALI-LAST)
    open_: dict[int, SeatOutcome] | None = None
    done: dict[int, SeatOutcome] | None = None  # the turn resolved last, while the next one has not begun
    done_key = (0, 0)
    six: dict[int, SeatOutcome] | None = None
    fought: list[ev.ConflictResolved] = []

    def tell(view: TurnView) -> None:
        _tell(view, line, address, variations, visitor)

    for e in line.events:
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
    if done is not None and done_key[1] < 6:
        tell(TurnView(line, done_key[0], done_key[1], done))
    for view in pending:  # the line stops inside an Age's last turns
        tell(view)


def _tell(view: TurnView, line: _Line, address: str, variations: Mapping[str, VariationReplay],
          visitor: Visitor) -> None:
    """Hand a turn over, then walk the variations that replace it."""
    visitor.turn(view)
    for v in variations.values():
        if v.parent == address and v.replaces == view.label:
            visitor.begin_variation(v)
            inner = _Line(v.events, v.positions, v.findings, v.address + ".", line)
            _walk_line(inner, v.address, variations, visitor)
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
