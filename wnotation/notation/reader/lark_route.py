"""The reference route: the Lark LALR parser of ``grammar/7wn.lark`` with an inline transformer (no tree).

The transformer has a method per rule of the grammar: a tag becomes a :data:`~.header.TagEntry`, a purchase its
Record model, a clause and an action what was written with its annotations; ``turn`` checks and builds the line's
actions in the order they are written. Every check and every Record model is :mod:`.build`'s. A parse failure is
turned into a precise syntax error by :mod:`..diagnose`, which this module calls (and which imports nothing of the
reader).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from lark import Token, Transformer
from lark.exceptions import UnexpectedInput

from ...model.record import UNKNOWN, CoinsPaid, Record, StatedPurchase, make
from .. import grammar, lexical
from . import build
from ..errors import Origin, StructureError
from .build import Draft, Game
from .header import TagEntry, read_header

_STATE: ContextVar[Game] = ContextVar("wnotation_7wn_game")
_UNPLACED = Origin()  # a text that is its whole input


class _Clause:
    """A ``, discard X`` or ``, pick Y`` clause as written: its keyword and card tokens, its annotations."""

    __slots__ = ("keyword", "card", "glyph", "before", "after")

    def __init__(self, keyword: Any, card: Any, glyph: Any, before: list[Any], after: list[Any]) -> None:
        self.keyword, self.card, self.glyph, self.before, self.after = keyword, card, glyph, before, after


class _Action:
    """An action as written: its tokens, purchase, annotations after its card, clauses, and where it ends."""

    __slots__ = ("seat", "verb", "card", "purchase", "glyph", "notes", "clauses", "end")

    def __init__(self) -> None:
        self.seat: Any = None
        self.verb: Any = None
        self.card: Any = None
        self.purchase: tuple[StatedPurchase | CoinsPaid, int] | None = None
        self.glyph: Any = None
        self.notes: list[Any] = []
        self.clauses: list[_Clause] = []
        self.end = 0


_NOTES = frozenset(("COMMENT", "ATAG"))


class _Transformer(Transformer[Any, Any]):
    """Callbacks named after the grammar's rules, called as the LALR parser reduces.

    The rules of an action (``unit``, ``group``, ``paid``, ``purchase``, ``clause``, ``action``) only gather what
    was written; ``turn`` makes every check, in the order the line is written, so that a line's first error is
    the one reported whatever rule finds it (and after the lookahead token Lark lexes before reducing a turn)."""

    __visit_tokens__ = False

    def tag(self, children: list[Token]) -> list[Token]:
        return children

    def header(self, tags: list[list[Any]]) -> None:
        g = _STATE.get()
        read_header(g, [_entry(g.text, tag) for tag in tags])

    def notes(self, children: list[Token]) -> None:
        _STATE.get().pending.extend([(tok.value, 0, len(tok.value)) for tok in children])

    def game(self, children: list[Any]) -> None:
        glyph = None
        notes = []
        for tok in children[1:]:
            if tok.type == "GLYPH":
                glyph = tok.value
            else:
                notes.append(tok.value)
        build.game_line(_STATE.get(), children[0].start_pos, glyph, notes)

    def result(self, children: list[Any]) -> None:
        kw, tok = children
        build.result(_STATE.get(), tok.value, tok.start_pos, kw.line, kw.column, kw.start_pos)

    def unit(self, children: list[Any]) -> list[str]:
        """``2 wood`` → ``["wood", "wood"]``."""
        return [lexical.keyword(children[-1].value)] * (int(children[0].value) if len(children) == 2 else 1)

    def group(self, children: list[Any]) -> tuple[str, list[str]]:
        """``L clay 2 wood``: the side and the resources bought from it."""
        return lexical.SIDE_OF[lexical.keyword(children[0].value)], [r for unit in children[1:] for r in unit]

    def paid(self, children: list[Any]) -> tuple[str, int]:
        """``R 2 coins``: the side and the coins paid to it."""
        return lexical.SIDE_OF[lexical.keyword(children[0].value)], int(children[1].value)

    def purchase(self, children: list[Any]) -> tuple[StatedPurchase | CoinsPaid, int, int]:
        """The purchase (units sorted per side; or, in coins, a side's payments added up), where its ``(`` is and
        where its ``)`` ends."""
        opener, closer = children[0], children[-1]
        parts = children[1:-1]
        if parts and type(parts[0][1]) is int:
            paid = {"left": 0, "right": 0}
            for side, count in parts:
                paid[side] += count
            return make(CoinsPaid, {"left_coins": paid["left"], "right_coins": paid["right"]}), \
                opener.start_pos, closer.end_pos
        sides: dict[str, list[str]] = {"left": [], "right": []}
        for side, units in parts:
            sides[side].extend(units)
        return make(StatedPurchase, {"left": tuple(sorted(sides["left"])),
                                           "right": tuple(sorted(sides["right"]))}), opener.start_pos, closer.end_pos

    def clause(self, children: list[Any]) -> _Clause:
        keyword = children[0]
        k = 1
        before = []
        while children[k].type in _NOTES:  # a pick's annotations before its card
            before.append(children[k])
            k += 1
        card = children[k]
        glyph = None
        if k + 1 < len(children) and children[k + 1].type in ("GLYPH", "UGLYPH"):
            glyph = children[k + 1]
            k += 1
        return _Clause(keyword, card, glyph, before, children[k + 1:])

    def action(self, children: list[Any]) -> _Action:
        a = _Action()
        for child in children:
            if type(child) is _Clause:
                a.clauses.append(child)
                a.end = (child.glyph or child.card).end_pos
                continue
            if type(child) is tuple:
                a.purchase = child[0], child[1]
                a.end = child[2]
                continue
            kind = child.type
            if kind in _NOTES:
                a.notes.append(child)
                continue
            if kind == "SEAT":
                a.seat = child
            elif kind == "VERB":
                a.verb = child
            elif kind in ("NAME", "UNKNOWN"):
                a.card = child
            else:  # GLYPH, UGLYPH
                a.glyph = child
            a.end = child.end_pos
        return a

    def turn(self, children: list[Any]) -> None:
        _turn(_STATE.get(), children)

    def body(self, children: list[Any]) -> None:
        return None

    def start(self, children: list[Any]) -> Record:
        return build.finish(_STATE.get())


# Tokens the parser hands over always have their positions (Lark types them optional), so they are typed Any here.


def _entry(text: str, tag: list[Any]) -> TagEntry:
    name, first, last = tag[0], tag[1], tag[-1]
    back = name.start_pos - text.rfind("[", 0, name.start_pos)
    return (name.value, name.start_pos, name.start_pos - back, name.line, name.column - back,
            text[first.start_pos : last.end_pos], first.start_pos)


def _turn(g: Game, children: list[Any]) -> None:
    """A turn line: the ``(`` opening a variation and its comments, the label, the actions and the annotations
    before each, the ``//`` tail, the ``)`` closing variations; checked and built in the order they are written."""
    k = 0
    if children[0].type == "VOPEN":
        opener = children[0]
        k = 1
        while children[k].type != "LABEL":
            k += 1
        build.open_variation(g, opener.start_pos, opener.line, opener.column, [t.value for t in children[1:k]])
    closers = 0
    while type(children[-1 - closers]) is not _Action and children[-1 - closers].type == "VCLOSE":
        closers += 1
    label = children[k]
    age, number = build.begin_turn(g, label.value, label.start_pos)
    drafts: list[Draft] = []
    end = label.end_pos
    before: list[Any] = []
    tail: tuple[list[str], str | None, list[tuple[str, str]]] | None = None
    for child in children[k + 1 : len(children) - closers]:
        if type(child) is _Action:
            drafts.append(_draft(g, child, before))
            end = child.end
            before = []
        elif tail is not None:
            if child.type == "GLYPH":
                tail = tail[0], child.value, tail[2]
            else:
                build.add_note(child.value, tail[0], tail[2])
        elif child.type == "TAIL":
            tail = [], None, []
        elif child.type != "BAR":
            before.append(child)
    build.end_turn(g, label.value, label.start_pos, label.line, label.column, age, number, drafts, end,
                   tail if tail is not None else ([], None, []))
    for closer in children[len(children) - closers :]:
        build.close_variation(g, closer.start_pos)


def _draft(g: Game, a: _Action, before: list[Any]) -> Draft:
    """The action ``a`` checked against the catalogue and the game's format, its annotations attached (those
    written ``before`` it first)."""
    first = a.seat or a.verb or a.card
    d = Draft(first.start_pos, first.line, first.column)
    if a.seat is not None:
        d.seat, d.seat_at = a.seat.value, a.seat.start_pos
    if a.verb is not None:
        d.use = lexical.keyword(a.verb.value)
    if a.card.type == "NAME":
        d.card = g.card(a.card.value, a.card.start_pos, played=True)
    if a.glyph is not None:
        d.glyph = a.glyph.value
    if a.purchase is not None:
        d.purchase, where = a.purchase
        if type(d.purchase) is CoinsPaid:
            build.coins_allowed(g, where)
    if before or a.notes:
        notes_before, notes_after, notes_tags = d.annotate()
        for tok in before:
            build.add_note(tok.value, notes_before, notes_tags)
        for tok in a.notes:
            build.add_note(tok.value, notes_after, notes_tags)
    for c in a.clauses:
        card = c.card
        if c.keyword.type == "DISCARD":
            if d.discard is not None:
                raise g.error(StructureError, "a second discard clause: an action discards one card",
                              card.start_pos, rule="clause")
            d.discard = g.card(card.value, card.start_pos)
            notes: tuple[list[str], list[tuple[str, str]]] = d.annotate()[1:]
        else:
            pick = build.new_pick(g, d, card.start_pos, card.line, card.column)
            if card.type == "NAME":
                pick.card = g.card(card.value, card.start_pos)
            elif card.type == "UNKNOWN":
                pick.card = UNKNOWN
            if c.glyph is not None:
                pick.glyph = c.glyph.value
            for tok in c.before:
                build.add_note(tok.value, pick.before, pick.tags)
            notes = pick.after, pick.tags
        for tok in c.after:
            build.add_note(tok.value, *notes)
    return d


_parser_instance: list[Any] = []


def parser() -> Any:
    """The one Lark parser of the process, with the inline transformer."""
    if not _parser_instance:
        _parser_instance.append(grammar.build(_Transformer()))
    return _parser_instance[0]


def read(text: str, origin: Origin) -> Record:
    """One game read by the Lark parser (the reference route), placed in its file by ``origin``; ``text`` ends with
    a line end. Raises :class:`~wnotation.notation.NotationError`."""
    g = Game(text, origin)
    token = _STATE.set(g)
    try:
        record: Record = parser().parse(text)
        return record
    except UnexpectedInput as exc:
        from ..diagnose import diagnose

        error = diagnose(exc, text, origin)
    finally:
        _STATE.reset(token)
    # raised outside the handler, so that the error holds no __context__: Lark's exception keeps the parser (local
    # callbacks), which a pickler of exception chains (tblib, installed by Dask's workers) cannot pickle
    raise error


def from_tree(tree: Any, text: str, origin: Origin = _UNPLACED) -> Record:
    """The Record of a parse tree of ``text`` made by ``grammar.tree_parser()``, transformed afterwards by the same
    callbacks: the tree route, kept as the test oracle of the inline one (both give equal Records and spans)."""
    token = _STATE.set(Game(text, origin))
    try:
        record: Record = _Transformer().transform(tree)
        return record
    finally:
        _STATE.reset(token)
