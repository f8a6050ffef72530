"""State and apply: one mutator per event, integrity checks, structural sharing, unknown cards in hands."""

import typing

import pytest

from wnotation.engine import events as ev
from wnotation.engine.position import card, position
from wnotation.engine.state import CHECKS, MUTATORS, IntegrityError, _take, apply, fold

TABLE = [("Gizah", "day"), ("Rhodos", "night"), ("Halikarnassos", "day")]


def test_every_event_class_has_exactly_one_mutator():
    assert set(typing.get_args(ev.Event)) == set(MUTATORS) == set(CHECKS)


@pytest.mark.parametrize("players", [3, 7])
def test_committing_the_rules_events_unchecked_reaches_the_position_applying_them_does(players):
    """``Game.commit`` (the rules' route: mutators alone) and ``Game.apply`` (check, then mutate) agree on whole
    games: the checks change nothing."""
    from wnotation.engine import replay
    from wnotation.engine.bot import play_game
    from wnotation.engine.state import Game, initial

    for seed in range(3):
        r = replay(play_game(players, seed, "random" if seed % 2 else "greedy"))
        g = Game(initial(r.final.table))
        g.commit(r.events)
        assert g.snapshot() == fold(initial(r.final.table), r.events) == r.final


def test_events_are_frozen_values():
    e = ev.CoinsPaid(1, None, 2)
    assert e == ev.CoinsPaid(1, None, 2) and hash(e) == hash(ev.CoinsPaid(1, None, 2))
    with pytest.raises(AttributeError):
        e.amount = 3


def test_apply_shares_what_it_does_not_change():
    s = position(TABLE, hands=[["Altar"] * 7] * 3)
    after = apply(s, ev.CoinsGained(2, 5, "sale"))
    assert after.cities[1].coins == 8 and s.cities[1].coins == 3
    assert after.cities[0] is s.cities[0] and after.cities[2] is s.cities[2]
    assert after.hands is s.hands and after.discard is s.discard
    assert after.cities[1].buildings is s.cities[1].buildings


def test_card_built_updates_production_prices_and_names():
    s = position(TABLE, hands=[["Timber Yard", "West Trading Post", "Forum"]] * 3)
    s = fold(s, [ev.CardBuilt(1, card("Timber Yard", 1)), ev.CardBuilt(1, card("West Trading Post", 1)),
                 ev.CardBuilt(1, card("Forum", 2))])
    c = s.cities[0]
    assert ("wood", "stone") in c.own and ("wood", "stone") in c.tradable
    assert ("glass", "papyrus", "loom") in c.own and ("glass", "papyrus", "loom") not in c.tradable
    assert c.prices.left_raw == 1 and c.prices.right_raw == 2
    assert c.names == {"Timber Yard", "West Trading Post", "Forum"} and c.colours == {"brown", "yellow"}
    assert s.hands[0] == ()


def test_stage_built_grants_powers_shields_and_picks():
    s = position(TABLE)
    s = fold(s, [ev.StageBuilt(2, 1, None), ev.StageBuilt(3, 1, None), ev.StageBuilt(3, 2, None)])
    assert s.cities[1].shields == 1 and s.cities[2].picks == 1 and s.cities[2].stage_ages == (1, 1)
    with pytest.raises(IntegrityError):
        apply(s, ev.StageBuilt(2, 3, None))


@pytest.mark.parametrize("event", [ev.TurnResolved(1, 3), ev.AgeDealt(2, ((), (), ())), ev.AgeEnded(1),
                                   ev.PickedFromDiscard(1, None), ev.PickDeclined(1)])
def test_apply_refuses_events_at_the_wrong_step(event):
    s = position(TABLE, hands=[["Altar"]] * 3)
    with pytest.raises(IntegrityError):
        apply(s, event)


def test_take_from_hands_with_unknown_cards():
    altar, well = card("Altar", 1), card("Well", 1)
    assert _take((altar, None, well), well) == (altar, None)
    assert _take((altar, None), well) == (altar,)  # a known card not seen in the hand takes an unknown slot
    assert _take((altar, None), None) == (altar,)
    assert _take((altar, well), None) == (None,)  # which card left is unknown: the rest becomes unknown
    with pytest.raises(IntegrityError):
        _take((), altar)


def test_hands_pass_in_both_directions():
    s = position(TABLE, hands=[["Altar"], ["Well"], ["Baths"]])
    left = apply(s, ev.HandsPassed(ev.LEFT))
    right = apply(s, ev.HandsPassed(ev.RIGHT))
    assert [h[0].name for h in left.hands] == ["Baths", "Altar", "Well"]
    assert [h[0].name for h in right.hands] == ["Well", "Baths", "Altar"]


def test_view_hides_other_hands_staged_cards_and_the_pile():
    from wnotation.engine.state import view

    s = position(TABLE, hands=[["Altar", "Well"], ["Baths", "Loom"], ["Press", "Tavern"]], discard=["Theater"])
    s = apply(s, ev.StageBuilt(2, 1, card("Baths", 1)))
    seen = view(s, 1)
    assert seen.hands[0] == s.hands[0] and seen.hands[1:] == ((None,), (None, None))
    assert seen.cities[1].staged == (None,) and seen.cities[1].stages == 1
    assert seen.discard == (None,) and view(s, 2).cities[1].staged == (card("Baths", 1),)


def _apply_each(state, events):
    for e in events:
        state = apply(state, e)
    return state


@pytest.mark.parametrize("players", [3, 5, 7])
def test_fold_in_one_pass_equals_applying_each_event(players):
    """``fold`` builds each turn in one pass on a draft: on many games, every position it reaches is the one that
    applying the events one by one reaches, whatever the batches."""
    from wnotation.engine import replay
    from wnotation.engine.bot import play_game
    from wnotation.engine.state import initial

    for seed in range(12):
        r = replay(play_game(players, seed, "random" if seed % 2 else "greedy"))
        start = initial(r.final.table)
        marks = list(r.marks.items())
        state, done = start, 0
        for where, upto in marks:
            state = _apply_each(state, r.events[done:upto])
            assert state == r.position(where), where
            done = upto
        assert fold(start, r.events) == state
        for size in (2, 3, 7, 20):  # batches that cut across turns and Ages
            batched = start
            for k in range(0, len(r.events), size):
                batched = fold(batched, list(r.events[k:k + size]))
            assert batched == state, size


@pytest.mark.parametrize("bad", [ev.TurnResolved(1, 3), ev.StageBuilt(2, 2, None), ev.AgeEnded(1),
                                 ev.PickDeclined(1), ev.CardBuilt(3, card("Well", 1))])
def test_fold_refuses_what_apply_refuses_in_the_middle_of_a_batch(bad):
    s = position(TABLE, hands=[["Altar"]] * 3)
    before = [ev.CoinsGained(1, 2, "sale"), ev.CardSold(3, card("Altar", 1))]
    with pytest.raises(IntegrityError) as by_apply:
        _apply_each(s, before + [bad])
    with pytest.raises(IntegrityError) as by_fold:
        fold(s, before + [bad, ev.CoinsGained(2, 1, "sale")])
    assert str(by_fold.value) == str(by_apply.value)


def test_a_citys_supply_summaries_follow_its_production_as_it_grows():
    """The aggregate keeps ``own_supply``/``tradable_supply`` up to date build by build (the trade questions read
    them, never ``own``): after any builds they equal the summary made afresh from the sources, and a
    non-tradable source (a Wonder stage's) is in ``own`` only."""
    from wnotation.engine.state import Game, stage_info
    from wnotation.engine.trade import Supply

    s = position([("Alexandria", "day"), ("Rhodos", "day"), ("Ephesos", "day")],
                 hands=[["Lumber Yard", "Clay Pool", "Caravansery", "Forum", "Altar"]] * 3)
    g = Game(s)
    c = g.cities[0]
    for name, age in (("Lumber Yard", 1), ("Clay Pool", 1), ("Caravansery", 2), ("Forum", 2)):
        c.build(card(name, age))
        for sources, summary in ((c.own, c.own_supply), (c.tradable, c.tradable_supply)):
            fresh = Supply.of(sources)
            assert (summary.singles, summary.multi) == (fresh.singles, fresh.multi), name
    stage = stage_info(c.wonder, 2)
    assert stage.sources and not stage.tradable  # Alexandria's either/or raw resource is for its own use
    tradable = c.tradable
    c.add(stage)
    assert c.tradable == tradable and set(stage.sources) <= set(c.own)
    assert g.snapshot().cities[0].own == c.own


def test_city_fields_are_declared_once_and_typed_alike_on_the_aggregate():
    """``City`` is the one list of a city's fields: ``CityState`` holds, copies in and snapshots exactly those (its
    slots and ``__init__``/``snapshot`` read ``CITY_FIELDS``), and types each as ``City`` does, but for the fields it
    grows in place (``GROWN_FIELDS``): a ``set`` where ``City`` has a ``frozenset``, which a snapshot freezes."""
    from wnotation.engine import COMPILED
    from wnotation.engine.state import CITY_FIELDS, GROWN_FIELDS, City, CityState

    assert CITY_FIELDS == City._fields
    assert set(GROWN_FIELDS) < set(CITY_FIELDS)
    if not COMPILED:  # a mypyc class keeps neither: its attributes are laid out from the same annotations
        assert tuple(CityState.__slots__[:len(CITY_FIELDS)]) == CITY_FIELDS
        hints, declared = typing.get_type_hints(City), typing.get_type_hints(CityState)
        for f in GROWN_FIELDS:
            assert typing.get_origin(hints[f]) is frozenset and typing.get_origin(declared[f]) is set, f
            assert typing.get_args(hints[f]) == typing.get_args(declared[f]), f
        assert ({f: declared.get(f) for f in CITY_FIELDS if f not in GROWN_FIELDS} ==
                {f: hints[f] for f in CITY_FIELDS if f not in GROWN_FIELDS})
    s = position(TABLE, hands=[["Altar"]] * 3)
    for city in s.cities:
        assert CityState(city).snapshot() is city  # a city not changed since is shared
        copy = CityState(city)
        copy.snapshot_taken = None
        assert copy.snapshot() == city and copy.snapshot() is not city
        assert all(type(getattr(copy, f)) is set and type(getattr(copy.snapshot(), f)) is frozenset
                   for f in GROWN_FIELDS)


def test_a_snapshot_keeps_its_sets_while_the_city_grows():
    """A snapshot freezes the sets the aggregate grows in place: building on afterwards changes the aggregate's
    ``names`` and ``colours``, never the snapshot's."""
    from wnotation.engine.state import Game

    g = Game(position(TABLE, hands=[["Altar", "Baths", "Lumber Yard"]] * 3))
    before = g.snapshot().cities[0]
    g.apply(ev.CardBuilt(1, card("Altar", 1)))
    after = g.snapshot().cities[0]
    assert before.names == frozenset() and before.colours == frozenset()
    assert after.names == {"Altar"} and after.colours == {"blue"}
    assert type(after.names) is frozenset and after.names is not g.cities[0].names
    g.apply(ev.CardBuilt(1, card("Lumber Yard", 1)))
    assert g.cities[0].names == {"Altar", "Lumber Yard"} and g.cities[0].colours == {"blue", "brown"}
    assert after.names == {"Altar"} and after.colours == {"blue"}


@pytest.mark.parametrize("players", [3, 7])
def test_a_snapshot_is_never_stale_whatever_event_changed_the_city(players):
    """Snapshots share unchanged cities; a city changed by any mutator must not hand out its old snapshot (each
    mutator takes the city it changes from ``CityState.changing``). A snapshot taken after every event of whole
    games equals the city made afresh from the aggregate's fields, and one taken again at once is the same object."""
    from wnotation.engine import replay
    from wnotation.engine.bot import play_game
    from wnotation.engine.state import CITY_FIELDS, City, Game, initial

    seen: set[type] = set()
    for seed in range(4):
        r = replay(play_game(players, seed, "random" if seed % 2 else "greedy"))
        g = Game(initial(r.final.table))
        for e in r.events:
            g.apply(e)
            seen.add(type(e))
            taken = g.snapshot()
            for c, city in zip(g.cities, taken.cities):
                assert city == City(*(getattr(c, f) for f in CITY_FIELDS)), (type(e).__name__, c.seat)
            assert all(a is b for a, b in zip(g.snapshot().cities, taken.cities))
        assert g.snapshot() == r.final
    assert {ev.CardBuilt, ev.StageBuilt, ev.CoinsPaid, ev.CoinsGained, ev.ConflictResolved} <= seen
