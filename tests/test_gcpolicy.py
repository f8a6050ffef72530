"""The collector policy of batch runs: applied inside the block, the collector restored as found on every exit,
nesting-safe; and the library (replay, bot games) leaves the collector alone."""

import gc

import pytest

from wnotation.support import gcpolicy
from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.support.gcpolicy import batch_collection, gc_state


@pytest.fixture
def odd_collector():
    """A collector state no default matches (so a restore to defaults would be caught), restored afterwards."""
    before = gc_state()
    gc.set_threshold(1234, 11, 13)
    yield
    gc.set_threshold(*before[1])
    gc.enable() if before[0] else gc.disable()


def test_inside_the_block_startup_is_frozen_and_gen0_threshold_raised(odd_collector):
    with batch_collection(gen0=40_000):
        enabled, thresholds, frozen = gc_state()
        assert thresholds == (40_000, 11, 13)
        assert frozen
        assert enabled == gc.isenabled()
    assert gc_state()[1] == (1234, 11, 13)


def test_state_restored_on_exception(odd_collector):
    gc.disable()
    before = gc_state()
    with pytest.raises(KeyError):
        with batch_collection():
            gc.enable()
            gc.set_threshold(7)
            raise KeyError("boom")
    assert gc_state() == before
    assert gcpolicy._depth == 0


def test_state_restored_when_enabled_and_nothing_frozen(odd_collector):
    gc.enable()
    assert gc.get_freeze_count() == 0
    before = gc_state()
    with batch_collection():
        pass
    assert gc_state() == before


def test_nested_blocks_are_no_ops_and_the_outer_exit_restores(odd_collector):
    before = gc_state()
    with batch_collection(gen0=30_000):
        inside = gc_state()
        with batch_collection(gen0=90_000):
            assert gc_state() == inside
        assert gc_state() == inside
        with pytest.raises(ValueError):
            with batch_collection():
                raise ValueError
        assert gc_state() == inside
    assert gc_state() == before


def test_a_lower_gen0_never_lowers_the_threshold(odd_collector):
    gc.set_threshold(100_000)
    with batch_collection(gen0=1_000):
        assert gc.get_threshold()[0] == 100_000


def test_objects_frozen_before_are_left_frozen(odd_collector):
    gc.freeze()
    try:
        before = gc_state()
        assert before[2]
        with batch_collection():
            assert gc_state()[2]
        assert gc_state() == before
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("enabled", [True, False])
def test_library_calls_leave_the_collector_as_found(odd_collector, enabled):
    gc.enable() if enabled else gc.disable()
    before = gc_state()
    record = play_game(4, 3, "greedy")
    assert gc_state() == before
    result = replay(record)
    assert gc_state() == before
    assert result.positions and not [f for f in result.findings if f.severity == "error"]
    assert gc_state() == before
