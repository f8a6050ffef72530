"""The rule registry: every rule ID the engine enforces, with its title, a summary and where it is stated.

The IDs are those of the rules reference the engine implements (2nd edition base game, 3-7 players), in its order;
``spec/rulings.md`` publishes the same list as its rule index (a test holds the two equal, titles included) and
states each *ruling* (a point the official text leaves open) in a section of its own. Every finding the engine
makes carries one of these IDs, and ``wnotation rules ID`` explains one. R-SCORE-EXP, the reference's rule for the
expansions' score rows, is checked on score-pad records only (engine/scorepad.py).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..errors import WnotationError

__all__ = ["CHEAPEST_PURCHASE", "DEAL", "GUILD_COUNT", "RULES", "SCORE_SHEET", "WILD_SCIENCE", "Rule", "UnknownRule",
           "ids", "lookup"]

#: The chapters of the rules reference, each rule's ``section``.
SETUP = "Table and setup"
TURN = "A turn (six per Age)"
PAYING = "Paying: production, trade, chains"
POWERS = "Wonder powers (special cases)"
AGE_END = "End of an Age"
SCORING = "Scoring (seven categories)"
EXPANSION_ROWS = "Expansion score categories (final score sheets only)"


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: ``id`` (``R-TRADE``), ``title`` (the line of spec/rulings.md's index), ``summary`` (what the rule
    says, in a few sentences), ``section`` (its chapter of the rules reference), ``ruling`` (the heading of its
    section in spec/rulings.md when it is a ruling stated there, else ``None``), ``is_ruling`` (the project's
    choice where the official text is open) and ``breakable`` (a record can break it; ``False`` for rules that
    decide values only, such as scoring)."""

    id: str
    title: str
    summary: str
    section: str
    is_ruling: bool = False
    ruling: str | None = None
    breakable: bool = True


RULES: tuple[Rule, ...] = (
    Rule("R-SEAT", "seats clockwise; left = seat i+1, right = seat i-1",
         "Seats are numbered 1..N clockwise. The left neighbour of seat i is seat i+1 (mod N), the right neighbour "
         "seat i-1 (mod N): passing left is passing clockwise.", SETUP),
    Rule("R-DECK", "Age decks by player count; N+2 guilds; 7 cards a seat",
         "Each Age deck holds every card copy whose printed minimum player count is at most N; Age III takes N+2 "
         "of the 10 guilds, drawn at random. Each deck holds 7N cards and every seat is dealt 7.", SETUP),
    Rule("R-BOARD", "one Wonder per seat; Day or Night, mixed at a table",
         "Each seat plays one Wonder board on its Day or Night side (sides may be mixed at a table); no two seats "
         "share a Wonder.", SETUP),
    Rule("R-START", "3 coins each; unlimited bank",
         "Every seat starts with 3 coins; the bank is unlimited.", SETUP, breakable=False),
    Rule("R-TURN", "one card a turn: build, stage or sell",
         "All seats choose a card from their hand and reveal together; each card is built as a Building (paying "
         "its cost), used for the next Wonder stage (paying the stage's cost) or sold for 3 coins.", TURN),
    Rule("R-UNIQUE", "never two Buildings of one name in a city",
         "A city never holds two Buildings of the same name, however the second would be built (paid, chained or "
         "free through a Wonder power).", TURN),
    Rule("R-STAGE", "stages left to right, at most once; a staged card is no Building",
         "Wonder stages are built strictly left to right, each at most once; completing the Wonder is optional. A "
         "card used for a stage has no effect, is never counted and does not go to the discard pile.", TURN),
    Rule("R-SELL", "selling is always legal: 3 coins",
         "Selling a card (discarding it face down for 3 coins from the bank) is always legal.", TURN,
         breakable=False),
    Rule("R-PASS", "hands pass left in Ages I and III, right in Age II",
         "After each turn the remaining hands pass to the left in Ages I and III and to the right in Age II, so a "
         "seat plays only cards of the hand it holds.", TURN),
    Rule("R-LAST", "turn 6: the other card is discarded without reward",
         "On turn 6 each seat holds two cards: it uses one and the other is discarded without reward (no sale, no "
         "coins), unless a Wonder power says otherwise (R-BABYLON-N1).", TURN),
    Rule("R-RESOLVE", "place against the turn-start state, then apply effects",
         "A turn resolves in two steps: every seat's card is placed against the state at the start of the turn, "
         "then all effects and incomes apply.", TURN),
    Rule("R-COINS-TURNSTART", "costs paid from turn-start coins",
         "Every cost and purchase is paid from the coins held at the start of the turn; coins received during the "
         "turn (sales, trade, incomes) can be spent from the next turn on.", TURN),
    Rule("R-COUNT-SAMETURN", "counting income sees the whole turn's placements",
         "Income that counts cards or stages when a card is built (Vineyard, Bazaar, Haven, Lighthouse, Chamber of "
         "Commerce, Arena, Ludus) counts everything in place once all of the turn's cards are placed, neighbours' "
         "Buildings of the same turn and the card itself included; a card Halikarnassos takes from the discard "
         "pile at the end of the turn is placed after the incomes.", TURN, is_ruling=True,
         ruling="R-COUNT-SAMETURN: what counting income sees", breakable=False),
    Rule("R-PRODUCE", "own production reusable; either/or one unit; doubles two",
         "A city's production (starting resource, brown and grey cards, Forum, Caravansery, Alexandria's stages) "
         "is reusable every turn: each symbol supplies one unit, a double card two, an either/or card one of its "
         "options, chosen anew each time.", PAYING),
    Rule("R-TRADE", "buy from the two neighbours' brown, grey and starting resource only",
         "A seat may buy missing resources from its two neighbours only, and only their starting resource and the "
         "production of their brown and grey cards, each unit once per payment; a neighbour cannot refuse, and a "
         "Building it placed this same turn cannot be bought from.", PAYING),
    Rule("R-PRICE", "2 coins a unit; trading posts and Marketplace 1",
         "Each bought unit costs 2 coins, paid to that neighbour; East and West Trading Post make raw materials "
         "from the right or left neighbour cost 1, Marketplace makes manufactured goods from both cost 1.", PAYING),
    Rule("R-TRADE-MINIMAL", "no droppable bought unit; default purchase",
         "A purchase must be needed: no bought unit may be dropped while the cost is still covered. A record may "
         "state its purchase; when it does not, the engine takes the cheapest one, ties broken by the rule the spec "
         "states, and the canonical form writes a purchase only where it is not that default.", PAYING,
         is_ruling=True, ruling="R-TRADE-MINIMAL: which purchases are legal, and which one a record without a "
         "purchase means"),
    Rule("R-COST-COINS", "coin cost plus trade within turn-start coins",
         "Coin costs on cards go to the bank; a seat never pays more than the coins it held at the start of the "
         "turn, trade and coin cost together.", PAYING),
    Rule("R-CHAIN", "free through an earlier chain source; not for stages; R-UNIQUE holds",
         "From Age II on, a Building showing a card's chain symbol, built on an earlier turn, lets that card be "
         "built for free. A chain never applies to a Wonder stage and never lifts R-UNIQUE.", PAYING),
    Rule("R-OLYMPIA-D2", "first Building of each colour free",
         "Olympia Day, stage 2: from then on, a Building of a colour the city does not hold yet is built for free, "
         "in any Age (Buildings only, not stages).", POWERS),
    Rule("R-OLYMPIA-N1", "turn 1 of each later Age free",
         "Olympia Night, stage 1: the card used on turn 1 of each later Age may be built for free; used for a stage "
         "or sold, the free build is lost for that Age.", POWERS),
    Rule("R-OLYMPIA-N2", "turn 6 free once the stage stands",
         "Olympia Night, stage 2: the card used on turn 6 of each Age (not the discarded one) may be built for "
         "free, from the Age in which the stage was built before that turn 6.", POWERS),
    Rule("R-FREE", "a free build needs no purchase; a stated one is an R-TRADE-MINIMAL error, nothing paid",
         "Every free build (R-CHAIN, R-OLYMPIA-D2, -N1, -N2) applies to one specific build and is not saved by "
         "paying; a purchase stated on a free build is never needed and breaks R-TRADE-MINIMAL.", POWERS,
         is_ruling=True, ruling="R-FREE: a purchase stated on a free build"),
    Rule("R-BABYLON-N1", "keep the 7th card, extra turn after turn 6",
         "Babylon Night, stage 1: from the Age in which the stage is built, the seat may keep its last card at the "
         "end of each Age and play it in an extra turn after every other seat's turn 6 (build, stage or sell, "
         "under the normal rules); a seat that declines discards it as everyone does.", POWERS, is_ruling=True,
         ruling="R-BABYLON-N1: Babylon Night's extra turn, in detail"),
    Rule("R-HALI", "build from the discard pile at the end of the stage's turn",
         "Halikarnassos (Day stage 2, each Night stage): at the end of the turn the stage is built, the seat may "
         "build one card of the discard pile for free (R-UNIQUE holds); it may decline, and an empty pile gives "
         "nothing.", POWERS),
    Rule("R-HALI-UNKNOWN", "a named pick among hidden cards must be a copy that can be there",
         "When a record hides cards of the pile, a named pick is legal only if a copy of that card is in this "
         "game's decks for an Age played so far and not every such copy is known to be elsewhere; otherwise the "
         "pick is refused (R-HALI) and taken as declined.", POWERS, is_ruling=True,
         ruling="R-HALI-UNKNOWN: what a pile with hidden cards can hold"),
    Rule("R-HALI-LAST", "turn-6 pile includes last cards and Babylon's sale",
         "When the stage is built on turn 6, the pile already holds the Age's discarded last cards (and a last card "
         "Babylon sold in its extra turn). End of an Age: turn 6, last cards discarded, Babylon's extra turn, "
         "Halikarnassos' pick, military.", POWERS, is_ruling=True,
         ruling="R-HALI-LAST: Halikarnassos on the last turn of an Age, and the end-of-Age order"),
    Rule("R-SCIENCE-ANY", "'any' symbols take the best value",
         "A 'science: any' symbol (Babylon's stage, Scientists Guild) is assigned at the end of the game to the "
         "symbol that maximises its owner's science score.", POWERS, breakable=False),
    Rule("R-MILITARY", "1/3/5 per victory, -1 per defeat, neighbours only",
         "At the end of each Age every seat compares its shields with each neighbour: more gives a victory token "
         "of 1, 3 or 5 points (Age I, II, III), fewer a defeat token of -1, equal nothing; so a seat's military "
         "points lie in -6..18, which a score-pad record is checked against.", AGE_END),
    Rule("R-SCORE", "seven categories; stated results verified",
         "Each seat scores military, treasury (coins / 3, rounded down), wonder, civilian, commercial, guilds and "
         "science (each symbol count squared, plus 7 per set of three); results a record states are verified.",
         SCORING),
    Rule("R-GUILD-COUNT", "guilds count neighbours unless the text says otherwise",
         "Guilds count the neighbours' cities unless their text says otherwise: Builders counts stages in all "
         "three cities, Shipowners the owner's brown, grey and purple cards, Decorators needs every stage of the "
         "owner's board.", SCORING),
    Rule("R-WIN", "highest total; coins break ties; else shared",
         "The highest total wins; a tie is broken by most coins; seats still tied share the victory. A score-pad "
         "record's ranks are checked against its totals and coins.", SCORING),
    Rule("R-SCORE-EXP", "expansion rows: Cities, Leaders, Armada, Edifice (score pads only)",
         "A game played with expansions adds one row per expansion to the score sheet, counted into the total: "
         "Cities (City cards less one point per Debt token, a -5 token counting five), Leaders, Armada, Edifice "
         "(Participation pawns less Edifice debts; may be negative). Only score-pad records name expansions "
         "([Expansions]); a row of an expansion not named is refused, and so is a record with turns that names "
         "expansions.", EXPANSION_ROWS),
)

_BY_ID = {rule.id: rule for rule in RULES}

#: The rule each piece of the engine's work follows, for code outside the engine that labels what it exercises
#: by rule (the conformance vectors): the deal and the decks (R-DECK), the score sheet (R-SCORE), a wild science
#: symbol (R-SCIENCE-ANY), a guild's count of cards (R-GUILD-COUNT), the cheapest purchase (R-TRADE-MINIMAL).
DEAL = "R-DECK"
SCORE_SHEET = "R-SCORE"
WILD_SCIENCE = "R-SCIENCE-ANY"
GUILD_COUNT = "R-GUILD-COUNT"
CHEAPEST_PURCHASE = "R-TRADE-MINIMAL"


class UnknownRule(WnotationError, KeyError):
    """No rule has this ID; ``suggestion`` is the nearest ID, if any is near."""

    def __init__(self, text: str, suggestion: str | None) -> None:
        super().__init__(text)
        self.text, self.suggestion = text, suggestion

    def __str__(self) -> str:
        hint = f"; did you mean {self.suggestion}?" if self.suggestion else " (wnotation rules lists them)"
        return f"no rule {self.text!r}{hint}"


def ids() -> tuple[str, ...]:
    """Every rule ID, in the reference's order."""
    return tuple(_BY_ID)


def lookup(text: str) -> Rule:
    """The rule named ``text``: its ID in any case, with or without the ``R-`` (``r-trade``, ``TRADE``).
    Raises :class:`UnknownRule`."""
    key = "-".join(text.strip().upper().replace("_", "-").split())
    key = key if key.startswith("R-") else f"R-{key}"
    if key in _BY_ID:
        return _BY_ID[key]
    near = difflib.get_close_matches(key, list(_BY_ID), n=1, cutoff=0.8)
    raise UnknownRule(text, near[0] if near else None)
