"""A replay leaves no cyclic garbage (issue 31 item 3): the collector is kept out of the way by design, not by
switching it off, so gcpolicy's raised threshold only saves walks of live objects and never delays freeing what a
replay made. Every bundled replay (variations, a position start, a partial record, a score pad) and bot games of
every table size are replayed with the collector off; a collection afterwards finds nothing."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.model.record import Record
from wnotation.notation import read_games, write

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def _records() -> list[Record]:
    found = [r for p in sorted(REPLAYS.glob("*.7wn")) for r in read_games(str(p)) if isinstance(r, Record)]
    assert len(found) >= 8  # the bundled replays are read, not skipped
    return found + [play_game(n, n, kind) for n in range(3, 8) for kind in ("greedy", "random")]


@pytest.fixture
def collector_off():
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def test_replays_make_no_cycles(collector_off: None) -> None:
    records = _records()
    for r in records:  # warm the memos and caches first: what they keep is not garbage
        replay(r)
    gc.collect()
    for r in records:
        result = replay(r)
        assert result.events or result.findings or result.scores is not None  # something was replayed
        del result
        assert gc.collect() == 0


def test_a_replay_and_its_positions_make_no_cycles(collector_off: None) -> None:
    """Positions are built lazily from the events: asking for them leaves no cycle either."""
    record = play_game(3, 5, "greedy")
    write(record)
    replay(record)
    gc.collect()
    result = replay(record)
    states = [result.positions[where] for where in result.positions]
    assert states and states[-1].age == 3 and states[-1].ended
    del result, states
    assert gc.collect() == 0


def test_the_check_a_cycle_would_fail(collector_off: None) -> None:
    """The measure itself: a cycle left behind is counted."""
    gc.collect()
    a: list[object] = []
    a.append(a)
    del a
    assert gc.collect() >= 1
