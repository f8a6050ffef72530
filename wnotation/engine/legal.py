"""The legal actions of a seat at a position, for analysis, bots and generated games.

Reuses the checks of :mod:`.rules` (same free builds, same trade solver), so what is listed here replays without a
finding. Unknown cards in a hand cannot be listed; builds from the discard pile are listed by
:func:`~wnotation.engine.rules.pick_options`.
"""

from __future__ import annotations

from typing import Final, Mapping, Sequence

from ..model.catalog import Card, PlayLastCard
from .payment import NO_PURCHASE, cheapest_for
from .rules import Play as Move
from .rules import free_reason, seats_to_act
from .state import CityState, Game, State, info, stage_info
from .trade import Purchase


class LegalAction:
    """One legal play: ``use`` (build / stage / sell) of ``card`` with ``purchase``, paying ``coins`` in all (coin
    cost to the bank plus coins to the neighbours). ``free`` is ``"chain"`` or ``"power"`` for a free build;
    ``default`` is true when ``purchase`` is what the engine chooses for a record that states none. ``keeps`` is
    true for a turn-6 play after which the seat keeps its last card for Babylon Night's extra turn (R-BABYLON-N1;
    written without a discard clause); false, the last card is discarded (R-LAST): ``discard``, when the hand
    shows it. A value with ``Final`` fields (see :mod:`.trade`), compared and hashed by all of them."""

    __slots__ = ("seat", "use", "card", "purchase", "coins", "free", "default", "keeps", "discard")

    def __init__(self, seat: int, use: str, card: Card, purchase: Purchase = NO_PURCHASE, coins: int = 0,
                 free: str | None = None, default: bool = True, keeps: bool = False,
                 discard: Card | None = None) -> None:
        self.seat: Final = seat
        self.use: Final = use
        self.card: Final = card
        self.purchase: Final = purchase
        self.coins: Final = coins
        self.free: Final = free
        self.default: Final = default
        self.keeps: Final = keeps
        self.discard: Final = discard

    def _fields(self) -> tuple[int, str, Card, Purchase, int, str | None, bool, bool, Card | None]:
        return (self.seat, self.use, self.card, self.purchase, self.coins, self.free, self.default, self.keeps,
                self.discard)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LegalAction) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"LegalAction(seat={self.seat}, use={self.use!r}, card={self.card!r}, purchase={self.purchase!r}, "
                f"coins={self.coins}, free={self.free!r}, default={self.default}, keeps={self.keeps}, "
                f"discard={self.discard!r})")

    def keeping(self) -> LegalAction:
        """This play, keeping the last card (R-BABYLON-N1)."""
        return LegalAction(self.seat, self.use, self.card, self.purchase, self.coins, self.free, self.default,
                           True, None)

    def discarding(self, card: Card | None) -> LegalAction:
        """This play, the last card ``card`` discarded (R-LAST)."""
        return LegalAction(self.seat, self.use, self.card, self.purchase, self.coins, self.free, self.default,
                           False, card)

    def __str__(self) -> str:
        text = f"{self.use} {self.card.name}"
        if self.free:
            text += f" (free: {self.free})"
        elif self.purchase.units:
            text += f" (buy {self.purchase}; {self.coins} coins)"
        elif self.coins:
            text += f" ({self.coins} coins)"
        if self.keeps:
            return text + ", keeps the last card"
        return f"{text}, discard {self.discard.name}" if self.discard is not None else text


def _options(game: Game, seat: int, cost: Mapping[str, int], coin_cost: int
             ) -> tuple[tuple[Purchase, int, bool], ...]:
    city = game.cities[seat - 1]
    if coin_cost > city.coins:
        return ()
    if not cost:
        return ((NO_PURCHASE, coin_cost, True),)
    found = cheapest_for(game, seat, cost, city.coins - coin_cost)
    return tuple((p, coin_cost + p.coins, k == 0) for k, p in enumerate(found))


def legal_actions(state: State | Game, seat: int) -> tuple[LegalAction, ...]:
    """Every legal play of ``seat`` in the next turn at ``state`` (a position, or a game being played), ``()`` if
    the seat does not act.

    Order: the distinct known cards of the hand in hand order; for each, its builds, then its stages, then its
    sale. A paid build or stage is listed once per *cheapest* purchase (R-TRADE-MINIMAL), in the trade solver's
    canonical order, the first being the default; dearer purchases are legal too but not listed. A free build
    (R-CHAIN, Olympia) is listed once, without purchase. On turn 6, a seat that may keep its last card
    (R-BABYLON-N1: the power, or the stage that grants it built by this very play) gets each play twice, keeping
    (``keeps``), then declining. Cost: one memoised solver call per card plus one for the stage.
    """
    if seat not in seats_to_act(state):
        return ()
    game = state if isinstance(state, Game) else Game(state)
    turn = game.turn + 1
    city = game.cities[seat - 1]
    out: list[LegalAction] = []
    stage = None
    n = city.stages + 1
    if n <= len(city.wonder.stages):
        stage = _options(game, seat, stage_info(city.wonder, n).cost, city.wonder.stages[n - 1].cost.coins)
    listed: set[int] = set()  # the cards listed so far, by identity (catalogue cards are singletons)
    for card in game.hands[seat - 1]:
        if card is None or id(card) in listed:
            continue
        listed.add(id(card))
        if card.name not in city.names:
            free = free_reason(game, city, card, turn)
            if free is not None:
                out.append(LegalAction(seat, "build", card, NO_PURCHASE, 0, free))
            else:
                for p, coins, default in _options(game, seat, info(card).cost, card.cost.coins):
                    out.append(LegalAction(seat, "build", card, p, coins, None, default))
        if stage:
            for p, coins, default in stage:
                out.append(LegalAction(seat, "stage", card, p, coins, None, default))
        out.append(LegalAction(seat, "sell", card))
    if turn == 6:
        return _last_card(city, game.hands[seat - 1], out)
    return tuple(out)


class Play:
    """One play of a seat before it is priced: ``use`` (build / stage / sell) of ``card``, with turn 6's ``keeps``
    and ``discard`` as :class:`LegalAction` has them. Listing plays asks no trade question and no free-build
    question, so that a bot chooses first and prices only what it considers (:func:`price`). A value with
    ``Final`` fields."""

    __slots__ = ("seat", "use", "card", "keeps", "discard")

    def __init__(self, seat: int, use: str, card: Card, keeps: bool = False, discard: Card | None = None) -> None:
        self.seat: Final = seat
        self.use: Final = use
        self.card: Final = card
        self.keeps: Final = keeps
        self.discard: Final = discard

    def __repr__(self) -> str:
        return (f"Play(seat={self.seat}, use={self.use!r}, card={self.card.name!r}, keeps={self.keeps}, "
                f"discard={self.discard!r})")


def plays(state: State | Game, seat: int) -> tuple[Play, ...]:
    """Every play of ``seat`` in the next turn at ``state`` that :func:`legal_actions` would list if affordable,
    unpriced, in its order (a play once, not once per cheapest purchase); ``()`` if the seat does not act. A
    build or stage here may be unaffordable (R-COST-COINS, R-TRADE): :func:`price` says. A sale always is
    legal. Cost: O(hand), no trade question."""
    if seat not in seats_to_act(state):
        return ()
    game = state if isinstance(state, Game) else Game(state)
    city = game.cities[seat - 1]
    hand = game.hands[seat - 1]
    stage = city.stages < len(city.wonder.stages)
    names = city.names
    out: list[Play] = []
    listed: set[int] = set()
    for card in hand:
        if card is None or id(card) in listed:
            continue
        listed.add(id(card))
        if card.name not in names:
            out.append(Play(seat, "build", card))
        if stage:
            out.append(Play(seat, "stage", card))
        out.append(Play(seat, "sell", card))
    if game.turn != 5:
        return tuple(out)
    has = PlayLastCard in city.powers
    grants = stage and any(type(e) is PlayLastCard for e in city.wonder.stages[city.stages].effects)
    last: list[Play] = []
    for p in out:
        if has or (grants and p.use == "stage"):
            last.append(Play(seat, p.use, p.card, True, None))
        rest = list(hand)
        rest.remove(p.card)
        last.append(Play(seat, p.use, p.card, False, rest[0]) if len(rest) == 1 else p)
    return tuple(last)


def least_coins(game: Game, play: Play) -> int:
    """The fewest coins ``play`` can cost in all: its coin cost to the bank (R-COST-COINS), 0 for a sale or a
    free build. Purchases add to it, so it bounds what any pricing of the play pays, without a trade question."""
    if play.use == "build":
        coins = play.card.cost.coins
        if coins and free_reason(game, game.cities[play.seat - 1], play.card, game.turn + 1) is not None:
            return 0
        return coins
    if play.use == "stage":
        city = game.cities[play.seat - 1]
        return city.wonder.stages[city.stages].cost.coins
    return 0


def price(game: Game, play: Play) -> tuple[LegalAction, ...]:
    """``play`` as :func:`legal_actions` lists it: once per cheapest purchase (R-TRADE-MINIMAL), the first the
    default; once for a free build (R-CHAIN, Olympia) or a sale; ``()`` when the seat cannot pay it
    (R-COST-COINS, R-TRADE). Cost: at most one memoised trade question."""
    seat, use, card = play.seat, play.use, play.card
    if use == "sell":
        return (LegalAction(seat, "sell", card, NO_PURCHASE, 0, None, True, play.keeps, play.discard),)
    city = game.cities[seat - 1]
    if use == "build":
        return price_build(game, play, free_reason(game, city, card, game.turn + 1))
    n = city.stages + 1
    options = _options(game, seat, stage_info(city.wonder, n).cost, city.wonder.stages[n - 1].cost.coins)
    return tuple(LegalAction(seat, use, card, p, coins, None, default, play.keeps, play.discard)
                 for p, coins, default in options)


def price_build(game: Game, play: Play, free: str | None) -> tuple[LegalAction, ...]:
    """:func:`price` of the build ``play``, whose card is free for ``free`` (``free_reason``'s answer for the
    seat's city on the next turn, which a caller that asked already passes on rather than asking again)."""
    seat, card = play.seat, play.card
    if free is not None:
        return (LegalAction(seat, "build", card, NO_PURCHASE, 0, free, True, play.keeps, play.discard),)
    return tuple(LegalAction(seat, "build", card, p, coins, None, default, play.keeps, play.discard)
                 for p, coins, default in _options(game, seat, info(card).cost, card.cost.coins))


def priced(game: Game, options: Sequence[Play]) -> tuple[LegalAction, ...]:
    """Every play of ``options`` priced, in order (:func:`price`): for :func:`plays`, the actions of
    :func:`legal_actions` in its order, but that on turn 6 a play's purchases are listed all keeping the last card,
    then all declining, where :func:`legal_actions` alternates them purchase by purchase."""
    return tuple(a for p in options for a in price(game, p))


def _last_card(city: CityState, hand: tuple[Card | None, ...], plays: list[LegalAction]) -> tuple[LegalAction, ...]:
    """Turn 6's plays with the card each leaves (R-LAST); a play that lets the seat keep it (R-BABYLON-N1: the
    power, or the stage that grants it) listed first keeping it, then discarding it."""
    has = PlayLastCard in city.powers
    grants = city.stages < len(city.wonder.stages) and any(
        type(e) is PlayLastCard for e in city.wonder.stages[city.stages].effects)
    out: list[LegalAction] = []
    for a in plays:
        if has or (grants and a.use == "stage"):
            out.append(a.keeping())
        rest = list(hand)
        rest.remove(a.card)
        out.append(a.discarding(rest[0]) if len(rest) == 1 else a)
    return tuple(out)


def as_move(game: Game, a: LegalAction) -> Move:
    """``a`` as the play ``play_turn`` takes: its purchase when not the default, turn 6's discard (R-LAST)."""
    discard = (a.discard,) if game.turn == 5 and not a.keeps and a.discard is not None else ()
    return Move(a.seat, a.use, a.card, None if a.default else (a.purchase.left, a.purchase.right), discard)
