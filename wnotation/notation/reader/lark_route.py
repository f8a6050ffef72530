"""The reference route: the Lark LALR parser of ``grammar/7wn.lark`` with an inline transformer (no tree).

The transformer's callbacks are named after the grammar's rules and only cut tokens: a tag into a
:data:`~.header.TagEntry`, a run of actions into pieces and clauses (with ``lexical``'s decoders), annotations to
the element they follow. Every check and every Record model is :mod:`.build`'s. A parse failure is turned into a
precise syntax error by :mod:`..diagnose`, which this module calls (and which imports nothing of the reader).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from lark import Token, Transformer
from lark.exceptions import UnexpectedInput

from ...model.record import Record
from .. import grammar, lexical
from . import build
from ..errors import StructureError
from .build import Draft, Game, PickDraft
from .header import TagEntry, read_header

_STATE: ContextVar[Game] = ContextVar("wnotation_7wn_game")


class _Transformer(Transformer[Any, Any]):
    """Callbacks named after the grammar's rules, called as the LALR parser reduces."""

    __visit_tokens__ = False

    def tag(self, children: list[Token]) -> list[Token]:
        return children

    def header(self, tags: list[list[Any]]) -> None:
        g = _STATE.get()
        read_header(g, [_entry(g.text, tag) for tag in tags])

    def notes(self, children: list[Token]) -> None:
        _STATE.get().pending.extend(tok.value for tok in children)

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
    """A turn line's tokens: the ``(`` opening a variation and its comments, the label, runs of actions cut by
    annotations, the ``//`` tail, the ``)`` closing variations."""
    if children[0].type == "VOPEN":
        opener = children[0]
        k = 1
        while children[k].type != "LABEL":
            k += 1
        build.open_variation(g, opener.start_pos, opener.line, opener.column, [t.value for t in children[1:k]])
        children = children[k:]
    closers = []
    while children[-1].type == "VCLOSE":
        closers.append(children.pop())
    label = children[0]
    age, number = build.begin_turn(g, label.value, label.start_pos)
    actions: list[Draft] = []
    end = [label.end_pos]  # where the last action's token ends
    before: list[str] = []
    before_tags: list[tuple[str, str]] = []
    current: Draft | None = None
    pick: PickDraft | None = None  # the pick whose annotations come next
    in_pick = False  # between ", pick" and the picked card
    second_pick = False  # that pick is the action's second (refused at its card, spec 12.2 clause)
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
                build.add_note(tok.value, t_after, t_tags)
        elif kind == "RUN":
            current, pick = _pieces(g, tok, 0, actions, before, before_tags, end)
            before, before_tags = [], []
        elif kind == "CONT":
            value = tok.value
            bar = value.find("|")
            head_end = len(value) if bar < 0 else bar
            if value[:head_end].strip():
                assert current is not None
                m = lexical.CLAUSES_RE.fullmatch(value, 0, head_end)
                assert m is not None, value
                rel = m.start("clauses")
                pick = build.clauses(g, current, m.group("clauses"), tok.start_pos + rel, tok.line, tok.column + rel)
                end[0] = tok.start_pos + len(value[:head_end].rstrip())  # the action goes on to its last clause
            if bar >= 0:
                current, pick = _pieces(g, tok, bar + 1, actions, [], [], end)
        elif kind == "BAR":
            current, pick = None, None
        elif kind == "PICK_OPEN":
            assert current is not None
            second_pick = current.pick is not None
            pick = PickDraft(tok.start_pos, tok.line, tok.column) if second_pick else \
                build.new_pick(g, current, tok.start_pos, tok.line, tok.column)
            in_pick = True
        elif kind == "PICK_REST":
            assert current is not None and pick is not None
            in_pick = False
            value = tok.value
            bar = value.find("|")
            head_end = len(value) if bar < 0 else bar
            m = lexical.PICKED_CLAUSES_RE.fullmatch(value, 0, head_end)
            assert m is not None, value
            at = m.start("picked")
            if second_pick:
                raise g.error(StructureError, "a second pick clause: a stage gives one pick", tok.start_pos + at,
                              rule="clause")
            pick.at, pick.line, pick.column = tok.start_pos + at, tok.line, tok.column + at  # a pick is at its card
            build.picked(g, pick, m.group("picked"), tok.start_pos + at)
            end[0] = tok.start_pos + len(value[:head_end].rstrip())
            if m.group("clauses"):
                rel = m.start("clauses")
                pick = build.clauses(g, current, m.group("clauses"), tok.start_pos + rel, tok.line, tok.column + rel)
            if bar >= 0:
                current, pick = _pieces(g, tok, bar + 1, actions, [], [], end)
        elif kind == "TAIL":
            tail = True
        elif current is None:  # before the next action
            build.add_note(tok.value, before, before_tags)
        elif in_pick:
            assert pick is not None
            build.add_note(tok.value, pick.before, pick.tags)
        elif pick is not None:
            build.add_note(tok.value, pick.after, pick.tags)
        else:
            _, notes_after, notes_tags = current.annotate()
            build.add_note(tok.value, notes_after, notes_tags)
    build.end_turn(g, label.value, label.start_pos, label.line, label.column, age, number, actions, end[0],
                   (t_after, t_glyph, t_tags))
    for closer in reversed(closers):
        build.close_variation(g, closer.start_pos)


def _pieces(g: Game, tok: Any, start: int, actions: list[Draft], before: list[str], tags: list[tuple[str, str]],
            end: list[int]) -> tuple[Draft, PickDraft | None]:
    """The actions of ``tok`` from ``start`` on (separated by ``|``); return the last and its pick."""
    value = tok.value
    pos = start
    while True:
        bar = value.find("|", pos)
        stop = len(value) if bar < 0 else bar
        m = lexical.PIECE_RE.fullmatch(value, pos, stop)
        assert m is not None, value[pos:stop]
        current, pick = build.piece(g, m, tok.start_pos, tok.line, tok.column)
        if before or tags:
            notes_before, _, notes_tags = current.annotate()
            notes_before.extend(before)
            notes_tags.extend(tags)
            before, tags = [], []
        actions.append(current)
        end[0] = tok.end_pos
        if bar < 0:
            return current, pick
        pos = bar + 1


_parser_instance: list[Any] = []


def parser() -> Any:
    """The one Lark parser of the process, with the inline transformer."""
    if not _parser_instance:
        _parser_instance.append(grammar.build(_Transformer()))
    return _parser_instance[0]


def read(text: str, source: str, line0: int, off0: int) -> Record:
    """One game read by the Lark parser (the reference route); ``text`` ends with a line end. Raises
    :class:`~wnotation.notation.NotationError`."""
    g = Game(text, source, line0, off0)
    token = _STATE.set(g)
    try:
        record: Record = parser().parse(text)
        return record
    except UnexpectedInput as exc:
        from ..diagnose import diagnose

        error = diagnose(exc, text, source, line0, off0)
    finally:
        _STATE.reset(token)
    # raised outside the handler, so that the error holds no __context__: Lark's exception keeps the parser (local
    # callbacks), which a pickler of exception chains (tblib, installed by Dask's workers) cannot pickle
    raise error


def from_tree(tree: Any, text: str, source: str = "<string>", line0: int = 0, off0: int = 0) -> Record:
    """The Record of a parse tree of ``text`` made by ``grammar.tree_parser()``, transformed afterwards by the same
    callbacks: the tree route, kept as the test oracle of the inline one (both give equal Records and spans)."""
    token = _STATE.set(Game(text, source, line0, off0))
    try:
        record: Record = _Transformer().transform(tree)
        return record
    finally:
        _STATE.reset(token)
