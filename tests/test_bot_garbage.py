"""The bot's play loop leaves no cyclic garbage (issue 31.3): the collector is kept out of the way by design, so
gcpolicy's raised threshold only saves walks of live objects, never delays freeing anything."""

from __future__ import annotations

import gc

import pytest

from wnotation.engine.bot import play_game
from wnotation.notation import write


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_generated_games_make_no_cycles(bot: str) -> None:
    write(play_game(7, 99, bot))  # warm the memos and caches first: what they keep is not garbage
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            write(play_game(7, seed, bot))
            write(play_game(3, seed, bot))
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
