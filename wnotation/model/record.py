"""The Record: what a 7WN game says, nothing more, as plain immutable classes.

This is the boundary between the notation and the engine: the reader produces Records, the writer and the JSON
export consume them, the engine replays them. Tests, bots and generators may build a Record directly. The
Record holds names as written in canonical form (printed card names, ``"?"`` for an unknown card) and never
imports the engine. Source spans are kept for error messages but take no part in equality or JSON.

The classes are native (slotted, fields ``Final``), so reading and replaying a game imports no pydantic. Their
pydantic twins (:mod:`.record_json`) are the JSON boundary: ``model_validate``, ``model_validate_json`` and
``model_json_schema`` delegate to them, and so does a constructor given values it cannot accept as they are (its
quick check fails): the twin coerces them (``"Giza"`` becomes ``"Gizah"``, a list a tuple) or raises pydantic's
``ValidationError``, as the pydantic models did. A :class:`Record` built in code is always validated by its twin.
The reader builds the classes with :func:`make`, unvalidated: it has checked the values itself.

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
from collections.abc import Mapping, Set
from typing import Any, ClassVar, Final, Literal, Protocol, TypeVar

from . import catalog as _catalog
from .position_values import Written
from .vocabulary import CATEGORIES as CATEGORIES  # re-exported: the Record's users import it from here

from .record_checks import EDITION as EDITION
from .record_checks import FORMAT_VERSION as FORMAT_VERSION
from .record_checks import FORMAT_VERSIONS as FORMAT_VERSIONS
from .record_checks import MAX_PURCHASE_COINS as MAX_PURCHASE_COINS
from .record_checks import MAX_RESULT_DIGITS as MAX_RESULT_DIGITS
from .record_checks import MAX_VARIATION_DEPTH as MAX_VARIATION_DEPTH
from .record_checks import POSITION_TAG as POSITION_TAG
from .record_checks import RESULT_BOUND
from .record_checks import Expansion as Expansion
from .record_checks import Glyph as Glyph
from .record_checks import Use as Use
from .record_checks import coins_problem as coins_problem
from .record_checks import depth_problem as depth_problem
from .record_checks import position_tag as position_tag
from .record_checks import start_of as start_of

UNKNOWN = "?"
GLYPHS: tuple[str, ...] = ("!!", "??", "!?", "?!", "!", "?")

#: Fields carried along but ignored by equality and hashing (and, excluded, by JSON): where an element was read
#: from, and what a Record read from its own tags.
_UNCOMPARED = frozenset({"span", "start"})



class FieldSpec:
    """What callers of ``model_fields`` read of a field: its default and whether JSON leaves it out."""

    __slots__ = ("default", "exclude")

    def __init__(self, default: Any, exclude: bool) -> None:
        self.default: Final = default
        self.exclude: Final = exclude

    def __repr__(self) -> str:
        return f"FieldSpec(default={self.default!r}, exclude={self.exclude})"


_REQUIRED: Final = object()  # the default of a field that has none
_N = TypeVar("_N", bound="Native")


class Native:
    """A Record class: slotted, read-only (``Final`` fields), compared and hashed by its fields but ``span`` and
    ``start``, with the pydantic models' methods that callers use, delegating to the twins at the JSON boundary."""

    __slots__ = ()
    #: Each field's default (:data:`_REQUIRED` when it has none), in the order JSON writes them.
    _defaults: ClassVar[dict[str, Any]] = {}
    #: The fields that take part in equality and hashing.
    _compared: ClassVar[tuple[str, ...]] = ()
    #: The fields JSON writes.
    _dumped: ClassVar[tuple[str, ...]] = ()
    model_fields: ClassVar[dict[str, FieldSpec]] = {}
    #: Whether JSON writes the members in the order they were given (a Record's, :func:`_record_order`).
    _keeps_order: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._compared = tuple(name for name in cls._defaults if name not in _UNCOMPARED)
        cls._dumped = tuple(name for name in cls._defaults if name not in _UNCOMPARED)
        cls.model_fields = {name: FieldSpec(None if default is _REQUIRED else default, name in _UNCOMPARED)
                            for name, default in cls._defaults.items()}

    def _accepted(self) -> bool:
        """Whether the values given to the constructor are valid as they are (exact types, in range), so that the
        twin would return them unchanged; when not, the twin validates them."""
        return False

    def _validated(self) -> None:
        """The constructor's check: the fields kept when they pass the quick check, else as the twin makes them
        (coerced), or pydantic's ``ValidationError``."""
        if self._accepted():
            return
        from . import record_json

        valid = record_json.validate(type(self).__name__, {name: getattr(self, name) for name in self._defaults},
                                     _native)
        for name in self._defaults:
            object.__setattr__(self, name, getattr(valid, name))

    def _members(self) -> tuple[str, ...]:
        """The fields JSON writes, in the order it writes them."""
        return self._dumped

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._compared)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in self._compared))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._defaults)})"

    def model_copy(self: _N, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> _N:
        """A copy with the fields of ``update`` replaced, unvalidated (as pydantic's). ``deep`` is accepted for
        pydantic's callers: the objects are immutable, so a shallow copy is as good."""
        fields = {name: getattr(self, name) for name in self._defaults}
        if update:
            unknown = set(update) - fields.keys()
            if unknown:
                raise ValueError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
            fields.update(update)
        return make(type(self), fields)

    @classmethod
    def model_construct(cls: type[_N], **values: Any) -> _N:
        """An object of ``values`` and the defaults of the others, unvalidated (as pydantic's)."""
        fields = {}
        for name, default in cls._defaults.items():
            if name in values:
                fields[name] = values[name]
            elif default is not _REQUIRED:
                fields[name] = default
        return make(cls, fields)

    @classmethod
    def model_validate(cls: type[_N], obj: Any) -> _N:
        """``obj`` (JSON-like data, or an object of this class) validated by the twin."""
        from . import record_json

        native: _N = record_json.validate(cls.__name__, obj, _native)
        return native

    @classmethod
    def model_validate_json(cls: type[_N], text: str | bytes) -> _N:
        """The JSON document ``text`` validated by the twin."""
        from . import record_json

        native: _N = record_json.validate_json(cls.__name__, text, _native)
        return native

    @classmethod
    def model_json_schema(cls) -> dict[str, Any]:
        """The twin's JSON Schema (pydantic's); :func:`json_schema` gives the published one of a Record."""
        from . import record_json

        return record_json.json_schema(cls.__name__)

    def model_dump(self, *, mode: str = "python", exclude: Set[str] | None = None) -> dict[str, Any]:
        """The fields JSON writes, as data: tuples stay tuples in ``mode="python"`` and become lists in
        ``mode="json"``, as pydantic's; a turn's ``variations`` are left out when there is none."""
        as_json = mode == "json"
        return {name: _dumped(value, as_json) for name in self._members()
                if (exclude is None or name not in exclude)
                and ((value := getattr(self, name)) or name != "variations")}

    def model_dump_json(self, *, indent: int | None = None) -> str:
        """The JSON text of :meth:`model_dump` (``mode="json"``), written by pydantic-core as the models wrote it."""
        import pydantic_core

        return pydantic_core.to_json(self.model_dump(mode="json"), indent=indent).decode()


def _dumped(value: Any, as_json: bool) -> Any:
    if isinstance(value, Native):
        return value.model_dump(mode="json" if as_json else "python")
    if isinstance(value, tuple):
        items = [_dumped(item, as_json) for item in value]
        return items if as_json else tuple(items)
    return value


_new: Final = object.__new__
_set: Final = object.__setattr__


def make(cls: type[_N], fields: Mapping[str, Any]) -> _N:
    """An object of ``cls`` holding ``fields`` (every field), unvalidated: the reader's constructor (it has checked
    the values) and the adapter's (the twin has). Tests compare its results with validated ones."""
    obj = _new(cls)
    for name, value in fields.items():
        _set(obj, name, value)
    if cls._keeps_order:
        _set(obj, "_order", _record_order(fields))
    return obj


def _is_int(value: object, low: int, high: int) -> bool:
    """``value`` an ``int`` (not a ``bool``) in ``low..high``."""
    return type(value) is int and low <= value <= high


def _is_strs(value: object) -> bool:
    return type(value) is tuple and all(type(item) is str for item in value)


def _is_optional_str(value: object) -> bool:
    return value is None or type(value) is str


_SPAN_MAX: Final = (1 << 63) - 1


class _SpanFields(Native):
    """A :class:`Span`'s fields, set unchecked: the reader's constructor (:func:`new_span`)."""

    __slots__ = ("line", "column", "offset")

    def __init__(self, line: int, column: int, offset: int) -> None:
        self.line: Final = line
        self.column: Final = column
        self.offset: Final = offset


class Span(_SpanFields):
    """Where an element starts in its source text (1-based line and column, 0-based offset)."""

    __slots__ = ()
    _defaults = {"line": _REQUIRED, "column": _REQUIRED, "offset": 0}

    def __init__(self, *, line: int, column: int, offset: int = 0) -> None:
        super().__init__(line, column, offset)
        self._validated()

    def _accepted(self) -> bool:
        return _is_int(self.line, 0, _SPAN_MAX) and _is_int(self.column, 0, _SPAN_MAX) and \
            _is_int(self.offset, 0, _SPAN_MAX)


def _is_span(value: object) -> bool:
    return value is None or type(value) is Span


class Annotation(Native):
    """What a person wrote around an element: comments, a move glyph and structured key–value tags.

    ``before``/``after`` hold comment texts in order (several allowed); ``tags`` holds parsed ``{key=value}``
    pairs in file order (e.g. ``("eval", "+3")``), never left inside comment text.
    """

    __slots__ = ("before", "after", "glyph", "tags")
    _defaults = {"before": (), "after": (), "glyph": None, "tags": ()}

    def __init__(self, *, before: tuple[str, ...] = (), after: tuple[str, ...] = (), glyph: Glyph | None = None,
                 tags: tuple[tuple[str, str], ...] = ()) -> None:
        self.before: Final = before
        self.after: Final = after
        self.glyph: Final = glyph
        self.tags: Final = tags
        self._validated()

    def _accepted(self) -> bool:
        return _is_strs(self.before) and _is_strs(self.after) and (self.glyph is None or self.glyph in GLYPHS) and \
            type(self.tags) is tuple and all(len(tag) == 2 and _is_strs(tag) for tag in self.tags)

    @property
    def empty(self) -> bool:
        return not (self.before or self.after or self.glyph or self.tags)


NO_ANNOTATION = make(Annotation, {"before": (), "after": (), "glyph": None, "tags": ()})


def _is_annotation(value: object) -> bool:
    return type(value) is Annotation


# What a record states was bought; the engine's solved purchase, with its coins, is wnotation.engine.trade.Purchase.
# The docstring is the schema's description, and JSON and its schema keep the name Purchase (spec 14).
class StatedPurchase(Native):
    """Resource units bought from each neighbour for one payment (R-TRADE); each tuple is sorted."""

    __slots__ = ("left", "right")
    _defaults = {"left": (), "right": ()}

    def __init__(self, *, left: tuple[str, ...] = (), right: tuple[str, ...] = ()) -> None:
        self.left: Final = left
        self.right: Final = right
        self._validated()

    def _accepted(self) -> bool:
        return _is_strs(self.left) and _is_strs(self.right)


#: The former name of :class:`StatedPurchase`, kept for existing callers.
Purchase = StatedPurchase


class CoinsPaid(Native):
    """A purchase stated by the coins paid to each neighbour (format version 2, spec §7.4): the engine finds the
    units those coins buy (R-TRADE-MINIMAL). Both members are required, so ``{}`` is never one of these."""

    __slots__ = ("left_coins", "right_coins")
    _defaults = {"left_coins": _REQUIRED, "right_coins": _REQUIRED}

    def __init__(self, *, left_coins: int, right_coins: int) -> None:
        self.left_coins: Final = left_coins
        self.right_coins: Final = right_coins
        self._validated()

    def _accepted(self) -> bool:
        return _is_int(self.left_coins, 0, MAX_PURCHASE_COINS) and _is_int(self.right_coins, 0, MAX_PURCHASE_COINS)


#: A stated purchase: resource units (:class:`StatedPurchase`) or coins (:class:`CoinsPaid`, format version 2).
PurchaseStated = StatedPurchase | CoinsPaid


class Pick(Native):
    """Halikarnassos' build from the discard pile (R-HALI): ``card`` is ``None`` when the seat declines."""

    __slots__ = ("card", "annotation", "span")
    _defaults = {"card": None, "annotation": NO_ANNOTATION, "span": None}

    def __init__(self, *, card: str | None = None, annotation: Annotation = NO_ANNOTATION,
                 span: Span | None = None) -> None:
        self.card: Final = card
        self.annotation: Final = annotation
        self.span: Final = span
        self._validated()

    def _accepted(self) -> bool:
        return _is_optional_str(self.card) and _is_annotation(self.annotation) and _is_span(self.span)


_USES: Final = frozenset({"build", "stage", "sell"})


class _ActionFields(Native):
    """An :class:`Action`'s fields, set unchecked: the reader's constructor (:func:`new_action`)."""

    __slots__ = ("seat", "use", "card", "purchase", "discard", "pick", "annotation", "span")

    def __init__(self, seat: int, use: str, card: str, purchase: PurchaseStated | None, discard: str | None,
                 pick: Pick | None, annotation: Annotation, span: Span | None) -> None:
        self.seat: Final = seat
        self.use: Final[Use] = use  # type: ignore[assignment]  # checked by the reader or by _accepted
        self.card: Final = card
        self.purchase: Final = purchase
        self.discard: Final = discard
        self.pick: Final = pick
        self.annotation: Final = annotation
        self.span: Final = span


class Action(_ActionFields):
    """One seat's play in one turn.

    ``card`` is a printed name or ``"?"`` (only where the rules hide it: a stage, a sale, a discard).
    ``purchase`` is what the record states, or ``None`` to let the engine choose (R-TRADE-MINIMAL).
    ``discard`` is turn 6's second card (``"?"`` if unseen), ``None`` when there is none (turns 1-5, or a
    seat keeping its 7th card under R-BABYLON-N1). ``pick`` is set on the action that built a Halikarnassos
    stage with the build-from-discard power.
    """

    __slots__ = ()
    _defaults = {"seat": _REQUIRED, "use": _REQUIRED, "card": _REQUIRED, "purchase": None, "discard": None,
                 "pick": None, "annotation": NO_ANNOTATION, "span": None}

    def __init__(self, *, seat: int, use: Use, card: str, purchase: PurchaseStated | None = None,
                 discard: str | None = None, pick: Pick | None = None, annotation: Annotation = NO_ANNOTATION,
                 span: Span | None = None) -> None:
        super().__init__(seat, use, card, purchase, discard, pick, annotation, span)
        self._validated()

    def _accepted(self) -> bool:
        return type(self.seat) is int and self.use in _USES and type(self.card) is str and \
            (self.purchase is None or type(self.purchase) in (StatedPurchase, CoinsPaid)) and \
            _is_optional_str(self.discard) and (self.pick is None or type(self.pick) is Pick) and \
            _is_annotation(self.annotation) and _is_span(self.span)


class _TurnFields(Native):
    """A :class:`Turn`'s fields, set unchecked: the reader's constructor (:func:`new_turn`)."""

    __slots__ = ("age", "number", "actions", "annotation", "variations", "span")

    def __init__(self, age: int, number: int, actions: tuple[Action, ...], annotation: Annotation,
                 variations: tuple[Variation, ...], span: Span | None) -> None:
        self.age: Final = age
        self.number: Final = number
        self.actions: Final = actions
        self.annotation: Final = annotation
        self.variations: Final = variations
        self.span: Final = span


class Turn(_TurnFields):
    """Turn ``number`` (1..6, or 7 for Babylon's extra turn) of ``age`` (1..3), addressed ``I.3``.

    A normal turn has one action per seat in seat order; an extra turn only those of the seats that play one; a
    partial turn of a variation those of the seats it changes (the others keep their action of the line it
    branches from, spec §6.1). ``variations`` are the alternatives to this turn (format version 2), in order;
    JSON leaves the member out when there is none, so a game without variations has the JSON of version 1.
    """

    __slots__ = ()
    _defaults = {"age": _REQUIRED, "number": _REQUIRED, "actions": _REQUIRED, "annotation": NO_ANNOTATION,
                 "variations": (), "span": None}

    def __init__(self, *, age: int, number: int, actions: tuple[Action, ...], annotation: Annotation = NO_ANNOTATION,
                 variations: tuple[Variation, ...] = (), span: Span | None = None) -> None:
        super().__init__(age, number, actions, annotation, variations, span)
        self._validated()

    def _accepted(self) -> bool:
        return _is_int(self.age, 1, 3) and _is_int(self.number, 1, 7) and type(self.actions) is tuple and \
            all(type(a) is Action for a in self.actions) and _is_annotation(self.annotation) and \
            type(self.variations) is tuple and all(type(v) is Variation for v in self.variations) and \
            _is_span(self.span)

    @property
    def label(self) -> str:
        return f"{('I', 'II', 'III')[self.age - 1]}.{self.number}"


class Variation(Native):
    """An alternative line of play to the turn it belongs to (spec §6.1, format version 2): its first turn has that
    turn's label and replaces it, whole or for the seats it names; further turns go on from there. Its turns may
    have variations of their own. ``span`` is where its ``(`` is."""

    __slots__ = ("turns", "span")
    _defaults = {"turns": _REQUIRED, "span": None}

    def __init__(self, *, turns: tuple[Turn, ...], span: Span | None = None) -> None:
        self.turns: Final = turns
        self.span: Final = span
        self._validated()

    def _accepted(self) -> bool:
        return type(self.turns) is tuple and len(self.turns) >= 1 and all(type(t) is Turn for t in self.turns) and \
            _is_span(self.span)


class Seat(Native):
    """A seat of the table (R-SEAT, R-BOARD): who sits there and the Wonder side it plays."""

    __slots__ = ("name", "wonder", "side", "span")
    _defaults = {"name": _REQUIRED, "wonder": _REQUIRED, "side": _REQUIRED, "span": None}

    def __init__(self, *, name: str, wonder: str, side: Literal["day", "night"], span: Span | None = None) -> None:
        self.name: Final = name
        self.wonder: Final = wonder
        self.side: Final = side
        self.span: Final = span
        self._validated()

    def _accepted(self) -> bool:
        """The name in Unicode form C and the catalogue's name of the Wonder, as the twin's validators make them."""
        name, wonder = self.name, self.wonder
        if type(name) is not str or not (name.isascii() or unicodedata.is_normalized("NFC", name)):
            return False
        if type(wonder) is not str or self.side not in ("day", "night") or not _is_span(self.span):
            return False
        try:
            return bool(_catalog.load().wonder_name(wonder) == wonder)
        except _catalog.CatalogError:
            return False


class Deal(Native):
    """The 7 cards dealt to each seat at the start of ``age`` (seat order); ``"?"`` for unseen cards."""

    __slots__ = ("age", "hands", "span")
    _defaults = {"age": _REQUIRED, "hands": _REQUIRED, "span": None}

    def __init__(self, *, age: int, hands: tuple[tuple[str, ...], ...], span: Span | None = None) -> None:
        self.age: Final = age
        self.hands: Final = hands
        self.span: Final = span
        self._validated()

    def _accepted(self) -> bool:
        return _is_int(self.age, 1, 3) and type(self.hands) is tuple and all(_is_strs(h) for h in self.hands) and \
            _is_span(self.span)


class Seed(Native):
    """A seed for a named shuffle algorithm (``SM64-FY`` is the one this version defines)."""

    __slots__ = ("algorithm", "value")
    _defaults = {"algorithm": _REQUIRED, "value": _REQUIRED}

    def __init__(self, *, algorithm: str, value: int) -> None:
        self.algorithm: Final = algorithm
        self.value: Final = value
        self._validated()

    def _accepted(self) -> bool:
        return type(self.algorithm) is str and _is_int(self.value, 0, (1 << 64) - 1)


class Tag(Native):
    __slots__ = ("name", "value", "span")
    _defaults = {"name": _REQUIRED, "value": _REQUIRED, "span": None}

    def __init__(self, *, name: str, value: str, span: Span | None = None) -> None:
        self.name: Final = name
        self.value: Final = value
        self.span: Final = span
        self._validated()

    def _accepted(self) -> bool:
        return type(self.name) is str and type(self.value) is str and _is_span(self.span)


#: A result's value: at most :data:`MAX_RESULT_DIGITS` digits, as the reader reads them (military may be negative).
ResultValue = int | None
_RESULT_FIELDS: Final = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "cities",
                         "leaders", "armada", "edifice", "total", "coins", "rank", "tablets", "compasses", "gears")


class SeatResult(Native):
    """Expected results for one seat; any field may be left out, and only stated ones are verified. The four
    expansion categories (``cities`` … ``edifice``, R-SCORE-EXP) belong to score-pad records whose ``expansions``
    name them."""

    __slots__ = ("seat", *_RESULT_FIELDS, "span")
    _defaults = {"seat": _REQUIRED, **dict.fromkeys(_RESULT_FIELDS), "span": None}

    def __init__(self, *, seat: int, military: ResultValue = None, treasury: ResultValue = None,
                 wonder: ResultValue = None, civilian: ResultValue = None, commercial: ResultValue = None,
                 guilds: ResultValue = None, science: ResultValue = None, cities: ResultValue = None,
                 leaders: ResultValue = None, armada: ResultValue = None, edifice: ResultValue = None,
                 total: ResultValue = None, coins: ResultValue = None, rank: ResultValue = None,
                 tablets: ResultValue = None, compasses: ResultValue = None, gears: ResultValue = None,
                 span: Span | None = None) -> None:
        self.seat: Final = seat
        self.military: Final = military
        self.treasury: Final = treasury
        self.wonder: Final = wonder
        self.civilian: Final = civilian
        self.commercial: Final = commercial
        self.guilds: Final = guilds
        self.science: Final = science
        self.cities: Final = cities
        self.leaders: Final = leaders
        self.armada: Final = armada
        self.edifice: Final = edifice
        self.total: Final = total
        self.coins: Final = coins
        self.rank: Final = rank
        self.tablets: Final = tablets
        self.compasses: Final = compasses
        self.gears: Final = gears
        self.span: Final = span
        self._validated()

    def _accepted(self) -> bool:
        return type(self.seat) is int and _is_span(self.span) and all(
            (value := getattr(self, name)) is None or _is_int(value, -RESULT_BOUND, RESULT_BOUND)
            for name in _RESULT_FIELDS)


class Record(Native):
    """One game of 7 Wonders as written: roster, optional deals, the turns and the optional expected results.

    ``tags`` holds every header tag that has no field of its own (``Event``, ``Site``, … in file order).
    ``expansions`` names the expansions played (the ``[Expansions]`` tag), in the score pad's order; a record
    naming one is a score-pad record (results, no turns): turn-by-turn replay covers the base game only.
    """

    __slots__ = ("format", "edition", "date", "expansions", "seats", "tags", "guilds", "seed", "deals", "turns",
                 "results", "annotation", "span", "start", "_order")
    _defaults = {"format": FORMAT_VERSION, "edition": EDITION, "date": None, "expansions": (), "seats": _REQUIRED,
                 "tags": (), "guilds": None, "seed": None, "deals": (), "turns": (), "results": (),
                 "annotation": NO_ANNOTATION, "span": None, "start": None}
    _keeps_order = True

    def __init__(self, *, format: str = FORMAT_VERSION, edition: str = EDITION, date: str | None = None,
                 expansions: tuple[Expansion, ...] = (), seats: tuple[Seat, ...], tags: tuple[Tag, ...] = (),
                 guilds: tuple[str, ...] | None = None, seed: Seed | None = None, deals: tuple[Deal, ...] = (),
                 turns: tuple[Turn, ...] = (), results: tuple[SeatResult, ...] = (),
                 annotation: Annotation = NO_ANNOTATION, span: Span | None = None,
                 start: Written | None = None) -> None:
        self.format: Final = format
        self.edition: Final = edition
        self.date: Final = date
        self.expansions: Final = expansions
        self.seats: Final = seats
        self.tags: Final = tags
        self.guilds: Final = guilds
        self.seed: Final = seed
        self.deals: Final = deals
        self.turns: Final = turns
        self.results: Final = results
        self.annotation: Final = annotation
        self.span: Final = span
        #: The ``[Position]`` tag read for its syntax and names (spec/position.md §8), once: by the reader, or by
        #: the validator. Derived from ``tags``, so never in JSON nor compared; :func:`start_of` reads the tag
        #: again when it is absent or stale (a Record made with ``model_construct`` or ``model_copy``).
        self.start: Final = start
        self._order: tuple[str, ...] = self._dumped
        self._validated()  # always by the twin: a Record's invariants span its parts

    def _members(self) -> tuple[str, ...]:
        return self._order

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Record:
        copy = super().model_copy(update=update, deep=deep)
        copy._order = self._order
        return copy

    @property
    def players(self) -> int:
        return len(self.seats)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first free tag called ``name`` (case-sensitive, as PGN)."""
        return next((t.value for t in self.tags if t.name == name), default)


#: The orders JSON writes a Record's members in: as pydantic wrote them, in the order the fields were set, which is
#: the model's for a Record validated or built in code and the reader's (``tags`` before ``seats``, its header-tag
#: table's) for one read from text.
_RECORD_ORDERS: Final[dict[tuple[str, ...], tuple[str, ...]]] = {}


def _record_order(fields: Mapping[str, Any]) -> tuple[str, ...]:
    order = tuple(name for name in fields if name in Record._dumped)
    return _RECORD_ORDERS.setdefault(order, order)


#: The native classes by name, for the adapter (:mod:`.record_json`), which makes them from validated twins.
_CLASSES: Final[dict[str, type[Native]]] = {
    cls.__name__: cls for cls in (Span, Annotation, StatedPurchase, CoinsPaid, Pick, Action, Turn, Variation, Seat,
                                  Deal, Seed, Tag, SeatResult, Record)
}


def _native(name: str, fields: dict[str, Any]) -> Native:
    return make(_CLASSES[name], fields)


_init_span: Final = _SpanFields.__init__
_init_action: Final = _ActionFields.__init__
_init_turn: Final = _TurnFields.__init__


def new_span(line: int, column: int, offset: int) -> Span:
    """A :class:`Span`, unvalidated: the reader's constructor of the ~130 spans of a game (a plain ``__init__`` of
    its fields: 3x faster than setting each slot through ``object.__setattr__``)."""
    span = _new(Span)
    _init_span(span, line, column, offset)
    return span


def new_action(seat: int, use: str, card: str, purchase: PurchaseStated | None, discard: str | None,
               pick: Pick | None, annotation: Annotation, span: Span | None) -> Action:
    """An :class:`Action`, unvalidated: the reader's constructor, in the loop that builds every action it reads."""
    action = _new(Action)
    _init_action(action, seat, use, card, purchase, discard, pick, annotation, span)
    return action


def new_turn(age: int, number: int, actions: tuple[Action, ...], annotation: Annotation,
             variations: tuple[Variation, ...], span: Span | None) -> Turn:
    """A :class:`Turn`, unvalidated: the reader's constructor."""
    turn = _new(Turn)
    _init_turn(turn, age, number, actions, annotation, variations, span)
    return turn


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
