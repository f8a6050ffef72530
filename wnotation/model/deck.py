"""Age decks for N players and the seeded deal, ``SM64-FY`` (SplitMix64 driving Fisher–Yates).

The deal is specified bit for bit, with test vectors, in ``spec/deal.md`` so that other implementations
reproduce the same hands from the same seed; Python's :mod:`random` is deliberately not used. What a record says
about its deals is the reader's business; this module only computes them.
"""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from .catalog import AGES, MAX_PLAYERS, MIN_PLAYERS, Card, CatalogError, load

SHUFFLE_ALGORITHM = "SM64-FY"
HAND_SIZE = 7
_MASK = (1 << 64) - 1
_GAMMA, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
#: ``below(n)``'s rejection limit 2**64 - (2**64 mod n) for the small n of a deal (computed once, not per draw).
_LIMITS = tuple((1 << 64) - ((1 << 64) % n) if n else 0 for n in range(64))

T = TypeVar("T")


def check_players(players: int) -> None:
    """Raise :class:`CatalogError` unless 3 <= players <= 7 (the base game's range)."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CatalogError(f"{players} players: the base game is for {MIN_PLAYERS} to {MAX_PLAYERS} players")


def guild_count(players: int) -> int:
    """N+2 guilds go into the Age III deck (R-DECK)."""
    return players + 2


def check_guilds(players: int, guilds: Sequence[str]) -> tuple[Card, ...]:
    """The guild cards named in ``guilds``; :class:`CatalogError` unless they are N+2 distinct guilds."""
    return _check_guilds(players, tuple(guilds))


@lru_cache(maxsize=256)
def _check_guilds(players: int, guilds: tuple[str, ...]) -> tuple[Card, ...]:
    """``check_guilds``, memoised on the names as written (a refused list raises and is not cached)."""
    catalog = load()
    cards = []
    for name in guilds:
        card = catalog.card(name)
        if not card.is_guild:
            raise CatalogError(f"{card.name} is not a guild", name=name)
        if card in cards:
            raise CatalogError(f"guild {card.name} is listed twice", name=name)
        cards.append(card)
    want = guild_count(players)
    if len(cards) != want:
        raise CatalogError(f"{len(cards)} guilds listed: a {players}-player game uses exactly {want} (N+2)")
    return tuple(sorted(cards, key=catalog.guilds.index))


def deck(age: int, players: int, guilds: Sequence[str] = ()) -> tuple[Card, ...]:
    """The Age deck of a ``players``-player game in canonical order (catalogue order, copies adjacent).

    For Age III the guilds (exactly N+2 names) follow in catalogue order. Every deck holds 7·N cards.
    """
    check_players(players)
    if age not in AGES:
        raise CatalogError(f"Age {age}: the game has Ages 1 to 3")
    if age != 3:
        return _base_deck(age, players)
    cards = _base_deck(age, players) + check_guilds(players, guilds)
    assert len(cards) == HAND_SIZE * players, (age, players, len(cards))
    return cards


@lru_cache(maxsize=None)
def _base_deck(age: int, players: int) -> tuple[Card, ...]:
    """The Age deck without guilds, in canonical order (computed once per Age and player count)."""
    cards = tuple(c for c in load().age_cards(age) for _ in range(c.copies_for(players)))
    if age != 3:
        assert len(cards) == HAND_SIZE * players, (age, players, len(cards))
    return cards


def copies(age: int, players: int, guilds: Sequence[Card] | None = None) -> Counter[Card]:
    """How many copies of each card design the Age ``age`` deck of a ``players``-player game holds (R-DECK): a
    fresh Counter. For Age III, ``guilds`` are the game's guilds, one copy each; when they are not known
    (``None``), every guild counts once (their N+2 total is a separate question)."""
    limits: Counter[Card] = Counter(_base_deck(age, players))
    if age == 3:
        for g in (guilds if guilds is not None else load().guilds):
            limits[g] = 1
    return limits


class SplitMix64:
    """Steele, Lea & Flood's SplitMix64: a 64-bit state advanced by the golden gamma, then mixed."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= _MASK:
            raise CatalogError(f"seed {seed} is outside 0 .. 2**64-1")
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) for 1 <= n <= 2**64, by rejection so that no value is favoured."""
        if not 1 <= n <= 1 << 64:
            raise ValueError(f"below({n}): n must be in 1 .. 2**64")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def shuffle(items: Iterable[T], rng: SplitMix64) -> list[T]:
    """Fisher–Yates (Durstenfeld): for i from len-1 down to 1, swap item i with item ``rng.below(i+1)``.

    The draws are made at once (:func:`_draws`: the same numbers, the same rejections, the same draws consumed),
    so a shuffle costs a few integer operations per item rather than two method calls each."""
    out = list(items)
    last = len(out) - 1
    if last < 1:
        return out
    drawn = _draws(rng.state, last) if last <= _PACKED_MAX else None
    if drawn is None:  # a draw would be rejected (about one shuffle in 2**57), or a long list: one by one
        return _shuffled(out, rng)
    for i, z in zip(range(last, 0, -1), drawn):
        j = z % (i + 1)
        out[i], out[j] = out[j], out[i]
    rng.state = (rng.state + _GAMMA * last) & _MASK
    return out


def _shuffled(out: list[T], rng: SplitMix64) -> list[T]:
    """:func:`shuffle` of ``out`` in place, one draw at a time with ``rng.next`` and ``rng.below`` inlined (the
    same arithmetic, the same rejections), for the shuffles :func:`_draws` declines."""
    state = rng.state
    limits = _LIMITS
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = limits[n] if n < 64 else (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + _GAMMA) & _MASK
            z = ((state ^ (state >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    rng.state = state
    return out


#: The longest shuffle whose draws :func:`_draws` makes at once (a game's longest is its Age deck, 49 cards).
_PACKED_MAX = 256
_LANE = 128  # bits per draw in the packed integer: a 64-bit value and room for its product with a 64-bit constant


@lru_cache(maxsize=None)
def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    """For ``count`` draws packed in one integer, a lane of :data:`_LANE` bits each (draw k in lane k): 1 in each
    lane, (k+1)·gamma in lane k, 2**64-1 in each lane, and the layout of its little-endian bytes (two 64-bit words
    a lane). Computed once per count (at most :data:`_PACKED_MAX` of them)."""
    ones = sum(1 << (_LANE * k) for k in range(count))
    steps = sum(((k + 1) * _GAMMA) << (_LANE * k) for k in range(count))
    return ones, steps, ones * _MASK, struct.Struct(f"<{2 * count}Q")


def _draws(state: int, count: int) -> tuple[int, ...] | None:
    """The next ``count`` outputs of SplitMix64 from ``state``, all at once: the generator's k-th state is
    ``state + k·gamma`` (mod 2**64), so the states are one packed integer (:func:`_lanes`) and each step of the mix
    (shift, xor, multiply, mask) is one operation on all of them; no lane spills into the next, as each is masked
    to 64 bits before it is multiplied. ``None`` when an output might be rejected by the shuffle that takes it
    (``below(n)`` for n up to ``count + 1`` rejects only outputs above ``2**64 - count - 1``): then the shuffle
    draws one by one, as the rejection consumes a draw."""
    ones, steps, mask, layout = _lanes(count)
    s = (state * ones + steps) & mask
    z = ((s ^ (s >> 30)) & mask) * _MIX1 & mask
    z = ((z ^ (z >> 27)) & mask) * _MIX2 & mask
    z = (z ^ (z >> 31)) & mask
    drawn: tuple[int, ...] = layout.unpack(z.to_bytes(16 * count, "little"))[::2]
    return drawn if max(drawn) <= _MASK - count else None


@dataclass(frozen=True, slots=True)
class SeededDeal:
    """What a seed decides: the guilds and, per Age, each seat's 7 dealt cards (seat order). A record's stated
    hands are :class:`wnotation.model.record.Deal`."""

    seed: int
    guilds: tuple[Card, ...]
    hands: tuple[tuple[tuple[Card, ...], ...], ...]  # hands[age-1][seat-1]


#: The former name of :class:`SeededDeal`, kept for existing callers.
Deal = SeededDeal


def deal(players: int, seed: int, guilds: Sequence[str] | None = None) -> SeededDeal:
    """The ``SM64-FY`` deal of a game: guilds drawn (unless given), then each Age deck shuffled and dealt.

    One generator serves the whole game, in this order: the 10 guilds in catalogue order are shuffled and the
    first N+2 kept; then for Ages I, II, III the canonical deck is shuffled and seat k receives cards
    7(k-1) .. 7k-1. The guild draw always runs, so that listing the guilds (``guilds``, which then replace the
    drawn ones) never changes the Age I and II hands of a seed. Raises :class:`CatalogError` for a player count
    outside 3..7, a seed outside 0..2**64-1 or an impossible guild list.
    """
    check_players(players)
    catalog = load()
    given = None if guilds is None else check_guilds(players, guilds)
    rng = SplitMix64(seed)
    # The guilds' positions are shuffled, not the cards: the same permutation, and the kept ones sort as numbers.
    drawn = shuffle(range(len(catalog.guilds)), rng)[: guild_count(players)]
    guild_cards = given if given is not None else tuple(catalog.guilds[k] for k in sorted(drawn))
    hands = []
    for age in AGES:
        # deck(age, players, names of guild_cards): its guilds are valid and in catalogue order already
        cards = shuffle(_base_deck(age, players) + guild_cards if age == 3 else _base_deck(age, players), rng)
        hands.append(tuple([tuple(cards[k : k + HAND_SIZE]) for k in range(0, HAND_SIZE * players, HAND_SIZE)]))
    return SeededDeal(seed, guild_cards, tuple(hands))
