"""Shared texts and Record strategies for the tests (one HEADER for every test that needs a plain game)."""

from __future__ import annotations

import string

from hypothesis import strategies as st

from wnotation.model import catalog
from wnotation.model.record import (
    Action,
    Annotation,
    CoinsPaid,
    Deal,
    Pick,
    Purchase,
    Record,
    Seat,
    SeatResult,
    Seed,
    Tag,
    Turn,
)

HEADER = """[Format "7WN 1"]
[Edition "2e"]
[Date "2026.11.29"]
[Seat1 "Alice" "Gizah" "day"]
[Seat2 "Bob" "Babylon" "night"]
[Seat3 "Carol" "Halikarnassos" "night"]

"""

CAT = catalog.load()
CARDS = sorted({c.name for c in CAT.cards})
GUILDS = [c.name for c in CAT.guilds]
WONDERS = sorted({w.name for w in CAT.wonders})
RESOURCES = ("wood", "stone", "clay", "ore", "glass", "papyrus", "loom")
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")

text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"), max_size=12)
one_line = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=12)
keys = st.from_regex(r"[A-Za-z][A-Za-z0-9_\-]{0,6}", fullmatch=True)
annotations = st.builds(
    Annotation,
    before=st.lists(text, max_size=2).map(tuple),
    after=st.lists(text, max_size=2).map(tuple),
    glyph=st.none() | st.sampled_from(GLYPHS),
    tags=st.lists(st.tuples(keys, text), max_size=2).map(tuple),
)
maybe_annotation = st.just(Annotation()) | annotations
card_or_unknown = st.sampled_from(CARDS + ["?"])
purchases = st.builds(
    Purchase,
    left=st.lists(st.sampled_from(RESOURCES), max_size=3).map(lambda x: tuple(sorted(x))),
    right=st.lists(st.sampled_from(RESOURCES), max_size=3).map(lambda x: tuple(sorted(x))),
)
#: A purchase stated in coins (7WN 2), up to 150 to a side (more than one group's 99).
coins_paid = st.builds(CoinsPaid, left_coins=st.integers(0, 150), right_coins=st.integers(0, 150))
picks = st.builds(Pick, card=st.none() | card_or_unknown, annotation=maybe_annotation)
seat_names = st.from_regex(r"[A-Z][a-z]{1,5}( [A-Z][a-z]{0,3})?", fullmatch=True) | one_line.filter(str.strip)


@st.composite
def records(draw: st.DrawFn) -> Record:
    """Records that the notation can express: distinct seat names and Wonders, turns in order; of either format
    version, a version-2 record with purchases stated in coins too."""
    version = draw(st.sampled_from(["7WN 1", "7WN 2"]))
    stated = st.none() | purchases | coins_paid if version == "7WN 2" else st.none() | purchases
    n = draw(st.integers(3, 7))
    names = draw(st.lists(seat_names, min_size=n, max_size=n, unique_by=lambda s: " ".join(s.split()).casefold()))
    wonders = draw(st.permutations(WONDERS))[:n]
    seats = tuple(Seat(name=names[i], wonder=wonders[i], side=draw(st.sampled_from(["day", "night"])))
                  for i in range(n))

    def action(seat: int, number: int) -> Action:
        use = draw(st.sampled_from(["build", "stage", "sell"]))
        return Action(
            seat=seat,
            use=use,
            card=draw(card_or_unknown),
            purchase=draw(stated),
            discard=draw(card_or_unknown) if number == 6 and draw(st.booleans()) else None,
            pick=draw(picks) if use == "stage" and draw(st.booleans()) else None,
            annotation=draw(maybe_annotation),
        )

    turns = []
    count = draw(st.integers(0, 8))
    age, number = 1, 1
    for _ in range(count):
        if number == 7:
            seats_7 = sorted(draw(st.sets(st.integers(1, n), min_size=1, max_size=2)))
            actions = tuple(action(s, 7) for s in seats_7)
        else:
            actions = tuple(action(s, number) for s in range(1, n + 1))
        turns.append(Turn(age=age, number=number, actions=actions, annotation=draw(maybe_annotation)))
        if number == 6 and draw(st.booleans()):
            number = 7
        elif number >= 6:
            if age == 3:
                break
            age, number = age + 1, 1
        else:
            number += 1
    alphabet = string.ascii_letters + string.digits + " .,:'-"
    results = tuple(
        SeatResult(seat=s, **{f: draw(st.none() | st.integers(-20, 200)) for f in
                              ("military", "treasury", "wonder", "total", "coins", "rank")})
        for s in sorted(draw(st.sets(st.integers(1, n), max_size=n)))
    )
    return Record(
        format=version,
        date=draw(st.none() | st.sampled_from(["2026.11.29", "1999.??.??"])),
        seats=seats,
        tags=tuple(draw(st.lists(st.builds(Tag, name=st.sampled_from(["Event", "Site", "Round", "Note_1"]),
                                           value=st.text(alphabet, max_size=10)), max_size=3))),
        guilds=tuple(draw(st.permutations(GUILDS))[: n + 2]) if draw(st.booleans()) else None,
        seed=draw(st.none() | st.builds(Seed, algorithm=st.just("SM64-FY"), value=st.integers(0, (1 << 64) - 1))),
        deals=tuple(
            Deal(age=a, hands=tuple(tuple(draw(card_or_unknown) for _ in range(7)) for _ in range(n)))
            for a in sorted(draw(st.sets(st.integers(1, 3), max_size=2)))
        ),
        turns=tuple(turns),
        results=results,
        annotation=draw(maybe_annotation),
    )
