"""Spec 7wn.md §9.2 (what each result category counts) against the catalogue and the engine's scoring (R-SCORE,
R-GUILD-COUNT, R-SCIENCE-ANY, R-WIN), so that the table cannot drift from what the reference computes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wnotation.model.catalog import Points, PointsIfWonderComplete, PointsPer, Science, load
from wnotation.model.vocabulary import BASE_RESULT_FIELDS

SPEC = Path(__file__).resolve().parents[1] / "spec" / "7wn.md"
COLOURS = {"brown", "grey", "yellow", "green", "red", "blue", "purple"}


def _rows() -> dict[str, str]:
    text = SPEC.read_text(encoding="utf-8").split("### 9.2 What each category counts", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\| `(\w+)` \|(.*)\|$", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


ROWS = _rows()
CARDS = {c.name: c for c in load().cards}


def _clause(row: str, card: str) -> str:
    """The text of ``row`` from ``card``'s first word up to the next ``;`` or ``(``-less ``,`` at its level."""
    word = card.split()[0]
    assert word in row, f"{card} is not in the row"
    return row[row.index(word):].split(";")[0].split("),")[0]


def test_R_SCORE__the_table_has_every_category_of_the_sheet_in_order():
    assert tuple(ROWS) == BASE_RESULT_FIELDS


@pytest.mark.parametrize("name", sorted(n for n, c in CARDS.items() if c.colour == "yellow"))
def test_R_SCORE__every_yellow_card_is_said_to_score_or_not_in_commercial(name):
    card = CARDS[name]
    per = [e for e in card.effects if isinstance(e, PointsPer)]
    clause = _clause(ROWS["commercial"], name)
    if not per:
        assert "give no points" in ROWS["commercial"].split(name.split()[0], 1)[1], name
        return
    (e,) = per
    assert e.cities == ("self",)  # "each counting its own city only"
    what = "built stage" if e.counts == ("wonder_stage",) else f"{e.counts[0]} Building"
    assert f"{e.each} per {what}" in clause, (name, clause)


@pytest.mark.parametrize("name", sorted(n for n, c in CARDS.items() if c.colour == "purple"))
def test_R_GUILD_COUNT__every_guild_is_counted_as_the_guilds_row_says(name):
    card = CARDS[name]
    row = ROWS["guilds"]
    assert name.split()[0] in row, name
    for e in card.effects:
        if isinstance(e, PointsPer):
            clause = _clause(row, name)
            colours = [c for c in e.counts if c in COLOURS]
            if e.cities == ("left", "right"):
                assert f"{name.split()[0]} ({e.each} per {colours[0]})" in row and len(colours) == 1, name
                assert "the two neighbours' Buildings, not its own" in row
            elif e.counts == ("wonder_stage",):
                assert e.cities == ("self", "left", "right") and f"{e.each} per stage built in its own city and " \
                    "in both neighbours'" in clause, name
            else:
                assert e.cities == ("self",) and f"{e.each} per " + ", ".join(colours[:-1]) + \
                    f" and {colours[-1]} Building of its own city, itself included" in clause, (name, clause)
        elif isinstance(e, PointsIfWonderComplete):
            assert f"{e.amount} when every stage of its own Wonder side is built" in _clause(row, name)
        elif isinstance(e, Science):
            assert "0 here (its symbol is science)" in row and "its Scientists Guild" in ROWS["science"]
        else:
            pytest.fail(f"{name}: an effect the table does not cover: {e}")


def test_R_SCORE__blue_cards_and_stages_score_printed_points_only():
    for card in CARDS.values():
        points = [e for e in card.effects if isinstance(e, Points)]
        assert not points or card.colour == "blue", card.name  # printed points: civilian, blue cards only
    symbols = {c.colour for c in CARDS.values() for e in c.effects if isinstance(e, Science)}
    assert symbols == {"green", "purple"}  # green Buildings and the Scientists Guild, as the science row says
    stage_symbols = {w.name for w in load().wonders for st in w.stages for e in st.effects if isinstance(e, Science)}
    assert stage_symbols == {"Babylon"} and "(Babylon's)" in ROWS["science"]
