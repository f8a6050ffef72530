"""Reading 7WN text into :class:`~wnotation.record.Record` objects, one game at a time.

A file is cut into games at lines starting with ``[Format``; each game is parsed alone by the Lark LALR
parser with an inline transformer (no tree), which also resolves names against the catalogue and checks the
structure the notation owns (roster, turn order, actions per turn). Legality is the engine's, not checked here.
Plain games (no annotations) take a fast route built from the same terminals, which hands anything else, and
every error, to Lark. ``read_headers`` reads only the tag sections; ``errors=`` picks the error policy.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import IO, Any, ClassVar, TypeVar

from lark import Token, Transformer
from lark.exceptions import UnexpectedInput
from pydantic import BaseModel

from .. import catalog as _catalog
from ..deck import SHUFFLE_ALGORITHM
from ..record import (
    EDITION,
    FORMAT_VERSION,
    GLYPHS,
    NO_ANNOTATION,
    UNKNOWN,
    Action,
    Annotation,
    Deal,
    Pick,
    Purchase,
    Record,
    Seat,
    SeatResult,
    Seed,
    Span,
    Tag,
    Turn,
)
from ..vocabulary import RESULT_FIELDS, seat_key, turn_label
from . import grammar, lexical
from .errors import (
    NotationError,
    NotationSyntaxError,
    RosterError,
    StructureError,
    TagError,
    UnknownNameError,
)

__all__ = ["Header", "parse", "parse_many", "read_games", "read_headers", "split_games"]

_M = TypeVar("_M")

RESERVED_TAGS = ("Format", "Edition", "Date", "Guilds", "Seed", "DealI", "DealII", "DealIII", "Expansions") + tuple(
    f"Seat{i}" for i in range(1, 8)
)
_RESERVED_FOLDED = {name.casefold(): name for name in RESERVED_TAGS}
_DEAL_AGE = {"DealI": 1, "DealII": 2, "DealIII": 3}
_HAND = 7
_SIDES = {"day": "day", "night": "night", "a": "day", "b": "night"}
_MAX_DIGITS = 18


_new = object.__new__
# The slot setters of pydantic models, called directly: what ``model_construct`` sets, without its per-field work.
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _make(cls: type[_M], fields: dict[str, Any]) -> _M:
    """A Record model from ``fields`` (every field, in order) without validation: the hot path's
    ``model_construct``, many times faster. The reader has checked the values; tests compare the results with
    validated models (equality, hashing, JSON)."""
    obj = _new(cls)
    _set_dict(obj, fields)
    _set_fields(obj, set(fields))
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


# --- per-game state ------------------------------------------------------------------------------------------


class _Game:
    """What the transformer knows while one game is parsed: where it is, the roster, what came so far."""

    def __init__(self, text: str, source: str, line0: int, off0: int) -> None:
        self.text = text
        self.source = source
        self.line0 = line0  # lines before the game in its file
        self.off0 = off0  # characters before the game in its file
        self.header: dict[str, Any] = {}
        self.seats: tuple[Seat, ...] = ()
        self.seat_keys: dict[str, int] = {}
        self.turns: list[Turn] = []
        self.last_label: tuple[int, int] | None = None
        self.results: list[SeatResult] = []
        self.result_seats: set[int] = set()
        self.pending: list[Token] = []  # annotations of comment lines, waiting for the next turn
        self.game_line: Token | None = None
        self.game_annotation = NO_ANNOTATION

    # positions ---------------------------------------------------------------------------------------------

    def where(self, tok: Token, rel: int = 0) -> tuple[int, int, int]:
        """(line, column, offset) in the file of the character ``rel`` characters into ``tok``."""
        line, column = tok.line, tok.column
        if rel:
            value = tok.value
            newlines = value.count("\n", 0, rel)
            if newlines:
                line += newlines
                column = rel - value.rfind("\n", 0, rel)
            else:
                column += rel
        return line + self.line0, column, tok.start_pos + rel + self.off0

    def span(self, tok: Token, rel: int = 0) -> Span:
        line, column, offset = self.where(tok, rel)
        return _make(Span, {"line": line, "column": column, "offset": offset})

    def tag_span(self, name: Token) -> Span:
        """The span of a header tag: its ``[`` (on the line of its name)."""
        back = name.start_pos - self.text.rfind("[", 0, name.start_pos)
        return _make(Span, {"line": name.line + self.line0, "column": name.column - back,
                            "offset": name.start_pos - back + self.off0})

    def error(self, cls: type[NotationError], message: str, tok: Token | None, rel: int = 0, **kw: Any) -> NotationError:
        if tok is None:
            return at_offset(cls, message, self.text, 0, self.source, self.line0, self.off0, **kw)
        local = tok.start_pos + rel
        return at_offset(cls, message, self.text, local, self.source, self.line0, self.off0, **kw)

    # names -------------------------------------------------------------------------------------------------

    def card(self, text: str, tok: Token, rel: int, *, played: bool = False) -> str:
        """The printed name of the card ``text``; ``played`` for the card of an action, whose unknown name may
        hold the verb the writer meant (``discard Marketplace``: a sale)."""
        if text == UNKNOWN:
            return UNKNOWN
        found = _card_names().get(text)
        if found is not None:
            return found
        try:
            printed = _catalog.load().card_name(text)
        except _catalog.CatalogError as exc:
            word = text.strip().casefold()
            if word in ("sell", "stage", "discard", "pick"):
                hint = " (', discard X' is the turn-6 clause; to sell a card write 'sell X')" if word == "discard" else ""
                raise self.error(
                    NotationSyntaxError,
                    f"expected a card name or '?' after '{word}'{hint}",
                    tok,
                    rel + len(text),
                    rule="syntax",
                    expected=("a card name", "'?'"),
                ) from None
            meant = _verb_meant(text) if played else None
            if meant is not None:
                fix, use = meant
                raise self.error(UnknownNameError, f"unknown card {text!r}: to {use} write '{fix}'", tok, rel,
                                 rule="unknown-card", suggestion=fix) from None
            verb = _VERB_OF_WORD.get(word) if played else None
            if verb:
                raise self.error(UnknownNameError, f"unknown card {text!r}: to {_USE_OF_VERB[verb]} write '{verb}' "
                                 f"and the card ('{verb} ?' for an unseen one)", tok, rel, rule="unknown-card") from None
            raise self.error(
                UnknownNameError, str(exc), tok, rel, rule="unknown-card", suggestion=exc.suggestion
            ) from None
        _card_names()[text] = printed
        return printed

    def seat(self, text: str, tok: Token, rel: int) -> int:
        """The seat number (1-based) that ``text`` (a name or ``#N``) refers to."""
        if text.startswith("#"):
            number = int(text[1:])
            if number > len(self.seats):
                raise self.error(
                    RosterError, f"seat {text}: this game has seats #1 to #{len(self.seats)}", tok, rel, rule="unknown-seat"
                )
            return number
        key = seat_key(text)
        number = self.seat_keys.get(key)
        if number is None:
            names = [s.name for s in self.seats]
            close = difflib.get_close_matches(text, names, n=1, cutoff=0.5)
            suggestion = close[0] if close else None
            hint = f"; did you mean {suggestion}?" if suggestion else f" (seats: {', '.join(names)})"
            raise self.error(
                UnknownNameError, f"unknown seat {text!r}{hint}", tok, rel, rule="unknown-seat", suggestion=suggestion
            )
        return number


# Words a player may write for the kind of an action, by the notation's way to write that kind ("" builds).
_VERBS = {
    "sell": ("sell", "sells", "sold", "sale", "discard", "discards", "discarded", "burn", "burns", "burned", "burnt",
             "trash"),
    "stage": ("stage", "stages", "staged", "wonder", "bury", "buries", "buried"),
    "": ("build", "builds", "built", "play", "plays", "played"),
}
_VERB_OF_WORD = {word: verb for verb, words in _VERBS.items() for word in words}
_USE_OF_VERB = {"sell": "sell a card", "stage": "build a Wonder stage with a card", "": "build a card"}


def _verb_meant(text: str) -> tuple[str, str] | None:
    """``(fix, what it does)`` when an unknown card name is a verb word and a card name (either order):
    ``discard Marketplace`` → ``sell Marketplace``, never a fix that plays the card another way. The card part
    may itself be misspelt (its nearest name is used). ``None`` otherwise."""
    words = text.split()
    if len(words) < 2:
        return None
    cat = _catalog.load()
    for verb_word, rest in ((words[0], words[1:]), (words[-1], words[:-1])):
        verb = _VERB_OF_WORD.get(verb_word.casefold())
        if verb is None:
            continue
        try:
            card = cat.card_name(" ".join(rest))
        except _catalog.CatalogError as exc:
            if exc.suggestion is None:
                continue
            card = exc.suggestion
        return (f"{verb} {card}" if verb else card), _USE_OF_VERB[verb]
    return None


@cache
def _card_names() -> dict[str, str]:
    """Spelling → printed card name, filled as names are met (the catalogue's matching is the reference)."""
    return {card.name: card.name for card in _catalog.load().cards}


def at_offset(
    cls: type[NotationError],
    message: str,
    text: str,
    pos: int,
    source: str,
    line0: int = 0,
    off0: int = 0,
    **kw: Any,
) -> NotationError:
    """An error of class ``cls`` at character ``pos`` of ``text`` (a game starting ``line0`` lines in)."""
    pos = max(0, min(pos, len(text)))
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    if end < 0:
        end = len(text)
    line = text.count("\n", 0, pos) + 1 + line0
    return cls(
        message,
        source=source,
        line=line,
        column=pos - start + 1,
        offset=pos + off0,
        source_line=text[start:end],
        **kw,
    )


_STATE: ContextVar[_Game] = ContextVar("wnotation_7wn_game")


# --- the inline transformer ----------------------------------------------------------------------------------


class _ActionBuilder:
    __slots__ = ("seat", "seat_rel", "use", "card", "purchase", "discard", "pick", "glyph", "before", "after", "tags", "tok", "rel")

    def __init__(self, tok: Token, rel: int) -> None:
        self.tok, self.rel = tok, rel
        self.seat: str | None = None
        self.seat_rel = 0
        self.use = "build"
        self.card = UNKNOWN
        self.purchase: Purchase | None = None
        self.discard: str | None = None
        self.pick: _PickBuilder | None = None
        self.glyph: str | None = None
        self.before: list[str] = []
        self.after: list[str] = []
        self.tags: list[tuple[str, str]] = []


class _PickBuilder:
    __slots__ = ("card", "glyph", "before", "after", "tags", "tok", "rel")

    def __init__(self, tok: Token, rel: int) -> None:
        self.tok, self.rel = tok, rel
        self.card: str | None = None
        self.glyph: str | None = None
        self.before: list[str] = []
        self.after: list[str] = []
        self.tags: list[tuple[str, str]] = []


def _annotation(before: list[str], after: list[str], glyph: str | None, tags: list[tuple[str, str]]) -> Annotation:
    if not (before or after or glyph or tags):
        return NO_ANNOTATION
    return _make(Annotation, {"before": tuple(before), "after": tuple(after), "glyph": glyph, "tags": tuple(tags)})


def _add_note(tok: Token, comments: list[str], tags: list[tuple[str, str]]) -> None:
    if tok.type == "COMMENT":
        comments.append(lexical.comment_text(tok.value))
    else:
        tags.append(lexical.atag_pair(tok.value))


class _Transformer(Transformer):
    """Callbacks named after the grammar's rules; they build Record parts as the LALR parser reduces."""

    __visit_tokens__ = False

    # header ------------------------------------------------------------------------------------------------

    def tag(self, children: list[Token]) -> list[Token]:
        return children

    def header(self, tags: list[list[Token]]) -> None:
        _read_header(_STATE.get(), tags)

    # body --------------------------------------------------------------------------------------------------

    def notes(self, children: list[Token]) -> None:
        _STATE.get().pending.extend(children)

    def game(self, children: list[Token]) -> None:
        g = _STATE.get()
        kw = children[0]
        if g.game_line is not None:
            raise g.error(StructureError, "a second 'game' line: a game has one", kw, rule="game-line")
        if g.turns or g.results:
            raise g.error(StructureError, "the 'game' line comes before the first turn", kw, rule="game-line")
        g.game_line = kw
        before: list[str] = []
        tags: list[tuple[str, str]] = []
        glyph = None
        for tok in children[1:]:
            if tok.type == "GLYPH":
                glyph = tok.value
            else:
                _add_note(tok, before, tags)
        g.game_annotation = _annotation(before, [], glyph, tags)

    def result(self, children: list[Token]) -> None:
        _read_result(_STATE.get(), children[0], children[1])

    def turn(self, children: list[Token]) -> None:
        _read_turn(_STATE.get(), children)

    def body(self, children: list[Any]) -> None:
        return None

    def start(self, children: list[Any]) -> Record:
        return _finish(_STATE.get())


def _finish(g: _Game) -> Record:
    """The Record of a game whose header and body lines have all been read."""
    after: list[str] = []
    tags = list(g.game_annotation.tags)
    for tok in g.pending:
        _add_note(tok, after, tags)
    ga = g.game_annotation
    annotation = _annotation(list(ga.before), after, ga.glyph, tags)
    h = g.header
    return _make(Record, {
        "format": FORMAT_VERSION,
        "edition": EDITION,
        "date": h["date"],
        "seats": g.seats,
        "tags": tuple(h["tags"]),
        "guilds": h["guilds"],
        "seed": h["seed"],
        "deals": tuple(sorted(h["deals"].values(), key=lambda d: d.age)),
        "turns": tuple(g.turns),
        "results": tuple(g.results),
        "annotation": annotation,
        "span": h["span"],
    })


# --- header --------------------------------------------------------------------------------------------------


def _read_header(g: _Game, tags: list[list[Token]]) -> None:
    seen: dict[str, Token] = {}
    free: list[Tag] = []
    seat_tags: dict[int, list[Token]] = {}
    values: dict[str, list[Token]] = {}
    first = tags[0][0]
    if first.value != "Format":
        raise g.error(TagError, f"a game starts with [Format \"{FORMAT_VERSION}\"], not [{first.value}]", first,
                      rule="format")
    for tag in tags:
        name_tok, strings = tag[0], tag[1:]
        name = name_tok.value
        canonical = _RESERVED_FOLDED.get(name.casefold())
        if canonical is not None and canonical != name:
            raise g.error(
                TagError, f"tag names are case-sensitive: write [{canonical}], not [{name}]", name_tok,
                rule="tag-name", suggestion=canonical,
            )
        if canonical is None:
            folded = name.casefold()
            if folded.startswith("seat") or folded.startswith("deal"):
                kind = "Seat1 … Seat7" if folded.startswith("seat") else "DealI, DealII, DealIII"
                raise g.error(TagError, f"[{name}] is reserved and not defined: the defined tags are {kind}",
                              name_tok, rule="reserved-tag")
            if len(strings) != 1:
                raise g.error(TagError, f"[{name}] holds one value, not {len(strings)}", strings[1], rule="tag-value")
            free.append(_make(Tag, {"name": name, "value": lexical.string_value(strings[0].value),
                                    "span": g.tag_span(name_tok)}))
            continue
        if name in seen:
            raise g.error(TagError, f"[{name}] appears twice in this game", name_tok, rule="duplicate-tag")
        seen[name] = name_tok
        if name == "Expansions":
            raise g.error(TagError, "7WN 1 records the base game: [Expansions] is reserved for later versions",
                          name_tok, rule="reserved-tag")
        if name.startswith("Seat"):
            if len(strings) != 3:
                raise g.error(TagError, f"[{name}] holds three values: \"name\" \"Wonder\" \"side\"", name_tok,
                              rule="tag-value")
            seat_tags[int(name[4:])] = tag
        elif name.startswith("Deal"):
            values[name] = tag
        else:
            if len(strings) != 1:
                raise g.error(TagError, f"[{name}] holds one value, not {len(strings)}", strings[1], rule="tag-value")
            values[name] = tag

    _check_format(g, values, first)
    g.header["tags"] = free
    g.header["span"] = g.tag_span(first)
    g.header["date"] = _read_date(g, values, first)
    _read_seats(g, seat_tags, first)
    g.header["guilds"] = _read_guilds(g, values.get("Guilds"))
    g.header["seed"] = _read_seed(g, values.get("Seed"))
    g.header["deals"] = {
        _DEAL_AGE[name]: _read_deal(g, _DEAL_AGE[name], tag) for name, tag in values.items() if name in _DEAL_AGE
    }


def _check_format(g: _Game, values: dict[str, list[Token]], first: Token) -> None:
    fmt = values["Format"][1]
    value = lexical.string_value(fmt.value)
    if value != FORMAT_VERSION:
        hint = "a newer version than this reader knows" if value.startswith("7WN ") else "not a 7WN format"
        raise g.error(TagError, f"[Format \"{value}\"]: {hint}; this reader reads \"{FORMAT_VERSION}\"", fmt, 1,
                      rule="format")
    edition = values.get("Edition")
    if edition is None:
        raise g.error(TagError, f"missing [Edition \"{EDITION}\"] tag", first, rule="missing-tag",
                      expected=("[Edition]",))
    value = lexical.string_value(edition[1].value)
    if value != EDITION:
        raise g.error(TagError, f"edition {value!r}: 7WN 1 records the 2nd edition (\"{EDITION}\")", edition[1], 1,
                      rule="edition")


def _read_date(g: _Game, values: dict[str, list[Token]], first: Token) -> str | None:
    tag = values.get("Date")
    if tag is None:
        raise g.error(TagError, "missing [Date] tag (write [Date \"????.??.??\"] when unknown)", first,
                      rule="missing-tag", expected=("[Date]",))
    value = lexical.string_value(tag[1].value)
    if not lexical.DATE_RE.fullmatch(value):
        raise g.error(TagError, f"date {value!r}: expected YYYY.MM.DD, with ? for unknown digits", tag[1], 1,
                      rule="date")
    return None if value == lexical.UNKNOWN_DATE else value


def _read_seats(g: _Game, seat_tags: dict[int, list[Token]], first: Token) -> None:
    if not seat_tags:
        raise g.error(TagError, "missing seat tags: each seat needs [SeatN \"name\" \"Wonder\" \"side\"]", first,
                      rule="missing-tag", expected=("[Seat1]",))
    n = max(seat_tags)
    last = seat_tags[n][0]
    for i in range(1, n + 1):
        if i not in seat_tags:
            raise g.error(RosterError, f"[Seat{i}] is missing: seats are numbered 1 to {n} without gaps", last,
                          rule="seat-numbers")
    if n < 3:
        raise g.error(RosterError, f"{n} seats: the base game is for 3 to 7 players", last, rule="seat-count")
    cat = _catalog.load()
    seats = []
    wonders: dict[str, int] = {}
    for i in range(1, n + 1):
        name_tok, name_s, wonder_s, side_s = seat_tags[i]
        name = lexical.nfc(lexical.string_value(name_s.value))
        if not name.strip():
            raise g.error(RosterError, "a seat needs a non-empty name", name_s, 1, rule="seat-name")
        key = seat_key(name)
        if key in g.seat_keys:
            raise g.error(RosterError, f"seat name {name!r} is already seat {g.seat_keys[key]}'s (names must differ)",
                          name_s, 1, rule="seat-name")
        g.seat_keys[key] = i
        try:
            wonder = cat.wonder_name(lexical.string_value(wonder_s.value))
        except _catalog.CatalogError as exc:
            raise g.error(UnknownNameError, str(exc), wonder_s, 1, rule="unknown-wonder",
                          suggestion=exc.suggestion) from None
        if wonder in wonders:
            raise g.error(RosterError, f"{wonder} is already seat {wonders[wonder]}'s Wonder (R-BOARD)", wonder_s, 1,
                          rule="duplicate-wonder")
        wonders[wonder] = i
        side = _SIDES.get(lexical.string_value(side_s.value).strip().casefold())
        if side is None:
            raise g.error(TagError, f"Wonder side {lexical.string_value(side_s.value)!r}: expected day or night",
                          side_s, 1, rule="wonder-side", expected=("day", "night"))
        seats.append(_make(Seat, {"name": name, "wonder": wonder, "side": side, "span": g.tag_span(name_tok)}))
    g.seats = tuple(seats)


def _list_items(g: _Game, tok: Token) -> list[tuple[str, int]]:
    """The comma-separated items of a string token, each with its offset in the token (quotes included)."""
    raw = tok.value[1:-1]
    items = []
    pos = 0
    for part in raw.split(","):
        stripped = part.strip()
        rel = 1 + pos + (len(part) - len(part.lstrip()))
        if not stripped:
            raise g.error(TagError, "empty item in a comma-separated list", tok, rel, rule="tag-value")
        items.append((lexical.unescape(stripped, '"'), rel))
        pos += len(part) + 1
    return items


def _read_guilds(g: _Game, tag: list[Token] | None) -> tuple[str, ...] | None:
    if tag is None:
        return None
    tok = tag[1]
    guild_names = {c.name for c in _catalog.load().guilds}
    guilds: list[str] = []
    for text, rel in _list_items(g, tok):
        name = g.card(text, tok, rel) if text != UNKNOWN else UNKNOWN
        if name not in guild_names:
            raise g.error(TagError, f"{text!r} is not a guild", tok, rel, rule="guild")
        if name in guilds:
            raise g.error(TagError, f"guild {name} is listed twice", tok, rel, rule="guild")
        guilds.append(name)
    want = len(g.seats) + 2
    if len(guilds) != want:
        raise g.error(TagError, f"{len(guilds)} guilds listed: a {len(g.seats)}-player game uses {want} (N+2, R-DECK)",
                      tok, 1, rule="guild-count")
    return tuple(guilds)


def _read_seed(g: _Game, tag: list[Token] | None) -> Seed | None:
    if tag is None:
        return None
    tok = tag[1]
    parts = lexical.string_value(tok.value).split()
    if len(parts) != 2 or not parts[1].isdigit() or not parts[1].isascii():
        raise g.error(TagError, f"[Seed] holds \"{SHUFFLE_ALGORITHM} <decimal seed>\"", tok, 1, rule="seed")
    if parts[0].upper() != SHUFFLE_ALGORITHM:
        raise g.error(TagError, f"unknown shuffle algorithm {parts[0]!r}: 7WN 1 defines {SHUFFLE_ALGORITHM}", tok, 1,
                      rule="seed")
    if len(parts[1]) > 20 or int(parts[1]) >= 1 << 64:
        raise g.error(TagError, "the seed must be below 2**64", tok, 1 + len(parts[0]), rule="seed")
    return _make(Seed, {"algorithm": SHUFFLE_ALGORITHM, "value": int(parts[1])})


def _read_deal(g: _Game, age: int, tag: list[Token]) -> Deal:
    name_tok, strings = tag[0], tag[1:]
    n = len(g.seats)
    if len(strings) != n:
        raise g.error(TagError, f"[{name_tok.value}] holds one hand per seat: {n} strings, not {len(strings)}",
                      strings[-1] if len(strings) > n else name_tok, rule="deal")
    hands = []
    for tok in strings:
        items = _list_items(g, tok)
        if len(items) != _HAND:
            raise g.error(TagError, f"a dealt hand holds {_HAND} cards, not {len(items)}", tok, 1, rule="deal")
        hands.append(tuple(g.card(text, tok, rel) for text, rel in items))
    return _make(Deal, {"age": age, "hands": tuple(hands), "span": g.tag_span(name_tok)})


# --- turns ---------------------------------------------------------------------------------------------------


def _read_turn(g: _Game, children: list[Token]) -> None:
    label = children[0]
    age, number = lexical.age_of_label(label.value), int(label.value[-1])
    if g.results:
        raise g.error(StructureError, f"turn {label.value} after the results: results come last", label,
                      rule="turn-order")
    _check_order(g, label, age, number)

    actions: list[_ActionBuilder] = []
    before: list[str] = []
    before_tags: list[tuple[str, str]] = []
    current: _ActionBuilder | None = None
    pick: _PickBuilder | None = None  # the pick whose annotations come next
    in_pick = False  # between ", pick" and the picked card
    tail = False
    t_after: list[str] = []
    t_tags: list[tuple[str, str]] = []
    t_glyph = None
    for tok in children[1:]:
        kind = tok.type
        if tail:
            if kind == "GLYPH":
                t_glyph = tok.value
            else:
                _add_note(tok, t_after, t_tags)
        elif kind == "RUN":
            current, pick = _pieces(g, tok, 0, actions, before, before_tags)
            before, before_tags = [], []
        elif kind == "CONT":
            value = tok.value
            bar = value.find("|")
            head_end = len(value) if bar < 0 else bar
            if value[:head_end].strip():
                assert current is not None
                m = lexical.CLAUSES_RE.fullmatch(value, 0, head_end)
                assert m is not None, value
                pick = _clauses(g, current, tok, m.start("clauses"), m.group("clauses"))
            if bar >= 0:
                current, pick = _pieces(g, tok, bar + 1, actions, [], [])
        elif kind == "BAR":
            current, pick = None, None
        elif kind == "PICK_OPEN":
            assert current is not None
            pick = _new_pick(g, current, tok, 0)
            in_pick = True
        elif kind == "PICK_REST":
            assert current is not None and pick is not None
            in_pick = False
            value = tok.value
            bar = value.find("|")
            head_end = len(value) if bar < 0 else bar
            m = lexical.PICKED_CLAUSES_RE.fullmatch(value, 0, head_end)
            assert m is not None, value
            _picked(g, pick, tok, m.start("picked"), m.group("picked"))
            if m.group("clauses"):
                pick = _clauses(g, current, tok, m.start("clauses"), m.group("clauses"))
            if bar >= 0:
                current, pick = _pieces(g, tok, bar + 1, actions, [], [])
        elif kind == "TAIL":
            tail = True
        elif current is None:  # before the next action
            _add_note(tok, before, before_tags)
        elif in_pick:
            assert pick is not None
            _add_note(tok, pick.before, pick.tags)
        elif pick is not None:
            _add_note(tok, pick.after, pick.tags)
        else:
            _add_note(tok, current.after, current.tags)

    built = _check_actions(g, label, age, number, actions)
    turn_before: list[str] = []
    turn_tags: list[tuple[str, str]] = []
    for tok in g.pending:
        _add_note(tok, turn_before, turn_tags)
    g.pending = []
    turn_tags.extend(t_tags)
    g.turns.append(
        _make(Turn, {
            "age": age,
            "number": number,
            "actions": built,
            "annotation": _annotation(turn_before, t_after, t_glyph, turn_tags),
            "span": g.span(label),
        })
    )


def _check_order(g: _Game, label: Token, age: int, number: int) -> None:
    last = g.last_label
    if last is None:
        allowed = [(1, 1)]
    elif last[1] == 6:
        allowed = [(last[0], 7)] + ([(last[0] + 1, 1)] if last[0] < 3 else [])
    elif last[1] == 7:
        allowed = [(last[0] + 1, 1)] if last[0] < 3 else []
    else:
        allowed = [(last[0], last[1] + 1)]
    if (age, number) not in allowed:
        names = [turn_label(a, n) for a, n in allowed]
        if not names:
            message = f"turn {label.value} after III.{last[1] if last else 6}: the game is over"
        else:
            after = f" after {turn_label(*last)}" if last else " first"
            message = f"turn {label.value}{after}: expected {' or '.join(names)}"
        raise g.error(StructureError, message, label, rule="turn-order", expected=tuple(names))
    g.last_label = (age, number)


def _pieces(
    g: _Game, tok: Token, start: int, actions: list[_ActionBuilder], before: list[str], tags: list[tuple[str, str]]
) -> tuple[_ActionBuilder, _PickBuilder | None]:
    """Decode the actions of ``tok`` from ``start`` on (separated by ``|``); return the last and its pick."""
    value = tok.value
    pos = start
    current: _ActionBuilder | None = None
    pick: _PickBuilder | None = None
    while True:
        bar = value.find("|", pos)
        end = len(value) if bar < 0 else bar
        m = lexical.PIECE_RE.fullmatch(value, pos, end)
        assert m is not None, value[pos:end]
        current, pick = _piece(g, tok, m)
        if before or tags:
            current.before.extend(before)
            current.tags.extend(tags)
            before, tags = [], []
        actions.append(current)
        if bar < 0:
            return current, pick
        pos = bar + 1


def _piece(g: _Game, tok: Token, m: Any) -> tuple[_ActionBuilder, _PickBuilder | None]:
    seat, verb, name = m.group("seat", "verb", "name")
    first = m.start("seat") if seat else (m.start("verb") if verb else m.start("name" if name else "unknown"))
    a = _ActionBuilder(tok, first)
    if seat:
        a.seat, a.seat_rel = seat, m.start("seat")
    if verb:
        a.use = lexical.keyword(verb)
    if name:
        a.card = g.card(name, tok, m.start("name"), played=True)
        purchase, a.glyph = m.group("purchase", "glyph")
        if purchase:
            a.purchase = _purchase(g, tok, m.start("purchase"), purchase)
    else:
        purchase = m.group("upurchase")
        if purchase:
            a.purchase = _purchase(g, tok, m.start("upurchase"), purchase)
        a.glyph = m.group("uglyph") or m.group("uglyph2")
    clauses = m.group("clauses")
    pick = _clauses(g, a, tok, m.start("clauses"), clauses) if clauses else None
    return a, pick


def _purchase(g: _Game, tok: Token, rel: int, text: str) -> Purchase:
    sides: dict[str, list[str]] = {"left": [], "right": []}
    for gm in lexical.GROUP_RE.finditer(text):
        units = sides[lexical.SIDE_OF[lexical.keyword(gm.group("side"))]]
        for um in lexical.UNIT_RE.finditer(gm.group("units")):
            count = um.group("count")
            units.extend([lexical.keyword(um.group("resource"))] * (int(count) if count else 1))
    return _make(Purchase, {"left": tuple(sorted(sides["left"])), "right": tuple(sorted(sides["right"]))})


def _clauses(g: _Game, a: _ActionBuilder, tok: Token, rel: int, text: str) -> _PickBuilder | None:
    """Apply ``, discard X`` / ``, pick Y`` clauses to ``a``; return the pick if the last clause is one."""
    last_pick = None
    for cm in lexical.CLAUSE_RE.finditer(text):
        discard = cm.group("discard")
        if discard is not None:
            at = rel + cm.start("discard")
            if a.discard is not None:
                raise g.error(StructureError, "a second discard clause: an action discards one card", tok, at,
                              rule="clause")
            a.discard = g.card(discard, tok, at)
            last_pick = None
        else:
            at = rel + cm.start("pick")
            pick = _new_pick(g, a, tok, at)
            _picked(g, pick, tok, at, cm.group("pick"))
            last_pick = pick
    return last_pick


def _new_pick(g: _Game, a: _ActionBuilder, tok: Token, rel: int) -> _PickBuilder:
    if a.pick is not None:
        raise g.error(StructureError, "a second pick clause: a stage gives one pick", tok, rel, rule="clause")
    a.pick = _PickBuilder(tok, rel)
    return a.pick


def _picked(g: _Game, pick: _PickBuilder, tok: Token, rel: int, text: str) -> None:
    m = lexical.PICKED_RE.fullmatch(text)
    assert m is not None, text
    if m.group("name"):
        pick.card = g.card(m.group("name"), tok, rel + m.start("name"))
        pick.glyph = m.group("glyph")
    elif m.group("unknown"):
        pick.card = UNKNOWN
        pick.glyph = m.group("uglyph")
    else:
        pick.glyph = m.group("nglyph")


def _check_actions(g: _Game, label: Token, age: int, number: int, actions: list[_ActionBuilder]) -> tuple[Action, ...]:
    n = len(g.seats)
    extra = number == 7
    if not extra and len(actions) != n:
        if len(actions) > n:
            a = actions[n]
            raise g.error(StructureError,
                          f"turn {label.value} has more actions than seats: this game has {n} seats",
                          a.tok, a.rel, rule="action-count")
        last = actions[-1]
        end = last.tok.end_pos - label.start_pos
        raise g.error(StructureError,
                      f"turn {label.value} has {len(actions)} actions: each of the {n} seats acts in every turn "
                      "(write sell ? or stage ? for a hidden card)",
                      label, end, rule="action-count")
    built = []
    previous = 0
    for i, a in enumerate(actions):
        if a.seat is not None:
            seat = g.seat(a.seat, a.tok, a.seat_rel)
            if not extra and seat != i + 1:
                raise g.error(StructureError,
                              f"this is action {i + 1} of the turn, which is seat {i + 1}'s "
                              f"({g.seats[i].name}), not {a.seat!r}'s",
                              a.tok, a.seat_rel, rule="seat-order")
        elif extra:
            raise g.error(StructureError,
                          f"in the extra turn {label.value} each action names its seat: 'Name: action'",
                          a.tok, a.rel, rule="seat-prefix")
        else:
            seat = i + 1
        if extra:
            if seat <= previous:
                raise g.error(StructureError,
                              f"the extra turn lists seats once each, in seat order ({a.seat} comes too late)",
                              a.tok, a.seat_rel, rule="seat-order")
            previous = seat
        pick = None
        p = a.pick
        if p is not None:
            pick = _make(Pick, {"card": p.card, "annotation": _annotation(p.before, p.after, p.glyph, p.tags),
                                "span": g.span(p.tok, p.rel)})
        built.append(
            _make(Action, {
                "seat": seat,
                "use": a.use,
                "card": a.card,
                "purchase": a.purchase,
                "discard": a.discard,
                "pick": pick,
                "annotation": _annotation(a.before, a.after, a.glyph, a.tags),
                "span": g.span(a.tok, a.rel),
            })
        )
    return tuple(built)


# --- results -------------------------------------------------------------------------------------------------


def _read_result(g: _Game, kw: Token, tok: Token) -> None:
    m = lexical.RESULTS_RE.fullmatch(tok.value)
    assert m is not None, tok.value
    seat = g.seat(m.group("seat"), tok, 0)
    if seat in g.result_seats:
        raise g.error(StructureError, f"a second result line for seat {seat} ({g.seats[seat - 1].name})", tok,
                      rule="result")
    g.result_seats.add(seat)
    fields: dict[str, int] = {}
    for pm in lexical.PAIR_RE.finditer(m.group("pairs"), 0):
        category = lexical.keyword(pm.group("category"))
        rel = m.start("pairs") + pm.start("category")
        if category in fields:
            raise g.error(StructureError, f"{category} is stated twice for this seat", tok, rel, rule="result")
        digits = pm.group("value").lstrip("-")
        if len(digits) > _MAX_DIGITS:
            raise g.error(StructureError, f"the {category} value is too large", tok, rel, rule="result")
        fields[category] = int(pm.group("value"))
    values: dict[str, Any] = {"seat": seat}
    values.update((f, fields.get(f)) for f in RESULT_FIELDS)
    values["span"] = g.span(kw)
    g.results.append(_make(SeatResult, values))


# --- the fast route ------------------------------------------------------------------------------------------
#
# Most games are plain: header tags, then turn lines ``LABEL RUN`` and result lines, with no annotation. The
# fast route reads exactly those with one compiled regex per line, built from the Lark parser's own terminal
# patterns: each token sits in an atomic group, which matches as ``re.match`` does at that position, so every
# token is cut where Lark's contextual lexer cuts it (blanks are skipped as ``%ignore`` skips them). The route
# knows nothing the grammar does not: on any other line (comments, tags, ``game``, ``//``), on any error and
# at any doubt it gives up, and the game is read again by Lark (the reference), which also reports the error.
# So errors and their positions are Lark's by construction, and a test compares both routes' Records.
# Two cheaper cases come first: the writer's result line (one regex for all its fields) and the common header
# (no tokens, rosters and guild lists decoded once by their text); anything else in them takes the general code.


class _FastRoute:
    """The fast route's regexes, made once from the parser's terminals."""

    def __init__(self, parser: Any) -> None:
        def term(name: str) -> str:
            return parser.get_terminal(name).pattern.to_regexp()

        string = term("STRING")
        nl = r"[ \t]*(?:\n[ \t]*)+"
        self.tag = re.compile(
            rf"\[[ \t]*(?>({term('TAG_NAME')}))[ \t]*((?>{string})(?:[ \t\n]*(?>{string}))*)[ \t]*\]{nl}"
        )
        self.string = re.compile(string)
        self.turn = re.compile(rf"(?>({term('LABEL')}))[ \t]*(?>({term('RUN')})){nl}")
        self.result = re.compile(rf"(?>({term('RESULT')}))[ \t]*(?>({term('RESULTS')})){nl}")
        # The writer's result line: every field, in RESULT_FIELDS order, one blank apart, values short enough.
        # Whatever it matches, ``result`` matches too, with the same seat and pairs (``RESULTS`` is greedy and
        # a seat reference ends before the blanks and ``:``), so it decodes as ``_read_result`` would.
        pairs = "".join(rf" {field} (-?[0-9]{{1,{_MAX_DIGITS}}})" for field in RESULT_FIELDS)
        self.canonical_result = re.compile(rf"result[ \t]*({lexical.SEAT_REF})[ \t]*:{pairs}{nl}")
        self.blanks = re.compile(r"[ \t]*")


_fast_instance: list[_FastRoute] = []


def _fast() -> _FastRoute:
    if not _fast_instance:
        _fast_instance.append(_FastRoute(_parser()))
    return _fast_instance[0]


class _GiveUp(Exception):
    """The fast route cannot read this game; Lark reads it."""


def _fast_header(g: _Game, f: _FastRoute) -> tuple[list[list[Token]], int, int]:
    """The header tags as tokens (positions only as far as spans need them), the offset where the body starts
    and the number of newlines before it. Raises :class:`_GiveUp` if the header is not plain tags."""
    text = g.text
    tag_match = f.tag.match
    strings = f.string.finditer
    pos = f.blanks.match(text).end()
    line = 1
    line_start = 0
    tags: list[list[Token]] = []
    while True:
        m = tag_match(text, pos)
        if m is None:
            break
        name_at = m.start(1)
        toks = [Token("TAG_NAME", m.group(1), name_at, line, name_at - line_start + 1)]
        toks.extend(Token("STRING", s.group(), s.start()) for s in strings(text, m.start(2), m.end(2)))
        tags.append(toks)
        pos = m.end()
        line += text.count("\n", name_at, pos)
        line_start = text.rfind("\n", 0, pos) + 1
    if not tags or tags[0][0].value != "Format" or text.startswith('"', pos) or (
        text.startswith("[", pos) and not text.startswith("[%", pos)
    ):  # a tag Lark reads differently, or a broken one: Lark tells
        raise _GiveUp
    return tags, pos, line


def _fast_read_header(g: _Game, f: _FastRoute) -> tuple[int, int]:
    """Read the header of ``g`` (as :func:`_read_header` does) and return where the body starts and the number of
    newlines before it: by :func:`_plain_header`, else from tokens. Raises :class:`_GiveUp` or
    :class:`NotationError` when Lark must read the game."""
    try:
        return _plain_header(g, f)
    except (_GiveUp, NotationError):
        g.header, g.seats, g.seat_keys = {}, (), {}
    tags, pos, line = _fast_header(g, f)
    _read_header(g, tags)
    return pos, line


# Decoded ``[SeatN]`` and ``[Guilds]`` values by their text (strings as written): the same rosters and guild
# lists come again from game to game. Only valid values are kept; what depends on the game is checked each time.
_SEAT_VALUES: dict[str, tuple[str, str, str, str]] = {}
_GUILD_VALUES: dict[str, tuple[str, ...]] = {}
_VALUES_MAX = 1 << 12


def _plain_header(g: _Game, f: _FastRoute) -> tuple[int, int]:
    """The common header read without tokens: plain tags, each reserved one at most once and well-formed, no
    ``[Deal…]``. Sets what :func:`_read_header` sets, equal to it, and returns as :func:`_fast_read_header`;
    raises :class:`_GiveUp` (or :class:`NotationError`) on anything else, which :func:`_read_header` then
    reads or reports. Strings are told apart by their quotes: one string holds two unescaped ones."""
    text = g.text
    tag_match = f.tag.match
    pos = f.blanks.match(text).end()
    line = 1
    line_start = 0
    line0, off0 = g.line0, g.off0
    reserved = _RESERVED_FOLDED
    free: list[Tag] = []
    seat_raw: dict[int, tuple[str, Span]] = {}
    seen: set[str] = set()
    date = guilds_raw = seed_raw = None
    span = None
    while True:
        m = tag_match(text, pos)
        if m is None:
            break
        name, raw = m.group(1, 2)
        at = m.start()
        tag_span = _make(Span, {"line": line + line0, "column": at - line_start + 1, "offset": at + off0})
        canonical = reserved.get(name.casefold())
        if canonical is None:
            folded = name.casefold()
            if folded.startswith("seat") or folded.startswith("deal") or raw.count('"') != 2:
                raise _GiveUp
            free.append(_make(Tag, {"name": name, "value": lexical.string_value(raw), "span": tag_span}))
        elif canonical != name or name in seen:
            raise _GiveUp
        else:
            seen.add(name)
            if name.startswith("Seat"):
                seat_raw[int(name[4:])] = (raw, tag_span)
            elif raw.count('"') != 2:
                raise _GiveUp
            elif name == "Format":
                if raw != f'"{FORMAT_VERSION}"' or span is not None:
                    raise _GiveUp
                span = tag_span
            elif name == "Edition":
                if raw != f'"{EDITION}"':
                    raise _GiveUp
            elif name == "Date":
                date = lexical.string_value(raw)
            elif name == "Guilds":
                guilds_raw = raw
            elif name == "Seed":
                seed_raw = raw
            else:  # Deal…, Expansions
                raise _GiveUp
        if span is None:  # the first tag is not [Format]
            raise _GiveUp
        pos = m.end()
        line += text.count("\n", at, pos)
        line_start = text.rfind("\n", 0, pos) + 1
    if span is None or "Edition" not in seen or date is None or text.startswith('"', pos) or (
        text.startswith("[", pos) and not text.startswith("[%", pos)
    ):
        raise _GiveUp
    if not lexical.DATE_RE.fullmatch(date):
        raise _GiveUp
    n = len(seat_raw)
    if n < 3 or max(seat_raw) != n:
        raise _GiveUp
    seats = []
    seat_keys: dict[str, int] = {}
    wonders: set[str] = set()
    for i in range(1, n + 1):
        raw, tag_span = seat_raw[i]
        values = _SEAT_VALUES.get(raw)
        if values is None:
            values = _seat_values(f, raw)
            if len(_SEAT_VALUES) < _VALUES_MAX:
                _SEAT_VALUES[raw] = values
        seat_name, key, wonder, side = values
        if key in seat_keys or wonder in wonders:
            raise _GiveUp
        seat_keys[key] = i
        wonders.add(wonder)
        seats.append(_make(Seat, {"name": seat_name, "wonder": wonder, "side": side, "span": tag_span}))
    guilds = None
    if guilds_raw is not None:
        guilds = _GUILD_VALUES.get(guilds_raw)
        if guilds is None:
            guilds = _guild_values(g, guilds_raw)
            if len(_GUILD_VALUES) < _VALUES_MAX:
                _GUILD_VALUES[guilds_raw] = guilds
        if len(guilds) != n + 2:
            raise _GiveUp
    seed = None
    if seed_raw is not None:
        parts = lexical.string_value(seed_raw).split()
        if (len(parts) != 2 or parts[0] != SHUFFLE_ALGORITHM or not parts[1].isdigit() or not parts[1].isascii()
                or len(parts[1]) > 20 or int(parts[1]) >= 1 << 64):
            raise _GiveUp
        seed = _make(Seed, {"algorithm": SHUFFLE_ALGORITHM, "value": int(parts[1])})
    g.seats = tuple(seats)
    g.seat_keys = seat_keys
    g.header = {"tags": free, "span": span, "date": None if date == lexical.UNKNOWN_DATE else date,
                "guilds": guilds, "seed": seed, "deals": {}}
    return pos, line


def _seat_values(f: _FastRoute, raw: str) -> tuple[str, str, str, str]:
    """``(name, key, Wonder, side)`` of a valid ``[SeatN]`` value written ``raw``; else raises :class:`_GiveUp`."""
    strings = f.string.findall(raw)
    if len(strings) != 3:
        raise _GiveUp
    name, wonder_s, side_s = (lexical.string_value(s) for s in strings)
    name = lexical.nfc(name)
    if not name.strip():
        raise _GiveUp
    try:
        wonder = _catalog.load().wonder_name(wonder_s)
    except _catalog.CatalogError:
        raise _GiveUp from None
    side = _SIDES.get(side_s.strip().casefold())
    if side is None:
        raise _GiveUp
    return name, seat_key(name), wonder, side


def _guild_values(g: _Game, raw: str) -> tuple[str, ...]:
    """The guilds of a valid ``[Guilds]`` value written ``raw`` (one string), whatever their number; else raises
    :class:`_GiveUp` (or :class:`NotationError`)."""
    guild_names = {c.name for c in _catalog.load().guilds}
    tok = Token("STRING", raw, 0)
    guilds: list[str] = []
    for item, rel in _list_items(g, tok):
        name = g.card(item, tok, rel) if item != UNKNOWN else UNKNOWN
        if name not in guild_names or name in guilds:
            raise _GiveUp
        guilds.append(name)
    return tuple(guilds)


def _fast_game(g: _Game) -> Record | None:
    """The game of ``g`` read by the fast route, or ``None`` when Lark must read it (see above)."""
    f = _fast()
    try:
        pos, line = _fast_read_header(g, f)
        text = g.text
        end = len(text)
        turn_match = f.turn.match
        result_match = f.result.match
        canonical_result = f.canonical_result.match
        while pos < end:
            c = text[pos]
            line_start = text.rfind("\n", 0, pos) + 1
            if c == "I":
                m = turn_match(text, pos)
                if m is None:
                    return None
                _fast_turn(g, m, line, line_start)
            elif c == "r" or c == "R":
                m = canonical_result(text, pos)
                if m is not None:
                    _fast_result(g, m, line, pos - line_start + 1, pos)
                    new = m.end()
                    line += text.count("\n", pos, new)
                    pos = new
                    continue
                m = result_match(text, pos)
                if m is None:
                    return None
                kw = Token("RESULT", m.group(1), pos, line, pos - line_start + 1)
                results = Token("RESULTS", m.group(2), m.start(2))
                _read_result(g, kw, results)
            else:
                return None
            new = m.end()
            line += text.count("\n", pos, new)
            pos = new
        return _finish(g)
    except (_GiveUp, NotationError):
        return None


_RESULT_FIELDS_SET = {"seat", *RESULT_FIELDS, "span"}


def _fast_result(g: _Game, m: Any, line: int, column: int, pos: int) -> None:
    """One result line in the writer's form (``_FastRoute.canonical_result``), at ``pos`` (``line``, ``column``):
    as :func:`_read_result` reads it."""
    seat = g.seat(m.group(1), None, 0)  # type: ignore[arg-type]
    if seat in g.result_seats:
        raise _GiveUp
    g.result_seats.add(seat)
    values: dict[str, Any] = {"seat": seat}
    values.update(zip(RESULT_FIELDS, map(int, m.groups()[1:])))
    values["span"] = _make(Span, {"line": line + g.line0, "column": column, "offset": pos + g.off0})
    result = _new(SeatResult)
    _set_dict(result, values)
    _set_fields(result, _RESULT_FIELDS_SET)
    _set_extra(result, None)
    _set_private(result, None)
    g.results.append(result)


# Decoded pieces (an action's text between bars, blanks included) without a seat prefix, by their text: the
# same few hundred occur again and again. The value holds positions relative to the piece, never a span.
_PIECES: dict[str, tuple[Any, ...]] = {}
_PIECES_MAX = 1 << 14
_GLYPH_ANNOTATIONS = {glyph: _make(Annotation, {"before": (), "after": (), "glyph": glyph, "tags": ()})
                      for glyph in GLYPHS}
# One fields-set per class, shared by the fast route's Actions and Spans: the models are frozen, so nothing adds
# to it, and pydantic's ``model_copy`` copies it before updating.
_ACTION_FIELDS = set(Action.model_fields)
_SPAN_FIELDS = set(Span.model_fields)


def _decode_piece(g: _Game, piece: str) -> tuple[Any, ...]:
    """``(seat, use, card, purchase, annotation, discard, pick, first)`` of one piece: ``seat`` as written (or
    ``None``), ``pick`` as ``(card, annotation, position)`` (or ``None``), ``first`` where the action starts."""
    pm = (lexical.PIECE_RE if ":" in piece else lexical.PIECE_NO_SEAT_RE).fullmatch(piece)
    if pm is None:
        raise _GiveUp
    seat, verb, name, purchase, glyph, unknown, upurchase, uglyph, uglyph2, clauses = pm.groups()
    regs = pm.regs
    if seat is not None:
        first = regs[1][0]
    else:
        first = regs[2][0] if verb is not None else (regs[3][0] if name is not None else regs[6][0])
    if name is not None:
        card = g.card(name, None, 0)  # type: ignore[arg-type]
    else:
        card, purchase, glyph = UNKNOWN, upurchase, uglyph or uglyph2
    bought = None if purchase is None else _purchase(g, None, 0, purchase)  # type: ignore[arg-type]
    discard = pick = None
    if clauses:
        discard, pick = _fast_clauses(g, clauses, regs[10][0])
    annotation = NO_ANNOTATION if glyph is None else _GLYPH_ANNOTATIONS[glyph]
    return seat, "build" if verb is None else lexical.keyword(verb), card, bought, annotation, discard, pick, first


def _fast_clauses(g: _Game, text: str, rel: int) -> tuple[str | None, tuple[Any, ...] | None]:
    """The discard and the pick ``(card, annotation, position)`` of an action's clauses, which start at ``rel``."""
    discard: str | None = None
    pick = None
    for cm in lexical.CLAUSE_RE.finditer(text):
        said = cm.group("discard")
        if said is not None:
            if discard is not None:
                raise _GiveUp
            discard = g.card(said, None, 0)  # type: ignore[arg-type]
            continue
        if pick is not None:
            raise _GiveUp
        pm = lexical.PICKED_RE.fullmatch(cm.group("pick"))
        assert pm is not None
        name, glyph, unknown, uglyph, _none, nglyph = pm.groups()
        if name is not None:
            card: str | None = g.card(name, None, 0)  # type: ignore[arg-type]
        elif unknown is not None:
            card, glyph = UNKNOWN, uglyph
        else:
            card, glyph = None, nglyph
        pick = (card, NO_ANNOTATION if glyph is None else _GLYPH_ANNOTATIONS[glyph], rel + cm.start("pick"))
    return discard, pick


def _fast_turn(g: _Game, m: Any, line: int, line_start: int) -> None:
    """One plain turn line: label ``m[1]`` and run of actions ``m[2]``, on ``line``, which starts at
    ``line_start``."""
    label = m.group(1)
    age = lexical.age_of_label(label)
    number = ord(label[-1]) - 48
    last = g.last_label
    if g.results:
        raise _GiveUp
    if last is None:
        ok = age == 1 and number == 1
    elif last[1] == 6:
        ok = (age == last[0] and number == 7) or (age == last[0] + 1 and number == 1)
    elif last[1] == 7:
        ok = age == last[0] + 1 and number == 1
    else:
        ok = age == last[0] and number == last[1] + 1
    if not ok:
        raise _GiveUp
    g.last_label = (age, number)

    run_at = m.start(2)
    file_line = line + g.line0
    col = run_at - line_start + 1  # the column of the piece's first character
    off = run_at + g.off0  # its offset in the file
    extra = number == 7
    cache = _PIECES
    new = _new
    set_dict, set_fields, set_extra, set_private = _set_dict, _set_fields, _set_extra, _set_private
    span_fields, action_fields = _SPAN_FIELDS, _ACTION_FIELDS
    built = []
    previous = 0
    i = 0
    for piece in m.group(2).split("|"):
        decoded = cache.get(piece)
        if decoded is None:
            decoded = _decode_piece(g, piece)
            if decoded[0] is None and len(cache) < _PIECES_MAX:
                cache[piece] = decoded
        seat_s, use, card, purchase, annotation, discard, pick, first = decoded
        i += 1
        if seat_s is not None:
            seat = g.seat(seat_s, None, 0)  # type: ignore[arg-type]
            if extra:
                if seat <= previous:
                    raise _GiveUp
                previous = seat
            elif seat != i:
                raise _GiveUp
        elif extra:
            raise _GiveUp
        else:
            seat = i
        if pick is not None:
            at = pick[2]
            pick = _make(Pick, {"card": pick[0], "annotation": pick[1],
                                "span": _make(Span, {"line": file_line, "column": col + at, "offset": off + at})})
        span = new(Span)
        set_dict(span, {"line": file_line, "column": col + first, "offset": off + first})
        set_fields(span, span_fields)
        set_extra(span, None)
        set_private(span, None)
        action = new(Action)
        set_dict(action, {
            "seat": seat,
            "use": use,
            "card": card,
            "purchase": purchase,
            "discard": discard,
            "pick": pick,
            "annotation": annotation,
            "span": span,
        })
        set_fields(action, action_fields)
        set_extra(action, None)
        set_private(action, None)
        built.append(action)
        step = len(piece) + 1
        col += step
        off += step
    if not extra and i != len(g.seats):
        raise _GiveUp
    g.turns.append(_make(Turn, {
        "age": age,
        "number": number,
        "actions": tuple(built),
        "annotation": NO_ANNOTATION,
        "span": _make(Span, {"line": file_line, "column": 1 + m.start(1) - line_start, "offset": m.start(1) + g.off0}),
    }))


# --- games and files -----------------------------------------------------------------------------------------

_parser_instance: list[Any] = []


def _parser() -> Any:
    if not _parser_instance:
        _parser_instance.append(grammar.build(_Transformer()))
    return _parser_instance[0]


#: The most characters a line may hold outside its comments and ``[%tags]`` (spec section 11). Regular expressions
#: that cut a run of actions into pieces need memory in proportion to the run; a turn line is a few hundred.
LINE_LIMIT = 10_000
_LINE_MARKS = re.compile(r"[\n{]|\[%")


def _check_line_lengths(text: str, source: str, line0: int, off0: int) -> None:
    """Raise :class:`StructureError` (rule ``line-length``) at the first character past :data:`LINE_LIMIT` on a
    line, comments and ``[%tags]`` not counted. One pass; called only for games longer than the limit."""
    line_start = 0  # where the characters counted on this line start counting
    counted = 0  # characters of this line before line_start
    pos = 0
    n = len(text)
    while pos < n:
        m = _LINE_MARKS.search(text, pos)
        end = m.start() if m else n
        if counted + end - line_start > LINE_LIMIT:
            error = at_offset(StructureError, f"this line holds more than {LINE_LIMIT:,} characters outside "
                              "comments and [%tags], the reader's limit (a turn line holds a few hundred)", text,
                              line_start + LINE_LIMIT - counted, source, line0, off0, rule="line-length")
            error.source_line = ""  # not shown: it is too long to show
            raise error
        if m is None:
            return
        if text[end] == "\n":
            counted, line_start, pos = 0, end + 1, end + 1
            continue
        close = _annotation_end(text, end + (2 if text[end] == "[" else 1), "}" if text[end] == "{" else "]")
        if close < 0:  # unterminated: the parser reports it, without reading past it
            return
        counted += end - line_start
        line_start = pos = close + 1


def _annotation_end(text: str, start: int, closer: str) -> int:
    """The index of the ``closer`` that ends a comment or ``[%tag]`` whose text starts at ``start`` (one preceded
    by an even run of backslashes: a backslash escapes the character after it), or -1."""
    j = text.find(closer, start)
    while j >= 0:
        k = j
        while k > start and text[k - 1] == "\\":
            k -= 1
        if (j - k) % 2 == 0:
            return j
        j = text.find(closer, j + 1)
    return -1


def _parse_game(text: str, source: str, line0: int, off0: int) -> Record:
    """Parse one game's text (starting with its [Format] line); raise :class:`NotationError`.

    The fast route reads plain games; whatever it does not read, Lark does (see "the fast route")."""
    if not text.endswith("\n"):
        text += "\n"
    if len(text) > LINE_LIMIT:
        _check_line_lengths(text, source, line0, off0)
    record = _fast_game(_Game(text, source, line0, off0))
    if record is not None:
        return record
    return _lark_game(text, source, line0, off0)


def _lark_game(text: str, source: str, line0: int, off0: int) -> Record:
    """One game read by the Lark parser and the inline transformer (the reference route); ``text`` ends with
    a line end."""
    g = _Game(text, source, line0, off0)
    token = _STATE.set(g)
    try:
        return _parser().parse(text)
    except UnexpectedInput as exc:
        from .diagnose import diagnose

        raise diagnose(exc, text, source, line0, off0) from None
    finally:
        _STATE.reset(token)


def _normalise(text: str) -> str:
    """A whole text as the reader reads it (spec section 2): without its BOM, line ends LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return _line_ends(text)


def _line_ends(text: str) -> str:
    """CRLF and lone CR made LF: the one line-end normalisation of both routes (string and stream)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _stream_lines(handle: Iterable[str]) -> Iterator[str]:
    """The lines of an open text file as :func:`_normalise` leaves the whole text, each ending in LF (the last
    may lack it), whatever the file's ``newline`` mode: with ``newline="\\n"`` (``io.StringIO``'s default) a
    piece may hold many lone-CR lines, and with ``newline="\\r"`` a CRLF may be cut between two pieces."""
    first = True
    after_cr = False  # the previous piece ended in CR: a LF starting this one is the rest of its CRLF
    for raw in handle:
        if first:
            first = False
            if raw.startswith("\ufeff"):
                raw = raw[1:]
        if "\r" not in raw:
            if after_cr and raw.startswith("\n"):
                raw = raw[1:]
                if not raw:
                    after_cr = False
                    continue
            after_cr = False
            if raw.count("\n", 0, len(raw) - 1):
                yield from _pieces_of_lines(raw)
            else:
                yield raw
            continue
        if after_cr and raw.startswith("\n"):
            raw = raw[1:]
        after_cr = raw.endswith("\r")
        yield from _pieces_of_lines(_line_ends(raw))


def _pieces_of_lines(text: str) -> Iterator[str]:
    """``text`` cut after each LF."""
    start = 0
    while True:
        end = text.find("\n", start)
        if end < 0:
            if start < len(text):
                yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


def _prelude_error(text: str, source: str) -> NotationError | None:
    stripped = text.lstrip()
    if not stripped:
        return None
    pos = len(text) - len(stripped)
    return at_offset(NotationSyntaxError, f"expected a game: each game starts with a line [Format \"{FORMAT_VERSION}\"]",
                     text, pos, source, expected=(f"[Format \"{FORMAT_VERSION}\"]",))


def split_games(text: str) -> Iterator[tuple[str, int, int]]:
    """Cut a normalised text into ``(game_text, lines_before, chars_before)`` at ``[Format`` lines.

    Text before the first game comes out first, as a chunk that does not start with ``[Format``.
    """
    starts = [m.start() for m in lexical.BOUNDARY_RE.finditer(text)]
    if not starts or starts[0] > 0:
        head_end = starts[0] if starts else len(text)
        yield text[:head_end], 0, 0
    line = text.count("\n", 0, starts[0]) if starts else 0
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        chunk = text[start:end]
        yield chunk, line, start
        line += chunk.count("\n")


def _split_stream(lines: Iterable[str]) -> Iterator[tuple[str, int, int]]:
    """As :func:`split_games` over lines read lazily (one game's lines in memory at a time)."""
    buf: list[str] = []
    line0 = off0 = 0
    line = off = 0
    for raw in _stream_lines(lines):
        if raw.lstrip(" \t").startswith("[Format") and lexical.BOUNDARY_RE.match(raw):
            if buf or line:
                yield "".join(buf), line0, off0
            buf, line0, off0 = [], line, off
        buf.append(raw)
        line += raw.count("\n")
        off += len(raw)
    if buf or not line:
        yield "".join(buf), line0, off0


@dataclass(frozen=True)
class Header:
    """The tag section of one game, as :func:`read_headers` reads it without the body.

    ``index`` is the game's place in its input (1-based, counting broken games too), ``line`` and ``offset``
    where its ``[Format`` line starts (1-based line, 0-based offset). The other fields are those of the
    :class:`Record` the full reader gives for the game, equal to them: ``format``, ``edition``, ``date``
    (``None`` when unknown), ``seats``, free ``tags`` in file order, ``guilds``, ``seed``, ``deals`` and ``span``.
    """

    source: str
    index: int
    line: int
    offset: int
    format: str
    edition: str
    date: str | None
    seats: tuple[Seat, ...]
    tags: tuple[Tag, ...]
    guilds: tuple[str, ...] | None
    seed: Seed | None
    deals: tuple[Deal, ...]
    span: Span | None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def event(self) -> str | None:
        """The ``Event`` tag's value, or ``None``."""
        return self.tag("Event")

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first free tag called ``name`` (case-sensitive), as :meth:`Record.tag`."""
        return next((t.value for t in self.tags if t.name == name), default)

    HEADER_FIELDS: ClassVar[tuple[str, ...]] = (
        "format", "edition", "date", "seats", "tags", "guilds", "seed", "deals"
    )


def _read_header_only(text: str, source: str, line0: int, off0: int, index: int) -> Header:
    """The header of one game chunk, without reading its body (raises :class:`NotationError`)."""
    if not text.endswith("\n"):
        text += "\n"
    g = _Game(text, source, line0, off0)
    f = _fast()
    try:
        _plain_header(g, f)
    except (_GiveUp, NotationError):  # not the common case: tokens and _read_header, which tell what is wrong
        g = _Game(text, source, line0, off0)
        try:
            tags, _, _ = _fast_header(g, f)
        except _GiveUp:  # not plain tags: the whole game tells what is wrong (or, if nothing is, its header)
            r = _parse_game(text, source, line0, off0)
            return Header(source, index, line0 + 1, off0, r.format, r.edition, r.date, r.seats, r.tags, r.guilds,
                          r.seed, r.deals, r.span)
        _read_header(g, tags)
    h = g.header
    return Header(source, index, line0 + 1, off0, FORMAT_VERSION, EDITION, h["date"], g.seats, tuple(h["tags"]),
                  h["guilds"], h["seed"], tuple(sorted(h["deals"].values(), key=lambda d: d.age)), h["span"])


ERROR_POLICIES = ("collect", "raise")


def _games(chunks: Iterable[tuple[str, int, int]], source: str, read: Any = None) -> Iterator[Any]:
    """``read(chunk, source, line0, off0, index)`` for each game chunk (default: the whole game), or the error
    of a broken game or of text before the first game."""
    index = 0
    for chunk, line0, off0 in chunks:
        if not lexical.BOUNDARY_RE.match(chunk):
            error = _prelude_error(chunk, source)
            if error is not None:
                yield error
            continue
        index += 1
        try:
            if read is None:
                yield _parse_game(chunk, source, line0, off0)
            else:
                yield read(chunk, source, line0, off0, index)
        except NotationError as exc:
            yield exc


def _policy(items: Iterator[Any], errors: str) -> Iterator[Any]:
    if errors == "collect":
        yield from items
        return
    for item in items:
        if isinstance(item, NotationError):
            raise item
        yield item


def _check_policy(errors: str) -> None:
    if errors not in ERROR_POLICIES:
        raise ValueError(f"errors={errors!r}: expected one of {', '.join(map(repr, ERROR_POLICIES))}")


def _open_chunks(arg: Any, source: str | None, read: Any) -> Iterator[Any]:
    """The items of every game of a path, an open text file or a text (see :func:`read_games`)."""
    if isinstance(arg, os.PathLike) or (isinstance(arg, str) and _looks_like_path(arg)):
        name = os.fspath(arg)
        with open(name, encoding="utf-8", errors="strict", newline=None) as handle:
            yield from _read_stream(handle, source or name, read)
        return
    if isinstance(arg, str):
        yield from _games(split_games(_normalise(arg)), source or "<string>", read)
        return
    yield from _read_stream(arg, source or str(getattr(arg, "name", "<stream>")), read)


def read_games(
    path_or_file_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None, errors: str = "collect"
) -> Iterator[Record | NotationError]:
    """Yield each game of a file or text in order: a :class:`Record`, or the :class:`NotationError` of a
    broken game (reading then goes on at the next ``[Format`` line).

    The argument is a path (:class:`os.PathLike`, or a one-line ``str`` naming an existing file), an open
    text file (read lazily: one game in memory at a time), or the text itself. ``source`` names the input in
    error messages (default: the path, the file's ``name``, or ``"<string>"``).

    ``errors`` is the error policy: ``"collect"`` (the default) yields the error of a broken game and goes on;
    ``"raise"`` raises it instead, after the games before it have been yielded. Raises :class:`ValueError` at
    once for another policy, :class:`OSError` when a path cannot be opened; with ``"collect"`` never raises for
    the content.
    """
    _check_policy(errors)
    return _policy(_open_chunks(path_or_file_or_text, source, None), errors)


def read_headers(
    path_or_file_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None, errors: str = "collect"
) -> Iterator[Header | NotationError]:
    """Yield the :class:`Header` of each game of a file or text, reading only its tag section: for listing
    and indexing, several times faster than :func:`read_games`. Arguments as :func:`read_games`.

    A header equals the header fields of the Record that :func:`read_games` reads for the same game. The body
    is not read, so a game whose tags are valid gives its header even if its body is broken; a broken tag
    section gives the error that reading the whole game reports for it (``errors`` as in :func:`read_games`).
    """
    _check_policy(errors)
    return _policy(_open_chunks(path_or_file_or_text, source, _read_header_only), errors)


def _looks_like_path(text: str) -> bool:
    return "\n" not in text and not text.lstrip("\ufeff \t").startswith("[") and os.path.isfile(text)


def _read_stream(handle: IO[str], source: str, read: Any = None) -> Iterator[Any]:
    try:
        yield from _games(_split_stream(handle), source, read)
    except UnicodeDecodeError as exc:
        yield NotationSyntaxError(f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})", source=source,
                                  rule="encoding")


def parse(text: str, *, source: str = "<string>") -> Record:
    """The one game in ``text`` as a :class:`Record` (spans set, names in printed form).

    Raises :class:`NotationError` (a subclass saying which check failed) if the text is not exactly one
    valid 7WN game. Never raises anything else for any ``str``. Cost: linear in the text.
    """
    text = _normalise(text)
    record: Record | None = None
    for chunk, line0, off0 in split_games(text):
        if not lexical.BOUNDARY_RE.match(chunk):
            error = _prelude_error(chunk, source)
            if error is not None:
                raise error
        elif record is not None:
            raise at_offset(StructureError, "a second game: parse() reads one game (use read_games or parse_many)",
                            text, off0, source, rule="games")
        else:
            record = _parse_game(chunk, source, line0, off0)
    if record is None:
        raise NotationSyntaxError(f"no game: a game starts with a line [Format \"{FORMAT_VERSION}\"]", source=source,
                                  expected=(f"[Format \"{FORMAT_VERSION}\"]",))
    return record


def parse_many(text: str, *, source: str = "<string>") -> list[Record]:
    """Every game in ``text``, in order. Raises the first :class:`NotationError` met (strict policy)."""
    records = []
    for item in _games(split_games(_normalise(text)), source):
        if isinstance(item, NotationError):
            raise item
        records.append(item)
    return records
