"""The lines a check quotes its diagnostics from (issue 31 item 5): :class:`SourceLines` holds a text once and gives
the lines :func:`source_lines` gives, in any order of asking, without a string per line."""

from __future__ import annotations

import pytest
from helpers import HEADER
from hypothesis import given
from hypothesis import strategies as st

from wnotation.diagnostics import inputs
from wnotation.diagnostics.inputs import STRIDE, SourceLines, source_index, source_lines

LINE = st.sampled_from(["", "a", "[Format \"7WN 1\"]", "I.1 Lumber Yard | sell ? | stage ?", "{ x }", " \t", "é€"])
TEXTS = st.builds(lambda lines, ends, bom, tail: "\ufeff" * bom + "".join(l + e for l, e in zip(lines, ends)) + tail,
                  st.lists(LINE, max_size=3 * STRIDE + 5), st.lists(st.sampled_from(["\n", "\r\n", "\r"]),
                                                                    min_size=3 * STRIDE + 5),
                  st.booleans(), st.sampled_from(["", "tail", "\ufeff"]))


@given(TEXTS, st.randoms(use_true_random=False))
def test_the_lines_are_those_of_source_lines_in_any_order(text, random):
    expected = source_lines(text)
    lines = source_index(text)
    assert len(lines) == len(expected)
    order = list(range(len(expected)))
    random.shuffle(order)
    assert [lines[k] for k in order] == [expected[k] for k in order]
    assert list(lines) == expected
    assert [lines[k] for k in range(len(expected) - 1, -1, -1)] == expected[::-1]  # a walk back to a game's start
    assert lines[-1] == expected[-1] and lines[1:STRIDE + 3] == expected[1:STRIDE + 3]
    assert "\n".join(lines) == "\n".join(expected)


def test_lines_out_of_range_raise_index_error_as_a_list_does():
    lines = SourceLines("a\nb\n")
    assert (len(lines), lines[0], lines[2], lines[-3]) == (3, "a", "", "a")
    for k in (3, -4, 10**9):
        with pytest.raises(IndexError):
            lines[k]
    assert list(SourceLines("")) == [""]  # one empty line, as "".split("\n")


def test_long_strides_are_walked_not_split(monkeypatch):
    """A stride of lines longer than the split limit (a huge comment line among them) is never copied whole: its
    lines are found by their line ends, one slice per line asked for."""
    monkeypatch.setattr(inputs, "_SPLIT_MOST", 16)
    text = "".join(f"line {k} " + "x" * (k % 7) * 5 + "\n" for k in range(5 * STRIDE)) + "end"
    expected = source_lines(text)
    lines = SourceLines(text)
    assert [lines[k] for k in range(len(expected) - 1, -1, -1)] == expected[::-1]
    assert lines._block == 5 and lines._block_lines == ["end"]  # only the short last stride was kept split


def test_the_text_is_held_once_normalised():
    text = "[Format \"7WN 1\"]\nI.1 x\n"
    assert SourceLines(text).text is text  # nothing to normalise: the same string, not a copy
    assert SourceLines("\ufeffa\r\nb").text == "a\nb"
    lines = SourceLines("x\n" * (10 * STRIDE))
    assert lines[3 * STRIDE] == "x" and len(lines._starts) == 5  # the index reaches only as far as asked


def test_a_check_quotes_its_lines_from_the_text_not_a_list_of_lines(monkeypatch):
    """The check of a game (a finding's line, a notation error's game start) takes its lines from a
    :class:`SourceLines`, never from a list of a string per line."""
    from wnotation.diagnostics import check_text, pipeline

    def no_list(text: str) -> list[str]:
        raise AssertionError("a list of the lines was made")

    monkeypatch.setattr(pipeline, "source_lines", no_list)
    game = HEADER + "{ a\nlong\ncomment }\n" * STRIDE + "I.1 Lumber Yard | sell ? | stage ?\n"
    found = check_text(game + game.replace("I.1 Lumber", "I.9 Lumber"), "huge.7wn").diagnostics
    first = found[0]
    turn = HEADER.count("\n") + 3 * STRIDE + 1
    assert (first.rule, first.line, first.source_line) == ("R-TRADE", turn, "I.1 Lumber Yard | sell ? | stage ?")
    broken = [d for d in found if d.kind == "notation"]
    assert broken[0].source_line == "I.9 Lumber Yard | sell ? | stage ?"
    assert broken[-1].line == game.count("\n") + 1  # the note at the broken game's [Format line, found walking back
