"""Every example of spec/7wn.md runs: ```7wn texts read, ```7wn-body lines read after the example header,
```7wn-error blocks are refused with the message shown in the ```text block after them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wnotation.notation import NotationError, parse_many, write

SPEC = (Path(__file__).resolve().parents[1] / "spec" / "7wn.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\S*)( [^\n]*)?\n(.*?)```", SPEC, re.S)
SPEC_HEADER = next(text for kind, attrs, text in BLOCKS if "example-header" in (attrs or ""))


def _examples(kind: str) -> list[tuple[str, str | None]]:
    out = []
    for i, (k, _, text) in enumerate(BLOCKS):
        if k == kind:
            following = BLOCKS[i + 1] if i + 1 < len(BLOCKS) else None
            shown = following[2].splitlines()[0] if following and following[0] == "text" else None
            out.append((text, shown))
    return out


def test_the_spec_has_examples_of_each_kind():
    assert len(_examples("7wn")) >= 4 and len(_examples("7wn-body")) >= 5 and len(_examples("7wn-error")) >= 3


@pytest.mark.parametrize("text", [t for t, _ in _examples("7wn")])
def test_complete_examples_read_and_round_trip(text):
    for record in parse_many(text):
        assert parse_many(write(record)) == [record]


@pytest.mark.parametrize("text", [t for t, _ in _examples("7wn-body")])
def test_body_examples_read(text):
    assert parse_many(SPEC_HEADER + "\n" + text)


@pytest.mark.parametrize("text, shown", _examples("7wn-error"))
def test_error_examples_are_refused_as_shown(text, shown):
    with pytest.raises(NotationError) as info:
        parse_many(SPEC_HEADER + "\n" + text, source="example.7wn")
    e = info.value
    offset = SPEC_HEADER.count("\n") + 1
    first = str(e).splitlines()[0].replace(f"example.7wn:{e.line}:", f"example.7wn:{e.line - offset}:", 1)
    assert first == shown


def test_the_complete_game_replays_without_findings():
    replay = pytest.importorskip("wnotation.engine.replay")
    game = _examples("7wn")[-1][0]
    (record,) = parse_many(game)
    assert len(record.turns) == 20 and record.results
    assert replay.replay(record).findings == ()


# --- every example is a legal record ------------------------------------------------------------------------

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _legal_examples() -> list[tuple[str, str]]:
    """``(where, text)`` of every 7WN example that is not an error example: the spec's ```7wn blocks, its
    ```7wn-body blocks after the example header (but ```7wn-body fragment: lines out of their game), and the
    README's ```7wn blocks."""
    out = []
    for kind in ("7wn", "7wn-body"):
        blocks = [(attrs, text) for k, attrs, text in BLOCKS if k == kind]
        out += [(f"spec {kind} block {i}", text if kind == "7wn" else SPEC_HEADER + "\n" + text)
                for i, (attrs, text) in enumerate(blocks, 1) if "fragment" not in attrs]
    readme = re.findall(r"^```7wn\n(.*?)^```$", README, flags=re.M | re.S)
    out += [(f"README 7wn block {i}", text) for i, text in enumerate(readme, 1)]
    return out


@pytest.mark.parametrize("where, text", _legal_examples(), ids=[w for w, _ in _legal_examples()])
def test_every_example_is_a_legal_record(where, text):
    """The spec's first example and its extra-turn example failed ``wnotation check``; an example that is meant
    to be refused is a ```7wn-error block."""
    replay = pytest.importorskip("wnotation.engine.replay")
    for record in parse_many(text):
        errors = [str(f) for f in replay.replay(record).findings if f.severity == "error"]
        assert errors == [], where


# --- keyword case (section 2) -------------------------------------------------------------------------------

#: Where each keyword stands in a game read after the example header ({} marks it).
_KEYWORD_PLACES = {
    "sell": "I.1 Lumber Yard | {} ? | stage ?", "stage": "I.1 Lumber Yard | sell ? | {} ?",
    "discard": "I.1 Lumber Yard, {} Loom | sell ? | stage ?", "pick": "I.1 Lumber Yard, {} Loom | sell ? | stage ?",
    "game": "{} !", "result": "I.1 Lumber Yard | sell ? | stage ?\n{} Alice: total 3",
    "I": "{}.1 Lumber Yard | sell ? | stage ?", "left": "I.1 Temple ({} clay) | sell ? | stage ?",
    "right": "I.1 Temple ({} clay) | sell ? | stage ?", "L": "I.1 Temple ({} clay) | sell ? | stage ?",
    "R": "I.1 Temple ({} clay) | sell ? | stage ?",
    **{r: "I.1 Temple (L {}) | sell ? | stage ?" for r in ("wood", "stone", "clay", "ore", "glass", "papyrus", "loom")},
    **{c: "I.1 Lumber Yard | sell ? | stage ?\nresult Alice: {} 3"
       for c in ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total", "coins",
                 "rank")},
}
#: The four non-ASCII characters that match an ASCII letter of a keyword (section 2), and nothing else does.
_EXTRA = {"ſ": "s", "\u212a": "k", "İ": "i", "ı": "i"}


def _look_alikes(letters: set[str]) -> dict[str, list[str]]:
    """For each lower-case ASCII letter, the characters that might pass for it: its two ASCII cases and every
    non-ASCII character whose lower, upper or case-folded form holds it (``ſ``, ``ß``, ``ﬁ``, ``K``, ``ẚ``, …)."""
    out = {x: [x, x.upper()] for x in letters}
    for code in range(128, 0x110000):
        c = chr(code)
        forms = c.casefold() + c.lower() + c.upper().lower()
        for x in letters & set(forms):
            out[x].append(c)
    return out


def test_keyword_case_is_ascii_and_exactly_four_other_letters():
    """Section 2: each keyword letter in either ASCII case, or ſ (s), K (k), İ and ı (i); no other character
    (no ß for ss, no ﬁ for fi, no fullwidth letters), and a keyword read so is the keyword."""
    from wnotation.notation import parse

    candidates = _look_alikes(set("".join(_KEYWORD_PLACES).lower()))
    for keyword, place in _KEYWORD_PLACES.items():
        plain = parse(SPEC_HEADER + "\n" + place.format(keyword.lower()))
        for i, letter in enumerate(keyword):
            for c in candidates[letter.lower()] + ["\uff41"]:  # fullwidth a, never a keyword letter
                written = keyword[:i] + c + keyword[i + 1:]
                should = c.isascii() and c.lower() == letter.lower() or _EXTRA.get(c) == letter.lower()
                try:
                    record = parse(SPEC_HEADER + "\n" + place.format(written))
                except NotationError:
                    assert not should, written
                else:
                    assert should, written
                    assert record.turns == plain.turns and record.results == plain.results and (
                        record.annotation == plain.annotation), written


# --- comment padding and where annotations attach (sections 8.1, 8.3) ----------------------------------------


def _section(number: str) -> str:
    return SPEC.split(f"\n### {number} ", 1)[1].split("\n### ", 1)[0]


def _rows(text: str, heading: str) -> list[list[str]]:
    start = text.index(heading)
    end = text.find("\n\n", start)
    return [[c.strip() for c in line.strip().strip("|").split(" | ")]
            for line in text[start : end if end >= 0 else None].splitlines()[2:]]


def test_comment_and_tag_texts_are_what_8_1_says():
    """Each row: the annotation as written, its text (or [key, value]) as JSON, and how a writer writes it."""
    import json

    rows = _rows(_section("8.1"), "| written | text or")
    assert len(rows) >= 15
    for written, value, canonical in rows:
        written, canonical = written.strip("`"), canonical.strip("`")
        record = parse_many(SPEC_HEADER + "\n" + written + "\nI.1 Lumber Yard | sell ? | stage ?\n")[0]
        annotation = record.turns[0].annotation
        expected = json.loads(value.strip("`"))
        if written.startswith("{"):
            assert annotation.before == (expected,), written
        else:
            assert annotation.tags == (tuple(expected),), written
        line = write(record).split("\n\n", 1)[1].splitlines()
        shown = line[0] if written.startswith("{") else line[-1].split(" // ", 1)[1]
        assert shown == canonical, written


def test_an_annotation_after_a_pick_belongs_to_the_pick_even_before_a_discard_clause():
    (text,) = [t for k, _, t in BLOCKS if k == "7wn-body" and "pick Workshop { from the pile }, discard" in t]
    (record,) = parse_many(SPEC_HEADER + "\n" + text)
    action = record.turns[5].actions[2]
    assert action.pick.card == "Workshop" and action.pick.annotation.after == ("from the pile",)
    assert action.discard == "West Trading Post" and action.annotation.after == ("unused",)
    assert ("I.6 Scriptorium, discard Marketplace | Stockade | stage Timber Yard, discard West Trading Post "
            "{ unused }, pick Workshop { from the pile }") in write(record).splitlines()


def test_sides_and_the_seed_algorithm_are_matched_as_section_2_says():
    """A Wonder side in any ASCII case with white space around it; the seed's algorithm in any ASCII case or with ſ
    for s, its two words separated by any white space; nothing else folds."""
    def header(side: str = "day", seed: str = "SM64-FY 5") -> str:
        return SPEC_HEADER.replace('"Alice" "Gizah" "day"', f'"Alice" "Gizah" "{side}"') + f'[Seed "{seed}"]\n'

    for side, read in (("DAY", "day"), (" Night ", "night"), ("a", "day"), ("B", "night"), ("\u00a0day\u3000", "day")):
        assert parse_many(header(side=side))[0].seats[0].side == read, side
    for side in ("nİght", "nıght", "ｄay", "dayy"):
        with pytest.raises(NotationError) as info:
            parse_many(header(side=side))
        assert info.value.rule == "wonder-side", side
    for seed in ("sm64-fy 5", "ſM64-FY 5", "SM64-FY\u00a05", "SM64-FY 0005"):
        assert parse_many(header(seed=seed))[0].seed.value == 5, seed
    for seed in ("ｓm64-fy 5", "SM64-FY ５", "SM64_FY 5"):
        with pytest.raises(NotationError) as info:
            parse_many(header(seed=seed))
        assert info.value.rule == "seed", seed
