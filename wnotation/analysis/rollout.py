"""The rollout policy of playouts: the one place that says how a seat plays a position it is dealt into.

It is the engine's own bot policies (:data:`wnotation.engine.policy.POLICIES`, which price only the plays they
consider), mixed: mostly greedy, sometimes uniformly random, so that playouts of one position differ.
"""

from __future__ import annotations

from typing import cast

from ..model import record
from ..model.catalog import Card
from ..model.deck import SplitMix64
from ..engine import Game, LegalAction, State, legal_actions, picks_owed
from ..engine.policy import POLICIES, Policy

#: One play in EXPLORE (out of 2**64 draws) is uniformly random rather than greedy, so that playouts differ even
#: where the greedy bot has no ties; a quarter keeps the policy mostly greedy.
EXPLORE = 1 << 62


def _mixed(rng: SplitMix64) -> Policy:
    """Greedy, or uniformly random one time in four: one draw of ``rng``."""
    return POLICIES["uniform" if rng.next() < EXPLORE else "greedy"]


class RolloutPolicy:
    """The rollout policy as an engine :class:`~wnotation.engine.policy.Policy` (for
    :func:`~wnotation.engine.playout.play_out`): each play and each pick as :func:`choose` makes it."""

    def choose(self, state: Game, seat: int, rng: SplitMix64) -> LegalAction:
        return _mixed(rng).choose(state, seat, rng)

    def pick(self, state: Game, seat: int, rng: SplitMix64) -> Card | None:
        return _mixed(rng).pick(state, seat, rng)


#: The one rollout policy every seat of a playout is played by.
ROLLOUT = RolloutPolicy()


def choose(game: Game, seat: int, rng: SplitMix64) -> tuple[LegalAction | None, Card | None]:
    """``(action, None)`` for a seat to act, ``(None, pick)`` for a seat owed a build from the pile (R-HALI; the
    pick ``None`` declines): greedy, or uniformly random one time in four."""
    policy = _mixed(rng)
    if seat in picks_owed(game):
        return None, policy.pick(game, seat, rng)
    return policy.choose(game, seat, rng), None


def alternatives(state: State, seat: int) -> tuple[LegalAction, ...]:
    """The plays a seat could have made instead, one per distinct play (use, card, what becomes of the last card):
    the cheapest purchase of each (R-TRADE-MINIMAL), leaving out a play that declines the extra turn when the
    same play keeping the last card is listed (R-BABYLON-N1), as the bots do."""
    legal = legal_actions(state, seat)
    keeping = {(a.use, a.card.name) for a in legal if a.keeps}
    seen: set[tuple[str, str, bool, str | None]] = set()
    out = []
    for a in legal:
        if not a.keeps and (a.use, a.card.name) in keeping:
            continue
        key = (a.use, a.card.name, a.keeps, a.discard.name if a.discard is not None else None)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return tuple(out)


def as_action(a: LegalAction, turn: int) -> record.Action:
    """``a`` as a Record action on turn ``turn``, stated as the bot's records state it: the purchase when it is not
    the default, each side's units sorted by name, and turn 6's discard."""
    discard = a.discard if turn == 6 and not a.keeps else None
    stated = None
    if not a.default:
        stated = record.Purchase(left=tuple(sorted(a.purchase.left)), right=tuple(sorted(a.purchase.right)))
    return record.Action(seat=a.seat, use=cast(record.Use, a.use), card=a.card.name, purchase=stated,
                         discard=discard.name if discard is not None else None)
