"""``wnotation record --scores``: a score-pad record (7WN §9.1) entered the way the paper pad is filled in.

Row by row (coins first, then the seven base rows, the rows of the expansions named, R-SCORE-EXP, and the total),
seat by seat in seat order. Treasury defaults to coins ÷ 3, the total to the sum of the rows; science takes the
points or three symbol counts (tablets, compasses, gears: ``3 2 1``), from which it computes the points (R-SCORE).
Every answer is checked the moment it is typed, by the engine's own checks of a pad (engine/scorepad.py: treasury
against coins, the symbols against science, military within what three Ages of conflict tokens give, the total
against the rows, no negative row that cannot be): an answer with an error is kept only on an explicit yes
(``record treasury 3 for Kai with 1 error (R-SCORE)? [y/N]``), anything else asks the row again. ``undo`` takes
back the last answer; ``ROW SEAT`` (``treasury Kai``) re-enters a row, on a pad being filled in or on one opened
complete, so that an existing pad can be corrected; Enter on coins skips them (the pad may leave them out). After
every answer the file is rewritten atomically: the ranks (R-WIN) once every row is in, so the file always reads,
and a file holding an unfinished pad goes on where it stopped. A filled-in pad holding an error says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..support.atomicfile import write_atomic
from ..support.compiler_style import visible
from ..engine import Finding, replay
from ..engine import scorepad
from ..engine.scoring import science_points
from ..notation import parse, write
from ..model.record import Record, SeatResult
from ..model.vocabulary import CATEGORIES, EXPANSION_CATEGORIES, EXPANSION_OF_CATEGORY, EXPANSIONS, seat_key

__all__ = ["PadSession", "expansions_of", "run"]

UNDO = "undo"
YES = ("y", "yes")
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
    # an answer with errors waiting for the user's yes: (seat, row, the values it would set, the errors)
    confirm: tuple[int, str, dict[str, int | None], tuple[Finding, ...]] | None = None

    @property
    def rows(self) -> tuple[str, ...]:
        named = tuple(c for c in EXPANSION_CATEGORIES if EXPANSION_OF_CATEGORY[c] in self.header.expansions)
        return ("coins",) + CATEGORIES + named + ("total",)

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
        if self.confirm is not None:
            seat, row, values, errors = self.confirm
            rules = ", ".join(dict.fromkeys(f.rule for f in errors))
            n = len(errors)
            return visible(f"record {row} {values[row]} for {self.header.seats[seat - 1].name} with {n} "
                           f"error{'s' if n != 1 else ''} ({rules})? [y/N]> ")
        q = self.question()
        if q is None:
            return "re-enter a row (ROW SEAT, e.g. treasury " + visible(self.header.seats[0].name) + "), or Enter: done> "
        seat, row = q
        name = self.header.seats[seat - 1].name
        hint = {"coins": " (Enter: not counted)", "science": " (points, or tablets compasses gears: 3 2 1)"}
        default = self.default(seat, row)
        return visible(f"{row} {name}{hint.get(row, '')}" + (f" [{default}]" if default is not None else "") + "> ")

    def default(self, seat: int, row: str) -> int | None:
        v = self.values.get(seat, {})
        coins = v.get("coins")
        if row == "treasury":
            return coins // 3 if coins is not None else None
        if row == "total":
            parts = [v.get(r) for r in self.rows[1:-1]]
            return sum(p for p in parts if p is not None) if None not in parts else None
        return None

    def answer(self, text: str) -> tuple[str, ...]:
        """Take an answer to :meth:`question` (or to the confirmation of an answer with errors); the lines to show
        (findings, why an answer is refused). ``ROW SEAT`` re-enters a row."""
        typed = " ".join(text.split())
        if self.confirm is not None:
            held = self.confirm
            self.confirm = None
            if typed.casefold() not in YES:
                name = self.header.seats[held[0] - 1].name
                return (f"not recorded: {held[1]} {held[2][held[1]]} for {name}; enter it again",)
            self._set(*held[:3])
            return ()
        if typed.casefold() == UNDO:
            if not self.answered:
                return ("nothing to undo",)
            seat, row = self.answered.pop()
            self.values[seat].pop(row, None)
            for s in _SYMBOLS if row == "science" else ():
                self.values[seat].pop(s, None)
            self.save()
            return ()
        again = self._reenter(typed)
        if again is not None:
            return again
        q = self.question()
        if q is None:
            return (f"{typed!r}: re-enter a row as ROW SEAT (rows: {', '.join(self.rows)}), or Enter",)
        seat, row = q
        try:
            numbers = [int(w) for w in typed.split()]
        except ValueError:
            return (f"{row}: a whole number" + (", or three symbol counts" if row == "science" else ""),)
        values: dict[str, int | None]
        if not numbers:
            if row == "coins":
                self._set(seat, row, {row: None})
                return ()
            value = self.default(seat, row)
            if value is None:
                return (f"{row}: a whole number",)
            numbers = [value]
        if row == "science" and len(numbers) == 3:
            if min(numbers) < 0:
                return ("symbol counts are 0 or more",)
            values = {row: science_points(*numbers), **dict(zip(_SYMBOLS, numbers))}
        elif len(numbers) == 1:
            values = {row: numbers[0]}
        else:
            return (f"{row}: one number" + (" (or three symbol counts)" if row == "science" else ""),)
        errors = self._errors(seat, row, values)
        if errors:
            self.confirm = (seat, row, values, tuple(errors))
            return tuple(f"error[{f.rule}]: {f.message}" for f in errors)
        self._set(seat, row, values)
        return ()

    def _reenter(self, typed: str) -> tuple[str, ...] | None:
        """``ROW SEAT``: take back that row of that seat (and its total, asked again from the new rows), so that the
        next question asks it; ``None`` when ``typed`` is not a row and a seat."""
        parts = typed.split(None, 1)
        if len(parts) != 2 or parts[0].casefold() not in self.rows:
            return None
        row = parts[0].casefold()
        names = [s.name for s in self.header.seats]
        found = [k for k, n in enumerate(names, 1) if seat_key(n) == seat_key(parts[1])] or [
            k for k, n in enumerate(names, 1) if seat_key(n).startswith(seat_key(parts[1]))]
        if len(found) != 1:
            return (f"no seat {parts[1]!r}: seats {', '.join(names)}",)
        seat = found[0]
        for r in (row, "total"):
            if (seat, r) in self.answered:
                self.answered.remove((seat, r))
                self.values[seat].pop(r, None)
                for s in _SYMBOLS if r == "science" else ():
                    self.values[seat].pop(s, None)
        self.save()
        return (f"{row} {names[seat - 1]}: enter it again",)

    def _errors(self, seat: int, row: str, values: dict[str, int | None]) -> list[Finding]:
        """The errors the engine's pad checks find in ``seat``'s line once ``values`` are put in it, that the line
        did not have before (a line not filled in yet is given a total, so that only what is typed is judged)."""
        def errors(extra: dict[str, int | None]) -> list[Finding]:
            found, _ = scorepad.check(self._checkable({**self.values.get(seat, {}), **extra}, seat))
            return [f for f in found if f.seat == seat and f.severity == "error"]

        had = Counter((f.rule, f.message) for f in errors({}))
        out = []
        for f in errors(values):
            if had[(f.rule, f.message)]:
                had[(f.rule, f.message)] -= 1
            else:
                out.append(f)
        return out

    def _checkable(self, line: dict[str, int | None], seat: int) -> Record:
        """The record of ``seat``'s line alone as the pad checks it (other seats' lines are not judged here)."""
        v = {k: x for k, x in line.items() if x is not None}
        if v.get("total") is None and any(v.get(r) is None for r in self.rows[1:-1]):
            v["total"] = 0  # not filled in yet: no finding about the rows still to come
        results = tuple(SeatResult.model_validate({"seat": seat, **v}) for _ in (0,))
        return self.header.model_copy(update={"results": results})

    def _set(self, seat: int, row: str, values: dict[str, int | None]) -> None:
        self._put(seat, row, values[row])
        self.values[seat].update({k: x for k, x in values.items() if k != row})
        self.save()

    def _put(self, seat: int, row: str, value: int | None) -> None:
        self.values.setdefault(seat, {})[row] = value
        self.answered.append((seat, row))

    @property
    def record(self) -> Record:
        """The pad so far as a record: every value given; once every row is in, each rank too."""
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

    def errors(self) -> list[Finding]:
        """The errors of the pad as it stands (the engine's checks of the whole record)."""
        return [f for f in replay(self.record).findings if f.severity == "error"]

    def findings(self) -> list[str]:
        return [f"{f.severity}[{f.rule}]: {f.message}" for f in replay(self.record).findings]


def run(session: PadSession, *, echo: Callable[[str], None] = print, input: Any = None, output: Any = None) -> bool:
    """Ask the pad's rows until it is filled in, then show its sheet and findings and offer to re-enter a row, until
    Enter (True) or the user stops (False). Every line shown goes through the one sanitiser."""
    from prompt_toolkit import PromptSession

    from ..formats.render import score_table

    def show(line: str) -> None:
        echo(visible(line))

    prompt: PromptSession[str] = PromptSession(input=input, output=output)
    show("the score pad, row by row: a number and Enter (each row is checked as it is typed); undo takes back the "
         "last answer, ROW SEAT re-enters a row (treasury Ada); Ctrl-D stops (the file keeps every answer)")
    session.save()
    while True:
        if session.question() is None and session.confirm is None:
            record = session.record
            sheet = replay(record).scores
            if sheet is not None:
                header, rows = score_table(record, sheet)
                widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
                for r in [header, *rows]:
                    show("  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths))))
            for line in session.findings():
                show(line)
        try:
            text = prompt.prompt(session.prompt())
        except (KeyboardInterrupt, EOFError):
            session.confirm = None  # an answer with errors not confirmed is not kept
            if session.question() is None:
                break
            show("stopped; `wnotation record --scores` on the same file goes on from there")
            return False
        if session.question() is None and session.confirm is None and not text.strip():
            break
        for line in session.answer(text):
            show(line)
    errors = session.errors()
    where = f": {session.path}" if session.path else ""
    if errors:
        show(f"the score pad is filled in with {len(errors)} error{'s' if len(errors) != 1 else ''} "
             f"({', '.join(dict.fromkeys(f.rule for f in errors))}){where}; `wnotation record --scores` on the "
             "same file re-enters a row")
    else:
        show(f"the score pad is complete{where}")
    return True
