"""Visitors: read_games(source, builder=...) with the reader's builders and with one of a test's own."""

from __future__ import annotations

import pytest

from helpers import HEADER
from wnotation.notation import NotationError, UnknownNameError, read_games, read_headers
from wnotation.notation.reader import (
    SKIP,
    Header,
    HeadersBuilder,
    RecordBuilder,
    StrictRecordBuilder,
    Visitor,
)
from wnotation.model.record import Record

I1 = "I.1 Lumber Yard | sell ? | stage ?\n"
BROKEN = HEADER + "I.1 Lumbr Yard | sell ? | stage ?\n"
TEXT = HEADER.replace("[Date", '[Event "A"]\n[Date') + I1 + "\n" + BROKEN + "\n" + HEADER + I1


class Calls(Visitor[list]):
    """Notes every hook call; skips the bodies of games whose Event is not ``A``."""

    def __init__(self) -> None:
        self.calls: list = []

    def begin_game(self, source, index, line, offset):
        self.calls.append(("begin", index, line))

    def end_headers(self, header):
        self.calls.append(("headers", header.event))
        return None if header.event == "A" else SKIP

    def end_game(self, record):
        self.calls.append(("game", len(record.turns)))

    def handle_error(self, error):
        self.calls.append(("error", error.rule))

    def result(self):
        return self.calls


def test_hooks_come_in_file_order_and_skip_skips_the_body():
    first, second, third = read_games(TEXT, builder=Calls)
    assert first == [("begin", 1, 1), ("headers", "A"), ("game", 1)]
    assert second[:2] == [("begin", 2, HEADER.count("\n") + 4), ("headers", None)]  # skipped: the broken body too
    assert second == second[:2] and third == [("begin", 3, second[0][2] + BROKEN.count("\n") + 1), ("headers", None)]


def test_a_visitor_reading_bodies_gets_the_error_of_a_broken_game():
    class All(Calls):
        def end_headers(self, header):
            self.calls.append(("headers", header.event))

    _, broken, _ = read_games(TEXT, builder=All)
    assert broken == [("begin", 2, HEADER.count("\n") + 4), ("headers", None), ("error", "unknown-card")]


def test_the_default_builders_are_the_error_policies():
    collected = list(read_games(TEXT, builder=RecordBuilder))
    assert [type(x) for x in collected] == [Record, UnknownNameError, Record]
    assert [type(x) for x in read_games(TEXT)] == [Record, UnknownNameError, Record]
    seen = []
    with pytest.raises(UnknownNameError):
        for item in read_games(TEXT, builder=StrictRecordBuilder):
            seen.append(item)
    assert len(seen) == 1


def test_errors_and_builder_are_one_choice():
    with pytest.raises(ValueError, match="not both"):
        read_games(TEXT, errors="raise", builder=RecordBuilder)


def test_read_headers_is_read_games_with_the_headers_builder():
    via_builder = list(read_games(TEXT, builder=HeadersBuilder))
    assert [type(h) for h in via_builder] == [Header, Header, Header]  # the broken body is not read
    assert [h.index for h in via_builder] == [h.index for h in read_headers(TEXT)]
    assert via_builder == list(read_headers(TEXT))


def test_text_before_the_first_game_reaches_handle_error_only():
    [before, game] = read_games("hello\n" + HEADER, builder=Calls)
    assert before == [("error", "syntax")] and game[0] == ("begin", 1, 2)


def test_a_visitor_must_say_what_it_yields_and_what_an_error_does():
    class Nothing(Visitor[None]):
        pass

    with pytest.raises(TypeError):
        Nothing()  # type: ignore[abstract]
    assert repr(SKIP) == "SKIP" and type(SKIP)() is SKIP
    assert isinstance(next(read_games(BROKEN)), NotationError)
