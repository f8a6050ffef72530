"""wnotation/model/position_string.py: the position string's text, read and written (spec/position.md).

Strings come from the positions of generated games (the bot), so they are real; Hypothesis then varies what the
text may vary (seat names with every character a seat name may hold, blanks, keyword case) and checks that the
reader gives the same position and the writer the same canonical text. Any text gives a Setup or a PositionError.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.engine.position import setup_of
from wnotation.engine.position_rules import read
from wnotation.model.position_string import CHECKS, PositionError, Setup, escape_name, seat_places, start_problem, write
from wnotation.model.vocabulary import seat_key


@cache
def _game_setups(players: int, seed: int) -> tuple[Setup, ...]:
    record = play_game(players, seed, "greedy" if seed % 2 else "random")
    played = replay(record)
    return tuple(setup_of(state, record.seed.value if record.seed else None) for _, state in played)


games = st.tuples(st.integers(3, 7), st.integers(0, 5))


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    found = _game_setups(*draw(games))
    return found[draw(st.integers(0, len(found) - 1))]


#: A seat name 7WN allows: any text without a line end whose seat key is not empty.
seat_names = st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), min_size=1,
                     max_size=12).filter(lambda s: seat_key(s) != "")


@settings(max_examples=60, deadline=None)
@given(setups())
def test_every_position_of_a_generated_game_reads_back_as_written(setup):
    text = write(setup)
    assert read(text) == setup
    assert write(read(text)) == text


@settings(max_examples=80, deadline=None)
@given(setups(), st.data())
def test_any_seat_name_survives_the_string(setup, data):
    names = data.draw(st.lists(seat_names, min_size=setup.players, max_size=setup.players, unique_by=seat_key))
    renamed = replace(setup, seats=tuple(replace(s, name=n) for s, n in zip(setup.seats, names)))
    text = write(renamed)
    assert [s.name for s in read(text).seats] == names
    assert read(text) == renamed


def test_a_seat_name_with_brackets_quotes_and_backslashes_is_escaped_as_the_spec_says():
    assert escape_name('Bob "the Builder" \\ Jr>') == 'Bob "the Builder" \\\\ Jr\\>'
    setup = _game_setups(3, 1)[0]
    odd = replace(setup, seats=(replace(setup.seats[0], name="a\\>b | c; d, e"),) + setup.seats[1:])
    text = write(odd)
    assert "<a\\\\\\>b | c; d, e>" in text and read(text).seats[0].name == "a\\>b | c; d, e"


@settings(max_examples=60, deadline=None)
@given(setups(), st.data())
def test_blanks_and_keyword_case_change_nothing(setup, data):
    text = write(setup)

    def vary(m: re.Match[str]) -> str:
        word = m.group(0)
        return data.draw(st.sampled_from([word, word.upper(), word.capitalize()]))

    fields = r"(?<=[;|] )(coins|tokens|stages|built|hand|picks|pile|guilds|seed)(?= )|(?<= )(day|night)(?=;)"
    varied = re.sub(fields, vary, text)
    spaced = varied.replace(" | ", data.draw(st.sampled_from([" | ", "|", "  |\t"])))
    spaced = spaced.replace(", ", data.draw(st.sampled_from([", ", ",", " ,  "])))
    spaced = spaced.replace("; ", data.draw(st.sampled_from(["; ", ";", " ;\t"])))
    assert read(spaced) == setup


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80) | st.builds(lambda s, k, junk: s[:k] + junk + s[k:],
                                        st.sampled_from([write(x) for x in _game_setups(4, 2)[:6]]),
                                        st.integers(0, 300), st.text(max_size=3)))
def test_any_text_gives_a_setup_or_a_position_error(text):
    try:
        setup = read(text)
    except PositionError as exc:
        assert exc.check in CHECKS and 0 <= exc.index <= len(text)
        return
    assert read(write(setup)) == setup


def test_the_age_prefix_names_the_age_I_design_and_is_written_only_where_needed():
    setup = next(s for s in _game_setups(3, 1) if s.age >= 2 and any(
        c.age == 1 and c.name in ("Glassworks", "Press", "Loom") for seat in s.seats for c in seat.buildings))
    text = write(setup)
    assert re.search(r"I:(Glassworks|Press|Loom)", text)
    assert "II:" not in text and "III:" not in text
    with pytest.raises(PositionError) as caught:
        read(text.replace("I:", "III:", 1))
    assert caught.value.check == "unknown-name"


def test_R_DECK__a_hand_card_of_another_age_is_refused_at_the_card():
    text = write(_game_setups(3, 1)[0])  # I.0: seven cards in each hand
    first = text.index("hand ") + len("hand ")
    bad = text[:first] + "Temple" + text[text.index(",", first):]
    with pytest.raises(PositionError) as caught:
        read(bad)
    assert (caught.value.check, caught.value.index, caught.value.rule) == ("hand", first, "R-DECK")


def test_the_start_problems_name_the_seat_that_differs():
    setup = _game_setups(3, 1)[0]
    seats = [(s.name, s.wonder.name, s.wonder.side) for s in setup.seats]
    assert start_problem(setup, seats) is None
    assert start_problem(setup, [(seats[0][0].upper(), *seats[0][1:])] + seats[1:]) is None  # seat keys match
    k, message = start_problem(setup, seats[:1] + [("Zed", *seats[1][1:])] + seats[2:])
    assert k == 1 and "'Zed'" in message
    k, message = start_problem(setup, seats[:2] + [(seats[2][0], seats[2][1], "night" if seats[2][2] == "day" else
                                                    "day")])
    assert k == 2 and "in the position" in message
    assert len(seat_places(write(setup))) == 3


def test_R_HALI_LAST__a_record_cannot_start_where_a_pick_is_owed():
    setup = _game_setups(3, 1)[0]
    owed = replace(setup, seats=(replace(setup.seats[0], picks=1),) + setup.seats[1:])
    k, message = start_problem(owed, [(s.name, s.wonder.name, s.wonder.side) for s in setup.seats])
    assert k == 0 and "owed a build from the discard pile" in message


# --- issue 27 item 19: at most two tokens per Age (position.md §4, §6) ------------------------------------------

@pytest.mark.parametrize("address, tokens, bad", [("II.end", "1, 3, 3, 3", 3), ("III.end", "1, 1, 1", 2),
                                                  ("III.end", "5, 5, 5", 2), ("III.end", "1, 3, 5, 5, 5", 4)])
def test_R_MILITARY__a_third_victory_token_of_one_age_is_refused_at_it(address, tokens, bad):
    from wnotation.engine.position_rules import read
    from wnotation.model.position_string import PositionError

    string = f"{address} | <Ann> Gizah day; coins 3; tokens {tokens} | <Ben> Babylon day; coins 3 | <Cat> Rhodos day; coins 3"
    with pytest.raises(PositionError) as caught:
        read(string)
    error = caught.value
    start = string.index("tokens ") + len("tokens ")
    column = start + sum(len(t) + 2 for t in tokens.split(", ")[:bad]) + 1
    assert (error.check, error.column) == ("tokens", column)
    assert "third victory token" in str(error)


@pytest.mark.parametrize("tokens", ["1, 1, 3, 3", "1, -1, 3, -1", "-1, -1, 3, 3, 5, 5", "1, 1, 3, 3, 5, 5"])
def test_R_MILITARY__two_tokens_per_age_are_read(tokens):
    from wnotation.engine.position_rules import read

    read(f"III.end | <Ann> Gizah day; coins 3; tokens {tokens} | <Ben> Babylon day; coins 3 | <Cat> Rhodos day; coins 3")


def test_the_whole_read_and_the_checks_are_the_engines():
    """Issue 30 item 3: position_string keeps syntax and names; ``read`` (the whole §6) and the checks are the
    engine's (the checks' old module path still serves them), and the model neither imports nor names an engine
    module, so no arrow runs from the model up to the engine."""
    import importlib
    import subprocess
    import sys

    from wnotation.engine import position_rules
    from wnotation.model import position_string

    assert not hasattr(position_string, "read")  # the judged read is the engine's: the model never reaches it
    assert callable(position_rules.read)
    assert importlib.import_module("wnotation.model.position_checks") is position_rules
    probe = ("import sys; import wnotation.model.position_string as p; import wnotation.model.record; "
             "p.parse('I.6 | <A> Gizah day; coins 3 | <B> Babylon day; coins 3 | <C> Rhodos day; coins 3'); "
             "print(sorted(m for m in sys.modules if m.startswith('wnotation.engine')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
