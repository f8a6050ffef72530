"""What the table looks like while a game is recorded: the commands ``city``, ``hand``, ``pile``, ``coins`` and
``sheet``, typed at any prompt of ``wnotation record``. They read the session's position (the start of the turn
being entered, or the last complete turn while a pick or the guilds are asked) through its seat view, and never
change the record. Plain lines of text, laid out by :mod:`wnotation.formats.render`'s functions; no terminal code (the
front end shows every line through the one sanitiser).
"""

from __future__ import annotations

from ..support.compiler_style import visible
from ..engine import State
from ..formats.render import city_fields, discard_text, score_table
from ..model.vocabulary import seat_key
from . import choices, report
from .choices import Choice
from .session import Session

__all__ = ["COMMANDS", "command", "completions"]

#: Each command and what it shows (``help`` lists them).
COMMANDS: dict[str, str] = {
    "city": "a seat's city by colour, production, shields, science, Wonder stages (city SEAT; alone: the seat asked)",
    "hand": "a seat's hand when the record knows it, else the cards still possible (hand SEAT)",
    "pile": "the discard pile",
    "coins": "every seat's coins",
    "sheet": "the provisional score sheet after the last complete turn",
}
_SEATED = ("city", "hand")


def completions(session: Session) -> tuple[Choice, ...]:
    """The commands as completions (``city Ada`` for each seat; ``city 2`` for a name that holds a control
    character, which is shown as visible stand-ins in the note), after the question's own choices."""
    out: list[Choice] = []
    for name, note in COMMANDS.items():
        if name in _SEATED:
            out += [Choice(f"{name} {s.name if visible(s.name) == s.name else k}", f"show {visible(s.name)}'s {name}")
                    for k, s in enumerate(session.header.seats, 1)]
        else:
            out.append(Choice(name, note.split(" (")[0]))
    return tuple(out)


def _position(session: Session) -> State | None:
    """The position the commands show: the start of the turn being entered, else the last complete turn's end."""
    q = session.question()
    if session.current() is not None and (q is None or q.kind not in ("pick", "guilds")):
        return session.progress.seen(session.start())
    if not session.turns:
        return None
    return session.progress.seen(session.progress.replay().position(session.turns[-1].label))


def _seat(session: Session, text: str) -> int | str:
    """The seat ``text`` names (its number, its name, or the beginning of one name), else why not."""
    names = [s.name for s in session.header.seats]
    if not text:
        q = session.question()
        return q.seat if q is not None and q.seat else 1
    if text.isdigit() and 1 <= int(text) <= len(names):
        return int(text)
    exact = [k for k, n in enumerate(names, 1) if seat_key(n) == seat_key(text)]
    found = exact or [k for k, n in enumerate(names, 1) if seat_key(n).startswith(seat_key(text))]
    if len(found) == 1:
        return found[0]
    return f"no seat {text!r}: seats {', '.join(names)}, or 1 to {len(names)}"


def command(session: Session, typed: str) -> list[str] | None:
    """The lines a table command shows, or ``None`` when ``typed`` is not one (it is an answer)."""
    parts = typed.split(None, 1)
    if not parts or parts[0].casefold() not in COMMANDS:
        return None
    name, rest = parts[0].casefold(), (parts[1].strip() if len(parts) > 1 else "")
    if rest and name not in _SEATED:
        return None
    state = _position(session)
    if state is None:
        return ["nothing is played yet"]
    where = f"at {state.address}"
    if name in _SEATED:
        seat = _seat(session, rest)
        if isinstance(seat, str):
            return [seat]
        return (_city if name == "city" else _hand)(session, state, seat, where)
    if name == "pile":
        return [f"discard pile {where} ({len(state.discard)}): {discard_text(state)}"]
    if name == "coins":
        width = max(len(s.name) for s in session.header.seats)
        return [f"coins {where}:"] + [f"  {s.name.ljust(width)}  {report.coins(c.coins)}"
                                      for s, c in zip(session.header.seats, state.cities)]
    return _sheet(session)


def _city(session: Session, state: State, seat: int, where: str) -> list[str]:
    title, fields = city_fields(state, seat, session.header.seats[seat - 1].name)
    fields = [(f, v) for f, v in fields if f != "hand"] + [("hand", _hand_text(state, seat))]
    width = max(len(f) for f, _ in fields)
    return [f"{title} ({where})"] + [f"  {f.ljust(width)}  {v}" for f, v in fields]


def _hand(session: Session, state: State, seat: int, where: str) -> list[str]:
    return [f"{session.header.seats[seat - 1].name}'s hand {where}: {_hand_text(state, seat)}"]


def _hand_text(state: State, seat: int) -> str:
    """The hand when the record knows it (a deal), else how many cards and which designs are still possible."""
    known, complete = choices.hand(state, seat)
    held = len(state.hands[seat - 1])
    if not held:
        return "empty"
    if complete:
        return ", ".join(c.name for c in known)
    possible = ", ".join(c.name for c in choices.possible_cards(state, seat)) or "none"
    return f"{held} cards, not known; still possible: {possible}"


def _sheet(session: Session) -> list[str]:
    if not session.turns:
        return ["nothing is played yet"]
    label = session.turns[-1].label
    played = session.progress.replay()
    header, rows = score_table(session.header, played.score_at(label))
    table = [header] + rows
    widths = [max(len(row[k]) for row in table) for k in range(len(header))]
    lines = [f"provisional score sheet after {label}:"]
    return lines + ["  " + "  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths)))
                    for row in table]
