"""The rollout policy of playouts: the one place that says how a seat plays a position it is dealt into.

Built on the helpers ``engine/bot.py`` has today (``_choices``, ``_choose``, ``_pick``: imported here and only here);
when the bot gains its public ``choose(state, seat, rng)``, :func:`choose` becomes that call.
"""

from __future__ import annotations

from ..catalog import Card
from ..deck import SplitMix64
from ..engine import Game, LegalAction, legal_actions, picks_owed
from ..engine.bot import _choices, _choose, _pick  # private helpers until the bot's public policy is merged

#: One play in EXPLORE (out of 2**64 draws) is uniformly random rather than greedy, so that playouts differ even
#: where the greedy bot has no ties; a quarter keeps the policy mostly greedy.
EXPLORE = 1 << 62


def choose(game: Game, seat: int, rng: SplitMix64) -> tuple[LegalAction | None, Card | None]:
    """``(action, None)`` for a seat to act, ``(None, pick)`` for a seat owed a build from the pile (R-HALI; the
    pick ``None`` declines): greedy, or uniformly random one time in four."""
    bot = "random" if rng.next() < EXPLORE else "greedy"
    if seat in picks_owed(game):
        return None, _pick(game, seat, bot, rng)
    return _choose(game, _choices(legal_actions(game, seat)), bot, rng), None
