"""wnotation.notation.reader.split: one normalisation, one boundary test, one splitter in three forms."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import HEADER
from wnotation.notation.reader import iter_pieces, normalise, split_games
from wnotation.notation.reader.split import is_boundary, split_lines, split_stream, text_lines

LINES = st.lists(st.sampled_from(['[Format "7WN 1"]', ' \t[Format "7WN 1"]', "[Formats x]", "[Format_", "I.1 x",
                                  "", " ", "{ [Format }", "[format", "\ufeff[Format", "[Format"]), max_size=12)


@given(LINES, st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_the_text_and_line_forms_cut_at_the_same_boundaries(lines, end, final):
    text = end.join(lines) + (end if final else "")
    normal = normalise(text)
    by_text = list(split_games(normal))
    assert list(split_lines(text_lines(normal))) == by_text
    assert list(split_stream(io.StringIO(text, newline=""))) == by_text
    assert "".join(chunk for chunk, _, _ in by_text) == normal
    for chunk, line0, off0 in by_text:
        assert normal[off0:].startswith(chunk) and normal.count("\n", 0, off0) == line0


@pytest.mark.parametrize("line, starts", [
    ('[Format "7WN 1"]\n', True), (' \t[Format "7WN 1"]', True), ("[Format", True), ("[Formats]", False),
    ("[Format_x]", False), ("[format]", False), ("x[Format]", False), ("[ Format]", False), ("", False),
])
def test_a_game_starts_at_a_format_line(line, starts):
    assert is_boundary(line) is starts


@given(LINES, st.integers(1, 4))
def test_pieces_hold_whole_games_and_join_up_to_the_text(lines, games):
    text = normalise("\n".join(lines))
    pieces = list(iter_pieces(text_lines(text), games))
    assert "".join(piece for piece, _ in pieces) == text
    counts = [sum(is_boundary(line) for line in text_lines(piece)) for piece, _ in pieces]
    assert all(c == games for c in counts[:-1]) and counts[-1] <= games
    for piece, line0 in pieces:
        assert text.split("\n")[line0:line0 + 1] == piece.split("\n")[:1] or not piece


def test_pieces_of_an_empty_input_and_of_a_prelude():
    assert list(iter_pieces([], 1)) == [("", 0)]
    text = "notes\n" + HEADER + HEADER
    [(first, first_line0), (second, line0)] = list(iter_pieces(text_lines(text), 1))
    assert first.startswith("notes\n[Format") and first_line0 == 0
    assert second.startswith("[Format") and line0 == 1 + HEADER.count("\n")
    with pytest.raises(ValueError, match="at least one game"):
        list(iter_pieces([], 0))


def test_normalise_drops_one_bom_and_makes_line_ends_lf():
    assert normalise("\ufeffa\r\nb\rc\n") == "a\nb\nc\n"
    assert normalise("\ufeff\ufeffa") == "\ufeffa"
