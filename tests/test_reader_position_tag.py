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


# --- issue 30 item 3: the reader reads the tag once, the engine judges it ---------------------------------------

RULE_BROKEN = POSITION.replace("<Ann> Gizah day; coins 3;", "<Ann> Gizah day; coins 3; tokens 1;")  # before any war


def test_the_reader_reads_the_tag_once_into_the_records_start_which_json_and_equality_leave_out():
    from wnotation.model.position_values import Written
    from wnotation.notation import from_json, to_json

    record = parse(game())
    assert isinstance(record.start, Written) and record.start.text == POSITION and str(record.start.address) == "I.4"
    assert [s.name for s in record.start.seats] == ["Ann", "Ben", "Cat"]
    assert "start" not in to_json(record) and from_json(to_json(record)) == record
    assert from_json(to_json(record)).start.text == POSITION  # the validator reads it for a Record from JSON
    assert parse(game(fmt="7WN 1", body="I.1 Lumber Yard | Stone Pit | Clay Pool\n")).start is None


def test_a_stale_start_after_model_copy_is_read_again_from_the_tag():
    from wnotation.engine.position import start_setup
    from wnotation.model.record import Tag, start_of

    record = parse(game())
    later = POSITION.replace("coins 3", "coins 4", 1)
    copied = record.model_copy(update={"tags": (Tag(name="Position", value=later),)})
    assert copied.start is record.start and start_of(copied).text == later  # model_copy kept the old one
    assert start_setup(copied).seats[0].coins == 4 and start_setup(record).seats[0].coins == 3


def test_R_MILITARY__a_position_the_rules_refuse_is_read_and_the_engine_refuses_it_at_its_tag():
    """The reader reads syntax and names only; replaying the record gives its one finding and no position."""
    from wnotation.engine import replay

    record = parse(game(RULE_BROKEN))
    assert record.start is not None
    played = replay(record)
    assert played.addresses == () and played.scores is None
    [finding] = played.findings
    assert (finding.rule, finding.address, finding.severity, finding.span.line) == ("R-MILITARY", "I.4", "error", 4)
    assert finding.message.startswith("[Position]: position string, column 40: tokens: a victory token of 1")


def test_R_MILITARY__check_reports_the_engines_refusal_as_the_reader_did(tmp_path):
    """The same output as when the reader judged the tag itself: code position at the token, the game not
    replayed (the line, column, message and note of the check before issue 30 item 3)."""
    from cli_helpers import run

    path = tmp_path / "refused.7wn"
    path.write_text(game(RULE_BROKEN), encoding="utf-8")
    lines = run("check", str(path), code=1).stderr.splitlines()
    column = game(RULE_BROKEN).splitlines()[3].index("tokens 1") + len("tokens ") + 1
    assert lines[0] == (f"{path}:4:{column}: error[position]: position string, column 40: tokens: a victory token of "
                        "1: that Age's military is not resolved at I.4 (R-MILITARY)")
    assert lines[2] == " " * (4 + column - 1) + "^"
    assert lines[3] == f"{path}:1:1: note[notation]: this game is not replayed: its text has a notation error"
    shown = run("show", str(path), code=2).stderr.splitlines()
    assert shown[0] == lines[0]  # every command that reads one game refuses it so (exit 2)
