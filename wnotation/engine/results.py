"""What a replay gives, as plain results: :class:`Replay` (events, findings, the score sheet, positions by
address), :class:`Positions` (snapshots taken on demand) and :class:`VariationReplay` (one variation replayed).

Results only: the replay core (:mod:`.run`) makes them, the facade (:mod:`.replay`) and the front ends read them;
this module imports neither, so the engine's modules form no import cycle.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from . import events as ev
from .findings import Finding
from .scoring import CityView, ScoreSheet, score
from .state import City, CityState, Game, State

__all__ = ["Positions", "Replay", "VariationReplay", "city_view", "position_in", "same_replay", "split_address"]


class Positions(Mapping[str, State]):
    """A replay's positions, address -> :class:`~.state.State` in game order, each a snapshot taken the first
    time it is asked for: the events are applied to a game from the nearest earlier position already taken (or
    from the start), so stepping forward through every position costs one pass over the events, and a position
    shares every city and hand that did not change with the one before. Read-only; membership, length and
    iteration take no snapshot."""

    __slots__ = ("start", "events", "marks", "taken", "cursor", "cursor_mark")

    def __init__(self, start: State | None, events: Sequence[ev.Event], marks: Mapping[str, int]) -> None:
        self.start = start  # None: a replay without positions (a score pad: nothing is dealt, no marks)
        self.events = events
        self.marks = marks
        self.taken: dict[str, State] = {}
        self.cursor: Game | None = None  # a game standing after ``cursor_mark`` events
        self.cursor_mark = 0

    def __getitem__(self, where: str) -> State:
        found = self.taken.get(where)
        if found is not None:
            return found
        mark = self.marks[where]
        game = self.cursor
        if game is None or self.cursor_mark > mark:
            base: State | None = self.start
            done = 0
            for a, m in self.marks.items():
                if m > mark:
                    break
                taken = self.taken.get(a)
                if taken is not None:
                    base, done = taken, m
            if base is None:
                raise KeyError(where)
            game = self.cursor = Game(base)
            self.cursor_mark = done
        for e in self.events[self.cursor_mark:mark]:
            game.apply(e)
        self.cursor_mark = mark
        found = self.taken[where] = game.snapshot()
        return found

    def __contains__(self, where: object) -> bool:
        return where in self.marks

    def __iter__(self) -> Iterator[str]:
        return iter(self.marks)

    def __len__(self) -> int:
        return len(self.marks)


@dataclass(frozen=True, eq=False)
class Replay:
    """A replayed game. ``events`` and ``findings`` in game order; ``positions`` maps each address to its position
    (a snapshot taken on first use, then shared: ``position(a)`` again is O(1)); ``marks`` maps each address to
    the number of events folded to reach it. ``scores`` is the score sheet once Age III has ended, else ``None``.
    """

    events: tuple[ev.Event, ...]
    findings: tuple[Finding, ...]
    positions: Positions = field(repr=False)  # read-only, in game order
    marks: Mapping[str, int] = field(repr=False)  # address -> number of events folded to reach it
    scores: ScoreSheet | None
    #: The replays of the record's variations (spec 7wn.md §6.2) by their address (``I.3(1)``, ``I.3(1).I.4(2)``),
    #: in text order; their findings are theirs, never in :attr:`findings`.
    variations: Mapping[str, VariationReplay] = field(default_factory=lambda: MappingProxyType({}), repr=False)

    def position(self, where: str) -> State:
        """The state at address ``where`` (``I.0``, ``II.3``, ``I.7``, ``III.end``; inside a variation
        ``I.3(1).I.4``, spec §6.1); ``KeyError`` naming the addresses that exist when there is no such position."""
        if "(" in where:
            return position_in(self.variations, where)
        try:
            return self.positions[where]
        except KeyError:
            have = ", ".join(self.positions) or "none"
            raise KeyError(f"no position {where!r} in this game (positions: {have})") from None

    @property
    def variation_findings(self) -> tuple[Finding, ...]:
        """The findings of every variation, in text order, each with its variation address (``I.3(1).I.4``)."""
        return tuple(f for v in self.variations.values() for f in v.findings)

    def score_at(self, where: str) -> ScoreSheet:
        """The score sheet as if the game ended at address ``where``: military tokens won so far, coins held,
        stages built, and Buildings, guilds and science counted on what the cities hold there. It is
        ``provisional`` unless ``where`` is the end of the game, where it equals :attr:`scores` (inside a
        variation, the variation's sheet). Raises ``KeyError`` as :meth:`position` does. Cost: one score sheet,
        O(cards in the cities)."""
        state = self.position(where)
        if state.finished and self.scores is not None and "(" not in where:
            return self.scores
        return score([city_view(c) for c in state.cities], provisional=not state.finished)

    def step(self, where: str, by: int = 1) -> str | None:
        """The address ``by`` positions after ``where`` (before it if negative), or ``None`` past either end."""
        order = self.addresses
        k = order.index(where) + by
        return order[k] if 0 <= k < len(order) else None

    def __iter__(self) -> Iterator[tuple[str, State]]:
        """``(address, state)`` in game order."""
        return iter(self.positions.items())

    def __len__(self) -> int:
        return len(self.positions)

    @property
    def addresses(self) -> tuple[str, ...]:
        return tuple(self.positions)

    @property
    def final(self) -> State | None:
        """The last position reached, or ``None`` if nothing was dealt."""
        last = next(reversed(tuple(self.marks)), None)
        return None if last is None else self.positions[last]

    @property
    def complete(self) -> bool:
        return self.scores is not None

    @property
    def ok(self) -> bool:
        """True when no finding is an error."""
        return not any(f.severity == "error" for f in self.findings)


def same_replay(a: Replay, b: Replay) -> bool:
    """Whether two replays say the same: equal events, findings (rule, message, address, seat, severity) and
    score sheets. Source spans are not compared (the canonical form must not change what a record says)."""
    def findings(r: Replay) -> list[tuple[str, str, str, int | None, str]]:
        return [(f.rule, f.message, f.address, f.seat, f.severity) for f in r.findings]

    return a.events == b.events and findings(a) == findings(b) and a.scores == b.scores


def city_view(city: City | CityState) -> CityView:
    """What scoring reads of a city, in a position or in a game."""
    return CityView(city.buildings, city.wonder, city.stages, city.coins, city.tokens)


# --- variations -------------------------------------------------------------------------------------------------

_NUMERAL = r"(?:III|II|I)"
#: A position address inside a variation: the variation's path (``I.3(1).I.4(2).``), then a position label.
_ADDRESS = re.compile(rf"((?:{_NUMERAL}\.[1-7]\([1-9][0-9]*\)\.)+)({_NUMERAL}\.(?:[0-7]|end))", re.IGNORECASE)


@dataclass(frozen=True, eq=False)
class VariationReplay:
    """One variation replayed: ``address`` (``I.3(1)``) names it, ``replaces`` is the label of the turn it replaces
    and ``parent`` the address of the line it branches from (``""`` for the main line). ``positions`` maps the
    position labels its replay reaches (``I.3``, ``I.end``, ``II.0``) to states, snapshots taken when asked for;
    ``findings`` carry full addresses (``I.3(1).I.4``); ``scores`` is its score sheet if it reaches the end of
    Age III (never verified: a variation states no results)."""

    address: str
    replaces: str
    parent: str
    events: tuple[ev.Event, ...]
    findings: tuple[Finding, ...]
    positions: Positions
    scores: ScoreSheet | None

    @property
    def addresses(self) -> tuple[str, ...]:
        """The full addresses of its positions, in order: ``I.3(1).I.3``, ``I.3(1).I.4``, …"""
        return tuple(f"{self.address}.{label}" for label in self.positions)


def split_address(where: str) -> tuple[str, str] | None:
    """``(variation address, position label)`` of a position address inside a variation, spelt canonically
    (``i.3(1).ii.END`` → ``("I.3(1)", "II.end")``); ``None`` for any other text."""
    m = _ADDRESS.fullmatch(where.strip())
    if m is None:
        return None
    age, _, turn = m.group(2).partition(".")
    return m.group(1)[:-1].upper(), f"{age.upper()}.{turn.lower()}"


def position_in(lines: Mapping[str, VariationReplay], where: str) -> State:
    """The state at ``where``, a position address inside a variation (spec §6.1). Raises ``KeyError`` with a
    message naming what exists: the variations, or the variation's positions."""
    parts = split_address(where)
    if parts is None:
        raise KeyError(f"{where!r} is not a position address inside a variation (e.g. I.3(1).I.4: the variation's "
                       "turn label and number, then a position of it)")
    path, label = parts
    line = lines.get(path)
    if line is None:
        have = ", ".join(lines) or "none"
        raise KeyError(f"no variation {path!r} in this game (variations: {have})")
    try:
        return line.positions[label]
    except KeyError:
        have = ", ".join(line.addresses) or "none: it is not replayed (see its findings)"
        raise KeyError(f"no position {label!r} in variation {path} (its positions: {have})") from None
