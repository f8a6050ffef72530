"""A stronger built-in player (issue 33, item 6): determinised Monte-Carlo search over greedy playouts.

For each candidate play of its seat, the search deals the cards the seat cannot see afresh, consistently with what
it can see (:func:`determinise`), plays the turn (the other seats choosing greedily in that world) and then the
rest of the game with the greedy policy, several times; it takes the candidate of the best mean win share (R-WIN:
1/k to each of k winners), ties going to the best mean score margin, then to the first candidate listed. Every
candidate is played out in the same worlds with the same draws (common random numbers), so their comparison is
not blurred by the luck of the deals. Of the generator it is given, a move draws one ``next()`` (when it has
several candidates) and a ``below`` (when its play has several cheapest purchases): spec/deal.md, section 10.1.

Only the engine is used (legal plays, ``play_turn``, ``play_picks``, ``end_age``, scoring), never a rule of its own.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from ..model import deck
from ..model.catalog import Card, load
from ..model.vocabulary import left_of, right_of
from . import events as ev
from .legal import LegalAction, Play, plays, price
from .policy import POLICIES, choices, estimate
from .playout import Shared, as_move, play_out
from .results import city_view
from .rules import passing, play_turn, seats_to_act
from .scoring import score
from .state import Game, State, view

#: Playouts per candidate play by default: about a tenth of a second of CPU per move in a 4-player Age I.
PLAYOUTS = 8
_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def determinise(state: State, seat: int, rng: deck.SplitMix64) -> State:
    """One world ``seat`` cannot tell from ``state``: what it sees (:func:`~.state.view`: its hand, its own
    staged and discarded cards, every city) and the hand it passed last turn, now its receiver's, are kept; the
    other hands are dealt from the cards of the Age it has not seen (R-DECK: the Age's copies, every guild counted
    once in Age III, less every card of the Age it sees), shuffled."""
    seen = view(state, seat)
    hands = list(seen.hands)
    if 1 <= state.turn <= 5 and not state.ended:
        receiver = _receiver(state.age, seat, state.players)
        hands[receiver - 1] = state.hands[receiver - 1]
    if not any(c is None for h in hands for c in h):
        return seen._replace(hands=tuple(hands))
    age = state.age
    left: Counter[Card] = deck.copies(age, state.players, None)
    known = [c for h in hands for c in h if c is not None]
    known += [c for city in seen.cities for c in (*city.buildings, *city.staged) if c is not None]
    known += [c for c in seen.discard if c is not None]
    for c in known:
        if c.age == age and left[c] > 0:
            left[c] -= 1
    pool = deck.shuffle(sorted(left.elements(), key=lambda c: c.name), rng)
    dealt = tuple(tuple(c if c is not None else pool.pop() for c in h) for h in hands)
    return seen._replace(hands=dealt)


def _receiver(age: int, seat: int, players: int) -> int:
    """The seat ``seat`` passes its hand to in ``age`` (R-PASS)."""
    return left_of(seat, players) if passing(age) == ev.LEFT else right_of(seat, players)


def finish(game: Game, guilds: Sequence[str], rng: deck.SplitMix64) -> None:
    """Play ``game`` to its end, every seat greedy, the Ages not yet dealt dealt with ``guilds`` in Age III, every
    draw from ``rng`` (:func:`~.playout.play_out`)."""
    play_out(game, (POLICIES["greedy"],) * game.players, Shared(rng), guilds)


def candidates(state: Game, seat: int) -> tuple[tuple[LegalAction, ...], ...]:
    """The plays the search compares, each as its cheapest purchases (R-TRADE-MINIMAL): every affordable build,
    and one stage and one sale, of the card the receiving neighbour would value most (the greedy worth): what
    goes under the board or to the bank is no longer passed on. Plays declining an offered extra turn are left
    out (R-BABYLON-N1), as the bots leave them out."""
    options = choices(plays(state, seat))
    receiver = _receiver(state.age, seat, state.players)
    def denial(p: Play) -> float:
        return estimate(state, receiver, "build", p.card, p.card.cost.coins)

    out: list[tuple[LegalAction, ...]] = []
    for use in ("build", "stage", "sell"):
        group = [p for p in options if p.use == use]
        if use != "build" and group:
            group = [max(group, key=lambda p: (denial(p), -group.index(p)))]
        for p in group:
            priced = price(state, p)
            if priced:
                out.append(priced)
    return tuple(out)


class SearchPolicy:
    """Determinised Monte-Carlo search (see the module): ``playouts`` worlds per move, every candidate played out
    in each. Cost: about ``playouts`` x candidates greedy playouts a move (candidates: the affordable builds plus a
    stage and a sale, at most nine), none for a move with a single candidate."""

    def __init__(self, playouts: int = PLAYOUTS) -> None:
        if playouts < 1:
            raise ValueError(f"{playouts} playouts: at least one is needed")
        self.playouts = playouts

    def choose(self, state: Game, seat: int, rng: deck.SplitMix64) -> LegalAction:
        game = state if isinstance(state, Game) else Game(state)
        options = candidates(game, seat)
        if len(options) > 1:
            best = options[self.best(game.snapshot(), seat, options, rng.next())]
        else:
            best = options[0]
        return best[rng.below(len(best))] if len(best) > 1 else best[0]

    def best(self, state: State, seat: int, options: Sequence[Sequence[LegalAction]], base: int) -> int:
        """The index of the option of the best mean (win share, score margin) over the playouts of ``base``."""
        share = [0.0] * len(options)
        margin = [0.0] * len(options)
        for j in range(self.playouts):
            rng = deck.SplitMix64((base + _GAMMA * (j + 1)) & _MASK)
            world = determinise(state, seat, rng)
            guilds = tuple(g.name for g in deck.shuffle(load().guilds, rng)[: deck.guild_count(state.players)])
            start = Game(world)
            others = [as_move(start, POLICIES["greedy"].choose(start, s, rng)) for s in seats_to_act(world) if s != seat]
            after = rng.next()
            for k, option in enumerate(options):
                game = Game(world)
                play_turn(game, sorted([*others, as_move(game, option[0])], key=lambda m: m.seat))
                finish(game, guilds, deck.SplitMix64(after))
                sheet = score([city_view(c) for c in game.cities])
                winners = sheet.winners()
                if seat in winners:
                    share[k] += 1 / len(winners)
                own = sheet.line(seat).total
                margin[k] += own - max(ln.total for ln in sheet.lines if ln.seat != seat)
        return max(range(len(options)), key=lambda k: (share[k], margin[k], -k))

    def pick(self, state: Game, seat: int, rng: deck.SplitMix64) -> Card | None:
        """The greedy pick from the discard pile (R-HALI): the search is spent on the turns."""
        return POLICIES["greedy"].pick(state, seat, rng)
