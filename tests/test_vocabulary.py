"""wnotation.model.vocabulary: the shared words, checked against the grammar that spells them too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wnotation.model import vocabulary as v
from wnotation.notation import lexical

GRAMMAR = (Path(__file__).resolve().parents[1] / "grammar" / "7wn.lark").read_text(encoding="utf-8")


def _alternatives(terminal: str) -> list[str]:
    """The quoted words of a terminal defined as ``"a"i | "b"i …`` in the grammar (continuation lines too)."""
    m = re.search(rf"^{terminal}(?:\.\d+)?:(.*?)(?=^\S|\Z)", GRAMMAR, re.M | re.S)
    assert m is not None, terminal
    return re.findall(r'"([^"]*)"i?', m.group(1))


def test_the_grammars_result_categories_are_the_result_fields_in_order():
    assert _alternatives("_CATEGORY") == list(v.LINE_FIELDS)
    assert v.RESULT_FIELDS[:7] == v.CATEGORIES and len(v.CATEGORIES) == 7


def test_the_grammars_resources_sides_and_verbs_are_the_vocabularys():
    assert _alternatives("_RESOURCE") == list(v.RESOURCES)
    assert [s for s in _alternatives("_SIDE") if len(s) > 1] == list(v.SIDES)
    assert [s for s in _alternatives("_SIDE") if len(s) == 1] == [s[0] for s in v.SIDES]
    assert _alternatives("_VERB") == list(v.VERBS)


def test_the_grammars_turn_label_spells_the_numerals_and_turns():
    m = re.search(r"^LABEL: /\(\?:([^)]*)\)\\\.\[1-(\d)\]\(\?!\[\^ \\t\\n0-9\.\]\)/i$", GRAMMAR, re.M)
    assert m is not None
    assert sorted(m.group(1).split("|"), key=len) == list(v.NUMERALS)
    assert int(m.group(2)) == v.EXTRA_TURN


def test_the_lexical_patterns_use_the_same_lists():
    assert re.fullmatch(lexical.CATEGORY, "rank") and not re.fullmatch(lexical.CATEGORY, "points")
    for word in v.RESULT_FIELDS:
        assert re.fullmatch(lexical.CATEGORY, word.upper())
    for word in v.RESOURCES:
        assert re.fullmatch(lexical.RESOURCE, word)


@pytest.mark.parametrize("text, age, turn", [
    ("I.0", 1, 0), ("ii.3", 2, 3), ("III.end", 3, v.END), ("iii.END", 3, v.END), (" I.7 ", 1, 7), ("start", 0, 0),
    ("START", 0, 0), ("\u0131\u0131.2", 2, 2),
])
def test_address_parse(text, age, turn):
    a = v.Address.parse(text)
    assert (a.age, a.turn) == (age, turn)
    assert v.Address.parse(str(a)) == a


@pytest.mark.parametrize("text", ["", "IV.1", "I.8", "I.", "I.-1", "I 3", "II.ende", "0.1", "Istart"])
def test_address_parse_refuses_other_texts(text):
    with pytest.raises(ValueError, match="expected start"):
        v.Address.parse(text)


def test_address_str_repr_and_flags():
    assert str(v.Address(2, 3)) == "II.3"
    assert str(v.Address(3, v.END)) == "III.end" and v.Address(3, v.END).ended
    assert str(v.START) == "start" and v.START.is_start
    assert repr(v.Address(1, 0)) == "Address.parse('I.0')"
    with pytest.raises(ValueError):
        v.Address(4, 1)
    with pytest.raises(ValueError):
        v.Address(1, 9)


def test_addresses_are_every_position_in_game_order():
    names = [str(a) for a in v.ADDRESSES]
    assert names[:9] == ["I.0", "I.1", "I.2", "I.3", "I.4", "I.5", "I.6", "I.7", "I.end"]
    assert names[-1] == "III.end" and len(names) == 27
    assert list(v.ADDRESSES) == sorted(v.ADDRESSES)
    assert v.START < v.ADDRESSES[0]


def test_addresses_of_a_replay_are_vocabulary_addresses_in_order():
    from wnotation.engine import replay
    from wnotation.engine.bot import play_game

    played = replay(play_game(4, 3))
    parsed = [v.Address.parse(a) for a in played.positions]
    assert [str(a) for a in parsed] == list(played.positions)
    assert parsed == sorted(parsed) and set(parsed) <= set(v.ADDRESSES)


def test_turn_labels_and_numerals():
    assert v.turn_label(3, 7) == "III.7"
    assert [v.numeral(a) for a in v.AGES] == ["I", "II", "III"]
    assert v.age_of_numeral("ii") == 2 and v.age_of_numeral("III") == 3
    assert v.age_of_numeral("\u0130I") == 2  # İ: (?i:II) matches it in a label
    with pytest.raises(KeyError):
        v.age_of_numeral("IV")


def test_seat_key_matches_spellings_of_one_name():
    assert v.seat_key("  Anne   Marie ") == v.seat_key("anne marie") == "anne marie"
    assert v.seat_key("Jose\u0301") == v.seat_key("JOS\u00c9")
    assert v.seat_key("Bob") != v.seat_key("Bobby")


@pytest.mark.parametrize("players", range(3, 8))
def test_R_SEAT__neighbours_close_the_circle(players):
    seats = range(1, players + 1)
    assert [v.left_of(s, players) for s in seats] == [*range(2, players + 1), 1]
    assert [v.right_of(s, players) for s in seats] == [players, *range(1, players)]
    for s in seats:
        assert v.right_of(v.left_of(s, players), players) == s
        assert v.neighbour(s, players, "left") == v.left_of(s, players)
        assert v.neighbour(s, players, "right") == v.right_of(s, players)


@given(st.integers(3, 7).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n))))
def test_R_SEAT__neighbours_agree_with_the_engines_state(case):
    from wnotation.engine.position import position

    players, seat = case
    state = position([("Gizah", "day"), ("Babylon", "day"), ("Rhodos", "day"), ("Ephesos", "day"),
                      ("Olympia", "day"), ("Alexandria", "day"), ("Halikarnassos", "day")][:players])
    assert state.left(seat) == v.left_of(seat, players)
    assert state.right(seat) == v.right_of(seat, players)
