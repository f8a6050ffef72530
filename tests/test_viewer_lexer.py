"""The 7WN Pygments lexer: every token of every bundled record classified (no plain text, no Error token), the
text given back whole, and the lexer found by Pygments through the ``pygments.lexers`` entry point."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.token import Error, Text, Token, Whitespace

from wnotation.engine.bot import play_game
from wnotation.notation import read_games, write
from wnotation.model.record import Record
from wnotation.viewer.lexer import SevenWNLexer, tokens

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "replays").glob("*.7wn")) + sorted((ROOT / "spec" / "cases").glob("*.7wn"))


def lex(text: str) -> list[tuple[object, str]]:
    return [(k, v) for k, v in SevenWNLexer(stripnl=False, ensurenl=False).get_tokens(text) if v]


def assert_classified(text: str) -> None:
    found = lex(text)
    assert "".join(v for _, v in found) == text
    errors = [(k, v) for k, v in found if k in Error]
    assert not errors, errors[:5]
    plain = [(k, v) for k, v in found if (k is Token or k in Text) and k not in Whitespace and v.strip()]
    assert not plain, plain[:5]


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_bundled_record_is_classified_without_error_tokens(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert_classified(text)
    if all(isinstance(g, Record) for g in read_games(text)):
        assert_classified("".join(write(g) for g in read_games(text) if isinstance(g, Record)))


def test_the_parts_of_a_record_get_their_token_types() -> None:
    text = (ROOT / "replays" / "partial-4p-niamh.7wn").read_text(encoding="utf-8")
    kinds = {}
    for k, v in lex(text):
        kinds.setdefault(v.strip(), set()).add(k)
    assert Token.Name.Tag in kinds["Seat1"]
    assert Token.Name.Label in kinds["I.1"]
    assert Token.Name.Entity in kinds["Baths"]
    assert Token.Keyword in kinds["stage"] and Token.Keyword in kinds["sell"]
    assert Token.Keyword.Constant in kinds["?"]  # the unknown card
    assert Token.Operator in kinds["!?"]  # a glyph
    assert Token.Name.Decorator in kinds["[%players 4]"]
    assert any(k in Token.Comment for v, ks in kinds.items() if v.startswith("{ Recorded") for k in ks)
    assert Token.Keyword.Declaration in kinds["result"]


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 7), st.integers(0, 2**32), st.sampled_from(["random", "greedy"]))
def test_generated_games_are_classified(players: int, seed: int, bot: str) -> None:
    assert_classified(write(play_game(players, seed, bot)))


def test_an_invalid_line_gives_error_tokens_rather_than_failing() -> None:
    found = lex("[Format \"7WN 1\"]\n§§ not 7WN\n")
    assert any(k in Error for k, _ in found)
    assert "".join(v for _, v in found) == "[Format \"7WN 1\"]\n§§ not 7WN\n"


def test_tokens_merge_neighbours_and_use_pygments_short_names() -> None:
    pairs = tokens("I.1 Altar | sell Loom\n")
    assert "".join(v for _, v in pairs) == "I.1 Altar | sell Loom\n"
    assert all(a[0] != b[0] for a, b in zip(pairs, pairs[1:]))
    assert ["nl", "I.1"] in pairs and ["k", "sell"] in pairs


def test_the_entry_point_is_declared_in_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["entry-points"]["pygments.lexers"] == {"7wn": "wnotation.viewer.lexer:SevenWNLexer"}


def test_pygments_finds_the_lexer_by_name_and_file_name() -> None:
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename

    declared = [e for e in metadata.entry_points(group="pygments.lexers") if e.value.startswith("wnotation.")]
    assert declared, "the installed wnotation has no pygments.lexers entry point: reinstall (pip install -e .)"
    assert isinstance(get_lexer_by_name("7wn"), SevenWNLexer)
    assert isinstance(get_lexer_for_filename("club-night.7wn"), SevenWNLexer)


def test_rich_colours_a_record_with_the_lexer() -> None:
    from rich.console import Console
    from rich.syntax import Syntax

    def coloured(lexer: str) -> str:
        console = Console(record=True, width=100, color_system="truecolor", force_terminal=True)
        console.print(Syntax("I.1 Altar | sell Loom\n", lexer, theme="monokai"))
        return console.export_text(styles=True)

    assert "Altar" in coloured("7wn")
    assert coloured("7wn") != coloured("text")  # rich found the lexer by its alias and coloured the tokens


def test_the_documents_7wn_blocks_are_classified_but_the_error_examples() -> None:
    import re

    seen = 0
    for doc in ("README.md", "spec/7wn.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        for info, block in re.findall(r"^```(7wn[^\n]*)\n(.*?)^```$", text, flags=re.M | re.S):
            if not info.startswith("7wn-error"):
                assert_classified(block)
                seen += 1
    assert seen >= 10


def test_the_lexers_words_are_the_grammars() -> None:
    """The lexer keeps its own lists (it loads no grammar); every word of the grammar's terminals is among them
    (a word the lexer knows more colours nothing wrongly: it does not validate)."""
    import re

    from wnotation.viewer import lexer

    grammar = (ROOT / "grammar" / "7wn.lark").read_text(encoding="utf-8")

    def words(terminal: str) -> set[str]:
        body = re.search(rf"^{terminal}:(.*?)(?=^\S)", grammar, flags=re.M | re.S).group(1)
        return set(re.findall(r'"([a-z]+)"i', body))

    assert words("_CATEGORY") <= set(lexer.CATEGORY_WORDS) and len(words("_CATEGORY")) >= 10
    assert words("_RESOURCE") == set(lexer.RESOURCE_WORDS)


def _luminance(colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[k:k + 2], 16) / 255 for k in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(ink: str, paper: str) -> float:
    a, b = sorted((_luminance(ink), _luminance(paper)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_the_docs_pygments_style_reaches_4_5_to_1_for_every_token_class() -> None:
    """Issue 32 item 13: every standard token class (and each one the 7WN lexer emits), in its own colour on its
    own background or the style's, at least 4.5:1 (WCAG AA); the docs build uses this style."""
    from pygments.token import STANDARD_TYPES

    from wnotation.viewer.style import ContrastStyle

    paper = ContrastStyle.background_color.lstrip("#")
    kinds = set(STANDARD_TYPES) | {kind for kind, _ in SevenWNLexer().get_tokens(_sample())}
    worst = min((_contrast(s["color"] or "1d1d1f", s["bgcolor"] or paper), str(kind))
                for kind in kinds for s in [ContrastStyle.style_for_token(kind)])
    assert worst[0] >= 4.5, worst
    assert ContrastStyle.style_for_token(Token.Name.Entity)["color"] == "1b5e20"  # card names: 3.82:1 before
    conf = (Path(__file__).resolve().parent.parent / "docs" / "conf.py").read_text(encoding="utf-8")
    assert 'pygments_style = "wnotation.viewer.style.ContrastStyle"' in conf


def _sample() -> str:
    return (Path(__file__).resolve().parent.parent / "replays" / "variations-3p-rhodos-babylon-olympia.7wn").read_text(
        encoding="utf-8")
