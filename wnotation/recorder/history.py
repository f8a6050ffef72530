"""Taking answers back: ``undo`` takes back the last answer (``undo turn``: the whole turn), ``redo`` puts back what
undo took, until a new answer is given. The file is rewritten at once either way."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.record import Action, Turn
from .journal import Journal
from .progress import Draft, Progress
from .questions import Reply

__all__ = ["History", "Snapshot"]

_HELD = " (the file holds the turns before it)"


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What undo changes, kept so that redo can put it back."""

    turns: tuple[Turn, ...]
    entered: tuple[Action, ...]
    draft: Draft | None
    picks_done: tuple[tuple[int, int, int], ...]
    guilds: tuple[str, ...] | None
    lines: tuple[str, ...]


class History:
    """Undo and redo on ``progress``, saved through ``journal``. ``redo`` holds what each undo took, the latest
    last."""

    def __init__(self, progress: Progress, journal: Journal) -> None:
        self.progress = progress
        self.journal = journal
        self.redo: list[Snapshot] = []

    def forget(self) -> None:
        """A new answer: what undo took cannot come back on top of it."""
        self.redo.clear()

    def undo(self, *, turn: bool = False) -> Reply:
        """Undo the last answer (``turn``: the whole turn being entered, or the last complete one); :meth:`redo_last`
        puts it back. The file is rewritten at once."""
        p = self.progress
        before = Snapshot(tuple(p.turns), tuple(p.entered), p.draft, tuple(p.picks_done), p.guilds_answer, ())
        reply = self._undo(turn=turn)
        if reply.accepted:
            self.redo.append(Snapshot(before.turns, before.entered, before.draft, before.picks_done, before.guilds,
                                       tuple(line.replace("undone:", "redone:", 1).replace(_HELD, "") for line in reply.lines)))
        return reply

    def redo_last(self) -> Reply:
        """Put back what the last undo took (the file rewritten at once)."""
        if not self.redo:
            return Reply(False, ("nothing to redo",))
        snap = self.redo.pop()
        p = self.progress
        p.turns, p.entered, p.draft = list(snap.turns), list(snap.entered), snap.draft
        p.picks_done, p.guilds_answer = list(snap.picks_done), snap.guilds
        p.confirm = None
        p.changed()
        self.journal.save()
        return Reply(True, snap.lines)

    def _undo(self, *, turn: bool) -> Reply:
        p = self.progress
        p.confirm = None
        if p.draft is not None and not turn:
            p.draft = None
            return Reply(True, ("undone: the action being entered",))
        if (p.entered or p.draft is not None) and turn:
            p.draft, p.entered = None, []
            return Reply(True, ("undone: the actions of this turn",))
        if p.entered:
            gone = p.entered.pop()
            return Reply(True, (f"undone: {p.seat_name(gone.seat)}'s action",))
        if p.guilds_answer is not None and p.current() is None and p.header.guilds is None:
            p.guilds_answer = None
            p.changed()
            self.journal.save()
            return Reply(True, ("undone: the guilds",))
        if p.picks_done and p.picks_done[-1][2] == len(p.turns) and not turn:
            k, seat, _ = p.picks_done.pop()
            t = p.turns[k]
            p.turns[k] = t.model_copy(update={"actions": tuple(
                a.model_copy(update={"pick": None}) if a.seat == seat else a for a in t.actions)})
            p.changed()
            self.journal.save()
            return Reply(True, (f"undone: {p.seat_name(seat)}'s pick",))
        if not p.turns:
            return Reply(False, ("nothing to undo",))
        last = p.turns.pop()
        p.changed()
        for k, seat, _ in (d for d in p.picks_done if d[2] > len(p.turns) and d[0] < len(p.turns)):
            t = p.turns[k]  # a pick answered after the turn undone (turn 6's, after the extra turn) goes too
            p.turns[k] = t.model_copy(update={"actions": tuple(
                a.model_copy(update={"pick": None}) if a.seat == seat and a.use == "stage" else a
                for a in t.actions)})
        p.picks_done = [d for d in p.picks_done if d[2] <= len(p.turns)]
        kept = [a.model_copy(update={"pick": None}) for a in sorted(last.actions, key=lambda a: a.seat)]
        p.entered = [] if turn else kept[:-1]
        self.journal.save()
        what = f"turn {last.label}" if turn else f"{p.seat_name(kept[-1].seat)}'s action of {last.label}"
        return Reply(True, (f"undone: {what}{_HELD}",))
