"""The replay engine: events, one mutator each on a game aggregate, rules, trade questions and scoring.

Entry points: :func:`replay` (Record -> :class:`Replay`), :func:`legal_actions`, :func:`seats_to_act`,
:func:`resolve_turn`, :func:`apply`, :func:`fold` and :func:`view` (what one seat sees) on positions, and
:class:`Game` with :func:`play_turn` for a game being played. It never imports the notation package.
"""

from .findings import Finding
from .legal import LegalAction, legal_actions
from .replay import Replay, clear_caches, replay
from .rules import (
    Play, end_age, pick_options, picks_owed, play_picks, play_turn, resolve_picks, resolve_turn, seats_to_act,
    step_turn,
)
from .state import City, Game, IntegrityError, State, Table, apply, fold, initial, view

__all__ = [
    "City", "Finding", "Game", "IntegrityError", "LegalAction", "Play", "Replay", "State", "Table", "apply",
    "clear_caches", "end_age", "fold", "initial", "legal_actions", "pick_options", "picks_owed", "play_picks",
    "play_turn", "replay", "resolve_picks", "resolve_turn", "seats_to_act", "step_turn", "view",
]
