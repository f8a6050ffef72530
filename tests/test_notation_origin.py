"""Where a game sits in its input is one value, :class:`~wnotation.notation.errors.Origin` (issue 30 item 7): a
game read after other text gives the errors, spans and header it gives alone, every line and offset moved by
the text before it and nothing else changed, on both routes, in the recovery and in the check pipeline."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError, replace

import pytest

from helpers import HEADER
from wnotation.diagnostics import check_piece, check_record, check_text, diagnostics_of, source_lines
from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.notation import NotationError, parse, read_games, read_headers, write
from wnotation.notation import reader
from wnotation.notation.errors import Origin, StructureError, at_offset
from wnotation.notation.reader import LINE_LIMIT

# three notation errors the recovery finds one by one: an unknown card, a syntax error, a missing action
BROKEN = HEADER + """I.1 Lumbr Yard | sell ? | stage ?
I.2 Lumber Yard | sell ?? | stage ?
I.3 Lumber Yard | sell ?
"""
BEFORE = write(play_game(3, 0)) + "\n"  # a game before: the game under test starts after its lines
N = BEFORE.count("\n")


def _errors(text: str, route: str = "auto") -> tuple[NotationError, ...]:
    last = list(read_games(text, source="f.7wn", route=route))[-1]
    assert isinstance(last, NotationError)
    return last.errors


def _shape(e: NotationError) -> tuple[object, ...]:
    return (type(e), e.rule, e.message, e.source, e.column, e.source_line, e.expected, e.suggestion)


def test_an_origin_moves_lines_and_offsets_into_the_input_and_columns_not_at_all():
    origin = Origin("f.7wn", 3, 41)
    assert (origin.first_line, origin.line(1), origin.offset(0), origin.line_in_text(origin.line(7))) == (4, 4, 41, 7)
    assert origin.after(2, 10) == Origin("f.7wn", 5, 51) and Origin() == Origin("<string>", 0, 0)
    assert pickle.loads(pickle.dumps(origin)) == origin and hash(origin) == hash(Origin("f.7wn", 3, 41))
    with pytest.raises(FrozenInstanceError):
        origin.lines_before = 0  # type: ignore[misc]
    text = "[Format\nab cd\n"
    alone, placed = at_offset(StructureError, "m", text, 11, Origin("f")), at_offset(StructureError, "m", text, 11,
                                                                                        origin)
    assert (alone.line, alone.column, alone.offset, alone.source_line) == (2, 4, 11, "ab cd")
    assert (placed.line, placed.column, placed.offset, placed.source_line) == (5, 4, 52, "ab cd")


@pytest.mark.parametrize("route", ["auto", "lark"])
def test_every_error_of_a_game_after_other_text_is_its_error_alone_moved_by_that_text(route):
    alone, after = _errors(BROKEN, route), _errors(BEFORE + BROKEN, route)
    assert [e.rule for e in alone] == ["unknown-card", "syntax", "action-count"]
    assert [_shape(e) for e in after] == [_shape(e) for e in alone]
    assert [(e.line - N, e.offset - len(BEFORE)) for e in after] == [(e.line, e.offset) for e in alone]
    lines = (BEFORE + BROKEN).split("\n")
    assert all(lines[e.line - 1] == e.source_line for e in after)


def test_spans_and_headers_of_a_game_after_other_text_are_moved_by_it():
    text = write(play_game(3, 1))
    alone, after = [list(read_games(t, source="f.7wn"))[-1] for t in (text, BEFORE + text)]
    assert after == alone  # spans are out of equality: compare them one by one
    assert (after.span.line, after.span.offset) == (alone.span.line + N, alone.span.offset + len(BEFORE))
    moved = [(a.span.line - N, a.span.column, a.span.offset - len(BEFORE)) for t in after.turns for a in t.actions]
    assert moved == [(a.span.line, a.span.column, a.span.offset) for t in alone.turns for a in t.actions]
    header = list(read_headers(BEFORE + text, source="f.7wn"))[-1]
    assert (header.source, header.line, header.offset) == ("f.7wn", N + 1, len(BEFORE))


def test_a_line_over_the_limit_is_placed_in_the_input_too():
    long = BROKEN.replace("I.1 Lumbr Yard", "I.1 " + "x" * (LINE_LIMIT + 5))
    alone, after = _errors(long)[0], _errors(BEFORE + long)[0]
    assert alone.rule == after.rule == "line-length"
    assert (after.line - N, after.column, after.offset - len(BEFORE)) == (alone.line, alone.column, alone.offset)


def test_the_check_pipeline_takes_an_origin_or_a_source_and_line0_alike():
    record = parse(BROKEN.replace("Lumbr", "Lumber").replace("sell ??", "sell ?").replace(
        "I.3 Lumber Yard | sell ?\n", "I.3 Lumber Yard | sell ? | Altar\n"))  # Carol cannot build the Altar
    lines = source_lines(write(record))
    by_pair = check_record(record, lines=lines, source="f.7wn", line0=3)
    by_origin = check_record(record, lines=lines, origin=Origin("f.7wn", 3))
    assert by_origin == by_pair and by_pair.line == 4 and by_pair.diagnostics
    assert {d.source for d in by_pair.diagnostics} == {"f.7wn"}
    found = replay(record).findings
    assert diagnostics_of(record, found, lines, origin=Origin("f.7wn", 3)) == \
        diagnostics_of(record, found, lines, "f.7wn", line0=3)
    # a piece checked alone reports the lines of the whole input, as the whole input checked at once does
    whole = check_text(BEFORE + BROKEN, "f.7wn").games
    [piece] = check_piece(BROKEN, "f.7wn", N)
    assert replace(piece, index=2) == whole[1] and piece.line == N + 1 and not piece.read
    assert [d.line for d in piece.diagnostics] == [N + 8, N + 9, N + 10, N + 1]


def test_the_benchmarks_lark_route_keeps_its_arguments():
    text = write(play_game(3, 2))
    assert reader._lark_game(text, "<bench>", 0, 0) == parse(text, route="lark")
