"""The record a session is building, and what the engine says of it: the complete turns, the current turn's
actions, the picks and guilds answered, replayed only when they change. Where the game stands (the turn being
entered, its starting position, the seats to act), which guilds the record states and which build from the discard
pile is still owed are read here; asking and answering is :mod:`.entry`'s and :mod:`.owed`'s, taking answers back
:mod:`.history`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..formats.canonical import canonical_purchases
from ..engine import Finding, Game, Replay, State, picks_owed, replay, seats_to_act, view
from ..engine import events as ev
from ..model.catalog import load
from ..model.record import POSITION_TAG, Action, Pick, Purchase, Record, SeatResult, Turn, Use
from ..model.vocabulary import RESULT_FIELDS, numeral, turn_label
from ..notation import write
from . import report
from .choices import Play

__all__ = ["Confirm", "Draft", "Progress", "finding_key", "same", "subtract"]


@dataclass(slots=True)
class Draft:
    """The action of the seat being entered, before its purchase or last-card questions are answered."""

    seat: int
    play: Play | None
    use: Use
    card: str
    purchase: Purchase | None = None
    purchase_asked: bool = False
    keep: bool | None = None  # None: not asked (or not allowed)
    discard: str | None = None
    typed: str = ""
    accepted: frozenset[tuple[str, str, str, int | None]] = frozenset()  # errors the user confirmed


@dataclass(frozen=True, slots=True)
class Confirm:
    """An answer with errors, waiting for the user's explicit yes: ``kind`` ``action`` (the play, judged before its
    other questions), ``last`` (the whole action once they are answered) or ``pick`` (``card`` from the discard pile
    for the stage of turn ``index``); ``what`` names it in the question."""

    kind: str
    seat: int
    label: str
    what: str
    errors: tuple[Finding, ...]
    draft: Draft | None = None
    index: int = 0
    card: str | None = None


class Progress:
    """The state of a recording: ``header`` (roster and tags), ``turns`` (complete), ``entered`` (the current turn's
    finished actions), ``draft`` and ``confirm`` (the answer in hand), ``picks_done`` and ``guilds_answer``, and
    ``view`` (the recorder's seat, or ``None``). Every change to ``turns`` or ``guilds_answer`` calls
    :meth:`changed`, which is what the replays are keyed by."""

    def __init__(self, header: Record, turns: Sequence[Turn], view: int | None) -> None:
        self.header = header.model_copy(update={"turns": (), "results": ()})
        self.turns: list[Turn] = list(turns)
        self.view = view
        self.entered: list[Action] = []
        self.draft: Draft | None = None
        self.confirm: Confirm | None = None  # an answer with errors waiting for an explicit yes
        # (turn index, seat, complete turns when answered) of each pick answered, in order
        self.picks_done: list[tuple[int, int, int]] = []
        # The game's guilds as answered at the end of Age III (``()``: not known, the tag left out); ``None``: not
        # asked. A record opened with results was finished: its guilds are not asked again.
        self.guilds_answer: tuple[str, ...] | None = () if header.results and header.guilds is None else None
        # Replays are keyed by ``version`` (bumped whenever ``turns`` changes) and the identity of the partial
        # turn's actions: hashing Records would cost more than replaying them.
        self.version = 0
        self._played: tuple[int, Replay] | None = None
        self._partial: dict[tuple[int, tuple[int, ...]], tuple[tuple[Action, ...], Replay]] = {}

    # --- replays -----------------------------------------------------------------------------------------------

    def replay(self) -> Replay:
        """The replay of the complete turns (kept until they change)."""
        if self._played is None or self._played[0] != self.version:
            self._played = (self.version, replay(self.game_header().model_copy(update={"turns": tuple(self.turns)})))
        return self._played[1]

    def changed(self) -> None:
        """Note that :attr:`turns` changed (every change to it goes through here)."""
        self.version += 1

    def with_actions(self, actions: Sequence[Action]) -> Replay:
        """The replay of the complete turns and the current turn holding ``actions`` (possibly none)."""
        where = self.current()
        assert where is not None
        held = tuple(actions)
        key = (self.version, tuple(id(a) for a in held))
        found = self._partial.pop(key, None)
        if found is None or not same(found[0], held):
            turns = tuple(self.turns) + (Turn(age=where[0], number=where[1], actions=held),)
            found = (held, replay(self.game_header().model_copy(update={"turns": turns})))
        self._partial[key] = found  # most recent last; holding the actions keeps their ids unique
        while len(self._partial) > 4:
            del self._partial[next(iter(self._partial))]
        return found[1]

    # --- where the game stands ---------------------------------------------------------------------------------

    def current(self) -> tuple[int, int] | None:
        """The turn being entered, ``(age, number)``, or ``None`` once the game is over."""
        if not self.turns:
            return (1, 1)
        last = self.turns[-1]
        if last.number < 6:
            return (last.age, last.number + 1)
        if last.number == 6 and seats_to_act(self.replay().position(turn_label(last.age, 6))):
            return (last.age, 7)
        return (last.age + 1, 1) if last.age < 3 else None

    def start(self) -> State:
        """The position the current turn is played from, as the record with the actions entered so far shows it."""
        age, number = self.current() or (3, 7)
        return self.with_actions(self.entered).position(f"{numeral(age)}.{number - 1}")

    def acting(self) -> tuple[int, ...]:
        where = self.current()
        return () if where is None else seats_to_act(self.start())

    def hidden(self, seat: int) -> bool:
        """Whether ``seat``'s hidden cards are out of the recorder's view."""
        return self.view is not None and seat != self.view

    def seen(self, state: State) -> State:
        """``state`` as the recorder's seat sees it (all of it without a seat view)."""
        return view(state, self.view) if self.view is not None else state

    # --- guilds ------------------------------------------------------------------------------------------------

    def guilds_fixed(self) -> bool:
        """Whether the header settles the guilds already (a ``[Guilds]`` or ``[Seed]`` tag) or leaves them to its
        ``[Position]`` (spec/position.md §8): nothing to write or ask."""
        h = self.header
        return h.guilds is not None or h.seed is not None or h.tag(POSITION_TAG) is not None

    def seen_guilds(self) -> tuple[str, ...]:
        """The guilds the complete turns name (built, staged, sold, discarded or picked face up), in catalogue
        order."""
        names = {g.name for g in load().guilds}
        seen = {n for t in self.turns if t.age == 3 for a in t.actions
                for n in (a.card, a.discard, a.pick.card if a.pick else None) if n in names}
        return tuple(g.name for g in load().guilds if g.name in seen)

    def guilds(self) -> tuple[str, ...] | None:
        """The game's guilds as the record will state them (``[Guilds]``): the header's, the answer at the end of
        Age III, or the N+2 guilds seen; ``None`` while not known."""
        if self.header.guilds is not None or self.guilds_fixed():
            return self.header.guilds
        if self.guilds_answer:
            return self.guilds_answer
        seen = self.seen_guilds()
        return seen if len(seen) == self.header.players + 2 else None

    def game_header(self) -> Record:
        guilds = self.guilds()
        return self.header if guilds == self.header.guilds else self.header.model_copy(update={"guilds": guilds})

    def guilds_owed(self) -> bool:
        """Whether the guilds are asked now: the game is played out (its picks answered), they are not known, fewer
        than N+2 were seen, and they were not asked before."""
        if self.guilds_fixed() or self.guilds_answer is not None or self.current() is not None:
            return False
        return len(self.seen_guilds()) < self.header.players + 2 and self.pending_pick() is None

    # --- picks -------------------------------------------------------------------------------------------------

    def before_picks(self, age: int, after: int) -> Game | None:
        """The game just after turn ``after`` of ``age`` and its incomes, before the builds from the discard pile
        (for turn 6, after the extra turn if any), as the complete turns replay; ``None`` if not reached."""
        played = self.replay()
        if after < 6:
            start, end = f"{numeral(age)}.{after - 1}", f"{numeral(age)}.{after}"
        else:
            start = f"{numeral(age)}.7" if f"{numeral(age)}.7" in played.marks else f"{numeral(age)}.6"
            end = f"{numeral(age)}.end"
        if start not in played.marks or end not in played.marks:
            return None
        game = Game(played.position(start))
        for e in played.events[played.marks[start]:played.marks[end]]:
            if isinstance(e, (ev.PickedFromDiscard, ev.PickDeclined, ev.ConflictResolved, ev.AgeEnded)):
                break
            game.apply(e)
        return game

    def pending_pick(self) -> tuple[int, int, Game] | None:
        """``(turn index, seat, game before the picks)`` of a build from the discard pile owed and not yet
        answered: after a turn 1-5 at once, after turn 6 once the extra turn (if any) is played (R-HALI-LAST)."""
        if not self.turns:
            return None
        last = self.turns[-1]
        if last.number == 6 and self.current() == (last.age, 7):
            return None
        after = min(last.number, 6)
        game = self.before_picks(last.age, after)
        if game is None:
            return None
        for seat in picks_owed(game):
            for k in range(len(self.turns) - 1, -1, -1):
                turn = self.turns[k]
                if turn.age != last.age or turn.number < after:
                    break
                action = next((a for a in turn.actions if a.seat == seat and a.use == "stage"), None)
                if action is not None:
                    if action.pick is None:
                        return k, seat, game
                    break
        return None

    def set_pick(self, k: int, seat: int, card: str | None) -> None:
        """Record ``card`` (``None``: declined) as the pick of ``seat``'s stage in turn ``k``."""
        turn = self.turns[k]
        self.turns[k] = turn.model_copy(update={"actions": tuple(
            a.model_copy(update={"pick": Pick(card=card)}) if a.seat == seat and a.use == "stage" and a.pick is None
            else a for a in turn.actions)})
        self.changed()

    # --- the record --------------------------------------------------------------------------------------------

    def record(self) -> Record:
        """The record of the complete turns (and picks), with the ``[Guilds]`` tag once the guilds are known and
        its results once the game is over (its picks and guilds answered)."""
        rec = self.game_header().model_copy(update={"turns": tuple(self.turns)})
        played = self.replay()
        if (played.complete and self.pending_pick() is None and not self.guilds_owed()
                and played.scores is not None):
            results = tuple(SeatResult(seat=ln.seat, **{f: getattr(ln, f) for f in RESULT_FIELDS})
                            for ln in played.scores.lines)
            rec = rec.model_copy(update={"results": results})
        return rec

    def text(self) -> str:
        """The canonical 7WN text of :meth:`record` (purchases as the canonical form states them)."""
        return write(canonical_purchases(self.record(), self.replay()))

    # --- the answer in hand ------------------------------------------------------------------------------------

    def hold(self, c: Confirm) -> tuple[str, ...]:
        """Hold ``c`` for the user's yes, nothing recorded yet: the errors to show."""
        self.confirm = c
        self.draft = None
        return tuple(report.finding(f) for f in c.errors)

    def seat_name(self, seat: int) -> str:
        return self.header.seats[seat - 1].name

    def name(self, seat: int) -> str:
        """The seat as the questions name it: ``Ada (Babylon night)``."""
        s = self.header.seats[seat - 1]
        return f"{s.name} ({s.wonder} {s.side})"


def finding_key(f: Finding) -> tuple[str, str, str, int | None]:
    return f.rule, f.message, f.address, f.seat


def same(a: tuple[Action, ...], b: tuple[Action, ...]) -> bool:
    """Whether two tuples hold the very same actions (identity: cheaper than comparing Records)."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def subtract(after: Sequence[Finding], before: Sequence[Finding]) -> list[Finding]:
    """The findings of ``after`` that ``before`` does not hold (as many times as it holds them)."""
    left = Counter(finding_key(f) for f in before)
    out = []
    for f in after:
        k = finding_key(f)
        if left[k]:
            left[k] -= 1
        else:
            out.append(f)
    return out
