"""The package's front door (wnotation/__init__.py): each function hands over to its module unchanged."""

from __future__ import annotations

import pytest

import wnotation
from wnotation.engine.bot import play_game
from wnotation.notation import NotationError
from wnotation.record import Record


def test_read_games_passes_the_error_policy_on():
    good = wnotation.write(play_game(3, 1))
    broken = good.replace("I.1 ", "I.9 ", 1)
    text = good + "\n" + broken + "\n" + good
    collected = list(wnotation.read_games(text))
    assert len(collected) == 3 and isinstance(collected[1], NotationError)
    assert isinstance(collected[0], Record) and isinstance(collected[2], Record)
    with pytest.raises(NotationError):
        list(wnotation.read_games(text, errors="raise"))


def test_parse_write_replay_agree_with_their_modules():
    record = play_game(4, 2, "greedy")
    text = wnotation.write(record)
    assert wnotation.parse(text) == record
    assert wnotation.replay(record).scores == wnotation.replay(wnotation.parse(text)).scores
    assert wnotation.write_games([record, record]) == text + "\n" + text
    assert wnotation.check(text).ok
