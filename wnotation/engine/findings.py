"""Findings: what the engine has to say about a record (an illegal action, a wrong expected result, a note).

A finding is a value with the rule ID it enforces, the position address, the seat and the source span copied from
the Record element it concerns. Rendering with file names and carets is the notation and CLI layers' job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..model.record import Span

Severity = Literal["error", "warning", "note"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem or remark, e.g. ``II.3 Bob cannot build Temple: needs … [R-TRADE]``.

    ``message`` is a sentence a player understands, starting with the seat's name when there is one;
    ``address`` is ``II.3``, ``I.0`` (the deal), ``III.end`` (end of Age) or ``game`` (results).
    ``check_only`` marks a remark about the check itself (what could not be verified), which only a check report
    shows: beside a score sheet or a position it is noise.
    """

    rule: str
    message: str
    address: str
    seat: int | None = None
    span: Span | None = None
    severity: Severity = "error"
    check_only: bool = False

    def __str__(self) -> str:
        return f"{self.address} {self.message} [{self.rule}]"

    def __repr__(self) -> str:
        return f"Finding({self.rule!r}, {self.message!r}, {self.address!r}, seat={self.seat!r})"



#: The rules whose errors the rest of an unfinished turn still settles: the sixth turn's discard (R-LAST) and
#: Babylon Night's kept seventh card (R-BABYLON-N1) are stated after the play, so a play judged alone may lack them.
_SETTLED_BY_THE_TURN = frozenset({"R-LAST", "R-BABYLON-N1"})


def blocks_the_play(f: Finding) -> bool:
    """An error the play itself causes, not one that the rest of its turn (the discard, a kept card) can settle:
    what a recorder asks to confirm the moment a play is entered."""
    return f.severity == "error" and f.rule not in _SETTLED_BY_THE_TURN


def about_the_deck(f: Finding) -> bool:
    """An error in what the deck holds (R-DECK), such as Age III guilds that the player count cannot deal."""
    return f.severity == "error" and f.rule == "R-DECK"


def asks_for_a_pick(f: Finding, seat: int) -> bool:
    """``seat``'s warning that the card a stage lets it take from the discard pile (R-HALI) is not stated: a
    recorder asks for it once the turn is played, rather than flagging the play."""
    return f.rule == "R-HALI" and f.severity == "warning" and f.seat == seat


#: The rules of a record's stated results: the score sheet (R-SCORE), an expansion's row (R-SCORE-EXP), the
#: winner (R-WIN). A finding of one of them is about what the record says of the end, not about a turn.
RESULT_RULES = frozenset({"R-SCORE", "R-SCORE-EXP", "R-WIN"})


def about_the_results(rule: str) -> bool:
    """Whether a finding of ``rule`` is about the record's stated results (:data:`RESULT_RULES`)."""
    return rule in RESULT_RULES


def contradicts_the_sheet(f: Finding) -> bool:
    """An error that a stated result differs from the score sheet the engine made (R-SCORE): the record's results
    are wrong."""
    return f.severity == "error" and f.rule == "R-SCORE"
