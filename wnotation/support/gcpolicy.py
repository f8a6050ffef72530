"""The garbage-collector policy of batch runs, and the one place that changes the collector.

A replay allocates many small objects that all live until the game ends, so the collector's generation-0 passes
find nothing to free and cost ~15% of a long ``check``. The library never changes the collector (a library function
changing process-wide state surprises its callers); batch callers (``check``, ``fmt``, ``generate``, the
benchmarks) opt in with :func:`batch_collection` around their loop, after their imports:

    with batch_collection():
        for game in games:
            ...

On entry it freezes what start-up made (imports, parsers, the catalogue: nothing of it is garbage, so no later
pass should walk it) and raises the generation-0 threshold for the loop; on exit it restores the collector as it
found it (enabled or not, the thresholds, nothing frozen if nothing was), also on exceptions. It does not collect
before freezing: a full pass over start-up's objects costs 25-30 ms after the CLI's imports and frees nothing
(measured: 0 unreachable), and a cycle that start-up did leave is collectable again once the block unfreezes it.
Nested uses are no-ops inside the outermost one. The nesting count is per process, not per thread: two threads
entering at once share one policy, which ends when the last of them leaves.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

GEN0_THRESHOLD = 50_000
"""Allocations between generation-0 passes during a batch (CPython's default is 700; at 50,000 a pass runs a few
times a game, and the frozen start-up objects are never walked)."""

_depth = 0


@contextmanager
def batch_collection(gen0: int = GEN0_THRESHOLD) -> Iterator[None]:
    """Run the block under the batch policy (see the module docstring); ``gen0`` is the generation-0 threshold."""
    global _depth
    if _depth:
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    enabled = gc.isenabled()
    thresholds = gc.get_threshold()
    froze = gc.get_freeze_count() == 0
    _depth = 1
    try:
        if froze:
            gc.freeze()
        gc.set_threshold(max(gen0, thresholds[0]), *thresholds[1:])
        yield
    finally:
        _depth = 0
        gc.set_threshold(*thresholds)
        if froze:
            gc.unfreeze()
        if not enabled:
            gc.disable()


def gc_state() -> tuple[bool, tuple[int, ...], bool]:
    """What :func:`batch_collection` promises to restore: enabled, thresholds, and whether objects are frozen (their
    number drops by itself as frozen objects are freed)."""
    return gc.isenabled(), gc.get_threshold(), gc.get_freeze_count() > 0
