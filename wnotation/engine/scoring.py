"""The end-of-game score sheet (R-SCORE, R-SCIENCE-ANY, R-GUILD-COUNT, R-WIN): seven categories per seat, a total
and the ranking. One pure function per category, reading card and stage effects, never card names. It does not
resolve military conflicts (the tokens are given) nor decide when the game ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from wnotation.model.catalog import (
    SCIENCE_SYMBOLS, Card, CityRef, Effect, Points, PointsIfWonderComplete, PointsPer, Science, WonderSide,
)
from wnotation.model.vocabulary import left_of, right_of

from .memo import Memo, memo

CATEGORIES = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science")
#: The rows of the expansions a score-pad record may name (R-SCORE-EXP), below the base rows, in the pad's order.
EXPANSION_CATEGORIES = ("cities", "leaders", "armada", "edifice")


@dataclass(frozen=True, slots=True)
class CityView:
    """What scoring needs to know of one city at the end of the game."""

    cards: tuple[Card, ...]  # the Buildings in the city, guilds included (cards used for stages are not here)
    wonder: WonderSide
    stages: int  # stages built, left to right (R-STAGE)
    coins: int
    tokens: tuple[int, ...]  # military tokens: +1/+3/+5 victories, -1 defeats (R-MILITARY)

    def built_stage_effects(self) -> tuple[Effect, ...]:
        return tuple(e for stage in self.wonder.stages[: self.stages] for e in stage.effects)

    def count(self, counts: tuple[str, ...]) -> int:
        """How many of the things a counting effect names this city holds: cards of those colours, or stages."""
        n = sum(1 for c in self.cards if c.colour in counts)
        return n + self.stages if "wonder_stage" in counts else n


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One seat's row of the score sheet; ``rank`` 1 is a winner and shared places share a rank (1, 1, 3).

    The expansion rows (``cities`` … ``edifice``) are ``None`` unless the game was played with that expansion (a
    score-pad record, R-SCORE-EXP); ``coins`` is ``None`` on a score pad that states only the treasury row."""

    seat: int  # 1-based
    military: int
    treasury: int
    wonder: int
    civilian: int
    commercial: int
    guilds: int
    science: int
    total: int
    coins: int | None
    rank: int
    cities: int | None = None
    leaders: int | None = None
    armada: int | None = None
    edifice: int | None = None

    @property
    def categories(self) -> tuple[tuple[str, int], ...]:
        """The categories as (name, points) pairs in the score pad's order: the seven of R-SCORE, then the rows of
        the expansions played (R-SCORE-EXP)."""
        base = tuple((name, getattr(self, name)) for name in CATEGORIES)
        return base + tuple((name, v) for name in EXPANSION_CATEGORIES if (v := getattr(self, name)) is not None)


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The score sheet: one line per seat. ``provisional`` is true for a sheet taken before the game is over, as if
    it ended there (:meth:`wnotation.engine.Replay.score_at`); the sheet of a finished game is never provisional."""

    lines: tuple[ScoreLine, ...]  # in seat order
    provisional: bool = False
    expansions: tuple[str, ...] = ()  # the expansion rows the sheet has (EXPANSION_CATEGORIES), in the pad's order

    @property
    def rows(self) -> tuple[str, ...]:
        """The sheet's rows of points, top to bottom: the seven base categories, then its expansion rows."""
        return CATEGORIES + self.expansions

    def winners(self) -> tuple[int, ...]:
        """The seats ranked first: one, or several when the victory is shared (R-WIN)."""
        return tuple(line.seat for line in self.lines if line.rank == 1)

    def line(self, seat: int) -> ScoreLine:
        return self.lines[seat - 1]

    def __str__(self) -> str:
        head = ("seat",) + tuple(name[:5] for name in self.rows) + ("total", "coins", "rank")
        rows = [head] + [
            (str(ln.seat),) + tuple(str(v) for _, v in ln.categories) + (str(ln.total), str(ln.coins), str(ln.rank))
            for ln in self.lines
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        return "\n".join("  ".join(cell.rjust(w) for cell, w in zip(row, widths)) for row in rows)


# --- what scoring reads of a card --------------------------------------------------------------------------------

#: A counting effect as the sheet reads it: (points each, the cities counted, the colours counted, each once,
#: whether built stages count too).
Counting = tuple[int, tuple[CityRef, ...], tuple[str, ...], bool]


def _counting(effect: PointsPer) -> Counting:
    colours = tuple(dict.fromkeys(c for c in effect.counts if c != "wonder_stage"))
    return effect.each, effect.cities, colours, "wonder_stage" in effect.counts


class CardPoints:
    """What the categories read of one card design, gathered once from its effects (see :func:`points_of`):
    printed points, counting effects (``per``; ``counting``, the same as the sheet reads them), a
    complete-Wonder bonus and science symbols, with the card's colour."""

    __slots__ = ("card", "colour", "points", "per", "counting", "wonder_complete", "science")

    def __init__(self, card: Card) -> None:
        self.card: Final = card
        self.colour: Final = card.colour
        self.points: Final = sum(e.amount for e in card.effects if isinstance(e, Points))
        self.per: Final = tuple(e for e in card.effects if isinstance(e, PointsPer))
        self.counting: Final[tuple[Counting, ...]] = tuple(_counting(e) for e in self.per)
        self.wonder_complete: Final = sum(e.amount for e in card.effects if isinstance(e, PointsIfWonderComplete))
        self.science: Final = tuple(e.symbol for e in card.effects if isinstance(e, Science))


_POINTS: Final[Memo[int, CardPoints]] = memo("scoring: card facts by card identity", 4096)


def points_of(card: Card) -> CardPoints:
    """The :class:`CardPoints` of ``card``, memoised by identity (catalogue cards live as long as the process)."""
    found = _POINTS.get(id(card))
    if found is None or found.card is not card:
        found = _POINTS.put(id(card), CardPoints(card))
    return found


class StagePoints:
    """What the categories read of a Wonder side's first ``stages`` stages: their printed points and science
    symbols (see :func:`stages_of`)."""

    __slots__ = ("wonder", "stages", "points", "science")

    def __init__(self, wonder: WonderSide, stages: int) -> None:
        effects = tuple(e for stage in wonder.stages[:stages] for e in stage.effects)
        self.wonder: Final = wonder
        self.stages: Final = stages
        self.points: Final = sum(e.amount for e in effects if isinstance(e, Points))
        self.science: Final = tuple(e.symbol for e in effects if isinstance(e, Science))


_STAGES: Final[Memo[tuple[int, int], StagePoints]] = memo("scoring: built stages' facts by side identity", 1024)


def stages_of(wonder: WonderSide, stages: int) -> StagePoints:
    """The :class:`StagePoints` of ``wonder``'s first ``stages`` stages, memoised by the side's identity."""
    key = (id(wonder), stages)
    found = _STAGES.get(key)
    if found is None or found.wonder is not wonder:
        found = _STAGES.put(key, StagePoints(wonder, stages))
    return found


class Tally:
    """One city counted once for the sheet (see :func:`tally`): its Buildings by colour and its built stages (what
    every counting effect, its own or a neighbour's, reads), the blue cards' points, the counting effects of its
    yellow and purple cards, the purple cards' complete-Wonder bonus, and its science symbols (cards and stages)."""

    __slots__ = ("colours", "stages", "complete", "wonder", "civilian", "commercial", "guilds", "bonus", "symbols")

    def __init__(self, city: CityView) -> None:
        colours: dict[str, int] = {}
        civilian = bonus = 0
        commercial: list[Counting] = []
        guilds: list[Counting] = []
        symbols: dict[str, int] = {}
        found = _POINTS
        for card in city.cards:
            f = found.get(id(card))
            if f is None or f.card is not card:
                f = points_of(card)
            colour = f.colour
            colours[colour] = colours.get(colour, 0) + 1
            if colour == "blue":
                civilian += f.points
            elif colour == "yellow":
                commercial += f.counting
            elif colour == "purple":
                guilds += f.counting
                bonus += f.wonder_complete
            for symbol in f.science:
                symbols[symbol] = symbols.get(symbol, 0) + 1
        built = stages_of(city.wonder, city.stages)
        for symbol in built.science:
            symbols[symbol] = symbols.get(symbol, 0) + 1
        self.colours: Final = colours
        self.stages: Final = city.stages
        self.complete: Final = city.stages >= len(city.wonder.stages)
        self.wonder: Final = built.points
        self.civilian: Final = civilian
        self.commercial: Final = tuple(commercial)
        self.guilds: Final = tuple(guilds)
        self.bonus: Final = bonus
        self.symbols: Final = symbols

    def count(self, colours: tuple[str, ...], staged: bool) -> int:
        """How many Buildings of ``colours`` (each named once) the city holds, and its stages if ``staged``."""
        n = self.stages if staged else 0
        for colour in colours:
            n += self.colours.get(colour, 0)
        return n


def tally(city: CityView) -> Tally:
    """``city`` counted once for the sheet: one pass over its cards, its built stages' facts memoised."""
    return Tally(city)


# --- categories ----------------------------------------------------------------------------------------------


def military_points(city: CityView) -> int:
    return sum(city.tokens)


def treasury_points(city: CityView) -> int:
    return city.coins // 3


def wonder_points(city: CityView) -> int:
    """Points printed on the built stages."""
    return stages_of(city.wonder, city.stages).points


def civilian_points(city: CityView) -> int:
    """Points printed on blue cards."""
    return tally(city).civilian


def _counted(effects: tuple[Counting, ...], own: Tally, left: Tally, right: Tally) -> int:
    """The points of counting effects held by the city ``own``, each counting the cities it names."""
    total = 0
    for each, cities, colours, staged in effects:
        n = 0
        for where in cities:
            n += (own if where == "self" else left if where == "left" else right).count(colours, staged)
        total += each * n
    return total


def commercial_points(city: CityView, left: CityView, right: CityView) -> int:
    """End-of-game points of yellow cards (Haven, Lighthouse, Chamber of Commerce, Arena, Ludus: own city)."""
    own = tally(city)
    return _counted(own.commercial, own, tally(left), tally(right))


def guild_points(city: CityView, left: CityView, right: CityView) -> int:
    """Points of purple cards, counting the cities each names (R-GUILD-COUNT); the Scientists Guild's symbol
    scores under science. A complete Wonder means every stage of the city's own side."""
    return _guilds(tally(city), tally(left), tally(right))


def science_points(tablets: int, compasses: int, gears: int, wild: int = 0) -> int:
    """Squares of each symbol count plus 7 per complete set, with ``wild`` "any" symbols placed to give the most
    (R-SCIENCE-ANY). Tries every split of the wildcards: O(wild²), and wild is at most 2 in the base game."""
    best = 0
    for t in range(wild + 1):
        for c in range(wild - t + 1):
            a, b, g = tablets + t, compasses + c, gears + wild - t - c
            best = max(best, a * a + b * b + g * g + 7 * min(a, b, g))
    return best


def science_score(city: CityView) -> int:
    """The science category: symbols of the city's cards (guilds included) and of its built stages."""
    return _science(tally(city))


def _guilds(own: Tally, left: Tally, right: Tally) -> int:
    total = _counted(own.guilds, own, left, right)
    return total + own.bonus if own.complete else total


def _science(own: Tally) -> int:
    symbols = own.symbols
    if not symbols:
        return 0
    tablet, compass, gear = SCIENCE_SYMBOLS
    return science_points(symbols.get(tablet, 0), symbols.get(compass, 0), symbols.get(gear, 0),
                          symbols.get("any", 0))


# --- the sheet -----------------------------------------------------------------------------------------------


def score(cities: Sequence[CityView], provisional: bool = False) -> ScoreSheet:
    """The score sheet of a finished game, or of a position as if the game ended there (``provisional``: military
    tokens won so far, coins held, stages built, Buildings, guilds and science on what exists); ``cities[i - 1]``
    is seat ``i``.

    The left neighbour of seat *i* is seat *i+1* and the right neighbour seat *i−1*, mod N (R-SEAT). Ranked by
    total, then coins; seats still tied share the place and the next rank is skipped (R-WIN).
    """
    n = len(cities)
    if n < 2:
        raise ValueError(f"{n} cities: a table has at least two neighbours")
    tallies = [Tally(city) for city in cities]
    rows = []
    for i, city in enumerate(cities):
        own, left, right = tallies[i], tallies[left_of(i + 1, n) - 1], tallies[right_of(i + 1, n) - 1]
        parts = (
            sum(city.tokens),
            city.coins // 3,
            own.wonder,
            own.civilian,
            _counted(own.commercial, own, left, right),
            _guilds(own, left, right),
            _science(own),
        )
        rows.append((i + 1, parts, sum(parts), city.coins))
    lines = tuple(
        ScoreLine(seat, parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], total, coins,
                  1 + sum(1 for _, _, t, c in rows if (t, c) > (total, coins)))
        for seat, parts, total, coins in rows
    )
    return ScoreSheet(lines, provisional)
