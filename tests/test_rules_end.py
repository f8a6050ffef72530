"""End of an Age and of the game through the engine: military, the score sheet's rules, boards and decks."""

import pytest

from wnotation.engine import events as ev
from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.engine.position import position
from wnotation.engine.rules import end_age
from wnotation.engine.scoring import CityView, score
from wnotation.engine.state import fold
from wnotation.model.record import Deal, Record, Seat

TABLE = [("Gizah", "day"), ("Rhodos", "day"), ("Ephesos", "day"), ("Alexandria", "night")]


def sheet(state):
    return score([CityView(c.buildings, c.wonder, c.stages, c.coins, c.tokens) for c in state.cities])


@pytest.mark.parametrize("age,win", [(1, 1), (2, 3), (3, 5)])
def test_R_MILITARY__victories_by_age_defeats_minus_one_ties_nothing(age, win):
    s = position(TABLE, age=age, turn=6, hands=[[]] * 4,
                 cities=[{"buildings": ["Stockade", "Barracks"]}, {"buildings": ["Guard Tower"]},
                         {"buildings": ["Barracks"]}, {}])
    events = end_age(s)
    assert events[-1] == ev.AgeEnded(age)
    after = fold(s, events)
    assert after.ended and after.address.endswith(".end")
    assert [c.tokens for c in after.cities] == [(win, win), (-1,), (win,), (-1, -1)]
    # Rhodos Day's shields (stage 2) count like cards'
    s = position(TABLE, age=age, turn=6, hands=[[]] * 4, cities=[{}, {"stages": 2}])
    assert [c.tokens for c in fold(s, end_age(s)).cities] == [(-1,), (win, win), (-1,), ()]


def test_R_SCIENCE_ANY__assigned_to_the_best_symbol_at_the_end():
    s = position(TABLE, age=3, cities=[{"buildings": ["Scriptorium", "Library", "University", "Apothecary",
                                                      "Dispensary", "Workshop", "Scientists Guild"]}])
    assert sheet(s).line(1).science == 9 + 4 + 4 + 14  # the rules' worked example: 31, the wildcard a gear


def test_R_GUILD_COUNT__neighbours_by_default_own_city_where_said():
    cities = [{"buildings": ["Workers Guild", "Shipowners Guild", "Lumber Yard", "Loom"], "stages": 1},
              {"buildings": ["Stone Pit", "Ore Vein"], "stages": 1},
              {"buildings": ["Clay Pool"]},
              {"buildings": ["Timber Yard", "Builders Guild", "Decorators Guild"], "stages": 3}]
    s = position(TABLE, age=3, cities=cities)
    lines = sheet(s).lines
    assert lines[0].guilds == (2 + 1) + 4  # Workers: left 2 + right 1 brown; Shipowners: own 2 + 2 purple
    assert lines[3].guilds == (3 + 1 + 0) + 7  # Builders: own 3 + seat 1's 1 (seat 2 is no neighbour); Decorators


def test_R_WIN__coins_break_ties_and_remaining_ties_share_the_place():
    s = position(TABLE, age=3, cities=[{"coins": 6}, {"coins": 7}, {"coins": 6}, {"coins": 8}])
    ranks = [ln.rank for ln in sheet(s).lines]
    assert [ln.total for ln in sheet(s).lines] == [2, 2, 2, 2]
    assert ranks == [3, 2, 3, 1]


def test_R_BOARD__one_wonder_per_seat_sides_may_be_mixed():
    with pytest.raises(ValueError):
        Record(seats=(Seat(name="a", wonder="Gizah", side="day"), Seat(name="b", wonder="Gizah", side="night"),
                      Seat(name="c", wonder="Rhodos", side="day")))
    rec = play_game(4, 3)
    assert len({s.wonder for s in rec.seats}) == 4
    mixed = [s.side for r in (play_game(7, k) for k in range(4)) for s in r.seats]
    assert "day" in mixed and "night" in mixed


def test_R_DECK__an_explicit_deal_with_too_many_copies_is_reported():
    rec = play_game(3, 9)
    hands = [["Stone Pit"] * 7] + [["Altar"] * 7] * 2
    bad = rec.model_copy(update={"deals": (Deal(age=1, hands=tuple(tuple(h) for h in hands)),)})
    found = replay(bad).findings
    assert found[0].rule == "R-DECK" and found[0].address == "I.0"
    assert "Stone Pit: the Age I deck for 3 players holds 1 copy, this is copy 2" in found[0].message
