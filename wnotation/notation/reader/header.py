"""The header part of the build: tag sections checked and decoded into the Record's header fields.

Both routes lex a tag section into :data:`TagEntry` tuples (the tag's name and values as written, with offsets);
every check of tags, the roster, guilds, seed and deals is made here, once. Decoded rosters and guild lists are
kept by their text (valid ones only), since the same ones come again from game to game; what depends on the game
(duplicates, counts) is checked each time. :class:`Header` (:mod:`.header_type`) is what ``read_headers`` gives
for a game.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from collections.abc import Callable

from ...model import catalog as _catalog
from ...model.deck import SHUFFLE_ALGORITHM
from ...model.record import EDITION, FORMAT_VERSION, FORMAT_VERSIONS, POSITION_TAG, UNKNOWN, Deal, Seat, Seed, Tag, make
from ...model.position_values import PositionError, Written
from ...model.vocabulary import EXPANSIONS, EXTRA_TURN, seat_key
from .. import lexical
from ..errors import NotationError, Origin, RosterError, TagError, UnknownNameError, at_offset
from ..tags import BY_NAME, FIELDS, RESERVED_BY_FOLDED, RESERVED_TAGS
from .build import Game
from .header_type import Header

__all__ = ["Header", "RESERVED_TAGS", "TagEntry", "read_header", "header_of", "refused_position"]

_RESERVED_FOLDED = RESERVED_BY_FOLDED
_DEAL_AGE = {"DealI": 1, "DealII": 2, "DealIII": 3}
_HAND = 7
_SIDES = {"day": "day", "night": "night", "a": "day", "b": "night"}
_STRING_RE = re.compile(lexical.TERMINALS["STRING"])

#: One tag as a route lexed it: ``(name, name_at, at, line, column, values, values_at)``: its name and where it is
#: written, where its ``[`` is (offset, 1-based line and column in the game's text), and its strings as written
#: (quotes, escapes and the blanks or line ends between them) with the offset of the first one.
TagEntry = tuple[str, int, int, int, int, str, int]

# Decoded [SeatN] values and [Guilds] lists by their text (valid ones only).
_SEAT_VALUES: dict[str, tuple[str, str, str, str]] = {}
_GUILD_VALUES: dict[str, tuple[str, ...]] = {}
_VALUES_MAX = 1 << 12


def _strings(raw: str, at: int) -> list[tuple[str, int]]:
    """The strings of a tag's values, each with its offset."""
    if raw.count('"') == 2:
        return [(raw, at)]
    return [(m.group(), at + m.start()) for m in _STRING_RE.finditer(raw)]


def _one_value(g: Game, entry: TagEntry) -> tuple[str, int]:
    name, _, _, _, _, raw, raw_at = entry
    strings = _strings(raw, raw_at)
    if len(strings) != 1:
        raise g.error(TagError, f"[{name}] holds one value, not {len(strings)}", strings[1][1], rule="tag-value")
    return strings[0]


def read_header(g: Game, entries: list[TagEntry]) -> None:
    """Check and decode a game's tags (in file order) into ``g.header`` and ``g.seats``; raise
    :class:`~wnotation.notation.NotationError` at the first problem."""
    seen: set[str] = set()
    free: list[Tag] = []
    seat_tags: dict[int, TagEntry] = {}
    values: dict[str, TagEntry] = {}
    first = entries[0]
    if first[0] != "Format":
        raise g.error(TagError, f"a game starts with [Format \"{FORMAT_VERSION}\"], not [{first[0]}]", first[1],
                      rule="format")
    positioned = lexical.string_value(first[5]) != FORMAT_VERSION  # [Position] is reserved from version 2 on
    for entry in entries:
        name, name_at, at, line, column, raw, raw_at = entry
        canonical = _RESERVED_FOLDED.get(name.casefold())
        if canonical is not None and canonical != name:
            raise g.error(TagError, f"tag names are case-sensitive: write [{canonical}], not [{name}]", name_at,
                          rule="tag-name", suggestion=canonical)
        if canonical is None:
            folded = name.casefold()
            if folded.startswith("seat") or folded.startswith("deal"):
                kind = "Seat1 … Seat7" if folded.startswith("seat") else "DealI, DealII, DealIII"
                raise g.error(TagError, f"[{name}] is reserved and not defined: the defined tags are {kind}",
                              name_at, rule="reserved-tag")
            value, _ = _one_value(g, entry)
            if positioned and folded == "position":
                if name != POSITION_TAG:
                    raise g.error(TagError, f"tag names are case-sensitive: write [{POSITION_TAG}], not [{name}]",
                                  name_at, rule="tag-name", suggestion=POSITION_TAG)
                if name in seen:
                    raise g.error(TagError, f"[{name}] appears twice in this game", name_at, rule="duplicate-tag")
                seen.add(name)
                values[name] = entry
            free.append(make(Tag, {"name": name, "value": lexical.string_value(value), "span": g.span(line, column, at)}))
            continue
        if name in seen:
            raise g.error(TagError, f"[{name}] appears twice in this game", name_at, rule="duplicate-tag")
        seen.add(name)
        shape = BY_NAME[name].shape
        if shape == "seat":
            if raw not in _SEAT_VALUES and len(_strings(raw, raw_at)) != 3:
                raise g.error(TagError, f"[{name}] holds three values: \"name\" \"Wonder\" \"side\"", name_at,
                              rule="tag-value")
            seat_tags[int(name[4:])] = entry
        elif shape == "deal":
            values[name] = entry
        else:
            _one_value(g, entry)
            values[name] = entry

    g.header["span"] = g.span(first[3], first[4], first[2])
    read = _Read(values, seat_tags, first, free)
    for field in FIELDS:
        _FIELD_READERS[field](g, read)
    if POSITION_TAG in values:
        _read_position(g, values)


@dataclass(frozen=True)
class _Read:
    """A game's tags as the first pass sorted them: reserved ones by name, seats by number, free ones in order."""

    values: dict[str, TagEntry]
    seat_tags: dict[int, TagEntry]
    first: TagEntry
    free: list[Tag]


def _set(field: str, read: Callable[[Game, _Read], object]) -> Callable[[Game, _Read], None]:
    def reader(g: Game, r: _Read) -> None:
        g.header[field] = read(g, r)
    return reader


def _read_deals(g: Game, r: _Read) -> tuple[Deal, ...]:
    """The deals by Age, each checked in file order."""
    deals = [_read_deal(g, _DEAL_AGE[name], entry) for name, entry in r.values.items() if name in _DEAL_AGE]
    return tuple(sorted(deals, key=lambda d: d.age))


def _seats(g: Game, r: _Read) -> tuple[Seat, ...]:
    _read_seats(g, r.seat_tags, r.first)
    return g.seats


#: The reader of each header field of the tag table (:data:`..tags.FIELDS`), run in the table's order: it checks
#: the field's tags (raising at the first problem) and sets ``g.header[field]``.
_FIELD_READERS: dict[str, Callable[[Game, _Read], None]] = {
    "format": _set("format", lambda g, r: _check_format(g, r.values)),
    "edition": _set("edition", lambda g, r: _check_edition(g, r.values, r.first)),
    "date": _set("date", lambda g, r: _read_date(g, r.values, r.first)),
    "expansions": _set("expansions", lambda g, r: _read_expansions(g, r.values.get("Expansions"))),
    "tags": _set("tags", lambda g, r: tuple(r.free)),
    "seats": _set("seats", _seats),
    "guilds": _set("guilds", lambda g, r: _read_guilds(g, r.values.get("Guilds"))),
    "seed": _set("seed", lambda g, r: _read_seed(g, r.values.get("Seed"))),
    "deals": _set("deals", _read_deals),
}


def _value_offsets(raw: str, at: int) -> list[int]:
    """The offset in the game's text of each character of the value of the string ``raw`` written at ``at`` (its
    opening quote), escapes undone as :func:`lexical.string_value` undoes them, plus the closing quote's."""
    out = []
    i, n = 1, len(raw) - 1
    while i < n:
        out.append(at + i)
        i += 2 if raw[i] == "\\" and i + 1 < n and raw[i + 1] in "\\\"" else 1
    return out + [at + n]


def _read_position(g: Game, values: dict[str, TagEntry]) -> None:
    """Read a version-2 game's ``[Position]`` for its syntax and names, once, into the Record's ``start``, check
    that it fits the game (spec/position.md §6, §8) and let its first turn follow it; an error (``position``)
    points at the offending character inside the value. The rules judge the position when the engine replays
    the game (:mod:`wnotation.engine.position_rules`)."""
    from ...model import position_string  # ~10 ms of imports that only a game starting from a position needs

    entry = values[POSITION_TAG]
    raw, at = entry[5], entry[6]
    places = _value_offsets(raw, at)
    text = lexical.string_value(raw)
    try:
        start = position_string.parse(text)
    except position_string.PositionError as exc:
        raise g.error(TagError, f"position string, {exc}", places[min(exc.index, len(places) - 1)],
                      rule="position", expected=exc.expected, suggestion=exc.suggestion) from None
    problem = position_string.start_problem(start, [(s.name, s.wonder, s.side) for s in g.seats])
    if problem is not None:
        k, message = problem
        where = start.seat_places()[k] if k >= 0 else 0
        raise g.error(TagError, f"[Position]: {message}", places[where], rule="position")
    address = start.address
    for name in ("Guilds", "Seed") + tuple(d for d, a in _DEAL_AGE.items() if a <= address.age):
        if name in values:
            what = "a deal of an Age the position has started" if name.startswith("Deal") else \
                "the position holds the guilds and the seed"
            raise g.error(TagError, f"[{name}] in a game that starts from a position: {what}", values[name][1],
                          rule="position")
    g.header["start"] = replace(start, source=tuple(p + g.origin.chars_before for p in places))
    g.main.last_label = (address.age, EXTRA_TURN if address.ended else address.turn)


def refused_position(start: Written, exc: PositionError, text: str, source: str) -> NotationError:
    """The error the reader gives a ``[Position]`` (code ``position``, at the offending character inside the tag's
    value, as for a string it refuses itself) whose string the engine refused when it judged it by the rules
    (spec/position.md §8): ``start`` is the Record's, ``text`` the text the reader read the game from and
    ``source`` its name. A string not read from a tag (``start.source`` empty) points at the text's start."""
    where = start.source[min(exc.index, len(start.source) - 1)] if start.source else 0
    return at_offset(TagError, f"position string, {exc}", text, where, Origin(source), rule="position",
                     expected=exc.expected, suggestion=exc.suggestion)


def _check_format(g: Game, values: dict[str, TagEntry]) -> str:
    raw, at = values["Format"][5:]
    value = lexical.string_value(raw)
    if value not in FORMAT_VERSIONS:
        hint = "a newer version than this reader knows" if value.startswith("7WN ") else "not a 7WN format"
        known = " and ".join(f'"{v}"' for v in FORMAT_VERSIONS)
        raise g.error(TagError, f"[Format \"{value}\"]: {hint}; this reader reads {known}", at + 1,
                      rule="format")
    return value


def _check_edition(g: Game, values: dict[str, TagEntry], first: TagEntry) -> str:
    edition = values.get("Edition")
    if edition is None:
        raise g.error(TagError, f"missing [Edition \"{EDITION}\"] tag", first[1], rule="missing-tag",
                      expected=("[Edition]",))
    value = lexical.string_value(edition[5])
    if value != EDITION:
        raise g.error(TagError, f"edition {value!r}: 7WN 1 records the 2nd edition (\"{EDITION}\")", edition[6] + 1,
                      rule="edition")
    return EDITION


def _read_date(g: Game, values: dict[str, TagEntry], first: TagEntry) -> str | None:
    tag = values.get("Date")
    if tag is None:
        raise g.error(TagError, "missing [Date] tag (write [Date \"????.??.??\"] when unknown)", first[1],
                      rule="missing-tag", expected=("[Date]",))
    value = lexical.string_value(tag[5])
    if not lexical.DATE_RE.fullmatch(value):
        raise g.error(TagError, f"date {value!r}: expected YYYY.MM.DD, with ? for unknown digits", tag[6] + 1,
                      rule="date")
    return None if value == lexical.UNKNOWN_DATE else value


def _read_expansions(g: Game, entry: TagEntry | None) -> tuple[str, ...]:
    """The expansions an ``[Expansions "Cities, Leaders"]`` tag names (any case, any order, each once), in the
    score pad's order (R-SCORE-EXP); an empty tag or an unknown name is an ``expansion`` error at the item."""
    if entry is None:
        return ()
    raw, at = entry[5], entry[6]
    by_key = {name.casefold(): name for name in EXPANSIONS}
    named: list[str] = []
    if not lexical.string_value(raw).strip():
        raise g.error(TagError, f"[Expansions] names one or more of {', '.join(EXPANSIONS)}", at + 1,
                      rule="expansion", expected=EXPANSIONS)
    for text, where in _list_items(g, raw, at):
        name = by_key.get(text.casefold())
        if name is None:
            near = difflib.get_close_matches(text.casefold(), list(by_key), n=1)
            raise g.error(TagError, f"unknown expansion {text!r}: 7WN knows {', '.join(EXPANSIONS)}", where,
                          rule="expansion", expected=EXPANSIONS, suggestion=by_key[near[0]] if near else None)
        if name in named:
            raise g.error(TagError, f"expansion {name} is named twice", where, rule="expansion")
        named.append(name)
    return tuple(sorted(named, key=EXPANSIONS.index))


def _read_seats(g: Game, seat_tags: dict[int, TagEntry], first: TagEntry) -> None:
    if not seat_tags:
        raise g.error(TagError, "missing seat tags: each seat needs [SeatN \"name\" \"Wonder\" \"side\"]", first[1],
                      rule="missing-tag", expected=("[Seat1]",))
    n = max(seat_tags)
    last = seat_tags[n][1]
    for i in range(1, n + 1):
        if i not in seat_tags:
            raise g.error(RosterError, f"[Seat{i}] is missing: seats are numbered 1 to {n} without gaps", last,
                          rule="seat-numbers")
    if n < 3:
        raise g.error(RosterError, f"{n} seats: the base game is for 3 to 7 players", last, rule="seat-count")
    seats = []
    wonders: dict[str, int] = {}
    for i in range(1, n + 1):
        entry = seat_tags[i]
        values = _SEAT_VALUES.get(entry[5])
        if values is None:
            seats.append(_checked_seat(g, i, entry, wonders))
            continue
        name, key, wonder, side = values
        if key in g.seat_keys:
            raise g.error(RosterError, f"seat name {name!r} is already seat {g.seat_keys[key]}'s (names must differ)",
                          entry[6] + 1, rule="seat-name")
        g.seat_keys[key] = i
        if wonder in wonders:
            at = _strings(entry[5], entry[6])[1][1]
            raise g.error(RosterError, f"{wonder} is already seat {wonders[wonder]}'s Wonder (R-BOARD)", at + 1,
                          rule="duplicate-wonder")
        wonders[wonder] = i
        seats.append(make(Seat, {"name": name, "wonder": wonder, "side": side, "span": g.span(*entry[3:5], entry[2])}))
    g.seats = tuple(seats)


def _checked_seat(g: Game, i: int, entry: TagEntry, wonders: dict[str, int]) -> Seat:
    """Seat ``i`` of a ``[SeatN]`` value not met before, each value checked in turn; a valid one is kept."""
    (name_s, name_at), (wonder_s, wonder_at), (side_s, side_at) = _strings(entry[5], entry[6])
    name = lexical.nfc(lexical.string_value(name_s))
    if not name.strip():
        raise g.error(RosterError, "a seat needs a non-empty name", name_at + 1, rule="seat-name")
    key = seat_key(name)
    if key in g.seat_keys:
        raise g.error(RosterError, f"seat name {name!r} is already seat {g.seat_keys[key]}'s (names must differ)",
                      name_at + 1, rule="seat-name")
    g.seat_keys[key] = i
    try:
        wonder = _catalog.load().wonder_name(lexical.string_value(wonder_s))
    except _catalog.CatalogError as exc:
        raise g.error(UnknownNameError, str(exc), wonder_at + 1, rule="unknown-wonder",
                      suggestion=exc.suggestion) from None
    if wonder in wonders:
        raise g.error(RosterError, f"{wonder} is already seat {wonders[wonder]}'s Wonder (R-BOARD)", wonder_at + 1,
                      rule="duplicate-wonder")
    wonders[wonder] = i
    side = _SIDES.get(lexical.string_value(side_s).strip().casefold())
    if side is None:
        raise g.error(TagError, f"Wonder side {lexical.string_value(side_s)!r}: expected day or night", side_at + 1,
                      rule="wonder-side", expected=("day", "night"))
    if len(_SEAT_VALUES) < _VALUES_MAX:
        _SEAT_VALUES[entry[5]] = (name, key, wonder, side)
    return make(Seat, {"name": name, "wonder": wonder, "side": side, "span": g.span(*entry[3:5], entry[2])})


def _list_items(g: Game, raw: str, at: int) -> list[tuple[str, int]]:
    """The comma-separated items of a string written ``raw`` at ``at``, each with its offset."""
    items = []
    pos = 0
    for part in raw[1:-1].split(","):
        stripped = part.strip()
        where = at + 1 + pos + (len(part) - len(part.lstrip()))
        if not stripped:
            raise g.error(TagError, "empty item in a comma-separated list", where, rule="tag-value")
        items.append((lexical.unescape(stripped, '"'), where))
        pos += len(part) + 1
    return items


def _read_guilds(g: Game, entry: TagEntry | None) -> tuple[str, ...] | None:
    if entry is None:
        return None
    raw, at = entry[5], entry[6]
    guilds = _GUILD_VALUES.get(raw)
    if guilds is None:
        guild_names = {c.name for c in _catalog.load().guilds}
        listed: list[str] = []
        for text, where in _list_items(g, raw, at):
            name = g.card(text, where) if text != UNKNOWN else UNKNOWN
            if name not in guild_names:
                raise g.error(TagError, f"{text!r} is not a guild", where, rule="guild")
            if name in listed:
                raise g.error(TagError, f"guild {name} is listed twice", where, rule="guild")
            listed.append(name)
        guilds = tuple(listed)
        if len(_GUILD_VALUES) < _VALUES_MAX:
            _GUILD_VALUES[raw] = guilds
    want = len(g.seats) + 2
    if len(guilds) != want:
        raise g.error(TagError, f"{len(guilds)} guilds listed: a {len(g.seats)}-player game uses {want} (N+2, R-DECK)",
                      at + 1, rule="guild-count")
    return guilds


def _read_seed(g: Game, entry: TagEntry | None) -> Seed | None:
    if entry is None:
        return None
    raw, at = entry[5], entry[6]
    value = lexical.string_value(raw)
    parts = value.split()  # white space (spec 2) around and between the two words
    if len(parts) != 2 or not parts[1].isdigit() or not parts[1].isascii():
        raise g.error(TagError, f"[Seed] holds \"{SHUFFLE_ALGORITHM} <decimal seed>\"", at + 1, rule="seed")
    if parts[0].upper() != SHUFFLE_ALGORITHM:
        raise g.error(TagError, f"unknown shuffle algorithm {parts[0]!r}: 7WN 1 defines {SHUFFLE_ALGORITHM}", at + 1,
                      rule="seed")
    if len(parts[1]) > 20 or int(parts[1]) >= 1 << 64:
        # just past the algorithm's word: SM64-FY matched, so it holds no escape and the value's offsets are the text's
        past = len(value) - len(value.lstrip()) + len(parts[0])
        raise g.error(TagError, "the seed must be below 2**64", at + 1 + past, rule="seed")
    return make(Seed, {"algorithm": SHUFFLE_ALGORITHM, "value": int(parts[1])})


def _read_deal(g: Game, age: int, entry: TagEntry) -> Deal:
    name, name_at = entry[0], entry[1]
    strings = _strings(entry[5], entry[6])
    n = len(g.seats)
    if len(strings) != n:
        raise g.error(TagError, f"[{name}] holds one hand per seat: {n} strings, not {len(strings)}",
                      strings[-1][1] if len(strings) > n else name_at, rule="deal")
    hands = []
    for raw, at in strings:
        items = _list_items(g, raw, at)
        if len(items) != _HAND:
            raise g.error(TagError, f"a dealt hand holds {_HAND} cards, not {len(items)}", at + 1, rule="deal")
        hands.append(tuple(g.card(text, where) for text, where in items))
    return make(Deal, {"age": age, "hands": tuple(hands), "span": g.span(*entry[3:5], entry[2])})


def header_of(g: Game, index: int) -> Header:
    """The :class:`Header` of a game whose tags ``read_header`` has read; ``index`` its place in its input."""
    origin = g.origin
    return Header.of(g.header, source=origin.source, index=index, line=origin.first_line, offset=origin.chars_before)
