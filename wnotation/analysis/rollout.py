"""The rollout policy of playouts: the one place that says how a seat plays a position it is dealt into.

Built on the helpers ``engine/bot.py`` has today (``_choices``, ``_choose``, ``_pick``: imported here and only here);
when the bot gains its public ``choose(state, seat, rng)``, :func:`choose` becomes that call.
"""

from __future__ import annotations

from .. import record
from ..catalog import Card
from ..deck import SplitMix64
from ..engine import Game, LegalAction, Play, State, legal_actions, picks_owed
# private helpers until the bot's public policy is merged
from ..engine.bot import _action, _choices, _choose, _pick

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


def alternatives(state: State, seat: int) -> tuple[LegalAction, ...]:
    """The plays a seat could have made instead, one per distinct play (use, card, what becomes of the last card):
    the cheapest purchase of each, as the bot lists them (R-TRADE-MINIMAL)."""
    seen: set[tuple[str, str, bool, str | None]] = set()
    out = []
    for a in _choices(legal_actions(state, seat)):
        key = (a.use, a.card.name, a.keeps, a.discard.name if a.discard is not None else None)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return tuple(out)


def as_action(a: LegalAction, turn: int) -> record.Action:
    """``a`` as a Record action on turn ``turn``, stated as the bot's records state it."""
    discard = a.discard if turn == 6 and not a.keeps else None
    purchase = None if a.default else (a.purchase.left, a.purchase.right)
    play = Play(a.seat, a.use, a.card, purchase, (discard,) if discard is not None else ())
    return record.Action(**_action(play, a, discard, not a.default))
