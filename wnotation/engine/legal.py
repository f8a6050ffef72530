"""The legal actions of a seat at a position, for analysis, bots and generated games.

Reuses the checks of :mod:`.rules` (same free builds, same trade solver), so what is listed here replays without a
finding. Unknown cards in a hand cannot be listed; builds from the discard pile are listed by
:func:`~wnotation.engine.rules.pick_options`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalog import Card
from .rules import NO_PURCHASE, cheapest_options, free_reason, seats_to_act
from .state import State, info, stage_info
from .trade import Purchase


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One legal play: ``use`` (build / stage / sell) of ``card`` with ``purchase``, paying ``coins`` in all (coin
    cost to the bank plus coins to the neighbours). ``free`` is ``"chain"`` or ``"power"`` for a free build;
    ``default`` is true when ``purchase`` is what the engine chooses for a record that states none."""

    seat: int
    use: str
    card: Card
    purchase: Purchase = NO_PURCHASE
    coins: int = 0
    free: str | None = None
    default: bool = True

    def __str__(self) -> str:
        text = f"{self.use} {self.card.name}"
        if self.free:
            return f"{text} (free: {self.free})"
        if self.purchase.units:
            return f"{text} (buy {self.purchase}; {self.coins} coins)"
        return f"{text} ({self.coins} coins)" if self.coins else text


def _options(state: State, seat: int, cost: dict[str, int], coin_cost: int) -> tuple[tuple[Purchase, int, bool], ...]:
    city = state.cities[seat - 1]
    if coin_cost > city.coins:
        return ()
    if not cost:
        return ((NO_PURCHASE, coin_cost, True),)
    n = len(state.cities)
    found = cheapest_options(cost, city.own, state.cities[seat % n].tradable, state.cities[(seat - 2) % n].tradable,
                     city.prices, city.coins - coin_cost)
    return tuple((p, coin_cost + p.coins, k == 0) for k, p in enumerate(found))


def legal_actions(state: State, seat: int) -> tuple[LegalAction, ...]:
    """Every legal play of ``seat`` in the next turn at ``state``, ``()`` if the seat does not act.

    Order: the distinct known cards of the hand in hand order; for each, its builds, then its stages, then its
    sale. A paid build or stage is listed once per *cheapest* purchase (R-TRADE-MINIMAL), in the trade solver's
    canonical order, the first being the default; dearer purchases are legal too but not listed. A free build
    (R-CHAIN, Olympia) is listed once, without purchase. Cost: one memoised solver call per card plus one for the
    stage.
    """
    if seat not in seats_to_act(state):
        return ()
    turn = state.turn + 1
    city = state.cities[seat - 1]
    out: list[LegalAction] = []
    stage = None
    n = city.stages + 1
    if n <= len(city.wonder.stages):
        stage = _options(state, seat, stage_info(city.wonder, n).cost, city.wonder.stages[n - 1].cost.coins)
    seen: list[Card] = []
    for card in state.hands[seat - 1]:
        if card is None or card in seen:
            continue
        seen.append(card)
        if card.name not in city.names:
            free = free_reason(state, city, card, turn)
            if free is not None:
                out.append(LegalAction(seat, "build", card, NO_PURCHASE, 0, free))
            else:
                for p, coins, default in _options(state, seat, info(card).cost, card.cost.coins):
                    out.append(LegalAction(seat, "build", card, p, coins, None, default))
        if stage:
            for p, coins, default in stage:
                out.append(LegalAction(seat, "stage", card, p, coins, None, default))
        out.append(LegalAction(seat, "sell", card))
    return tuple(out)
