"""Where things are on a line of a 7WN document: the ends of tokens, names and actions, turn labels, card names.

Plain string scanning with no game knowledge beyond the notation's punctuation (and the catalogue, for a card
name): the diagnostics' ranges, completion, hover and the code actions all measure lines with these.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...model import catalog as _catalog

LABEL = re.compile(r"[ \t]*((?i:III|II|I))\.([1-7])(?=[ \t\n]|$)")
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)("?)')
NAME_CHAR = re.compile(r"[A-Za-z0-9'\-#\u00c0-\u024f]")


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text from ``(line, column)`` to ``(end_line, end_column)`` (0-based, code points) by ``text``."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


def skip_annotation(text: str, k: int) -> int:
    """The index past a comment ``{…}`` or a ``[%tag …]`` starting at ``k`` (escapes honoured; its end if open)."""
    close = "}" if text[k] == "{" else "]"
    j = k + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == close:
            return j + 1
        j += 1
    return len(text)


def outside_annotations(line: str, start: int, stop: int) -> Iterator[int]:
    """The indices from ``start`` to before ``stop`` of ``line`` that lie outside comments and tags (an annotation
    begun before ``stop`` is skipped whole)."""
    k = start
    while k < stop:
        if line[k] == "{" or line.startswith("[%", k):
            k = skip_annotation(line, k)
            continue
        yield k
        k += 1


def name_end(line: str, start: int) -> int:
    """The end of the run of name words (a card, a seat, a Wonder) starting at ``start`` of ``line``: words of
    name characters separated by single blanks, stopping at punctuation."""
    k = start
    while k < len(line) and NAME_CHAR.match(line[k]):
        k += 1
        if k + 1 < len(line) and line[k] in " \t" and NAME_CHAR.match(line[k + 1]):
            k += 1
    return k


def token_end(line: str, column: int) -> int:
    """The end of the token a notation error points at: a quoted value, a run of name words, or one character."""
    if column >= len(line):
        return column
    c = line[column]
    if c == '"':
        m = STRING.match(line, column)
        return m.end() if m else column + 1
    if NAME_CHAR.match(c):
        return name_end(line, column)
    return column + 1


def action_end(line: str, column: int) -> int:
    """The end of the action starting at ``column`` of a turn line: the next ``|`` or ``//`` outside comments and
    tags, or the line's end, trailing blanks left out."""
    k = next((k for k in outside_annotations(line, column, len(line)) if line[k] == "|" or line.startswith("//", k)),
             len(line))
    while k > column and line[k - 1] in " \t":
        k -= 1
    return max(k, min(column + 1, len(line)))


ANNOTATIONS = re.compile(r"\{[^}\\]*(?:\\.[^}\\]*)*\}?|\[%[^\]\\]*(?:\\.[^\]\\]*)*\]?")
_LEAD = re.compile(r"(?:[ \t(]|\{[^}\\]*(?:\\.[^}\\]*)*\})*")


def label_at(line: str) -> re.Match[str] | None:
    """The turn label of a turn line, after the ``(`` and comments that may open a variation's line."""
    return LABEL.match(line, _LEAD.match(line).end())  # type: ignore[union-attr]


def card_in(text: str) -> _catalog.Card | None:
    """The card named by ``text``, a verb or seat prefix allowed before it."""
    cat = _catalog.load()
    words = text.split()
    for k in range(len(words)):  # the label's number, a verb or a seat name may come first
        try:
            return cat.card(" ".join(words[k:]))
        except _catalog.CatalogError:
            continue
    return None
