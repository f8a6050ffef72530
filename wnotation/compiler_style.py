"""The compiler-style rendering of a problem in a record, ``file:12:5: error[R-TRADE]: message`` plus the line and
a caret, shared by notation errors and engine findings.

Record text is data: a record may hold escape sequences, carriage returns or bidirectional overrides (in a
comment, a seat name, a file name), and printed raw they would move the cursor, recolour or clear the reader's
terminal, or make the line shown differ from the line read. So every character that is not printable text is
shown as a visible stand-in of the same width (a control picture such as ``␛``, or ``�``), and the caret is
computed on the shown line, so that it stays under the column.
"""

from __future__ import annotations

import unicodedata

__all__ = ["compiler_style", "visible"]

# Unicode categories that draw nothing or steer the terminal or the text direction: controls (C0, DEL, C1),
# format characters (bidi overrides and isolates, zero-width joiners), line and paragraph separators,
# surrogates (a lone one from a lenient decode) and unassigned/private code points are left alone.
_HIDDEN = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def _stand_in(c: str) -> str:
    code = ord(c)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟, the control pictures
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"


def visible(text: str) -> str:
    """``text`` with each control or format character replaced by one visible character; tabs are kept (they
    line up the caret), and text without such characters is returned as it is."""
    if text.isprintable() or all(c == "\t" or unicodedata.category(c) not in _HIDDEN for c in text):
        return text
    return "".join(c if c == "\t" or unicodedata.category(c) not in _HIDDEN else _stand_in(c) for c in text)


def compiler_style(severity: str, rule: str, message: str, source: str, line: int, column: int,
                   source_line: str = "") -> str:
    """``source:line:column: severity[rule]: message``, then, when the line is known, the line and a caret under
    the column (tabs kept as tabs, so that terminals line it up). Everything from the record is made
    :func:`visible`."""
    head = visible(f"{source}:{line}:{column}: {severity}[{rule}]: {message}")
    if not source_line:
        return head
    shown = visible(source_line)
    caret = "".join(c if c == "\t" else " " for c in shown[: column - 1]) + "^"
    return f"{head}\n    {shown}\n    {caret}"
