"""The reader and the [Position] tag (spec/position.md §8, 7WN §4.1): checked in a version-2 game after every other
tag, refused with the code ``position`` at the offending character of the value (line and column of the file),
kept with the free tags; a free tag without meaning in version 1."""

from __future__ import annotations

import pytest

from wnotation.notation import NotationError, parse, read_headers, write

POSITION = ("I.4 | <Ann> Gizah day; coins 3; hand Altar, Theater, Baths | <Ben> Babylon day; coins 3; hand Loom, "
            "Press, Glassworks | <Cat> Rhodos day; coins 3; hand Clay Pool, Ore Vein, Stone Pit")
SEATS = '[Seat1 "Ann" "Gizah" "day"]\n[Seat2 "Ben" "Babylon" "day"]\n[Seat3 "Cat" "Rhodos" "day"]\n'


def game(position: str = POSITION, *, fmt: str = "7WN 2", tag: str = "Position", extra: str = "",
         seats: str = SEATS, body: str = "I.5 Altar | Loom | Clay Pool\n") -> str:
    value = position.replace("\\", "\\\\").replace('"', '\\"')
    return (f'[Format "{fmt}"]\n[Edition "2e"]\n[Date "????.??.??"]\n[{tag} "{value}"]\n{seats}{extra}\n{body}')


def refusal(text: str) -> NotationError:
    with pytest.raises(NotationError) as caught:
        parse(text)
    return caught.value


def test_a_version_2_game_keeps_the_tag_with_the_free_tags_and_writes_it_back():
    record = parse(game())
    assert [t.name for t in record.tags] == ["Position"] and record.tag("Position") == POSITION
    assert write(record) == game()
    assert [h.tag("Position") for h in read_headers(game())] == [POSITION]


def test_a_version_1_game_keeps_it_as_a_free_tag_without_meaning():
    record = parse(game("anything at all", fmt="7WN 1", body="I.1 Lumber Yard | Stone Pit | Clay Pool\n"))
    assert record.tag("Position") == "anything at all"


def test_the_first_turn_follows_the_position():
    error = refusal(game(body="I.1 Lumber Yard | Stone Pit | Clay Pool\n"))
    assert (error.rule, error.line, error.column) == ("turn-order", 9, 1)
    assert "expected I.5" in error.message


def test_an_escaped_quote_in_a_seat_name_still_points_at_the_right_column():
    named = POSITION.replace("<Ben>", '<Ben "B">')
    seats = SEATS.replace('"Ben"', '"Ben \\"B\\""')
    parse(game(named, seats=seats))  # the name reads back through both escapes
    error = refusal(game(named.replace("Glassworks", "Glasworks"), seats=seats))
    line = error.source_line
    assert (error.rule, error.line) == ("position", 4) and line[error.column - 1:].startswith("Glasworks")
    assert error.suggestion == "Glassworks"


def test_seats_other_than_the_records_are_refused_at_the_seat():
    error = refusal(game(seats=SEATS.replace('"Ben"', '"Bea"')))
    assert error.rule == "position" and error.source_line[error.column - 1:].startswith("<Ben>")
    assert "'Bea' in the record and 'Ben' in the position" in error.message


def test_a_deal_of_a_started_age_is_refused_at_its_tag_but_a_later_ages_is_read():
    hands = '"' + ", ".join(["?"] * 7) + '"'
    error = refusal(game(extra=f"[DealI {hands} {hands} {hands}]\n"))
    assert (error.rule, error.line, error.column) == ("position", 8, 2)
    parse(game(extra=f"[DealII {hands} {hands} {hands}]\n"))


def test_the_tag_in_another_case_and_twice_are_refused_in_version_2():
    error = refusal(game(tag="position"))
    assert (error.rule, error.line, error.column) == ("tag-name", 4, 2)
    twice = game(extra=f'[Position "{POSITION}"]\n')
    error = refusal(twice)
    assert (error.rule, error.line, error.column) == ("duplicate-tag", 8, 2)


def test_a_turn_after_a_start_at_the_end_of_the_game_says_the_position_ends_it():
    over = "III.end | <Ann> Gizah day; coins 3 | <Ben> Babylon day; coins 3 | <Cat> Rhodos day; coins 3"
    error = refusal(game(over, body="III.1 Altar | Loom | Clay Pool\n"))
    assert (error.rule, error.line, error.column) == ("turn-order", 9, 1)
    assert "the game is over at the position its [Position] tag states" in error.message
    assert "III.7" not in error.message  # there is no III.7 in this game: it was the reader's own mark
