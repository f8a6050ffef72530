"""The replay engine: events, one mutator each on a game aggregate, rules, trade questions and scoring.

Entry points: :func:`replay` (Record -> :class:`Replay`), :func:`legal_actions`, :func:`seats_to_act`,
:func:`resolve_turn`, :func:`apply`, :func:`fold` and :func:`view` (what one seat sees) on positions, and
:class:`Game` with :func:`play_turn` for a game being played. It never imports the notation package.
:data:`COMPILED` says whether this is the mypyc-compiled build (``pip install .`` with a C compiler) or pure Python.
"""

from importlib.machinery import EXTENSION_SUFFIXES

from . import state as _state
from .errors import IntegrityError
from .findings import Finding
from .legal import LegalAction, legal_actions
from .replay import Replay, clear_caches, replay
from .rules import (
    Play, end_age, pick_options, picks_owed, play_picks, play_turn, resolve_picks, resolve_turn, seats_to_act,
    step_turn,
)
from .state import City, Game, State, Table, apply, fold, initial, view

#: Whether the engine modules run compiled (a wheel built with mypyc, see hatch_build.py) or as Python sources.
COMPILED: bool = _state.__file__ is not None and _state.__file__.endswith(tuple(EXTENSION_SUFFIXES))

__all__ = [
    "COMPILED", "City", "Finding", "Game", "IntegrityError", "LegalAction", "Play", "Replay", "State", "Table",
    "apply", "clear_caches", "end_age", "fold", "initial", "legal_actions", "pick_options", "picks_owed", "play_picks",
    "play_turn", "replay", "resolve_picks", "resolve_turn", "seats_to_act", "step_turn", "view",
]
