"""How a seat chooses: the policy interface of the built-in bots and of playouts, and its two policies.

A policy chooses a play first and prices only what it considers (:func:`~.legal.plays`, :func:`~.legal.price`),
never every legal action of the seat: pricing every action was two thirds of a bot game. All randomness comes
from the SplitMix64 generator it is given, so a seed gives the same choices on every platform.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, Mapping, Protocol, Sequence

from ..model import deck
from ..model.catalog import Card, Effect, PlayLastCard, Points, WonderSide
from .legal import LegalAction, Play, legal_actions, plays, price, price_build
from .memo import Memo, memo
from .rules import free_reason, pick_options
from .state import CardInfo, CityState, Game, info, stage_info


class Policy(Protocol):
    """What a playout asks of a seat: the action of its next turn and the card it builds from the discard pile
    when a pick is owed. Both read ``state`` (the turn-start position, never changed) and draw only from
    ``rng``."""

    def choose(self, state: Game, seat: int, rng: deck.SplitMix64) -> LegalAction:
        """A legal action of ``seat`` for the next turn of ``state`` (the seat acts there)."""
        ...

    def pick(self, state: Game, seat: int, rng: deck.SplitMix64) -> Card | None:
        """The card ``seat`` builds from the discard pile (R-HALI), ``None`` when none may be built."""
        ...


def choices(options: Sequence[Play]) -> Sequence[Play]:
    """The plays a bot chooses among: every play but those that decline the extra turn the same play listed
    keeping offers (R-BABYLON-N1). Keeping is never worse, since the kept card can at least be sold for 3 coins.
    :func:`~.legal.plays` lists a play keeping right before the same play declining."""
    out: list[Play] = []
    for p in options:
        if out and out[-1].keeps and not p.keeps and out[-1].use == p.use and out[-1].card is p.card:
            continue
        out.append(p)
    return out


class RandomPolicy:
    """Uniformly random over the legal actions, each cheapest purchase an action of its own (the stream that
    ``wnotation generate --bot random`` and the golden fixtures are made with): one ``below(m)`` over the
    ``m`` legal actions that do not decline an offered extra turn. It prices every legal action; :class:`UniformPolicy`
    is the lazy one."""

    def choose(self, state: Game, seat: int, rng: deck.SplitMix64) -> LegalAction:
        options = _keeping(legal_actions(state, seat))
        return options[rng.below(len(options))]

    def pick(self, state: Game, seat: int, rng: deck.SplitMix64) -> Card | None:
        options = pick_options(state, seat)
        return options[rng.below(len(options))] if options else None


def _keeping(legal: Sequence[LegalAction]) -> Sequence[LegalAction]:
    """``legal`` without the actions that decline the extra turn the same action listed keeping offers
    (R-BABYLON-N1); :func:`~.legal.legal_actions` lists an action keeping right before the same one declining."""
    if not any(a.keeps for a in legal):
        return legal
    out: list[LegalAction] = []
    for a in legal:
        if out and out[-1].keeps and not a.keeps and out[-1].discarding(a.discard) == a:
            continue
        out.append(a)
    return out


class UniformPolicy:
    """Uniformly random: a play drawn uniformly among the affordable ones (an unaffordable draw is struck out and
    drawn again), then one of its cheapest purchases, uniformly, when it has several. Draws: one ``below(m)`` per
    draw of a play, ``m`` the plays not yet struck out; one ``below(k)`` for ``k`` > 1 cheapest purchases."""

    def choose(self, state: Game, seat: int, rng: deck.SplitMix64) -> LegalAction:
        left = list(choices(plays(state, seat)))
        while True:
            j = rng.below(len(left))
            priced = price(state, left[j])
            if priced:
                return priced[rng.below(len(priced))] if len(priced) > 1 else priced[0]
            del left[j]  # a sale is always priced, so this ends

    def pick(self, state: Game, seat: int, rng: deck.SplitMix64) -> Card | None:
        options = pick_options(state, seat)
        return options[rng.below(len(options))] if options else None


_BUILD: Final = 0
_STAGE: Final = 1
_SELL: Final = 2
_USES: Final = ("build", "stage", "sell")
_UNASKED: Final = "?"  # a build's free reason not asked yet
_DEAD: Final = float("-inf")  # the bound of a play that cannot be paid


class GreedyPolicy:
    """One ply greedy (:func:`estimate`): the play of highest worth, the first listed among equals, then one of its
    cheapest purchases drawn uniformly (bought from one neighbour or the other: the bot favours neither side).

    Each play's worth is bounded from above, and the bounds are tightened lazily, the best bound first (the first
    listed among equals, as the choice breaks ties): first the worth at the play's coin cost
    (:func:`~.legal.least_coins`), then at :func:`least_paid` (no trade question; it refuses a play the seat surely
    cannot pay), then the worth priced (:func:`~.legal.price`, one memoised trade question). A play whose priced
    worth comes out on top beats every bound left, hence every play: the same choice as pricing every legal
    action, and the same draws."""

    def choose(self, state: Game, seat: int, rng: deck.SplitMix64) -> LegalAction:
        # The plays of choices(plays(state, seat)) that can be chosen, listed here directly: every build, but only
        # the first stage and the first sale, since every stage is worth the same whatever card it uses, and so is
        # every sale (the others are never priced). The kept plays keep their order, hence the tie-break.
        city = state.cities[seat - 1]
        turn = state.turn + 1
        names = city.names
        stages = _stages_of(city.wonder)
        stage = stages[city.stages] if city.stages < len(stages) else None
        staged = stage is None  # no stage left to build, or the first one listed
        sold = False
        kinds: list[int] = []
        facts: list[_Facts] = []  # the card's, for a stage or a sale too
        frees: list[str | None] = []
        bounds: list[float] = []  # each play's best bound so far; _DEAD once it cannot be paid
        listed: set[int] = set()
        for card in state.hands[seat - 1]:
            if card is None or id(card) in listed:
                continue
            listed.add(id(card))
            f = _FACTS.get(id(card))
            if f is None or f.card is not card:
                f = _facts_of(card)
            if f.name not in names:
                free: str | None = _UNASKED
                if f.coins:
                    free = free_reason(state, city, card, turn)
                bounds.append(f.at_cost if free is None or free == _UNASKED else f.at_zero)
                kinds.append(_BUILD)
                facts.append(f)
                frees.append(free)
            if not staged and stage is not None:
                staged = True
                bounds.append(stage.worth(stage.coins))
                kinds.append(_STAGE)
                facts.append(f)
                frees.append(None)
            if not sold:
                sold = True
                bounds.append(1.0)
                kinds.append(_SELL)
                facts.append(f)
                frees.append(None)
        n = len(kinds)
        if not n:  # an empty hand: the seat does not act (rules.seats_to_act), and has nothing to play
            raise ValueError(f"seat {seat} does not act in the next turn")
        level = [0] * n  # 0: bound at the coin cost, 1: at least_paid, 2: the priced worth
        priced: list[tuple[LegalAction, ...]] = [()] * n
        last = _LastCard(city, state.hands[seat - 1], stage) if turn == 6 else None
        while True:
            # the best bound, the first listed among equals (a sale is always alive)
            k = 0
            top = bounds[0]
            for j in range(1, n):
                if bounds[j] > top:
                    k = j
                    top = bounds[j]
            at = level[k]
            if at == 2:
                best = priced[k]
                return best[rng.below(len(best))] if len(best) > 1 else best[0]
            level[k] = at + 1
            kind = kinds[k]
            if at == 0:
                if kind == _BUILD:
                    built = facts[k]
                    free = frees[k]
                    if free == _UNASKED:
                        free = frees[k] = free_reason(state, city, built.card, turn)
                    if free is None:
                        least = least_paid(state, seat, built.cost, built.coins)
                        # -1: it cannot be paid, and pricing would find nothing
                        bounds[k] = built.worth(least) if least >= 0 else _DEAD
                    else:
                        bounds[k] = built.at_zero
                elif kind == _STAGE and stage is not None:
                    least = least_paid(state, seat, stage.cost, stage.coins)
                    bounds[k] = stage.worth(least) if least >= 0 else _DEAD
            else:
                use = _USES[kind]
                card = facts[k].card
                play = Play(seat, use, card) if last is None else last.play(seat, use, card)
                found = price_build(state, play, frees[k]) if kind == _BUILD else price(state, play)
                if not found:
                    bounds[k] = _DEAD
                    continue
                priced[k] = found
                # every cheapest purchase of a play costs the same coins, so they share one worth
                if kind == _BUILD:
                    bounds[k] = facts[k].worth(found[0].coins)
                elif stage is not None and kind == _STAGE:
                    bounds[k] = stage.worth(found[0].coins)

    def pick(self, state: Game, seat: int, rng: deck.SplitMix64) -> Card | None:
        options = pick_options(state, seat)
        if not options:
            return None
        k = max(range(len(options)), key=lambda k: (estimate(state, seat, "build", options[k], 0), -k))
        return options[k]


#: The built-in policies by the name ``play_game`` and ``wnotation generate --bot`` take.
POLICIES: Mapping[str, Policy] = MappingProxyType({"random": RandomPolicy(), "greedy": GreedyPolicy(),
                                                   "uniform": UniformPolicy()})


def estimate(state: Game, seat: int, use: str, card: Card, coins: int) -> float:
    """The greedy bot's worth of a play paying ``coins`` in all: points, shields, science and coins it brings now.
    Never more for more coins, so the worth at a play's coin cost bounds the worth of each of its purchases."""
    city = state.cities[seat - 1]
    if use == "sell":
        return 1.0
    if use == "stage":
        i = stage_info(city.wonder, city.stages + 1)
        gain = _worth(i, city.wonder.stages[city.stages].effects, 1.5)
    else:
        i = info(card)
        gain = _worth(i, card.effects, 0.0)
    gain += i.coins / 3 - coins / 3
    if card.colour == "purple" and use == "build":
        gain += 4
    return gain


#: What a card or stage brings whatever it costs (the first terms of :func:`estimate`), by its CardInfo's identity.
_WORTH: Memo[int, tuple[CardInfo, float]] = memo("bot: worth of a card or stage", 1024)


def _worth(i: CardInfo, effects: Sequence[Effect], gain: float) -> float:
    found = _WORTH.get(id(i))
    if found is not None and found[0] is i:
        return found[1]
    gain += sum(e.amount for e in effects if isinstance(e, Points))
    gain += 1.6 * i.shields + (2.5 if i.science else 0) + 1.2 * len(i.sources) + 0.8 * len(i.discounts)
    _WORTH.put(id(i), (i, gain))
    return gain


class _Facts:
    """What the greedy bot reads of a card built, whatever it costs, by the card's identity (:func:`_facts_of`):
    its name, coin cost and resource cost, and what :func:`estimate` adds up (``_worth``, the coins it takes, the
    purple bonus). Held in a class of this module, so that the compiled build reads them natively (a catalogue
    ``Card`` is a pure-Python object)."""

    __slots__ = ("card", "name", "coins", "cost", "base", "third", "purple", "at_cost", "at_zero")

    def __init__(self, card: Card, cost: tuple[tuple[str, int], ...], base: float, third: float,
                 purple: bool) -> None:
        self.card: Final = card
        self.name: Final = card.name
        self.coins: Final = card.cost.coins
        self.cost: Final = cost
        self.base: Final = base
        self.third: Final = third
        self.purple: Final = purple
        #: the worth built at its coin cost, and for nothing
        self.at_cost: Final = self.worth(self.coins)
        self.at_zero: Final = self.worth(0)

    def worth(self, coins: int) -> float:
        """``estimate(state, seat, "build", card, coins)``, the same operations in the same order (the same
        float, so that ties stay ties)."""
        gain = self.base + (self.third - coins / 3)
        if self.purple:
            gain += 4
        return gain


_FACTS: Final[Memo[int, _Facts]] = memo("bot: worth facts of a card built, by its identity", 1024)


def _facts_of(card: Card) -> _Facts:
    found = _FACTS.get(id(card))
    if found is None or found.card is not card:
        i = info(card)
        found = _FACTS.put(id(card), _Facts(card, tuple(i.cost.items()), _worth(i, card.effects, 0.0), i.coins / 3, card.colour == "purple"))
    return found


def least_paid(game: Game, seat: int, cost: tuple[tuple[str, int], ...], coin_cost: int) -> int:
    """A lower bound of the coins ``seat`` pays in all for a play costing ``coin_cost`` coins and the resource
    units ``cost`` (``(resource, units)`` pairs: a card's or a stage's, :func:`~.state.info`), asking no trade
    question; ``-1`` when it surely cannot pay (R-COST-COINS, R-TRADE), then pricing the play finds no purchase.
    It reads what the trade solver reads (the seat's own supply, its neighbours' tradable ones, its prices): own
    one-resource sources cover their units; each own either/or source covers at most one unit, so the seat buys
    at least the rest, each for at least its lowest price; a resource short of more units than the seat's
    either/or sources and its neighbours' offer at most cannot be covered. Cost: O(cost x either/or sources)."""
    cities = game.cities
    city = cities[seat - 1]
    budget = city.coins
    if coin_cost > budget:
        return -1
    if not cost:
        return coin_cost
    own = city.own_supply
    singles = own.singles
    short = 0
    asked = False
    left = right = own
    for r, n in cost:
        n -= singles.get(r, 0)
        if n <= 0:
            continue
        short += n
        if not asked:
            asked = True
            left = cities[game.lefts[seat - 1] - 1].tradable_supply  # the neighbours (R-SEAT)
            right = cities[game.rights[seat - 1] - 1].tradable_supply
        offered = left.singles.get(r, 0) + right.singles.get(r, 0)
        if n > offered:
            for src in own.multi:
                if r in src:
                    offered += 1
            for src in left.multi:
                if r in src:
                    offered += 1
            for src in right.multi:
                if r in src:
                    offered += 1
            if n > offered:
                return -1
    bought = short - len(own.multi)
    if bought <= 0:
        return coin_cost
    p = city.prices
    least = coin_cost + bought * min(p.left_raw, p.left_manufactured, p.right_raw, p.right_manufactured)
    return least if least <= budget else -1


class _Stage:
    """What the greedy bot reads of one stage of a Wonder side (:func:`_stages_of`): its resource cost as
    ``(resource, units)`` pairs, coin cost, whether it grants R-BABYLON-N1's last card, and what :func:`estimate`
    adds up for it."""

    __slots__ = ("cost", "coins", "grants_last", "base", "third")

    def __init__(self, cost: tuple[tuple[str, int], ...], coins: int, grants_last: bool, base: float,
                 third: float) -> None:
        self.cost: Final = cost
        self.coins: Final = coins
        self.grants_last: Final = grants_last
        self.base: Final = base
        self.third: Final = third

    def worth(self, coins: int) -> float:
        """``estimate(state, seat, "stage", card, coins)`` for this stage, the same operations in the same order."""
        return self.base + (self.third - coins / 3)


_STAGES: Memo[int, tuple[WonderSide, tuple[_Stage, ...]]] = memo("bot: worth facts of each stage, by Wonder side",
                                                                 256)


def _stages_of(wonder: WonderSide) -> tuple[_Stage, ...]:
    found = _STAGES.get(id(wonder))
    if found is None or found[0] is not wonder:
        stages = []
        for n, st in enumerate(wonder.stages, 1):
            i = stage_info(wonder, n)
            stages.append(_Stage(tuple(i.cost.items()), st.cost.coins,
                                 any(type(e) is PlayLastCard for e in st.effects), _worth(i, st.effects, 1.5),
                                 i.coins / 3))
        found = _STAGES.put(id(wonder), (wonder, tuple(stages)))
    return found[1]


class _LastCard:
    """Turn 6's plays as ``choices(plays(...))`` has them (R-LAST): a play that lets the seat keep its last card
    (R-BABYLON-N1: the power, or the stage that grants it) keeping it, any other discarding the card it leaves."""

    __slots__ = ("has", "grants", "hand")

    def __init__(self, city: CityState, hand: tuple[Card | None, ...], stage: _Stage | None) -> None:
        self.has: Final = PlayLastCard in city.powers
        self.grants: Final = stage is not None and stage.grants_last
        self.hand: Final = hand

    def play(self, seat: int, use: str, card: Card) -> Play:
        if self.has or (self.grants and use == "stage"):
            return Play(seat, use, card, True, None)
        rest = list(self.hand)
        rest.remove(card)
        return Play(seat, use, card, False, rest[0]) if len(rest) == 1 else Play(seat, use, card)
