"""The score sheet (wnotation.engine.scoring): each category, every counting card, and hand-worked sheets."""

from __future__ import annotations

import pytest

from wnotation.model import catalog, record
from wnotation.engine.scoring import (
    CATEGORIES,
    CityView,
    ScoreLine,
    civilian_points,
    commercial_points,
    guild_points,
    science_points,
    science_score,
    score,
    wonder_points,
)


def city(*names: str, wonder=("Gizah", "day"), stages=0, coins=0, tokens=()) -> CityView:
    """A city from printed names; ``"II:Glassworks"`` picks the Age when it matters (it never does here)."""
    cards = tuple(catalog.card(n.split(":")[1], ("I", "II", "III").index(n.split(":")[0]) + 1) if ":" in n
                  else catalog.card(n) for n in names)
    return CityView(cards, catalog.wonder(*wonder), stages, coins, tuple(tokens))


EMPTY = city()


def test_categories_match_the_record():
    assert CATEGORIES == record.CATEGORIES


# --- science (R-SCORE, R-SCIENCE-ANY) ------------------------------------------------------------------------


def test_worked_science_example_R_SCORE():
    assert science_points(3, 2, 1, 0) == 9 + 4 + 1 + 7 == 21
    # one "any": as a gear 9+4+4+2·7 = 31, better than as a tablet (16+4+1+7 = 28)
    assert science_points(3, 2, 1, 1) == 31


def test_two_wildcards_R_SCIENCE_ANY():
    # 3 tablets, 1 compass, 1 gear + 2 any: both as tablets 25+1+1+7 = 34 beats compass+gear 9+4+4+14 = 31
    assert science_points(3, 1, 1, 2) == 34
    # 1 tablet, 1 compass + 2 any: 4+1+1+7 = 13 (tablet+gear) ties 1+1+4+7 = 13 (two gears)
    assert science_points(1, 1, 0, 2) == 13
    assert science_points(0, 0, 0, 2) == 4
    assert science_points(0, 0, 0, 0) == 0


def test_science_from_cards_guild_and_stage_R_SCIENCE_ANY():
    # Babylon day stage 2 and the Scientists Guild are the two wildcards; the guild scores under science
    c = city("Scriptorium", "Apothecary", "Workshop", "Scientists Guild", wonder=("Babylon", "day"), stages=2)
    # 1 tablet, 1 compass, 1 gear + 2 any: both as tablets 9+1+1+7 = 18 beats spreading them (2,2,1: 16)
    assert science_score(c) == science_points(1, 1, 1, 2) == 18
    assert guild_points(c, EMPTY, EMPTY) == 0
    # a stage not yet built gives no symbol
    assert science_score(city("Scriptorium", wonder=("Babylon", "day"), stages=1)) == 1


# --- wonder and civilian -------------------------------------------------------------------------------------


def test_wonder_points_of_built_stages_only_R_SCORE():
    assert wonder_points(city(wonder=("Ephesos", "night"), stages=3)) == 2 + 3 + 5
    assert wonder_points(city(wonder=("Ephesos", "night"), stages=1)) == 2
    assert wonder_points(city(wonder=("Rhodos", "night"), stages=2)) == 3 + 4
    assert wonder_points(city(wonder=("Babylon", "night"), stages=2)) == 0
    assert wonder_points(city(wonder=("Gizah", "night"), stages=4)) == 3 + 5 + 5 + 7


def test_civilian_points_blue_only_R_SCORE():
    assert civilian_points(city("Altar", "Aqueduct", "Palace", "Tavern", "Stockade")) == 3 + 5 + 8


# --- commercial (yellow cards count the owner's city) --------------------------------------------------------

RICH = city("Lumber Yard", "Stone Pit", "Clay Pool", "Glassworks", "Press", "Stockade", "Walls", "Tavern",
            "Marketplace", wonder=("Rhodos", "day"), stages=3)


@pytest.mark.parametrize(
    ("card", "points"),
    [
        ("Haven", 2),  # 1 per own brown: Lumber Yard, Ore Vein
        ("Lighthouse", 1),  # 1 per own yellow: itself
        ("Chamber of Commerce", 2),  # 2 per own grey: Press
        ("Arena", 2),  # 1 per own stage: 2
        ("Ludus", 1),  # 1 per own red: Stockade
        ("Vineyard", 0),  # coins only, when built
        ("Bazaar", 0),
        ("Tavern", 0),
        ("Forum", 0),
    ],
)
def test_each_counting_yellow_card_R_SCORE(card, points):
    own = city("Lumber Yard", "Ore Vein", "Press", "Stockade", card, wonder=("Gizah", "day"), stages=2)
    # neighbours full of counted things change nothing: these cards count the owner's city
    assert commercial_points(own, RICH, RICH) == points
    assert guild_points(own, RICH, RICH) == 0


def test_yellow_cards_together_R_SCORE():
    own = city("Lumber Yard", "Ore Vein", "Press", "Stockade", "Haven", "Lighthouse", "Chamber of Commerce",
               "Arena", "Ludus", stages=2)
    # Haven 2 + Lighthouse 5 (five yellow) + Chamber 2 + Arena 2 + Ludus 1
    assert commercial_points(own, RICH, RICH) == 12


# --- guilds (R-GUILD-COUNT) ----------------------------------------------------------------------------------

LEFT = city("Lumber Yard", "Stone Pit", "Glassworks", "Tavern", "Apothecary", "Stockade", "Barracks", "Altar",
            wonder=("Rhodos", "day"), stages=1)
RIGHT = city("Clay Pool", "Press", "Loom", "Marketplace", "Forum", "Workshop", "Scriptorium", "Library", "Theater",
             "Baths", wonder=("Olympia", "day"), stages=2)


@pytest.mark.parametrize(
    ("guild", "points"),
    [
        ("Workers Guild", 2 + 1),  # brown: left 2, right 1
        ("Craftsmens Guild", 2 * (1 + 2)),  # grey: left 1, right 2, 2 each
        ("Traders Guild", 1 + 2),  # yellow: left Tavern; right Marketplace, Forum
        ("Philosophers Guild", 1 + 3),  # green
        ("Spies Guild", 2 + 0),  # red
        ("Magistrates Guild", 1 + 2),  # blue
        ("Shipowners Guild", 1 + 1 + 1),  # own brown Ore Vein, grey Glassworks, purple itself; not neighbours
        ("Scientists Guild", 0),  # scores under science
        ("Builders Guild", 3 + 1 + 2),  # stages: own 3, left 1, right 2
        ("Decorators Guild", 7),  # Gizah day, 3 of 3 stages
    ],
)
def test_every_guild_count_R_GUILD_COUNT(guild, points):
    own = city("Ore Vein", "Glassworks", guild, wonder=("Gizah", "day"), stages=3)
    assert guild_points(own, LEFT, RIGHT) == points
    assert commercial_points(own, LEFT, RIGHT) == 0


def test_shipowners_counts_other_guilds_too_R_GUILD_COUNT():
    own = city("Ore Vein", "Glassworks", "Shipowners Guild", "Workers Guild")
    assert guild_points(own, LEFT, RIGHT) == (1 + 1 + 2) + (2 + 1)


def test_guilds_count_left_and_right_by_seat_R_SEAT():
    # seat 1's left is seat 2 and its right is seat 3; Builders counts both, so swap a city to see it
    one = city("Builders Guild", stages=0)
    two, three = city(wonder=("Rhodos", "day"), stages=3), city(wonder=("Babylon", "day"), stages=1)
    assert score([one, two, three]).line(1).guilds == 4
    assert score([two, one, three]).line(2).guilds == 4


@pytest.mark.parametrize(
    ("wonder", "stages", "points"),
    [
        (("Rhodos", "night"), 1, 0),
        (("Rhodos", "night"), 2, 7),  # a Night side with 2 stages is complete at 2
        (("Gizah", "night"), 3, 0),  # Gizah Night has 4
        (("Gizah", "night"), 4, 7),
        (("Gizah", "day"), 3, 7),
    ],
)
def test_decorators_need_every_stage_of_own_side_R_GUILD_COUNT(wonder, stages, points):
    own = city("Decorators Guild", wonder=wonder, stages=stages)
    assert guild_points(own, RICH, RICH) == points


# --- ranking (R-WIN) -----------------------------------------------------------------------------------------


def test_tie_on_total_broken_by_coins_R_WIN():
    # seat 1: 1 + ⌊5/3⌋ = 2 points, 5 coins; seat 2: 2 + 0 = 2 points, 2 coins; seat 3: 0 points
    sheet = score([city(coins=5, tokens=(1,)), city(coins=2, tokens=(1, 1)), city()])
    assert [ln.total for ln in sheet.lines] == [2, 2, 0]
    assert [ln.rank for ln in sheet.lines] == [1, 2, 3]
    assert sheet.winners() == (1,)


def test_shared_place_R_WIN():
    # seats 1 and 3: 2 points and 5 coins each, a shared victory; seat 2 comes third (1, 1, 3)
    sheet = score([city(coins=5, tokens=(1,)), city(coins=2, tokens=(1, 1)), city(coins=5, tokens=(1,)), city()])
    assert [ln.rank for ln in sheet.lines] == [1, 3, 1, 4]
    assert sheet.winners() == (1, 3)
    # negative military counts, and all tied: all first
    sheet = score([city(tokens=(-1,)), city(tokens=(-1,)), city(tokens=(-1,))])
    assert [ln.total for ln in sheet.lines] == [-1, -1, -1]
    assert sheet.winners() == (1, 2, 3)


# --- a full hand-worked sheet (R-SCORE) ----------------------------------------------------------------------


def test_hand_worked_three_seat_sheet_R_SCORE():
    # Seat 1's left is seat 2, its right seat 3; seat 2's left is 3, right 1; seat 3's left is 1, right 2.
    s1 = city("Lumber Yard", "Stone Pit", "Glassworks", "Altar", "Temple", "Pantheon", "Haven", "Lighthouse",
              "Workers Guild", "Scriptorium", "Library",
              wonder=("Gizah", "day"), stages=2, coins=10, tokens=(1, -1, 3, 3, 5, -1))
    s2 = city("Apothecary", "Workshop", "Scriptorium", "Dispensary", "Laboratory", "Lodge", "Scientists Guild",
              wonder=("Babylon", "day"), stages=3, coins=4, tokens=(-1, -1, 1, -1, 5, -1))
    s3 = city("Clay Pool", "Ore Vein", "Sawmill", "Press", "Loom", "Stockade", "Walls", "Fortifications", "Ludus",
              "Chamber of Commerce", "Arena", "Builders Guild", "Craftsmens Guild", "Decorators Guild",
              wonder=("Rhodos", "night"), stages=2, coins=7, tokens=(1, 1, 3, 3, 5, 5))
    sheet = score([s1, s2, s3])
    # Seat 1: military 1-1+3+3+5-1 = 10; treasury ⌊10/3⌋ = 3; wonder Gizah day 3+5 = 8;
    # civilian Altar 3 + Temple 4 + Pantheon 7 = 14; commercial Haven 2 brown + Lighthouse 2 yellow = 4;
    # guilds Workers: brown in seat 2 (0) + seat 3 (Clay Pool, Ore Vein, Sawmill: 3) = 3;
    # science 2 tablets = 4. Total 10+3+8+14+4+3+4 = 46.
    assert sheet.line(1) == ScoreLine(1, 10, 3, 8, 14, 4, 3, 4, total=46, coins=10, rank=3)
    # Seat 2: military -1-1+1-1+5-1 = 2; treasury ⌊4/3⌋ = 1; wonder Babylon day 3+7 = 10 (stage 2 is science);
    # science: 1 tablet, 3 compasses, 2 gears + 2 any (Scientists Guild, stage 2): best tablet+compass
    # → 2,4,2: 4+16+4+2·7 = 38 (others: 3,3,2 = 36; 1,5,2 = 37; 2,3,3 = 36; 1,4,3 = 33; 1,3,4 = 33).
    # Total 2+1+10+0+0+0+38 = 51.
    assert sheet.line(2) == ScoreLine(2, 2, 1, 10, 0, 0, 0, 38, total=51, coins=4, rank=2)
    # Seat 3: military 1+1+3+3+5+5 = 18; treasury ⌊7/3⌋ = 2; wonder Rhodos night 3+4 = 7;
    # commercial Ludus 3 red + Chamber 2×2 grey + Arena 2 stages = 9;
    # guilds Builders 2 own + 2 (seat 1) + 3 (seat 2) = 7, Craftsmens 2×(1 grey in seat 1 + 0 in seat 2) = 2,
    # Decorators 7 (Rhodos night: 2 of 2 stages) → 16. Total 18+2+7+0+9+16+0 = 52.
    assert sheet.line(3) == ScoreLine(3, 18, 2, 7, 0, 9, 16, 0, total=52, coins=7, rank=1)
    assert sheet.winners() == (3,)
    assert str(sheet).splitlines()[0].split() == [
        "seat", "milit", "treas", "wonde", "civil", "comme", "guild", "scien", "total", "coins", "rank"
    ]
    assert str(sheet).splitlines()[3].split() == ["3", "18", "2", "7", "0", "9", "16", "0", "52", "7", "1"]


def test_line_categories_in_score_order():
    line = score([city(coins=9), EMPTY, EMPTY]).line(1)
    assert line.categories == (("military", 0), ("treasury", 3), ("wonder", 0), ("civilian", 0),
                               ("commercial", 0), ("guilds", 0), ("science", 0))
    assert sum(v for _, v in line.categories) == line.total


def _reference_sheet(cities: list[CityView]) -> list[tuple[int, ...]]:
    """Each seat's seven categories as the rules read them, card by card, every counting effect counting the
    cities it names again (R-SCORE, R-GUILD-COUNT, R-SCIENCE-ANY): what the sheet's one count per city must give."""
    n = len(cities)

    def count(c: CityView, counts: tuple[str, ...]) -> int:
        return sum(1 for k in c.cards if k.colour in counts) + (c.stages if "wonder_stage" in counts else 0)

    rows = []
    for i, c in enumerate(cities):
        views = {"self": c, "left": cities[(i + 1) % n], "right": cities[(i - 1) % n]}  # R-SEAT
        staged = [e for stage in c.wonder.stages[: c.stages] for e in stage.effects]

        def per(colour: str, c: CityView = c, views: dict[str, CityView] = views) -> int:
            return sum(e.each * sum(count(views[w], e.counts) for w in e.cities)
                       for k in c.cards if k.colour == colour for e in k.effects
                       if isinstance(e, catalog.PointsPer))

        complete = c.stages >= len(c.wonder.stages)
        bonus = sum(e.amount for k in c.cards if k.colour == "purple" for e in k.effects
                    if isinstance(e, catalog.PointsIfWonderComplete))
        symbols = [e.symbol for k in c.cards for e in k.effects if isinstance(e, catalog.Science)]
        symbols += [e.symbol for e in staged if isinstance(e, catalog.Science)]
        rows.append((sum(c.tokens), c.coins // 3, sum(e.amount for e in staged if isinstance(e, catalog.Points)),
                     sum(e.amount for k in c.cards if k.colour == "blue" for e in k.effects
                         if isinstance(e, catalog.Points)),
                     per("yellow"), per("purple") + (bonus if complete else 0),
                     science_points(symbols.count("tablet"), symbols.count("compass"), symbols.count("gear"),
                                    symbols.count("any"))))
    return rows


def test_sheet_counts_each_city_once_as_the_rules_count_R_SCORE():
    """Random tables (3-7 cities of any cards, sides, stages, coins, tokens): the sheet, which counts each city's
    colours, stages and symbols once for every category and neighbour, gives the reference's categories, and the
    category functions give the same figures one by one."""
    import random

    rng = random.Random(31)
    cat = catalog.load()
    cards, sides = list(cat.cards), list(cat.wonders)
    for _ in range(300):
        n = rng.randint(3, 7)
        cities = []
        for _ in range(n):
            side = rng.choice(sides)
            cities.append(CityView(tuple(rng.choices(cards, k=rng.randint(0, 22))), side,
                                   rng.randint(0, len(side.stages)), rng.randint(0, 40),
                                   tuple(rng.choice((-1, 1, 3, 5)) for _ in range(rng.randint(0, 6)))))
        sheet = score(cities)
        want = _reference_sheet(cities)
        assert [tuple(v for _, v in line.categories) for line in sheet.lines] == want
        for i, c in enumerate(cities):
            left, right = cities[(i + 1) % n], cities[(i - 1) % n]
            assert (wonder_points(c), civilian_points(c), commercial_points(c, left, right),
                    guild_points(c, left, right), science_score(c)) == want[i][2:]
