"""What the recorder shows between questions: a finding, the standings after a turn, an Age's military, the final
score sheet. Plain lines of text from a Record's roster and its Replay; no terminal code."""

from __future__ import annotations

from ..engine import Finding, Replay
from ..engine import events as ev
from ..model.record import Record
from ..model.vocabulary import numeral

__all__ = ["coins", "counted", "finding", "military", "sheet", "standings"]


def coins(n: int) -> str:
    """``1 coin``, ``3 coins``."""
    return f"{n} coin" if n == 1 else f"{n} coins"


def counted(found: list[Finding]) -> str:
    """``2 errors (R-DECK, R-UNIQUE)``, ``1 error (R-TRADE) and 1 warning (R-HALI)``: the findings by severity."""
    parts = []
    for severity in ("error", "warning"):
        these = [f for f in found if f.severity == severity]
        if these:
            rules = ", ".join(dict.fromkeys(f.rule for f in these))
            parts.append(f"{len(these)} {severity}{'s' if len(these) != 1 else ''} ({rules})")
    return " and ".join(parts)


def finding(f: Finding) -> str:
    """``II.3 error[R-TRADE]: Bob cannot build …``: the address, severity, rule ID and message."""
    return f"{f.address} {f.severity}[{f.rule}]: {f.message}"


def standings(record: Record, played: Replay, label: str) -> list[str]:
    """Coins, shields and provisional points (:meth:`~wnotation.engine.Replay.score_at`) of every seat at
    ``label``."""
    state = played.position(label)
    sheet = played.score_at(label)
    width = max(len(s.name) for s in record.seats)
    return [f"  {s.name.ljust(width)}  coins {c.coins:2}  shields {c.shields:2}  points {ln.total:3}"
            for s, c, ln in zip(record.seats, state.cities, sheet.lines)]


def military(record: Record, played: Replay, age: int) -> list[str]:
    """The military result of ``age`` (R-MILITARY): each seat's tokens of that Age and its military points so far;
    nothing if the replay has not reached the end of that Age."""
    end = f"{numeral(age)}.end"
    if end not in played.marks:
        return []
    start = played.marks.get(f"{numeral(age)}.0", 0)
    state = played.position(end)
    lines = [f"Age {numeral(age)} military:"]
    for s, c in zip(record.seats, state.cities):
        tokens = [e.token for e in played.events[start:played.marks[end]]
                  if isinstance(e, ev.ConflictResolved) and e.seat == c.seat]
        shown = " ".join(f"{t:+d}" for t in tokens) or "no token"
        lines.append(f"  {s.name}: {shown} (military {sum(c.tokens)})")
    return lines


def sheet(record: Record, played: Replay) -> list[str]:
    """The final score sheet laid out as the score pad (a column per seat, a row per category, as ``score``
    prints it); nothing before the end of the game."""
    from ..formats.render import score_table

    if played.scores is None:
        return []
    header, rows = score_table(record, played.scores)
    table = [header] + rows
    widths = [max(len(row[k]) for row in table) for k in range(len(header))]
    return ["  ".join(cell.ljust(w) if k == 0 else cell.rjust(w) for k, (cell, w) in enumerate(zip(row, widths)))
            for row in table]
