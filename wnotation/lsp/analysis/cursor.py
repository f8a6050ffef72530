"""The turn line under the cursor: its turn, the seat whose action the cursor is in, and the position the turn is
played from (the game's lines before it, open variations closed, replayed)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model.record import Record
from ...model.vocabulary import AGE_NUMERALS, Address
from .document import DocumentAnalysis, Piece
from .text import ANNOTATIONS, label_at, outside_annotations

if TYPE_CHECKING:
    from ...engine import Replay, State


@dataclass(frozen=True, slots=True)
class TurnContext:
    """Where the cursor is on a turn line: the turn's Age and number, the seat whose action it is in (from the
    ``|`` before it, or its seat prefix), the text of that action typed so far and where it starts."""

    age: int
    number: int
    seat: int | None
    typed: str
    start: int
    prefixed: bool


def _top_level(line: str, stop: int) -> list[int]:
    """The columns of the ``|`` before ``stop`` outside comments and tags."""
    return [k for k in outside_annotations(line, 0, stop) if line[k] == "|"]


def turn_context(line: str, column: int, record: Record | None) -> TurnContext | None:
    """The turn context at ``column`` of ``line`` (``None`` off a turn line or on its label); ``record`` (read
    from the game's lines before this one) names the seats for a seat prefix."""
    m = label_at(line)
    if m is None or column < m.end():
        return None
    age = {"i": 1, "ii": 2, "iii": 3}[m.group(1).lower()]
    number = int(m.group(2))
    bars = _top_level(line, column)
    start = bars[-1] + 1 if bars else m.end()
    if line.startswith("//", start) or "//" in line[start:column]:
        return None
    while start < column and line[start] in " \t":
        start += 1
    typed = line[start:column]
    seat: int | None = None if number == 7 else len(bars) + 1
    prefixed = False
    prefix = re.match(r"([^:|{}()\[\]]+?)[ \t]*:[ \t]*", typed)
    if prefix is not None and record is not None:
        key = prefix.group(1).strip().casefold()
        for k, s in enumerate(record.seats, start=1):
            if s.name.casefold() == key or f"#{k}" == key:
                seat, prefixed = k, True
        start += prefix.end()
        typed = typed[prefix.end():]
    if record is not None and seat is not None and seat > len(record.seats):
        seat = None
    return TurnContext(age, number, seat, typed, start, prefixed)


def game_prefix(doc: DocumentAnalysis, piece: Piece, line: int) -> tuple[str, int]:
    """The game's lines before ``line``, with a ``)`` closing each variation still open at the end (on the last
    line when it is a turn line), and how many were closed: the text of the position the turn on ``line`` is
    played from, which reads even while that line does not."""
    lines = doc.lines[piece.line0:line]
    depth = 0
    for text in lines:
        bare = ANNOTATIONS.sub("", text)
        depth += bare.count("(") - bare.count(")")  # a purchase opens and closes on its line
    if depth > 0 and lines and label_at(lines[-1]) is not None:
        lines = lines[:-1] + [lines[-1] + " )" * depth]
    else:
        depth = 0
    return "\n".join(lines) + "\n", depth


def variation_path(record: Record, depth: int) -> list[str]:
    """The addresses of the ``depth`` innermost variations open at the end of ``record`` (``I.5(1).``,
    ``I.5(1).I.6(1).``), outermost first: each the last variation of the last turn of the line around it."""
    paths, path, turns = [], "", record.turns
    for _ in range(depth):
        if not turns or not turns[-1].variations:
            break
        turn = turns[-1]
        path += f"{AGE_NUMERALS[turn.age]}.{turn.number}({len(turn.variations)})."
        paths.append(path)
        turns = turn.variations[-1].turns
    return paths


def turn_start(played: Replay, age: int, number: int, paths: list[str] | None = None) -> State | None:
    """The position a turn is played from, or ``None`` if the replay does not reach it: in the innermost of the
    open variations ``paths`` that has it (a variation's first turn is played from the line around it), else on
    the main line."""
    where = f"{AGE_NUMERALS[age]}.{number - 1}"
    for path in reversed(paths or []):
        try:
            state = played.position(path + where)
        except KeyError:
            continue
        if state.age == age and state.turn == number - 1:
            return state
    main = played.positions.get(str(Address(age, number - 1)))
    if main is None or main.age != age or main.turn != number - 1:
        return None
    return main
