"""Which plays mattered (issue 33, item 2): each seat's action against the best alternative of the same turn.

For a turn, each seat's recorded action and each of its alternatives (:func:`.rollout.alternatives`) are played
with the other seats' actions of the turn kept as recorded (the turn is simultaneous), by replaying that one turn
from the position before it (a record that starts there, spec/position.md §8), so that every card the whole record
reveals of the hands is known to the played action and to each alternative alike (a partial record's turns cut
from the record would forget the cards of later turns); where a position cannot start a record (a seat owed a
build from the pile), the record cut after that turn is replayed instead, for all of them. The position reached is
rated by :func:`.winchance.estimate` with the same playout streams for every alternative (common random numbers,
so that the differences are not noise of different deals). The loss is the best alternative's chance less the
played one's, classed as spec/7wn.md §8.4 says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..model.catalog import AGE_NUMERALS
from ..engine import State, replay
from ..engine.position import to_string
from ..model.record import FORMAT_VERSIONS, POSITION_TAG, Action, Annotation, Record, Tag, Turn
from .rollout import alternatives, as_action
from .winchance import Analysis, estimate, picked_later

#: Losses of win chance (0..1) from which an action is an inaccuracy, a mistake, a blunder (spec/7wn.md §8.4).
THRESHOLDS = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))


@dataclass(frozen=True, slots=True)
class Mark:
    """One seat's action of one turn: its win chance after it, the best alternative's and its class (or None)."""

    age: int
    turn: int
    seat: int
    chance: float
    best: str
    best_chance: float
    playouts: int

    @property
    def loss(self) -> float:
        return max(0.0, self.best_chance - self.chance)

    @property
    def label(self) -> str | None:
        return classify(self.loss)


def classify(loss: float) -> str | None:
    """The class of a loss of win chance (spec/7wn.md §8.4): blunder from 0.15, mistake from 0.10, inaccuracy from
    0.05, else ``None``."""
    for name, limit in THRESHOLDS:
        if loss >= limit - 1e-12:
            return name
    return None


def _after(record: Record, k: int, seat: int, action: Action) -> Record:
    turns = list(record.turns[: k + 1])
    turn = turns[k]
    turns[k] = turn.model_copy(update={"actions": tuple(action if a.seat == seat else a for a in turn.actions)})
    return record.model_copy(update={"turns": tuple(turns), "results": ()})


def _starting(record: Record, state: State, turn: Turn) -> Record | None:
    """A record of ``turn`` alone, starting from ``state`` (the position before it), or ``None`` when that
    position cannot start a record (spec/position.md §8: a seat owed a build from the pile)."""
    try:
        return Record(format=FORMAT_VERSIONS[-1], edition=record.edition, seats=record.seats,
                      tags=(Tag(name=POSITION_TAG, value=to_string(state)),),
                      turns=(turn.model_copy(update={"variations": ()}),))
    except ValueError:
        return None


def _reach(record: Record, k: int, start: Record | None) -> Callable[[int, Action], State | None]:
    """The position after turn ``k`` with one seat's action replaced, every action of the turn reached the same
    way: from ``start`` (:func:`_starting`) when there is one, else by the record cut after the turn."""
    turn = record.turns[k]
    after = f"{AGE_NUMERALS[turn.age]}.{turn.number}"

    def reach(seat: int, action: Action) -> State | None:
        if start is not None:
            actions = tuple(action if a.seat == seat else a for a in turn.actions)
            cut = start.model_copy(update={"turns": (start.turns[0].model_copy(update={"actions": actions}),)})
        else:
            cut = _after(record, k, seat, action)
        played = replay(cut)
        return played.position(after) if after in played.positions else None

    return reach


def marks(record: Record, playouts: int, seed: int = 0, done: Callable[[int, int], None] | None = None
          ) -> tuple[Mark, ...]:
    """A :class:`Mark` for every action of the record's main line (``done(k, total)`` after each turn)."""
    played = replay(record)
    out: list[Mark] = []
    total = len(record.turns)
    for k, turn in enumerate(record.turns):
        before = f"{AGE_NUMERALS[turn.age]}.{turn.number - 1}"
        after = f"{AGE_NUMERALS[turn.age]}.{turn.number}"
        if before not in played.positions or after not in played.positions:
            continue
        state = played.position(before)
        reach = _reach(record, k, _starting(record, state, turn))
        reached = reach(turn.actions[0].seat, turn.actions[0]) if turn.actions else None
        if reached is None:
            continue
        pile = picked_later(played, after)
        chances = estimate(reached, playouts, seed, k, pile=pile)
        for action in turn.actions:
            mine = chances[action.seat - 1].chance
            best, best_chance = f"{action.use} {action.card}", mine
            for alt in alternatives(state, action.seat):
                other = as_action(alt, turn.number)
                if other.use == action.use and other.card == action.card and other.discard == action.discard:
                    continue
                position = reach(action.seat, other)
                if position is None:
                    continue
                got = estimate(position, playouts, seed, k, pile=pile)[action.seat - 1].chance
                if got > best_chance:
                    best, best_chance = f"{other.use} {other.card}", got
            out.append(Mark(turn.age, turn.number, action.seat, mine, best, best_chance, playouts))
        if done is not None:
            done(k + 1, total)
    return tuple(out)


#: The computed tags (spec/7wn.md §8.4): analysis writes only these keys and replaces only these.
WIN_TAG, MARK_TAG = "win", "mark"


def win_value(chances: Sequence[float], playouts: int) -> str:
    """``[%win]``'s value: each seat's chance after the turn in seat order, then the playouts (``n=``)."""
    return " ".join(f"{c:.3f}" for c in chances) + f" n={playouts}"


def mark_value(m: Mark) -> str:
    """``[%mark]``'s value: the class, the loss of win chance, the best alternative as written in a turn line."""
    return f"{m.label} -{m.loss:.3f} {m.best}"


def _tagged(annotation: Annotation, key: str, value: str | None) -> Annotation:
    tags = tuple(t for t in annotation.tags if t[0] != key) + (((key, value),) if value is not None else ())
    return annotation.model_copy(update={"tags": tags})


def annotate(record: Record, found: Sequence[Analysis], marked: Sequence[Mark] = ()) -> Record:
    """``record`` with the computed tags of spec/7wn.md §8.4: ``[%win]`` on each turn whose end was analysed,
    ``[%mark]`` on each action classed. A human's glyphs, comments and other tags are kept as they are; earlier
    computed tags of those keys are replaced."""
    chances = {a.where: a for a in found}
    labels = {(m.age, m.turn, m.seat): m for m in marked if m.label is not None}
    turns = []
    for turn in record.turns:
        at = chances.get(f"{AGE_NUMERALS[turn.age]}.{turn.number}")
        note = turn.annotation
        if at is not None:
            n = max(e.playouts for e in at.estimates)
            note = _tagged(note, WIN_TAG, win_value([e.chance for e in at.estimates], n))
        actions = []
        for action in turn.actions:
            m = labels.get((turn.age, turn.number, action.seat))
            if m is not None:
                action = action.model_copy(update={"annotation": _tagged(action.annotation, MARK_TAG,
                                                                          mark_value(m))})
            actions.append(action)
        turns.append(turn.model_copy(update={"annotation": note, "actions": tuple(actions)}))
    return record.model_copy(update={"turns": tuple(turns)})
