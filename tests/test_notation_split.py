"""wnotation.notation.reader.split: one normalisation, one boundary test, one splitter in three forms."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import HEADER
from wnotation.notation.reader import iter_pieces, normalise, split_games
from wnotation.notation.reader.split import group_pieces, is_boundary, split_lines, split_stream, stream_lines, text_lines

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


# --- a file read in blocks (issue 31 item 5: a huge game held once) ------------------------------------------------


@given(LINES, st.sampled_from(["\n", "\r\n", "\r"]), st.booleans(), st.integers(1, 9),
       st.sampled_from(["", None, "\n"]))
def test_a_file_read_in_blocks_is_cut_as_read_by_lines(lines, end, final, block, newline):
    """Blocks of any size (a CRLF, a ``[Format`` or a BOM cut between two reads) give the chunks of the line route,
    in every newline mode of the file."""
    text = "\ufeff" * final + end.join(lines) + (end if final else "")
    by_lines = list(split_lines(stream_lines(io.StringIO(text, newline=newline))))
    assert list(split_stream(io.StringIO(text, newline=newline), block)) == by_lines


def test_a_file_is_read_in_blocks_and_an_iterable_piece_by_piece():
    reads: list[int] = []

    class File(io.StringIO):
        def read(self, size: int | None = -1) -> str:
            reads.append(-1 if size is None else size)
            return super().read(size)

    text = HEADER + "I.1 x\n" + HEADER
    assert [c for c, _, _ in split_stream(File(text), 8)] == [HEADER + "I.1 x\n", HEADER]
    assert reads and set(reads) == {8}  # by blocks, never a line at a time
    assert [c for c, _, _ in split_stream(iter([HEADER[:5], HEADER[5:] + "I.1 x\n"]))] == [HEADER + "I.1 x\n"]


def test_pieces_of_chunks_group_as_pieces_of_lines():
    text = "notes\n" + HEADER + "I.1 x\n" + HEADER + HEADER
    for games in (1, 2, 5):
        assert list(group_pieces(split_stream(io.StringIO(text), 4), games)) == \
            list(iter_pieces(text_lines(text), games))
    with pytest.raises(ValueError, match="at least one game"):
        group_pieces([], 0)


@given(st.lists(st.tuples(st.integers(0, 30), st.sampled_from(['[Format "7WN 1"]', "[Format", "[Formats", "[Form",
                                                              "{ a long comment }", ""])), max_size=8),
       st.integers(1, 9), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_lines_longer_than_a_block_start_games_as_read_by_lines(lines, block, end, final):
    """A line read over several blocks (its blanks, its ``[Format`` cut anywhere) starts a game exactly when the
    line route says so: the block reader tests such a line on its first characters past its blanks."""
    text = end.join(" \t" * blanks + line for blanks, line in lines) + (end if final else "")
    by_lines = list(split_lines(stream_lines(io.StringIO(text, newline=""))))
    assert list(split_stream(io.StringIO(text, newline=""), block)) == by_lines
