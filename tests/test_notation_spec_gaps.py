"""Where the spec left an independent implementation guessing (issue 27 items 16-21): each decided, stated in
spec/ and held by the reader. The refusal cases themselves are in spec/7wn.md section 12 (test_spec_errors)."""

from __future__ import annotations

import pytest

from helpers import HEADER
from wnotation.notation import NotationError, parse, write

V2 = HEADER.replace('"7WN 1"', '"7WN 2"')
BODY_LINE = HEADER.count("\n") + 1


def _error(text: str, route: str = "auto") -> NotationError:
    with pytest.raises(NotationError) as info:
        parse(text, route=route)
    return info.value


# --- 16: the word after a label ---------------------------------------------------------------------------------

@pytest.mark.parametrize("route", ["auto", "lark"])
@pytest.mark.parametrize("line", ["I.1Lumber Yard | sell ? | stage ?", "I.1? | sell ? | stage ?",
                                  "I.1{ c } Lumber Yard | sell ? | stage ?", "i.1lumber yard | sell ? | stage ?"])
def test_a_label_needs_a_blank_after_it(line, route):
    error = _error(HEADER + line + "\n", route)
    assert (error.rule, error.line, error.column) == ("syntax", BODY_LINE, 1)
    assert "a blank is required after the turn label" in error.message


def test_a_label_glued_to_its_action_after_a_variations_bracket_is_refused_at_the_label():
    error = _error(V2 + "I.1 Lumber Yard | sell ? | stage ?\n( I.1Bob: Loom )\n")
    assert (error.rule, error.line, error.column) == ("syntax", BODY_LINE + 1, 3)


@pytest.mark.parametrize("blank", [" ", "\t", "   "])
def test_any_blank_after_a_label_reads(blank):
    record = parse(HEADER + f"I.1{blank}Lumber Yard | sell ? | stage ?\n")
    assert write(record).splitlines()[-1] == "I.1 Lumber Yard | sell ? | stage ?"


def test_a_glued_label_on_the_next_line_comes_before_the_checks_of_the_line_before():
    """Reading one token ahead (12.1): the next line does not start with a label, so its syntax error is met
    before the unknown card of the line before; ``I.10`` starts with a label and comes after it."""
    glued = _error(HEADER + "I.1 Lumbr Yard | sell ? | stage ?\nI.2Lumber Yard | sell ? | stage ?\n")
    assert (glued.rule, glued.line) == ("syntax", BODY_LINE + 1)
    longer = _error(HEADER + "I.1 Lumbr Yard | sell ? | stage ?\nI.10 Lumber Yard | sell ? | stage ?\n")
    assert (longer.rule, longer.line) == ("unknown-card", BODY_LINE)


# --- 17: where a seat number and a count of resources are reported (12.3 refinements 6 and 7) ------------------

@pytest.mark.parametrize("action", ["#8: Lumber Yard", "#0: Lumber Yard", "#12: Lumber Yard", "# 1: Lumber Yard",
                                    "#1 Lumber Yard", "#: Lumber Yard"])
def test_an_action_starting_with_a_hash_but_no_seat_prefix_is_refused_at_the_hash(action):
    error = _error(HEADER + f"I.1 {action} | sell ? | stage ?\n")
    assert (error.rule, error.line, error.column) == ("syntax", BODY_LINE, 5)


@pytest.mark.parametrize("seat, column", [("#8", 8), ("#0", 8), ("# 1", 8), ("#12", 10)])
def test_a_result_lines_hash_seat(seat, column):
    error = _error(HEADER + f"I.1 Loom | sell ? | stage ?\nresult {seat}: total 3\n")
    assert (error.rule, error.line, error.column) == ("syntax", BODY_LINE + 1, column)


@pytest.mark.parametrize("purchase, column", [("(L 0 wood)", 13), ("(L 05 wood)", 13), ("(L 0wood)", 13),
                                              ("(L 0)", 13), ("(R wood, L 0 clay)", 21), ("(L 100 wood)", 15),
                                              ("(L 2 coins, R 0 wood)", 26), ("(L 00 coins)", 14)])
def test_a_count_starting_with_0_in_the_first_group_is_refused_at_the_0(purchase, column):
    error = _error(V2 + f"I.1 Loom {purchase} | sell ? | stage ?\n")
    assert (error.rule, error.line, error.column) == ("syntax", BODY_LINE, column)


# --- 18: a blank after the keyword of a clause ------------------------------------------------------------------

@pytest.mark.parametrize("route", ["auto", "lark"])
@pytest.mark.parametrize("clause, column, words", [(", pickAltar", 18, "a blank is required after 'pick'"),
                                                   (", PICKAltar", 18, "a blank is required after 'pick'"),
                                                   (", pick{ c } Altar", 22, "expected a space"),
                                                   (", discardLoom", 18, "a blank is required after 'discard'")])
def test_a_clause_keyword_needs_a_blank_after_it(clause, column, words, route):
    error = _error(HEADER + f"I.1 stage Altar{clause} | sell ? | sell ?\n", route)
    assert (error.rule, error.line, error.column) == ("syntax", BODY_LINE, column)
    assert words in error.message


@pytest.mark.parametrize("clause", [", pick Altar", ",pick Altar", " , pick { c } Altar", ", pick {c}Altar",
                                    ", pick -", ", pick ? !"])
def test_a_clause_keyword_with_its_blank_reads(clause):
    record = parse(HEADER + f"I.1 stage Altar{clause} | sell ? | sell ?\n")
    assert record.turns[0].actions[0].pick is not None


# --- 20: white space around and between the words of a Seed -----------------------------------------------------

def _with_seed(value: str) -> str:
    return HEADER.replace("\n\n", f"\n[Seed {value}]\n\n", 1) + "I.1 Loom | sell ? | stage ?\n"


@pytest.mark.parametrize("value", ['"SM64-FY 5"', '" SM64-FY 5"', '"SM64-FY 5 "', '"SM64-FY   5"', '"SM64-FY\t5"',
                                   '"\u00a0SM64-FY\u30005\u2003"', '"sm64-fy 005"'])
def test_white_space_around_and_between_the_seeds_words_is_read(value):
    record = parse(_with_seed(value))
    assert (record.seed.algorithm, record.seed.value) == ("SM64-FY", 5)
    assert '[Seed "SM64-FY 5"]' in write(record)


@pytest.mark.parametrize("value, column", [('"SM64-FY 18446744073709551616"', 15),
                                           ('" SM64-FY 18446744073709551616"', 16),
                                           ('"   SM64-FY  18446744073709551616 "', 18)])
def test_a_seed_of_2_to_the_64_is_refused_just_past_the_algorithms_word(value, column):
    error = _error(_with_seed(value))
    assert (error.rule, error.column) == ("seed", column)
    assert error.source_line[column - 2 : column - 1] == "Y"


# --- 21: JSON white space and escaping are not normative (spec 14) ----------------------------------------------

def test_json_documents_equal_in_value_are_the_same_games():
    import json

    from cli_helpers import game_text

    from wnotation.notation import records_from_json, to_json

    record = parse(game_text())
    reference = to_json(record)
    data = json.loads(reference)
    spellings = [
        json.dumps(data, separators=(",", ":")),  # no white space
        json.dumps(data, indent="\t", ensure_ascii=True).replace('"Lumber Yard"', '"Lumber\\u0020Yard"'),
        json.dumps({k: data[k] for k in reversed(list(data))}, indent=7),  # members in another order
        " \n\t" + json.dumps(data).replace("/", "\\/") + "\r\n ",
    ]
    for text in spellings:
        assert records_from_json(text) == [record]


def test_the_references_json_escapes_only_what_json_requires():
    from wnotation.notation import to_json

    record = parse(HEADER.replace('"Alice"', '"Ålice"') + "I.1 Loom { a\x07b\x1bc \u2028 \U0001F600 / \"q\" \\ } | sell ? "
                   "| sell ?\n")
    text = to_json(record)
    assert '"a\\u0007b\\u001bc \u2028 \U0001F600 / \\"q\\" \\\\' in text and '"Ålice"' in text
    assert text.startswith('{\n  "format": "7WN 1",\n')


def test_a_json_document_with_a_byte_order_mark_is_refused():
    from cli_helpers import game_text

    from wnotation.notation import records_from_json, to_json

    with pytest.raises(ValueError, match="not JSON"):
        records_from_json("\ufeff" + to_json(parse(game_text())))
