"""Record text is data on a terminal too: diagnostics show control characters, escape sequences and bidi
overrides from a record as visible stand-ins, never as the bytes that would steer the reader's terminal."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from cli_helpers import run
from helpers import HEADER
from wnotation.compiler_style import compiler_style, visible
from wnotation.notation import NotationError

STEERING = ("\x1b", "\x07", "\x9b", "\r", "\u202e", "\u2066", "\x00")


def test_an_escape_sequence_in_a_source_line_is_shown_as_a_control_picture_with_the_caret_under_the_column():
    line = "I.1 Lumber\x1b[2J Yard | Loom"
    column = line.index("Loom") + 1
    text = compiler_style("error", "unknown-card", "no card 'x'", "g.7wn", 5, column, line)
    head, shown, caret = text.split("\n")
    assert "\x1b" not in text and "\u241b[2J" in shown
    assert shown[caret.index("^")] == "L" and shown[caret.index("^"):].startswith("Loom")


def test_a_bidi_override_in_a_message_is_not_printed():
    text = compiler_style("error", "R-TRADE", "Bob\u202e pays", "g.7wn", 1, 1)
    assert "\u202e" not in text and "Bob\ufffd pays" in text


def test_tabs_stay_tabs_so_that_the_caret_lines_up():
    assert visible("I.1\tLoom") == "I.1\tLoom"
    assert compiler_style("error", "x", "m", "s", 1, 5, "I.1\tLoom").endswith("\n       \t^")


def test_a_notation_error_renders_through_the_same_safe_layout():
    error = NotationError("bad \x1b[31mred", source="f\x07.7wn", line=2, column=3, source_line="ab\x1bcd")
    rendered = str(error)
    assert not any(c in rendered for c in STEERING)
    assert rendered.splitlines()[2] == "      ^" and error.caret == "  ^"


@given(st.text())
def test_visible_text_keeps_its_length_and_holds_no_control_or_format_character(text):
    shown = visible(text)
    assert len(shown) == len(text)
    assert all(c == "\t" or unicodedata.category(c) not in {"Cc", "Cf", "Zl", "Zp", "Cs"} for c in shown)


def test_check_prints_no_terminal_control_sequence_from_a_record(tmp_path):
    path = tmp_path / "hostile.7wn"
    path.write_text(HEADER + "I.1 Lumber\x1b]0;pwned\x07Yard | Loom {\x1b[2J\u202e} | Baths\n", encoding="utf-8")
    result = run("check", str(path), code=1)
    out = result.stdout + result.stderr
    assert "hostile.7wn:" in out and "\u241b]0;pwned\u2407Yard" in out
    assert not any(c in out for c in STEERING)
