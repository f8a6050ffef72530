"""The replay core: a Record decoded once into plain plays (:func:`decode`), then its turns played Age by Age on
one :class:`~.state.Game` (:class:`Run`), collecting the events, the findings and where each position falls.

The facade (:func:`.replay.replay`) drives a :class:`Run` and packs what it collected into a
:class:`~.results.Replay`; the variations' replays (:mod:`.variations`) reuse the same core from a branch point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from ..model.catalog import AGE_NUMERALS, Card, CatalogError, load
from ..model.record import UNKNOWN, CoinsPaid, Record, Span, Turn
from ..model.vocabulary import left_of, right_of
from . import deals as dealing
from . import events as ev
from .coins import Coins
from .findings import Finding
from .memo import Memo, memo
from .payment import Stated
from .position import record_start
from .rules import Play, address, deal_events, end_age, picks_owed, play_picks, play_turn, seats_to_act
from .state import Game, State, Table, initial

__all__ = ["Decoded", "Run", "Unpaid", "decode"]


# --- decoding the Record ----------------------------------------------------------------------------------------


class Decoded:
    """A line of play's turns as plain plays by ``(age, turn)``, with their spans, whether a pick clause is written,
    the turns in record order and the findings of decoding (unknown names, a turn written twice)."""

    __slots__ = ("plays", "spans", "order", "findings", "picked")

    def __init__(self) -> None:
        self.plays: dict[tuple[int, int], list[Play]] = {}
        self.picked: dict[tuple[int, int], bool] = {}  # whether any action of the turn writes a pick clause
        self.spans: dict[tuple[int, int], Span | None] = {}
        self.order: list[tuple[int, int]] = []
        self.findings: list[Finding] = []


#: (Age, name as written) -> its catalogue card: the look-up of a name not yet in its Age's memo below.
_CARDS: Memo[tuple[int, str], Card] = memo("replay: card names as written", 4096)
#: Per Age I-III, name as written -> its catalogue card: the decoder's look-up, one string-keyed dictionary hit
#: per action (no key tuple to build and hash).
_BY_AGE: Final[tuple[Memo[str, Card], ...]] = tuple(memo(f"replay: Age {numeral} card names as written", 2048)
                                                    for numeral in (AGE_NUMERALS[1], AGE_NUMERALS[2], AGE_NUMERALS[3]))


def _card(name: str, age: int, key: tuple[int, int], seat: int, span: Span | None, out: list[Finding]) -> Card | None:
    """The card ``name`` of ``age`` on turn ``key``, or ``None`` for ``?`` and for a name the catalogue refuses
    (with an R-DECK finding in ``out``); a card found is kept in its Age's memo."""
    if name == UNKNOWN:
        return None
    found = _CARDS.get((age, name))
    if found is None:
        try:
            found = _CARDS.put((age, name), load().card(name, age))
        except CatalogError as exc:
            where = address(*key)
            out.append(Finding("R-DECK", f"{exc}; taken as an unknown card", where, seat, span))
            return None
    if 1 <= age <= 3:
        _BY_AGE[age - 1].put(name, found)
    return found


#: A :class:`Play` from its fields in order, as its own constructor makes it less the Python call of a
#: NamedTuple's ``__new__`` (once per action decoded).
_tuple_new: Final = tuple.__new__


def decode(turns: Sequence[Turn]) -> Decoded:
    """A line of play's turns (a Record's, a variation's) as plain plays, each card name looked up once (memoised
    across records)."""
    d = Decoded()
    plays_of = d.plays
    findings = d.findings
    for turn in turns:
        age = turn.age
        key = (age, turn.number)
        if key in plays_of:
            where = address(*key)
            findings.append(Finding("R-TURN", f"turn {where} is written twice; the second is ignored", where,
                                    None, turn.span))
            continue
        # Typed as the dict it is, so that compiled code reads it as one (an Age outside I-III, in a Record made
        # otherwise, reads an empty one: every name is looked up).
        cards: dict[str, Card] = _BY_AGE[age - 1] if 1 <= age <= 3 else {}
        plays: list[Play] = []
        picked = False
        for a in turn.actions:
            name = a.card
            card = cards.get(name)
            if card is None and name != UNKNOWN:
                card = _card(name, age, key, a.seat, a.span, findings)
            discard: tuple[Card | None, ...] = ()
            written = a.discard
            if written is not None:
                found = cards.get(written)
                discard = (found if found is not None else _card(written, age, key, a.seat, a.span, findings),)
            pick: tuple[str | None, ...] = ()
            pick_span: Span | None = None
            chosen = a.pick
            if chosen is not None:
                pick = (chosen.card,)
                pick_span = chosen.span or a.span
                picked = True
            stated = a.purchase
            purchase: Stated | None
            if stated is None:
                purchase = None
            elif isinstance(stated, CoinsPaid):  # 7WN 2: the coins paid to each side
                purchase = Coins(stated.left_coins, stated.right_coins)
            else:
                purchase = (tuple(stated.left), tuple(stated.right))
            plays.append(_tuple_new(Play, (a.seat, a.use, card, purchase, discard, pick, a.span, pick_span)))
        plays_of[key] = plays
        d.picked[key] = picked
        d.spans[key] = turn.span
        d.order.append(key)
    return d


# --- the replay -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unpaid:
    """Coins a refused purchase stated in coins would have paid: on turn ``key``, seat ``payer`` to seat ``to``."""

    key: tuple[int, int]
    payer: int
    to: int
    coins: int


class Run:
    """The replay loop's working data: one run plays the main line; :mod:`.variations` plays each variation on a
    run of its own, started from a position of this one (``branch_at``, ``before``) and dealt its hands
    (``dealt``)."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.findings: list[Finding] = []
        self.events: list[ev.Event] = []
        self.marks: dict[str, int] = {}
        self.decoded = decode(record.turns)
        self.findings += self.decoded.findings
        self.guilds = self._guilds()
        self.seed_deal = None
        if record.seed is not None:
            names = [g.name for g in self.guilds] if self.guilds is not None else None
            self.seed_deal, notes = dealing.from_seed(record, names)
            self.findings += notes
            if self.seed_deal is not None and self.guilds is None:
                self.guilds = self.seed_deal.guilds
        catalog = load()
        wonders = tuple([catalog.wonder(s.wonder, s.side) for s in record.seats])
        self.table = Table(tuple(s.name for s in record.seats), wonders, self.guilds)
        self.start = initial(self.table)
        # A record may start from a position (spec/position.md §8): its guilds and seed are the position's.
        self.begin = record_start(record)
        if self.begin is not None:
            self.guilds = self.begin.state.table.guilds
            self.seed_deal = dealing.seeded(record.players, self.begin.seed, self.guilds)
            if self.seed_deal is not None and self.guilds is None:
                self.guilds = self.seed_deal.guilds
            self.table = Table(self.table.names, self.table.wonders, self.guilds)
            self.start = self.begin.state._replace(table=self.table)
        self.game = Game(self.start)
        self.dealt: dict[int, dealing.Hands] = {}  # a variation's deals: the main line's (variations.py)
        self.branch_at: frozenset[tuple[int, int]] = frozenset()  # the turns that have variations
        self.before: dict[tuple[int, int], State] = {}  # the position before each of those turns
        self.unpaid: list[Unpaid] = []  # the coins of refused coin-stated purchases, for the errors they cause

    def _guilds(self) -> tuple[Card, ...] | None:
        if self.record.guilds is None:
            return None
        try:
            return dealing.guilds_of(self.record.players, tuple(self.record.guilds))
        except CatalogError as exc:
            self.findings.append(Finding("R-DECK", str(exc), "III.0", None, self.record.span))
            return None

    def mark(self) -> None:
        """Note that the position at the game's address is reached after the events so far."""
        self.marks[self.game.address] = len(self.events)

    def later(self, age: int, turn: int) -> bool:
        """Whether the record has a turn after ``age``.``turn``."""
        return any(k > (age, turn) for k in self.decoded.order)

    def push(self, events: Sequence[ev.Event], findings: Sequence[Finding]) -> None:
        self.events += events
        self.findings += findings

    def apply(self, events: Sequence[ev.Event]) -> None:
        for e in events:
            self.game.apply(e)
        self.events += events

    # ---

    def hands(self, age: int) -> dealing.Hands:
        if age in self.dealt:
            return self.dealt[age]
        n = self.record.players
        written, found = dealing.stated(self.record, age)
        self.findings += found
        where = f"{AGE_NUMERALS[age]}.0"
        seeded = self.seed_deal.hands[age - 1] if self.seed_deal is not None else None
        if written is not None:
            span = next(d.span for d in self.record.deals if d.age == age)
            self.findings += dealing.check_deck(age, n, self.guilds, dealing.hand_uses(age, written, span))
            if seeded is not None and any(w is not None and w is not s for wh, sh in zip(written, seeded)
                                          for w, s in zip(wh, sh)):
                self.findings.append(Finding("R-DECK", f"the deal of Age {AGE_NUMERALS[age]} differs from the "
                                             "deal of the record's seed; the written deal is used", where, None, span))
            if any(None in h for h in written):  # a partly known deal: the actions name some of its `?`
                return dealing.revealed(written, dealing.rebuild(age, n, self._plays_of(age))[0])
            return written
        if seeded is not None:
            return seeded
        plays = self._plays_of(age)
        if age == 3 and self.guilds is None and plays:
            self.findings.append(Finding("R-DECK", "the record names neither its guilds nor a seed: Age III's "
                                         "guilds are checked only for repeats and their number", where, None, None,
                                         "note", check_only=True))
        rebuilt, uses = dealing.rebuild(age, n, plays)
        self.findings += dealing.check_deck(age, n, self.guilds, [u for hand in uses for u in hand])
        return rebuilt

    def _plays_of(self, age: int) -> dict[int, list[Play]]:
        """The plays of ``age`` by turn number: what a deal is rebuilt from (a seeded or written deal needs none)."""
        return {t: ps for (a, t), ps in self.decoded.plays.items() if a == age}

    def run(self) -> None:
        first = 1 if self.begin is None else self.resume(self.start)
        for age in range(first, 4):
            if age == 1 and not any(a == 1 for a, _ in self.decoded.order):
                return  # the record plays no turn of Age I
            # An Age is dealt once the previous one is complete, even if the record stops there: the position at
            # the start of an Age (II.0) exists as soon as the game reaches it.
            self.apply(deal_events(age, self.hands(age)))
            self.mark()
            if not self.age(age):
                return

    def resume(self, start: State) -> int:
        """Play on from a record's start position (spec/position.md §8): the rest of its Age. Returns the next Age
        to deal, or 4 when there is none (the game is over, or the record stops). Turns before the start are
        reported and ignored (the reader refuses them: only Records made otherwise hold them)."""
        self.mark()
        for key in self.decoded.order:
            if key[0] < start.age or key[0] == start.age and (start.ended or key[1] <= start.turn):
                self.findings.append(Finding("R-TURN", f"turn {address(*key)} comes before the position the record "
                                             f"starts from ({start.address}); ignored", address(*key), None,
                                             self.decoded.spans.get(key)))
        if start.ended:
            return start.age + 1
        return start.age + 1 if self.age(start.age, start.turn + 1) else 4

    def age(self, age: int, first: int = 1) -> bool:
        """Play the turns from ``first`` on, the extra turn, the picks and military of ``age``; False if the record
        stops."""
        plays = self.decoded.plays
        marks = self.marks
        for t in range(first, 7):
            played = plays.get((age, t))
            if played is None:
                if self.later(age, t):
                    self.findings.append(Finding("R-TURN", f"turn {address(age, t)} is missing; the replay stops "
                                                 "here", address(age, t), None, None))
                return False
            self.turn(age, t, played)
            if t < 6:
                self.picks(age, ((t, played),), t)
            marks[self.game.address] = len(self.events)  # self.mark(), once a turn
        keepers = seats_to_act(self.game)
        if keepers:
            if (age, 7) in plays:
                self.turn(age, 7, plays[(age, 7)])
            elif self.later(age, 7):
                self.turn(age, 7, [])
            else:
                return False
            self.mark()
        elif (age, 7) in plays:
            for p in plays[(age, 7)]:
                self.findings.append(Finding("R-BABYLON-N1", f"{self.table.names[p.seat - 1]} plays an extra turn "
                                             "without a kept last card; ignored", address(age, 7), p.seat, p.span))
        # Picks earned on turn 6 or on the extra turn are built after the extra turn (R-HALI-LAST); a pick clause
        # on an extra-turn action is checked against the picks owed like any other.
        self.picks(age, ((6, plays.get((age, 6), ())), (7, plays.get((age, 7), ()))), "end")
        self.apply(end_age(self.game))
        self.mark()
        return True

    def turn(self, age: int, number: int, plays: list[Play]) -> None:
        """Resolve one turn; a finding about no particular action (a missing one) gets the turn's span."""
        if (age, number) in self.branch_at:  # where its variations start from
            self.before[(age, number)] = self.game.snapshot()
        events, findings = play_turn(self.game, plays)
        span = self.decoded.spans.get((age, number)) if findings else None
        if span is not None:
            findings = [f if f.span is not None else replace(f, span=span) for f in findings]
        if self.unpaid and findings:
            findings = [self._caused(f) for f in findings]
        self.events += events  # self.push(events, findings), once a turn
        self.findings += findings
        for p in plays:
            if isinstance(p.purchase, Coins):  # only a purchase stated in coins can leave coins unpaid
                self._note_unpaid((age, number), plays, events)
                break

    def _note_unpaid(self, key: tuple[int, int], plays: Sequence[Play], events: Sequence[ev.Event]) -> None:
        """Note the coins that a purchase stated in coins (7WN 2) on turn ``key`` would have paid each neighbour
        when it was refused (nothing paid): the neighbour is short of them later."""
        n = self.record.players
        for p in plays:
            stated = p.purchase
            if not isinstance(stated, Coins) or not (stated.left or stated.right):
                continue
            if any(isinstance(e, ev.CoinsPaid) and e.seat == p.seat and e.to is not None for e in events):
                continue  # paid as stated
            for to, coins in ((left_of(p.seat, n), stated.left), (right_of(p.seat, n), stated.right)):
                if coins:
                    self.unpaid.append(Unpaid(key, p.seat, to, coins))

    def _caused(self, f: Finding) -> Finding:
        """``f``, an error for want of coins (R-COST-COINS) of a seat that an earlier refused purchase did not pay,
        naming that cause: "…, has 3: 2 coins of I.3 from Ann were not paid, that purchase was refused"."""
        if f.rule != "R-COST-COINS" or f.seat is None:
            return f
        owed = [u for u in self.unpaid if u.to == f.seat]
        if not owed:
            return f
        names = self.table.names
        parts = [f"{u.coins} coin{'' if u.coins == 1 else 's'} of {address(*u.key)} from {names[u.payer - 1]}"
                 for u in owed]
        listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        one = len(owed) == 1
        verb = ("was" if owed[0].coins == 1 else "were") if one else "were"
        which = "that purchase was" if one else "those purchases were"
        return replace(f, message=f"{f.message}: {listed} {verb} not paid, {which} refused")

    def picks(self, age: int, turns: tuple[tuple[int, Sequence[Play]], ...], at: int | str) -> None:
        """The builds from the discard pile owed after ``turns`` (``(turn number, plays)`` pairs), at ``age``.``at``
        (a turn number, or ``end``: the address is spelt only when a pick is owed), with every pick clause written
        on those plays checked against the picks owed (R-HALI). An owed seat's first clause (on a play that
        counted) is its choice; a clause of a seat owed nothing, or a later clause of an owed seat on another turn,
        is reported and ignored."""
        seats = picks_owed(self.game)
        if not seats:
            picked = self.decoded.picked
            for t, _ in turns:
                if picked.get((age, t)):
                    break
            else:
                return  # the common case: nobody is owed a pick and the record writes none
        owed = set(seats)
        choices: dict[int, tuple[str | None, ...]] = {}
        # A pick's findings sit at its pick clause, or at the seat's action (the stage that earned the pick) when
        # the record writes no clause; a seat's first play is the one that counted (a second is ignored).
        spans: dict[int, Span | None] = {}
        for _, plays in turns:
            for p in plays:
                spans.setdefault(p.seat, p.pick_span or p.span)
        for t, plays in turns:
            counted: set[int] = set()
            for p in plays:
                first = p.seat not in counted
                counted.add(p.seat)
                if not p.pick:
                    continue
                if p.seat in owed:
                    if not first:
                        continue  # a second play in one turn is ignored (R-TURN), its clause with it
                    if p.seat not in choices:
                        choices[p.seat] = p.pick
                        spans[p.seat] = p.pick_span or p.span
                        continue
                self.findings.append(Finding("R-HALI", f"{self.table.names[p.seat - 1]} has no build from the "
                                             "discard pile this turn; the pick is ignored", address(age, t),
                                             p.seat, p.pick_span))
        if owed:
            self.push(*play_picks(self.game, choices, address(age, at), spans))
