"""Replay a Record: the engine's front door. :func:`replay` runs the replay core (:mod:`.run`) on the main line,
hands a score-pad record to :mod:`.scorepad`, replays the variations (:mod:`.variations`), verifies the record's
expected results (R-SCORE) and returns a :class:`~.results.Replay`; it neither reads text nor renders findings.

The result types and the core live in :mod:`.results` and :mod:`.run`; their names are importable from here too,
as before the split.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from types import MappingProxyType
from typing import Final

from ..model.position_values import PositionError
from ..model.record import CATEGORIES, POSITION_TAG, Record, has_variations, start_of
from .findings import Finding
from .memo import clear_all
from .position import position_tag
from .results import Positions, Replay, VariationReplay, city_view
from .rules import address
from .run import Decoded, Run, Unpaid, decode
from .scorepad import pad_replay, symbol_findings
from .scoring import ScoreSheet, score
from .state import Table
from .variations import replay_variations

__all__ = ["Decoded", "Positions", "Replay", "Run", "Unpaid", "VariationReplay", "city_view", "clear_caches",
           "decode", "refused_start", "replay"]

_FIELDS = CATEGORIES + ("total", "coins", "rank")
#: A result's (or a score line's) fields of :data:`_FIELDS`, read at once: a result is compared as one tuple.
_READ: Final = attrgetter(*_FIELDS)


def replay(record: Record) -> Replay:
    """Replay ``record``: every event and finding, the score sheet when the game is complete, with the record's
    expected results verified (R-SCORE), and its positions (taken when asked for). Deterministic. Cost: linear in
    the number of actions, with memoised trade questions; no position is built unless asked for. A score-pad record
    (results, no turns) and a record naming expansions are checked by :mod:`.scorepad` instead. A record that
    starts from a ``[Position]`` starts from the position the engine judges its ``start`` to be; one the rules do not
    allow is not played: its replay holds the one error that says why (:func:`refused_start`), and ``check``
    reports it as the reader reports a bad tag (spec/position.md §8)."""
    if record.expansions or (record.results and not record.turns and position_tag(record) is None):
        return pad_replay(record)
    try:
        run = Run(record)
    except PositionError as exc:
        return refused_start(record, exc)
    branching = has_variations(record)
    if branching:
        run.branch_at = frozenset((t.age, t.number) for t in record.turns if t.variations)
    run.run()
    sheet = None
    if run.game.finished:
        sheet = score([city_view(c) for c in run.game.cities])
    stop = run.start.address if run.begin is not None and not run.decoded.order else _stop(run.decoded.order)
    run.findings += _verify(record, sheet, run.table, stop)
    if record.results:
        run.findings += symbol_findings(record)
    events = tuple(run.events)
    marks = MappingProxyType(run.marks)
    lines: Mapping[str, VariationReplay] = MappingProxyType({})
    if branching:
        lines = replay_variations(run)
    return Replay(events, tuple(run.findings), Positions(run.start, events, marks), marks, sheet, lines)


def refused_start(record: Record, exc: PositionError) -> Replay:
    """The replay of a record whose ``[Position]`` the engine refused (``exc``, from
    :func:`~.position_rules.judge`): nothing is played from a position the rules do not allow, so it has no
    position, and its one finding, at the tag, is the refusal under the rule it breaks (a seed too large for the
    deal: R-DECK)."""
    try:
        written = start_of(record)
        where = str(written.address) if written is not None else "game"
    except ValueError:  # the string does not even read: the finding is about the game
        where = "game"
    tag = next((t for t in record.tags if t.name == POSITION_TAG), None)
    message = f"[Position]: position string, column {exc.column}: {exc.check}: {exc.message}"
    finding = Finding(exc.rule or "R-DECK", message, where, None, tag.span if tag is not None else record.span)
    marks: Mapping[str, int] = MappingProxyType({})
    return Replay((), (finding,), Positions(None, (), marks), marks, None)


def clear_caches() -> None:
    """Forget every memoised answer of the engine (trade questions and solver tables, card facts, interned
    events, seeded deals, guild lists, card names) and of the reader and position strings (turn pieces, card
    spellings, the Ages of card names), e.g. to measure a first replay, or to free memory. Results never change."""
    clear_all()


def _stop(order: Sequence[tuple[int, int]]) -> str:
    """Where the record stops: the address of its last turn (``order`` as decoded), or ``start`` without one."""
    return address(*max(order)) if order else "start"


def _verify(record: Record, sheet: ScoreSheet | None, table: Table, stop: str) -> list[Finding]:
    """R-SCORE findings for each stated expected result that differs from the computed score sheet, or one
    error when results are stated but the record stops (at ``stop``) before the end of Age III: results claim a
    finished game."""
    if not record.results:
        return []
    if sheet is None:
        return [Finding("R-SCORE", f"the record states results, but it stops at {stop} before the game ends: "
                        "results belong to a finished game", "game", None, record.results[0].span)]
    found = []
    for r in record.results:
        if not 1 <= r.seat <= len(sheet.lines):
            found.append(Finding("R-SCORE", f"results for seat {r.seat}, which is not at the table", "III.end",
                                 None, r.span))
            continue
        line = sheet.line(r.seat)
        wants: tuple[int | None, ...] = _READ(r)
        gots: tuple[int | None, ...] = _READ(line)
        if wants == gots:
            continue  # the common case: every field stated, each as computed
        name = table.names[r.seat - 1]
        for f, want, got in zip(_FIELDS, wants, gots):
            if want is not None and want != got:
                found.append(Finding("R-SCORE", f"expected {f} {want} for {name}, computed {got}", "III.end",
                                     r.seat, r.span))
    return found
