"""What a recording session asks and answers: a :class:`Question`, a :class:`Reply`, and the words every question
takes (``undo``, ``undo turn``, ``redo``; ``-`` to decline; ``y`` to confirm). Plain values: the session's parts
(:mod:`.entry`, :mod:`.owed`, :mod:`.history`) make them, the front ends show them."""

from __future__ import annotations

from dataclasses import dataclass

from .choices import Choice

__all__ = ["DECLINE", "Question", "REDO", "Reply", "UNDO", "UNDO_TURN", "YES"]

UNDO = "undo"
UNDO_TURN = "undo turn"
REDO = "redo"
DECLINE = "-"
YES = ("y", "yes")


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
