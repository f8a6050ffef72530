"""The engine's judge of a position string (spec/position.md §6): the checks that read the rules (seats, city,
tokens, hand, picks, deck) and the seed's range, made on what :func:`wnotation.model.position_string.parse` read,
pointing at where each part was written; as python-chess's board judges the position its FEN reader read.

:func:`judge` turns a :class:`~wnotation.model.position_values.Written` into the
:class:`~wnotation.model.position_values.Setup` it states, :func:`read` does the whole §6 of a string. The old names
of ``wnotation.model.position_checks`` are this module's (``wnotation.MOVED``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Sequence

from ..model.catalog import AGE_NUMERALS, BuildFromDiscard, Card, PlayLastCard
from ..model.deck import copies, guild_count
from ..model.position_string import parse, start_problem
from ..model.position_values import CHECKS, PileWritten, PositionError, SeatSetup, SeatWritten, Setup, Written
from ..model.vocabulary import END, EXTRA_TURN, Address, seat_key
from .rules import VICTORY

__all__ = ["CHECKS", "HAND_SIZE", "PositionError", "SeatSetup", "SeatWritten", "Setup", "checked", "judge", "read",
           "start_problem"]

#: The cards of a hand as an Age is dealt (R-DECK).
HAND_SIZE = 7


def read(text: str) -> Setup:
    """The position ``text`` states (spec/position.md), after every check of its §6 in order. Raises
    :class:`PositionError` at the first failure. Cost: linear in the text."""
    return judge(parse(text))


def judge(written: Written) -> Setup:
    """The :class:`Setup` a string read for its syntax and names states, after the checks of spec/position.md §6
    that follow ``unknown-name`` (seats, then city, tokens, hand and picks seat by seat, then deck, then seed).
    Raises :class:`PositionError` at the first failure, pointing into ``written.text``."""
    setup = checked(written.address, written.seats, written.pile, written.guilds, written.guilds_at)
    if written.seed is None:
        return setup
    if written.seed >= 1 << 64:
        raise PositionError("seed", "the seed must be below 2**64", written.seed_at)
    return replace(setup, seed=written.seed)


def checked(address: Address, seats: Sequence[SeatWritten], pile: Sequence[PileWritten],
            guilds: Sequence[tuple[Card | None, int]] | None, guilds_at: int) -> Setup:
    """The :class:`Setup` of a string read at ``address`` (seat, city, token, hand, pick and deck checks in the
    order of spec/position.md §6; the seed is the caller's); raises :class:`PositionError` at the first failure.
    ``guilds_at`` is where the ``guilds`` keyword is written."""
    n = len(seats)
    age = address.age
    ended = address.turn == END
    turn = 6 if ended else address.turn
    if not 3 <= n <= 7:
        raise PositionError("seats", f"{n} seats: the base game is for 3 to 7 players", seats[-1].name_at,
                            rule="R-SEAT")
    keys: dict[str, int] = {}
    wonders: dict[str, int] = {}
    for k, s in enumerate(seats, 1):
        key = seat_key(s.name)
        if not key:
            raise PositionError("seats", "a seat needs a non-empty name", s.name_at, rule="R-SEAT")
        if key in keys:
            raise PositionError("seats", f"seat name {s.name!r} is already seat {keys[key]}'s", s.name_at,
                                rule="R-SEAT")
        keys[key] = k
        if s.wonder.name in wonders:
            raise PositionError("seats", f"{s.wonder.name} is already seat {wonders[s.wonder.name]}'s Wonder",
                                s.wonder_at, rule="R-BOARD")
        wonders[s.wonder.name] = k
    listed = None if guilds is None else tuple(g for g, _ in guilds if g is not None)
    out = [_checked_seat(address, s, age, turn, ended, listed) for s in seats]
    for card, owner, w, owner_at in pile:
        if card is not None and card.age > age:
            raise PositionError("deck", f"{card.name} is an Age {AGE_NUMERALS[card.age]} card, in the pile in Age "
                                f"{AGE_NUMERALS[age]}", w, rule="R-DECK")
        if owner is not None and not 1 <= owner <= n:
            raise PositionError("deck", f"seat {owner}: seats are numbered 1 to {n}", owner_at, rule="R-SEAT")
    if guilds is not None:
        for card, w in guilds:
            if card is None or not card.is_guild:
                raise PositionError("deck", f"{card.name if card else '?'} is not a guild", w, rule="R-DECK")
        if len(set(guilds)) != len(guilds) or len(guilds) != guild_count(n):
            raise PositionError("deck", f"{len(guilds)} guilds listed: a {n}-player game uses {guild_count(n)} "
                                "distinct guilds (N+2)", guilds_at, rule="R-DECK")
    _check_copies(seats, pile, age, n, listed)
    return Setup(age, turn, ended, tuple(out), tuple((c, o or 0) for c, o, _, _ in pile), listed)


def _checked_seat(address: Address, s: SeatWritten, age: int, turn: int, ended: bool,
                  guilds: tuple[Card, ...] | None) -> SeatSetup:
    """Checks 4-7 (city, tokens, hand, picks) of one seat, and its :class:`SeatSetup`."""
    whose = f"{s.name}'s"
    numeral = AGE_NUMERALS[age]
    wonder = s.wonder
    played = EXTRA_TURN if ended else turn  # the most turns of this Age a seat can have played
    resolved = age - 1 + (1 if ended else 0)  # Ages whose military is resolved
    # city
    if len(s.stages) > len(wonder.stages):
        raise PositionError("city", f"{len(s.stages)} stages built: {wonder.name} {wonder.side} has "
                            f"{len(wonder.stages)}", s.stages[len(wonder.stages)][2], rule="R-STAGE")
    last = 1
    for a, card, w in s.stages:
        if a > age or a < last:
            why = "after the position's Age" if a > age else "before the stage to its left"
            raise PositionError("city", f"a stage built in Age {AGE_NUMERALS[a]}, {why}", w, rule="R-STAGE")
        last = a
        if card is not None and card.age > age:
            raise PositionError("city", f"{card.name} is an Age {AGE_NUMERALS[card.age]} card, under a board in "
                                f"Age {numeral}", w, rule="R-DECK")
    now = [w for a, _, w in s.stages if a == age]
    if len(now) > played:
        raise PositionError("city", f"{len(now)} stages built in Age {numeral} after {played} turns of it",
                            now[played], rule="R-STAGE")
    names: set[str] = set()
    built: list[Card] = []
    for card, w in s.built:
        if card is None:
            raise PositionError("city", "a Building is a card everyone sees: name it, not ?", w, rule="R-TURN")
        if card.age > age:
            raise PositionError("city", f"{card.name} is an Age {AGE_NUMERALS[card.age]} card, in a city in Age "
                                f"{numeral}", w, rule="R-DECK")
        if card.name in names:
            raise PositionError("city", f"{whose} city holds {card.name} twice", w, rule="R-UNIQUE")
        names.add(card.name)
        built.append(card)
    # tokens
    victories: dict[int, int] = {}
    for j, (t, w) in enumerate(s.tokens):
        if t not in (-1, 1, 3, 5):
            raise PositionError("tokens", f"token {t}: military tokens are -1, 1, 3 and 5", w, rule="R-MILITARY")
        if t > 0 and VICTORY.index(t) + 1 > resolved:
            raise PositionError("tokens", f"a victory token of {t}: that Age's military is not resolved at "
                                f"{address}", w, rule="R-MILITARY")
        if t > 0:
            victories[t] = victories.get(t, 0) + 1
            if victories[t] > 2:
                won = VICTORY.index(t) + 1
                raise PositionError("tokens", f"a third victory token of {t}: a seat fights each of its two "
                                    f"neighbours once in Age {AGE_NUMERALS[won]}", w, rule="R-MILITARY")
        if j >= 2 * resolved:
            raise PositionError("tokens", f"{len(s.tokens)} tokens: {resolved} Ages of military give at most "
                                f"{2 * resolved}", w, rule="R-MILITARY")
    # hand
    keeps = any(type(e) is PlayLastCard for st in wonder.stages[:len(s.stages)] for e in st.effects)
    sizes = (0,) if ended or turn == EXTRA_TURN else ((0, 1) if keeps else (0,)) if turn == 6 else \
        (HAND_SIZE - turn,)
    if len(s.hand) not in sizes:
        at = s.fields.get("hand", s.fields["coins"])
        want = " or ".join(str(k) for k in sizes)
        kept = turn == 6 and len(s.hand) == 1
        why = ": a card is kept after turn 6 only with the stage that allows it" if kept else ""
        raise PositionError("hand", f"{whose} hand holds {len(s.hand)} card{'' if len(s.hand) == 1 else 's'}; at {address} it holds {want}{why}",
                            at, rule="R-BABYLON-N1" if kept else "R-DECK")
    for card, w in s.hand:
        if card is not None and card.age != age:
            raise PositionError("hand", f"{card.name} is an Age {AGE_NUMERALS[card.age]} card, in a hand in Age "
                                f"{numeral}", w, rule="R-DECK")
        if card is not None and card.is_guild and guilds is not None and card not in guilds:
            raise PositionError("hand", f"{card.name} is not among the position's guilds", w, rule="R-DECK")
    # picks
    picks = s.picks
    if picks:
        at = s.picks_at
        if ended or turn < 6:
            raise PositionError("picks", f"builds from the discard pile owed at {address}: they wait only after "
                                "turn 6 or the extra turn", at, rule="R-HALI-LAST")
        power = sum(1 for st, (a, _, _) in zip(wonder.stages, s.stages)
                    if a == age and any(type(e) is BuildFromDiscard for e in st.effects))
        if picks > power:
            raise PositionError("picks", f"{picks} builds from the discard pile owed: {whose} city built {power} "
                                f"stage{'s' if power != 1 else ''} with that power in Age {numeral}", at,
                                rule="R-HALI")
    return SeatSetup(s.name, wonder, s.coins, tuple(t for t, _ in s.tokens),
                     tuple((a, c) for a, c, _ in s.stages), tuple(built), tuple(c for c, _ in s.hand), picks)


def _check_copies(seats: Sequence[SeatWritten], pile: Sequence[PileWritten], age: int, n: int,
                  guilds: tuple[Card, ...] | None) -> None:
    """More named copies of a design than its Age deck holds (R-DECK), counted seat by seat (stages, Buildings,
    hand), then the pile, in string order; more than N+2 distinct guilds named when the guilds are not listed."""
    uses: list[tuple[Card, int]] = []
    for s in seats:
        uses += [(c, w) for _, c, w in s.stages if c is not None]
        uses += [(c, w) for c, w in s.built if c is not None]
        uses += [(c, w) for c, w in s.hand if c is not None]
    uses += [(c, w) for c, _, w, _ in pile if c is not None]
    limits = {a: copies(a, n, guilds) for a in range(1, age + 1)}
    seen: Counter[Card] = Counter()
    named: set[Card] = set()
    for card, w in uses:
        seen[card] += 1
        have = limits[card.age][card] if card.age in limits else 0
        if seen[card] > have:
            if card.is_guild and not have:
                what = "is not among the position's guilds"
            else:
                what = (f"has {have} cop{'y' if have == 1 else 'ies'} in the Age {AGE_NUMERALS[card.age]} deck for "
                        f"{n} players; this is copy {seen[card]}")
            raise PositionError("deck", f"{card.name} {what}", w, rule="R-DECK")
        if card.is_guild and card not in named:
            named.add(card)
            if len(named) > guild_count(n):
                raise PositionError("deck", f"{len(named)} guilds named: a {n}-player game has {guild_count(n)}", w,
                                    rule="R-DECK")
