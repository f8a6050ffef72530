"""Age decks and the seeded deal SM64-FY, checked against the test vectors published in ``spec/deal.md``.

The vectors are parsed out of the spec, so the spec and the code cannot drift apart. After a deliberate change,
``python tests/test_deck.py`` prints the regenerated vector section to paste into the spec (review the diff:
every published deal changes).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from wnotation.model import catalog
from wnotation.model.catalog import AGE_NUMERALS, CatalogError
from wnotation.model.deck import (
    HAND_SIZE,
    SHUFFLE_ALGORITHM,
    SplitMix64,
    check_guilds,
    check_players,
    deal,
    deck,
    guild_count,
    shuffle,
)

SPEC = Path(__file__).resolve().parent.parent / "spec" / "deal.md"
CAT = catalog.load()
GUILDS = [g.name for g in CAT.guilds]
PLAYERS = range(3, 8)
NUMERAL_AGE = {v: k for k, v in AGE_NUMERALS.items()}

SPLITMIX_SEEDS = (0, 1234567)
REJECTION = (0, 2**63 + 1, 3)  # seed, n, calls: about half of all outputs are rejected
BELOW = (1234567, tuple(range(10, 1, -1)))
SHUFFLE = (1234567, 10)
DEALS = ((3, 42, None), (7, 2026, None), (4, 7, ("Spies Guild", "Scientists Guild", "Traders Guild",
                                                  "Decorators Guild", "Builders Guild", "Workers Guild")))


# --- rendering the vectors (the code's answer) ---------------------------------------------------------------


def _table(header: list[str], rows: list[list[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]


def _deal_title(players: int, seed: int, guilds) -> str:
    return f"Deal: {players} players, seed {seed}" + (", guilds listed" if guilds else "")


def render_vectors() -> str:
    """The test-vector section of spec/deal.md, as the code computes it."""
    out: list[str] = []
    v = 0
    for seed in SPLITMIX_SEEDS:
        v += 1
        rng = SplitMix64(seed)
        values = [rng.next() for _ in range(5)]
        out += [f"### V{v}. SplitMix64 outputs, seed {seed}", ""]
        out += _table(["#", "decimal", "hex"], [[i, x, f"0x{x:016x}"] for i, x in enumerate(values, 1)]) + [""]
    v += 1
    seed, n, calls = REJECTION
    rng = SplitMix64(seed)
    limit = (1 << 64) - (1 << 64) % n
    rows = []
    for call in range(1, calls + 1):
        drawn = []
        while True:
            x = rng.next()
            drawn.append(f"{x}" + ("" if x < limit else " rejected"))
            if x < limit:
                break
        rows.append([call, ", ".join(drawn), x % n])
    out += [f"### V{v}. below(n) with rejection, seed {seed}, n = {n}", ""]
    out += [f"limit = 2^64 − (2^64 mod n) = {limit}: outputs ≥ limit are rejected.", ""]
    out += _table(["call", "outputs drawn", "result"], rows) + [""]
    v += 1
    seed, ns = BELOW
    rng = SplitMix64(seed)
    out += [f"### V{v}. below(n), seed {seed}, one call per row", ""]
    out += _table(["n", "result"], [[n, rng.below(n)] for n in ns]) + [""]
    v += 1
    seed, size = SHUFFLE
    out += [f"### V{v}. shuffle of [0, 1, …, {size - 1}], seed {seed}", ""]
    out += ["`" + ", ".join(str(x) for x in shuffle(range(size), SplitMix64(seed))) + "`", ""]
    v += 1
    players, seed, _ = DEALS[0]
    guilds = [g.name for g in deal(players, seed).guilds]
    out += [f"### V{v}. Canonical deck: Age III, {players} players, the guilds of V{v + 1}", ""]
    out += ["`" + ", ".join(c.name for c in deck(3, players, guilds)) + "`", ""]
    for players, seed, guilds in DEALS:
        v += 1
        d = deal(players, seed, guilds)
        drawn = shuffle(CAT.guilds, SplitMix64(seed))
        out += [f"### V{v}. {_deal_title(players, seed, guilds)}", ""]
        if guilds:
            out += [f"Guilds listed: {', '.join(guilds)}", ""]
        out += [f"Guild shuffle: {', '.join(g.name for g in drawn)}", ""]
        out += [f"Guilds in the deck: {', '.join(g.name for g in d.guilds)}", ""]
        rows = [
            [AGE_NUMERALS[age], seat, ", ".join(c.name for c in hand)]
            for age, hands in enumerate(d.hands, 1)
            for seat, hand in enumerate(hands, 1)
        ]
        out += _table(["Age", "seat", "hand (cards in dealt order)"], rows) + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def render_deck_order() -> str:
    """The canonical deck-order tables of spec/deal.md, as the catalogue gives them."""
    out: list[str] = []
    for age in catalog.AGES:
        out += [f"#### Age {AGE_NUMERALS[age]}", ""]
        rows = [
            [i, c.name, *(c.copies_for(n) for n in PLAYERS)] for i, c in enumerate(CAT.age_cards(age), 1)
        ]
        out += _table(["#", "design", *(f"N={n}" for n in PLAYERS)], rows) + [""]
    out += ["#### Guilds", ""]
    out += _table(["#", "guild"], [[i, g.name] for i, g in enumerate(CAT.guilds, 1)])
    return "\n".join(out) + "\n"


# --- parsing the vectors (the spec's word) -------------------------------------------------------------------


@functools.cache
def _spec_sections() -> dict[str, list[str]]:
    """Each ``###``/``####`` heading of spec/deal.md with its lines."""
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"#{3,4} (?:V\d+\. )?(.+)", line):
            current = sections.setdefault(m[1].strip(), [])
        else:
            current.append(line)
    return sections


def _rows(lines: list[str]) -> list[list[str]]:
    table = [line for line in lines if line.startswith("|")]
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in table[2:]]


def _line(lines: list[str], label: str) -> list[str]:
    found = [line.removeprefix(label).strip() for line in lines if line.startswith(label)]
    assert len(found) == 1, f"expected one line starting {label!r}"
    return found[0].split(", ")


def _section(title: str) -> list[str]:
    sections = _spec_sections()
    assert title in sections, f"spec/deal.md has no section {title!r}"
    return sections[title]


@pytest.mark.parametrize("seed", SPLITMIX_SEEDS)
def test_splitmix64_vectors(seed):
    rows = _rows(_section(f"SplitMix64 outputs, seed {seed}"))
    assert len(rows) == 5
    rng = SplitMix64(seed)
    for index, decimal, hexa in rows:
        x = rng.next()
        assert (int(decimal), int(hexa, 16)) == (x, x), f"output {index}"


def test_splitmix64_reference_values():
    # Vigna's splitmix64.c from state 0 (independent of the spec): the published first outputs.
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_below_rejection_vector():
    seed, n, calls = REJECTION
    rows = _rows(_section(f"below(n) with rejection, seed {seed}, n = {n}"))
    assert len(rows) == calls
    rng, check = SplitMix64(seed), SplitMix64(seed)
    for _, drawn, result in rows:
        assert rng.below(n) == int(result)
        for item in drawn.split(", "):
            value, _, verdict = item.partition(" ")
            assert check.next() == int(value)
            assert (verdict == "rejected") == (int(value) >= (1 << 64) - (1 << 64) % n)
    assert rng.state == check.state
    assert any("rejected" in row[1] for row in rows)


def test_below_vector():
    seed, ns = BELOW
    rows = _rows(_section(f"below(n), seed {seed}, one call per row"))
    rng = SplitMix64(seed)
    assert [(int(n), int(r)) for n, r in rows] == [(n, rng.below(n)) for n in ns]


def test_shuffle_vector():
    seed, size = SHUFFLE
    lines = [line for line in _section(f"shuffle of [0, 1, …, {size - 1}], seed {seed}") if line.startswith("`")]
    assert len(lines) == 1
    assert [int(x) for x in lines[0].strip("`").split(", ")] == shuffle(range(size), SplitMix64(seed))


def test_canonical_deck_vector():
    players, seed, _ = DEALS[0]
    title = next(t for t in _spec_sections() if t.startswith(f"Canonical deck: Age III, {players} players"))
    lines = [line for line in _section(title) if line.startswith("`")]
    guilds = [g.name for g in deal(players, seed).guilds]
    assert len(lines) == 1
    assert lines[0].strip("`").split(", ") == [c.name for c in deck(3, players, guilds)]


@pytest.mark.parametrize("players, seed, guilds", DEALS, ids=lambda x: str(x) if not isinstance(x, tuple) else "g")
def test_deal_vectors(players, seed, guilds):
    lines = _section(_deal_title(players, seed, guilds))
    d = deal(players, seed, guilds)
    if guilds:
        assert tuple(_line(lines, "Guilds listed:")) == guilds
    assert _line(lines, "Guild shuffle:") == [g.name for g in shuffle(CAT.guilds, SplitMix64(seed))]
    assert _line(lines, "Guilds in the deck:") == [g.name for g in d.guilds]
    rows = _rows(lines)
    assert len(rows) == 3 * players
    for age_numeral, seat, hand in rows:
        age, seat = NUMERAL_AGE[age_numeral], int(seat)
        assert hand.split(", ") == [c.name for c in d.hands[age - 1][seat - 1]], f"Age {age_numeral} seat {seat}"


def test_deck_order_tables():
    for age in catalog.AGES:
        rows = _rows(_section(f"Age {AGE_NUMERALS[age]}"))
        assert [(r[1], tuple(int(x) for x in r[2:])) for r in rows] == [
            (c.name, tuple(c.copies_for(n) for n in PLAYERS)) for c in CAT.age_cards(age)
        ], f"Age {AGE_NUMERALS[age]}"
    assert [r[1] for r in _rows(_section("Guilds"))] == GUILDS


def test_spec_names_the_algorithm():
    assert f"`{SHUFFLE_ALGORITHM}`" in SPEC.read_text(encoding="utf-8")


# --- decks ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("age", catalog.AGES)
def test_deck_size_and_order(age, players):
    cards = deck(age, players, GUILDS[: guild_count(players)])
    assert len(cards) == HAND_SIZE * players
    designs = [c for c in CAT.age_cards(age)] + (list(CAT.guilds) if age == 3 else [])
    assert [designs.index(c) for c in cards] == sorted(designs.index(c) for c in cards)  # canonical order
    counts = Counter(cards)
    for c in CAT.age_cards(age):
        assert counts[c] == c.copies_for(players)
    assert sum(c.is_guild for c in cards) == (players + 2 if age == 3 else 0)


@pytest.mark.parametrize("players", [0, 1, 2, 8, 10, -3])
def test_player_counts_outside_the_base_game_are_refused(players):
    message = f"{players} players: the base game is for 3 to 7 players"
    for call in (lambda: check_players(players), lambda: deck(1, players), lambda: deal(players, 1)):
        with pytest.raises(CatalogError) as info:
            call()
        assert str(info.value) == message


def test_unknown_age_is_refused():
    with pytest.raises(CatalogError, match="the game has Ages 1 to 3"):
        deck(4, 3)


@pytest.mark.parametrize(
    "guilds, message",
    [
        (GUILDS[:4], "4 guilds listed: a 3-player game uses exactly 5 (N+2)"),
        (GUILDS[:6], "6 guilds listed: a 3-player game uses exactly 5 (N+2)"),
        ([], "0 guilds listed: a 3-player game uses exactly 5 (N+2)"),
        (GUILDS[:4] + ["workers guild"], "guild Workers Guild is listed twice"),
        (GUILDS[:4] + ["Lumber Yard"], "Lumber Yard is not a guild"),
        (GUILDS[:4] + ["Spy Guild"], "unknown card 'Spy Guild'; did you mean Spies Guild?"),
    ],
)
def test_impossible_guild_lists_are_refused(guilds, message):
    for call in (lambda: check_guilds(3, guilds), lambda: deck(3, 3, guilds), lambda: deal(3, 1, guilds)):
        with pytest.raises(CatalogError) as info:
            call()
        assert str(info.value) == message


def test_listed_guilds_are_matched_by_any_spelling_and_kept_in_catalogue_order():
    chosen = check_guilds(3, ["decorators guild", "CRAFTSMEN'S GUILD", "Spies Guild", "workers guild", "Traders"
                                                                                                        " Guild"])
    assert [g.name for g in chosen] == [
        "Workers Guild", "Craftsmens Guild", "Traders Guild", "Spies Guild", "Decorators Guild",
    ]


# --- the deal ------------------------------------------------------------------------------------------------


def test_seeds_outside_64_bits_are_refused():
    for seed in (-1, 2**64):
        with pytest.raises(CatalogError, match=r"outside 0 \.\. 2\*\*64-1"):
            deal(3, seed)
    assert deal(3, 2**64 - 1).seed == 2**64 - 1


def test_below_refuses_an_empty_range():
    with pytest.raises(ValueError):
        SplitMix64(1).below(0)


def test_below_of_a_power_of_two_never_rejects():
    a, b = SplitMix64(99), SplitMix64(99)
    assert [a.below(1 << 64) for _ in range(4)] == [b.next() for _ in range(4)]
    assert SplitMix64(5).below(1) == 0


def test_deal_is_deterministic():
    assert deal(5, 123) == deal(5, 123)
    assert deal(5, 123) != deal(5, 124)


def test_listing_the_drawn_guilds_changes_nothing():
    drawn = deal(6, 77)
    listed = deal(6, 77, [g.name for g in reversed(drawn.guilds)])
    assert listed == drawn


def test_listing_other_guilds_changes_only_age_three():
    drawn = deal(3, 42)
    others = [g for g in GUILDS if g not in {c.name for c in drawn.guilds}][:5]
    listed = deal(3, 42, others)
    assert [g.name for g in listed.guilds] == others
    assert listed.hands[:2] == drawn.hands[:2]
    assert listed.hands[2] != drawn.hands[2]


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 7), st.integers(0, 2**64 - 1))
def test_every_deal_is_a_permutation_of_the_deck(players, seed):
    d = deal(players, seed)
    assert len(d.guilds) == players + 2 and len(set(d.guilds)) == players + 2
    assert all(g.is_guild for g in d.guilds)
    names = [g.name for g in d.guilds]
    for age, hands in enumerate(d.hands, 1):
        assert len(hands) == players and all(len(h) == HAND_SIZE for h in hands)
        assert Counter(c for h in hands for c in h) == Counter(deck(age, players, names))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(), max_size=30), st.integers(0, 2**64 - 1))
def test_shuffle_is_a_permutation(items, seed):
    assert sorted(shuffle(items, SplitMix64(seed))) == sorted(items)


def test_shuffle_draws_once_per_position():
    rng, check = SplitMix64(3), SplitMix64(3)
    shuffle(range(40), rng)
    for n in range(40, 1, -1):
        check.below(n)
    assert rng.state == check.state


def _shuffled_by_below(items, rng):
    """Durstenfeld's shuffle as spec/deal.md states it, one ``below`` call per position: what ``shuffle`` must
    equal, whichever way it makes its draws."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 300), st.integers(0, 2**64 - 1))
def test_shuffle_equals_one_below_per_position(size, seed):
    """shuffle draws all its numbers at once (packed in one integer) up to 256 draws, one by one beyond: both give
    the hands of the draws one by one, and leave the generator where they leave it."""
    rng, check = SplitMix64(seed), SplitMix64(seed)
    assert shuffle(range(size), rng) == _shuffled_by_below(range(size), check)
    assert rng.state == check.state


def _unxorshift(z, k):
    v, t = z, z >> k
    while t:
        v ^= t
        t >>= k
    return v


def _state_before(output):
    """The SplitMix64 state whose next output is ``output`` (the mix inverted step by step)."""
    mask = (1 << 64) - 1
    z = _unxorshift(output, 31)
    z = _unxorshift(z * pow(0x94D049BB133111EB, -1, 1 << 64) & mask, 27)
    z = _unxorshift(z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask, 30)
    return (z - 0x9E3779B97F4A7C15) & mask


@pytest.mark.parametrize("size, at", [(3, 0), (10, 4), (60, 7), (300, 20)])
def test_a_shuffle_whose_draw_is_rejected_draws_again(size, at):
    """A draw of 2**64-1 is rejected by below(n) for every n not a power of two: a shuffle of ``size`` items whose
    draw for position ``at`` (counted from the top, n = size - at) is that number draws again for it, as below does,
    and every later draw moves on by one."""
    top = (1 << 64) - 1
    start = (_state_before(top) - at * 0x9E3779B97F4A7C15) & top
    probe = SplitMix64(start)
    assert [probe.next() for _ in range(at + 1)][-1] == top and (size - at) & (size - at - 1)
    rng, check = SplitMix64(start), SplitMix64(start)
    assert shuffle(range(size), rng) == _shuffled_by_below(range(size), check)
    assert rng.state == check.state


if __name__ == "__main__":
    print(render_deck_order())
    print(render_vectors())


def test_the_seeded_deal_keeps_its_old_name():
    """deck.Deal is now SeededDeal (a record's stated hands are record.Deal); the old name stays importable."""
    from wnotation.model import deck

    assert deck.Deal is deck.SeededDeal and isinstance(deck.deal(3, 1), deck.SeededDeal)
