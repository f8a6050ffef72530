"""The lines a check quotes its diagnostics from (issue 31 item 5): :class:`SourceLines` holds a text once and gives
the lines :func:`source_lines` gives, in any order of asking, without a string per line."""

from __future__ import annotations

import pytest
from helpers import HEADER
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wnotation.diagnostics import inputs
from wnotation.diagnostics.inputs import STRIDE, SourceLines, source_index, source_lines

LINE = st.sampled_from(["", "a", "[Format \"7WN 1\"]", "I.1 Lumber Yard | sell ? | stage ?", "{ x }", " \t", "é€",
                        " \t[Format \"7WN 1\"] [Format", "[Formats] [Format", "x [Format \"7WN 1\"]"])
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


def _bare_cr(text: str) -> bool:
    return text.count("\r") != text.count("\r\n")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # texts of ~200 lines, files
@given(TEXTS, st.sampled_from([5, 64, 1 << 20]), st.sampled_from([8, 1 << 18]), st.randoms(use_true_random=False))
def test_a_files_lines_read_back_are_those_of_its_text(text, block, most, random):
    """:class:`FileLines` (the byte offsets of every 64th line, found while a file is scanned) gives the lines
    :func:`source_lines` gives of the file's text, and each piece's :class:`PieceLines` those of :func:`source_index`
    of the piece, with the same game starts as a walk back over the lines; a file with a bare CR is not indexed.
    Blocks of a few bytes cut lines, CRLFs and characters anywhere; a small read limit reads lines a block at a
    time."""
    import os
    import tempfile

    from wnotation.diagnostics.inputs import file_pieces, scan_file, scan_index
    from wnotation.diagnostics.pipeline import _game_start

    saved = inputs.BLOCK, inputs._READ_MOST
    inputs.BLOCK, inputs._READ_MOST = block, most  # type: ignore[misc]
    handle, path = tempfile.mkstemp(suffix=".7wn")
    try:
        os.write(handle, text.encode("utf-8"))
        os.close(handle)
        marks, index = scan_index(path)
        assert marks == scan_file(path)
        body = text[1:] if text.startswith("\ufeff") else text
        if _bare_cr(body):
            assert index is None
            return
        assert index is not None
        expected = source_lines(text)
        order = list(range(len(expected)))
        random.shuffle(order)
        assert index.count == len(expected) and [index.line(k) for k in order] == [expected[k] for k in order]
        for piece, line0 in file_pieces(path, 1):
            lines, view = source_index(piece), index.piece(line0, piece)
            assert len(view) == len(lines) and list(view) == list(lines) and view[-1] == lines[-1]
            assert view[1:3] == lines[1:3] and "\n".join(view) == inputs.normalise(piece)
            for line in range(len(lines) + 2):
                assert _game_start(view, line) == _game_start(lines, line)
    finally:
        inputs.BLOCK, inputs._READ_MOST = saved  # type: ignore[misc]
        os.unlink(path)


def test_a_long_line_is_read_back_a_block_at_a_time(tmp_path):
    """A stride longer than a read (a huge comment line) is scanned for the line asked for: the line alone is
    decoded, BOM and CR dropped, non-ASCII kept."""
    from wnotation.diagnostics.inputs import scan_index

    long = "{ " + "é" * 300_000 + " }"
    text = "\ufeff[Format \"7WN 1\"]\r\n" + long + "\r\nI.1 x\tÿ\r\n" + "a\r\n" * 70 + "end"
    path = tmp_path / "long.7wn"
    path.write_bytes(text.encode("utf-8"))
    _, index = scan_index(path)
    assert index is not None
    assert [index.line(k) for k in (2, 1, 0, 72, 73, 3)] == ["I.1 x\tÿ", long, "[Format \"7WN 1\"]", "a", "end", "a"]


def test_a_file_is_checked_with_its_text_dropped_before_the_replay(tmp_path, monkeypatch):
    """A file's game is replayed with its Record held, not its text too (issue 31 item 5): by tracemalloc, a game
    that is one 3.4 MB comment holds one copy of it (and the next, small game's text, read to find where it ends)
    while it is replayed, and its findings quote the lines check_text quotes."""
    import tracemalloc

    import wnotation.engine
    from wnotation.diagnostics import check_text
    from wnotation.diagnostics.batch import check_many

    comment = "{ " + "lorem ipsum " * 280_000 + "}\n"
    text = HEADER + comment + "I.1 Lumber Yard | sell ? | stage ?\n"
    text += HEADER + "I.1  Lumber Yard | sell ? | stage ? {x}\nI.2 Lumbr Yard | sell ? | stage ?\n"
    path = tmp_path / "huge.7wn"
    path.write_text(text, encoding="utf-8", newline="\r\n")
    held: list[int] = []
    real = wnotation.engine.replay

    def replay(record, *args, **kwargs):  # type: ignore[no-untyped-def]
        held.append(tracemalloc.get_traced_memory()[0] - start)
        return real(record, *args, **kwargs)

    list(check_many([str(path)]))  # imports and caches warm
    monkeypatch.setattr(wnotation.engine, "replay", replay)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        games = [game for run in check_many([str(path)]) for game in run.games()]
    finally:
        tracemalloc.stop()
    assert games == list(check_text(text.replace("\n", "\r\n"), str(path)).games)
    assert [d.source_line for d in games[0].diagnostics][:1] == ["I.1 Lumber Yard | sell ? | stage ?"]
    assert len(held) == 2 and held[0] < 1.5 * len(comment)


def test_a_files_strides_are_found_only_as_far_as_a_line_is_asked_for(tmp_path, monkeypatch):
    """:func:`scan_index` counts the lines; where the strides start is sought only when a line is quoted, and only
    as far as it (and the 16 strides that may be read with it), a block at a time."""
    from wnotation.diagnostics.inputs import scan_index

    monkeypatch.setattr(inputs, "BLOCK", 256)
    path = tmp_path / "lines.7wn"
    path.write_text("x\n" * (100 * STRIDE), encoding="utf-8")
    _, index = scan_index(path)
    assert index is not None and index.count == 100 * STRIDE + 1 and len(index._starts) == 1
    assert index.line(3 * STRIDE) == "x" and 3 + 17 < len(index._starts) < 3 + 17 + 5
    assert index.line(100 * STRIDE) == "" and len(index._starts) == 101
