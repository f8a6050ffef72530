"""The reader's and position strings' caches are memos of the one registry (wnotation/support/memo.py, issue 30 item 8):
named, bounded, emptied by ``clear_all`` (so by ``engine.clear_caches``), and forgetting them changes no result."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sized
from pathlib import Path

from wnotation import read_games
from wnotation.support import memo
from wnotation.engine import clear_caches
from wnotation.engine import memo as engine_memo
from wnotation.notation.reader import fast_route, names
from wnotation.engine.position_rules import read
from wnotation.model.position_string import write
from wnotation.model.position_string import _AGES_OF_NAME as AGES_OF_NAME
from wnotation.model.record import Record

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn"
CACHES: dict[str, Sized] = {
    "reader: turn pieces as written": fast_route.PIECES,
    "reader: card names as written": names.card_names(),
    "position strings: the Ages of each printed card name": AGES_OF_NAME,
}


def test_the_reader_and_position_caches_are_registered_bounded_memos() -> None:
    registered = {id(m) for m in memo.REGISTRY}
    for name, cache in CACHES.items():
        assert isinstance(cache, memo.Memo), name
        assert id(cache) in registered, name
        assert cache.name == name and cache.limit > 0


def test_the_engine_path_is_the_same_registry() -> None:
    assert engine_memo.Memo is memo.Memo and engine_memo.REGISTRY is memo.REGISTRY
    assert engine_memo.clear_all is memo.clear_all and engine_memo.memo is memo.memo


def _game_text() -> str:
    """A bot's game as written: plain turn lines, which the fast route reads and its piece cache holds."""
    from wnotation import write
    from wnotation.engine.bot import play_game

    return write(play_game(3, 1, "greedy"))


def test_clear_caches_empties_them_and_reading_again_gives_the_same_games() -> None:
    text = _game_text()
    before = list(read_games(text))
    assert fast_route.PIECES and names.card_names()
    clear_caches()
    assert all(len(cache) == 0 for cache in CACHES.values())
    assert list(read_games(text)) == before
    assert fast_route.PIECES
    assert names.card_names()["Glassworks"] == "Glassworks", "the printed names come back after a clear"


def test_position_strings_read_the_same_after_a_clear() -> None:
    from wnotation.engine import replay
    from wnotation.engine.position import setup_of

    record = next(read_games(GAME))
    assert isinstance(record, Record)
    played = replay(record)
    setups = [setup_of(state, record.seed.value if record.seed else None) for _, state in played]
    texts = [write(s) for s in setups]
    assert AGES_OF_NAME, "writing looked up the Ages of card names"
    memo.clear_all()
    assert len(AGES_OF_NAME) == 0
    assert [read(t) for t in texts] == setups
    assert [write(s) for s in setups] == texts


def test_the_registry_loads_nothing_of_the_package() -> None:
    """The reader registers its caches without loading the engine (text -> reader -> Record -> engine)."""
    code = "import sys, wnotation.support.memo; print(sorted(m for m in sys.modules if m.startswith('wnotation.')))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['wnotation.support', 'wnotation.support.memo']"
