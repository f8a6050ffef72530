"""Analysis of a replayed game (issue 33): each seat's chance to win at every turn boundary, estimated by playouts.

:func:`~.winchance.estimate` rates one position; :func:`~.winchance.analyse` rates every turn boundary of a replay,
in worker processes if asked. The rollout policy is :func:`~.rollout.choose`; the engine is used only through the
calls ``engine/bot.py`` makes (legal actions, ``play_turn``, ``play_picks``, ``end_age``), never with rules of its own.
"""

from .marks import THRESHOLDS, Mark, annotate, classify, marks
from .winchance import Analysis, Estimate, analyse, estimate, playout, wilson

__all__ = ["THRESHOLDS", "Mark", "annotate", "classify", "marks", "Analysis", "Estimate", "analyse", "estimate", "playout", "wilson"]
