"""A recording session: the Record being built at the table, and the engine's answers at its current position.

The session asks one :class:`Question` at a time (a seat's action, a purchase among the cheapest ones, whether to
keep the last card, turn 6's discard, Halikarnassos' pick), each exactly when the rules call for it, and takes the
answer as text (:meth:`Session.answer`). Every answer is judged by replaying the record with it: the findings are
the engine's, shown at once with their rule IDs, and an action (or a pick) with an error is recorded only after an
explicit confirmation that names the errors (``record Loom for Ada with 2 errors (R-DECK, R-UNIQUE)? [y/N]``: ``y``
records it as played, as a record may hold an illegal play; any other answer cancels it); the turn summary lists
every finding recorded. ``undo`` takes back the last answer, ``redo`` puts back what undo took. The ``[Guilds]`` tag
is written once the guilds are known: all N+2 seen, or asked once at the end of Age III. After each turn the file
is rewritten atomically in canonical 7WN, so a crash loses at most the turn being entered; a session opened on an
unfinished record goes on where it stopped. Nothing here reads a keyboard or draws a screen: see :mod:`.ui`.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..support.atomicfile import write_atomic
from ..formats.canonical import canonical_purchases
from ..model.catalog import Card, load
from ..engine import Finding, Game, Replay, State, pick_options, picks_owed, replay, seats_to_act, view
from ..engine import events as ev
from ..engine.findings import about_the_deck, asks_for_a_pick, blocks_the_play
from ..notation import parse, write
from ..model.record import POSITION_TAG, UNKNOWN, Action, Pick, Purchase, Record, SeatResult, Turn, Use
from ..model.vocabulary import RESULT_FIELDS, numeral, turn_label
from . import choices, report
from .choices import Choice, EntryError, Play

__all__ = ["Question", "REDO", "Reply", "Session", "UNDO", "UNDO_TURN"]

UNDO = "undo"
UNDO_TURN = "undo turn"
REDO = "redo"
DECLINE = "-"
YES = ("y", "yes")
_HELD = " (the file holds the turns before it)"


@dataclass(frozen=True, slots=True)
class Question:
    """What the session asks next. ``kind`` is ``action``, ``purchase``, ``keep``, ``discard``, ``pick``,
    ``confirm`` (record an answer with errors?) or ``guilds`` (the game's guilds, at the end of Age III); ``label``
    the turn (``II.3``); ``choices`` the completions in the engine's order; ``default`` what an empty answer means
    (``""``: an answer is needed; a ``confirm`` question takes an empty answer as no); ``intro`` lines to show
    before the prompt (the purchases of a purchase question)."""

    kind: str
    seat: int
    label: str
    prompt: str
    choices: tuple[Choice, ...]
    default: str = ""
    intro: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Reply:
    """What an answer did: ``accepted`` (false: the same question is asked again) and lines to show the user."""

    accepted: bool
    lines: tuple[str, ...] = ()


@dataclass(slots=True)
class _Draft:
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
class _Confirm:
    """An answer with errors, waiting for the user's explicit yes: ``kind`` ``action`` (the play, judged before its
    other questions), ``last`` (the whole action once they are answered) or ``pick`` (``card`` from the discard pile
    for the stage of turn ``index``); ``what`` names it in the question."""

    kind: str
    seat: int
    label: str
    what: str
    errors: tuple[Finding, ...]
    draft: _Draft | None = None
    index: int = 0
    card: str | None = None


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """What undo changes, kept so that redo can put it back."""

    turns: tuple[Turn, ...]
    entered: tuple[Action, ...]
    draft: _Draft | None
    picks_done: tuple[tuple[int, int, int], ...]
    guilds: tuple[str, ...] | None
    lines: tuple[str, ...]


def _key(f: Finding) -> tuple[str, str, str, int | None]:
    return f.rule, f.message, f.address, f.seat


class Session:
    """A game being recorded. ``header`` is the Record's roster and tags; ``turns`` the complete turns so far (an
    unfinished record); ``view`` the seat whose view the recorder has (others' hidden cards default to ``?``);
    ``path`` the file rewritten after every turn (``None``: nowhere)."""

    def __init__(self, header: Record, turns: Sequence[Turn] = (), *, view: int | None = None,
                 path: str | None = None) -> None:
        if view is not None and not 1 <= view <= header.players:
            raise ValueError(f"seat {view} is not at the table (seats 1 to {header.players})")
        self.header = header.model_copy(update={"turns": (), "results": ()})
        self.turns: list[Turn] = list(turns)
        self.view = view
        self.path = path
        self.entered: list[Action] = []  # the current turn's finished actions
        self.draft: _Draft | None = None
        self.confirm: _Confirm | None = None  # an answer with errors waiting for an explicit yes
        # (turn index, seat, complete turns when answered) of each pick answered, in order
        self.picks_done: list[tuple[int, int, int]] = []
        self.redo: list[_Snapshot] = []  # what each undo took, the latest last; a new answer clears it
        # The game's guilds as answered at the end of Age III (``()``: not known, the tag left out); ``None``: not
        # asked. A record opened with results was finished: its guilds are not asked again.
        self.guilds_answer: tuple[str, ...] | None = () if header.results and header.guilds is None else None
        # Replays are keyed by ``version`` (bumped whenever ``turns`` changes) and the identity of the partial
        # turn's actions: hashing Records would cost more than replaying them.
        self.version = 0
        self._played: tuple[int, Replay] | None = None
        self._partial: dict[tuple[int, tuple[int, ...]], tuple[tuple[Action, ...], Replay]] = {}
        self._plays: tuple[tuple[object, ...], tuple[Action, ...], tuple[Play, ...]] | None = None

    # --- opening and saving --------------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str, *, view: int | None = None) -> Session:
        """A session on the record in ``path`` (an unfinished game goes on after its last turn). Raises
        ``NotationError`` when the file is not one readable game, ``OSError`` when it cannot be read."""
        with open(path, encoding="utf-8") as handle:
            record = parse(handle.read(), source=path)
        return cls(record, record.turns, view=view, path=path)

    @property
    def record(self) -> Record:
        """The record of the complete turns (and picks), with the ``[Guilds]`` tag once the guilds are known and
        its results once the game is over (its picks and guilds answered)."""
        rec = self._game_header().model_copy(update={"turns": tuple(self.turns)})
        played = self._replay()
        if (played.complete and self._pending_pick() is None and not self._guilds_owed()
                and played.scores is not None):
            results = tuple(SeatResult(seat=ln.seat, **{f: getattr(ln, f) for f in RESULT_FIELDS})
                            for ln in played.scores.lines)
            rec = rec.model_copy(update={"results": results})
        return rec

    def text(self) -> str:
        """The canonical 7WN text of :attr:`record` (purchases as the canonical form states them)."""
        return write(canonical_purchases(self.record, self._replay()))

    def save(self) -> None:
        """Rewrite the file atomically (nothing when the session has no path). Raises ``OSError``."""
        if self.path is not None:
            write_atomic(self.path, self.text())

    # --- replays -----------------------------------------------------------------------------------------------

    def _replay(self) -> Replay:
        """The replay of the complete turns (kept until they change)."""
        if self._played is None or self._played[0] != self.version:
            self._played = (self.version, replay(self._game_header().model_copy(update={"turns": tuple(self.turns)})))
        return self._played[1]

    def _changed(self) -> None:
        """Note that :attr:`turns` changed (every change to it goes through here)."""
        self.version += 1

    def _with(self, actions: Sequence[Action]) -> Replay:
        """The replay of the complete turns and the current turn holding ``actions`` (possibly none)."""
        where = self.current()
        assert where is not None
        held = tuple(actions)
        key = (self.version, tuple(id(a) for a in held))
        found = self._partial.pop(key, None)
        if found is None or not _same(found[0], held):
            turns = tuple(self.turns) + (Turn(age=where[0], number=where[1], actions=held),)
            found = (held, replay(self._game_header().model_copy(update={"turns": turns})))
        self._partial[key] = found  # most recent last; holding the actions keeps their ids unique
        while len(self._partial) > 4:
            del self._partial[next(iter(self._partial))]
        return found[1]

    def current(self) -> tuple[int, int] | None:
        """The turn being entered, ``(age, number)``, or ``None`` once the game is over."""
        if not self.turns:
            return (1, 1)
        last = self.turns[-1]
        if last.number < 6:
            return (last.age, last.number + 1)
        if last.number == 6 and seats_to_act(self._replay().position(turn_label(last.age, 6))):
            return (last.age, 7)
        return (last.age + 1, 1) if last.age < 3 else None

    def start(self) -> State:
        """The position the current turn is played from, as the record with the actions entered so far shows it."""
        age, number = self.current() or (3, 7)
        return self._with(self.entered).position(f"{numeral(age)}.{number - 1}")

    def acting(self) -> tuple[int, ...]:
        where = self.current()
        return () if where is None else seats_to_act(self.start())

    # --- guilds ------------------------------------------------------------------------------------------------

    def _guilds_fixed(self) -> bool:
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
        if self.header.guilds is not None or self._guilds_fixed():
            return self.header.guilds
        if self.guilds_answer:
            return self.guilds_answer
        seen = self.seen_guilds()
        return seen if len(seen) == self.header.players + 2 else None

    def _game_header(self) -> Record:
        guilds = self.guilds()
        return self.header if guilds == self.header.guilds else self.header.model_copy(update={"guilds": guilds})

    def _guilds_owed(self) -> bool:
        """Whether the guilds are asked now: the game is played out (its picks answered), they are not known, fewer
        than N+2 were seen, and they were not asked before."""
        if self._guilds_fixed() or self.guilds_answer is not None or self.current() is not None:
            return False
        return len(self.seen_guilds()) < self.header.players + 2 and self._pending_pick() is None

    # --- picks -------------------------------------------------------------------------------------------------

    def _before_picks(self, age: int, after: int) -> Game | None:
        """The game just after turn ``after`` of ``age`` and its incomes, before the builds from the discard pile
        (for turn 6, after the extra turn if any), as the complete turns replay; ``None`` if not reached."""
        played = self._replay()
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

    def _pending_pick(self) -> tuple[int, int, Game] | None:
        """``(turn index, seat, game before the picks)`` of a build from the discard pile owed and not yet
        answered: after a turn 1-5 at once, after turn 6 once the extra turn (if any) is played (R-HALI-LAST)."""
        if not self.turns:
            return None
        last = self.turns[-1]
        if last.number == 6 and self.current() == (last.age, 7):
            return None
        after = min(last.number, 6)
        game = self._before_picks(last.age, after)
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

    # --- questions ---------------------------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        s = self.header.seats[seat - 1]
        return f"{s.name} ({s.wonder} {s.side})"

    def _hidden(self, seat: int) -> bool:
        return self.view is not None and seat != self.view

    def _seen(self, state: State) -> State:
        return view(state, self.view) if self.view is not None else state

    def question(self) -> Question | None:
        """The next question, or ``None`` once the record is complete."""
        c = self.confirm
        if c is not None:
            rules = ", ".join(dict.fromkeys(f.rule for f in c.errors))
            n = len(c.errors)
            name = self.header.seats[c.seat - 1].name
            return Question("confirm", c.seat, c.label, f"{c.label} record {c.what} for {name} with {n} "
                            f"error{'s' if n != 1 else ''} ({rules})? [y/N]",
                            (Choice("y", "record it as played"), Choice("n", "cancel")))
        pending = self._pending_pick()
        if pending is not None:
            k, seat, game = pending
            cards = pick_options(game, seat)
            opts = tuple(Choice(c.name) for c in cards) + (Choice(DECLINE, "declines the pick"),)
            label = self.turns[k].label
            return Question("pick", seat, label, f"{label} {self.name(seat)} builds from the discard pile", opts)
        if self._guilds_owed():
            seen = self.seen_guilds()
            n = self.header.players + 2
            unseen = tuple(Choice(g.name) for g in load().guilds if g.name not in seen)
            shown = ", ".join(seen) if seen else "none"
            left = n - len(seen)
            return Question("guilds", 0, "III.end", f"III.end name the {left} other guild{'s' if left != 1 else ''} "
                            "(commas between; - if not known)", unseen + (Choice(DECLINE, "not known: no [Guilds] tag"),),
                            intro=(f"the game's {n} guilds: {len(seen)} seen ({shown})",))
        where = self.current()
        if where is None:
            return None
        label = turn_label(*where)
        d = self.draft
        if d is not None:
            if d.play is not None and len(d.play.purchases) > 1 and not d.purchase_asked:
                opts = tuple(Choice(str(k), f"{o.text} {report.coins(o.coins)}" + (" (default)" if o.default else ""))
                             for k, o in enumerate(d.play.purchases, 1))
                intro = tuple(f"  {c.text}  {c.note}" for c in opts)
                return Question("purchase", d.seat, label, f"{label} {self.name(d.seat)} {self._what(d)}: purchase",
                                opts, "1", intro)
            if where[1] == 6 and d.keep is None and d.play is not None and d.play.keeps:
                return Question("keep", d.seat, label, f"{label} {self.name(d.seat)} keeps the last card for the "
                                "extra turn (R-BABYLON-N1)?", (Choice("y", "keep it"), Choice("n", "discard it")), "y")
            if where[1] == 6 and not d.keep and d.discard is None:
                cards = self._left_in_hand(d)
                opts = choices.card_choices(cards)
                return Question("discard", d.seat, label, f"{label} {self.name(d.seat)} discards the last card",
                                opts, UNKNOWN)
        seat = self._next_seat()
        offered = self.offered(seat)
        state = self.start()
        coins = state.cities[seat - 1].coins
        return Question("action", seat, label, f"{label} {self.name(seat)} [{report.coins(coins)}]",
                        tuple(Choice(p.text, p.note) for p in offered))

    def _what(self, d: _Draft) -> str:
        """The play of a draft as the questions name it: the card, ``stage 2 (Loom)``, ``sell ?``."""
        if d.use == "stage":
            stage = self.start().cities[d.seat - 1].stages + 1
            return f"stage {stage}" + (f" ({d.card})" if d.card != UNKNOWN else "")
        return d.card if d.use == "build" else f"{d.use} {d.card}"

    def offered(self, seat: int) -> tuple[Play, ...]:
        """What ``seat`` may be recorded as playing in the current turn (:func:`.choices.plays`, through the seat
        view if any), kept until the record or the current turn changes."""
        key = (self.version, seat, self.view)
        held = tuple(self.entered)
        if self._plays is None or self._plays[0] != key or not _same(self._plays[1], held):
            self._plays = (key, held, choices.plays(self._seen(self.start()), seat, hidden=self._hidden(seat)))
        return self._plays[2]

    def _next_seat(self) -> int:
        done = {a.seat for a in self.entered}
        return next(s for s in self.acting() if s not in done)

    def _left_in_hand(self, d: _Draft) -> tuple[Card, ...]:
        """The cards the seat may have left after its turn-6 play (its hand known: the one card)."""
        state = self._seen(self.start())
        cards = list(choices.possible_cards(state, d.seat))
        known, complete = choices.hand(state, d.seat)
        if complete:
            rest = list(known)
            for c in rest:
                if c.name == d.card:
                    rest.remove(c)
                    break
            return tuple(rest)
        return tuple(cards)

    # --- answers -----------------------------------------------------------------------------------------------

    def answer(self, text: str) -> Reply:
        """Take ``text`` as the answer to :meth:`question` (``undo``, ``undo turn`` and ``redo`` instead undo or
        redo; at a ``confirm`` question, anything but ``y`` cancels)."""
        typed = " ".join(text.split())
        q = self.question()
        if q is not None and q.kind == "confirm":
            return self._answer_confirm(typed)
        if typed.casefold() in (UNDO, UNDO_TURN):
            return self.undo(turn=typed.casefold() == UNDO_TURN)
        if typed.casefold() == REDO:
            return self.redo_last()
        if q is None:
            return Reply(False, ("the record is complete",))
        if not typed:
            if not q.default:
                more = ", …" if len(q.choices) > 5 else ""
                return Reply(False, (f"an answer is needed: {', '.join(c.text for c in q.choices[:5])}{more}",))
            typed = q.default
        try:
            if q.kind == "pick":
                reply = self._answer_pick(q, typed)
            elif q.kind == "guilds":
                reply = self._answer_guilds(typed)
            elif q.kind == "action":
                reply = self._answer_action(q, typed)
            elif q.kind == "purchase":
                reply = self._answer_purchase(typed)
            elif q.kind == "keep":
                reply = self._answer_keep(typed)
            else:
                reply = self._answer_discard(q, typed)
        except EntryError as exc:
            return Reply(False, (str(exc),))
        if reply.accepted or self.confirm is not None:
            self.redo.clear()  # a new answer: what undo took cannot come back on top of it
        return reply

    def _answer_confirm(self, typed: str) -> Reply:
        c = self.confirm
        assert c is not None
        self.confirm = None
        name = self.header.seats[c.seat - 1].name
        if typed.casefold() not in YES:
            again = "the pick" if c.kind == "pick" else "the action"
            return Reply(False, (f"not recorded: {c.what} for {name}; enter {again} again",))
        if c.kind == "pick":
            return self._record_pick(c.index, c.seat, c.card)
        d = c.draft
        assert d is not None
        d.accepted = d.accepted | frozenset(_key(f) for f in c.errors)
        self.draft = d
        return self._advance()

    def _ask_confirm(self, c: _Confirm) -> Reply:
        """Hold ``c`` for the user's yes: the errors are shown, nothing is recorded yet."""
        self.confirm = c
        self.draft = None
        return Reply(False, tuple(report.finding(f) for f in c.errors))

    def _answer_action(self, q: Question, typed: str) -> Reply:
        where = self.current()
        assert where is not None
        state = self._seen(self.start())
        offered = self.offered(q.seat)
        use, card = choices.parse_play(typed, offered, where[0])
        play = next((p for p in offered if p.use == use and p.card == card), None)
        d = _Draft(q.seat, play, use, card, typed=typed)
        if play is None or len(play.purchases) <= 1:
            d.purchase_asked = True
        if where[1] != 6:
            d.keep = False
        elif play is None or not play.keeps:
            d.keep = False
            if self._hidden(q.seat):
                d.discard = UNKNOWN  # a seat view does not see another seat's discard
            else:
                left = self._left_in_hand(d)
                if choices.hand(state, q.seat)[1] and len(left) == 1:
                    d.discard = left[0].name  # the hand is known: its last card is the discard
        # Judge the play now (the discard, not known yet, as unseen), so that a mistake is fixed before the rest.
        probe = self._action(d, discard=d.discard if d.discard is not None else (None if d.keep is None else UNKNOWN))
        found = self._new_findings(probe)
        errors = [f for f in found if blocks_the_play(f)]
        if errors:
            return self._ask_confirm(_Confirm("action", q.seat, q.label, self._what(d), tuple(errors), d))
        self.draft = d
        return self._advance()

    def _answer_purchase(self, typed: str) -> Reply:
        d = self.draft
        assert d is not None and d.play is not None
        options = d.play.purchases
        pick = None
        if typed.isdigit() and 1 <= int(typed) <= len(options):
            pick = options[int(typed) - 1]
        else:
            pick = next((o for o in options if choices.words(o.text) == choices.words(typed)), None)
        if pick is None:
            raise EntryError(f"type 1 to {len(options)} (Enter: 1, the engine's default)")
        d.purchase = pick.purchase
        d.purchase_asked = True
        return self._advance()

    def _answer_keep(self, typed: str) -> Reply:
        d = self.draft
        assert d is not None
        word = typed.casefold()
        if word not in ("y", "yes", "n", "no", "k", "keep", "d", "discard"):
            raise EntryError("type y (keep the last card for the extra turn) or n (discard it)")
        d.keep = word in ("y", "yes", "k", "keep")
        if not d.keep and self._hidden(d.seat):
            d.discard = UNKNOWN
        return self._advance()

    def _answer_discard(self, q: Question, typed: str) -> Reply:
        d = self.draft
        assert d is not None
        where = self.current()
        assert where is not None
        d.discard = choices.parse_card(typed, self._left_in_hand(d), where[0])
        return self._advance()

    def _answer_pick(self, q: Question, typed: str) -> Reply:
        pending = self._pending_pick()
        assert pending is not None
        k, seat, game = pending
        card = None
        if choices.words(typed) != [] and typed != DECLINE:
            card = choices.parse_card(typed, pick_options(game, seat), self.turns[k].age, earlier=True)
            if card == UNKNOWN:
                raise EntryError("a pick is built face up: name the card, or - to decline")
        before = self._replay()
        old = list(self.turns)
        self._set_pick(k, seat, card)
        found = _subtract(self._replay().findings, before.findings)
        self.turns = old
        self._changed()
        errors = [f for f in found if f.severity == "error"]
        if errors:
            what = f"the pick {card}" if card else "the pick declined"
            return self._ask_confirm(_Confirm("pick", seat, q.label, what, tuple(errors), index=k, card=card))
        return self._record_pick(k, seat, card)

    def _set_pick(self, k: int, seat: int, card: str | None) -> None:
        turn = self.turns[k]
        self.turns[k] = turn.model_copy(update={"actions": tuple(
            a.model_copy(update={"pick": Pick(card=card)}) if a.seat == seat and a.use == "stage" and a.pick is None
            else a for a in turn.actions)})
        self._changed()

    def _record_pick(self, k: int, seat: int, card: str | None) -> Reply:
        before = self._replay()
        self._set_pick(k, seat, card)
        found = _subtract(self._replay().findings, before.findings)
        self.picks_done.append((k, seat, len(self.turns)))
        self.save()
        lines = [report.finding(f) for f in found]
        marked = [f for f in found if f.severity != "note"]
        lines.append(f"{self.header.seats[seat - 1].name} " + (f"builds {card} from the discard pile" if card else
                                                               "declines the pick")
                     + (f", recorded with {report.counted(marked)}" if marked else ""))
        lines += self.standings(self.turns[-1].label)
        lines += self._after_turn()
        return Reply(True, tuple(lines))

    def _answer_guilds(self, typed: str) -> Reply:
        seen = self.seen_guilds()
        n = self.header.players + 2
        if typed.strip() == DECLINE:
            self.guilds_answer = ()
            self._changed()
            self.save()
            return Reply(True, ("the guilds are not known: the record has no [Guilds] tag", *self._game_over()))
        catalog = load()
        named: list[str] = []
        for item in (p for p in typed.split(",") if p.strip()):
            card = choices.parse_card(item, tuple(g for g in catalog.guilds if g.name not in seen), 3)
            if card not in {g.name for g in catalog.guilds}:
                raise EntryError(f"{card} is not a guild")
            if card in named:
                raise EntryError(f"{card} is named twice")
            if card not in seen:
                named.append(card)
        if len(seen) + len(named) != n:
            left = n - len(seen)
            raise EntryError(f"a {self.header.players}-player game has {n} guilds: {len(seen)} seen, so name "
                             f"{left} other{'s' if left != 1 else ''} (you named {len(named)}), or - if not known")
        chosen = set(seen) | set(named)
        self.guilds_answer = tuple(g.name for g in catalog.guilds if g.name in chosen)
        self._changed()
        self.save()
        lines = [f"[Guilds] {', '.join(self.guilds_answer)}"]
        lines += [report.finding(f) for f in self._replay().findings if about_the_deck(f)]
        return Reply(True, tuple(lines + self._game_over()))

    # --- finishing an action and a turn --------------------------------------------------------------------------

    def _action(self, d: _Draft, *, discard: str | None) -> Action:
        where = self.current()
        assert where is not None
        purchase = d.purchase
        if purchase is None and d.play is not None and len(d.play.purchases) > 1:
            purchase = d.play.purchases[0].purchase  # the default, stated as the canonical form does
        return Action(seat=d.seat, use=d.use, card=d.card, purchase=purchase,
                      discard=discard if where[1] == 6 else None)

    def _new_findings(self, action: Action) -> list[Finding]:
        """The findings that the record gains when ``action`` is added to the current turn, but the warning that a
        pick the stage earns is not stated: the session asks it once the turn is played."""
        before = self._with(self.entered)
        after = self._with(self.entered + [action])
        return [f for f in _subtract(after.findings, before.findings)
                if not asks_for_a_pick(f, action.seat)]

    def _advance(self) -> Reply:
        """Finish the draft once no question about it is left; finish the turn once every seat has played."""
        q = self.question()
        d = self.draft
        if d is None or (q is not None and q.kind != "action" and q.seat == d.seat):
            return Reply(True)
        action = self._action(d, discard=None if d.keep else d.discard)
        found = self._new_findings(action)
        errors = [f for f in found if f.severity == "error" and _key(f) not in d.accepted]
        if errors:
            where = self.current()
            assert where is not None
            what = self._what(d) + (f", discard {d.discard}" if d.discard is not None and not d.keep else "")
            return self._ask_confirm(_Confirm("last", d.seat, turn_label(*where), what, tuple(errors), d))
        self.draft = None
        self.entered.append(action)
        lines = [report.finding(f) for f in found]
        if len(self.entered) == len(self.acting()):
            lines += self._commit()
        return Reply(True, tuple(lines))

    def _commit(self) -> list[str]:
        where = self.current()
        assert where is not None
        before = self._replay().findings
        turn = Turn(age=where[0], number=where[1], actions=tuple(sorted(self.entered, key=lambda a: a.seat)))
        self.turns.append(turn)
        self._changed()
        self.entered = []
        self.save()
        found = _subtract(self._replay().findings, before)
        lines = [report.finding(f) for f in found if f.address == turn.label and f.seat is None]
        marked = [f for f in self._replay().findings if f.address == turn.label and f.severity != "note"]
        counted = report.counted(marked)
        lines.append(f"{turn.label} recorded" + (f" in {self.path}" if self.path else "")
                     + (f", with {counted}:" if marked else ""))
        lines += [f"  ! {report.finding(f)}" for f in marked]
        lines += self.standings(turn.label)
        lines += self._settle_picks()
        lines += self._after_turn()
        return lines

    def _settle_picks(self) -> list[str]:
        """Decline, without asking, a pick owed when the discard pile holds nothing the seat may build (every card
        known and already in its city, or none at all): the rules leave no choice (R-HALI, R-UNIQUE)."""
        lines = []
        while (pending := self._pending_pick()) is not None:
            k, seat, game = pending
            if pick_options(game, seat) or None in game.discard:
                break
            turn = self.turns[k]
            self.turns[k] = turn.model_copy(update={"actions": tuple(
                a.model_copy(update={"pick": Pick(card=None)}) if a.seat == seat and a.use == "stage"
                and a.pick is None else a for a in turn.actions)})
            self._changed()
            self.save()
            lines.append(f"{self.header.seats[seat - 1].name} has nothing to build from the discard pile")
        return lines

    def _after_turn(self) -> list[str]:
        """The military of an Age that is over (its picks answered) and, at the end, the score sheet."""
        if self._pending_pick() is not None or not self.turns:
            return []
        last = self.turns[-1]
        nxt = self.current()
        if nxt is not None and nxt[0] == last.age:
            return []
        lines = self.military(last.age)
        return lines + self._game_over() if nxt is None else lines

    def _game_over(self) -> list[str]:
        """Once the game is played out and its guilds answered: the file saved with its results, the score sheet."""
        if self._guilds_owed() or self._pending_pick() is not None or self._replay().scores is None:
            return []
        self.save()  # with the results
        return ["the game is over: score sheet", *self.sheet_lines()]

    # --- what is shown (see :mod:`.report`) --------------------------------------------------------------------

    def standings(self, label: str) -> list[str]:
        return report.standings(self.header, self._replay(), label)

    def military(self, age: int) -> list[str]:
        return report.military(self.header, self._replay(), age)

    def sheet_lines(self) -> list[str]:
        return report.sheet(self.header, self._replay())

    def findings_lines(self) -> list[str]:
        """The errors of the complete turns: what an unfinished record opened holds already."""
        return [report.finding(f) for f in self._replay().findings if f.severity == "error"]

    # --- undo ----------------------------------------------------------------------------------------------------

    def _snapshot(self, lines: tuple[str, ...] = ()) -> _Snapshot:
        return _Snapshot(tuple(self.turns), tuple(self.entered), self.draft, tuple(self.picks_done),
                         self.guilds_answer, lines)

    def _restore(self, snap: _Snapshot) -> None:
        self.turns, self.entered, self.draft = list(snap.turns), list(snap.entered), snap.draft
        self.picks_done, self.guilds_answer = list(snap.picks_done), snap.guilds
        self.confirm = None
        self._changed()
        self.save()

    def undo(self, *, turn: bool = False) -> Reply:
        """Undo the last answer (``turn``: the whole turn being entered, or the last complete one); ``redo`` puts
        it back. The file is rewritten at once."""
        before = self._snapshot()
        reply = self._undo(turn=turn)
        if reply.accepted:
            self.redo.append(_Snapshot(before.turns, before.entered, before.draft, before.picks_done, before.guilds,
                                       tuple(line.replace("undone:", "redone:", 1).replace(_HELD, "") for line in reply.lines)))
        return reply

    def redo_last(self) -> Reply:
        """Put back what the last undo took (the file rewritten at once)."""
        if not self.redo:
            return Reply(False, ("nothing to redo",))
        snap = self.redo.pop()
        self._restore(snap)
        return Reply(True, snap.lines)

    def _undo(self, *, turn: bool) -> Reply:
        self.confirm = None
        if self.draft is not None and not turn:
            self.draft = None
            return Reply(True, ("undone: the action being entered",))
        if (self.entered or self.draft is not None) and turn:
            self.draft, self.entered = None, []
            return Reply(True, ("undone: the actions of this turn",))
        if self.entered:
            gone = self.entered.pop()
            return Reply(True, (f"undone: {self.header.seats[gone.seat - 1].name}'s action",))
        if self.guilds_answer is not None and self.current() is None and self.header.guilds is None:
            self.guilds_answer = None
            self._changed()
            self.save()
            return Reply(True, ("undone: the guilds",))
        if self.picks_done and self.picks_done[-1][2] == len(self.turns) and not turn:
            k, seat, _ = self.picks_done.pop()
            t = self.turns[k]
            self.turns[k] = t.model_copy(update={"actions": tuple(
                a.model_copy(update={"pick": None}) if a.seat == seat else a for a in t.actions)})
            self._changed()
            self.save()
            return Reply(True, (f"undone: {self.header.seats[seat - 1].name}'s pick",))
        if not self.turns:
            return Reply(False, ("nothing to undo",))
        last = self.turns.pop()
        self._changed()
        for k, seat, _ in (p for p in self.picks_done if p[2] > len(self.turns) and p[0] < len(self.turns)):
            t = self.turns[k]  # a pick answered after the turn undone (turn 6's, after the extra turn) goes too
            self.turns[k] = t.model_copy(update={"actions": tuple(
                a.model_copy(update={"pick": None}) if a.seat == seat and a.use == "stage" else a
                for a in t.actions)})
        self.picks_done = [p for p in self.picks_done if p[2] <= len(self.turns)]
        kept = [a.model_copy(update={"pick": None}) for a in sorted(last.actions, key=lambda a: a.seat)]
        self.entered = [] if turn else kept[:-1]
        self.save()
        what = f"turn {last.label}" if turn else f"{self.header.seats[kept[-1].seat - 1].name}'s action of {last.label}"
        return Reply(True, (f"undone: {what}{_HELD}",))


def _same(a: tuple[Action, ...], b: tuple[Action, ...]) -> bool:
    """Whether two tuples hold the very same actions (identity: cheaper than comparing Records)."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _subtract(after: Sequence[Finding], before: Sequence[Finding]) -> list[Finding]:
    """The findings of ``after`` that ``before`` does not hold (as many times as it holds them)."""
    left = Counter(_key(f) for f in before)
    out = []
    for f in after:
        k = _key(f)
        if left[k]:
            left[k] -= 1
        else:
            out.append(f)
    return out


def exists(path: str) -> bool:
    """Whether ``path`` holds a record to go on with (a non-empty file)."""
    return os.path.isfile(path) and os.path.getsize(path) > 0
