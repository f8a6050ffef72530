"""Where every Record is assembled and every check the notation owns is made, for both routes.

The routes only lex: Lark's (:mod:`.lark_route`) and the fast one (:mod:`.fast_route`) cut the text into tags,
pieces of actions, clauses and result lines, and hand them here with their offsets in the game's text. This module
matches names against the catalogue (with suggestions), checks the header, the roster, turn order, actions per
turn and seat prefixes, and builds the frozen Record models. Legality is the engine's, not checked here.
Positions: ``at`` is an offset in the game's text (errors count line and column from it only when made), spans
add the game's place in its file (its :class:`~wnotation.notation.errors.Origin`).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
import re
from typing import Any, Final

from ...model import catalog as _catalog
from ...model.record import (
    FORMAT_VERSION,
    GLYPHS,
    MAX_VARIATION_DEPTH,
    NO_ANNOTATION,
    UNKNOWN,
    Annotation,
    CoinsPaid,
    Pick,
    Record,
    Seat,
    SeatResult,
    Span,
    StatedPurchase,
    Turn,
    Variation,
    make,
    new_action,
    new_span,
    new_turn,
)
from ...model.vocabulary import AGE_OF_NUMERAL, EXTRA_TURN, LINE_FIELDS, seat_key, turn_label
from .. import lexical
from ..tags import FIELDS
from .names import FIRST_EDITION_ONLY, USE_OF_VERB, VERB_OF_WORD, card_names, clause_meant, split_meant, verb_meant
from ..errors import (
    NotationError,
    NotationSyntaxError,
    Origin,
    RosterError,
    StructureError,
    UnknownNameError,
    at_offset,
)

#: The most digits a stated result may have (a value Python and JSON readers hold exactly).
MAX_DIGITS: Final[int] = 18



def _span(line: int, column: int, offset: int) -> Span:
    return new_span(line, column, offset)


def annotation(before: Sequence[str], after: Sequence[str], glyph: str | None,
               tags: Sequence[tuple[str, str]]) -> Annotation:
    if not (before or after or tags):
        return NO_ANNOTATION if glyph is None else GLYPH_ANNOTATIONS[glyph]
    return make(Annotation, {"before": tuple(before), "after": tuple(after), "glyph": glyph, "tags": tuple(tags)})


GLYPH_ANNOTATIONS: Final[dict[str, Annotation]] = {
    glyph: make(Annotation, {"before": (), "after": (), "glyph": glyph, "tags": ()}) for glyph in GLYPHS
}


def add_note(raw: str, comments: list[str], tags: list[tuple[str, str]], start: int = 0, end: int = -1) -> None:
    """A ``{comment}`` or ``[%key value]`` as written (``raw``, or ``raw[start:end]``: a note in the game's text,
    sliced from it once), added to ``comments`` or ``tags``."""
    if raw[start] == "{":
        comments.append(lexical.comment_text(raw, start, end))
    else:
        tags.append(lexical.atag_pair(raw, start, end))


#: A note of a comment line waiting for the next turn: ``(source, start, end)``, the note being
#: ``source[start:end]``: the Lark route's token whole, or the fast route's bounds in the game's text (no copy).
PendingNote = tuple[str, int, int]


# --- per-game state ----------------------------------------------------------------------------------------------


class Line:
    """A line of play being read: the main line, or a variation open since its ``(`` at offset ``at`` (on
    ``line``, ``column``), which replaces the turn ``replaces`` of the line ``parent``."""

    __slots__ = ("turns", "last_label", "at", "line", "column", "replaces", "parent", "depth")

    def __init__(self, parent: Line | None = None, at: int = 0, line: int = 0, column: int = 0) -> None:
        self.turns: list[Turn] = []
        self.last_label: tuple[int, int] | None = None
        self.parent = parent
        self.depth: int = 0 if parent is None else parent.depth + 1  # the main line's is 0, a variation's 1, ...
        self.at, self.line, self.column = at, line, column
        self.replaces = parent.last_label if parent is not None else None


class Game:
    """What is known while one game is read: where it is, the header, the roster, what came so far."""

    def __init__(self, text: str, origin: Origin) -> None:
        self.text = text
        self.origin = origin  # the game's place in its file
        self.header: dict[str, Any] = {}
        self.seats: tuple[Seat, ...] = ()
        self.seat_keys: dict[str, int] = {}
        self.main = Line()
        self.turns: list[Turn] = self.main.turns  # the main line's
        self.line = self.main  # the line of play turn lines go to: the innermost open variation, or the main line
        self.results: list[SeatResult] = []
        self.result_seats: set[int] = set()
        self.pending: list[PendingNote] = []  # notes of comment lines, as written, waiting for the next turn
        self.game_line = False
        self.game_annotation = NO_ANNOTATION

    def error(self, cls: type[NotationError], message: str, at: int, **kw: Any) -> NotationError:
        """An error of class ``cls`` at offset ``at`` of the game's text."""
        return at_offset(cls, message, self.text, at, self.origin, **kw)

    def span(self, line: int, column: int, at: int) -> Span:
        """The span of what starts at ``at`` (on the game's 1-based ``line``, at ``column``)."""
        return _span(self.origin.line(line), column, self.origin.offset(at))

    def card(self, text: str, at: int, *, played: bool = False) -> str:
        """The printed name of the card ``text`` written at ``at``; ``played`` for the card of an action, whose
        unknown name may hold the verb the writer meant (``discard Marketplace``: a sale)."""
        if text == UNKNOWN:
            return UNKNOWN
        found = card_names().get(text)
        if found is not None:
            return found
        try:
            printed = _catalog.load().card_name(text)
        except _catalog.CatalogError as exc:
            word = text.strip().casefold()
            if word in ("sell", "stage", "discard", "pick"):
                hint = " (', discard X' is the turn-6 clause; to sell a card write 'sell X')" if word == "discard" else ""
                raise self.error(NotationSyntaxError, f"expected a card name or '?' after '{word}'{hint}",
                                 at + len(text), rule="syntax", expected=("a card name", "'?'")) from None
            first_edition = FIRST_EDITION_ONLY.get(_catalog.normalise(text))
            if first_edition is not None:
                raise self.error(UnknownNameError, f"unknown card {text!r}: {first_edition} is a card of the first "
                                 "edition, not of the second (2020), which 7WN records", at,
                                 rule="unknown-card") from None
            comma = clause_meant(text)
            if comma is not None:
                card, keyword, rest = comma
                raise self.error(UnknownNameError, f"unknown card {text!r}: a ',' may be missing before {keyword!r} "
                                 f"('{card}, {keyword} {rest}')", at, rule="unknown-card") from None
            pair = split_meant(text)
            if pair is not None:
                raise self.error(UnknownNameError, f"unknown card {text!r}: a '|' may be missing between two card "
                                 f"names ('{pair[0]} | {pair[1]}')", at, rule="unknown-card") from None
            meant = verb_meant(text) if played else None
            if meant is not None:
                fix, use = meant
                raise self.error(UnknownNameError, f"unknown card {text!r}: to {use} write '{fix}'", at,
                                 rule="unknown-card", suggestion=fix) from None
            verb = VERB_OF_WORD.get(word) if played else None
            if verb:
                raise self.error(UnknownNameError, f"unknown card {text!r}: to {USE_OF_VERB[verb]} write '{verb}' "
                                 f"and the card ('{verb} ?' for an unseen one)", at, rule="unknown-card") from None
            raise self.error(UnknownNameError, str(exc), at, rule="unknown-card", suggestion=exc.suggestion) from None
        return card_names().put(text, printed)

    def seat(self, text: str, at: int) -> int:
        """The seat number (1-based) that ``text`` (a name or ``#N``, written at ``at``) refers to."""
        if text.startswith("#"):
            number = int(text[1:])
            if number > len(self.seats):
                raise self.error(RosterError, f"seat {text}: this game has seats #1 to #{len(self.seats)}", at,
                                 rule="unknown-seat")
            return number
        found = self.seat_keys.get(seat_key(text))
        if found is None:
            names = [s.name for s in self.seats]
            close = difflib.get_close_matches(text, names, n=1, cutoff=0.5)
            suggestion = close[0] if close else None
            hint = f"; did you mean {suggestion}?" if suggestion else f" (seats: {', '.join(names)})"
            raise self.error(UnknownNameError, f"unknown seat {text!r}{hint}", at, rule="unknown-seat",
                             suggestion=suggestion)
        return found


# --- actions -----------------------------------------------------------------------------------------------------


class PickDraft:
    """A pick clause being read: the picked card (``None`` declines) and its annotations."""

    __slots__ = ("card", "glyph", "before", "after", "tags", "at", "line", "column")

    def __init__(self, at: int, line: int, column: int) -> None:
        self.at, self.line, self.column = at, line, column
        self.card: str | None = None
        self.glyph: str | None = None
        self.before: list[str] = []
        self.after: list[str] = []
        self.tags: list[tuple[str, str]] = []


class Draft:
    """One action being read. Positions (``at``, ``seat_at``, ``line``, ``column``) are where its text was cut from;
    the fast route keeps drafts of a piece's text, positions relative to the piece, and adds where it stands.
    Its annotation lists are empty tuples until :meth:`annotate` (the fast route keeps many drafts, none annotated).
    """

    __slots__ = ("seat", "seat_at", "use", "card", "purchase", "discard", "pick", "glyph", "before", "after", "tags",
                 "at", "line", "column")

    def __init__(self, at: int, line: int, column: int) -> None:
        self.at, self.line, self.column = at, line, column
        self.seat: str | None = None
        self.seat_at = 0
        self.use = "build"
        self.card = UNKNOWN
        self.purchase: StatedPurchase | CoinsPaid | None = None
        self.discard: str | None = None
        self.pick: PickDraft | None = None
        self.glyph: str | None = None
        self.before: list[str] | tuple[()] = ()
        self.after: list[str] | tuple[()] = ()
        self.tags: list[tuple[str, str]] | tuple[()] = ()

    def annotate(self) -> tuple[list[str], list[str], list[tuple[str, str]]]:
        """The lists the action's comments before and after it and its tags go to, made on first use."""
        if not isinstance(self.before, list):
            self.before, self.after, self.tags = [], [], []
        return self.before, self.after, self.tags  # type: ignore[return-value]


def piece(g: Game, m: re.Match[str], at: int, line: int, column: int) -> tuple[Draft, PickDraft | None]:
    """The action of a ``lexical.PIECE_RE`` match ``m`` over text that starts at offset ``at`` (``column`` on
    ``line``), and its pick when its last clause is one (annotations may follow it)."""
    seat, verb, name = m.group("seat", "verb", "name")
    first = m.start("seat") if seat else (m.start("verb") if verb else m.start("name" if name else "unknown"))
    a = Draft(at + first, line, column + first)
    if seat:
        a.seat, a.seat_at = seat, at + m.start("seat")
    if verb:
        a.use = lexical.keyword(verb)
    if name:
        a.card = g.card(name, at + m.start("name"), played=True)
        bought, a.glyph = m.group("purchase", "glyph")
    else:
        bought = m.group("upurchase")
        a.glyph = m.group("uglyph") or m.group("uglyph2")
    if bought:
        a.purchase = purchase(bought)
        if type(a.purchase) is CoinsPaid:
            coins_allowed(g, at + m.start("purchase" if name else "upurchase"))
    clauses_text = m.group("clauses")
    rel = m.start("clauses")
    pick = clauses(g, a, clauses_text, at + rel, line, column + rel) if clauses_text else None
    return a, pick


def coins_allowed(g: Game, where: int) -> None:
    """Refuse a purchase stated in coins (written at ``where``) in a game of format version 1 (spec 3.1)."""
    if g.header.get("format") == FORMAT_VERSION:
        raise g.error(StructureError, "a purchase stated in coins needs [Format \"7WN 2\"]: this game is "
                      f"\"{FORMAT_VERSION}\", which states the resources bought", where, rule="version",
                      expected=("a purchase of resources", "[Format \"7WN 2\"]"))


def purchase(text: str) -> StatedPurchase | CoinsPaid:
    """The purchase written ``text`` (a ``lexical.PURCHASE``): units sorted per side, counts expanded; or, when
    it states coins (7WN 2), the coins paid to each side, a side's groups added up."""
    if lexical.PAID_RE.search(text):  # the grammar never mixes the two kinds in one purchase
        paid = {"left": 0, "right": 0}
        for pm in lexical.PAID_RE.finditer(text):
            paid[lexical.SIDE_OF[lexical.keyword(pm.group("side"))]] += int(pm.group("count"))
        return make(CoinsPaid, {"left_coins": paid["left"], "right_coins": paid["right"]})
    sides: dict[str, list[str]] = {"left": [], "right": []}
    for gm in lexical.GROUP_RE.finditer(text):
        units = sides[lexical.SIDE_OF[lexical.keyword(gm.group("side"))]]
        for um in lexical.UNIT_RE.finditer(gm.group("units")):
            count = um.group("count")
            units.extend([lexical.keyword(um.group("resource"))] * (int(count) if count else 1))
    return make(StatedPurchase, {"left": tuple(sorted(sides["left"])), "right": tuple(sorted(sides["right"]))})


def clauses(g: Game, a: Draft, text: str, at: int, line: int, column: int) -> PickDraft | None:
    """Apply the ``, discard X`` / ``, pick Y`` clauses ``text`` (written at ``at``) to ``a``; return the pick
    if the last clause is one."""
    last_pick = None
    for cm in lexical.CLAUSE_RE.finditer(text):
        discard = cm.group("discard")
        if discard is not None:
            where = at + cm.start("discard")
            if a.discard is not None:
                raise g.error(StructureError, "a second discard clause: an action discards one card", where,
                              rule="clause")
            a.discard = g.card(discard, where)
            last_pick = None
        else:
            rel = cm.start("pick")
            pick = new_pick(g, a, at + rel, line, column + rel)
            picked(g, pick, cm.group("pick"), at + rel)
            last_pick = pick
    return last_pick


def new_pick(g: Game, a: Draft, at: int, line: int, column: int) -> PickDraft:
    if a.pick is not None:
        raise g.error(StructureError, "a second pick clause: a stage gives one pick", at, rule="clause")
    a.pick = PickDraft(at, line, column)
    return a.pick


def picked(g: Game, pick: PickDraft, text: str, at: int) -> None:
    """The picked card ``text`` (a ``lexical.PICKED``, written at ``at``) of ``pick``."""
    m = lexical.PICKED_RE.fullmatch(text)
    assert m is not None, text
    if m.group("name"):
        pick.card = g.card(m.group("name"), at + m.start("name"))
        pick.glyph = m.group("glyph")
    elif m.group("unknown"):
        pick.card = UNKNOWN
        pick.glyph = m.group("uglyph")
    else:
        pick.glyph = m.group("nglyph")


# --- turns -------------------------------------------------------------------------------------------------------


def begin_turn(g: Game, label: str, at: int) -> tuple[int, int]:
    """``(age, number)`` of the turn labelled ``label`` (written at ``at``), after checking that it may come now:
    before the results, and next in game order."""
    age = AGE_OF_NUMERAL.get(label[:-2]) or lexical.age_of_label(label)  # the writer's I, II, III first
    number = ord(label[-1]) - 48
    if g.results:
        raise g.error(StructureError, f"turn {label} after the results: results come last", at, rule="turn-order")
    current = g.line
    last = current.last_label
    if current.parent is not None and last is None:  # a variation's first turn: the turn it replaces
        replaced = current.replaces
        assert replaced is not None
        if (age, number) != replaced:
            raise g.error(StructureError, f"this variation follows turn {turn_label(*replaced)}, which it replaces: "
                          f"its first turn is {turn_label(*replaced)}, not {label}", at, rule="variation",
                          expected=(turn_label(*replaced),))
        current.last_label = (age, number)
        return age, number
    if last is None:
        allowed = [(1, 1)]
    elif last[1] == 6:
        allowed = [(last[0], EXTRA_TURN)] + ([(last[0] + 1, 1)] if last[0] < 3 else [])
    elif last[1] == EXTRA_TURN:
        allowed = [(last[0] + 1, 1)] if last[0] < 3 else []
    else:
        allowed = [(last[0], last[1] + 1)]
    if (age, number) not in allowed:
        names = [turn_label(a, n) for a, n in allowed]
        if not names and current is g.main and not current.turns:  # the last label is a [Position] start's
            message = f"turn {label}: the game is over at the position its [Position] tag states"
        elif not names:
            message = f"turn {label} after III.{last[1] if last else 6}: the game is over"
        else:
            after = f" after {turn_label(*last)}" if last else " first"
            message = f"turn {label}{after}: expected {' or '.join(names)}"
        raise g.error(StructureError, message, at, rule="turn-order", expected=tuple(names))
    current.last_label = (age, number)
    return age, number


def end_turn(g: Game, label: str, at: int, line: int, column: int, age: int, number: int, drafts: list[Draft],
             end: int, tail: tuple[list[str], str | None, list[tuple[str, str]]] | None = None,
             starts: list[int] | None = None) -> None:
    """Check the actions of a turn and add it: one per seat in seat order, or in the extra turn seat-prefixed
    actions in seat order. ``end`` is where its last action ends; ``tail`` the ``//`` part (comments, glyph,
    tags). Drafts hold their own positions, or with ``starts`` positions relative to the piece starting there
    (all on ``line``, which starts at ``at - column + 1``)."""
    n = len(g.seats)
    extra = number == EXTRA_TURN
    in_variation = g.line.parent is not None
    # A turn of a variation with fewer actions than seats is partial: the seats it names, in order (spec 6.1).
    partial = extra or (in_variation and len(drafts) < n)
    if not partial and len(drafts) != n:
        if len(drafts) > n:
            d = drafts[n]
            raise g.error(StructureError, f"turn {label} has more actions than seats: this game has {n} seats",
                          d.at + (starts[n] if starts else 0), rule="action-count")
        raise g.error(StructureError, f"turn {label} has {len(drafts)} actions: each of the {n} seats acts in every "
                      "turn (write sell ? or stage ? for a hidden card)", end, rule="action-count")
    lines_before, chars_before = g.origin.lines_before, g.origin.chars_before  # hoisted: read for every action
    line_at = at - column  # the offset before the line's first character, where the fast route's columns count
    # the names every action uses, looked up once per turn (module globals cost a dictionary look-up each, compiled
    # or not)
    span_of, action_of = new_span, new_action
    plain, glyphs = NO_ANNOTATION, GLYPH_ANNOTATIONS
    built = []
    previous = 0
    for i, d in enumerate(drafts):
        base = starts[i] if starts else 0
        seat_s = d.seat
        if seat_s is not None:
            seat = g.seat(seat_s, d.seat_at + base)
            if partial:
                if seat <= previous:
                    what = "the extra turn" if extra else "a partial turn of a variation"
                    raise g.error(StructureError, f"{what} lists seats once each, in seat order ({seat_s} "
                                  "comes too late)", d.seat_at + base, rule="seat-order")
                previous = seat
            elif seat != i + 1:
                raise g.error(StructureError, f"this is action {i + 1} of the turn, which is seat {i + 1}'s "
                              f"({g.seats[i].name}), not {seat_s!r}'s", d.seat_at + base, rule="seat-order")
        elif extra:
            raise g.error(StructureError, f"in the extra turn {label} each action names its seat: 'Name: action'",
                          d.at + base, rule="seat-prefix")
        elif partial:
            raise g.error(StructureError, f"turn {label} of this variation has {len(drafts)} of {n} actions: a "
                          "partial turn names the seat of each action ('Name: action'; the others keep theirs), "
                          "or a whole turn has one action per seat", d.at + base, rule="seat-prefix")
        else:
            seat = i + 1
        p = d.pick
        if starts:
            act_line, act_col = line + lines_before, base - line_at + d.column
        else:
            act_line, act_col = d.line + lines_before, d.column
        pick = None
        if p is not None:
            pick = make(Pick, {"card": p.card, "annotation": annotation(p.before, p.after, p.glyph, p.tags),
                               "span": _span(act_line if starts else p.line + lines_before,
                                             base - line_at + p.column if starts else p.column,
                                             p.at + base + chars_before)})
        if d.before or d.after or d.tags:
            note = annotation(d.before, d.after, d.glyph, d.tags)
        else:
            d_glyph = d.glyph
            note = plain if d_glyph is None else glyphs[d_glyph]
        span = span_of(act_line, act_col, d.at + base + chars_before)  # a turn has up to 7 of these, a game ~130
        action = action_of(seat, d.use, d.card, d.purchase, d.discard, pick, note, span)
        built.append(action)
    before: list[str] = []
    tags: list[tuple[str, str]] = []
    for raw, start, end in g.pending:
        add_note(raw, before, tags, start, end)
    g.pending = []
    after: list[str] = []
    glyph = None
    if tail is not None:
        after, glyph, tail_tags = tail
        tags.extend(tail_tags)
    g.line.turns.append(new_turn(age, number, tuple(built), annotation(before, after, glyph, tags), (),
                                 new_span(line + lines_before, column, at + chars_before)))


# --- variations (spec 6.1, format version 2) ------------------------------------------------------------------


def _version_2(g: Game, what: str, at: int) -> None:
    if g.header.get("format") == FORMAT_VERSION:
        raise g.error(StructureError, f"{what} needs [Format \"7WN 2\"]: this game is \"{FORMAT_VERSION}\", which "
                      "has no variations", at, rule="version", expected=("a turn label", "[Format \"7WN 2\"]"))


def open_variation(g: Game, at: int, line: int, column: int, notes: Sequence[str]) -> None:
    """A ``(`` at offset ``at`` opens a variation of the last turn of the current line of play; ``notes`` (the
    comments and tags after it, as written) annotate its first turn, as comment lines before it would."""
    _version_2(g, "a variation", at)
    parent = g.line
    if g.results:
        raise g.error(StructureError, "a variation after the results: a variation follows the turn it replaces",
                      at, rule="variation")
    if parent.last_label is None:
        where = "this variation" if parent.parent is not None else "the main line"
        raise g.error(StructureError, f"a variation follows the turn it replaces, and {where} has no turn before "
                      "it", at, rule="variation", expected=("a turn label",))
    if parent.depth >= MAX_VARIATION_DEPTH:
        raise g.error(StructureError, f"this variation would be nested {parent.depth + 1} deep: variations nest at "
                      f"most {MAX_VARIATION_DEPTH} deep (close one with ')' first)", at, rule="variation")
    g.line = Line(parent, at, line, column)
    g.pending.extend([(raw, 0, len(raw)) for raw in notes])


def close_variation(g: Game, at: int) -> None:
    """A ``)`` at offset ``at`` closes the innermost open variation, which joins the turn it replaces."""
    _version_2(g, "a ')' closing a variation", at)
    current = g.line
    parent = current.parent
    if parent is None:
        raise g.error(StructureError, "this ')' closes no variation: none is open", at, rule="variation")
    variation = make(Variation, {"turns": tuple(current.turns),
                                 "span": g.span(current.line, current.column, current.at)})
    replaced = parent.turns[-1]
    parent.turns[-1] = replaced.model_copy(update={"variations": replaced.variations + (variation,)})
    g.line = parent


def no_open_variation(g: Game, what: str) -> None:
    """Refuse ``what`` (a result line, the end of the game) while a variation is open, at its ``(``."""
    if g.line.parent is not None:
        raise g.error(StructureError, f"this variation is still open at {what}: end its last turn line with ')'",
                      g.line.at, rule="variation", expected=("')'",))


# --- the game line and results -----------------------------------------------------------------------------------


def game_line(g: Game, at: int, glyph: str | None, notes: list[str]) -> None:
    """The ``game`` line (written at ``at``): the game's glyph, tags and opening comments."""
    if g.game_line:
        raise g.error(StructureError, "a second 'game' line: a game has one", at, rule="game-line")
    if g.turns or g.results:
        raise g.error(StructureError, "the 'game' line comes before the first turn", at, rule="game-line")
    g.game_line = True
    before: list[str] = []
    tags: list[tuple[str, str]] = []
    for raw in notes:
        add_note(raw, before, tags)
    g.game_annotation = annotation(before, [], glyph, tags)


def result(g: Game, text: str, at: int, kw_line: int, kw_column: int, kw_at: int) -> None:
    """A result line: ``text`` (a ``RESULTS`` token, written at ``at``) after the keyword written at ``kw_at``."""
    m = lexical.RESULTS_RE.fullmatch(text)
    assert m is not None, text
    seat = add_result_seat(g, m.group("seat"), at)
    fields: dict[str, int] = {}
    pairs_at = m.start("pairs")
    for pm in lexical.PAIR_RE.finditer(m.group("pairs"), 0):
        category = lexical.keyword(pm.group("category"))
        where = at + pairs_at + pm.start("category")
        if category in fields:
            raise g.error(StructureError, f"{category} is stated twice for this seat", where, rule="result")
        if len(pm.group("value").lstrip("-")) > MAX_DIGITS:
            raise g.error(StructureError, f"the {category} value is too large", where, rule="result")
        fields[category] = int(pm.group("value"))
    add_result(g, seat, tuple(fields.get(f) for f in LINE_FIELDS), kw_line, kw_column, kw_at)


def add_result_seat(g: Game, text: str, at: int) -> int:
    """The seat of a result line, named ``text`` at ``at``; each seat has at most one result line."""
    no_open_variation(g, "a result line")
    seat = g.seat(text, at)
    if seat in g.result_seats:
        raise g.error(StructureError, f"a second result line for seat {seat} ({g.seats[seat - 1].name})", at,
                      rule="result")
    g.result_seats.add(seat)
    return seat


def add_result(g: Game, seat: int, values: tuple[int | None, ...], line: int, column: int, at: int) -> None:
    """The result of ``seat``: ``values`` in ``LINE_FIELDS`` order (``None`` when not stated), the line's
    keyword at ``at``."""
    fields: dict[str, Any] = {"seat": seat}
    fields.update(zip(LINE_FIELDS, values))
    fields["span"] = g.span(line, column, at)
    g.results.append(make(SeatResult, fields))


def finish(g: Game) -> Record:
    """The Record of a game whose header and body lines have all been read."""
    no_open_variation(g, "the end of the game")
    after: list[str] = []
    ga = g.game_annotation
    tags = list(ga.tags)
    for raw, start, end in g.pending:
        add_note(raw, after, tags, start, end)
    h = g.header
    return make(Record, {
        **{field: h[field] for field in FIELDS},
        "turns": tuple(g.turns),
        "results": tuple(g.results),
        "annotation": annotation(list(ga.before), after, ga.glyph, tags),
        "span": h["span"],
        "start": h.get("start"),  # the [Position] tag as read (header.py), for the engine to judge
    })
