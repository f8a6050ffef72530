"""The card and Wonder catalogue: every card design, guild and Wonder side of the 2nd edition.

Loaded once from ``wnotation/data/catalog.json`` into small frozen objects whose effects are typed, so that
rules code reads effects (produce, shields, science, counting …) and never names a card. Deck composition and
seeded dealing live in :mod:`wnotation.model.deck`; this module knows only what is printed on the cards.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Iterator, Literal, Union

from ..errors import InputError

RAW = ("wood", "stone", "clay", "ore")
MANUFACTURED = ("glass", "papyrus", "loom")
RESOURCES = RAW + MANUFACTURED
COLOURS = ("brown", "grey", "blue", "yellow", "red", "green", "purple")
SCIENCE_SYMBOLS = ("tablet", "compass", "gear")
AGES = (1, 2, 3)
AGE_NUMERALS = {1: "I", 2: "II", 3: "III"}
MIN_PLAYERS, MAX_PLAYERS = 3, 7
SIDES = ("day", "night")

#: A JSON object: the data file's entries as loaded and the JSON-ready dicts this module gives back.
JsonObject = dict[str, Any]
Resource = str
#: Which city an effect looks at: the seat's own or a neighbour's (R-SEAT). The engine's city state is
#: :class:`wnotation.engine.state.City`.
CityRef = Literal["self", "left", "right"]
City = CityRef  # the former name, kept for existing callers


class CatalogError(InputError, ValueError):
    """A name or number that the catalogue does not know; ``suggestion`` holds the nearest known name."""

    def __init__(self, message: str, *, name: str | None = None, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.suggestion = suggestion


# --- effects -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Produce:
    """One unit (or ``amount`` units) of one of ``choices``, chosen anew at every payment (R-PRODUCE)."""

    choices: tuple[Resource, ...]
    amount: int = 1
    tradable: bool = True


@dataclass(frozen=True, slots=True)
class Points:
    amount: int


@dataclass(frozen=True, slots=True)
class Shields:
    amount: int


@dataclass(frozen=True, slots=True)
class Coins:
    """Coins taken from the bank once, when the card or stage is built."""

    amount: int


@dataclass(frozen=True, slots=True)
class Science:
    symbol: str  # tablet | compass | gear | any


@dataclass(frozen=True, slots=True)
class TradeDiscount:
    """Units of ``resources`` bought from the named neighbours cost ``price`` (R-PRICE)."""

    resources: tuple[Resource, ...]
    neighbours: tuple[CityRef, ...]
    price: int = 1


@dataclass(frozen=True, slots=True)
class CoinsPer:
    """Coins once, when built: ``each`` per counted thing in ``cities`` (R-COUNT-SAMETURN)."""

    counts: tuple[str, ...]  # colours, or ("wonder_stage",)
    each: int
    cities: tuple[CityRef, ...]


@dataclass(frozen=True, slots=True)
class PointsPer:
    """Points at the end of the game: ``each`` per counted thing in ``cities``."""

    counts: tuple[str, ...]
    each: int
    cities: tuple[CityRef, ...]


@dataclass(frozen=True, slots=True)
class PointsIfWonderComplete:
    amount: int


@dataclass(frozen=True, slots=True)
class PlayLastCard:
    """Babylon Night: keep the 7th card and play it as an extra turn (R-BABYLON-N1)."""


@dataclass(frozen=True, slots=True)
class BuildFromDiscard:
    """Halikarnassos: build one card from the discard pile for free at the end of the turn (R-HALI)."""


@dataclass(frozen=True, slots=True)
class FreeFirstOfColour:
    """Olympia Day: a Building of a colour the city lacks is free (R-OLYMPIA-D2)."""


@dataclass(frozen=True, slots=True)
class FreeFirstCardEachAge:
    """Olympia Night: the card played on turn 1 of each later Age may be built free (R-OLYMPIA-N1)."""


@dataclass(frozen=True, slots=True)
class FreeLastCardEachAge:
    """Olympia Night: the card played on turn 6 of each Age may be built free (R-OLYMPIA-N2)."""


Effect = Union[
    Produce, Points, Shields, Coins, Science, TradeDiscount, CoinsPer, PointsPer, PointsIfWonderComplete,
    PlayLastCard, BuildFromDiscard, FreeFirstOfColour, FreeFirstCardEachAge, FreeLastCardEachAge,
]

#: The effect registry: each ``type`` of the data file's effects -> its class, whose fields are the entry's other
#: keys. Loading (:func:`_effect`) and :func:`effect_data` both read it, so an effect is one class and one line here.
_EFFECTS: dict[str, type[Effect]] = {
    "produce": Produce,
    "points": Points,
    "shields": Shields,
    "coins": Coins,
    "science": Science,
    "trade_discount": TradeDiscount,
    "coins_per": CoinsPer,
    "points_per": PointsPer,
    "points_if_wonder_complete": PointsIfWonderComplete,
    "play_last_card_each_age": PlayLastCard,
    "build_from_discard": BuildFromDiscard,
    "free_first_card_of_each_colour": FreeFirstOfColour,
    "free_first_card_each_age": FreeFirstCardEachAge,
    "free_last_card_each_age": FreeLastCardEachAge,
}
_KINDS: dict[type[Effect], str] = {cls: kind for kind, cls in _EFFECTS.items()}


def _effect(data: JsonObject) -> Effect:
    """The effect of one data-file entry: the registry's class for its ``type``, its other keys the fields (lists
    become tuples, so that effects stay frozen and hashable)."""
    fields: JsonObject = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "type"}
    return _EFFECTS[data["type"]](**fields)


def _join(words: tuple[str, ...] | list[str], last: str = "and") -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


_CITIES: dict[tuple[CityRef, ...], str] = {
    ("self",): "your city",
    ("left",): "your left neighbour's city",
    ("right",): "your right neighbour's city",
    ("left", "right"): "both neighbours' cities",
    ("self", "left", "right"): "your city and both neighbours' cities",
}

_NEIGHBOURS: dict[tuple[CityRef, ...], str] = {("left",): "the left neighbour", ("right",): "the right neighbour"}


def _counted(counts: tuple[str, ...]) -> str:
    return "Wonder stage built" if counts == ("wonder_stage",) else f"{_join(counts, 'or')} card"


def describe(effect: Effect) -> str:
    """The effect in plain English, e.g. ``produces wood or clay`` or ``1 VP per green card in both neighbours'
    cities (end of game)``. The one source of effect wording for the CLI and error messages."""
    match effect:
        case Produce(choices, amount, tradable):
            what = _join(choices, "or") if len(choices) < 3 else f"one of {_join(choices, 'or')}"
            text = f"produces {amount}×{what}" if amount > 1 else f"produces {what}"
            return text if tradable else f"{text} (not for sale to neighbours)"
        case Points(amount):
            return f"{amount} VP"
        case Shields(amount):
            return _plural(amount, "shield")
        case Coins(amount):
            return f"{_plural(amount, 'coin')} from the bank, once"
        case Science(symbol):
            return "science symbol of your choice (end of game)" if symbol == "any" else f"science symbol: {symbol}"
        case TradeDiscount(resources, neighbours, price):
            kind = {RAW: "raw materials", MANUFACTURED: "manufactured goods"}.get(resources, _join(resources))
            whom = _NEIGHBOURS.get(neighbours, "either neighbour")
            return f"{kind} bought from {whom} cost {_plural(price, 'coin')}"
        case CoinsPer(counts, each, cities):
            return f"{_plural(each, 'coin')} per {_counted(counts)} in {_CITIES[cities]} (once, when built)"
        case PointsPer(counts, each, cities):
            return f"{each} VP per {_counted(counts)} in {_CITIES[cities]} (end of game)"
        case PointsIfWonderComplete(amount):
            return f"{amount} VP if you have built every stage of your Wonder"
        case PlayLastCard():
            return "play the last card of each Age instead of discarding it"
        case BuildFromDiscard():
            return "build a card from the discard pile for free"
        case FreeFirstOfColour():
            return "build a card of a colour your city lacks for free"
        case FreeFirstCardEachAge():
            return "build the first card of each later Age for free"
        case FreeLastCardEachAge():
            return "build the last card of each Age for free"
    raise TypeError(f"not an effect: {effect!r}")


def effect_data(effect: Effect) -> JsonObject:
    """The effect as a JSON-ready dict in the data file's schema (the inverse of loading); a fresh dict."""
    data: JsonObject = {"type": _KINDS[type(effect)]}
    for field in effect.__dataclass_fields__:
        value = getattr(effect, field)
        data[field] = list(value) if isinstance(value, tuple) else value
    return data


# --- cards and Wonders ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cost:
    """Coins to the bank plus resource units, as a sorted tuple of (resource, count) pairs."""

    coins: int = 0
    resources: tuple[tuple[Resource, int], ...] = ()

    @property
    def is_free(self) -> bool:
        return not self.coins and not self.resources

    def __str__(self) -> str:
        parts = [f"{n}×{r}" if n > 1 else r for r, n in self.resources]
        if self.coins:
            parts.insert(0, f"{self.coins} coin" + ("s" if self.coins > 1 else ""))
        return " + ".join(parts) if parts else "free"


def _cost(data: JsonObject) -> Cost:
    unknown = set(data) - set(RESOURCES) - {"coins"}
    assert not unknown, unknown
    return Cost(data.get("coins", 0), tuple((r, data[r]) for r in RESOURCES if data.get(r)))


@dataclass(frozen=True, slots=True)
class Card:
    """One card design. Two designs may share a name across Ages (Glassworks in Ages I and II)."""

    name: str
    age: int
    colour: str
    cost: Cost
    effects: tuple[Effect, ...]
    copies: tuple[int, ...]  # printed minimum player count of each physical copy; () for guilds
    chain_from: tuple[str, ...] = ()  # owning any of these Buildings makes this card free (R-CHAIN)
    chain_to: tuple[str, ...] = ()  # names of the later cards this one makes free

    @property
    def is_guild(self) -> bool:
        return self.colour == "purple"

    @property
    def key(self) -> str:
        """A unique identifier, stable across releases: ``I:Glassworks``, ``III:Workers Guild``."""
        return f"{AGE_NUMERALS[self.age]}:{self.name}"

    def copies_for(self, players: int) -> int:
        """Copies of this design in the deck of an ``players``-player game (guilds: 0, they are drawn)."""
        return sum(1 for m in self.copies if m <= players)

    def __repr__(self) -> str:
        return f"catalog.card({self.name!r}, age={self.age})"


@dataclass(frozen=True, slots=True)
class Stage:
    index: int  # 1-based, left to right
    cost: Cost
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class WonderSide:
    name: str
    side: str  # day | night
    full_name: str
    resource: Resource  # the starting resource (R-PRODUCE, tradable, R-TRADE)
    stages: tuple[Stage, ...]

    def __repr__(self) -> str:
        return f"catalog.wonder({self.name!r}, {self.side!r})"

    def __str__(self) -> str:
        return f"{self.name} {self.side}"


def normalise(name: str) -> str:
    """The matching key of a printed name: case-, spacing- and punctuation-insensitive."""
    return re.sub(r"[^0-9a-z]+", "", name.casefold())


class Catalog:
    """Every card design, guild and Wonder side, with lookup by printed name. Build it with :func:`load`."""

    def __init__(self, data: JsonObject) -> None:
        raw_cards = data["cards"]
        chain_to: dict[str, list[str]] = {}
        for c in raw_cards:
            for parent in c.get("chain_from", ()):
                chain_to.setdefault(parent, []).append(c["name"])
        self.cards: tuple[Card, ...] = tuple(
            Card(
                name=c["name"],
                age=c["age"],
                colour=c["colour"],
                cost=_cost(c["cost"]),
                effects=tuple(_effect(e) for e in c["effects"]),
                copies=tuple(c.get("copies", ())),
                chain_from=tuple(c.get("chain_from", ())),
                chain_to=tuple(chain_to.get(c["name"], ())),
            )
            for c in raw_cards
        )
        self.wonders: tuple[WonderSide, ...] = tuple(
            WonderSide(
                name=w["name"],
                side=w["side"],
                full_name=w["full_name"],
                resource=w["resource"],
                stages=tuple(
                    Stage(i, _cost(s["cost"]), tuple(_effect(e) for e in s["effects"]))
                    for i, s in enumerate(w["stages"], 1)
                ),
            )
            for w in data["wonders"]
        )
        self.edition: str = data["edition"]
        self.disputed: tuple[JsonObject, ...] = tuple(data.get("disputed", ()))
        self.guilds: tuple[Card, ...] = tuple(c for c in self.cards if c.is_guild)
        self._by_key: dict[tuple[str, int], Card] = {(normalise(c.name), c.age): c for c in self.cards}
        self._names: dict[str, str] = {normalise(c.name): c.name for c in self.cards}
        self._aliases: dict[str, list[str]] = data.get("wonder_aliases", {})
        self._wonder_names: dict[str, str] = _wonder_spellings(self.wonders, self._aliases)
        self._wonders: dict[tuple[str, str], WonderSide] = {(w.name, w.side): w for w in self.wonders}

    # lookups ------------------------------------------------------------------------------------------------

    def card_name(self, name: str) -> str:
        """The printed name of a card, matched case- and spacing-insensitively; :class:`CatalogError` if none."""
        key = normalise(name)
        found = self._names.get(key)
        if found is None:
            raise _unknown("card", name, self._names)
        return found

    def card(self, name: str, age: int | None = None) -> Card:
        """The card design called ``name`` (in ``age``, needed only for names printed in two Ages).

        Without ``age`` a shared name gives its earliest design. Raises :class:`CatalogError` with a suggestion
        for an unknown name or a card that is not in that Age.
        """
        printed = self.card_name(name)
        key = normalise(printed)
        if age is not None:
            found = self._by_key.get((key, age))
            if found is None:
                ages = [AGE_NUMERALS[a] for a in AGES if (key, a) in self._by_key]
                raise CatalogError(
                    f"{printed} is not an Age {AGE_NUMERALS[age]} card (it is in Age {', '.join(ages)})",
                    name=name,
                )
            return found
        return next(self._by_key[(key, a)] for a in AGES if (key, a) in self._by_key)

    def wonder_name(self, name: str) -> str:
        """The catalogue's name of a Wonder: matched as a card name is, and by its English spelling (``Giza``,
        ``Rhodes``) or its full name (``The Pyramids of Giza``), so every name the tool prints reads back.
        Raises :class:`CatalogError` with a suggestion for anything else."""
        found = self._wonder_names.get(normalise(name))
        if found is None:
            raise _unknown("Wonder", name, self._wonder_names)
        return found

    def wonder_spellings(self) -> dict[str, tuple[str, ...]]:
        """Each Wonder's name -> the other spellings :meth:`wonder_name` accepts (aliases, then full names), as
        distinct matching keys go: what ``spec/names.md`` publishes."""
        found: dict[str, list[str]] = {w.name: [] for w in self.wonders}
        keys = {normalise(name) for name in found}
        for w in self.wonders:
            for spelling in _spellings(w, self._aliases):
                if normalise(spelling) not in keys:
                    keys.add(normalise(spelling))
                    found[w.name].append(spelling)
        return {name: tuple(s) for name, s in found.items()}

    def wonder(self, name: str, side: str) -> WonderSide:
        """The Wonder side ``name`` / ``side`` (``day`` or ``night``; ``A``/``B`` are accepted too)."""
        found = self._wonders.get((name, side))
        if found is not None:  # the catalogue's own spelling, as records and bots write it: one look-up
            return found
        side_key = {"a": "day", "b": "night"}.get(side.casefold(), side.casefold())
        if side_key not in SIDES:
            raise CatalogError(f"unknown Wonder side {side!r}: expected day or night", name=side)
        return self._wonders[(self.wonder_name(name), side_key)]

    def age_cards(self, age: int) -> tuple[Card, ...]:
        """The designs of one Age deck, guilds excluded, in catalogue order."""
        return tuple(c for c in self.cards if c.age == age and not c.is_guild)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)


def _spellings(wonder: WonderSide, aliases: dict[str, list[str]]) -> tuple[str, ...]:
    """Every spelling of ``wonder`` a reader accepts, its name first: the aliases, the full name with and without
    "The"."""
    return (wonder.name, *aliases.get(wonder.name, ()), wonder.full_name, wonder.full_name.removeprefix("The "))


def _wonder_spellings(wonders: tuple[WonderSide, ...], aliases: dict[str, list[str]]) -> dict[str, str]:
    """Matching key -> catalogue name for every accepted spelling of each Wonder (its name first)."""
    table = {normalise(w.name): w.name for w in wonders}
    for w in wonders:
        for spelling in _spellings(w, aliases):
            table.setdefault(normalise(spelling), w.name)
    return table


def _unknown(kind: str, name: str, table: dict[str, str]) -> CatalogError:
    key = normalise(name)
    close = difflib.get_close_matches(key, list(table), n=1, cutoff=0.6)
    if not close:  # prefixes and abbreviations ("lumber" -> Lumber Yard)
        close = [k for k in table if k.startswith(key)][:1] if key else []
    suggestion = table[close[0]] if close else None
    hint = f"; did you mean {suggestion}?" if suggestion else ""
    return CatalogError(f"unknown {kind} {name!r}{hint}", name=name, suggestion=suggestion)


def cost_data(cost: Cost) -> JsonObject:
    """The cost as JSON-ready data: ``{"coins": n, "resources": {resource: units}}``; a fresh dict."""
    return {"coins": cost.coins, "resources": dict(cost.resources)}


def card_data(card: Card) -> JsonObject:
    """One card design as JSON-ready data (what ``wnotation cards --json`` prints); a fresh dict.

    ``copies_by_players`` maps "3".."7" to the copies in that deck (all 0 for a guild: N+2 guilds are drawn).
    Each effect carries its wording from :func:`describe` under ``text``.
    """
    return {
        "key": card.key,
        "name": card.name,
        "age": card.age,
        "colour": card.colour,
        "guild": card.is_guild,
        "cost": cost_data(card.cost),
        "effects": [effect_data(e) | {"text": describe(e)} for e in card.effects],
        "copies": list(card.copies),
        "copies_by_players": {str(n): card.copies_for(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
        "chain_from": list(card.chain_from),
        "chain_to": list(card.chain_to),
    }


def wonder_data(side: WonderSide) -> JsonObject:
    """One Wonder side as JSON-ready data; a fresh dict."""
    return {
        "name": side.name,
        "side": side.side,
        "full_name": side.full_name,
        "resource": side.resource,
        "stages": [
            {
                "stage": s.index,
                "cost": cost_data(s.cost),
                "effects": [effect_data(e) | {"text": describe(e)} for e in s.effects],
            }
            for s in side.stages
        ],
    }


@cache
def load() -> Catalog:
    """The catalogue, read once from the package data and shared (it is immutable)."""
    text = resources.files("wnotation").joinpath("data/catalog.json").read_text(encoding="utf-8")
    return Catalog(json.loads(text))


def card(name: str, age: int | None = None) -> Card:
    return load().card(name, age)


def wonder(name: str, side: str) -> WonderSide:
    return load().wonder(name, side)
