"""The catalogue against the project's human-readable reference, and its lookups.

``tests/data/cards-2e.md`` is a copy of the shared reference (markdown tables written for people). It is parsed
here independently of ``wnotation/data/catalog.json``, so every card, guild and Wonder side is checked against a
second transcription: names, order, colour, copies, cost, effects and chains.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from wnotation.model import catalog
from wnotation.model.catalog import (
    MANUFACTURED,
    RAW,
    RESOURCES,
    BuildFromDiscard,
    CatalogError,
    Coins,
    CoinsPer,
    Cost,
    FreeFirstCardEachAge,
    FreeFirstOfColour,
    FreeLastCardEachAge,
    PlayLastCard,
    Points,
    PointsIfWonderComplete,
    PointsPer,
    Produce,
    Science,
    Shields,
    TradeDiscount,
)

REFERENCE = Path(__file__).parent / "data" / "cards-2e.md"
AGE_HEADINGS = {"Age I": 1, "Age II": 2, "Age III": 3}
PLAYERS = range(3, 8)
CAT = catalog.load()


# --- parsing the reference's markdown tables -----------------------------------------------------------------


def _tables(text: str) -> dict[str, list[dict[str, str]]]:
    """Each ``## heading`` with its table rows as {column header: cell}."""
    tables: dict[str, list[dict[str, str]]] = {}
    heading, header = None, None
    for line in text.splitlines():
        if line.startswith("## "):
            heading, header = line[3:].strip(), None
            continue
        if not line.startswith("|") or heading is None:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif not set("".join(cells)) <= set("-: "):
            tables.setdefault(heading, []).append(dict(zip(header, cells)))
    return tables


def parse_cost(text: str) -> Cost:
    if text == "free":
        return Cost()
    if m := re.fullmatch(r"(\d+) coins?", text):
        return Cost(coins=int(m[1]))
    units: dict[str, int] = {}
    for part in text.split(", "):
        m = re.fullmatch(r"(\d+)×([a-z]+)", part)
        assert m and m[2] in RESOURCES, f"unreadable cost {text!r}"
        units[m[2]] = int(m[1])
    return Cost(0, tuple((r, units[r]) for r in RESOURCES if r in units))


_POWERS = {
    "play last card each age": PlayLastCard(),
    "build from discard": BuildFromDiscard(),
    "free first card of each colour": FreeFirstOfColour(),
    "free first card each age": FreeFirstCardEachAge(),
    "free last card each age": FreeLastCardEachAge(),
}


def parse_effect(text: str):
    if text in _POWERS:
        return _POWERS[text]
    if m := re.fullmatch(r"produces (?:(\d+)×)?([a-z /]+?)( \(not sellable to neighbours\))?", text):
        return Produce(tuple(m[2].split(" / ")), int(m[1] or 1), not m[3])
    if m := re.fullmatch(r"(\d+) VP", text):
        return Points(int(m[1]))
    if m := re.fullmatch(r"\+(\d+) coins once", text):
        return Coins(int(m[1]))
    if m := re.fullmatch(r"(\d+) shield\(s\)", text):
        return Shields(int(m[1]))
    if m := re.fullmatch(r"science: (tablet|compass|gear|any)", text):
        return Science(m[1])
    if m := re.fullmatch(r"(raw|manufactured) resources from ([a-z+]+) neighbour\(s\) cost (\d+) coin", text):
        kind = RAW if m[1] == "raw" else MANUFACTURED
        return TradeDiscount(kind, tuple(m[2].split("+")), int(m[3]))
    if m := re.fullmatch(r"(\d+) (coins|VP) per (.+) in \[([a-z+]+)\] \((on build|end of game)\)", text):
        counts = ("wonder_stage",) if m[3] == "wonder stage built" else tuple(m[3].removesuffix(" card").split("/"))
        assert (m[2], m[5]) in {("coins", "on build"), ("VP", "end of game")}, text
        cls = CoinsPer if m[2] == "coins" else PointsPer
        return cls(counts, int(m[1]), tuple(m[4].split("+")))
    if m := re.fullmatch(r"(\d+) VP if own wonder complete", text):
        return PointsIfWonderComplete(int(m[1]))
    raise AssertionError(f"the reference has an effect this test cannot read: {text!r}")


def parse_effects(text: str) -> tuple:
    return tuple(parse_effect(part) for part in text.split("; "))


def _names(cell: str) -> tuple[str, ...]:
    return () if cell in ("—", "") else tuple(cell.split(", "))


def _reference_cards() -> list[dict]:
    tables = _tables(REFERENCE.read_text(encoding="utf-8"))
    rows = []
    for heading, age in AGE_HEADINGS.items():
        for r in tables[heading]:
            rows.append(
                {
                    "name": r["Card"],
                    "age": age,
                    "colour": r["Colour"],
                    "copies": tuple(int(c.rstrip("+")) for c in r["Copies (min players)"].split(", ")),
                    "counts": tuple(int(n) for n in r["3/4/5/6/7"].split("/")),
                    "cost": parse_cost(r["Cost"]),
                    "effects": parse_effects(r["Effect"]),
                    "chain_from": _names(r["Free if you own"]),
                }
            )
    guilds = next(rows for heading, rows in tables.items() if heading.startswith("Guilds"))
    for r in guilds:
        rows.append(
            {
                "name": r["Guild"],
                "age": 3,
                "colour": "purple",
                "copies": (),
                "counts": (0,) * 5,
                "cost": parse_cost(r["Cost"]),
                "effects": parse_effects(r["Effect"]),
                "chain_from": (),
            }
        )
    return rows


def _reference_wonders() -> dict[tuple[str, str], dict]:
    tables = _tables(REFERENCE.read_text(encoding="utf-8"))
    sides: dict[tuple[str, str], dict] = {}
    for r in next(rows for heading, rows in tables.items() if heading.startswith("Wonder boards")):
        side = sides.setdefault((r["Wonder"], r["Side"]), {"resource": None, "stages": []})
        if r["Starting resource"]:
            side["resource"] = r["Starting resource"]
        assert int(r["Stage"]) == len(side["stages"]) + 1, r
        side["stages"].append((parse_cost(r["Cost"]), parse_effects(r["Effect"])))
    return sides


REF_CARDS = _reference_cards()
REF_WONDERS = _reference_wonders()


# --- every card, guild and side against the reference --------------------------------------------------------


def test_the_reference_was_read_whole():
    assert len(REF_CARDS) == 80 and len(REF_WONDERS) == 14


def test_catalogue_holds_exactly_the_reference_cards_in_reference_order():
    # The canonical deck order of spec/deal.md is this order: it may not drift.
    assert [(c.age, c.name) for c in CAT.cards] == [(r["age"], r["name"]) for r in REF_CARDS]


@pytest.mark.parametrize("ref", REF_CARDS, ids=lambda r: f"{catalog.AGE_NUMERALS[r['age']]}:{r['name']}")
def test_card_matches_reference(ref):
    card = CAT.card(ref["name"], ref["age"])
    assert card.name == ref["name"]
    assert card.colour == ref["colour"]
    assert card.copies == ref["copies"]
    assert tuple(card.copies_for(n) for n in PLAYERS) == ref["counts"]
    assert card.cost == ref["cost"]
    assert card.effects == ref["effects"]
    assert card.chain_from == ref["chain_from"]


@pytest.mark.parametrize("key", sorted(REF_WONDERS), ids=lambda k: f"{k[0]}-{k[1]}")
def test_wonder_side_matches_reference(key):
    ref = REF_WONDERS[key]
    side = CAT.wonder(*key)
    assert (side.name, side.side) == key
    assert side.resource == ref["resource"]
    assert [(s.index, s.cost, s.effects) for s in side.stages] == [
        (i, cost, effects) for i, (cost, effects) in enumerate(ref["stages"], 1)
    ]


def test_catalogue_holds_exactly_the_reference_wonder_sides():
    assert {(w.name, w.side) for w in CAT.wonders} == set(REF_WONDERS)


def test_disputed_values_are_listed_in_the_data():
    assert {d["item"] for d in CAT.disputed} == {
        "Town Hall cost", "Arena cost", "Circus cost", "Craftsmens Guild cost",
    }


# --- counts --------------------------------------------------------------------------------------------------


def test_designs_per_age_and_guilds():
    per_age = Counter(c.age for c in CAT.cards if not c.is_guild)
    assert per_age == {1: 27, 2: 23, 3: 20}
    assert len(CAT.guilds) == 10
    assert all(g.age == 3 and g.colour == "purple" and g.copies == () for g in CAT.guilds)


def test_physical_copies():
    copies = Counter()
    for c in CAT.cards:
        copies[c.age] += 1 if c.is_guild else len(c.copies)
    assert copies == {1: 49, 2: 49, 3: 50}
    assert sum(copies.values()) == 148


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("age", catalog.AGES)
def test_each_age_deck_holds_seven_cards_per_player(age, players):
    guilds = players + 2 if age == 3 else 0
    assert sum(c.copies_for(players) for c in CAT.age_cards(age)) + guilds == 7 * players


@pytest.mark.parametrize("players", PLAYERS)
def test_age_three_non_guild_cards(players):
    assert sum(c.copies_for(players) for c in CAT.age_cards(3)) == {3: 16, 4: 22, 5: 28, 6: 34, 7: 40}[players]


def test_copies_are_printed_minimum_player_counts():
    for c in CAT.cards:
        assert list(c.copies) == sorted(c.copies) and all(3 <= m <= 7 for m in c.copies), c
        assert c.copies_for(7) == len(c.copies) and c.copies_for(2) == 0


def test_eight_copies_of_each_science_symbol():
    symbols = Counter()
    for c in CAT.cards:
        for e in c.effects:
            if isinstance(e, Science) and e.symbol != "any":
                symbols[e.symbol] += len(c.copies)
    assert symbols == {"tablet": 8, "compass": 8, "gear": 8}
    assert [c.name for c in CAT.cards if Science("any") in c.effects] == ["Scientists Guild"]


# --- chains --------------------------------------------------------------------------------------------------


def test_chain_parents_exist_in_an_earlier_age():
    for c in CAT.cards:
        for parent in c.chain_from:
            assert catalog.normalise(parent) != catalog.normalise(c.name)
            designs = [p for p in CAT.cards if p.name == parent]
            assert designs, f"{c.key}: unknown chain parent {parent}"
            assert all(p.age < c.age for p in designs), f"{c.key}: {parent} is not from an earlier Age"


def test_chain_links_agree_in_both_directions():
    for c in CAT.cards:
        for parent in c.chain_from:
            assert all(c.name in p.chain_to for p in CAT.cards if p.name == parent), (c.key, parent)
        for child in c.chain_to:
            assert c.name in CAT.card(child).chain_from, (c.key, child)
    links = sum(len(c.chain_from) for c in CAT.cards)
    assert links == sum(len(c.chain_to) for c in CAT.cards) == 25


def test_no_chains_into_age_one_or_guilds():
    assert not any(c.chain_from for c in CAT.cards if c.age == 1 or c.is_guild)


# --- Wonders -------------------------------------------------------------------------------------------------

NIGHT_STAGES = {"Gizah": 4, "Rhodos": 2, "Babylon": 2}


@pytest.mark.parametrize("side", CAT.wonders, ids=str)
def test_stage_counts(side):
    expected = 3 if side.side == "day" else NIGHT_STAGES.get(side.name, 3)
    assert len(side.stages) == expected
    assert [s.index for s in side.stages] == list(range(1, expected + 1))


def test_seven_wonders_two_sides_each_one_starting_resource():
    by_name = Counter(w.name for w in CAT.wonders)
    assert len(by_name) == 7 and set(by_name.values()) == {2}
    for name in by_name:
        assert CAT.wonder(name, "day").resource == CAT.wonder(name, "night").resource in RESOURCES


# --- lookup --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written", ["Lumber Yard", "lumber yard", "LUMBER YARD", "  lumber   yard ", "LumberYard", "lumber-yard"]
)
def test_lookup_ignores_case_and_spacing(written):
    assert CAT.card(written) is CAT.card("Lumber Yard")
    assert catalog.card(written).name == "Lumber Yard"


def test_lookup_ignores_punctuation_in_guild_names():
    assert CAT.card("Craftsmen's Guild").name == "Craftsmens Guild"


@given(st.sampled_from([c.name for c in CAT.cards]), st.randoms(use_true_random=False))
def test_any_casing_and_spacing_of_a_name_finds_it(name, rnd):
    written = "".join((ch.upper() if rnd.random() < 0.5 else ch.lower()) + " " * rnd.randint(0, 1) for ch in name)
    assert CAT.card_name(written) == name


@pytest.mark.parametrize(
    "written, suggestion",
    [("Lumbr Yard", "Lumber Yard"), ("lumber", "Lumber Yard"), ("Glasworks", "Glassworks"),
     ("Scientist Guild", "Scientists Guild"), ("Caravanserai", "Caravansery"), ("Theatre", "Theater")],
)
def test_misspelt_card_names_get_a_suggestion(written, suggestion):
    with pytest.raises(CatalogError) as info:
        CAT.card(written)
    assert info.value.suggestion == suggestion
    assert str(info.value) == f"unknown card {written!r}; did you mean {suggestion}?"
    assert "\n" not in str(info.value)


def test_unknown_name_without_a_near_miss():
    with pytest.raises(CatalogError, match=r"^unknown card 'xyzzy'$") as info:
        CAT.card("xyzzy")
    assert info.value.suggestion is None


def test_wonder_lookup():
    assert CAT.wonder("gizah", "night") is CAT.wonder("GIZAH", "B")
    assert CAT.wonder("Gizah", "A").side == "day"
    with pytest.raises(CatalogError, match="did you mean Gizah"):
        CAT.wonder("Gizeh", "day")
    with pytest.raises(CatalogError, match="expected day or night"):
        CAT.wonder("Gizah", "dusk")


@pytest.mark.parametrize("name", ["Glassworks", "Press", "Loom"])
def test_names_printed_in_two_ages(name):
    one, two = CAT.card(name, 1), CAT.card(name, 2)
    assert (one.age, two.age) == (1, 2) and one is not two and one.key != two.key
    assert one.effects == two.effects and one.copies != two.copies
    assert CAT.card(name) is one  # without an Age, the earliest design
    with pytest.raises(CatalogError, match=rf"^{name} is not an Age III card"):
        CAT.card(name, 3)


def test_age_specific_lookup_of_a_one_age_card():
    assert CAT.card("lumber yard", 1).age == 1
    with pytest.raises(CatalogError, match="not an Age II card"):
        CAT.card("lumber yard", 2)


def test_keys_are_unique():
    assert len({c.key for c in CAT.cards}) == len(CAT.cards)


# --- values, wording and JSON --------------------------------------------------------------------------------


def test_catalogue_is_loaded_once_and_frozen():
    assert catalog.load() is CAT
    with pytest.raises(dataclasses.FrozenInstanceError):
        CAT.cards[0].name = "Oak Yard"  # type: ignore[misc]


def _all_effects():
    for c in CAT.cards:
        yield from c.effects
    for w in CAT.wonders:
        for s in w.stages:
            yield from s.effects


def test_every_effect_has_its_own_wording():
    effects = set(_all_effects())
    words = {e: catalog.describe(e) for e in effects}
    assert all(w and "\n" not in w for w in words.values())
    assert len(set(words.values())) == len(effects)


@pytest.mark.parametrize(
    "effect, words",
    [
        (Produce(("wood", "clay")), "produces wood or clay"),
        (Produce(("ore",), 2), "produces 2×ore"),
        (Produce(("glass", "papyrus", "loom"), 1, False),
         "produces one of glass, papyrus or loom (not for sale to neighbours)"),
        (TradeDiscount(RAW, ("right",)), "raw materials bought from the right neighbour cost 1 coin"),
        (PointsPer(("brown", "grey", "purple"), 1, ("self",)),
         "1 VP per brown, grey or purple card in your city (end of game)"),
        (CoinsPer(("wonder_stage",), 3, ("self",)), "3 coins per Wonder stage built in your city (once, when built)"),
        (Shields(1), "1 shield"),
        (Science("any"), "science symbol of your choice (end of game)"),
    ],
)
def test_describe(effect, words):
    assert catalog.describe(effect) == words


def test_effect_data_round_trips():
    for e in _all_effects():
        assert catalog._effect(catalog.effect_data(e)) == e


def test_card_and_wonder_data_are_json():
    data = [catalog.card_data(c) for c in CAT.cards] + [catalog.wonder_data(w) for w in CAT.wonders]
    assert json.loads(json.dumps(data)) == data
    lumber = catalog.card_data(CAT.card("Lumber Yard"))
    assert lumber["copies_by_players"] == {"3": 1, "4": 2, "5": 2, "6": 2, "7": 2}
    assert lumber["effects"] == [
        {"type": "produce", "choices": ["wood"], "amount": 1, "tradable": True, "text": "produces wood"}
    ]


@pytest.mark.parametrize("written, name", [
    ("Giza", "Gizah"), ("Rhodes", "Rhodos"), ("Ephesus", "Ephesos"), ("Halicarnassus", "Halikarnassos"),
    ("giza", "Gizah"), ("RHODES", "Rhodos"),
])
def test_standard_english_wonder_names_are_aliases(written, name):
    assert catalog.load().wonder_name(written) == name
    assert catalog.wonder(written, "day").name == name


def test_every_title_the_tool_prints_reads_back_as_its_wonder():
    """The full names shown in titles (``The Pyramids of Giza``), with or without ``The``, name the Wonder."""
    cat = catalog.load()
    for w in cat.wonders:
        assert cat.wonder_name(w.full_name) == w.name
        assert cat.wonder_name(w.full_name.removeprefix("The ")) == w.name
        assert cat.wonder_name(str(w).split()[0]) == w.name


def test_an_unknown_wonder_still_suggests_the_catalogue_name():
    with pytest.raises(catalog.CatalogError) as info:
        catalog.load().wonder_name("Gizza")
    assert info.value.suggestion == "Gizah"
