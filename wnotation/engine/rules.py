"""Turn resolution: each seat's play is checked against the turn-start position, then events are decided and
applied (R-RESOLVE).

Decide, record, apply: :func:`play_turn` decides a turn's events on a :class:`~.state.Game` and applies them with
its mutators (:meth:`~.state.Game.commit`: the plays were checked, so the events' step checks are not run again);
it never changes the game any other way. Paying is asked of :mod:`.payment`; Wonder powers are read
from effects, never from Wonder names. Reading a Record and the order of a whole game are in :mod:`.replay`.

After an illegal play the replay goes on as the record says, so that one error does not cascade:

* a build or stage that cannot be paid (R-TRADE, R-COST-COINS, R-PRODUCE …) is placed **unpaid**
  (``CardBuilt.how == "unpaid"``): the record's word wins and later chains and counts still see it;
* a duplicate Building (R-UNIQUE), a stage beyond the last (R-STAGE), a build of an unknown card and a missing
  action are applied as a **discard without reward** (the card leaves the hand for the pile, nothing else);
* a card that is not in the hand the seat holds (R-DECK / R-PASS) is played anyway;
* an illegal pick from the discard pile (R-HALI, R-UNIQUE) counts as declined.
"""

from __future__ import annotations

from typing import Final, Iterable, Mapping, NamedTuple, Sequence, Union

from ..model import deck
from ..model.catalog import (
    AGE_NUMERALS,
    Card,
    CatalogError,
    FreeFirstCardEachAge,
    FreeFirstOfColour,
    FreeLastCardEachAge,
    PlayLastCard,
    load,
)
from ..model.record import Span
from ..model.vocabulary import left_of, right_of
from . import events as ev
from .findings import Finding, Severity
from .payment import NOTHING_PAID, Payment, Stated, pay
from .state import CardInfo, City, CityState, Game, State, info, neighbours, position_of, stage_info
from .trade import Refusal

#: Points per military victory in Ages I, II, III; a defeat is always -1 (R-MILITARY).
VICTORY: Final = (1, 3, 5)
DEFEAT: Final = -1
SALE: Final = 3  # coins for a sold card (R-TURN)

#: A position or a game: what the read-only questions below accept.
Position = Union[State, Game]
AnyCity = Union[City, CityState]


class Play(NamedTuple):
    """One seat's action in one turn, as plain values (the replay decodes Record actions into these once).

    ``use`` is ``build``, ``stage`` or ``sell`` (``discard`` is the engine's own fallback for a missing action).
    ``card`` is ``None`` for an unknown card. ``purchase`` is ``(left units, right units)`` as stated, the coins
    paid to each side (:class:`.coins.Coins`), or ``None`` to let the engine choose (R-TRADE-MINIMAL).
    ``discard`` is turn 6's last card: ``()`` none stated (the seat keeps it, R-BABYLON-N1), ``(None,)`` unseen,
    ``(card,)``. ``pick`` is Halikarnassos' choice: ``()`` not stated, ``(None,)`` declined, ``("Name",)`` the
    printed name of the card taken from the pile.
    """

    seat: int
    use: str
    card: Card | None
    purchase: Stated | None = None
    discard: tuple[Card | None, ...] = ()
    pick: tuple[str | None, ...] = ()
    span: Span | None = None
    pick_span: Span | None = None


def address(age: int, turn: int | str) -> str:
    """``II.3``, ``I.0``, ``III.end``."""
    return f"{AGE_NUMERALS[age]}.{turn}"


def passing(age: int) -> int:
    """The direction hands pass after a turn of ``age``: left in Ages I and III, right in Age II (R-PASS)."""
    return ev.RIGHT if age == 2 else ev.LEFT


# --- who acts -------------------------------------------------------------------------------------------------


def seats_to_act(state: Position) -> tuple[int, ...]:
    """The seats that must play a card in the next turn: everybody on turns 1..6, the seats that kept their last
    card on the extra turn (R-BABYLON-N1), nobody once the Age's turns are over (picks and military remain)."""
    if state.age == 0 or state.ended:
        return ()
    if state.turn < 6:
        return tuple(range(1, len(state.cities) + 1))
    if state.turn == 6:
        return tuple(k + 1 for k, h in enumerate(state.hands) if h)
    return ()


def picks_owed(state: Position) -> tuple[int, ...]:
    """The seats owed a build from the discard pile (R-HALI), in seat order."""
    return tuple(c.seat for c in state.cities if c.picks)


# --- paying ---------------------------------------------------------------------------------------------------


def free_reason(state: Position, city: AnyCity, card: Card, turn: int) -> str | None:
    """Why ``card`` may be built for free on ``turn``: ``"chain"`` (R-CHAIN), ``"power"`` (R-OLYMPIA-D2,
    R-OLYMPIA-N1, R-OLYMPIA-N2), or ``None``. Reads the turn-start ``city``, so a chain source or a power built
    this same turn does not count."""
    rule = free_rule(state, city, card, turn)
    return None if rule is None else "chain" if rule == "R-CHAIN" else "power"


def free_rule(state: Position, city: AnyCity, card: Card, turn: int) -> str | None:
    """The rule that makes ``card`` free on ``turn`` (``R-CHAIN``, ``R-OLYMPIA-D2``, ``R-OLYMPIA-N1``,
    ``R-OLYMPIA-N2``; a chain first), or ``None``; as :func:`free_reason`."""
    return _free_rule(state, city, info(card), turn)


def _free_rule(state: Position, city: AnyCity, i: CardInfo, turn: int) -> str | None:
    """:func:`free_rule` of the card whose facts are ``i``."""
    if i.chain_from and not city.names.isdisjoint(i.chain_from):
        return "R-CHAIN"
    powers = city.powers
    if powers:
        if FreeFirstOfColour in powers and i.colour not in city.colours:
            return "R-OLYMPIA-D2"
        if turn == 1 and FreeFirstCardEachAge in powers:
            since = city.power_age(FreeFirstCardEachAge)
            if since is not None and since < state.age:
                return "R-OLYMPIA-N1"
        if turn == 6 and FreeLastCardEachAge in powers:
            return "R-OLYMPIA-N2"
    return None


_FREE_WHY: Final = {"R-CHAIN": "by a chain", "R-OLYMPIA-D2": "as the city's first {colour} Building",
             "R-OLYMPIA-N1": "as the first card of the Age", "R-OLYMPIA-N2": "as the last card of the Age"}


def _free_purchase(t: _Turn, p: Play, card: Card, rule: str) -> None:
    """A purchase stated on a free build is never needed (R-FREE): an R-TRADE-MINIMAL error; nothing is paid."""
    why = _FREE_WHY[rule].format(colour=card.colour)
    t.find("R-TRADE-MINIMAL", f"{t.name(p.seat)} states a purchase for {card.name}, which is free {why} ({rule}): "
           "a free build needs no purchase (R-FREE); built for free, nothing is paid", p.seat, p.span)


def _paid(game: Game, seat: int, paid: Payment, out: list[ev.Event]) -> None:
    if paid.bank:
        out.append(ev.paid(seat, None, paid.bank))
    bought = paid.purchase
    if bought.left_coins:
        out.append(ev.paid(seat, game.lefts[seat - 1], bought.left_coins, bought.left))
    if bought.right_coins:
        out.append(ev.paid(seat, game.rights[seat - 1], bought.right_coins, bought.right))


def count(state: Position, seat: int, counts: tuple[str, ...], cities: Iterable[str]) -> int:
    """How many of ``counts`` (colours, or ``wonder_stage``) the named ``cities`` of ``seat`` hold in ``state``."""
    n = len(state.cities)
    total = 0
    for where in cities:
        k = (seat if where == "self" else left_of(seat, n) if where == "left" else right_of(seat, n)) - 1
        c = state.cities[k]
        total += sum(1 for b in c.buildings if b.colour in counts)
        if "wonder_stage" in counts:
            total += c.stages
    return total


def card_income(state: Position, seat: int, card: Card) -> int:
    """Coins ``card`` gives when built, counted in ``state`` with the card in place (R-COUNT-SAMETURN)."""
    i = info(card)
    coins = i.coins
    for cp in i.coins_per:
        coins += cp.each * count(state, seat, cp.counts, cp.cities)
    return coins


# --- one turn ---------------------------------------------------------------------------------------------------


def _hand_text(hand: Sequence[Card | None]) -> str:
    return ", ".join("?" if c is None else c.name for c in hand) or "nothing"


def _pile_text(pile: Sequence[Card | None]) -> str:
    """The discard pile for a message: its named cards in pile order, then how many unseen ones it holds (a pile
    of sold cards is mostly unseen: 38 ``?`` said nothing that a count does not)."""
    named = [c.name for c in pile if c is not None]
    unseen = len(pile) - len(named)
    if unseen:
        named.append(f"{unseen} unseen card{'' if unseen == 1 else 's'}")
    return ", ".join(named) or "nothing"


class _Turn:
    """The working data of one turn's resolution (kept together to keep the functions small)."""

    __slots__ = ("game", "age", "turn", "findings")

    def __init__(self, game: Game, turn: int) -> None:
        self.game = game
        self.age = game.age
        self.turn = turn
        self.findings: list[Finding] = []

    @property
    def where(self) -> str:
        return address(self.age, self.turn)

    def name(self, seat: int) -> str:
        return self.game.table.names[seat - 1]

    def find(self, rule: str, message: str, seat: int | None, span: Span | None,
             severity: Severity = "error") -> None:
        self.findings.append(Finding(rule, message, self.where, seat, span, severity))


def _check_hand(t: _Turn, p: Play) -> None:
    hand = t.game.hands[p.seat - 1]
    if p.card is None or position_of(hand, p.card) >= 0 or position_of(hand, None) >= 0:
        return
    name = t.name(p.seat)
    holders = [t.name(k + 1) for k, h in enumerate(t.game.hands) if position_of(h, p.card) >= 0]
    last = [t.name(seat) for seat, c in _last_cards_of(t.game) if c is p.card] if t.turn == 7 else []
    if holders:
        t.find("R-PASS", f"{name} plays {p.card.name}, but at this turn that card is in the hand {holders[0]} "
               f"holds; {name} holds {_hand_text(hand)}", p.seat, p.span)
    elif last:
        t.find("R-PASS", f"{name} plays {p.card.name} in the extra turn, but that card was the last one {last[0]} "
               f"held on turn 6; {name} kept {_hand_text(hand)}", p.seat, p.span)
    else:
        t.find("R-DECK", f"{name} plays {p.card.name}, which is not in the hand {name} holds: "
               f"{_hand_text(hand)}", p.seat, p.span)


def _last_cards_of(game: Game) -> tuple[tuple[int, Card | None], ...]:
    """After turn 6 (the position the extra turn starts from): each seat that kept no card, with the last card it
    discarded (R-LAST). :func:`_last_cards` puts those on the pile last, in seat order, and nothing reaches the
    pile between turn 6 and the extra turn, so they are the pile's last cards."""
    seats = [k + 1 for k, h in enumerate(game.hands) if not h]
    if len(seats) > len(game.discard):
        return ()
    return tuple(zip(seats, game.discard[len(game.discard) - len(seats):]))


#: What earns income once every card of the turn is placed (R-COUNT-SAMETURN): a sale, a card, a stage.
Income = tuple[int, str, Union[Card, int, None]]


def _place(t: _Turn, p: Play, out: list[ev.Event], incomes: list[Income]) -> None:
    """Check ``p`` against the turn-start position; append its placement events to ``out`` and what earns income
    (decided after every placement, R-RESOLVE) to ``incomes``."""
    g, seat, card = t.game, p.seat, p.card
    city = g.cities[seat - 1]
    if card is not None and position_of(g.hands[seat - 1], card) < 0:
        _check_hand(t, p)
    use = p.use
    if use == "build":
        if card is None:
            t.find("R-TURN", f"{t.name(seat)} builds a card that the record does not name", seat, p.span)
            out.append(ev.discarded(seat, None))
            return
        i = info(card)
        if i.name in city.names:
            t.find("R-UNIQUE", f"{t.name(seat)} cannot build {card.name}: the city already has one", seat, p.span)
            out.append(ev.discarded(seat, card))
            return
        free = _free_rule(g, city, i, t.turn)
        stated = p.purchase
        if free is not None:
            if stated and (stated[0] or stated[1]):
                _free_purchase(t, p, card, free)
            out.append(ev.built(seat, card, "chain" if free == "R-CHAIN" else "power"))
        else:
            paid = pay(g, seat, i.cost, i.coin_cost, stated)
            if isinstance(paid, Refusal):
                t.find(paid.rule, f"{t.name(seat)} cannot build {card.name}: {paid.reason}", seat, p.span)
                out.append(ev.built(seat, card, "unpaid"))
            else:
                out.append(ev.built(seat, card, "paid"))
                if paid is not NOTHING_PAID:
                    _paid(g, seat, paid, out)
        if i.earns:
            incomes.append((seat, "card", card))
    elif use == "stage":
        n = city.stages + 1
        if n > len(city.wonder.stages):
            t.find("R-STAGE", f"{t.name(seat)} cannot build a stage: all {city.stages} stages of "
                   f"{city.wonder} are built", seat, p.span)
            out.append(ev.discarded(seat, card))
            return
        si = stage_info(city.wonder, n)
        paid = pay(g, seat, si.cost, si.coin_cost, p.purchase)
        out.append(ev.staged(seat, n, card))
        if isinstance(paid, Refusal):
            t.find(paid.rule, f"{t.name(seat)} cannot build stage {n} of {city.wonder}: {paid.reason}", seat,
                   p.span)
        else:
            _paid(g, seat, paid, out)
        incomes.append((seat, "stage", n))
    elif use == "sell":
        stated = p.purchase
        if stated and (stated[0] or stated[1]):
            what = card.name if card is not None else "an unseen card"
            t.find("R-TRADE-MINIMAL", f"{t.name(seat)} states a purchase for selling {what}: a sale needs no "
                   "resource (R-SELL); sold, nothing is paid", seat, p.span)
        out.append(ev.sold(seat, card))
        incomes.append((seat, "sale", None))
    else:
        out.append(ev.discarded(seat, card))


def _incomes(game: Game, incomes: list[Income]) -> list[ev.Event]:
    """The incomes of a turn, decided with every placement applied (R-COUNT-SAMETURN)."""
    out = []
    for seat, kind, what in incomes:
        if kind == "sale":
            out.append(ev.gained(seat, SALE, "sale"))
        elif isinstance(what, Card):
            coins = card_income(game, seat, what)
            if coins:
                out.append(ev.gained(seat, coins, "card"))
        elif isinstance(what, int):
            coins = stage_info(game.cities[seat - 1].wonder, what).coins
            if coins:
                out.append(ev.gained(seat, coins, "stage"))
    return out


def _last_cards(t: _Turn, game: Game, chosen: Mapping[int, Play]) -> list[ev.Event]:
    """Turn 6: each remaining card is discarded (R-LAST) unless its seat keeps it (R-BABYLON-N1)."""
    out: list[ev.Event] = []
    for k, hand in enumerate(game.hands):
        if not hand:
            continue
        seat = k + 1
        p = chosen[seat]
        if not p.discard:
            if p.use == "discard":  # a missing action, already reported (R-TURN)
                out.append(ev.discarded(seat, hand[0]))
                continue
            city = game.cities[k]
            if PlayLastCard in city.powers:
                continue  # kept for the extra turn
            can = any(type(e) is PlayLastCard for st in city.wonder.stages for e in st.effects)
            if can:
                t.find("R-BABYLON-N1", f"{t.name(seat)} cannot keep the last card: the stage that allows it "
                       "is not built; it is discarded", seat, p.span)
            else:
                t.find("R-LAST", f"{t.name(seat)} must discard the last card; the record names none",
                       seat, p.span)
            out.append(ev.discarded(seat, hand[0]))
            continue
        stated = p.discard[0]
        left = hand[0]
        if stated is not None and left is not None and stated is not left and stated != left:
            t.find("R-LAST", f"{t.name(seat)} discards {stated.name}, but the last card left in hand is "
                   f"{left.name}", seat, p.span)
        out.append(ev.discarded(seat, stated if stated is not None else left))
    return out


def play_turn(game: Game, plays: Sequence[Play]) -> tuple[list[ev.Event], list[Finding]]:
    """Resolve the next turn on ``game`` and apply its events: ``(events, findings)``.

    Every play is checked against the turn-start position (R-RESOLVE, R-COINS-TURNSTART) and its placement decided;
    the placements are applied; then incomes are decided with every card in place (R-COUNT-SAMETURN); on turn 6
    the last cards are discarded or kept (R-LAST, R-BABYLON-N1); hands pass (R-PASS). Builds from the discard pile
    are not part of the turn: see :func:`play_picks`. Raises ``ValueError`` if no turn can be played (misuse, not
    a finding), and :class:`~.state.IntegrityError` only on a bug.
    """
    acting = seats_to_act(game)
    if not acting:
        raise ValueError(f"no turn can be played at {game.address}")
    t = _Turn(game, game.turn + 1)
    placements: list[ev.Event] = []
    incomes: list[Income] = []
    # The usual turn: one play per acting seat, in seat order (no seat to look up, nothing to report).
    usual = tuple([p.seat for p in plays]) == acting
    chosen: Mapping[int, Play] | None = None
    if usual:
        for p in plays:
            _place(t, p, placements, incomes)
    else:
        chosen = _chosen(t, acting, plays)
        for seat in acting:
            found = chosen.get(seat)
            if found is None:
                if t.turn == 7:
                    t.find("R-BABYLON-N1", f"{t.name(seat)} kept a last card but plays no extra turn; it is "
                           "discarded", seat, None)
                else:
                    t.find("R-TURN", f"{t.name(seat)} has no action this turn; a card of the hand is discarded",
                           seat, None)
                found = chosen[seat] = Play(seat, "discard", None)
            _place(t, found, placements, incomes)
    game.commit(placements)
    tail = _incomes(game, incomes) if incomes else []
    if t.turn == 6:
        # incomes change coins only: the hands and powers are as placed
        tail += _last_cards(t, game, dict(zip(acting, plays)) if chosen is None else chosen)
    elif t.turn < 6:
        tail.append(ev.passed(passing(game.age)))
    tail.append(ev.turn_over(game.age, t.turn))
    game.commit(tail)
    placements += tail
    return placements, t.findings


def step_turn(state: State, plays: Iterable[Play]) -> tuple[tuple[ev.Event, ...], tuple[Finding, ...], State]:
    """Resolve the next turn from the position ``state``: ``(events, findings, position after)``, as
    :func:`play_turn` decides them. Raises ``ValueError`` if no turn can be played at ``state``."""
    game = Game(state)
    events, findings = play_turn(game, list(plays))
    return tuple(events), tuple(findings), game.snapshot()


def _chosen(t: _Turn, acting: tuple[int, ...], plays: Sequence[Play]) -> dict[int, Play]:
    """Each seat's first play, reporting plays of seats that do not act and second plays (R-TURN, R-BABYLON-N1)."""
    chosen: dict[int, Play] = {}
    for p in plays:
        if p.seat not in acting:
            if t.turn == 7:
                t.find("R-BABYLON-N1", f"{t.name(p.seat)} has no last card to play in an extra turn", p.seat, p.span)
            else:
                t.find("R-TURN", f"seat {p.seat} is not at the table", p.seat, p.span)
        elif p.seat in chosen:
            t.find("R-TURN", f"{t.name(p.seat)} plays twice in one turn; the second play is ignored", p.seat, p.span)
        else:
            chosen[p.seat] = p
    return chosen


def resolve_turn(state: State, plays: Iterable[Play]) -> tuple[tuple[ev.Event, ...], tuple[Finding, ...]]:
    """The events and findings of the next turn (see :func:`step_turn`, which also returns the new position)."""
    events, findings, _ = step_turn(state, plays)
    return events, findings


# --- builds from the discard pile, end of an Age ---------------------------------------------------------------


def pick_options(state: Position, seat: int) -> tuple[Card, ...]:
    """The distinct cards ``seat`` may take from the discard pile (R-HALI, R-UNIQUE), in pile order.

    Unknown cards in the pile are not offered (nobody can name them)."""
    names = state.cities[seat - 1].names
    seen: set[str] = set()
    out = []
    for c in state.discard:
        if c is not None and c.name not in names and c.name not in seen:
            seen.add(c.name)
            out.append(c)
    return tuple(out)


def _find_in_pile(pile: tuple[Card | None, ...], name: str) -> Card | None:
    for c in pile:
        if c is not None and c.name == name:
            return c
    return None


def play_picks(game: Game, picks: Mapping[int, tuple[str | None, ...]], where: str,
               spans: Mapping[int, Span | None] | None = None) -> tuple[list[ev.Event], list[Finding]]:
    """Resolve the builds from the discard pile owed in ``game`` (R-HALI, R-HALI-LAST) and apply their events:
    ``(events, findings)``. ``picks[seat]`` is as :attr:`Play.pick`; a seat owed nothing is not looked at. A
    picked card is built for free and its income applies (R-COUNT-SAMETURN). ``where`` is the address for
    findings."""
    events: list[ev.Event] = []
    findings: list[Finding] = []
    spans = spans or {}
    for seat in picks_owed(game):
        city = game.cities[seat - 1]
        names = frozenset(city.names)  # as the picks start: a city builds at most one copy of a card
        name = game.table.names[seat - 1]
        span = spans.get(seat)
        choice = picks.get(seat, ())
        for _ in range(city.picks):
            pile = game.discard
            card = None
            if not choice:
                if any(c is not None and c.name not in names for c in pile) or None in pile:
                    findings.append(Finding("R-HALI", f"{name} may build a card from the discard pile; the record "
                                            "states no choice, taken as declined", where, seat, span, "warning"))
            elif choice[0] is None:
                pass
            elif choice[0] == "?":
                findings.append(Finding("R-HALI", f"{name} builds from the discard pile a card the record does "
                                        "not name; taken as declined", where, seat, span))
            else:
                card = _find_in_pile(pile, choice[0])
                why = ""
                if card is None and None in pile:
                    card, why = hidden_design(game, choice[0])
                    why = f"; {why}" if why else ""
                if card is None:
                    findings.append(Finding("R-HALI", f"{name} cannot build {choice[0]} from the discard pile: it "
                                            f"holds {_pile_text(pile)}{why}", where, seat, span))
                elif card.name in names:
                    findings.append(Finding("R-UNIQUE", f"{name} cannot build {card.name} from the discard pile: "
                                            "the city already has one", where, seat, span))
                    card = None
            if card is None:
                declined = ev.PickDeclined(seat)
                game.apply(declined)
                events.append(declined)
                continue
            picked = ev.PickedFromDiscard(seat, card)
            game.apply(picked)
            events.append(picked)
            coins = card_income(game, seat, card)
            if coins:
                gained = ev.gained(seat, coins, "card")
                game.apply(gained)
                events.append(gained)
            choice = ()
    return events, findings


def step_picks(state: State, picks: Mapping[int, tuple[str | None, ...]], where: str,
               spans: Mapping[int, Span | None] | None = None
               ) -> tuple[tuple[ev.Event, ...], tuple[Finding, ...], State]:
    """The builds from the discard pile owed at the position ``state``, as :func:`play_picks` resolves them:
    ``(events, findings, position after)``."""
    game = Game(state)
    events, findings = play_picks(game, picks, where, spans)
    return tuple(events), tuple(findings), game.snapshot()


def hidden_design(state: Position, name: str) -> tuple[Card | None, str]:
    """The design called ``name`` that one of the pile's unknown cards can be (R-HALI-UNKNOWN), latest Age first,
    with ``""``; or ``None`` and why none can.

    A design can be hidden in the pile when this game's deck of its Age (an Age played so far; player count and
    guilds, :func:`wnotation.model.deck.copies`) holds more copies than are known to be elsewhere: Buildings (picked
    ones included), cards under a Wonder, cards in a hand. Cost: O(cards in play) per Age."""
    catalog = load()
    players = len(state.cities)
    seen: list[Card | None] = [c for city in state.cities for c in city.buildings + city.staged]
    seen += [c for hand in state.hands for c in hand]
    reasons = []
    for age in range(state.age, 0, -1):
        try:
            card = catalog.card(name, age)
        except CatalogError:
            continue
        have = deck.copies(age, players, state.table.guilds)[card]
        elsewhere = sum(1 for c in seen if c is card)
        if have > elsewhere:
            return card, ""
        numeral = AGE_NUMERALS[age]
        if not have:
            reasons.append(f"{card.name} is not among this game's guilds" if card.is_guild else
                           f"the Age {numeral} deck for {players} players holds no {card.name}")
        else:
            held = f"1 {card.name}, known" if have == 1 else f"{have} copies of {card.name}, all known"
            reasons.append(f"the Age {numeral} deck for {players} players holds {held} to be elsewhere (in a city, "
                           "under a Wonder or in a hand)")
    return None, ", and ".join(reasons)


def resolve_picks(state: State, picks: Mapping[int, tuple[str | None, ...]], where: str = ""
                  ) -> tuple[tuple[ev.Event, ...], tuple[Finding, ...]]:
    """The events and findings of the builds from the discard pile owed at ``state`` (see :func:`step_picks`)."""
    events, findings, _ = step_picks(state, picks, where or state.address)
    return events, findings


def deal_events(age: int, hands: Sequence[Sequence[Card | None]]) -> tuple[ev.Event, ...]:
    """The event that starts ``age`` with ``hands`` (seat order, 7 cards each)."""
    return (ev.AgeDealt(age, tuple(tuple(h) for h in hands)),)


def end_age(state: Position) -> tuple[ev.Event, ...]:
    """Military (R-MILITARY) and the end of the Age, once the turns and the picks are over.

    Each seat compares shields with its left, then its right neighbour: more gives 1/3/5 points by Age, fewer -1.
    """
    cities: Sequence[AnyCity] = state.cities
    n = len(cities)
    lefts, rights = neighbours(n)
    win = VICTORY[state.age - 1]
    out: list[ev.Event] = []
    for k, c in enumerate(cities):
        for other in (cities[lefts[k] - 1], cities[rights[k] - 1]):
            if c.shields > other.shields:
                out.append(ev.conflict(c.seat, other.seat, win))
            elif c.shields < other.shields:
                out.append(ev.conflict(c.seat, other.seat, DEFEAT))
    out.append(ev.age_over(state.age))
    return tuple(out)
