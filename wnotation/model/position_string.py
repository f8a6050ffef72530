"""The 7WN position string (spec/position.md): one line that states a position completely, read for its syntax
and its names into plain data (:func:`parse` gives a :class:`Written`), and written back in canonical form
(:func:`write` of a :class:`Setup`).

This module knows the text and the catalogue names, not the rules: the engine judges what it read
(:mod:`wnotation.engine.position_rules`: ``judge``, and ``read``, the whole §6 of a string), as python-chess's board
judges a FEN. The reader reads a ``[Position]`` tag with :func:`parse`, once, into the Record's ``start``. Errors
are :class:`PositionError`, with the check that failed (spec/position.md §6), the 0-based index in the string and
what was expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from .catalog import AGE_NUMERALS, Card, CatalogError, load
from .deck import SHUFFLE_ALGORITHM
from ..support.memo import Memo, memo
from .position_values import CHECKS, PileWritten, PositionError, SeatSetup, SeatWritten, Setup, Written
from .vocabulary import Address, age_of_numeral, seat_key

__all__ = ["CHECKS", "PositionError", "SeatSetup", "Setup", "Written", "escape_name", "parse", "seat_places",
           "start_problem", "write"]

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


#: The Ages in which each printed card name is printed (three names are printed in two): catalogue data, filled
#: from the catalogue whenever it is empty (first use, or after :func:`wnotation.support.memo.clear_all`).
_AGES_OF_NAME: Memo[str, tuple[int, ...]] = memo("position strings: the Ages of each printed card name", 256)


def _default_age(name: str, age: int) -> int:
    """The Age a bare card name (a printed name) denotes in a position of ``age``: the latest Age up to it that
    prints the name, else the earliest that does (a check then refuses the card)."""
    if not _AGES_OF_NAME:
        found: dict[str, list[int]] = {}
        for c in load().cards:
            found.setdefault(c.name, []).append(c.age)
        _AGES_OF_NAME.update({n: tuple(sorted(set(ages))) for n, ages in found.items()})
    printed = _AGES_OF_NAME[name]
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


def parse(text: str) -> Written:
    """The position ``text`` writes, read for its syntax and names (the checks ``syntax`` and ``unknown-name`` of
    spec/position.md §6, in order), not yet judged by the rules. Raises :class:`PositionError` at the first
    failure. Cost: linear in the text."""
    p = _parse(text)
    catalog = load()
    age = p.address.age
    seats = []
    for s in p.seats:
        try:
            wonder = catalog.wonder(s.wonder, s.side)
        except CatalogError as exc:
            raise PositionError("unknown-name", str(exc), s.wonder_at, suggestion=exc.suggestion) from None
        seats.append(SeatWritten(s.name, s.name_at, wonder, s.wonder_at, s.fields, s.coins, s.tokens,
                                 [(a, _card(c, age), w) for a, c, w in s.stages],
                                 [(_card(c, age), c[2]) for c in s.built], [(_card(c, age), c[2]) for c in s.hand],
                                 s.picks, s.picks_at))
    pile: list[PileWritten] = [(_card(c, age), owner, c[2], owner_at) for c, owner, owner_at in p.pile]
    guilds = None if p.guilds is None else tuple((_card(c, 3), c[2]) for c in p.guilds)
    seed, seed_at = None, 0
    if p.seed is not None:
        digits, seed_at = p.seed
        seed = int(digits) if len(digits) <= 20 else 1 << 64  # past 20 digits only "too large" matters (the judge's)
    return Written(text, p.address, tuple(seats), tuple(pile), guilds, p.table_at.get("guilds", 0), seed, seed_at)


# --- records that start from a position -------------------------------------------------------------------------


def seat_places(position: str) -> tuple[int, ...]:
    """Where each seat of a valid string starts (the index of its ``<``), for errors about one seat."""
    return tuple(s.name_at for s in _parse(position).seats)


def start_problem(setup: Setup | Written, seats: Sequence[tuple[str, str, str]]) -> tuple[int, str] | None:
    """Why a record whose seats are ``seats`` (name, Wonder's catalogue name, side, in seat order) cannot start
    from ``setup`` (spec/position.md §8): ``(seat index or -1, message)``, or ``None``. The string's seats must be
    the record's (seat key, Wonder and side), and no build from the discard pile may be owed."""
    stated: Sequence[SeatSetup | SeatWritten] = setup.seats
    if len(seats) != len(stated):
        return -1, f"the position has {len(stated)} seats, the record {len(seats)}"
    for k, ((name, wonder, side), s) in enumerate(zip(seats, stated)):
        if seat_key(name) != seat_key(s.name):
            return k, f"seat {k + 1} is {name!r} in the record and {s.name!r} in the position"
        if (wonder, side) != (s.wonder.name, s.wonder.side):
            return k, (f"seat {k + 1} ({name}) plays {wonder} {side} in the record and {s.wonder.name} "
                       f"{s.wonder.side} in the position")
    for k, s in enumerate(stated):
        if s.picks:
            return k, (f"{s.name} is owed a build from the discard pile at {setup.address}: a record cannot start "
                       "there (start from the position before that turn, or from the end of the Age)")
    return None


