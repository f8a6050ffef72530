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

:class:`Session` is the one object the front ends hold; its parts do the work: :mod:`.progress` (the record so far
and its replays), :mod:`.entry` (the turn being entered), :mod:`.owed` (picks, guilds, what follows a turn),
:mod:`.history` (undo, redo) and :mod:`.journal` (the file).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Game, State
from ..model.catalog import Card
from ..model.record import Action, Record, Turn
from . import report
from .choices import Choice, EntryError, Play
from .entry import TurnEntry
from .history import History, Snapshot
from .journal import Journal, read
from .journal import exists as exists  # re-exported: session.exists as before
from .owed import Owed
from .progress import Confirm, Draft, Progress
from .questions import DECLINE as DECLINE  # re-exported, as before
from .questions import REDO, UNDO, UNDO_TURN, YES, Question, Reply

__all__ = ["Question", "REDO", "Reply", "Session", "UNDO", "UNDO_TURN"]


class Session:
    """A game being recorded. ``header`` is the Record's roster and tags; ``turns`` the complete turns so far (an
    unfinished record); ``view`` the seat whose view the recorder has (others' hidden cards default to ``?``);
    ``path`` the file rewritten after every turn (``None``: nowhere)."""

    def __init__(self, header: Record, turns: Sequence[Turn] = (), *, view: int | None = None,
                 path: str | None = None) -> None:
        if view is not None and not 1 <= view <= header.players:
            raise ValueError(f"seat {view} is not at the table (seats 1 to {header.players})")
        self.progress = Progress(header, turns, view)
        self.journal = Journal(self.progress, path)
        self.owed = Owed(self.progress, self.journal)
        self.entry = TurnEntry(self.progress, self.owed, self.journal, self.question)
        self.history = History(self.progress, self.journal)

    @classmethod
    def open(cls, path: str, *, view: int | None = None) -> Session:
        """A session on the record in ``path`` (an unfinished game goes on after its last turn). Raises
        ``NotationError`` when the file is not one readable game, ``OSError`` when it cannot be read."""
        record = read(path)
        return cls(record, record.turns, view=view, path=path)

    # --- the state, as the front ends and tests read it --------------------------------------------------------

    @property
    def header(self) -> Record:
        return self.progress.header

    @property
    def turns(self) -> list[Turn]:
        return self.progress.turns

    @property
    def entered(self) -> list[Action]:
        """The current turn's finished actions."""
        return self.progress.entered

    @property
    def draft(self) -> Draft | None:
        return self.progress.draft

    @property
    def confirm(self) -> Confirm | None:
        """An answer with errors waiting for an explicit yes."""
        return self.progress.confirm

    @property
    def picks_done(self) -> list[tuple[int, int, int]]:
        return self.progress.picks_done

    @property
    def guilds_answer(self) -> tuple[str, ...] | None:
        return self.progress.guilds_answer

    @property
    def version(self) -> int:
        return self.progress.version

    @property
    def view(self) -> int | None:
        return self.progress.view

    @view.setter
    def view(self, seat: int | None) -> None:
        self.progress.view = seat

    @property
    def path(self) -> str | None:
        return self.journal.path

    @path.setter
    def path(self, path: str | None) -> None:
        self.journal.path = path

    @property
    def redo(self) -> list[Snapshot]:
        """What each undo took, the latest last; a new answer clears it."""
        return self.history.redo

    # --- the record and its file -------------------------------------------------------------------------------

    @property
    def record(self) -> Record:
        """The record of the complete turns (and picks), with the ``[Guilds]`` tag once the guilds are known and
        its results once the game is over (its picks and guilds answered)."""
        return self.progress.record()

    def text(self) -> str:
        """The canonical 7WN text of :attr:`record` (purchases as the canonical form states them)."""
        return self.progress.text()

    def save(self) -> None:
        """Rewrite the file atomically (nothing when the session has no path). Raises ``OSError``."""
        self.journal.save()

    # --- where the game stands ---------------------------------------------------------------------------------

    def current(self) -> tuple[int, int] | None:
        """The turn being entered, ``(age, number)``, or ``None`` once the game is over."""
        return self.progress.current()

    def start(self) -> State:
        """The position the current turn is played from, as the record with the actions entered so far shows it."""
        return self.progress.start()

    def acting(self) -> tuple[int, ...]:
        return self.progress.acting()

    def seen_guilds(self) -> tuple[str, ...]:
        """The guilds the complete turns name, in catalogue order."""
        return self.progress.seen_guilds()

    def guilds(self) -> tuple[str, ...] | None:
        """The game's guilds as the record will state them (``[Guilds]``); ``None`` while not known."""
        return self.progress.guilds()

    def name(self, seat: int) -> str:
        return self.progress.name(seat)

    def offered(self, seat: int) -> tuple[Play, ...]:
        """What ``seat`` may be recorded as playing in the current turn (through the seat view if any)."""
        return self.entry.offered(seat)

    def _seen(self, state: State) -> State:
        return self.progress.seen(state)

    def _left_in_hand(self, d: Draft) -> tuple[Card, ...]:
        return self.entry.left_in_hand(d)

    def _before_picks(self, age: int, after: int) -> Game | None:
        return self.progress.before_picks(age, after)

    # --- questions and answers ---------------------------------------------------------------------------------

    def question(self) -> Question | None:
        """The next question, or ``None`` once the record is complete: a confirmation held, else a pick owed, else
        the guilds owed, else the turn's."""
        c = self.progress.confirm
        if c is not None:
            rules = ", ".join(dict.fromkeys(f.rule for f in c.errors))
            n = len(c.errors)
            name = self.progress.seat_name(c.seat)
            return Question("confirm", c.seat, c.label, f"{c.label} record {c.what} for {name} with {n} "
                            f"error{'s' if n != 1 else ''} ({rules})? [y/N]",
                            (Choice("y", "record it as played"), Choice("n", "cancel")))
        owed = self.owed.question()
        return owed if owed is not None else self.entry.question()

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
                reply = self.owed.answer_pick(q, typed)
            elif q.kind == "guilds":
                reply = self.owed.answer_guilds(typed)
            else:
                reply = self.entry.answer(q, typed)
        except EntryError as exc:
            return Reply(False, (str(exc),))
        if reply.accepted or self.progress.confirm is not None:
            self.history.forget()
        return reply

    def _answer_confirm(self, typed: str) -> Reply:
        c = self.progress.confirm
        assert c is not None
        self.progress.confirm = None
        name = self.progress.seat_name(c.seat)
        if typed.casefold() not in YES:
            again = "the pick" if c.kind == "pick" else "the action"
            return Reply(False, (f"not recorded: {c.what} for {name}; enter {again} again",))
        if c.kind == "pick":
            return self.owed.record_pick(c.index, c.seat, c.card)
        return self.entry.confirmed(c)

    def undo(self, *, turn: bool = False) -> Reply:
        """Undo the last answer (``turn``: the whole turn being entered, or the last complete one); ``redo`` puts
        it back. The file is rewritten at once."""
        return self.history.undo(turn=turn)

    def redo_last(self) -> Reply:
        """Put back what the last undo took (the file rewritten at once)."""
        return self.history.redo_last()

    # --- what is shown (see :mod:`.report`) --------------------------------------------------------------------

    def standings(self, label: str) -> list[str]:
        return report.standings(self.header, self.progress.replay(), label)

    def military(self, age: int) -> list[str]:
        return report.military(self.header, self.progress.replay(), age)

    def sheet_lines(self) -> list[str]:
        return report.sheet(self.header, self.progress.replay())

    def findings_lines(self) -> list[str]:
        """The errors of the complete turns: what an unfinished record opened holds already."""
        return [report.finding(f) for f in self.progress.replay().findings if f.severity == "error"]
