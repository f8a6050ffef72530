"""Playing a game to its end: the one loop behind the search bot's playouts (:mod:`.search`) and the win-chance
playouts of :mod:`wnotation.analysis.winchance`.

The loop deals each Age still to come afresh, asks each seat's policy for its play or its pick from the pile and
resolves them with the engine's rules (``play_turn``, ``play_picks``, ``end_age``), never a rule of its own. Where
the randomness comes from is the caller's: a :class:`Chance` hands out the generator of each draw by what it is for
(an Age's deal, a seat's play or pick on a turn), one generator for all of them or one of its own for each.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from ..model import deck
from ..model.catalog import load
from .legal import as_move as as_move  # as_move: compiled with legal, re-exported here
from .policy import Policy
from .rules import deal_events, end_age, picks_owed, play_picks, play_turn, seats_to_act
from .state import Game


class Chance(Protocol):
    """The generator of each draw of a playout, by what it is for."""

    def deal(self, age: int) -> deck.SplitMix64:
        """The generator of the deal of ``age`` (and of its guilds when they are drawn)."""
        ...

    def play(self, age: int, turn: int, seat: int) -> deck.SplitMix64:
        """The generator of ``seat``'s play after ``turn`` turns of ``age``."""
        ...

    def pick(self, age: int, turn: int, seat: int) -> deck.SplitMix64:
        """The generator of ``seat``'s pick from the pile (R-HALI) after ``turn`` turns of ``age``."""
        ...


class Shared:
    """One generator for every draw, in the order the loop makes them."""

    def __init__(self, rng: deck.SplitMix64) -> None:
        self.rng = rng

    def deal(self, age: int) -> deck.SplitMix64:
        return self.rng

    def play(self, age: int, turn: int, seat: int) -> deck.SplitMix64:
        return self.rng

    def pick(self, age: int, turn: int, seat: int) -> deck.SplitMix64:
        return self.rng


def guilds_of(game: Game, rng: deck.SplitMix64) -> tuple[str, ...]:
    """The game's guilds, or N+2 of the ten drawn by ``rng`` when its table does not name them (R-DECK)."""
    if game.table.guilds is not None:
        return tuple(g.name for g in game.table.guilds)
    return tuple(g.name for g in deck.shuffle(load().guilds, rng)[: deck.guild_count(game.players)])


def deal(game: Game, age: int, guilds: Sequence[str] | None, rng: deck.SplitMix64) -> None:
    """Deal ``age`` afresh: its canonical deck (with ``guilds`` in Age III, :func:`guilds_of` when ``None``)
    shuffled by ``rng``, seven cards a seat in seat order (R-DECK)."""
    named = (guilds if guilds is not None else guilds_of(game, rng)) if age == 3 else ()
    cards = deck.shuffle(deck.deck(age, game.players, named), rng)
    n = deck.HAND_SIZE
    for e in deal_events(age, [cards[n * k : n * (k + 1)] for k in range(game.players)]):
        game.apply(e)


def play_out(game: Game, policies: Sequence[Policy], chance: Chance, guilds: Sequence[str] | None = None) -> None:
    """Play ``game`` to its end, seat k played by ``policies[k - 1]``, each draw from ``chance``'s generator for
    it. Each Age not yet dealt is dealt by :func:`deal` (``guilds`` in Age III; ``None``: the table's, or drawn).

    Order of the draws: an Age's deal when the game has not begun or an Age has ended; then each turn, the picks
    owed (before turn 6, or after it once no seat acts) in seat order, else every acting seat's play in seat
    order, else the end of the Age (no draw)."""
    while not game.finished:
        if game.age == 0 or game.ended:
            age = game.age + 1
            deal(game, age, guilds, chance.deal(age))
            continue
        acting = seats_to_act(game)
        owed = picks_owed(game)
        if owed and (game.turn < 6 or not acting):
            picks: dict[int, tuple[str | None, ...]] = {}
            for seat in owed:
                card = policies[seat - 1].pick(game, seat, chance.pick(game.age, game.turn, seat))
                picks[seat] = (card.name if card is not None else None,)
            play_picks(game, picks, game.address)
        elif acting:
            play_turn(game, [as_move(game, policies[s - 1].choose(game, s, chance.play(game.age, game.turn, s)))
                             for s in acting])
        else:
            for e in end_age(game):
                game.apply(e)
