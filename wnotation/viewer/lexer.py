"""A Pygments lexer for 7WN, so editors, Sphinx, mkdocs, rich and the viewer's source pane can colour records.

Registered through the ``pygments.lexers`` entry point (alias ``7wn``). It follows the tokens of
``grammar/7wn.lark`` (header tags, turn labels, actions and their clauses, annotations, result lines) closely
enough to colour every valid record with no ``Error`` token; it does not validate (the reader does) and knows no
card names (a name is any run of name words).
"""

from __future__ import annotations

from typing import Mapping, Protocol

from pygments.lexer import RegexLexer, bygroups, default, include  # type: ignore[import-untyped]
from pygments.token import (  # type: ignore[import-untyped]
    Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Whitespace,
)

_WORD = r"[A-Za-z][A-Za-z0-9'\-]*"
_NAME = rf"{_WORD}(?:[ \t]+{_WORD})*"
_SEAT_WORD = r"[A-Za-z0-9\u00c0-\u024f][A-Za-z0-9_'.\-\u00c0-\u024f\u0300-\u036f]*"
_SEAT = rf"(?:#[1-7]|{_SEAT_WORD}(?:[ \t]+{_SEAT_WORD})*)"
_GLYPH = r"(?:!!|\?\?|!\?|\?!|!|\?)"
#: The result line's words, as the grammar's _CATEGORY has them (tests/test_viewer_lexer.py keeps the two equal).
CATEGORY_WORDS = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "cities",
                  "leaders", "armada", "edifice", "total", "coins", "rank", "tablets", "compasses", "gears")
#: The purchase's resources, as the grammar's _RESOURCE has them.
RESOURCE_WORDS = ("wood", "stone", "clay", "ore", "glass", "papyrus", "loom")
_CATEGORY = rf"(?:{'|'.join(CATEGORY_WORDS)})\b"
_RESOURCE = rf"(?:{'|'.join(RESOURCE_WORDS)})\b"
_COMMENT = r"\{[^}\\]*(?:\\[\s\S][^}\\]*)*\}"
_ATAG = r"\[%[A-Za-z][A-Za-z0-9_\-]*(?:[ \t][^\]\\]*(?:\\[\s\S][^\]\\]*)*)?\]"


class SevenWNLexer(RegexLexer):  # type: ignore[misc]  # RegexLexer is untyped (no Pygments stubs)
    """7WN, the notation for games of 7 Wonders (2nd edition)."""

    name = "7WN"
    aliases = ["7wn", "sevenwn"]
    filenames = ["*.7wn"]
    mimetypes = ["text/x-7wn"]
    flags = 0

    tokens = {
        "annotations": [
            (_COMMENT, Comment.Multiline),
            (_ATAG, Name.Decorator),
        ],
        "root": [
            (r"\n", Whitespace),
            (r"[ \t]+", Whitespace),
            include("annotations"),
            (r"(\[)([A-Za-z][A-Za-z0-9_]*)", bygroups(Punctuation, Name.Tag), "tag"),
            (r"(?i)(?:III|II|I)\.[1-7](?=[ \t\n])", Name.Label, "turn"),
            (r"(?i)game\b", Keyword.Declaration, "gameline"),
            (r"(?i)(result)([ \t]+)", bygroups(Keyword.Declaration, Whitespace), "result"),
            (r"\(", Punctuation),  # a variation opens (format 2, spec 6.1); its turn line follows
        ],
        "tag": [
            (r'"[^"\\\n]*(?:\\[^\n][^"\\\n]*)*"', String.Double),
            (r"[ \t\n]+", Whitespace),
            (r"\]", Punctuation, "#pop"),
        ],
        "gameline": [
            (r"\n", Whitespace, "#pop"),
            (r"[ \t]+", Whitespace),
            include("annotations"),
            (_GLYPH, Operator),
        ],
        "turn": [
            (r"\n", Whitespace, "#pop"),
            (r"[ \t]+", Whitespace),
            include("annotations"),
            (r"\|", Punctuation, "action"),
            (r"//", Punctuation, "tail"),
            (r"\)", Punctuation),  # a variation closes at the end of its last turn line
            default("action"),
        ],
        "action": [
            (r"[ \t]+", Whitespace),
            include("annotations"),
            (rf"({_SEAT})([ \t]*)(:)", bygroups(Name.Variable, Whitespace, Punctuation)),
            (r"(?i)(sell|stage)(?=[ \t])", Keyword),
            (r"\?(?![!?])", Keyword.Constant, ("#pop", "clauses")),
            (_NAME, Name.Entity, ("#pop", "clauses")),
            (r"(?=[\n|)])", Whitespace, "#pop"),
        ],
        "clauses": [
            (r"[ \t]+", Whitespace),
            include("annotations"),
            (r"\(", Punctuation, "purchase"),
            (_GLYPH, Operator),
            (r"(,)([ \t]*)((?i:discard))", bygroups(Punctuation, Whitespace, Keyword), "card"),
            (r"(,)([ \t]*)((?i:pick))", bygroups(Punctuation, Whitespace, Keyword), "card"),
            (r"(?=[\n|)]|//)", Whitespace, "#pop"),
        ],
        "card": [
            (r"[ \t]+", Whitespace),
            include("annotations"),
            (r"\?(?![!?])", Keyword.Constant, "#pop"),
            (r"-", Keyword.Constant, "#pop"),
            (_NAME, Name.Entity, "#pop"),
        ],
        "purchase": [
            (r"[ \t]+", Whitespace),
            (r"\)", Punctuation, "#pop"),
            (r",", Punctuation),
            (r"(?i)(?:left|right|l|r)\b", Keyword.Pseudo),
            (r"0|[1-9][0-9]?", Number.Integer),
            (rf"(?i){_RESOURCE}", Name.Builtin),
            (r"(?i)coins?\b", Keyword.Pseudo),  # a purchase stated in coins paid to each side (format 2)
        ],
        "tail": [
            (r"(?=\n)", Whitespace, "#pop"),
            (r"[ \t]+", Whitespace),
            include("annotations"),
            (_GLYPH, Operator),
            (r"\)", Punctuation),
        ],
        "result": [
            (r"\n", Whitespace, "#pop"),
            (r"[ \t]+", Whitespace),
            (rf"({_SEAT})([ \t]*)(:)", bygroups(Name.Variable, Whitespace, Punctuation)),
            (rf"(?i){_CATEGORY}", Name.Attribute),
            (r"-?[0-9]+", Number.Integer),
        ],
    }


def tokens(text: str) -> list[list[str]]:
    """``text`` as ``[short type, text]`` pairs (Pygments' short CSS names: ``k``, ``nl``, ``c``; ``err`` for
    an error token), neighbours of one type merged: what the viewer's source pane colours."""
    from pygments.token import STANDARD_TYPES

    out: list[list[str]] = []
    for kind, value in SevenWNLexer(stripnl=False, ensurenl=False).get_tokens(text):
        if not value:
            continue  # the zero-width look-aheads that end a state
        short = "err" if kind in Error else _short(kind, STANDARD_TYPES)
        if out and out[-1][0] == short:
            out[-1][1] += value
        else:
            out.append([short, value])
    return out


class _TokenType(Protocol):
    """What :func:`_short` reads of a Pygments token type (Pygments has no stubs): its parent, ``None`` at the
    root."""

    @property
    def parent(self) -> _TokenType | None: ...


def _short(kind: _TokenType, table: Mapping[_TokenType, str]) -> str:
    """The short name of ``kind`` or of its nearest ancestor that has one (``Name.Label`` → ``nl``)."""
    while kind not in table and kind.parent is not None:
        kind = kind.parent
    return table.get(kind, "")
