"""The 7WN position string (spec/position.md): one line that states a position completely, read into plain data
(:class:`Setup`) with every check of the spec, and written back in canonical form.

This module knows the text and the catalogue (names, Ages, deck copies), not the rules engine: the reader checks a
``[Position]`` tag with it without importing the engine, and :mod:`wnotation.engine.position` turns a
:class:`Setup` into an engine position and back. Errors are :class:`PositionError`, with the check that failed
(spec/position.md §6), the 0-based index in the string, the rule ID and what was expected.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Sequence

from .catalog import AGE_NUMERALS, BuildFromDiscard, Card, CatalogError, PlayLastCard, WonderSide, load
from .deck import SHUFFLE_ALGORITHM, copies, guild_count
from .vocabulary import END, EXTRA_TURN, Address, age_of_numeral, seat_key

__all__ = ["CHECKS", "PositionError", "SeatSetup", "Setup", "escape_name", "read", "seat_places", "start_problem",
           "write"]

#: The checks of spec/position.md §6, in the order a reader makes them.
CHECKS = ("syntax", "unknown-name", "seats", "city", "tokens", "hand", "picks", "deck", "seed")
HAND_SIZE = 7
_VICTORY = {1: 1, 2: 3, 3: 5}
_SEAT_FIELDS = ("coins", "tokens", "stages", "built", "hand", "picks")
_TABLE_FIELDS = ("pile", "guilds", "seed")
_BLANKS = " \t"
# Keywords match in ASCII case; Python's case-insensitive matching also lets these four stand for ASCII letters.
_KEY_FOLD = str.maketrans({"\u017f": "s", "\u212a": "k", "\u0130": "i", "\u0131": "i"})
_NUMERAL = r"(?:[Ii\u0130\u0131]{1,3})"
_ADDRESS_RE = re.compile(r"[ \t]*((?i:" + _NUMERAL + r")\.(?:[0-7]|(?i:end)))(?=[ \t|]|$)")
_PREFIX_RE = re.compile(r"(" + _NUMERAL + r")[ \t]*:[ \t]*")
_STAGE_RE = re.compile(r"(" + _NUMERAL + r")[ \t]+")
_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9'\-]*(?:[ \t]+[A-Za-z0-9'\-]+)*")
_COUNT_RE = re.compile(r"[0-9]{1,18}")
_TOKEN_RE = re.compile(r"-?[0-9]{1,2}")


class PositionError(ValueError):
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
    and the seed when known. Plain data over catalogue objects; :func:`write` gives its canonical string."""

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


# --- writing ----------------------------------------------------------------------------------------------------


def escape_name(name: str) -> str:
    """A seat name as the string writes it between ``<`` and ``>`` (``\\`` and ``>`` escaped)."""
    return name.replace("\\", "\\\\").replace(">", "\\>")


def _card_text(card: Card | None, age: int) -> str:
    if card is None:
        return "?"
    return card.name if _default_age(card.name, age) == card.age else card.key


def write(setup: Setup) -> str:
    """The canonical string of ``setup`` (spec/position.md §5). Cost: linear in the cards."""
    age = setup.age
    parts = [setup.address]
    for s in setup.seats:
        fields = [f"<{escape_name(s.name)}> {s.wonder.name} {s.wonder.side}", f"coins {s.coins}"]
        if s.tokens:
            fields.append("tokens " + ", ".join(str(t) for t in s.tokens))
        if s.stages:
            fields.append("stages " + ", ".join(f"{AGE_NUMERALS[a]} {_card_text(c, age)}" for a, c in s.stages))
        if s.buildings:
            fields.append("built " + ", ".join(_card_text(c, age) for c in s.buildings))
        if s.hand:
            fields.append("hand " + ", ".join(_card_text(c, age) for c in s.hand))
        if s.picks:
            fields.append(f"picks {s.picks}")
        parts.append("; ".join(fields))
    table = []
    if setup.pile:
        table.append("pile " + ", ".join(_card_text(c, age) + (f"@{k}" if k else "") for c, k in setup.pile))
    if setup.guilds is not None:
        table.append("guilds " + ", ".join(g.name for g in setup.guilds))
    if setup.seed is not None:
        table.append(f"seed {SHUFFLE_ALGORITHM} {setup.seed}")
    if table:
        parts.append("; ".join(table))
    return " | ".join(parts)


# --- reading: syntax --------------------------------------------------------------------------------------------

#: A card item as written: ``(Age prefix or None, name or None for ?, where the name starts)``.
_CardText = tuple[int | None, str | None, int]


@dataclass
class _SeatText:
    """One seat as written, before names are looked up; indices are 0-based places in the string."""

    name: str
    name_at: int
    wonder: str
    side: str
    wonder_at: int
    fields: dict[str, int] = field(default_factory=dict)  # keyword -> where it is written
    coins: int = 0
    picks: int = 0
    picks_at: int = 0
    tokens: list[tuple[int, int]] = field(default_factory=list)
    stages: list[tuple[int, _CardText, int]] = field(default_factory=list)  # (Age built, card, where)
    built: list[_CardText] = field(default_factory=list)
    hand: list[_CardText] = field(default_factory=list)


@dataclass
class _Text:
    """The whole string as written: address, seats, and the table's fields (value, where) and keywords' places."""

    address: Address
    seats: list[_SeatText] = field(default_factory=list)
    table: dict[str, tuple[str, int]] = field(default_factory=dict)
    table_at: dict[str, int] = field(default_factory=dict)
    pile: list[tuple[_CardText, int | None, int]] = field(default_factory=list)  # (card, seat, where the seat is)
    guilds: list[_CardText] | None = None
    seed: tuple[str, int] | None = None  # the seed's digits, where they are


def _key(word: str) -> str:
    return word.translate(_KEY_FOLD).lower()


def _default_age(name: str, age: int) -> int:
    """The Age a bare card name (a printed name) denotes in a position of ``age``: the latest Age up to it that
    prints the name, else the earliest that does (a check then refuses the card)."""
    catalog = load()
    printed = [a for a in (1, 2, 3) if any(c.age == a and c.name == name for c in catalog.cards)]
    before = [a for a in printed if a <= age]
    return before[-1] if before else printed[0]


def _fail(message: str, at: int, expected: tuple[str, ...] = ()) -> PositionError:
    return PositionError("syntax", message, at, expected=expected)


class _Reader:
    """A cursor over the string."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def blanks(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in _BLANKS:
            self.i += 1

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def word(self) -> tuple[str, int]:
        """The letters from here (a keyword), and where they start."""
        start = self.i
        while self.i < len(self.text) and self.text[self.i].isalpha():
            self.i += 1
        return self.text[start:self.i], start

    def until(self, stops: str) -> tuple[str, int]:
        """The text up to the next character of ``stops`` (or the end), blanks at its ends dropped, and where it
        starts; the reader stands at the stop."""
        start = self.i
        while self.i < len(self.text) and self.text[self.i] not in stops:
            self.i += 1
        raw = self.text[start:self.i]
        return raw.strip(_BLANKS), start + len(raw) - len(raw.lstrip(_BLANKS))


def _items(raw: str, at: int) -> list[tuple[str, int]]:
    """The comma-separated items of ``raw`` (written at ``at``), each stripped, with where it starts."""
    out = []
    pos = 0
    for part in raw.split(","):
        stripped = part.strip(_BLANKS)
        where = at + pos + len(part) - len(part.lstrip(_BLANKS))
        if not stripped:
            raise _fail("an empty item in a list", where, ("an item",))
        out.append((stripped, where))
        pos += len(part) + 1
    return out


def _parse(text: str) -> _Text:
    for k, c in enumerate(text):
        if c in "\n\r":
            raise _fail("a position string is one line", k, ("one line",))
    r = _Reader(text)
    r.blanks()
    m = _ADDRESS_RE.match(text)
    if m is None:
        raise _fail("a position string starts with its address (I.0 … III.7, I.end … III.end)", r.i,
                    ("an address",))
    p = _Text(Address.parse(m.group(1)))
    r.i = m.end()
    while True:
        r.blanks()
        if r.i >= len(text):
            break
        if r.peek() != "|":
            raise _fail(f"expected | here, not {r.peek()!r}", r.i, ("|",))
        r.i += 1
        r.blanks()
        if r.peek() == "<" and not p.table:
            p.seats.append(_read_seat(r))
        elif p.table:
            raise _fail("the table part (pile, guilds, seed) comes last", r.i - 1, ("the end",))
        elif not p.seats:
            raise _fail("expected a seat: <name> Wonder side; coins N", r.i, ("<",))
        else:
            _read_table(r, p)
    if not p.seats:
        raise _fail("a position string holds its seats after the address", r.i, ("|",))
    _table_items(p)
    return p


_PILE_RE = re.compile(r"(?P<card>.*?)(?:[ \t]*@[ \t]*(?P<seat>[^ \t].*))?")


def _table_items(p: _Text) -> None:
    """The syntax of the table's items: pile cards and their seats, guilds, the seed's two words."""
    if "pile" in p.table:
        for item, w in _items(*p.table["pile"]):
            m = _PILE_RE.fullmatch(item)
            assert m is not None
            owner = m.group("seat")
            owner_at = w + m.start("seat") if owner is not None else w
            if owner is not None and not re.fullmatch(r"[0-9]{1,2}", owner):
                raise _fail(f"pile card {item!r}: expected a seat number after @", owner_at, ("a seat number",))
            p.pile.append((_card_syntax(m.group("card"), w), int(owner) if owner else None, owner_at))
    if "guilds" in p.table:
        p.guilds = [_card_syntax(item, w) for item, w in _items(*p.table["guilds"])]
    if "seed" in p.table:
        value, at = p.table["seed"]
        words = value.split()
        if len(words) != 2 or _key(words[0]) != _key(SHUFFLE_ALGORITHM) or not re.fullmatch(r"[0-9]+", words[1]):
            raise _fail(f"seed {value!r}: expected {SHUFFLE_ALGORITHM} and a decimal seed", at, (SHUFFLE_ALGORITHM,))
        p.seed = words[1], at + value.rindex(words[1])


def _fields(r: _Reader, names: tuple[str, ...], found: dict[str, tuple[str, int]], at: dict[str, int]) -> None:
    """``; keyword value`` fields up to a ``|`` or the end, into ``found`` (value, where) and ``at`` (where the
    keyword is)."""
    while True:
        r.blanks()
        if r.peek() != ";":
            return
        r.i += 1
        r.blanks()
        written, start = r.word()
        word = _key(written)
        if word not in names:
            raise _fail(f"unknown field {written!r}" if written else "expected a field", start, names)
        if word in found:
            raise _fail(f"the field {word} twice", start, tuple(n for n in names if n not in found))
        if not r.peek() or r.peek() not in _BLANKS:
            raise _fail(f"{word} needs a value", r.i, ("a value",))
        value, where = r.until(";|")
        if not value:
            raise _fail(f"{word} needs a value", where, ("a value",))
        found[word] = (value, where)
        at[word] = start


def _seat_name(r: _Reader) -> tuple[str, int]:
    at = r.i
    r.i += 1
    out = []
    text = r.text
    while True:
        if r.i >= len(text):
            raise _fail("a seat name without its closing >", r.i, (">",))
        c = text[r.i]
        if c == "\\" and r.i + 1 < len(text) and text[r.i + 1] in "\\>":
            out.append(text[r.i + 1])
            r.i += 2
        elif c == ">":
            r.i += 1
            return "".join(out), at
        else:
            out.append(c)
            r.i += 1


def _count(word: str, value: str, at: int) -> int:
    if not _COUNT_RE.fullmatch(value):
        bad = next((k for k, c in enumerate(value) if not c.isdigit() or not c.isascii()), 18)
        raise _fail(f"{word} {value!r}: expected a count (0 or more, at most 18 digits)", at + bad, ("a count",))
    return int(value)


def _read_seat(r: _Reader) -> _SeatText:
    name, name_at = _seat_name(r)
    r.blanks()
    words, at = r.until(";|")
    parts = words.rsplit(None, 1)
    if len(parts) < 2:
        raise _fail("expected the Wonder and its side after the seat name", at + len(words),
                    ("a Wonder and day or night",))
    side_at = at + words.rindex(parts[1])
    side = {"day": "day", "night": "night", "a": "day", "b": "night"}.get(_key(parts[1]))
    if side is None:
        raise _fail(f"Wonder side {parts[1]!r}: expected day or night", side_at, ("day", "night"))
    s = _SeatText(name, name_at, parts[0], side, at)
    found: dict[str, tuple[str, int]] = {}
    _fields(r, _SEAT_FIELDS, found, s.fields)
    if "coins" not in found:
        raise _fail("a seat needs its coins (; coins N)", r.i, ("; coins",))
    for word in _SEAT_FIELDS:
        if word not in found:
            continue
        value, vat = found[word]
        if word == "coins":
            s.coins = _count(word, value, vat)
        elif word == "picks":
            s.picks, s.picks_at = _count(word, value, vat), vat
        elif word == "tokens":
            for item, w in _items(value, vat):
                if not _TOKEN_RE.fullmatch(item):
                    raise _fail(f"token {item!r}: expected -1, 1, 3 or 5", w, ("-1", "1", "3", "5"))
                s.tokens.append((int(item), w))
        elif word == "stages":
            for item, w in _items(value, vat):
                m = _STAGE_RE.match(item)
                if m is None:
                    raise _fail(f"stage {item!r}: expected the Age it was built in and its card (I Altar, II ?)", w,
                                ("I", "II", "III"))
                s.stages.append((age_of_numeral(m.group(1)), _card_syntax(item[m.end():], w + m.end()), w))
        else:
            cards = [_card_syntax(item, w) for item, w in _items(value, vat)]
            if word == "built":
                s.built = cards
            else:
                s.hand = cards
    return s


def _card_syntax(item: str, at: int) -> _CardText:
    if item == "?":
        return None, None, at
    m = _PREFIX_RE.match(item)
    prefix = None
    if m is not None:
        prefix = age_of_numeral(m.group(1))
        at += m.end()
        item = item[m.end():]
    if not _NAME_RE.fullmatch(item):
        bad = next((k for k, c in enumerate(item) if not (c.isascii() and (c.isalnum() or c in "'- \t"))), 0)
        raise _fail(f"{item!r} is not a card name", at + bad, ("a card name", "?"))
    return prefix, item, at


def _read_table(r: _Reader, p: _Text) -> None:
    written, start = r.word()
    word = _key(written)
    if word not in _TABLE_FIELDS:
        raise _fail(f"expected a seat (<name> …) or the table (pile, guilds, seed), not {written!r}", start,
                    ("<",) + _TABLE_FIELDS)
    if not r.peek() or r.peek() not in _BLANKS:
        raise _fail(f"{word} needs a value", r.i, ("a value",))
    value, at = r.until(";|")
    if not value:
        raise _fail(f"{word} needs a value", at, ("a value",))
    p.table[word] = (value, at)
    p.table_at[word] = start
    _fields(r, _TABLE_FIELDS, p.table, p.table_at)


# --- reading: names -------------------------------------------------------------------------------------------


def _card(text: _CardText, age: int) -> Card | None:
    """The catalogue card of an item (``None`` for ``?``); ``unknown-name`` for a name or prefix it lacks."""
    prefix, name, at = text
    if name is None:
        return None
    catalog = load()
    try:
        printed = catalog.card_name(name)
    except CatalogError as exc:
        raise PositionError("unknown-name", str(exc), at, suggestion=exc.suggestion) from None
    if prefix is not None:
        try:
            return catalog.card(printed, prefix)
        except CatalogError as exc:
            raise PositionError("unknown-name", str(exc), at - len(AGE_NUMERALS[prefix]) - 1) from None
    return catalog.card(printed, _default_age(printed, age))


@dataclass
class _Seat:
    """One seat with its cards looked up, and where each was written."""

    text: _SeatText
    wonder: WonderSide
    stages: list[tuple[int, Card | None, int]]
    built: list[tuple[Card | None, int]]
    hand: list[tuple[Card | None, int]]


def read(text: str) -> Setup:
    """The position ``text`` states (spec/position.md), after every check of its §6 in order. Raises
    :class:`PositionError` at the first failure. Cost: linear in the text."""
    p = _parse(text)
    catalog = load()
    age = p.address.age
    seats = []
    for s in p.seats:
        try:
            wonder = catalog.wonder(s.wonder, s.side)
        except CatalogError as exc:
            raise PositionError("unknown-name", str(exc), s.wonder_at, suggestion=exc.suggestion) from None
        stages = [(a, _card(c, age), w) for a, c, w in s.stages]
        seats.append(_Seat(s, wonder, stages, [(_card(c, age), c[2]) for c in s.built],
                           [(_card(c, age), c[2]) for c in s.hand]))
    # (card, seat or None, where the card is, where the seat is)
    pile = [(_card(c, age), owner, c[2], owner_at) for c, owner, owner_at in p.pile]
    guilds = None if p.guilds is None else [(_card(c, 3), c[2]) for c in p.guilds]
    setup = _checked(p, seats, pile, guilds)
    if p.seed is not None:
        digits, at = p.seed
        if len(digits) > 20 or int(digits) >= 1 << 64:
            raise PositionError("seed", "the seed must be below 2**64", at)
        setup = replace(setup, seed=int(digits))
    return setup


# --- reading: checks --------------------------------------------------------------------------------------------


def _checked(p: _Text, seats: list[_Seat], pile: list[tuple[Card | None, int | None, int, int]],
             guilds: list[tuple[Card | None, int]] | None) -> Setup:
    n = len(seats)
    age = p.address.age
    ended = p.address.turn == END
    turn = 6 if ended else p.address.turn
    if not 3 <= n <= 7:
        raise PositionError("seats", f"{n} seats: the base game is for 3 to 7 players", seats[-1].text.name_at,
                            rule="R-SEAT")
    keys: dict[str, int] = {}
    wonders: dict[str, int] = {}
    for k, s in enumerate(seats, 1):
        key = seat_key(s.text.name)
        if not key:
            raise PositionError("seats", "a seat needs a non-empty name", s.text.name_at, rule="R-SEAT")
        if key in keys:
            raise PositionError("seats", f"seat name {s.text.name!r} is already seat {keys[key]}'s", s.text.name_at,
                                rule="R-SEAT")
        keys[key] = k
        if s.wonder.name in wonders:
            raise PositionError("seats", f"{s.wonder.name} is already seat {wonders[s.wonder.name]}'s Wonder",
                                s.text.wonder_at, rule="R-BOARD")
        wonders[s.wonder.name] = k
    listed = None if guilds is None else tuple(g for g, _ in guilds if g is not None)
    out = [_checked_seat(p, s, age, turn, ended, listed) for s in seats]
    for card, owner, w, owner_at in pile:
        if card is not None and card.age > age:
            raise PositionError("deck", f"{card.name} is an Age {AGE_NUMERALS[card.age]} card, in the pile in Age "
                                f"{AGE_NUMERALS[age]}", w, rule="R-DECK")
        if owner is not None and not 1 <= owner <= n:
            raise PositionError("deck", f"seat {owner}: seats are numbered 1 to {n}", owner_at, rule="R-SEAT")
    if guilds is not None:
        for card, w in guilds:
            if card is None or not card.is_guild:
                raise PositionError("deck", f"{card.name if card else '?'} is not a guild", w, rule="R-DECK")
        if len(set(guilds)) != len(guilds) or len(guilds) != guild_count(n):
            raise PositionError("deck", f"{len(guilds)} guilds listed: a {n}-player game uses {guild_count(n)} "
                                "distinct guilds (N+2)", p.table_at["guilds"], rule="R-DECK")
    _check_copies(seats, pile, age, n, listed)
    return Setup(age, turn, ended, tuple(out), tuple((c, o or 0) for c, o, _, _ in pile), listed)


def _checked_seat(p: _Text, s: _Seat, age: int, turn: int, ended: bool, guilds: tuple[Card, ...] | None
                  ) -> SeatSetup:
    """Checks 4-7 (city, tokens, hand, picks) of one seat, and its :class:`SeatSetup`."""
    whose = f"{s.text.name}'s"
    numeral = AGE_NUMERALS[age]
    wonder = s.wonder
    played = EXTRA_TURN if ended else turn  # the most turns of this Age a seat can have played
    resolved = age - 1 + (1 if ended else 0)  # Ages whose military is resolved
    # city
    if len(s.stages) > len(wonder.stages):
        raise PositionError("city", f"{len(s.stages)} stages built: {wonder.name} {wonder.side} has "
                            f"{len(wonder.stages)}", s.stages[len(wonder.stages)][2], rule="R-STAGE")
    last = 1
    for a, card, w in s.stages:
        if a > age or a < last:
            why = "after the position's Age" if a > age else "before the stage to its left"
            raise PositionError("city", f"a stage built in Age {AGE_NUMERALS[a]}, {why}", w, rule="R-STAGE")
        last = a
        if card is not None and card.age > age:
            raise PositionError("city", f"{card.name} is an Age {AGE_NUMERALS[card.age]} card, under a board in "
                                f"Age {numeral}", w, rule="R-DECK")
    now = [w for a, _, w in s.stages if a == age]
    if len(now) > played:
        raise PositionError("city", f"{len(now)} stages built in Age {numeral} after {played} turns of it",
                            now[played], rule="R-STAGE")
    names: set[str] = set()
    built: list[Card] = []
    for card, w in s.built:
        if card is None:
            raise PositionError("city", "a Building is a card everyone sees: name it, not ?", w, rule="R-TURN")
        if card.age > age:
            raise PositionError("city", f"{card.name} is an Age {AGE_NUMERALS[card.age]} card, in a city in Age "
                                f"{numeral}", w, rule="R-DECK")
        if card.name in names:
            raise PositionError("city", f"{whose} city holds {card.name} twice", w, rule="R-UNIQUE")
        names.add(card.name)
        built.append(card)
    # tokens
    for j, (t, w) in enumerate(s.text.tokens):
        if t not in (-1, 1, 3, 5):
            raise PositionError("tokens", f"token {t}: military tokens are -1, 1, 3 and 5", w, rule="R-MILITARY")
        if t > 0 and next(a for a, v in _VICTORY.items() if v == t) > resolved:
            raise PositionError("tokens", f"a victory token of {t}: that Age's military is not resolved at "
                                f"{p.address}", w, rule="R-MILITARY")
        if j >= 2 * resolved:
            raise PositionError("tokens", f"{len(s.text.tokens)} tokens: {resolved} Ages of military give at most "
                                f"{2 * resolved}", w, rule="R-MILITARY")
    # hand
    keeps = any(type(e) is PlayLastCard for st in wonder.stages[:len(s.stages)] for e in st.effects)
    sizes = (0,) if ended or turn == EXTRA_TURN else ((0, 1) if keeps else (0,)) if turn == 6 else \
        (HAND_SIZE - turn,)
    if len(s.hand) not in sizes:
        at = s.text.fields.get("hand", s.text.fields["coins"])
        want = " or ".join(str(k) for k in sizes)
        kept = turn == 6 and len(s.hand) == 1
        why = ": a card is kept after turn 6 only with the stage that allows it" if kept else ""
        raise PositionError("hand", f"{whose} hand holds {len(s.hand)} card{'' if len(s.hand) == 1 else 's'}; at {p.address} it holds {want}{why}",
                            at, rule="R-BABYLON-N1" if kept else "R-DECK")
    for card, w in s.hand:
        if card is not None and card.age != age:
            raise PositionError("hand", f"{card.name} is an Age {AGE_NUMERALS[card.age]} card, in a hand in Age "
                                f"{numeral}", w, rule="R-DECK")
        if card is not None and card.is_guild and guilds is not None and card not in guilds:
            raise PositionError("hand", f"{card.name} is not among the position's guilds", w, rule="R-DECK")
    # picks
    picks = s.text.picks
    if picks:
        at = s.text.picks_at
        if ended or turn < 6:
            raise PositionError("picks", f"builds from the discard pile owed at {p.address}: they wait only after "
                                "turn 6 or the extra turn", at, rule="R-HALI-LAST")
        power = sum(1 for st, (a, _, _) in zip(wonder.stages, s.stages)
                    if a == age and any(type(e) is BuildFromDiscard for e in st.effects))
        if picks > power:
            raise PositionError("picks", f"{picks} builds from the discard pile owed: {whose} city built {power} "
                                f"stage{'s' if power != 1 else ''} with that power in Age {numeral}", at,
                                rule="R-HALI")
    return SeatSetup(s.text.name, wonder, s.text.coins, tuple(t for t, _ in s.text.tokens),
                     tuple((a, c) for a, c, _ in s.stages), tuple(built), tuple(c for c, _ in s.hand), picks)


def _check_copies(seats: list[_Seat], pile: list[tuple[Card | None, int | None, int, int]], age: int, n: int,
                  guilds: tuple[Card, ...] | None) -> None:
    """More named copies of a design than its Age deck holds (R-DECK), counted seat by seat (stages, Buildings,
    hand), then the pile, in string order; more than N+2 distinct guilds named when the guilds are not listed."""
    uses: list[tuple[Card, int]] = []
    for s in seats:
        uses += [(c, w) for _, c, w in s.stages if c is not None]
        uses += [(c, w) for c, w in s.built if c is not None]
        uses += [(c, w) for c, w in s.hand if c is not None]
    uses += [(c, w) for c, _, w, _ in pile if c is not None]
    limits = {a: copies(a, n, guilds) for a in range(1, age + 1)}
    seen: Counter[Card] = Counter()
    named: set[Card] = set()
    for card, w in uses:
        seen[card] += 1
        have = limits[card.age][card] if card.age in limits else 0
        if seen[card] > have:
            if card.is_guild and not have:
                what = "is not among the position's guilds"
            else:
                what = (f"has {have} cop{'y' if have == 1 else 'ies'} in the Age {AGE_NUMERALS[card.age]} deck for "
                        f"{n} players; this is copy {seen[card]}")
            raise PositionError("deck", f"{card.name} {what}", w, rule="R-DECK")
        if card.is_guild and card not in named:
            named.add(card)
            if len(named) > guild_count(n):
                raise PositionError("deck", f"{len(named)} guilds named: a {n}-player game has {guild_count(n)}", w,
                                    rule="R-DECK")


# --- records that start from a position -------------------------------------------------------------------------


def seat_places(position: str) -> tuple[int, ...]:
    """Where each seat of a valid string starts (the index of its ``<``), for errors about one seat."""
    return tuple(s.name_at for s in _parse(position).seats)


def start_problem(setup: Setup, seats: Sequence[tuple[str, str, str]]) -> tuple[int, str] | None:
    """Why a record whose seats are ``seats`` (name, Wonder's catalogue name, side, in seat order) cannot start
    from ``setup`` (spec/position.md §8): ``(seat index or -1, message)``, or ``None``. The string's seats must be
    the record's (seat key, Wonder and side), and no build from the discard pile may be owed."""
    if len(seats) != len(setup.seats):
        return -1, f"the position has {len(setup.seats)} seats, the record {len(seats)}"
    for k, ((name, wonder, side), s) in enumerate(zip(seats, setup.seats)):
        if seat_key(name) != seat_key(s.name):
            return k, f"seat {k + 1} is {name!r} in the record and {s.name!r} in the position"
        if (wonder, side) != (s.wonder.name, s.wonder.side):
            return k, (f"seat {k + 1} ({name}) plays {wonder} {side} in the record and {s.wonder.name} "
                       f"{s.wonder.side} in the position")
    for k, s in enumerate(setup.seats):
        if s.picks:
            return k, (f"{s.name} is owed a build from the discard pile at {setup.address}: a record cannot start "
                       "there (start from the position before that turn, or from the end of the Age)")
    return None
