"""``check`` reports every notation error of a game (issue 27 item 8): the reader recovers at the next line
(``wnotation.notation.reader.recovery``), the first error stays the game's error and holds all of them in
``errors``, and recovering never invents an error on a correct line."""

from __future__ import annotations

import pickle
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import wnotation
from cli_helpers import game_text
from helpers import HEADER
from wnotation.diagnostics import check_text
from wnotation.notation import NotationError, parse, read_games
from wnotation.notation.reader import recovery

EIGHT = HEADER + """I.1 Lumbr Yard | sell ? | stage ?
I.2 Lumber Yard | sell ?? | stage ?
I.3 Lumber Yard | sell ?
IV.4 Lumber Yard | sell ? | stage ?
I.5 Temple (L clai) | sell ? | stage ?
I.6 Lumber Yard, dicard Loom | sell ? | stage ?
I.7 Lumber Yard | sell ? | stage ?
II.1 Lumber Yard | Dave: sell ? | stage ?
II.2 Lumber Yard | sell ? | stage ?
"""
# code, line, column of each of the eight (the line numbers are the file's)
EIGHT_ERRORS = [("unknown-card", 8, 5), ("syntax", 9, 25), ("action-count", 10, 25), ("syntax", 11, 1),
                ("syntax", 12, 15), ("syntax", 13, 18), ("seat-prefix", 14, 5), ("unknown-seat", 15, 20)]


def _first_error(text: str, source: str = "game.7wn") -> NotationError:
    [item] = read_games(text, source=source)
    assert isinstance(item, NotationError), item
    return item


def test_a_game_with_8_typos_gives_8_errors_at_their_lines_and_columns():
    first = _first_error(EIGHT)
    assert (first.rule, first.line, first.column) == EIGHT_ERRORS[0]
    assert [(e.rule, e.line, e.column) for e in first.errors] == EIGHT_ERRORS
    lines = EIGHT.split("\n")
    for e in first.errors:
        assert e.source_line == lines[e.line - 1]
        assert e.offset == sum(len(line) + 1 for line in lines[: e.line - 1]) + e.column - 1
        assert e.errors == (e,) or e is first


def test_check_reports_the_8_errors_then_once_that_the_game_is_not_replayed():
    report = check_text(EIGHT, "game.7wn")
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert [(d.rule, d.line, d.column) for d in errors] == EIGHT_ERRORS
    assert all(d.kind == "notation" for d in errors)
    [note] = [d for d in report.diagnostics if d.severity == "note"]
    assert note.message == "this game is not replayed: its text has 8 notation errors"
    assert (note.line, note.column) == (1, 1) and report.diagnostics[-1] == note
    [game] = report.games
    assert not game.read
    data = game.to_dict()
    assert data["errors"] == 8 and data["notes"] == 1
    assert [(d["rule"], d["line"], d["column"]) for d in data["diagnostics"][:8]] == EIGHT_ERRORS


def test_the_cli_shows_every_error_in_text_and_json(tmp_path):
    path = tmp_path / "game.7wn"
    path.write_text(EIGHT, encoding="utf-8")
    from click.testing import CliRunner

    from wnotation import cli

    done = CliRunner().invoke(cli.main, ["check", str(path)])
    assert done.exit_code == 1
    shown = [tuple(m.groups()) for m in re.finditer(r"game\.7wn:(\d+):(\d+): error\[([a-z-]+)\]", done.stderr)]
    assert [(code, int(line), int(col)) for line, col, code in shown] == EIGHT_ERRORS
    assert done.stderr.count("is not replayed") == 1
    assert "8 errors" in done.stdout
    done = CliRunner().invoke(cli.main, ["check", str(path), "--json"])
    import json

    data = json.loads(done.stdout)
    assert data["summary"]["errors"] == 8


def test_the_first_error_is_still_the_one_raised_and_parse_is_unchanged():
    try:
        parse(EIGHT)
    except NotationError as exc:
        assert (exc.rule, exc.line, exc.column) == ("unknown-card", 8, 5)
        assert len(exc.errors) == 8
    else:
        raise AssertionError("parse read a broken game")


def test_errors_survive_pickling_with_the_further_ones_found():
    first = _first_error(EIGHT)
    again = pickle.loads(pickle.dumps(first))
    assert [(e.rule, e.line, e.column) for e in again.errors] == EIGHT_ERRORS


def test_header_and_line_length_errors_end_the_search():
    broken_header = EIGHT.replace('[Edition "2e"]', '[Edition "1e"]')
    assert [e.rule for e in _first_error(broken_header).errors] == ["edition"]
    long_line = EIGHT.replace("I.2 Lumber Yard |", "I.2 " + "x" * 10_001 + " |")
    assert [e.rule for e in _first_error(long_line).errors] == ["line-length"]


def test_a_variation_still_open_at_the_end_is_one_error():
    text = HEADER.replace('"7WN 1"', '"7WN 2"') + "I.1 Lumber Yard | sell ? | stage ?\n( I.1 Bob: Loom\n"
    assert [(e.rule, e.line) for e in _first_error(text).errors] == [("variation", 9)]


def test_errors_inside_variations_and_after_them_are_all_found():
    text = HEADER.replace('"7WN 1"', '"7WN 2"') + """I.1 Lumber Yard | sell ? | stage ?
( I.1 Bob: Lom
  I.2 Alice: Baths | Bob: sell ??
  I.3 Carol: Loom )
I.2 Lumber Yard | sell ? | stage ?
I.3 Lumber Yard | sel ? | stage ?
( I.3 Bob: Baths ) )
"""
    found = [(e.rule, e.line) for e in _first_error(text).errors]
    assert found == [("unknown-card", 9), ("syntax", 10), ("unknown-card", 13), ("variation", 14)]


def test_a_label_that_cannot_be_read_takes_the_one_its_place_expects():
    """``I3`` is no label: the line is tried empty, the next turn line then fails its order, and the line is
    given the label expected there, so ``I.4`` after it is no error."""
    text = HEADER + "I.1 Loom | sell ? | stage ?\nI.2 Loom | sell ? | stage ?\nI3 Loom | sell ? | stage ?\n" \
        "I.4 Loom | sell ? | stage ?\nI.5 Lom | sell ? | stage ?\n"
    assert [(e.rule, e.line) for e in _first_error(text).errors] == [("syntax", 10), ("unknown-card", 12)]


def test_the_search_is_bounded():
    many = HEADER + "".join(f"I.{1 + k % 6} Lom | sell ? | stage ?\n" for k in range(400))
    errors = _first_error(many).errors
    assert len(errors) <= recovery.MAX_ERRORS


def test_the_neutral_line_keeps_the_bracket_the_label_and_the_closers():
    assert recovery.neutral("  ( { x } I.2 Bob: Lom (L wood) ) )", 3) == \
        "( I.2 #1: sell ? | #2: sell ? | #3: sell ? ) )"
    assert recovery.neutral("I.2 Temple (L clai) | sell ? | stage ? // ! { a ) }", 3) == \
        "I.2 #1: sell ? | #2: sell ? | #3: sell ?"
    assert recovery.neutral("result Dave: total 3", 3) == ""
    assert recovery.neutral("I.2 Loom | sell ? { a comment that goes on", 3) is None


# --- the property: k typos at k lines give exactly k errors, at those lines -------------------------------------

TYPOS = {
    "card": lambda line: re.sub(r"^(\S+) [^|]*", r"\1 Lumbr Yard", line, count=1),
    "extra action": lambda line: line + " | sell ?",
    "action missing": lambda line: line.rsplit(" | ", 1)[0],
    "label": lambda line: line.replace(".", ".0", 1),
    "glyph": lambda line: line.replace(" | ", " | sell ?? | ", 1),
    "clause": lambda line: line.replace(" | ", ", dicard Loom | ", 1),
    "purchase": lambda line: line.replace(" | ", " (L clai) | ", 1),
}
PLAIN_TURN = re.compile(r"(?:III|II|I)\.[1-6] ")


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 7), st.integers(1, 50), st.data())
def test_k_typos_at_random_lines_give_exactly_k_errors_at_those_lines(players, seed, data):
    lines = game_text(players, seed).split("\n")
    turns = [k for k, line in enumerate(lines) if PLAIN_TURN.match(line)]
    chosen = data.draw(st.lists(st.sampled_from(turns), min_size=1, max_size=8, unique=True))
    for k in chosen:
        kind = data.draw(st.sampled_from(sorted(TYPOS)))
        lines[k] = TYPOS[kind](lines[k])
    first = _first_error("\n".join(lines))
    assert sorted(e.line for e in first.errors) == sorted(k + 1 for k in chosen)


def test_a_correct_game_has_no_error_to_recover_from():
    assert wnotation.check(game_text(5, 3)).ok


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 3),
       st.text(alphabet="|,{}[]%()?!:#/\"\\ \n-LRabc.I7", max_size=6), st.integers(0, 10_000))
def test_the_errors_of_any_mutated_game_are_found_cleanly(position, cut, insert, second):
    """Whatever the text, the search raises nothing but finds errors one per line, the first among them."""
    text = game_text(4, 3).replace("[Format \"7WN 1\"]", "[Format \"7WN 2\"]", 1)
    position %= len(text)
    second %= len(text)
    text = text[:position] + insert + text[position + cut :]
    text = text[:second] + insert[::-1] + text[second:]
    original = text.split("\n")
    for item in read_games(text):
        if not isinstance(item, NotationError):
            continue
        errors = item.errors
        assert item in errors
        lines = [e.line for e in errors]
        assert lines == sorted(lines) and len(set(lines)) == len(lines)
        for e in errors:
            if e is not item:
                assert e.source_line == original[e.line - 1]


def test_worker_processes_report_the_same_errors(tmp_path):
    """``check --jobs 2`` finds the further errors in its workers and reports what one process does."""
    from click.testing import CliRunner

    from wnotation import cli

    for name in ("a.7wn", "b.7wn"):
        (tmp_path / name).write_text(EIGHT, encoding="utf-8")
    one = CliRunner().invoke(cli.main, ["check", str(tmp_path)])
    two = CliRunner().invoke(cli.main, ["check", "--jobs", "2", str(tmp_path)])
    assert one.exit_code == two.exit_code == 1
    assert one.stderr == two.stderr and one.stdout == two.stdout
    assert "16 errors" in two.stdout


def test_a_syntax_error_carries_no_lark_exception_as_its_context():
    """Dask's workers install tblib, which pickles an exception's whole chain: an error whose __context__ was Lark's
    (it holds the parser) could not be sent back from a worker (seen in the suite after the cluster tests)."""
    from lark.exceptions import LarkError

    def chain(error):
        while error is not None:
            yield error
            error = error.__cause__ or error.__context__

    first = _first_error(EIGHT)
    assert not [c for e in first.errors for c in chain(e) if isinstance(c, LarkError)]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(st.sampled_from("ab \t{"), max_size=4), min_size=1, max_size=300),
       st.dictionaries(st.integers(0, 299), st.text(st.sampled_from("xy "), max_size=5), max_size=4))
def test_recovery_lines_are_the_split_lines(lines, changes):
    """The recovery's lines of a text (held once, sliced by offset) are ``text.split("\\n")``: each line, where it
    starts, the first lines, and the text with some lines replaced and its length."""
    text = "\n".join(lines)
    held = recovery._Lines(text)
    assert held.count == len(lines)
    for k in {0, len(lines) - 1, *range(0, len(lines), 7), *(k % len(lines) for k in changes)}:
        assert held.line(k) == lines[k]
        assert held.start(k) == sum(len(line) + 1 for line in lines[:k])
    assert list(held.first(len(lines) + 2)) == lines and list(held.first(3)) == lines[:3]
    replaced = {k % len(lines): line for k, line in changes.items()}
    current = [replaced.get(k, line) for k, line in enumerate(lines)]
    assert held.joined(replaced) == "\n".join(current)
    assert held.joined_length(replaced) == len("\n".join(current))


def test_recovery_lines_of_many_strides():
    lines = [f"{k} " * (k % 5) for k in range(1000)]
    held = recovery._Lines("\n".join(lines))
    assert [held.line(k) for k in (999, 0, 64, 63, 640, 129)] == [lines[k] for k in (999, 0, 64, 63, 640, 129)]
    assert all(held.line(k) == line for k, line in enumerate(lines))


def _in_header_by_lines(text: str, start: int) -> bool:
    """Whether no line of ``text[:start]`` is a body line, by splitting its lines (what the diagnosis did)."""
    for line in text[:start].split("\n"):
        s = line.strip()
        if s and not s.startswith("[") and not s.startswith('"'):
            return False
    return True


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from(' \t\n\r\x0b\x85\u2028["{}x\\'), max_size=40), st.integers(0, 45))
def test_the_diagnosis_finds_body_lines_as_a_split_of_its_lines_does(text, upto):
    """The diagnosis of a syntax error tells the header from the body by a search in the text, not a list of its
    lines: the same answer as the split, on any text (blanks of every kind, tags, strings, comments)."""
    from wnotation.notation import diagnose

    start, in_header = diagnose._logical_lines(text, min(upto, len(text)))
    assert in_header == _in_header_by_lines(text, start)
