"""The lexical pieces of 7WN as compiled Python regexes, and the escape rules of strings and comments.

The fast route's coarse patterns (a run of actions is one match) are decoded here; each pattern below spells the
same language as the terminal or the rules of the same name in ``grammar/7wn.lark`` (tests compare them).
The reader, the writer and the error diagnosis share these definitions; nothing here knows the catalogue.
mypyc compiles this module in a wheel (hatch_build.py): the compiled patterns are ``Final``, read by the compiled
reader modules without a look-up.
"""

from __future__ import annotations

import re
from typing import Final

from ..model.vocabulary import AGE_OF_NUMERAL as AGE_OF_NUMERAL  # re-exported for callers of this module
from ..model.vocabulary import NUMERALS as NUMERALS
from ..model.vocabulary import LINE_FIELDS, RESOURCES, SIDES, VERBS, age_of_numeral
from ..model.vocabulary import nfc as nfc

SP = r"[ \t]+"
OSP = r"[ \t]*"
WORD = r"[A-Za-z][A-Za-z0-9'\-]*"
NAME = rf"{WORD}(?:{SP}{WORD})*"
GLYPH = r"(?:!!|\?\?|!\?|\?!|!|\?)"
RESOURCE = rf"(?i:{'|'.join(RESOURCES)})"
SIDE = rf"(?i:{'|'.join(SIDES + tuple(side[0] for side in SIDES))})"
UNIT = rf"(?:[1-9][0-9]?{OSP})?{RESOURCE}"
GROUP = rf"{SIDE}{SP}{UNIT}(?:{SP}{UNIT})*"
COINS_WORD = r"(?i:coins|coin)"
PAID = rf"{SIDE}{SP}(?:0|[1-9][0-9]?){OSP}{COINS_WORD}"
PURCHASE = rf"\({OSP}(?:{GROUP}(?:{OSP},{OSP}{GROUP})*|{PAID}(?:{OSP},{OSP}{PAID})*)?{OSP}\)"
SEAT_WORD = r"[A-Za-z0-9\u00c0-\u024f][A-Za-z0-9_'.\-\u00c0-\u024f\u0300-\u036f]*"
SEAT_REF = rf"(?:{SEAT_WORD}(?:{SP}{SEAT_WORD})*|#[1-7])"
VERB = rf"(?i:{'|'.join(VERBS)})"
CARD = rf"(?:{NAME}|\?)"
PICKED = rf"(?:{NAME}(?:{OSP}{GLYPH})?|\?(?:{SP}{GLYPH})?|-(?:{OSP}{GLYPH})?)"
CLAUSE = rf"{OSP},{OSP}(?:(?i:discard){SP}{CARD}|(?i:pick){SP}{PICKED})"
CARD_PART = (
    rf"(?:{NAME}(?:{OSP}{PURCHASE})?(?:{OSP}{GLYPH})?"
    rf"|\?(?:{OSP}{PURCHASE}(?:{OSP}{GLYPH})?|{SP}{GLYPH})?)"
)
MAIN = rf"(?:{SEAT_REF}{OSP}:{OSP})?(?:{VERB}{SP})?{CARD_PART}"
PIECE = rf"{MAIN}(?:{CLAUSE})*"
BAR_SEP = rf"{OSP}\|{OSP}"
CATEGORY = rf"(?i:{'|'.join(LINE_FIELDS)})"

# Terminals of the grammar, for the equivalence test and the diagnosis; and RUN, a whole run of actions without
# annotations ("Lumber Yard | sell ? | stage Altar"), the fast route's one regex for what the grammar's action rules
# accept on a plain turn line (a test holds it equal to them).
TERMINALS = {
    "RUN": rf"{PIECE}(?:{BAR_SEP}{PIECE})*",
    "PICK": rf",{OSP}(?i:pick)(?=[ \t])",
    "RESULTS": rf"{SEAT_REF}{OSP}:(?:{SP}{CATEGORY}{SP}-?[0-9]+)*",
    "LABEL": r"(?i:III|II|I)\.[1-7](?![^ \t\n0-9.])",
    "COMMENT": r"\{[^}\\]*(?:\\[\s\S][^}\\]*)*\}",
    "ATAG": r"\[%[A-Za-z][A-Za-z0-9_\-]*(?:[ \t][^\]\\]*(?:\\[\s\S][^\]\\]*)*)?\]",
    "STRING": r'"[^"\\\n]*(?:\\[^\n][^"\\\n]*)*"',
    "TAG_NAME": r"[A-Za-z][A-Za-z0-9_]*",
}

# Decoders: one piece (an action with its clauses), one clause, a purchase group, a unit, a result pair.
PIECE_RE: Final[re.Pattern[str]] = re.compile(
    rf"{OSP}(?:(?P<seat>{SEAT_REF}){OSP}:{OSP})?(?:(?P<verb>{VERB}){SP})?"
    rf"(?:(?P<name>{NAME})(?:{OSP}(?P<purchase>{PURCHASE}))?(?:{OSP}(?P<glyph>{GLYPH}))?"
    rf"|(?P<unknown>\?)(?:{OSP}(?P<upurchase>{PURCHASE})(?:{OSP}(?P<uglyph>{GLYPH}))?|{SP}(?P<uglyph2>{GLYPH}))?)"
    rf"(?P<clauses>(?:{CLAUSE})*){OSP}"
)
# The same decoder for a piece without a seat prefix (no ':' in it), which need not try one first; its seat
# group never matches, so both have the same groups.
PIECE_NO_SEAT_RE: Final[re.Pattern[str]] = re.compile(
    PIECE_RE.pattern.replace(rf"(?:(?P<seat>{SEAT_REF}){OSP}:{OSP})?", "(?P<seat>(?!))?", 1)
)
assert PIECE_NO_SEAT_RE.groups == PIECE_RE.groups and PIECE_NO_SEAT_RE.pattern != PIECE_RE.pattern
CLAUSES_RE: Final[re.Pattern[str]] = re.compile(rf"{OSP}(?P<clauses>(?:{CLAUSE})*){OSP}")
PICKED_CLAUSES_RE: Final[re.Pattern[str]] = re.compile(rf"{OSP}(?P<picked>{PICKED})(?P<clauses>(?:{CLAUSE})*){OSP}")
CLAUSE_RE: Final[re.Pattern[str]] = re.compile(
    rf"{OSP},{OSP}(?:(?i:discard){SP}(?P<discard>{CARD})|(?i:pick){SP}(?P<pick>{PICKED}))"
)
PICKED_RE: Final[re.Pattern[str]] = re.compile(
    rf"(?:(?P<name>{NAME})(?:{OSP}(?P<glyph>{GLYPH}))?|(?P<unknown>\?)(?:{SP}(?P<uglyph>{GLYPH}))?"
    rf"|(?P<none>-)(?:{OSP}(?P<nglyph>{GLYPH}))?)"
)
GROUP_RE: Final[re.Pattern[str]] = re.compile(rf"(?P<side>{SIDE}){SP}(?P<units>{UNIT}(?:{SP}{UNIT})*)")
PAID_RE: Final[re.Pattern[str]] = re.compile(rf"(?P<side>{SIDE}){SP}(?P<count>0|[1-9][0-9]?){OSP}{COINS_WORD}")
UNIT_RE: Final[re.Pattern[str]] = re.compile(rf"(?:(?P<count>[1-9][0-9]?){OSP})?(?P<resource>{RESOURCE})")
RESULTS_RE: Final[re.Pattern[str]] = re.compile(
    rf"(?P<seat>{SEAT_REF}){OSP}:(?P<pairs>(?:{SP}{CATEGORY}{SP}-?[0-9]+)*)"
)
PAIR_RE: Final[re.Pattern[str]] = re.compile(rf"{SP}(?P<category>{CATEGORY}){SP}(?P<value>-?[0-9]+)")
SEAT_REF_RE: Final[re.Pattern[str]] = re.compile(SEAT_REF)
TAG_NAME_RE: Final[re.Pattern[str]] = re.compile(TERMINALS["TAG_NAME"])
ATAG_KEY_RE: Final[re.Pattern[str]] = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")
DATE_RE: Final[re.Pattern[str]] = re.compile(r"[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}")
UNKNOWN_DATE = "????.??.??"
BOUNDARY_RE: Final[re.Pattern[str]] = re.compile(r"^[ \t]*\[Format(?![A-Za-z0-9_])", re.M)


def age_of_label(label: str) -> int:
    """The Age of a turn label matched by ``LABEL`` in any case (``II.3``, ``ii.3``, ``ıı.3``)."""
    return age_of_numeral(label[: label.index(".")])


SIDE_OF: Final[dict[str, str]] = {"l": "left", "left": "left", "r": "right", "right": "right"}


# Python's case-insensitive matching lets four non-ASCII letters match ASCII ones: ſ (s), K (Kelvin, k), İ and ı (i).
_ASCII_FOLD: Final[dict[int, str]] = str.maketrans({"\u017f": "s", "\u212a": "k", "\u0130": "i", "\u0131": "i"})


def keyword(word: str) -> str:
    """A keyword matched case-insensitively (``Sell``, ``ſell``, ``WOOD``) in its lower-case ASCII spelling."""
    return word.translate(_ASCII_FOLD).lower() if not word.isascii() else word.lower()


def unescape(text: str, closer: str) -> str:
    """Undo ``\\\\`` and ``\\<closer>``; a backslash before any other character stays as written. ``text`` itself
    when it holds no backslash, else one ``replace`` (a huge comment is unescaped in memory about its size; a list
    of its characters took eight bytes each). Read left to right, a run of backslashes is pairs first, so the text
    is cut at each escaped backslash (``\\\\``) and the closers escaped in each part are undone."""
    if "\\" not in text:
        return text
    escaped = "\\" + closer
    if "\\\\" not in text:
        return text.replace(escaped, closer)
    return "\\".join(part.replace(escaped, closer) for part in text.split("\\\\"))


def escape(text: str, closer: str) -> str:
    """Escape every backslash and every ``closer`` with a backslash (the canonical escaping)."""
    return text.replace("\\", "\\\\").replace(closer, "\\" + closer)


def comment_text(raw: str, start: int = 0, end: int = -1) -> str:
    """The text of a ``{…}`` token (``raw``, or ``raw[start:end]``: a comment in a game's text, whose token is not
    copied): unescaped, minus one padding space after ``{`` and before ``}``. Sliced once: a huge comment is copied
    once, not once per padding space (twice, briefly, when it holds a backslash)."""
    start, end = start + 1, (len(raw) if end < 0 else end) - 1
    if start < end and raw[start] == " ":
        start += 1
    if start < end and raw[end - 1] == " ":
        end -= 1
    return unescape(raw[start:end], "}")


def write_comment(text: str) -> str:
    """The canonical ``{ text }`` for a comment text (padding spaces added, ``\\`` and ``}`` escaped)."""
    return "{ " + escape(text, "}") + " }"


def atag_pair(raw: str, start: int = 0, end: int = -1) -> tuple[str, str]:
    """``[%key value]`` (``raw``, or ``raw[start:end]``) → ``(key, value)``: the value is everything after the one
    separating blank, sliced once from ``raw``."""
    end = len(raw) if end < 0 else end
    m = ATAG_KEY_RE.match(raw, start + 2, end - 1)
    assert m is not None, raw[start:end]  # the token matched ATAG
    return m.group(), unescape(raw[m.end() + 1 : end - 1], "]")


def write_atag(key: str, value: str) -> str:
    return f"[%{key} {escape(value, ']')}]" if value else f"[%{key}]"


def string_value(raw: str) -> str:
    """The value of a ``"…"`` token (``\\"`` and ``\\\\`` unescaped)."""
    return unescape(raw[1:-1], '"')


def write_string(value: str) -> str:
    return '"' + escape(value, '"') + '"'
