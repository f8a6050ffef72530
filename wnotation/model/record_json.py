"""The Record's pydantic twins: the JSON boundary (reading and writing JSON, the JSON Schema, validating a Record
made in code), and the one adapter between them and the native classes of :mod:`wnotation.model.record`.

Each twin has the name, fields, docstring (the schema's description) and validators the Record's classes had when
they were pydantic models, so the JSON Schema, every refusal message and the ``ValidationError`` they raise are the
same. A twin is validated from JSON data or from a native object's attributes (``from_attributes``), then turned
into the native object by :func:`to_native`. Only this module imports pydantic; nothing on the reader's and the
engine's path imports it (``tests/test_cli_startup.py``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, InstanceOf, field_validator, model_validator
from pydantic import Tag as Branch
from pydantic.json_schema import SkipJsonSchema

from . import catalog as _catalog
from .position_values import Written
from .record_checks import (
    RESULT_BOUND,
    EDITION,
    FORMAT_VERSION,
    MAX_PURCHASE_COINS,
    Expansion,
    Glyph,
    Use,
    check_seats,
    coins_problem,
    start_of,
)
from .vocabulary import EXPANSIONS as _EXPANSIONS

#: Makes the native object of a twin: its class name and its fields (the native classes' module passes it, so this
#: module never imports that one: ``record`` -> ``record_json``, one way).
Native = Callable[[str, dict[str, Any]], Any]



class Span(BaseModel):
    """Where an element starts in its source text (1-based line and column, 0-based offset)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True, from_attributes=True)
    line: int = Field(ge=0, lt=1 << 63)
    column: int = Field(ge=0, lt=1 << 63)
    offset: int = Field(default=0, ge=0, lt=1 << 63)


#: Where an element was read from: never in JSON, so not in the JSON Schema either.
SourceSpan = SkipJsonSchema[Span | None]


class _Model(BaseModel):
    """Frozen, no extra fields; read from a native Record's attributes as well as from JSON data.

    ``defer_build``: pydantic builds a model's validator and serializer when it is first used, not when the class
    is made, so a program that validates only Records builds only what those need."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True, from_attributes=True)


class Annotation(_Model):
    """What a person wrote around an element: comments, a move glyph and structured key–value tags.

    ``before``/``after`` hold comment texts in order (several allowed); ``tags`` holds parsed ``{key=value}``
    pairs in file order (e.g. ``("eval", "+3")``), never left inside comment text.
    """

    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    glyph: Glyph | None = None
    tags: tuple[tuple[str, str], ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.before or self.after or self.glyph or self.tags)


NO_ANNOTATION = Annotation()


# What a record states was bought; the engine's solved purchase, with its coins, is wnotation.engine.trade.Purchase.
# The docstring is the schema's description, and JSON and its schema keep the name Purchase (spec 14).
class StatedPurchase(_Model):
    """Resource units bought from each neighbour for one payment (R-TRADE); each tuple is sorted."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True, from_attributes=True, title="Purchase")

    left: tuple[str, ...] = ()
    right: tuple[str, ...] = ()


class CoinsPaid(_Model):
    """A purchase stated by the coins paid to each neighbour (format version 2, spec §7.4): the engine finds the
    units those coins buy (R-TRADE-MINIMAL). Both members are required, so ``{}`` is never one of these."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True, from_attributes=True, title="CoinsPaid")

    left_coins: int = Field(ge=0, json_schema_extra={"maximum": MAX_PURCHASE_COINS})
    right_coins: int = Field(ge=0, json_schema_extra={"maximum": MAX_PURCHASE_COINS})

    @field_validator("left_coins", "right_coins")
    @classmethod
    def _holdable(cls, value: int) -> int:
        """At most :data:`MAX_PURCHASE_COINS` to a side (spec 7.4): more than any purchase pays or seat holds."""
        if value > MAX_PURCHASE_COINS:
            raise ValueError(coins_problem(value))
        return value


def _purchase_kind(value: Any) -> str:
    """Which kind of purchase a value is, by its members (a coins object has ``left_coins`` or ``right_coins``), so
    that a bad one is reported against its own kind only."""
    if isinstance(value, dict):
        return "coins" if "left_coins" in value or "right_coins" in value else "units"
    return "coins" if hasattr(value, "left_coins") or hasattr(value, "right_coins") else "units"


#: A stated purchase: resource units (:class:`StatedPurchase`) or coins (:class:`CoinsPaid`, format version 2).
PurchaseStated = Annotated[
    Annotated[StatedPurchase, Branch("units")] | Annotated[CoinsPaid, Branch("coins")], Discriminator(_purchase_kind)
]


class Pick(_Model):
    """Halikarnassos' build from the discard pile (R-HALI): ``card`` is ``None`` when the seat declines."""

    card: str | None = None
    annotation: Annotation = NO_ANNOTATION
    span: SourceSpan = Field(default=None, exclude=True)


class Action(_Model):
    """One seat's play in one turn.

    ``card`` is a printed name or ``"?"`` (only where the rules hide it: a stage, a sale, a discard).
    ``purchase`` is what the record states, or ``None`` to let the engine choose (R-TRADE-MINIMAL).
    ``discard`` is turn 6's second card (``"?"`` if unseen), ``None`` when there is none (turns 1-5, or a
    seat keeping its 7th card under R-BABYLON-N1). ``pick`` is set on the action that built a Halikarnassos
    stage with the build-from-discard power.
    """

    seat: int
    use: Use
    card: str
    purchase: PurchaseStated | None = None
    discard: str | None = None
    pick: Pick | None = None
    annotation: Annotation = NO_ANNOTATION
    span: SourceSpan = Field(default=None, exclude=True)


class Turn(_Model):
    """Turn ``number`` (1..6, or 7 for Babylon's extra turn) of ``age`` (1..3), addressed ``I.3``.

    A normal turn has one action per seat in seat order; an extra turn only those of the seats that play one; a
    partial turn of a variation those of the seats it changes (the others keep their action of the line it
    branches from, spec §6.1). ``variations`` are the alternatives to this turn (format version 2), in order;
    JSON leaves the member out when there is none, so a game without variations has the JSON of version 1.
    """

    age: int = Field(ge=1, le=3)
    number: int = Field(ge=1, le=7)
    actions: tuple[Action, ...]
    annotation: Annotation = NO_ANNOTATION
    variations: tuple[Variation, ...] = Field(default=(), exclude_if=lambda v: not v)
    span: SourceSpan = Field(default=None, exclude=True)

    @property
    def label(self) -> str:
        return f"{('I', 'II', 'III')[self.age - 1]}.{self.number}"


class Variation(_Model):
    """An alternative line of play to the turn it belongs to (spec §6.1, format version 2): its first turn has that
    turn's label and replaces it, whole or for the seats it names; further turns go on from there. Its turns may
    have variations of their own. ``span`` is where its ``(`` is."""

    turns: tuple[Turn, ...] = Field(min_length=1)
    span: SourceSpan = Field(default=None, exclude=True)


Turn.model_rebuild()


class Seat(_Model):
    """A seat of the table (R-SEAT, R-BOARD): who sits there and the Wonder side it plays."""

    name: str
    wonder: str
    side: Literal["day", "night"]
    span: SourceSpan = Field(default=None, exclude=True)

    @field_validator("name")
    @classmethod
    def _nfc_name(cls, value: str) -> str:
        """The name in Unicode form C, as the reader keeps it, so equal names are equal strings."""
        return value if value.isascii() else unicodedata.normalize("NFC", value)

    @field_validator("wonder")
    @classmethod
    def _known_wonder(cls, value: str) -> str:
        """The catalogue's name of the Wonder (any accepted spelling), so the engine can look it up."""
        try:
            return _catalog.load().wonder_name(value)
        except _catalog.CatalogError as exc:
            raise ValueError(str(exc)) from None


class Deal(_Model):
    """The 7 cards dealt to each seat at the start of ``age`` (seat order); ``"?"`` for unseen cards."""

    age: int = Field(ge=1, le=3)
    hands: tuple[tuple[str, ...], ...]
    span: SourceSpan = Field(default=None, exclude=True)


class Seed(_Model):
    """A seed for a named shuffle algorithm (``SM64-FY`` is the one this version defines)."""

    algorithm: str
    value: int = Field(ge=0, lt=1 << 64)


class Tag(_Model):
    name: str
    value: str
    span: SourceSpan = Field(default=None, exclude=True)


#: A result's value: at most :data:`MAX_RESULT_DIGITS` digits, as the reader reads them (military may be negative).
ResultValue = Annotated[int, Field(ge=-RESULT_BOUND, le=RESULT_BOUND)] | None


class SeatResult(_Model):
    """Expected results for one seat; any field may be left out, and only stated ones are verified. The four
    expansion categories (``cities`` … ``edifice``, R-SCORE-EXP) belong to score-pad records whose ``expansions``
    name them."""

    seat: int
    military: ResultValue = None
    treasury: ResultValue = None
    wonder: ResultValue = None
    civilian: ResultValue = None
    commercial: ResultValue = None
    guilds: ResultValue = None
    science: ResultValue = None
    cities: ResultValue = None
    leaders: ResultValue = None
    armada: ResultValue = None
    edifice: ResultValue = None
    total: ResultValue = None
    coins: ResultValue = None
    rank: ResultValue = None
    tablets: ResultValue = None
    compasses: ResultValue = None
    gears: ResultValue = None
    span: SourceSpan = Field(default=None, exclude=True)


class Record(_Model):
    """One game of 7 Wonders as written: roster, optional deals, the turns and the optional expected results.

    ``tags`` holds every header tag that has no field of its own (``Event``, ``Site``, … in file order).
    ``expansions`` names the expansions played (the ``[Expansions]`` tag), in the score pad's order; a record
    naming one is a score-pad record (results, no turns): turn-by-turn replay covers the base game only.
    """

    format: str = FORMAT_VERSION
    edition: str = EDITION
    date: str | None = None
    expansions: tuple[Expansion, ...] = ()
    seats: tuple[Seat, ...]
    tags: tuple[Tag, ...] = ()
    guilds: tuple[str, ...] | None = None
    seed: Seed | None = None
    deals: tuple[Deal, ...] = ()
    turns: tuple[Turn, ...] = ()
    results: tuple[SeatResult, ...] = ()
    annotation: Annotation = NO_ANNOTATION
    span: SourceSpan = Field(default=None, exclude=True)
    #: The ``[Position]`` tag read for its syntax and names (spec/position.md §8), once: by the reader, or by the
    #: validator. Derived from ``tags``, so never in JSON nor compared; :func:`start_of` reads the tag again when
    #: it is absent or stale (a Record made with ``model_construct`` or ``model_copy``).
    start: SkipJsonSchema[InstanceOf[Written] | None] = Field(default=None, exclude=True)

    @field_validator("expansions")
    @classmethod
    def _pad_order(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """Each expansion once, kept in the score pad's order (as the reader gives them)."""
        if len(set(value)) != len(value):
            raise ValueError("an expansion is named twice")
        return tuple(sorted(value, key=_EXPANSIONS.index))

    @model_validator(mode="after")
    def _well_formed(self) -> "Record":
        n = len(self.seats)
        if not 3 <= n <= 7:
            raise ValueError(f"{n} seats: the base game is for 3 to 7 players")
        wonders = [s.wonder.casefold() for s in self.seats]
        if len(set(wonders)) != n:
            raise ValueError("two seats play the same Wonder (R-BOARD)")
        turns: Any = self.turns  # the twins have the native classes' fields: the checks read either
        check_seats(turns, n)
        stated: set[int] = set()
        for result in self.results:
            if not 1 <= result.seat <= n:
                raise ValueError(f"result for seat {result.seat}: seats are 1..{n}")
            if result.seat in stated:
                raise ValueError(f"two results for seat {result.seat}")
            stated.add(result.seat)
        try:
            record: Any = self
            start = start_of(record)  # None at once for a record that starts at the beginning
        except ValueError as exc:
            from .position_values import PositionError

            bad_string = isinstance(exc, PositionError)  # its message is "column N: check: ..."
            raise ValueError(f"[Position]: position string, {exc}" if bad_string else str(exc)) from None
        self.__dict__["start"] = start  # frozen for its users; derived here, as the reader sets it
        return self

    @property
    def players(self) -> int:
        return len(self.seats)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first free tag called ``name`` (case-sensitive, as PGN)."""
        return next((t.value for t in self.tags if t.name == name), default)


#: The twins by name: each native class has the twin of its name.
_TWINS: dict[str, type[BaseModel]] = {
    twin.__name__: twin
    for twin in (Span, Annotation, StatedPurchase, CoinsPaid, Pick, Action, Turn, Variation, Seat, Deal, Seed, Tag,
                 SeatResult, Record)
}


def to_native(value: Any, native: Native) -> Any:
    """``value`` with every twin in it turned into its native object by ``native`` (tuples element by element),
    unvalidated: the twin has been. Recursive: a validated Record nests at most
    :data:`~wnotation.model.record_checks.MAX_VARIATION_DEPTH` variations."""
    if isinstance(value, BaseModel):
        return native(type(value).__name__, {name: to_native(getattr(value, name), native)
                                             for name in type(value).model_fields})
    if isinstance(value, tuple):
        return tuple(to_native(item, native) for item in value)
    return value


def validate(name: str, data: Any, native: Native) -> Any:
    """``data`` (JSON-like data, a mapping of field values, or a native object) validated as the twin ``name``, as
    the native object. Raises :class:`pydantic.ValidationError` (a ``ValueError``) as the pydantic models did."""
    return to_native(_TWINS[name].model_validate(data, from_attributes=True), native)


def validate_json(name: str, text: str | bytes, native: Native) -> Any:
    """The JSON document ``text`` validated as the twin ``name``, as the native object."""
    return to_native(_TWINS[name].model_validate_json(text), native)


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of the twin ``name``, as pydantic writes it."""
    return _TWINS[name].model_json_schema()
