"""The one sanitiser of record text shown to a person, and the compiler-style rendering of a problem in a record,
``file:12:5: error[R-TRADE]: message`` plus the line and a caret, shared by notation errors and engine findings.

Record text is data: a record may hold escape sequences, carriage returns or bidirectional overrides (in a
comment, a seat name, a file name), and printed raw they would move the cursor, recolour or clear the reader's
terminal, write its clipboard (OSC 52), retitle its window (OSC 0) or make the line shown differ from the line
read. :func:`steers` is the one definition of such a character: a control (C0 but tab, DEL, C1), a bidi control
(embeddings, overrides and isolates), a line or paragraph separator, a lone surrogate. Every command shows
text for people through :func:`safe` or :func:`safe_lines` (``wnotation.cli.output``), which replace each with a
visible stand-in of the same width (a control picture such as ``␛``, or ``�``) and keep the rest (a name's
zero-width joiner, its soft hyphen); output that is data (7WN text, JSON, HTML, SVG) keeps its bytes, JSON with
those characters escaped (:func:`json_safe`), the others refused on a terminal (:func:`first_steering`).

A diagnostic shows its source line through :func:`visible`, stricter still: every format character too (a
zero-width space in ``Lumber\u200bYard`` is why the name is unknown), and computes the caret on the shown line, so
that it stays under the column.
"""

from __future__ import annotations

import unicodedata

__all__ = ["compiler_style", "first_steering", "json_safe", "safe", "safe_lines", "steers", "visible"]

# Unicode categories that draw nothing or steer the terminal or the text direction: controls (C0, DEL, C1),
# format characters (bidi overrides and isolates, zero-width joiners), line and paragraph separators,
# surrogates (a lone one from a lenient decode) and unassigned/private code points are left alone.
_HIDDEN = {"Cc", "Cf", "Zl", "Zp", "Cs"}

#: The ANSI styles of a coloured diagnostic (as rustc colours them): the severity word and code, the caret.
_SEVERITY_STYLE = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "note": "\x1b[1;32m"}
_BOLD, _RESET = "\x1b[1m", "\x1b[0m"


#: The bidi controls that reorder what follows them (the "Trojan Source" characters): the embeddings and overrides
#: (U+202A-U+202E) and the isolates (U+2066-U+2069). The marks (ALM, LRM, RLM) only nudge a neutral character and
#: are common in right-to-left names as typed: they stay text.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_STEERING = {"Cc", "Zl", "Zp", "Cs"}


def steers(c: str) -> bool:
    """Whether the character ``c`` would steer a terminal or reorder the text shown: a control (C0, DEL, C1; a
    tab is not), a bidi control, a line or paragraph separator or a lone surrogate. The one definition every
    output of record text obeys."""
    return c != "\t" and (unicodedata.category(c) in _STEERING or c in _BIDI)


def _hidden(c: str) -> bool:
    """What a diagnostic's source line shows as a stand-in: what :func:`steers`, and every other format
    character (zero-width spaces and joiners)."""
    return c != "\t" and unicodedata.category(c) in _HIDDEN


def _stand_in(c: str) -> str:
    code = ord(c)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟, the control pictures
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"


def visible(text: str) -> str:
    """``text`` as a diagnostic shows it: each control or format character replaced by one visible character;
    tabs are kept (they line up the caret), and text without such characters is returned as it is."""
    if text.isprintable() or not any(_hidden(c) for c in text):
        return text
    return "".join(_stand_in(c) if _hidden(c) else c for c in text)


def safe(text: str) -> str:
    """``text`` as a terminal may show it: each character that :func:`steers` replaced by one visible character
    (a line end too); every other character kept as it is."""
    if text.isprintable() or not any(steers(c) for c in text):
        return text
    return "".join(_stand_in(c) if steers(c) else c for c in text)


def safe_lines(text: str) -> str:
    """:func:`safe` for a block of lines: its line ends (``\\n``) are kept, everything that :func:`steers` is
    made visible (a carriage return too, which would let a line overwrite the one shown)."""
    return "\n".join(safe(line) for line in text.split("\n"))


def json_safe(text: str) -> str:
    """JSON text with every character :func:`steers` written as a ``\\uXXXX`` escape: the same JSON value (such a
    character can only stand inside a string, where the escape means it), and no byte a terminal acts on. JSON's
    own escapes already cover C0; this adds DEL, C1, the bidi controls and the separators."""
    if text.isprintable() or not any(steers(c) for c in text if c != "\n"):
        return text
    return "".join(f"\\u{ord(c):04x}" if c != "\n" and steers(c) else c for c in text)


def first_steering(text: str) -> tuple[int, int, str] | None:
    """``(line, column, character)`` (1-based) of the first character of ``text`` that :func:`steers` (line ends
    excepted), or ``None``: the test of data that must not reach a terminal raw."""
    if text.isprintable() or not any(steers(c) for c in text if c != "\n"):
        return None
    for number, line in enumerate(text.split("\n"), start=1):
        for column, c in enumerate(line, start=1):
            if steers(c):
                return number, column, c
    return None  # pragma: no cover - the test above found one


def compiler_style(severity: str, rule: str, message: str, source: str, line: int, column: int,
                   source_line: str = "", colour: bool = False) -> str:
    """``source:line:column: severity[rule]: message``, then, when the line is known, the line and a caret under
    the column (tabs kept as tabs, so that terminals line it up). Everything from the record is made
    :func:`visible` first; with ``colour`` the location is bold, the severity word and code and the caret in the
    severity's colour and the message bold, as rustc shows them on a terminal (the escapes are this function's
    own, around text that holds none)."""
    where, kind, text = visible(f"{source}:{line}:{column}:"), visible(f"{severity}[{rule}]"), visible(message)
    style = _SEVERITY_STYLE.get(severity, _BOLD)
    if colour:
        head = f"{_BOLD}{where}{_RESET} {style}{kind}{_RESET}{_BOLD}: {text}{_RESET}"
    else:
        head = f"{where} {kind}: {text}"
    if not source_line:
        return head
    shown = visible(source_line)
    indent = "".join(c if c == "\t" else " " for c in shown[: column - 1])
    caret = f"{indent}{style}^{_RESET}" if colour else f"{indent}^"
    return f"{head}\n    {shown}\n    {caret}"
