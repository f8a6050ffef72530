"""What a seat may be recorded as playing at a position, as the engine answers it, and what the user's typing means.

The engine decides: the plays come from :func:`~wnotation.engine.legal_actions` (free builds, costs, every cheapest
purchase with the default first, the turn-6 plays that keep the last card). When the position does not show the
whole hand (no deal in the record), the hand is taken to hold every design of this Age's deck that is not known to
be elsewhere, and the same function lists their plays. Matching typed text is prefix matching on words, so a few
letters pick a card; nothing here decides legality.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import cast

from ..model import deck
from ..model.catalog import Card, CatalogError, load
from ..engine import LegalAction, State, legal_actions
from ..engine.trade import Purchase as Trade
from ..errors import WnotationError
from ..notation import format_purchase
from ..model.record import UNKNOWN, Purchase, Use

__all__ = ["Choice", "EntryError", "Play", "PurchaseOption", "hand", "match", "parse_play", "plays", "possible_cards",
           "words"]


class EntryError(WnotationError, ValueError):
    """What the user typed names no play: the message says why (an unknown card with a suggestion, an ambiguity)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One completion: the ``text`` to type and a ``note`` shown beside it (a cost, a purchase, a rule)."""

    text: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class PurchaseOption:
    """A cheapest purchase for a paid play, as the Record states it, with the coins it costs in all."""

    purchase: Purchase
    coins: int
    default: bool

    @property
    def text(self) -> str:
        return format_purchase(self.purchase)


@dataclass(frozen=True, slots=True)
class Play:
    """A play a seat may be recorded as making: ``use`` of ``card`` (a printed name or ``?``), typed as ``text``.

    ``purchases`` are the engine's cheapest purchases (default first; ``()`` when nothing is bought or the card is
    free), ``coins`` what the default costs in all, ``free`` ``"chain"``/``"power"`` for a free build, ``keeps``
    whether the seat may keep its last card after this turn-6 play (R-BABYLON-N1)."""

    use: str
    card: str
    text: str
    purchases: tuple[PurchaseOption, ...] = ()
    coins: int = 0
    free: str | None = None
    keeps: bool = False

    @property
    def note(self) -> str:
        if self.free:
            return f"free ({self.free})"
        if self.purchases and self.purchases[0].purchase.left + self.purchases[0].purchase.right:
            more = f", or {len(self.purchases) - 1} more" if len(self.purchases) > 1 else ""
            return f"{_coins(self.coins)}: buy {self.purchases[0].text}{more}"
        return _coins(self.coins) if self.coins else ""


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _as_record(p: Trade) -> Purchase:
    """An engine purchase as the Record holds one: each side's units sorted by name."""
    return Purchase(left=tuple(sorted(p.left)), right=tuple(sorted(p.right)))


def hand(state: State, seat: int) -> tuple[tuple[Card, ...], bool]:
    """The known cards of ``seat``'s hand at ``state`` and whether they are the whole hand."""
    cards = state.hands[seat - 1]
    known = tuple(c for c in cards if c is not None)
    return known, len(known) == len(cards)


def possible_cards(state: State, seat: int) -> tuple[Card, ...]:
    """The card designs ``seat`` may hold at ``state``: its hand when the position shows all of it; otherwise its
    known cards, then every design of this Age's deck (player count, guilds when known) with more copies than are
    known elsewhere (cities, cards under Wonders, other hands, the discard pile), in catalogue order."""
    known, complete = hand(state, seat)
    if complete:
        return tuple(dict.fromkeys(known))
    seen: Counter[Card] = Counter()
    for city in state.cities:
        seen.update(city.buildings)
        seen.update(c for c in city.staged if c is not None)
    for k, cards in enumerate(state.hands):
        if k != seat - 1:
            seen.update(c for c in cards if c is not None)
    seen.update(c for c in state.discard if c is not None)
    seen.update(known)
    copies = deck.copies(state.age, state.players, state.table.guilds)
    unseen = [c for c, n in copies.items() if n > seen[c]]
    catalog = load()
    order = {c: k for k, c in enumerate(catalog.cards)}
    return tuple(dict.fromkeys(known + tuple(sorted(unseen, key=order.__getitem__))))


def plays(state: State, seat: int, *, hidden: bool = False) -> tuple[Play, ...]:
    """What ``seat`` may be recorded as playing in the next turn at ``state``, one entry per (use, card): the legal
    builds, stages and sales of the cards it may hold (see :func:`possible_cards`), then ``stage ?`` and ``sell ?``.
    ``hidden``: the recorder does not see this seat's hidden cards (a seat view), so its stages and sales are offered
    only as ``?``. Cost: one :func:`~wnotation.engine.legal_actions` call over the possible cards."""
    cards = possible_cards(state, seat)
    if cards != tuple(c for c in state.hands[seat - 1] if c is not None):
        state = state._replace(hands=tuple(cards if k == seat - 1 else h for k, h in enumerate(state.hands)))
    actions = legal_actions(state, seat)
    grouped: dict[tuple[str, str], list[LegalAction]] = {}
    for a in actions:
        grouped.setdefault((a.use, a.card.name), []).append(a)
    out: list[Play] = []
    for (use, name), found in grouped.items():
        if hidden and use != "build":
            continue
        options: list[PurchaseOption] = []
        for a in found:
            option = PurchaseOption(_as_record(a.purchase), a.coins, a.default)
            if a.purchase.units and option not in options:
                options.append(option)
        text = name if use == "build" else f"{use} {name}"
        out.append(Play(use, name, text, tuple(options), found[0].coins, found[0].free, any(a.keeps for a in found)))
    city = state.cities[seat - 1]
    if city.stages < len(city.wonder.stages):
        stage = [a for a in actions if a.use == "stage"]
        options = []
        for a in stage:
            option = PurchaseOption(_as_record(a.purchase), a.coins, a.default)
            if a.purchase.units and option not in options:
                options.append(option)
        out.append(Play("stage", UNKNOWN, "stage ?", tuple(options), stage[0].coins if stage else 0, None,
                        any(a.keeps for a in stage)))
    out.append(Play("sell", UNKNOWN, "sell ?", keeps=any(a.keeps for a in actions if a.use == "sell")))
    if hidden:  # the seat's hidden plays first: they are what a seat view records most
        out = [p for p in out if p.card == UNKNOWN] + [p for p in out if p.card != UNKNOWN]
    return tuple(out)


# --- what the user types -------------------------------------------------------------------------------------------

_WORD = re.compile(r"[0-9a-z?]+")
VERBS = ("build", "stage", "sell")


def words(text: str) -> list[str]:
    """The matching words of ``text``: lower case, letters, digits and ``?``, everything else a separator."""
    return _WORD.findall(text.casefold())


def match(query: str, text: str) -> bool:
    """Whether ``query`` is typed towards ``text``: each of its words begins the word of ``text`` at the same place
    (``lu ya`` for Lumber Yard, ``se alt`` for sell Altar), or it begins ``text`` with the spaces left out."""
    q, t = words(query), words(text)
    if not q:
        return True
    if len(q) <= len(t) and all(t[k].startswith(w) for k, w in enumerate(q)):
        return True
    return "".join(t).startswith("".join(q))


def parse_play(query: str, offered: tuple[Play, ...], age: int) -> tuple[Use, str]:
    """``(use, card)`` for what the user typed: the one offered play it matches (an exact match wins), else a verb
    and a catalogue card of ``age`` (any spelling the catalogue accepts, so that the engine judges a play it does
    not list). Raises :class:`EntryError` for nothing typed, an ambiguity, an unknown card or a built ``?``."""
    use, card = _parse_play(query, offered, age)
    return cast(Use, use), card


def _parse_play(query: str, offered: tuple[Play, ...], age: int) -> tuple[str, str]:
    q = words(query)
    if not q:
        raise EntryError("type a card (a few letters and Tab), stage …, sell …, or undo")
    if q in (["stage"], ["sell"]):
        return q[0], UNKNOWN
    exact = [p for p in offered if words(p.text) == q or (p.use == "build" and words(f"build {p.card}") == q)]
    if exact:
        return exact[0].use, exact[0].card
    found = [p for p in offered if match(query, p.text) or (p.use == "build" and match(query, f"build {p.card}"))]
    kinds = list(dict.fromkeys((p.use, p.card) for p in found))
    if len(kinds) == 1:
        return kinds[0]
    if len(kinds) > 1:
        shown = ", ".join(p.text for p in found[:6]) + (", …" if len(found) > 6 else "")
        raise EntryError(f"{query.strip()!r} could be {shown}: type more")
    use, rest = "build", q
    verbs = [v for v in VERBS if v.startswith(q[0])] if len(q) > 1 and len(q[0]) >= 2 else []
    if len(verbs) == 1:
        use, rest = verbs[0], q[1:]
    name = " ".join(rest)
    if name == UNKNOWN:
        if use == "build":
            raise EntryError("a built card is face up: name it (? is for a stage, a sale or a discard)")
        return use, UNKNOWN
    return use, _catalogue_card(name, age)


def card_choices(cards: tuple[Card, ...], *, unknown_first: bool = True) -> tuple[Choice, ...]:
    """Completions for a card question (a discard, a pick): ``?`` then the cards' names."""
    names = tuple(Choice(c.name) for c in dict.fromkeys(cards))
    return ((Choice(UNKNOWN, "not seen"),) + names) if unknown_first else names


def parse_card(query: str, cards: tuple[Card, ...], age: int, *, earlier: bool = False) -> str:
    """The printed name for a typed card among ``cards`` (prefix matching, an exact match wins), or any catalogue
    card of ``age`` (``earlier``: of Ages 1 to ``age``, as the discard pile holds); ``?`` for an unseen one. Raises
    :class:`EntryError`."""
    q = words(query)
    if q == [UNKNOWN]:
        return UNKNOWN
    names = list(dict.fromkeys(c.name for c in cards))
    exact = [n for n in names if words(n) == q]
    if exact:
        return exact[0]
    found = [n for n in names if match(query, n)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise EntryError(f"{query.strip()!r} could be {', '.join(found[:6])}: type more")
    return _catalogue_card(" ".join(q), age, earlier=earlier)


def _catalogue_card(name: str, age: int, *, earlier: bool = False) -> str:
    """The printed name of the one design of ``age`` (``earlier``: of Ages 1 to ``age``; guilds in Age III) that
    ``name`` is typed towards."""
    catalog = load()
    designs = tuple(c for a in (range(1, age + 1) if earlier else (age,)) for c in catalog.age_cards(a))
    designs += catalog.guilds if age == 3 else ()
    exact = [c.name for c in designs if words(c.name) == words(name)]
    found = exact or list(dict.fromkeys(c.name for c in designs if match(name, c.name)))
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise EntryError(f"{name!r} could be {', '.join(found[:6])}: type more")
    try:
        return catalog.card(name, None if earlier else age).name
    except CatalogError as exc:
        raise EntryError(str(exc)) from None
