"""The words the notation, the engine and the front ends share, each defined once: score categories and result
fields, Age numerals, position addresses, seat-name matching and neighbours.

Everything here is plain data and small pure functions; the grammar (``grammar/7wn.lark``) spells the same lists
and a test compares them. Non-goals: no rules (who may act, what a card does), no catalogue matching of names.
Only :mod:`wnotation.model.catalog` is imported (the printed resources and Age numerals live there).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from .catalog import AGE_NUMERALS, AGES, RESOURCES

__all__ = [
    "AGES", "AGE_NUMERALS", "NUMERALS", "AGE_OF_NUMERAL", "CATEGORIES", "EXPANSIONS", "EXPANSION_CATEGORIES",
    "EXPANSION_OF_CATEGORY", "SHEET_CATEGORIES", "BASE_RESULT_FIELDS", "RESULT_FIELDS",
    "SYMBOL_FIELDS", "LINE_FIELDS", "RESOURCES", "SIDES",
    "VERBS", "EXTRA_TURN", "END", "Address", "ADDRESSES", "START", "numeral", "age_of_numeral", "turn_label",
    "nfc", "seat_key", "left_of", "right_of", "neighbour", "Side",
]

# --- scores -----------------------------------------------------------------------------------------------------

#: The seven scoring categories of the score sheet (R-SCORE), in the order of the score pad.
CATEGORIES: tuple[str, ...] = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science")
#: The expansions an ``[Expansions]`` tag may name, in the order of their rows on the score pad (R-SCORE-EXP).
EXPANSIONS: tuple[str, ...] = ("Cities", "Leaders", "Armada", "Edifice")
#: Each expansion's row of the score sheet (R-SCORE-EXP), below the seven base rows, in the same order.
EXPANSION_CATEGORIES: tuple[str, ...] = tuple(name.lower() for name in EXPANSIONS)
#: An expansion category -> the expansion (as the tag names it) whose row it is.
EXPANSION_OF_CATEGORY: dict[str, str] = dict(zip(EXPANSION_CATEGORIES, EXPANSIONS))
#: Every row of points a score sheet may have, top to bottom: the base rows, then the expansions' rows.
SHEET_CATEGORIES: tuple[str, ...] = CATEGORIES + EXPANSION_CATEGORIES
#: The fields of a base-game result line: the seven categories, then the total, coins and rank (R-WIN).
BASE_RESULT_FIELDS: tuple[str, ...] = CATEGORIES + ("total", "coins", "rank")
#: The fields of a result line and of a score-sheet row, in the order a writer writes them: the base categories,
#: the expansion categories (only a record naming the expansion states them), then the total, coins and rank.
RESULT_FIELDS: tuple[str, ...] = SHEET_CATEGORIES + ("total", "coins", "rank")
#: A result line may also state the seat's science symbols (R-SCORE): the counts of tablets, compasses and gears,
#: each "any" symbol counted as the symbol it was assigned (R-SCIENCE-ANY); the science points must follow.
SYMBOL_FIELDS: tuple[str, ...] = ("tablets", "compasses", "gears")
#: Every word a result line may state, in the order a writer writes them.
LINE_FIELDS: tuple[str, ...] = RESULT_FIELDS + SYMBOL_FIELDS

# --- Ages, turns and addresses ----------------------------------------------------------------------------------

#: The Age numerals in Age order, as turn labels and addresses write them.
NUMERALS: tuple[str, ...] = tuple(AGE_NUMERALS[a] for a in AGES)
AGE_OF_NUMERAL: dict[str, int] = {n: a for a, n in AGE_NUMERALS.items()}
#: The number of Babylon's extra turn (after turn 6; R-BABYLON-N1).
EXTRA_TURN = 7
#: The ``turn`` of an :class:`Address` at the end of an Age (after its military conflicts).
END = 8

# Python's case-insensitive matching lets two non-ASCII letters match ASCII I: İ (U+0130) and ı (U+0131).
_ASCII_I = str.maketrans({"\u0130": "i", "\u0131": "i"})


def numeral(age: int) -> str:
    """``2`` → ``II``. Raises ``KeyError`` for an age outside 1..3."""
    return AGE_NUMERALS[age]


def age_of_numeral(text: str) -> int:
    """``II``, ``ii`` (or ``ıı``, which ``(?i:II)`` also matches) → 2. Raises ``KeyError`` for another text."""
    if not (text.isupper() and text.isascii()):
        text = text.translate(_ASCII_I).upper()
    return AGE_OF_NUMERAL[text]


def turn_label(age: int, number: int) -> str:
    """The label of turn ``number`` of ``age`` as the writer writes it: ``II.3``."""
    return f"{AGE_NUMERALS[age]}.{number}"


_ADDRESS = re.compile(r"(?i:(III|II|I)\.([0-7]|end))")


@dataclass(frozen=True, slots=True, order=True)
class Address:
    """A position of a game: ``I.0`` (Age I dealt), ``II.3`` (after turn 3 of Age II), ``I.7`` (after Babylon's
    extra turn), ``III.end`` (after Age III's military: the end of the game), or ``start`` (before anything is
    dealt; ``age`` 0). Ordered as the game goes; ``str`` is the spelling the Replay uses for positions."""

    age: int
    turn: int  # 0..7, or END

    def __post_init__(self) -> None:
        if not ((self.age, self.turn) == (0, 0) or (self.age in AGE_NUMERALS and 0 <= self.turn <= END)):
            raise ValueError(f"no address for Age {self.age}, turn {self.turn}")

    @classmethod
    def parse(cls, text: str) -> Address:
        """``I.0``, ``ii.3``, ``III.end``, ``start`` in any case, blanks around allowed. Raises ``ValueError``
        naming the forms for any other text."""
        word = text.strip()
        if word.casefold() == "start":
            return START
        m = _ADDRESS.fullmatch(word)
        if m is None:
            raise ValueError(f"address {text!r}: expected start, or an Age numeral and a position "
                             "(I.0 dealt, II.3 after a turn, I.7 after the extra turn, III.end)")
        turn = m.group(2)
        return cls(age_of_numeral(m.group(1)), END if turn.isalpha() else int(turn))

    @property
    def ended(self) -> bool:
        """True at the end of an Age (``I.end``)."""
        return self.turn == END

    @property
    def is_start(self) -> bool:
        return self.age == 0

    def __str__(self) -> str:
        if self.age == 0:
            return "start"
        return f"{AGE_NUMERALS[self.age]}.{'end' if self.turn == END else self.turn}"

    def __repr__(self) -> str:
        return f"Address.parse({str(self)!r})"


#: Before anything is dealt: where a record without any turn stops.
START = Address(0, 0)
#: Every position a game can have, in game order (``I.7`` and the like exist only after an extra turn).
ADDRESSES: tuple[Address, ...] = tuple(Address(a, t) for a in AGES for t in (*range(EXTRA_TURN + 1), END))

# --- seats --------------------------------------------------------------------------------------------------------

Side = Literal["left", "right"]
#: A seat's two neighbours, as purchases name them (``L``/``R`` abbreviate them).
SIDES: tuple[Side, ...] = ("left", "right")
#: The verbs of an action that does not build its card (``sell X``, ``stage X``).
VERBS: tuple[str, ...] = ("sell", "stage")


def nfc(name: str) -> str:
    """A seat name in Unicode normalization form C, as the reader keeps and matches names (``José`` typed as
    ``e`` and a combining accent is ``José``)."""
    return name if name.isascii() else unicodedata.normalize("NFC", name)


def seat_key(name: str) -> str:
    """The key two spellings of a seat name match by (spec 7.5): NFC, runs of blanks as one space, no blanks
    around, case folded. ``"  Anne  Marie"`` and ``"anne marie"`` have the same key."""
    return nfc(" ".join(name.split())).casefold()


def left_of(seat: int, players: int) -> int:
    """The left neighbour of ``seat`` (1-based) at a table of ``players``: seat i+1, the last seat's is seat 1
    (R-SEAT)."""
    return seat % players + 1


def right_of(seat: int, players: int) -> int:
    """The right neighbour of ``seat`` (1-based) at a table of ``players``: seat i-1, seat 1's is the last
    (R-SEAT)."""
    return (seat - 2) % players + 1


def neighbour(seat: int, players: int, side: Side) -> int:
    """``left_of`` or ``right_of`` by ``side``."""
    return left_of(seat, players) if side == "left" else right_of(seat, players)
