"""Purchases stated in coins (7WN version 2, spec 7wn.md §7.4): which purchase the coins paid to each neighbour buy.

A table remembers "I paid Bob 2 coins", and other engines log coins per side. The trade solver already lists every
minimal purchase of a cost in canonical order (:func:`.trade.minimal_purchases`); the coins pick those that pay
exactly that many coins to each side, and the first of them in that order is the one bought (R-TRADE-MINIMAL in
spec/rulings.md: "Coins stated"). All of them pay the same coins to the same neighbours, so the choice changes no
event, coin count or score: it only decides which units the canonical text writes. None fitting is a finding.
"""

from __future__ import annotations

from typing import Mapping, NamedTuple

from ..model.catalog import Card
from ..model.vocabulary import left_of, right_of
from .state import Game, State, info, stage_info
from .trade import Purchase, Refusal, minimal_purchases, unaffordable


class Coins(NamedTuple):
    """A purchase stated as the coins paid to the left neighbour (seat i+1) and to the right one (seat i-1).

    Indexable like a stated ``(left units, right units)`` pair: ``c[0] or c[1]`` is true when it pays anything,
    which is what a free build's check asks (R-FREE)."""

    left: int
    right: int


def _coins(n: int) -> str:
    return "1 coin" if n == 1 else f"{n} coins"


def describe(coins: Coins) -> str:
    """``2 coins to the left and 1 coin to the right``, for findings."""
    return f"{_coins(coins.left)} to the left and {_coins(coins.right)} to the right"


def bought_by(game: Game, seat: int, cost: Mapping[str, int], budget: int, coins: Coins) -> Purchase | Refusal:
    """The purchase that the stated ``coins`` buy for ``seat``'s resource ``cost`` in ``game`` (the turn-start
    position), within ``budget`` (coins held less the coin cost): the first minimal purchase in canonical order
    paying exactly those coins to each side; or the refusal, with its rule: R-COST-COINS when the coins are more
    than the budget, the solver's refusal when no purchase covers the cost at all, R-TRADE-MINIMAL when purchases
    exist but none pays those coins (the message lists what the legal ones pay)."""
    if coins.left < 0 or coins.right < 0:
        return Refusal("R-TRADE-MINIMAL", f"a purchase cannot pay a negative number of coins ({describe(coins)})")
    if budget < 0:
        return Refusal("R-COST-COINS", "the coin cost alone is more than the coins held")
    city = game.cities[seat - 1]
    n = len(game.cities)
    left, right = game.cities[left_of(seat, n) - 1], game.cities[right_of(seat, n) - 1]
    options = minimal_purchases(cost, city.own, left.tradable, right.tradable, city.prices) if cost else (Purchase(),)
    if not options:
        return unaffordable(cost, city.own, left.tradable, right.tradable, city.prices, budget)
    for option in options:
        if option.left_coins == coins.left and option.right_coins == coins.right:
            if option.coins > budget:
                return Refusal("R-COST-COINS", f"paying {describe(coins)} costs {_coins(option.coins)}, has "
                               f"{budget}")
            return option
    paid = sorted({(o.left_coins, o.right_coins) for o in options})
    shown = ", ".join(f"L {a} R {b}" for a, b in paid[:6]) + (", …" if len(paid) > 6 else "")
    return Refusal("R-TRADE-MINIMAL", f"no legal purchase pays exactly {describe(coins)} (the legal purchases "
                   f"pay {shown})")


def purchase_for(position: State | Game, seat: int, use: str, card: Card | None, coins: Coins) -> Purchase | Refusal:
    """What ``coins`` buy for ``seat``'s ``use`` (``build`` or ``stage``) of ``card`` in the next turn at
    ``position``: :func:`bought_by` on the card's cost or the next stage's (``card`` may be ``None`` for a stage).
    Free builds are the caller's to
    recognise (nothing is bought there). Used to write a coin-stated purchase as units (``wnotation.formats.canonical``)."""
    game = position if isinstance(position, Game) else Game(position)
    city = game.cities[seat - 1]
    if use == "stage":
        n = city.stages + 1
        if n > len(city.wonder.stages):
            return Refusal("R-STAGE", f"all {city.stages} stages of {city.wonder} are built")
        cost, coin_cost = stage_info(city.wonder, n).cost, city.wonder.stages[n - 1].cost.coins
    elif card is not None:
        cost, coin_cost = info(card).cost, card.cost.coins
    else:
        return Refusal("R-TURN", "a build of a card that the record does not name")
    return bought_by(game, seat, cost, city.coins - coin_cost, coins)
