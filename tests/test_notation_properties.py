"""Property tests of the notation: any text reads or fails cleanly, grammar-generated documents too, Records
round-trip through text and JSON, the grammar builds strictly, and the decoders match the grammar's terminals."""

from __future__ import annotations

import re
from pathlib import Path

import lark
import lark.exceptions
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from helpers import HEADER, records
from wnotation.notation import NotationError, from_json, json_schema, parse, to_json, write
from wnotation.notation import grammar, lexical
from wnotation.notation.reader import fast_route
from wnotation.model.record import Record

GAME = HEADER + """game { g }
I.1 Lumber Yard (L clay) ! { c } | sell ? ? | stage ?, pick Altar
I.2 Temple | Baths | Altar // !? [%k v]
result Alice: total 3
"""
UNCACHED = grammar.build(cache_=False)  # hypothesis.extra.lark needs the analysed grammar, not the cache
FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def _reads_or_fails_cleanly(text: str) -> None:
    try:
        assert isinstance(parse(text), Record)
    except NotationError as error:
        assert error.line >= 1 and error.column >= 1 and error.message


@FAST
@given(st.text())
def test_any_text_reads_or_fails_cleanly(text):
    _reads_or_fails_cleanly(text)
    _reads_or_fails_cleanly(HEADER + text)


@FAST
@given(st.integers(0, len(GAME)), st.integers(0, 3), st.text(alphabet="|,{}[]%()?!:#/\"\\ \n-LRabc.I7", max_size=4))
def test_mutated_games_read_or_fail_cleanly(position, cut, insert):
    _reads_or_fails_cleanly(GAME[:position] + insert + GAME[position + cut :])


# A label's terminal looks ahead (a blank or the line end follows it, spec 6), which hypothesis's generator of a
# terminal alone cannot see: its labels are drawn with the blank that follows them.
LABELS = st.from_regex(r"(?i:III|II|I)\.[1-7][ \t]", fullmatch=True)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(from_lark(UNCACHED, explicit={"LABEL": LABELS}))
def test_grammar_documents_read_or_fail_cleanly(text):
    UNCACHED.parse(text)
    try:
        parse(text, source="<generated>")
    except NotationError as error:
        assert error.line >= 1


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(records())
def test_records_round_trip_through_text(record):
    text = write(record)
    again = parse(text)
    assert again == record
    assert write(again) == text


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(records())
def test_records_round_trip_through_json(record):
    assert from_json(to_json(record)) == record
    assert from_json(to_json(parse(write(record)))) == record


def test_json_has_no_spans_and_a_schema():
    record = parse(GAME)
    assert "span" not in to_json(record) and "offset" not in to_json(record)
    schema = json_schema()
    assert schema["title"] == "Record" and "turns" in schema["properties"]
    with pytest.raises(ValueError):
        from_json('{"seats": []}')


def test_grammar_builds_in_strict_mode():
    pytest.importorskip("interegular")
    grammar.build(strict=True, cache_=False)


PIECES = ["Lumber Yard", "Altar", " | ", "|", "sell ", "stage ", "?", " ?", "!", "?!", " (L clay)", "(R 2 wood, l ore)",
          "()", ", discard Altar", ", discard ?", ", pick -", ", pick Temple !", ", pick", "Bob: ", "#2:", " ", ":",
          "military 3", " total -4", "x", "{c}", "[%k v]", "\"", "\\"]
fragments = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)


def _grammar_run(text):
    """Whether the grammar reads ``text`` after a turn label as actions only (no annotation, no ``//``, no ``)``)."""
    try:
        tree = grammar.tree_parser().parse(f'[Format "7WN 2"]\nI.1 {text}\n')
    except lark.exceptions.UnexpectedInput:
        return False
    (turn,) = tree.find_data("turn")
    return all(isinstance(c, lark.Tree) or c.type in ("LABEL", "BAR") for c in turn.children) and not any(
        tok.type in ("COMMENT", "ATAG") for tok in turn.scan_values(lambda v: isinstance(v, lark.Token)))


SAMPLE_RUNS = ("Lumber Yard | sell ? ? | stage ?(L clay) !, discard ?, pick Altar ?", ", pick ? ! | Bob: Altar",
               "Temple (left 2 clay glass, R wood)!", "#3: total 4 rank -1", "sell ??", "stage ?!", "sell ?",
               "Bob: stage ? , pick - !", "Altar (L 2 coins, r 0 coin)", "Altar (L 2 coins, R wood)", "Altar (L woodclay)",
               "Altar (L wood2 clay)", "Altar (L 2wood)", "? !", "?!", "Altar, discardAltar", "Altar, pickAltar",
               "Anna Maria: Altar", "Bob: (L wood)", "sell", "sell (L wood)", "Altar, discard ? !", "- !")


def test_the_fast_routes_run_is_the_grammars_action_rules():
    """RUN, the pattern of a plain run of actions, accepts what the grammar's ``action`` rules accept (spec 7, 7.3,
    7.4, 13), matched once, in an atomic group, as a lexer cuts a token ("sell ??" is "sell ?" and a stray "?");
    the fast route's cut (each piece between bars decoded by PIECE_RE's first match, to its end) accepts the same
    runs. The route-equality tests hold the Records they give equal."""
    ours = re.compile(rf"(?>{lexical.TERMINALS['RUN']})")

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(fragments)
    def agree(text):
        text = text.strip(" \t")
        assert bool(ours.fullmatch(text)) == _grammar_run(text) == fast_route.plain_run(text), text

    agree()
    for text in SAMPLE_RUNS:
        assert bool(ours.fullmatch(text)) == _grammar_run(text) == fast_route.plain_run(text), text
    assert [_grammar_run(t) for t in ("sell ??", "?!", "Altar (L woodclay)", "Altar (L 2 coins, R wood)")] == [False] * 4


@pytest.mark.parametrize("name", sorted(set(lexical.TERMINALS) - {"RUN"}))
def test_decoders_accept_exactly_the_grammar_terminals(name):
    ours = re.compile(lexical.TERMINALS[name])
    theirs = re.compile(grammar.tree_parser().get_terminal(name).pattern.to_regexp())

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(fragments)
    def agree(text):
        assert bool(ours.fullmatch(text)) == bool(theirs.fullmatch(text))

    agree()
    for text in ("Lumber Yard | sell ? ? | stage ?(L clay) !, discard ?, pick Altar ?", ", pick ? ! | Bob: Altar",
                 "Temple (left 2 clay glass, R wood)!", "#3: total 4 rank -1", "sell ??", "stage ?!"):
        assert bool(ours.fullmatch(text)) == bool(theirs.fullmatch(text))


@pytest.mark.parametrize(
    "line",
    [
        "I.1 " + "Lumber " * 3000,
        "I.1 " + "a" * 20000,
        "I.1 Temple (" + "L clay, " * 2000,
        "I.1 " + "x:" * 5000,
        "I.1 Temple " + "{" * 5000,
        "result " + "Al " * 5000,
    ],
)
def test_pathological_lines_are_refused(line):
    """How long they take is measured in benchmarks/bench_timings.py, not asserted here."""
    with pytest.raises(NotationError):
        parse(HEADER + line + "\n")


def test_the_spec_states_the_grammars_action_rules():
    """Spec 13 quotes the structure of an action: each rule it states is a rule of grammar/7wn.lark, and the
    grammar's action rules are all stated there (issue 30 item 4)."""
    root = Path(__file__).resolve().parents[1]
    spec = (root / "spec" / "7wn.md").read_text(encoding="utf-8")
    section = spec[spec.index("## 13. Grammar"):spec.index("## 14. JSON")]
    block = section[section.index("```\n") + 4:section.index("\n```", section.index("```\n"))]
    stated = set(re.findall(r"(?:^|\s)([a-z]+):\s", block))
    rules = set(re.findall(r"^([a-z]+):", grammar.grammar_text(), re.M))
    assert {"action", "clause", "purchase", "group", "unit", "paid"} <= stated
    assert stated <= rules, stated - rules
