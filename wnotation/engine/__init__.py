"""The replay engine: state, events, rules, trade solver and scoring, pure functions over frozen values.

Entry points: :func:`replay` (Record -> :class:`Replay`), :func:`legal_actions`, :func:`seats_to_act`,
:func:`resolve_turn`, :func:`apply` and :func:`view` (what one seat sees). It never imports the notation package.
"""

from .findings import Finding
from .legal import LegalAction, legal_actions
from .replay import Replay, clear_caches, replay
from .rules import Play, end_age, pick_options, picks_owed, resolve_picks, resolve_turn, seats_to_act, step_turn
from .state import City, IntegrityError, State, Table, apply, fold, initial, view

__all__ = [
    "City", "Finding", "IntegrityError", "LegalAction", "Play", "Replay", "State", "Table", "apply", "clear_caches",
    "end_age", "fold", "initial", "legal_actions", "pick_options", "picks_owed", "replay", "resolve_picks",
    "resolve_turn", "seats_to_act", "step_turn", "view",
]
