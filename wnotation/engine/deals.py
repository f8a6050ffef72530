"""The hands dealt at the start of each Age: stated by the record, drawn from its seed, or rebuilt from its actions.

Hands travel fixed routes (R-PASS), so the cards a record shows used from each hand give that hand back, and the
multiset is checked against the Age deck (R-DECK). Checking each action against explicit hands is done during the
replay by :mod:`.rules`; this module does not decide legality of plays.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

from ..model import deck
from ..model.catalog import AGE_NUMERALS, Card, CatalogError, load
from ..model.record import Record, Span
from .findings import Finding
from .memo import Memo, memo
from .rules import Play, passing

HAND = deck.HAND_SIZE

Hands = tuple[tuple[Card | None, ...], ...]
Use = tuple[Card, str, int | None, Span | None]  # (card, address, seat, span) of one known card


def holder(hand: int, turn: int, age: int, players: int) -> int:
    """The seat (1-based) holding, on ``turn``, the hand dealt to seat ``hand`` at the start of ``age`` (R-PASS);
    turn 7 (Babylon's extra turn) is the seat of turn 6."""
    step = passing(age) * (min(turn, 6) - 1)
    return (hand - 1 + step) % players + 1


def rebuild(age: int, players: int, plays: Mapping[int, Sequence[Play]]) -> tuple[Hands, list[list[Use]]]:
    """The dealt hands of ``age`` as the actions show them: for hand h, the card used on turn t by the seat holding
    h then, the turn-6 discard and a kept card played on turn 7; ``None`` where the record shows no card.

    ``plays[turn]`` are the decoded plays of that turn. Also returns, per hand, where each known card was used
    (for R-DECK findings). Cost: O(7·N).
    """
    by_turn = {t: {p.seat: p for p in ps} for t, ps in plays.items()}
    hands: list[tuple[Card | None, ...]] = []
    uses: list[list[Use]] = []
    for h in range(1, players + 1):
        cards: list[Card | None] = []
        where: list[Use] = []
        for t in range(1, 7):
            p = by_turn.get(t, {}).get(holder(h, t, age, players))
            if p is None:
                continue
            cards.append(p.card)
            if p.card is not None:
                where.append((p.card, f"{AGE_NUMERALS[age]}.{t}", p.seat, p.span))
            if t == 6:
                if p.discard:
                    cards.append(p.discard[0])
                    if p.discard[0] is not None:
                        where.append((p.discard[0], f"{AGE_NUMERALS[age]}.6", p.seat, p.span))
                else:
                    extra = by_turn.get(7, {}).get(p.seat)
                    if extra is not None:
                        cards.append(extra.card)
                        if extra.card is not None:
                            where.append((extra.card, f"{AGE_NUMERALS[age]}.7", extra.seat, extra.span))
        cards = cards[:HAND] + [None] * (HAND - len(cards))
        hands.append(tuple(cards))
        uses.append(where)
    return tuple(hands), uses


def revealed(written: Hands, shown: Hands) -> Hands:
    """The written deal as the replay deals it, so that an unseen card leaving a hand (``sell ?``, ``stage ?``,
    ``, discard ?``) may take one of its unknown slots without keeping a card the hand may have lost.

    ``shown`` are the hands as :func:`rebuild` gives them (the cards the actions show leaving each hand). A shown
    card that is not among the hand's named cards still unmatched was one of its ``?`` and fills the first unknown
    slot left. If a ``?`` is still unknown after that, a named card the actions never show leaving may be the one
    that leaves unseen first, so it is dealt unknown too: the hand then names exactly the cards shown leaving it
    later. A hand without unknown slots is dealt as written (an unseen card leaving it makes all of it unknown),
    and so is a hand with a shown card that fits neither a named card nor a ``?`` (the replay reports it: R-DECK,
    R-PASS). Cost: O(7·N)."""
    out: list[tuple[Card | None, ...]] = []
    for hand, seen in zip(written, shown):
        slots = hand.count(None)
        if not slots:
            out.append(hand)
            continue
        unmatched = Counter(c for c in hand if c is not None)
        fills: list[Card] = []
        fits = True
        for card in seen:
            if card is None:
                continue
            if unmatched[card]:
                unmatched[card] -= 1
            elif len(fills) < slots:
                fills.append(card)
            else:
                fits = False
        queue = iter(fills)
        dealt = [next(queue, None) if c is None else c for c in hand]
        if fits and len(fills) < slots:
            for k, c in enumerate(hand):  # each named copy never shown leaving becomes unknown
                if c is not None and unmatched[c]:
                    unmatched[c] -= 1
                    dealt[k] = None
        out.append(tuple(dealt))
    return tuple(out)


def deck_limits(age: int, players: int, guilds: Sequence[Card] | None) -> Counter[Card]:
    """How many copies of each card design the Age deck holds (R-DECK). Without known guilds, every guild is
    allowed once (the N+2 total is checked separately)."""
    return deck.copies(age, players, guilds)


def check_deck(age: int, players: int, guilds: Sequence[Card] | None, uses: Sequence[Use]) -> list[Finding]:
    """R-DECK findings for known cards of one Age beyond what its deck holds, at the use that exceeds it: the uses
    are counted in game order (turn, then seat), so the copy reported is the first one too many, whichever hand it
    came from."""
    limits = deck_limits(age, players, guilds)
    seen: Counter[Card] = Counter()
    found: list[Finding] = []
    guild_names: list[str] = []
    numeral = AGE_NUMERALS[age]
    for card, where, seat, span in sorted(uses, key=_game_order):
        seen[card] += 1
        if card.is_guild and seen[card] == 1:
            guild_names.append(card.name)
            if guilds is None and len(guild_names) == deck.guild_count(players) + 1:
                found.append(Finding("R-DECK", f"{card.name} is guild number {len(guild_names)} of Age III; a "
                                     f"{players}-player game has {deck.guild_count(players)}", where, seat, span))
        if card.age != age:
            found.append(Finding("R-DECK", f"{card.name} is not an Age {numeral} card", where, seat, span))
        elif seen[card] > limits[card]:
            have = limits[card]
            if have == 0:
                what = "is not among this game's guilds" if card.is_guild else \
                    f"is not in the Age {numeral} deck for {players} players"
                found.append(Finding("R-DECK", f"{card.name} {what}", where, seat, span))
            else:
                found.append(Finding("R-DECK", f"{card.name}: the Age {numeral} deck for {players} players holds "
                                     f"{have} cop{'y' if have == 1 else 'ies'}, this is copy {seen[card]}",
                                     where, seat, span))
    return found


def _game_order(use: Use) -> tuple[int, int]:
    """A use's place in the game: its turn (``I.0`` for a written deal, ``I.7`` for Babylon's extra turn), then
    its seat."""
    _, where, seat, _ = use
    return int(where.rpartition(".")[2]), seat or 0


def stated(record: Record, age: int) -> tuple[Hands | None, list[Finding]]:
    """The hands of ``age`` written in ``record.deals`` (``None`` if absent), with findings for a malformed deal."""
    deals = [d for d in record.deals if d.age == age]
    if not deals:
        return None, []
    d = deals[0]
    n = record.players
    where = f"{AGE_NUMERALS[age]}.0"
    found: list[Finding] = []
    if len(deals) > 1:
        found.append(Finding("R-DECK", f"Age {AGE_NUMERALS[age]} is dealt twice; the first deal is used",
                             where, None, deals[1].span))
    if len(d.hands) != n or any(len(h) != HAND for h in d.hands):
        found.append(Finding("R-DECK", f"the deal of Age {AGE_NUMERALS[age]} must give {HAND} cards to each of "
                             f"{n} seats", where, None, d.span))
    catalog = load()
    hands = []
    for k in range(n):
        names = list(d.hands[k]) if k < len(d.hands) else []
        cards: list[Card | None] = []
        for name in names[:HAND]:
            if name == "?":
                cards.append(None)
                continue
            try:
                cards.append(catalog.card(name, age))
            except CatalogError as exc:
                found.append(Finding("R-DECK", f"dealt card {exc}", where, k + 1, d.span))
                cards.append(None)
        hands.append(tuple(cards + [None] * (HAND - len(cards))))
    return tuple(hands), found


def from_seed(record: Record, guilds: Sequence[str] | None) -> tuple[deck.Deal | None, list[Finding]]:
    """The deal a record's seed gives (``SM64-FY``), or ``None`` with a note when there is no usable seed."""
    if record.seed is None:
        return None, []
    if record.seed.algorithm != deck.SHUFFLE_ALGORITHM:
        return None, [Finding("R-DECK", f"shuffle algorithm {record.seed.algorithm!r} is unknown (this version "
                              f"knows {deck.SHUFFLE_ALGORITHM}); the seed is not used", "I.0", None, None, "note")]
    return _deal(record.players, record.seed.value, None if guilds is None else tuple(guilds)), []


_DEALS: Memo[tuple[int, int, tuple[str, ...] | None], deck.Deal] = memo("deals: seeded deals", 256)
_GUILDS: Memo[tuple[int, tuple[str, ...]], tuple[Card, ...]] = memo("deals: guild lists", 256)


def seeded(players: int, seed: int | None, guilds: Sequence[Card] | None) -> deck.Deal | None:
    """The ``SM64-FY`` deal of ``seed`` with ``guilds`` (the drawn ones when ``None``), or ``None`` without a seed:
    what a record starting from a position deals its later Ages from (spec/position.md §4)."""
    if seed is None:
        return None
    return _deal(players, seed, None if guilds is None else tuple(g.name for g in guilds))


def _deal(players: int, seed: int, guilds: tuple[str, ...] | None) -> deck.Deal:
    """``deck.deal``, memoised: a pure function of its arguments, and replaying a record again (show, score,
    check) should not shuffle again."""
    key = (players, seed, guilds)
    found = _DEALS.get(key)
    return found if found is not None else _DEALS.put(key, deck.deal(players, seed, guilds))


def guilds_of(players: int, names: tuple[str, ...]) -> tuple[Card, ...]:
    """``deck.check_guilds``, memoised (it raises ``CatalogError`` for a bad list, which is not memoised)."""
    key = (players, names)
    found = _GUILDS.get(key)
    return found if found is not None else _GUILDS.put(key, deck.check_guilds(players, names))


def hand_uses(age: int, hands: Hands, span: Span | None) -> list[Use]:
    where = f"{AGE_NUMERALS[age]}.0"
    return [(c, where, k + 1, span) for k, h in enumerate(hands) for c in h if c is not None]
