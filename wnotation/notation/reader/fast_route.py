"""The fast route: plain games (tags, turn lines ``LABEL RUN``, result lines; no annotation) lexed by one regex
per line, built from the Lark parser's own terminal patterns and ``lexical``'s decoder of one action (``PIECE_RE``).

Each token sits in an atomic group, which matches as ``re.match`` does at that position, so every token is cut
where Lark's contextual lexer cuts it (blanks are skipped as ``%ignore`` skips them). A turn line's regex takes its
label and the rest of the line; the run is cut at its bars and each piece decoded by ``PIECE_RE``'s first match,
which must reach the piece's end: the cut of ``lexical``'s ``RUN`` in an atomic group (:func:`plain_run`, which a
test holds equal to it and to the grammar's ``action`` rules). This module only lexes: it hands tags, pieces and
result lines to :mod:`.build` and :mod:`.header`, as the Lark route does. On any other line (comments, tags,
``game``, ``//``), on any error and at any doubt it declines (``None``), and the game is read by Lark, the
reference, which also reports the error: errors and their positions are Lark's by construction.

One regex pass per line, no matching again: decoded pieces are kept by their text (without a seat prefix, which
depends on the game's roster), so a piece met before is neither matched nor decoded again, and where the next line
starts and how many line ends a line took are read from the end of its match (the blanks and line ends after its
last token). mypyc compiles this module in a wheel (hatch_build.py), :class:`Decline` too: mypyc compiles a
subclass of ``Exception``, which the interpreted callers catch as any other.
"""

from __future__ import annotations

import re
from typing import Any, Final

from ...support.memo import Memo, memo
from ...model.record import CoinsPaid, Record
from ...model.vocabulary import BASE_RESULT_FIELDS, LINE_FIELDS
from .. import lexical
from ..errors import NotationError
from . import build
from .build import MAX_DIGITS, Draft, Game
from .header import TagEntry


class _Regexes:
    """The fast route's regexes, made once from the parser's terminals."""

    def __init__(self, parser: Any) -> None:
        def term(name: str) -> str:
            pattern: str = parser.get_terminal(name).pattern.to_regexp()
            return pattern

        string = term("STRING")
        nl = r"[ \t]*(?:\n[ \t]*)+"
        self.tag = re.compile(
            rf"\[[ \t]*(?>({term('TAG_NAME')}))[ \t]*((?>{string})(?:[ \t\n]*(?>{string}))*)[ \t]*\]{nl}"
        )
        # the label, then the line's text from its first non-blank to its last: the run, cut by _turn
        self.turn = re.compile(rf"(?>({term('LABEL')}))[ \t]*([^\n]*[^ \t\n]){nl}")
        self.result = re.compile(rf"(?>({term('RESULT')}))[ \t]*(?>({term('RESULTS')})){nl}")
        # The writer's result line of a base game: every field, in BASE_RESULT_FIELDS order, one blank apart,
        # values short enough (a score pad's expansion rows take the general pattern).
        # Whatever it matches, ``result`` matches too, with the same seat and pairs (``RESULTS`` is greedy and
        # a seat reference ends before the blanks and ``:``), so it decodes as ``build.result`` would.
        pairs = "".join(rf" {field} (-?[0-9]{{1,{MAX_DIGITS}}})" for field in BASE_RESULT_FIELDS)
        self.canonical_result = re.compile(rf"result[ \t]*({lexical.SEAT_REF})[ \t]*:{pairs}{nl}")
        self.blanks = re.compile(r"[ \t]*")
        # a comment line's notes, one match each with the blanks after it (Lark's lexer on such a line tries
        # COMMENT and ATAG alone, which start with different characters), then the line's end
        self.note = re.compile(rf"((?>{term('COMMENT')}|{term('ATAG')}))[ \t]*")
        self.line_end = re.compile(r"(?:\n[ \t]*)+")


_instance: Final[list[_Regexes]] = []


def _regexes() -> _Regexes:
    if not _instance:
        from .lark_route import parser

        _instance.append(_Regexes(parser()))
    return _instance[0]


class Decline(Exception):
    """The fast route does not read this game; Lark does."""


def lex_header(text: str) -> tuple[list[TagEntry], int, int]:
    """The tags of a game's text as entries, the offset where the body starts and the number of line ends before
    it. Raises :class:`Decline` unless the header is plain tags starting with ``[Format``."""
    r = _regexes()
    tag_match = r.tag.match
    pos = r.blanks.match(text).end()  # type: ignore[union-attr]
    line = 1
    line_start = 0
    entries: list[TagEntry] = []
    while True:
        m = tag_match(text, pos)
        if m is None:
            break
        at = m.start()
        entries.append((m.group(1), m.start(1), at, line, at - line_start + 1, m.group(2), m.start(2)))
        pos = m.end()
        line += text.count("\n", at, pos)
        line_start = text.rfind("\n", 0, pos) + 1
    if not entries or entries[0][0] != "Format" or text.startswith('"', pos) or (
        text.startswith("[", pos) and not text.startswith("[%", pos)
    ):  # a tag Lark reads differently, or a broken one: Lark tells
        raise Decline
    return entries, pos, line


#: Decoded pieces (an action's text between bars, blanks included) without a seat prefix, by their text: the
#: same few hundred occur again and again. Their positions are relative to the piece. Full, it takes no more.
PIECES: Final[Memo[str, Draft]] = memo("reader: turn pieces as written", 1 << 14)
_PIECES_MAX: Final[int] = PIECES.limit
#: Where each of LINE_FIELDS is among the groups of ``canonical_result`` (its seat is group 1), 0 for a field the
#: writer's base result line does not hold.
_CANONICAL_GROUP: Final[tuple[int, ...]] = tuple(
    BASE_RESULT_FIELDS.index(f) + 2 if f in BASE_RESULT_FIELDS else 0 for f in LINE_FIELDS
)
_RESULT_GROUPS: Final[int] = len(BASE_RESULT_FIELDS) + 1


def read_body(g: Game, pos: int, line: int) -> Record | None:
    """The game of ``g``, whose tags are read (:func:`lex_header`, ``header.read_header``), read by the fast
    route from its body at ``pos`` (after ``line`` line ends) on; ``None`` when Lark must read it, and then the
    turns and notes read so far are dropped (a huge comment already sliced is not held while Lark reads the game
    again)."""
    record = _read_body(g, pos, line)
    if record is None:
        g.turns.clear()
        g.pending.clear()
    return record


def _read_body(g: Game, pos: int, line: int) -> Record | None:
    r = _regexes()
    try:
        text = g.text
        end = len(text)
        turn_match = r.turn.match
        result_match = r.result.match
        canonical_result = r.canonical_result.match
        line_start = text.rfind("\n", 0, pos) + 1
        while pos < end:
            c = text[pos]
            if c == "I":
                m = turn_match(text, pos)
                if m is None:
                    return None
                _turn(g, m, line, line_start)
                tail = m.end(2)
            elif c == "r" or c == "R":
                column = pos - line_start + 1
                m = canonical_result(text, pos)
                if m is not None:
                    seat = build.add_result_seat(g, m.group(1), m.start(1))
                    groups = m.groups()
                    values = tuple(None if k == 0 else int(groups[k - 1]) for k in _CANONICAL_GROUP)
                    build.add_result(g, seat, values, line, column, pos)
                    tail = m.end(_RESULT_GROUPS)
                else:
                    m = result_match(text, pos)
                    if m is None:
                        return None
                    build.result(g, m.group(2), m.start(2), line, column, pos)
                    tail = m.end(2)
            elif c == "{" or (c == "[" and text.startswith("[%", pos)):
                tail = pos
                m = _notes(g, r, text, pos)
                if m is None:
                    return None
            else:
                return None
            # the match ends with the blanks and line ends after its last token, up to the next line's first one
            pos = m.end()
            line += text.count("\n", tail, pos)
            line_start = text.rfind("\n", tail, pos) + 1
        return build.finish(g)
    except (Decline, NotationError):
        return None


def _notes(g: Game, r: _Regexes, text: str, pos: int) -> re.Match[str] | None:
    """A comment line at ``pos``: its notes kept by their bounds in ``text`` for the next turn (a huge comment is
    sliced from the game's text once, when the turn or the game is built: no token is copied); the match of its
    line end, ``None`` when the line holds anything else."""
    note_match = r.note.match
    pending = g.pending
    while True:
        m = note_match(text, pos)
        if m is None:
            return None
        pos = m.end()
        pending.append((text, m.start(), m.end(1)))
        if pos == len(text) or (text[pos] != "{" and not text.startswith("[%", pos)):
            return r.line_end.match(text, pos)


def _turn(g: Game, m: re.Match[str], line: int, line_start: int) -> None:
    """One plain turn line: label ``m[1]`` and run of actions ``m[2]``, on ``line``, which starts at
    ``line_start``."""
    label = m.group(1)
    at = m.start(1)
    age, number = build.begin_turn(g, label, at)
    cache = PIECES
    drafts: list[Draft] = []
    starts: list[int] = []
    off = m.start(2)
    for piece in m.group(2).split("|"):
        draft = cache.get(piece)
        if draft is None:
            draft = _decode(g, piece)
        drafts.append(draft)
        starts.append(off)
        off += len(piece) + 1
    build.end_turn(g, label, at, line, at - line_start + 1, age, number, drafts, m.end(2), None, starts)


def _decode(g: Game, piece: str) -> Draft:
    """The draft of a piece met for the first time, kept unless it depends on the game."""
    pm = _piece_match(piece)
    if pm is None:
        raise Decline
    draft, _ = build.piece(g, pm, 0, 0, 0)
    # a purchase in coins is never cached: whether it may be read depends on the game's Format (spec 3.1)
    if draft.seat is None and len(PIECES) < _PIECES_MAX and type(draft.purchase) is not CoinsPaid:
        PIECES[piece] = draft
    return draft


def _piece_match(piece: str) -> re.Match[str] | None:
    """The decoding of one piece of a run (its text between bars, blanks included) as ``RUN`` in an atomic group
    cuts it: ``PIECE_RE``'s first match at its start, which must reach its end. A piece that another decoding
    would read whole (``sell ??``: the card "sell", glyph ``??``) is not plain: Lark cuts it as the atomic ``RUN``
    does and tells. Without a ``:`` no seat prefix can match, and the decoder need not try one."""
    pm = (lexical.PIECE_RE if ":" in piece else lexical.PIECE_NO_SEAT_RE).match(piece)
    return pm if pm is not None and pm.end() == len(piece) else None


def plain_run(run: str) -> bool:
    """Whether the fast route reads ``run`` (a turn line's text after its label, no blank at either end) as a
    plain run of actions: each piece between bars decoded by :func:`_piece_match`."""
    return all(_piece_match(piece) is not None for piece in run.split("|"))
