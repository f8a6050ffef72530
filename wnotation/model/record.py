"""The Record: what a 7WN game says, nothing more, as frozen pydantic models.

This is the boundary between the notation and the engine: the reader produces Records, the writer and the JSON
export consume them, the engine replays them. Tests, bots and generators may build a Record directly. The
Record holds names as written in canonical form (printed card names, ``"?"`` for an unknown card) and never
imports the engine. Source spans are kept for error messages but take no part in equality or JSON.

What the engine may assume about a Record (the reader guarantees it; :meth:`Record.model_validate` checks it):

* 3..7 seats, numbered 1..N in clockwise order (R-SEAT), distinct Wonders, each the catalogue's name of a Wonder
  (a validated Record holds it even when built with another spelling: ``Giza`` becomes ``Gizah``);
* each action's ``seat`` is in 1..N and no seat acts twice in one turn (actions may be listed in any order: the
  seat says whose they are), in the turns of variations too; each result's ``seat`` is in 1..N, at most one result
  per seat; every variation has at least one turn, and variations nest at most :data:`MAX_VARIATION_DEPTH` deep
  (spec 6.1);
* a purchase stated in coins pays each side at most :data:`MAX_PURCHASE_COINS` (spec 7.4; the groups of a text
  purchase may add up to more, an R-TRADE-MINIMAL error of the engine: no legal purchase pays them), a result's value has at
  most :data:`MAX_RESULT_DIGITS` digits, a span's numbers are below 2**63: no integer a JSON record carries is
  unbounded;
* from format version 2, at most one ``[Position]`` tag, a position string of valid syntax and names that fits
  the record (spec/position.md §8; :func:`start_of`), read once into :attr:`Record.start`; whether the rules allow
  that position is the engine's to judge when it replays the record (spec/position.md §8).

The reader also guarantees that card names are printed catalogue names or ``"?"``, guild names are guilds, and
turns appear in order (Age I..III, turn 1..6 then the optional extra turn 7); the validator leaves these to the
engine, which reports an unknown name as a finding. Everything else (legality, counts, coins) is the engine's.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Discriminator, Field, InstanceOf, field_validator, model_validator
from pydantic import Tag as Branch
from pydantic.json_schema import SkipJsonSchema

from . import catalog as _catalog
from .position_values import Written
from .vocabulary import CATEGORIES as CATEGORIES  # re-exported: the Record's users import it from here
from .vocabulary import EXPANSIONS as _EXPANSIONS

UNKNOWN = "?"
Use = Literal["build", "stage", "sell"]
Expansion = Literal["Cities", "Leaders", "Armada", "Edifice"]  # vocabulary.EXPANSIONS (a test keeps them equal)
Glyph = Literal["!", "?", "!!", "??", "!?", "?!"]
GLYPHS: tuple[str, ...] = ("!!", "??", "!?", "?!", "!", "?")
FORMAT_VERSION = "7WN 1"
#: The format versions a reader reads (spec 7wn.md §3.1): version 2 adds coin-stated purchases (§7.4) and
#: variations (§6.1).
FORMAT_VERSIONS: tuple[str, ...] = ("7WN 1", "7WN 2")
EDITION = "2e"
#: The tag that holds a record's start position (spec/position.md §8): from format version 2 on, the record's
#: first position; in version 1 a free tag without meaning.
POSITION_TAG = "Position"

#: Variations nest at most this deep (spec 6.1): a variation inside a variation is depth 2. The reader refuses a
#: deeper ``(`` at the bracket, the validator refuses a deeper Record, so no route (text, JSON, engine) recurses
#: further than this.
MAX_VARIATION_DEPTH = 32

#: The most coins a purchase may pay one neighbour (spec 7.4): far more than any legal purchase pays (2 coins a unit,
#: R-PRICE, and no cost has more than 7 units: Palace; 14 in all) and than a seat of a game played from its start
#: ever holds. The table starts with 21 coins at most, and the bank pays a seat less than 250 in a game: 3 per sale
#: (at most 21 plays may be sales), and once per card name it builds (R-UNIQUE) or stage, the most for a coin card
#: counting cities (Vineyard: 14 brown names in 3 cities, 42) or the stages (Ephesos Night, 12 in all); so a seat
#: holds at most 7 x (3 + 250) < 2,000. A count above this is refused by the validator, so no writer spells it.
MAX_PURCHASE_COINS = 2_000

#: The most digits of a result's value (spec 13): the reader's limit, and the validator's for a JSON record.
MAX_RESULT_DIGITS = 18
_RESULT_BOUND = 10**MAX_RESULT_DIGITS - 1


class Span(BaseModel):
    """Where an element starts in its source text (1-based line and column, 0-based offset)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    line: int = Field(ge=0, lt=1 << 63)
    column: int = Field(ge=0, lt=1 << 63)
    offset: int = Field(default=0, ge=0, lt=1 << 63)


#: Where an element was read from: never in JSON, so not in the JSON Schema either.
SourceSpan = SkipJsonSchema[Span | None]


#: Fields carried along but ignored by equality and hashing (and, excluded, by JSON): where an element was read
#: from, and what a Record read from its own tags.
_UNCOMPARED = frozenset({"span", "start"})


class _Model(BaseModel):
    """Frozen, no extra fields; ``span`` is carried along but ignored by equality, hashing and JSON.

    ``defer_build``: pydantic builds a model's validator and serializer when it is first used, not when the class
    is made. The reader makes Records without validating them (:mod:`wnotation.notation.reader.build`), so a
    ``check`` never uses them and builds none (a one-game check: 2.19 -> 2.16 G instructions, callgrind)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            getattr(self, name) == getattr(other, name) for name in type(self).model_fields if name not in _UNCOMPARED
        )

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in type(self).model_fields if n not in _UNCOMPARED))


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

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True, title="Purchase")

    left: tuple[str, ...] = ()
    right: tuple[str, ...] = ()


#: The former name of :class:`StatedPurchase`, kept for existing callers.
Purchase = StatedPurchase


class CoinsPaid(_Model):
    """A purchase stated by the coins paid to each neighbour (format version 2, spec §7.4): the engine finds the
    units those coins buy (R-TRADE-MINIMAL). Both members are required, so ``{}`` is never one of these."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True, title="CoinsPaid")

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
    members = value if isinstance(value, dict) else vars(value) if isinstance(value, BaseModel) else {}
    return "coins" if "left_coins" in members or "right_coins" in members else "units"


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
ResultValue = Annotated[int, Field(ge=-_RESULT_BOUND, le=_RESULT_BOUND)] | None


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
        _check_seats(self.turns, n)
        stated: set[int] = set()
        for result in self.results:
            if not 1 <= result.seat <= n:
                raise ValueError(f"result for seat {result.seat}: seats are 1..{n}")
            if result.seat in stated:
                raise ValueError(f"two results for seat {result.seat}")
            stated.add(result.seat)
        try:
            start = start_of(self)  # None at once for a record that starts at the beginning
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


class GameHeader(Protocol):
    """The header fields of one game, which a :class:`Record` and a reader ``Header`` (``read_headers``) both
    hold, alike: code that needs only a game's tags (listing, indexing) takes either. The fields are those of the
    header-tag table (``wnotation.notation.tags.FIELDS``) and ``span``."""

    @property
    def format(self) -> str: ...
    @property
    def edition(self) -> str: ...
    @property
    def date(self) -> str | None: ...
    @property
    def expansions(self) -> tuple[str, ...]: ...
    @property
    def seats(self) -> tuple[Seat, ...]: ...
    @property
    def tags(self) -> tuple[Tag, ...]: ...
    @property
    def guilds(self) -> tuple[str, ...] | None: ...
    @property
    def seed(self) -> Seed | None: ...
    @property
    def deals(self) -> tuple[Deal, ...]: ...
    @property
    def span(self) -> Span | None: ...
    @property
    def players(self) -> int: ...

    def tag(self, name: str, default: str | None = None) -> str | None: ...


def coins_problem(coins: int) -> str:
    """Why a purchase may not pay ``coins`` (more than :data:`MAX_PURCHASE_COINS`) to a side: one message for the
    validator and the writer."""
    return (f"a purchase pays at most {MAX_PURCHASE_COINS:,} coins to a side, more than any seat ever holds "
            f"(spec 7.4, R-COST-COINS); this one pays {_count(coins)}")


def _count(n: int) -> str:
    """``n`` for a message, or how many digits it has when it is too long to show."""
    return f"{n:,}" if n < 10**30 else f"a number of {len(str(n)) if n < 10**4000 else 'over 4,000'} digits"


def _check_seats(turns: tuple[Turn, ...], n: int) -> None:
    """Each action's seat in 1..``n``, once per turn, in ``turns`` and their variations, which nest at most
    :data:`MAX_VARIATION_DEPTH` deep. Iterative: a Record built in code may nest deeper than Python recurses."""
    lines: list[tuple[tuple[Turn, ...], str, int]] = [(turns, "", 0)]  # (turns, address prefix, depth)
    while lines:
        line, prefix, depth = lines.pop()
        for turn in line:
            seen: set[int] = set()
            for action in turn.actions:
                if not 1 <= action.seat <= n:
                    raise ValueError(f"{prefix}{turn.label}: seat {action.seat} is not in 1..{n}")
                if action.seat in seen:
                    raise ValueError(f"{prefix}{turn.label}: seat {action.seat} acts twice in one turn")
                seen.add(action.seat)
            for k, variation in enumerate(turn.variations, 1):
                where = f"{prefix}{turn.label}({k})"
                if depth + 1 > MAX_VARIATION_DEPTH:
                    raise ValueError(depth_problem(where))
                lines.append((variation.turns, where + ".", depth + 1))


def check_variation_depth(turns: tuple[Turn, ...]) -> None:
    """Raise ``ValueError`` (:func:`depth_problem`) if variations of ``turns`` nest deeper than
    :data:`MAX_VARIATION_DEPTH`, for writers of Records made without validation (the reader's and code's).
    Iterative; cost: linear in the turns, stopping at the first too deep."""
    lines: list[tuple[tuple[Turn, ...], str]] = [(turns, "")]
    while lines:
        line, prefix = lines.pop()
        for turn in line:
            for k, variation in enumerate(turn.variations, 1):
                where = f"{prefix}{turn.label}({k})"
                if where.count("(") > MAX_VARIATION_DEPTH:
                    raise ValueError(depth_problem(where))
                lines.append((variation.turns, where + "."))


def depth_problem(where: str) -> str:
    """Why the variation at address ``where`` (``I.2(1).I.2(1)…``) may not be: it nests deeper than
    :data:`MAX_VARIATION_DEPTH`. One message for the validator, the writer and the engine."""
    return (f"variation {where} nests {where.count('(')} deep: variations nest at most "
            f"{MAX_VARIATION_DEPTH} deep (spec 6.1)")


def position_tag(record: Record) -> str | None:
    """The value of ``record``'s ``[Position]`` tag when it starts from a position (format version 2 and later;
    in version 1 the tag is a free tag without meaning), else ``None``."""
    if record.format == FORMAT_VERSION:
        return None
    return record.tag(POSITION_TAG)


def start_of(record: Record) -> Written | None:
    """The position ``record`` starts from (spec/position.md §8), as its ``[Position]`` tag writes it, or ``None``
    when it starts at the beginning: :attr:`Record.start`, or the tag read again when that is absent or stale. The
    one statement of §8's rules for a Record: the validator of a Record made in code or from JSON applies them, and
    the engine asks for the position here and judges it by the rules (``wnotation.engine.position_rules``). (The
    reader applies the same rules itself, to point at the offending character of the tag.)

    Raises :class:`~wnotation.model.position_values.PositionError` (a ``ValueError``) for a string whose syntax
    or names are not valid, and ``ValueError`` for a second ``[Position]`` tag, seats other than the record's or
    one owed a build from the discard pile, a ``Guilds`` or ``Seed`` of its own, or a deal of an Age the position
    has started."""
    value = position_tag(record)
    if value is None:
        return None
    if sum(1 for t in record.tags if t.name == POSITION_TAG) > 1:
        raise ValueError("[Position]: a record holds at most one [Position] tag")
    from . import position_string  # ~10 ms of imports that only a record starting from a position needs

    start = record.__dict__.get("start")
    if start is None or start.text != value:
        start = position_string.parse(value)
    seats = position_string.start_problem(start, [(s.name, s.wonder, s.side) for s in record.seats])
    problem = seats[1] if seats is not None else None
    if problem is None and (record.guilds is not None or record.seed is not None):
        problem = "a record that starts from a position states no [Guilds] or [Seed]: the position holds them"
    if problem is None and any(d.age <= start.address.age for d in record.deals):
        problem = f"a deal of an Age the position at {start.address} has started"
    if problem is not None:
        raise ValueError(f"[Position]: {problem}")
    return start


def has_variations(record: Record) -> bool:
    """Whether any turn of ``record`` has a variation (a construct of format version 2)."""
    return any(turn.variations for turn in record.turns)


#: Models whose JSON Schema name is not their Python name (renamed in Python, published names kept).
_SCHEMA_NAMES = {"StatedPurchase": "Purchase"}


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a Record, for implementations in other languages."""
    schema = Record.model_json_schema()
    defs = schema.get("$defs", {})
    for python, published in _SCHEMA_NAMES.items():
        if python in defs:
            defs[published] = defs.pop(python)
    schema["$defs"] = dict(sorted(defs.items()))
    renamed: dict[str, Any] = _renamed_refs(schema)
    return renamed


def _renamed_refs(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: (_ref(v) if k == "$ref" else _renamed_refs(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_renamed_refs(v) for v in node]
    return node


def _ref(ref: str) -> str:
    head, _, name = ref.rpartition("/")
    return f"{head}/{_SCHEMA_NAMES.get(name, name)}"
