"""A small built-in bot that plays complete legal games from a seed and returns them as Records.

The games feed tests, benchmarks and ``wnotation generate``; the bots are ``random``, ``uniform``, a one-ply
``greedy`` heuristic, and ``search`` (Monte-Carlo over greedy playouts, :mod:`.search`), stronger and slower. All
randomness is SplitMix64 (``deck``; which generator each draw comes from: spec/deal.md, section 10), never
Python's :mod:`random`, so a seed gives the same game on every platform.
"""

from __future__ import annotations

from typing import Final, Literal, Sequence

from ..model import deck, record
from ..model.record import NO_ANNOTATION, make, new_action, new_turn
from ..model.catalog import Card, WonderSide, load
from .legal import LegalAction, Play, as_move, price
from .policy import POLICIES, Policy
from .search import PLAYOUTS, SearchPolicy
from .rules import Play as Move
from .rules import deal_events, end_age, picks_owed, play_picks, play_turn, seats_to_act
from .scoring import CityView, score
from .state import Game, Table, initial

BOTS = ("random", "greedy", "uniform", "search")
#: Seat names of generated games, seat 1 first.
NAMES = ("Ada", "Bob", "Cyd", "Dee", "Eve", "Fox", "Gus")
#: The Wonders and sides come from a second SM64 generator seeded with ``seed ^ WONDER_SALT`` ("WONDERS" in ASCII).
WONDER_SALT = 0x574F4E44455253


def draw_wonders(players: int, seed: int) -> tuple[WonderSide, ...]:
    """The Wonder sides of a generated game: the 7 Wonders in catalogue order shuffled (SM64-FY) by the generator
    seeded with ``seed ^ WONDER_SALT``, seat k taking the k-th; then one ``below(2)`` per seat (0 day, 1 night)."""
    catalog = load()
    rng = deck.SplitMix64(seed ^ WONDER_SALT)
    names = list(dict.fromkeys(w.name for w in catalog.wonders))
    chosen = deck.shuffle(names, rng)[:players]
    return tuple(catalog.wonder(name, ("day", "night")[rng.below(2)]) for name in chosen)


def _side(wonder: WonderSide) -> Literal["day", "night"]:
    """The side as the Record types it (the catalogue knows only these two)."""
    return "night" if wonder.side == "night" else "day"


def _stated(game: Game, a: LegalAction) -> bool:
    """Whether the canonical record states ``a``'s purchase (R-TRADE-MINIMAL): when it is not the default, or when
    several cheapest purchases exist, so that a reader never depends on the tie-break. Cost: one memoised trade
    question, for a paid default only."""
    if a.free or not a.default:
        return not a.free
    if not a.purchase.units:
        return False  # own production covers it: the only cheapest purchase buys nothing
    return len(price(game, Play(a.seat, a.use, a.card))) > 1


def _action(play: Move, a: LegalAction, discard: Card | None, stated: bool) -> record.Action:
    """The Record's action of ``a`` played as ``play``, built unvalidated (:func:`~wnotation.model.record.make`, as
    the reader builds its own): the engine made every value itself, and ``tests/test_bot.py`` holds a bot's Record
    equal to the one its pydantic twin validates."""
    purchase = None
    if stated:
        # the Record keeps each side's units sorted by name
        purchase = make(record.StatedPurchase, {"left": tuple(sorted(a.purchase.left)),
                                                "right": tuple(sorted(a.purchase.right))})
    return new_action(play.seat, a.use, a.card.name, purchase, discard.name if discard is not None else None, None,
                      NO_ANNOTATION, None)


#: The score sheet's fields a bot's Record states for each seat, and those it leaves out (the expansions').
_STATED_RESULTS: Final = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total",
                          "coins", "rank")
_UNSTATED_RESULTS: Final = ("cities", "leaders", "armada", "edifice", "tablets", "compasses", "gears", "span")


def policy_of(bot: str, playouts: int = PLAYOUTS) -> Policy:
    """The policy of bot ``bot`` (one of :data:`BOTS`), ``search`` with ``playouts`` playouts per candidate play.
    Raises ``ValueError`` for an unknown bot."""
    if bot not in BOTS:
        raise ValueError(f"unknown bot {bot!r}: expected one of {', '.join(BOTS)}")
    return SearchPolicy(playouts) if bot == "search" else POLICIES[bot]


def play_game(players: int, seed: int, bot: str = "random",
              wonders: Sequence[WonderSide | tuple[str, str]] | None = None, *,
              seats: Sequence[str] | None = None, playouts: int = PLAYOUTS) -> record.Record:
    """A complete legal game of ``players`` seats dealt by ``deck.deal(players, seed)``, played by ``bot``, or seat
    by seat by the bots ``seats`` names (seat 1 first; the Event tag then lists them). ``playouts``: the ``search``
    bot's playouts per candidate play.

    ``wonders`` (Wonder sides in seat order, or ``("Gizah", "night")`` pairs) default to :func:`draw_wonders`.
    The Record holds the seed, the guilds, every action (a purchase only where the canonical form states one,
    R-TRADE-MINIMAL), Babylon's extra turns, Halikarnassos' picks, and the results from the final score sheet. Raises
    ``ValueError`` for an unknown bot, a player count outside 3..7 or a Wonder given twice. Deterministic in its
    arguments.
    """
    names = tuple(seats) if seats is not None else (bot,) * players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots for {players} seats")
    made = {name: policy_of(name, playouts) for name in dict.fromkeys(names)}
    policies = [made[name] for name in names]
    deck.check_players(players)
    dealt = deck.deal(players, seed)
    if wonders is None:
        sides = draw_wonders(players, seed)
    else:
        sides = tuple(w if isinstance(w, WonderSide) else load().wonder(*w) for w in wonders)
    if len(sides) != players:
        raise ValueError(f"{len(sides)} Wonders for {players} seats")
    if len({w.name for w in sides}) != players:
        raise ValueError("two seats play the same Wonder (R-BOARD)")
    table = Table(NAMES[:players], sides, dealt.guilds)
    rng = deck.SplitMix64(seed)
    game = Game(initial(table))
    turns: list[record.Turn] = []
    for age in (1, 2, 3):
        for e in deal_events(age, dealt.hands[age - 1]):
            game.apply(e)
        sixth: dict[int, record.Action] = {}
        while seats_to_act(game):
            turn = game.turn + 1
            plays: list[Move] = []
            actions: dict[int, record.Action] = {}
            for seat in seats_to_act(game):
                a = policies[seat - 1].choose(game, seat, rng)
                play = as_move(game, a)
                discard = play.discard[0] if play.discard else None
                plays.append(play)
                actions[seat] = _action(play, a, discard, _stated(game, a))
            _, findings = play_turn(game, plays)
            assert not findings, findings
            if turn < 6:
                _picks(game, actions, policies, rng)
            if turn == 6:
                sixth = actions
            turns.append(new_turn(age, turn, tuple(actions[s] for s in sorted(actions)), NO_ANNOTATION, (), None))
        if picks_owed(game):
            _picks(game, sixth, policies, rng)
            k = next(i for i in range(len(turns) - 1, -1, -1) if turns[i].number == 6)
            turns[k] = new_turn(age, 6, tuple(sixth[s] for s in sorted(sixth)), NO_ANNOTATION, (), None)
        for e in end_age(game):
            game.apply(e)
    sheet = score([CityView(c.buildings, c.wonder, c.stages, c.coins, c.tokens) for c in game.cities])
    event = f"wnotation bot game ({bot if seats is None else ', '.join(names)})"
    # Built unvalidated, as the reader builds its Records (every value is the engine's own; tests/test_bot.py holds
    # the Record equal to the one the pydantic twin validates): the fields in the Record's order, so that JSON
    # writes its members as for a Record validated in code.
    unstated = dict.fromkeys(_UNSTATED_RESULTS)
    return make(record.Record, {
        "format": record.FORMAT_VERSION,
        "edition": record.EDITION,
        "date": None,
        "expansions": (),
        "seats": tuple(make(record.Seat, {"name": table.names[k], "wonder": w.name, "side": _side(w), "span": None})
                       for k, w in enumerate(sides)),
        "tags": (make(record.Tag, {"name": "Event", "value": event, "span": None}),),
        "guilds": tuple(g.name for g in dealt.guilds),
        "seed": make(record.Seed, {"algorithm": deck.SHUFFLE_ALGORITHM, "value": seed}),
        "deals": (),
        "turns": tuple(turns),
        "results": tuple(make(record.SeatResult, {"seat": ln.seat, **{f: getattr(ln, f) for f in _STATED_RESULTS},
                                                  **unstated}) for ln in sheet.lines),
        "annotation": NO_ANNOTATION,
        "span": None,
        "start": None,
    })


def _picks(game: Game, actions: dict[int, record.Action], policies: Sequence[Policy], rng: deck.SplitMix64) -> None:
    """Choose and resolve the builds from the discard pile owed in ``game``; note them in ``actions``."""
    choices: dict[int, tuple[str | None, ...]] = {}
    for seat in picks_owed(game):
        card = policies[seat - 1].pick(game, seat, rng)
        name = card.name if card is not None else None
        choices[seat] = (name,)
        a = actions[seat]
        actions[seat] = new_action(a.seat, a.use, a.card, a.purchase, a.discard,
                                   make(record.Pick, {"card": name, "annotation": NO_ANNOTATION, "span": None}),
                                   NO_ANNOTATION, None)
    _, findings = play_picks(game, choices, game.address)
    assert not findings, findings
