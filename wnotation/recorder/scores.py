"""``wnotation record --scores``: a score-pad record (7WN §9.1) entered the way the paper pad is filled in.

Row by row (coins first, then the seven base rows and the rows of the expansions named, R-SCORE-EXP), seat by seat
in seat order. Treasury defaults to coins ÷ 3; science takes the points or three symbol counts (tablets, compasses,
gears: ``3 2 1``), from which it computes the points (R-SCORE). ``undo`` takes back the last answer; Enter on coins
skips them (the pad may leave them out). After every answer the file is rewritten atomically: the totals and ranks
(R-WIN) once every row is in, so the file always reads, and a file holding an unfinished pad goes on where it
stopped. Findings of the pad's checks (engine/scorepad.py) are shown at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..atomicfile import write_atomic
from ..engine import replay
from ..engine.scoring import science_points
from ..notation import parse, write
from ..record import Record, SeatResult
from ..vocabulary import CATEGORIES, EXPANSION_CATEGORIES, EXPANSION_OF_CATEGORY, EXPANSIONS

__all__ = ["PadSession", "expansions_of", "run"]

UNDO = "undo"
_SYMBOLS = ("tablets", "compasses", "gears")


def expansions_of(text: str) -> tuple[str, ...]:
    """``"cities, Leaders"`` -> ``("Cities", "Leaders")`` (the score pad's order); ``ValueError`` for another name."""
    names = {e.casefold(): e for e in EXPANSIONS}
    out = []
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        if item.casefold() not in names:
            raise ValueError(f"unknown expansion {item!r}: one of {', '.join(EXPANSIONS)}")
        out.append(names[item.casefold()])
    return tuple(sorted(set(out), key=EXPANSIONS.index))


@dataclass
class PadSession:
    """The pad being filled in: ``values[seat][row]`` for the answers so far, in the order they were asked."""

    header: Record
    path: str | None = None
    values: dict[int, dict[str, int | None]] = field(default_factory=dict)
    answered: list[tuple[int, str]] = field(default_factory=list)

    @property
    def rows(self) -> tuple[str, ...]:
        named = tuple(c for c in EXPANSION_CATEGORIES if EXPANSION_OF_CATEGORY[c] in self.header.expansions)
        return ("coins",) + CATEGORIES + named

    @classmethod
    def open(cls, path: str) -> PadSession:
        """Go on with the score pad in ``path`` (a record without turns)."""
        with open(path, encoding="utf-8") as handle:
            record = parse(handle.read(), source=path)
        if record.turns:
            raise ValueError(f"{path} records turns: --scores fills in a score pad (a record without turns)")
        session = cls(record.model_copy(update={"results": ()}), path)
        by_seat = {r.seat: r for r in record.results}
        for row in session.rows:
            for seat in range(1, record.players + 1):
                r = by_seat.get(seat)
                if r is None:
                    continue
                stated = getattr(r, row)
                skipped = row == "coins" and any(getattr(r, c) is not None for c in session.rows[1:])
                if stated is not None or skipped:
                    session._put(seat, row, stated)
                if row == "science" and stated is not None:
                    session.values[seat].update({s: getattr(r, s) for s in _SYMBOLS if getattr(r, s) is not None})
        return session

    def question(self) -> tuple[int, str] | None:
        """The next (seat, row) to ask, or ``None`` when the pad is filled in."""
        for row in self.rows:
            for seat in range(1, self.header.players + 1):
                if (seat, row) not in self.answered:
                    return seat, row
        return None

    def prompt(self) -> str:
        q = self.question()
        assert q is not None
        seat, row = q
        name = self.header.seats[seat - 1].name
        hint = {"coins": " (Enter: not counted)", "science": " (points, or tablets compasses gears: 3 2 1)"}
        default = self.default(seat, row)
        return f"{row} {name}{hint.get(row, '')}" + (f" [{default}]" if default is not None else "") + "> "

    def default(self, seat: int, row: str) -> int | None:
        coins = self.values.get(seat, {}).get("coins")
        return coins // 3 if row == "treasury" and coins is not None else None

    def answer(self, text: str) -> str | None:
        """Take an answer to :meth:`question`; a message when it is refused (the question stays)."""
        q = self.question()
        if text.strip().casefold() == UNDO:
            if not self.answered:
                return "nothing to undo"
            seat, row = self.answered.pop()
            self.values[seat].pop(row, None)
            for s in _SYMBOLS if row == "science" else ():
                self.values[seat].pop(s, None)
            self.save()
            return None
        assert q is not None
        seat, row = q
        words = text.split()
        try:
            numbers = [int(w) for w in words]
        except ValueError:
            return f"{row}: a whole number" + (", or three symbol counts" if row == "science" else "")
        if not numbers:
            if row == "coins":
                self._put(seat, row, None)
                self.save()
                return None
            value = self.default(seat, row)
            if value is None:
                return f"{row}: a whole number"
            numbers = [value]
        if row == "science" and len(numbers) == 3:
            if min(numbers) < 0:
                return "symbol counts are 0 or more"
            self._put(seat, row, science_points(*numbers))
            self.values[seat].update(zip(_SYMBOLS, numbers))
        elif len(numbers) == 1:
            self._put(seat, row, numbers[0])
        else:
            return f"{row}: one number" + (" (or three symbol counts)" if row == "science" else "")
        self.save()
        return None

    def _put(self, seat: int, row: str, value: int | None) -> None:
        self.values.setdefault(seat, {})[row] = value
        self.answered.append((seat, row))

    @property
    def record(self) -> Record:
        """The pad so far as a record: every value given; once every row is in, each total and rank too."""
        results = []
        for seat in range(1, self.header.players + 1):
            v = {k: x for k, x in self.values.get(seat, {}).items() if x is not None}
            if v or self.question() is None:
                results.append(SeatResult.model_validate({"seat": seat, **v}))
        record = self.header.model_copy(update={"results": tuple(results)})
        if self.question() is not None:
            return record
        sheet = replay(record).scores
        if sheet is None:
            return record
        done = tuple(r.model_copy(update={"total": ln.total, "rank": ln.rank}) for r, ln in zip(results, sheet.lines))
        return record.model_copy(update={"results": done})

    def save(self) -> None:
        if self.path is not None:
            write_atomic(self.path, write(self.record))

    def findings(self) -> list[str]:
        return [f"{f.severity}: {f.message} [{f.rule}]" for f in replay(self.record).findings]


def run(session: PadSession, *, echo: Callable[[str], None] = print, input: Any = None, output: Any = None) -> bool:
    """Ask the pad's rows until it is filled in (True) or the user stops (False); the sheet is shown at the end."""
    from prompt_toolkit import PromptSession

    from ..render import score_table

    prompt: PromptSession[str] = PromptSession(input=input, output=output)
    echo("the score pad, row by row: a number and Enter; undo takes back the last answer; Ctrl-D stops "
         "(the file keeps every answer)")
    session.save()
    while session.question() is not None:
        try:
            text = prompt.prompt(session.prompt())
        except (KeyboardInterrupt, EOFError):
            echo("stopped; `wnotation record --scores` on the same file goes on from there")
            return False
        message = session.answer(text)
        if message:
            echo(message)
    record = session.record
    sheet = replay(record).scores
    if sheet is not None:
        header, rows = score_table(record, sheet)
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        for r in [header, *rows]:
            echo("  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths))))
    for line in session.findings():
        echo(line)
    echo("the score pad is complete" + (f": {session.path}" if session.path else ""))
    return True
