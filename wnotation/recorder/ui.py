"""The terminal front end of ``wnotation record``: one prompt_toolkit prompt per question of a :class:`Session`.

Completion comes from the question's choices (the engine's plays at this position, with their costs), filtered as
the user types by the same prefix matching the session applies on Enter; an empty answer takes the default shown
in brackets. ``undo`` and ``undo turn`` work at every prompt; Ctrl-C or Ctrl-D stop (the file already holds every
complete turn). The header of a new record is asked here too, with completion on Wonder names. Input and output
are parameters, so tests drive it through a pipe.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from ..catalog import load
from .choices import Choice, match
from .header import HeaderError, date_of, make_header, side_of
from .session import UNDO, UNDO_TURN, Question, Session

__all__ = ["ChoiceCompleter", "ask_header", "run"]

Echo = Callable[[str], None]

HELP = ("type a few letters of a card and Enter (Tab completes; stage …, sell …, ? for an unseen card); "
        "Enter alone takes the [default]; undo, undo turn; Ctrl-D stops (the file holds every complete turn)")


class ChoiceCompleter(Completer):
    """Completes the whole answer from a fixed list of choices (text and note), in their order."""

    def __init__(self, choices: Sequence[Choice]) -> None:
        self.choices = tuple(choices) + (Choice(UNDO, "the last answer"), Choice(UNDO_TURN, "this turn"))

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        typed = document.text_before_cursor
        for c in self.choices:
            if match(typed, c.text):
                yield Completion(c.text, start_position=-len(typed), display_meta=c.note)

    def texts(self, typed: str) -> list[str]:
        """The completion texts for ``typed`` (what the menu shows), for measuring and tests."""
        return [c.text for c in self.get_completions(Document(typed), CompleteEvent(text_inserted=True))]


def _message(q: Question) -> str:
    return f"{q.prompt}" + (f" [{q.default}]" if q.default else "") + "> "


def run(session: Session, *, echo: Echo = print, input: Any = None, output: Any = None) -> bool:
    """Ask ``session``'s questions until the record is complete (True) or the user stops (False)."""
    prompt: PromptSession[str] = PromptSession(input=input, output=output)
    echo(HELP)
    q0 = session.question()
    if session.turns and q0 is not None:
        echo(f"going on after {session.turns[-1].label}")
    while (q := session.question()) is not None:
        try:
            text = prompt.prompt(_message(q), completer=ChoiceCompleter(q.choices), complete_while_typing=True)
        except (KeyboardInterrupt, EOFError):
            where = f" after {session.turns[-1].label}" if session.turns else ""
            echo(f"stopped{where}; `wnotation record` on the same file goes on from there")
            return False
        if text.strip().casefold() == "help":
            echo(HELP)
            continue
        reply = session.answer(text)
        for line in reply.lines:
            echo(line)
    echo("the record is complete" + (f": {session.path}" if session.path else ""))
    return True


def ask_header(*, event: str | None = None, date: str | None = None, seats: Sequence[str] = (),
               echo: Echo = print, input: Any = None, output: Any = None) -> Any:
    """The roster of a new record: what the flags give, the rest asked (event, date with today as the default,
    then each seat's name, Wonder with completion on every accepted spelling, and side). Returns a Record."""
    prompt: PromptSession[str] = PromptSession(input=input, output=output)
    today = datetime.date.today().strftime("%Y.%m.%d")
    if event is None:
        event = prompt.prompt("event (Enter: none)> ").strip()
    if date is None:
        while True:
            typed = prompt.prompt(f"date [{today}]> ").strip() or today
            try:
                date = date_of(typed)
                break
            except HeaderError as exc:
                echo(str(exc))
    specs = list(seats)
    if not specs:
        wonders = sorted({w.name for w in load().wonders} | {s for v in load().wonder_spellings().values() for s in v})
        wonder_completer = ChoiceCompleter([Choice(w) for w in wonders])
        side_completer = ChoiceCompleter([Choice("day"), Choice("night")])
        while True:
            n = len(specs) + 1
            name = prompt.prompt(f"seat {n} name (Enter: no more seats)> ").strip()
            if not name:
                if len(specs) >= 3:
                    break
                echo("the base game is for 3 to 7 players")
                continue
            while True:
                wonder = prompt.prompt(f"seat {n} Wonder> ", completer=wonder_completer,
                                       complete_while_typing=True).strip()
                try:
                    wonder = load().wonder_name(wonder)
                    break
                except ValueError as exc:
                    echo(str(exc))
            while True:
                side = prompt.prompt(f"seat {n} side [day]> ", completer=side_completer).strip() or "day"
                try:
                    side = side_of(side)
                    break
                except HeaderError as exc:
                    echo(str(exc))
            specs.append(f"{name}:{wonder}:{side}")
            if len(specs) == 7:
                break
    return make_header(event=event or None, date=date, seats=specs)
