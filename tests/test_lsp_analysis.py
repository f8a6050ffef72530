"""The language server's analysis without the protocol: where the diagnostics' links point, the ranges of tokens
and actions, the quick fixes that never drop a word of the record, and the game cache reusing unchanged games."""

from __future__ import annotations

import sys
from pathlib import Path

from wnotation.engine import rulebook
from wnotation.lsp import analysis as a

ROOT = Path(__file__).resolve().parents[1]
THREE = (ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn").read_text(encoding="utf-8")


def test_every_rule_link_points_at_an_anchor_the_docs_generate():
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        import wnotation_docs
    finally:
        sys.path.pop(0)
    page = wnotation_docs.rules_page()
    for rule in rulebook.RULES:
        href = a.docs_href(rule.id, "https://site")
        assert href == f"https://site/rules.html#rule-{rule.id.lower()}"
        assert f"(rule-{rule.id.lower()})=" in page
    assert a.docs_href("unknown-card", "https://site/") == "https://site/spec/7wn.html#122-the-codes"
    assert wnotation_docs.slug("12.2 The codes") == "122-the-codes"
    assert "\n### 12.2 The codes\n" in (ROOT / "spec" / "7wn.md").read_text(encoding="utf-8")


def test_the_source_tree_links_to_its_built_site():
    from wnotation.lsp.server import default_docs

    assert default_docs() == (ROOT / "docs" / "_build" / "html").as_uri()


def test_ranges_cover_a_name_a_quoted_value_and_an_action():
    line = 'I.3 sell Marketplace (L wood) ! { a | b } | Loom'
    assert line[4:a.token_end(line, 4)] == "sell Marketplace"
    assert line[4:a.action_end(line, 4)] == "sell Marketplace (L wood) ! { a | b }"
    tag = '[Seat1 "Marta" "Babylon" "day"]'
    assert tag[7:a.token_end(tag, 7)] == '"Marta"'


def _fixes(text: str) -> list[a.Fix]:
    doc = a.analyse(text, a.GameCache())
    found = doc.diagnostics()
    return a.code_fixes(doc, 0, len(doc.lines), found)


def test_a_missing_bar_is_inserted_never_a_card_dropped():
    lines = THREE.split("\n")
    row = next(k for k, line in enumerate(lines) if line.startswith("I.3 "))
    lines[row] = lines[row].replace("Loom | ", "Loom ")
    [fix] = [f for f in _fixes("\n".join(lines)) if f.kind == "quickfix"]
    assert fix.title == "insert '|' between Loom and Lumber Yard"
    lines[row] = lines[row].replace("Loom ", "Lomo ")  # a typo and a missing bar: the suggestion would drop a card
    assert [f for f in _fixes("\n".join(lines)) if f.kind == "quickfix"] == []


def test_an_unchanged_game_is_not_checked_again():
    cache = a.GameCache()
    text = THREE + "\n" + THREE.replace("Marta", "Maria")
    a.analyse(text, cache).diagnostics()
    before = cache.misses
    edited = text.replace("Maria", "Mario")
    a.analyse(edited, cache).diagnostics()
    assert cache.misses == before + 1 and cache.hits >= 1
