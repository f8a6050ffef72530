"""Score-pad records (7WN §9.1): a header and result lines, no turns, as groups fill in the paper score pad.

Nothing is replayed; what the pad itself decides is checked: each seat has a line; each total is the sum of its
categories, expansion rows and negative ones included (R-SCORE, R-SCORE-EXP); the ranks follow the totals and the
coin tie-break, with shared places (R-WIN); military points are a sum of conflict tokens (R-MILITARY); treasury is
coins // 3 and science follows the symbols when they are stated (R-SCORE); an expansion row needs its expansion
named in the header (R-SCORE-EXP). A record with turns that names expansions is refused: turn-by-turn replay
covers the base game only. The pad's score sheet is its categories as written, totals and ranks computed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ..model.record import Record, SeatResult
from ..model.vocabulary import EXPANSIONS
from .findings import Finding
from .results import Positions, Replay
from .rules import VICTORY
from .scoring import CATEGORIES, EXPANSION_CATEGORIES, ScoreLine, ScoreSheet, science_points

#: An expansion row -> the expansion the ``[Expansions]`` tag names for it (read-only).
EXPANSION_OF: Mapping[str, str] = MappingProxyType(dict(zip(EXPANSION_CATEGORIES, EXPANSIONS)))
#: The base rows that can never be negative (military can, and Cities, Armada and Edifice rows can).
_NEVER_NEGATIVE = ("treasury", "wonder", "civilian", "commercial", "guilds", "science")
_SYMBOLS = ("tablets", "compasses", "gears")
_GAME = "game"


def _military() -> frozenset[int]:
    """Every military score the conflict tokens of three Ages can give (R-MILITARY): each Age, against each of
    two neighbours, a victory token worth that Age's value, a defeat token (-1) or nothing."""
    ages = [{won * value - lost for won in range(3) for lost in range(3 - won)} for value in VICTORY]
    return frozenset(a + b + c for a in ages[0] for b in ages[1] for c in ages[2])


#: The reachable military scores: -6 to 18.
MILITARY = _military()


def is_score_pad(record: Record) -> bool:
    """A record without turns that states results or names expansions."""
    return not record.turns and bool(record.results or record.expansions)


def symbol_findings(record: Record) -> list[Finding]:
    """R-SCORE errors for results stating the three symbol counts with a science score they do not give (squares
    plus 7 per set; "any" symbols are counted as assigned); any record, replayed or not."""
    found = []
    for r in record.results:
        counts = [getattr(r, s) for s in _SYMBOLS]
        if any(c is not None and c < 0 for c in counts):
            found.append(_error("R-SCORE", f"{_name(record, r)}'s symbol counts cannot be negative", r))
        elif None not in counts and r.science is not None:
            t, c, g = counts
            want = science_points(t, c, g)
            if want != r.science:
                found.append(_error("R-SCORE", f"{_name(record, r)}'s symbols ({t} tablets, {c} compasses, {g} "
                                    f"gears) give {want} science points ({t}² + {c}² + {g}² + 7 × "
                                    f"{min(t, c, g)}), not {r.science}", r))
    return found


def check(record: Record) -> tuple[list[Finding], ScoreSheet | None]:
    """The findings on a score-pad record and its score sheet (``None`` unless every seat states every category
    of the sheet: the base rows and those of the expansions named)."""
    found: list[Finding] = []
    rows = CATEGORIES + tuple(c for c in EXPANSION_CATEGORIES if EXPANSION_OF[c] in record.expansions)
    by_seat = {r.seat: r for r in record.results}
    missing = [s.name for k, s in enumerate(record.seats, 1) if k not in by_seat]
    if missing:
        found.append(Finding("R-SCORE", f"the score pad has no result line for {_and(missing)}: a score-pad record "
                             "gives every seat a line", _GAME, None, record.span))
    totals: dict[int, int] = {}
    for r in record.results:
        found += _line(record, r, rows, totals)
    found += symbol_findings(record)
    ranks = _ranks(record, totals, found) if len(totals) == record.players else {}
    complete = not missing and all(getattr(r, c) is not None for r in record.results for c in rows)
    if not complete or not ranks:
        return found, None
    lines = []
    for k in range(1, record.players + 1):
        r = by_seat[k]
        values = {c: getattr(r, c) for c in rows}
        lines.append(ScoreLine(k, total=totals[k], coins=r.coins, rank=ranks[k], **values))
    return found, ScoreSheet(tuple(lines), expansions=rows[len(CATEGORIES):])


def _line(record: Record, r: SeatResult, rows: Sequence[str], totals: dict[int, int]) -> list[Finding]:
    """The checks of one result line; its total (stated, else the sum of a complete line) goes in ``totals``."""
    name = _name(record, r)
    found = []
    for c in EXPANSION_CATEGORIES:
        if getattr(r, c) is not None and EXPANSION_OF[c] not in record.expansions:
            found.append(_error("R-SCORE-EXP", f"{name}'s {c} row belongs to games played with {EXPANSION_OF[c]}, "
                                "which the record's [Expansions] tag does not name", r))
    if r.military is not None and r.military not in MILITARY:
        found.append(_error("R-MILITARY", f"{name}'s military {r.military} cannot be: the conflict tokens of three "
                            f"Ages give {min(MILITARY)} to {max(MILITARY)} (a victory is worth 1, 3 or 5 by Age, a "
                            "defeat -1, against each of two neighbours)", r))
    for c in _NEVER_NEGATIVE + ("coins",):
        value = getattr(r, c)
        if value is not None and value < 0:
            found.append(_error("R-SCORE", f"{name}'s {c} {value} cannot be negative", r))
    if r.treasury is not None and r.coins is not None and r.coins >= 0 and r.treasury != r.coins // 3:
        found.append(_error("R-SCORE", f"{name}'s treasury is {r.coins // 3} for {r.coins} coins (coins / 3, "
                            f"rounded down), not {r.treasury}", r))
    stated = [c for c in rows if getattr(r, c) is not None] + [
        c for c in EXPANSION_CATEGORIES if c not in rows and getattr(r, c) is not None]
    whole = all(getattr(r, c) is not None for c in rows)
    if whole:
        parts = sum(getattr(r, c) for c in stated)
        if r.total is not None and r.total != parts:
            terms = " + ".join(f"{c} {getattr(r, c)}" for c in stated)
            rule = "R-SCORE-EXP" if any(c in EXPANSION_CATEGORIES for c in stated) else "R-SCORE"
            found.append(_error(rule, f"{name}'s categories add up to {parts} ({terms}), not the total "
                                f"{r.total}", r))
        totals[r.seat] = parts if r.total is None else r.total
    elif r.total is not None:
        totals[r.seat] = r.total
    else:
        left = [c for c in rows if getattr(r, c) is None]
        found.append(_error("R-SCORE", f"{name}'s line states no total and leaves out {_and(left)}: a score-pad "
                            "line needs its total or every category", r))
    return found


def _coins(r: SeatResult) -> tuple[int, float]:
    """The coins a line allows: stated, else 3t..3t+2 for a treasury t, else any number."""
    if r.coins is not None:
        return r.coins, r.coins
    if r.treasury is not None:
        return 3 * r.treasury, 3 * r.treasury + 2
    return 0, float("inf")


def _ranks(record: Record, totals: dict[int, int], found: list[Finding]) -> dict[int, int]:
    """Each seat's place (R-WIN: highest total, then most coins, else shared): a stated rank is checked against the
    places the totals and coins leave possible and kept; an unstated one is the best place the pad proves."""
    lines = {r.seat: r for r in record.results}
    ranks: dict[int, int] = {}
    for seat, total in totals.items():
        lo, hi = _coins(lines[seat])
        above = maybe = 0
        for other, t in totals.items():
            if other == seat or t < total:
                continue
            if t > total:
                above += 1
                continue
            olo, ohi = _coins(lines[other])
            if olo > hi:
                above += 1  # surely more coins
            elif ohi >= lo and not (olo == ohi and lo == hi):
                maybe += 1  # the pad does not say who has more coins
        r = lines[seat]
        if r.rank is None:
            ranks[seat] = 1 + above
        elif not 1 + above <= r.rank <= 1 + above + maybe:
            places = f"{1 + above}" if not maybe else f"{1 + above} to {1 + above + maybe}"
            found.append(_error("R-WIN", f"{_name(record, r)}'s rank {r.rank} does not follow the totals and coins "
                                f"(highest total first, ties broken by coins, then shared): {places}", r))
            ranks[seat] = 1 + above
        else:
            ranks[seat] = r.rank
    for total in set(totals.values()):
        tied = [s for s, t in totals.items() if t == total]
        best = 1 + sum(1 for t in totals.values() if t > total)
        stated = [lines[s].rank for s in tied]
        if len(tied) > 1 and None not in stated and best not in stated and not any(
                f.rule == "R-WIN" and f.seat in tied for f in found):
            who = _and([record.seats[s - 1].name for s in tied])
            found.append(_error("R-WIN", f"{who} tie on {total} points, so one of them ranks {best}; the pad "
                                f"ranks them {', '.join(map(str, stated))}", lines[tied[0]]))
    return ranks


def pad_replay(record: Record) -> Replay:
    """The Replay of a record without turns to replay: a score pad's findings and sheet, no events, no position
    but the start. A record with turns that names expansions gets one R-SCORE-EXP error and no sheet."""
    if record.turns:
        first = record.turns[0]
        finding = Finding("R-SCORE-EXP", f"the record names expansions ({', '.join(record.expansions)}) and has "
                          "turns: turn-by-turn replay covers the base game only; a score-pad record (the header "
                          "and result lines, no turns) of the game works everywhere", first.label, None, first.span)
        findings, sheet = [finding], None
    else:
        findings, sheet = check(record)
    marks: MappingProxyType[str, int] = MappingProxyType({})
    # No position exists (nothing is dealt), so the Positions' start is never read.
    return Replay((), tuple(findings), Positions(None, (), marks), marks, sheet)


def _error(rule: str, message: str, r: SeatResult) -> Finding:
    return Finding(rule, message, _GAME, r.seat, r.span)


def _name(record: Record, r: SeatResult) -> str:
    return record.seats[r.seat - 1].name


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
