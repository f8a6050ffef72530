"""Writing a :class:`~wnotation.model.record.Record` as canonical 7WN text (spec 7wn.md, "Canonical form").

The writer writes exactly what the Record holds: a purchase appears when ``purchase`` is not ``None``
(deciding what may be left out is the engine's), every annotation in its canonical place. It does not check
legality; it refuses only Records that no 7WN text can express (a reserved tag name, a newline in a value, a
malformed date, or the string ``"????.??.??"``, since an unknown date reads back as ``None``), and a Record made
without validation beyond the validator's bounds (a purchase of more than ``MAX_PURCHASE_COINS`` coins to a side,
variations nested deeper than ``MAX_VARIATION_DEPTH``), so that no Record makes it write without end or recurse
without bound.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..model.record import (
    FORMAT_VERSION,
    MAX_PURCHASE_COINS,
    MAX_VARIATION_DEPTH,
    NO_ANNOTATION,
    Action,
    Annotation,
    CoinsPaid,
    Record,
    SeatResult,
    StatedPurchase,
    Turn,
    Variation,
    coins_problem,
    depth_problem,
)
from ..model.vocabulary import EXPANSIONS, LINE_FIELDS, numeral, seat_key
from . import lexical
from .export import Exporter, export
from .tags import FIELDS, RESERVED_BY_FOLDED

__all__ = ["write", "write_games", "format_action", "format_purchase", "format_turn", "TextExporter"]


class TextExporter(Exporter[str]):
    """The canonical text of one game (spec "Canonical form"), as an :class:`~wnotation.notation.export.Exporter`."""

    def begin_game(self, record: Record) -> None:
        self.record = record
        self.lines = _header(record)
        self.body: list[str] = []
        a = record.annotation
        if a.glyph or a.tags or a.before:
            self.body.append(" ".join(["game", *_notes(a.glyph, a.tags, a.before)]))
        self.refs = _seat_refs(record)

    def turn(self, turn: Turn) -> None:
        variations = turn.variations
        if self.record.format == FORMAT_VERSION:
            for a in turn.actions:
                if type(a.purchase) is CoinsPaid:
                    raise ValueError(f"turn {turn.label}: a purchase stated in coins needs format 7WN 2, and this "
                                     f"record's format is {FORMAT_VERSION!r} (a reader refuses it: spec 3.1)")
            if variations:
                raise ValueError(f"turn {turn.label}: variations need format 7WN 2, and this record's format is "
                                 f"{FORMAT_VERSION!r} (a reader refuses them: spec 3.1)")
        body = self.body
        before = turn.annotation.before
        if before:
            body.extend([_comment(c) for c in before])
        body.append(format_turn(turn, self.refs))
        if variations:
            for k, variation in enumerate(variations, 1):
                _variation(variation, turn, f"{turn.label}({k})", self.refs, body)

    def result(self, result: SeatResult) -> None:
        refs = self.refs
        if not 1 <= result.seat <= len(refs):
            raise ValueError(f"a result for seat {result.seat}: this game has seats 1 to {len(refs)}")
        pairs = [f"{f} {getattr(result, f)}" for f in LINE_FIELDS if getattr(result, f) is not None]
        self.body.append(" ".join([f"result {refs[result.seat - 1]}:", *pairs]))

    def end_game(self) -> str:
        self.body.extend(_comment(c) for c in self.record.annotation.after)
        lines = self.lines
        if self.body:
            lines.append("")
            lines.extend(self.body)
        return "\n".join(lines) + "\n"


def write(record: Record) -> str:
    """The canonical text of one game, ending with a newline (:class:`TextExporter`).

    Raises :class:`ValueError` if the Record holds something 7WN cannot express (see the module doc).
    Cost: linear in the Record; the result is a fresh string.
    """
    return export(record, TextExporter())


def write_games(records: Iterable[Record]) -> str:
    """The canonical text of several games, separated by one blank line. Raises as :func:`write`."""
    return "\n".join(write(r) for r in records)


# --- header --------------------------------------------------------------------------------------------------


def _one_line(value: str, what: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError(f"{what} {value!r} holds a line break, which a tag value cannot")
    return lexical.write_string(value)


def _date(date: str | None) -> str:
    """The Date tag's value: ``????.??.??`` for ``None``, the one Record value of an unknown date."""
    if date is None:
        return lexical.UNKNOWN_DATE
    if date == lexical.UNKNOWN_DATE:
        raise ValueError(f"date {date!r}: an unknown date is None in a Record (it is written {date!r})")
    if not lexical.DATE_RE.fullmatch(date):
        raise ValueError(f"date {date!r} is not YYYY.MM.DD (with ? for unknown digits), which a reader refuses")
    return date


def _expansions(named: Iterable[str]) -> list[str]:
    """The expansions in the score pad's order; a name that is not an expansion, or one named twice, is refused."""
    named = list(named)
    unknown = [n for n in named if n not in EXPANSIONS]
    if unknown or len(set(named)) != len(named):
        raise ValueError(f"expansions {named!r}: each of {', '.join(EXPANSIONS)} at most once")
    return sorted(named, key=EXPANSIONS.index)


def _free_tags(r: Record) -> list[str]:
    lines = []
    for tag in r.tags:
        if not lexical.TAG_NAME_RE.fullmatch(tag.name) or tag.name.casefold() in RESERVED_BY_FOLDED:
            raise ValueError(f"free tag name {tag.name!r} is not a valid, unreserved tag name")
        lines.append(f"[{tag.name} {_one_line(tag.value, 'tag value')}]")
    return lines


def _seats(r: Record) -> list[str]:
    return [f"[Seat{i} {_one_line(seat.name, 'seat name')} {lexical.write_string(seat.wonder)} "
            f"{lexical.write_string(seat.side)}]" for i, seat in enumerate(r.seats, 1)]


def _deals(r: Record) -> list[str]:
    return [f"[Deal{numeral(deal.age)} " + "\n  ".join(lexical.write_string(", ".join(hand)) for hand in deal.hands)
            + "]" for deal in sorted(r.deals, key=lambda d: d.age)]


#: The writer of each header field of the tag table (:data:`.tags.FIELDS`): the lines it writes, none when unset.
FIELD_WRITERS: dict[str, Callable[[Record], list[str]]] = {
    "format": lambda r: [f"[Format {_one_line(r.format, 'format')}]"],
    "edition": lambda r: [f"[Edition {_one_line(r.edition, 'edition')}]"],
    "date": lambda r: [f"[Date {_one_line(_date(r.date), 'date')}]"],
    "expansions": lambda r: [f"[Expansions {lexical.write_string(', '.join(_expansions(r.expansions)))}]"]
    if r.expansions else [],
    "tags": _free_tags,
    "seats": _seats,
    "guilds": lambda r: [] if r.guilds is None else [f"[Guilds {lexical.write_string(', '.join(r.guilds))}]"],
    "seed": lambda r: [] if r.seed is None else [f"[Seed \"{r.seed.algorithm} {r.seed.value}\"]"],
    "deals": _deals,
}


def _header(r: Record) -> list[str]:
    """The tag lines, field by field in the tag table's order."""
    return [line for field in FIELDS for line in FIELD_WRITERS[field](r)]


# --- body ----------------------------------------------------------------------------------------------------


def _seat_refs(r: Record) -> list[str]:
    """How the body names each seat: its name when that reads back unambiguously, else ``#N``."""
    keys = [seat_key(s.name) for s in r.seats]
    return [
        s.name if lexical.SEAT_REF_RE.fullmatch(s.name) and not s.name.startswith("#") and keys.count(keys[i]) == 1
        else f"#{i + 1}"
        for i, s in enumerate(r.seats)
    ]


def _comment(text: str) -> str:
    if "\r" in text:
        raise ValueError(f"comment {text!r} holds a carriage return, which readers turn into a line end")
    return lexical.write_comment(text)


def _notes(glyph: str | None, tags: tuple[tuple[str, str], ...], comments: tuple[str, ...]) -> list[str]:
    parts = [glyph] if glyph else []
    for key, value in tags:
        if not lexical.ATAG_KEY_RE.fullmatch(key):
            raise ValueError(f"annotation key {key!r} is not a valid key (a letter, then letters, digits, _ or -)")
        if "\r" in value:
            raise ValueError(f"annotation value {value!r} holds a carriage return")
        parts.append(lexical.write_atag(key, value))
    parts.extend(_comment(c) for c in comments)
    return parts


def _variation(variation: Variation, replaced: Turn, where: str, refs: list[str], out: list[str]) -> None:
    """The lines of ``variation`` of the turn ``replaced``, at address ``where`` (``I.2(1)``, nesting 1 for the main
    line's), added to ``out`` (spec 10, item 12): ``( `` and the first turn, the further turns indented, ``)``
    ending the last line. Raises ``ValueError`` beyond :data:`~wnotation.model.record.MAX_VARIATION_DEPTH`, so its
    recursion is bounded by that depth."""
    depth = where.count("(")
    if depth > MAX_VARIATION_DEPTH:
        raise ValueError(depth_problem(where))
    first = variation.turns[0] if variation.turns else None
    if first is None:
        raise ValueError(f"a variation of turn {replaced.label} has no turn")
    if (first.age, first.number) != (replaced.age, replaced.number):
        raise ValueError(f"a variation of turn {replaced.label} starts with turn {first.label}: its first turn "
                         "replaces that turn, so it has its label")
    inner = "  " * depth
    for i, turn in enumerate(variation.turns):
        line = format_turn(turn, refs, partial=True)
        if i == 0:
            out.append("  " * (depth - 1) + " ".join(["(", *(_comment(c) for c in turn.annotation.before), line]))
        else:
            out.extend(inner + _comment(c) for c in turn.annotation.before)
            out.append(inner + line)
        for k, nested in enumerate(turn.variations, 1):
            _variation(nested, turn, f"{where}.{turn.label}({k})", refs, out)
    out[-1] += " )"


def format_turn(turn: Turn, refs: list[str] | None = None, *, partial: bool = False) -> str:
    """One canonical turn line (without the comment lines before it), actions in seat order. ``refs`` names
    every seat (its length is the seat count), used in the extra turn and in a ``partial`` turn (default ``#N``).
    With ``partial`` (a turn of a variation, spec 6.1) a normal turn may leave seats out; it is then written with
    every action's seat.

    Raises :class:`ValueError` for a turn without actions, a seat twice or out of range, or a normal turn that
    lacks a seat (unless ``partial``): its line gives each action to the seat of its place, so it would name
    another game."""
    if not turn.actions:
        raise ValueError(f"turn {turn.label} has no action")
    extra = turn.number == 7
    actions = turn.actions
    seats = [a.seat for a in actions]
    if seats != sorted(seats):  # else in seat order already, as a Record's turns usually are
        actions = tuple(sorted(actions, key=_seat_of))
        seats = [a.seat for a in actions]
    n = len(refs) if refs else (seats[-1] if extra or partial else len(seats))
    if len(set(seats)) != len(seats) or seats[0] < 1 or seats[-1] > n:
        raise ValueError(f"turn {turn.label}: seats {seats} are not distinct seats of 1..{n}")
    prefixed = extra or (partial and len(seats) < n)
    if not prefixed and seats != list(range(1, n + 1)):
        missing = sorted(set(range(1, n + 1)) - set(seats))
        raise ValueError(f"turn {turn.label} has no action for seat {', '.join(map(str, missing))}: a turn line holds "
                         "one action per seat")
    if prefixed:
        parts = [format_action(a, refs[a.seat - 1] if refs else f"#{a.seat}") for a in actions]
    else:
        parts = [format_action(a) for a in actions]
    line = f"{turn.label} " + " | ".join(parts)
    t = turn.annotation
    if t is not NO_ANNOTATION and (t.glyph or t.tags or t.after):
        line += " // " + " ".join(_notes(t.glyph, t.tags, t.after))
    return line


def _seat_of(action: Action) -> int:
    return action.seat


def format_action(action: Action, seat: str | None = None) -> str:
    """One action in canonical form, e.g. ``stage ? (L clay), discard Altar, pick Temple !``; ``seat``
    is written as a ``Name:`` prefix (the extra turn's)."""
    a: Annotation = action.annotation
    main = "" if seat is None else f"{seat}: "
    if action.use != "build":
        main += action.use + " "
    main += action.card
    if action.purchase is not None:
        main += " " + format_purchase(action.purchase)
    plain = a is NO_ANNOTATION  # no glyph, comment nor tag: a generated game's every action
    if not plain and a.glyph:
        main += " " + a.glyph
    if action.discard is not None:
        main += ", discard " + action.discard
    if not plain and (a.before or a.tags or a.after):
        parts = [_comment(c) for c in a.before]
        parts.append(main)
        parts.extend(_notes(None, a.tags, a.after))
        text = " ".join(parts)
    else:  # no comment nor tag: the action alone
        text = main
    pick = action.pick
    if pick is not None:
        p = pick.annotation
        words = [", pick", *(_comment(c) for c in p.before), pick.card if pick.card is not None else "-"]
        if p.glyph:
            words.append(p.glyph)
        words.extend(_notes(None, p.tags, p.after))
        text += " ".join(words)
    return text


def format_purchase(purchase: StatedPurchase | CoinsPaid) -> str:
    """``(L clay glass, R 2 wood)``: left then right, each unit as held, repeats counted; ``()`` if empty. Coins
    (7WN 2): ``(L 2 coins, R 1 coin)``, a side paid nothing left out, ``(L 0 coins)`` when neither is paid."""
    if isinstance(purchase, CoinsPaid):
        return _format_coins(purchase)
    groups = []
    for side, units in (("L", purchase.left), ("R", purchase.right)):
        if not units:
            continue
        words = []
        i = 0
        while i < len(units):
            j = i
            while j < len(units) and units[j] == units[i]:
                j += 1
            count = j - i
            while count > 99:  # the notation counts up to 99 per unit word
                words.append(f"99 {units[i]}")
                count -= 99
            words.append(units[i] if count == 1 else f"{count} {units[i]}")
            i = j
        groups.append(f"{side} " + " ".join(words))
    return "(" + ", ".join(groups) + ")"



def _format_coins(paid: CoinsPaid) -> str:
    groups = []
    for side, coins in (("L", paid.left_coins), ("R", paid.right_coins)):
        if coins > MAX_PURCHASE_COINS:  # a Record built without validation: no seat holds as many
            raise ValueError(coins_problem(coins))
        while coins > 99:  # a group counts up to 99 coins; a side's groups add up
            groups.append(f"{side} 99 coins")
            coins -= 99
        if coins:
            groups.append(f"{side} {coins} coin{'' if coins == 1 else 's'}")
    return "(" + (", ".join(groups) or "L 0 coins") + ")"
