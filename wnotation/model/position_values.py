"""The values of a position string (spec/position.md): :class:`Written`, a string as read for its syntax and names,
each part with where it is written; :class:`Setup`, the position it states once the engine has judged it; and
:class:`PositionError`, the refusal of a string (its check, where, the rule ID, what was expected).

Plain data over catalogue objects, no text and no rules: the reader fills a :class:`Written`
(:mod:`wnotation.model.position_string`), the engine judges it (:mod:`wnotation.engine.position_rules`), as
python-chess's board judges what its FEN reader read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import WnotationError
from .catalog import AGE_NUMERALS, Card, WonderSide
from .vocabulary import Address

__all__ = ["CHECKS", "PileWritten", "PositionError", "SeatSetup", "SeatWritten", "Setup", "Written"]

#: The checks of spec/position.md §6, in the order a reader makes them.
CHECKS = ("syntax", "unknown-name", "seats", "city", "tokens", "hand", "picks", "deck", "seed")


class PositionError(WnotationError, ValueError):
    """A position string that is not valid: ``check`` (one of :data:`CHECKS`), ``index`` (0-based character of
    the string the error points at; ``column`` is 1-based), ``rule`` (the rule ID of a rules check, else
    ``None``), ``expected`` (what would have been accepted, in words) and ``suggestion`` (a "did you mean")."""

    def __init__(self, check: str, message: str, index: int, *, rule: str | None = None,
                 expected: tuple[str, ...] = (), suggestion: str | None = None) -> None:
        super().__init__(message)
        self.check = check
        self.message = message
        self.index = index
        self.rule = rule
        self.expected = expected
        self.suggestion = suggestion

    @property
    def column(self) -> int:
        return self.index + 1

    def __str__(self) -> str:
        rule = f" ({self.rule})" if self.rule else ""
        return f"column {self.column}: {self.check}: {self.message}{rule}"


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """One seat of a :class:`Setup`: name as written (the seat key matches it), Wonder side, coins, military
    tokens in the order taken, stages as ``(Age built, card under it or None)``, Buildings in build order, the hand
    (``None`` for ``?``) and the builds from the discard pile owed."""

    name: str
    wonder: WonderSide
    coins: int
    tokens: tuple[int, ...] = ()
    stages: tuple[tuple[int, Card | None], ...] = ()
    buildings: tuple[Card, ...] = ()
    hand: tuple[Card | None, ...] = ()
    picks: int = 0


@dataclass(frozen=True, slots=True)
class Setup:
    """A position as its string states it: the address (``age``; ``turn`` 0..7; ``ended`` after the Age's
    military, with ``turn`` 6), the seats, the pile as ``(card or None, seat or 0 when not stated)``, the guilds
    and the seed when known. Plain data over catalogue objects; ``position_string.write`` gives its canonical
    string."""

    age: int
    turn: int
    ended: bool
    seats: tuple[SeatSetup, ...]
    pile: tuple[tuple[Card | None, int], ...] = ()
    guilds: tuple[Card, ...] | None = None
    seed: int | None = None

    @property
    def address(self) -> str:
        return f"{AGE_NUMERALS[self.age]}.{'end' if self.ended else self.turn}"

    @property
    def players(self) -> int:
        return len(self.seats)


@dataclass
class SeatWritten:
    """One seat as a string writes it, its cards looked up: each part with the 0-based index where it is written
    (``fields``: keyword -> index), for the judge to point at."""

    name: str
    name_at: int
    wonder: WonderSide
    wonder_at: int
    fields: dict[str, int]
    coins: int
    tokens: list[tuple[int, int]] = field(default_factory=list)
    stages: list[tuple[int, Card | None, int]] = field(default_factory=list)  # (Age built, card, where)
    built: list[tuple[Card | None, int]] = field(default_factory=list)
    hand: list[tuple[Card | None, int]] = field(default_factory=list)
    picks: int = 0
    picks_at: int = 0


#: A pile card as written: (card or None, seat or None, where the card is, where the seat number is).
PileWritten = tuple[Card | None, int | None, int, int]


@dataclass(frozen=True, slots=True, eq=False)
class Written:
    """A position string read for its syntax and its names (the checks ``syntax`` and ``unknown-name`` of
    spec/position.md §6), not yet judged by the rules: what a Record's ``[Position]`` tag holds once read
    (:attr:`wnotation.model.record.Record.start`). ``guilds_at`` is where the ``guilds`` keyword is written,
    ``seed_at`` where the seed's digits are; ``source`` the offset in the reader's text of each character of
    ``text`` and of the tag's closing quote when the reader read it from a tag (else empty), so that an error the
    engine finds later points at the character as the reader would have."""

    text: str
    address: Address
    seats: tuple[SeatWritten, ...]
    pile: tuple[PileWritten, ...] = ()
    guilds: tuple[tuple[Card | None, int], ...] | None = None
    guilds_at: int = 0
    seed: int | None = None
    seed_at: int = 0
    source: tuple[int, ...] = ()

    def seat_places(self) -> tuple[int, ...]:
        """Where each seat starts (the index of its ``<``), for errors about one seat."""
        return tuple(s.name_at for s in self.seats)
