"""The limits the notation states (spec 7wn.md): variations nest at most ``MAX_VARIATION_DEPTH`` deep (6.1), and a
deeper ``(`` is refused at that bracket (12.2 ``variation``) quickly and in little memory, on every route."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from wnotation.diagnostics import check_text
from wnotation.notation import NotationError, parse
from wnotation.model.record import MAX_VARIATION_DEPTH, Record

HEADER = """[Format "7WN 2"]
[Edition "2e"]
[Date "2026.11.29"]
[Seat1 "Alice" "Gizah" "day"]
[Seat2 "Bob" "Babylon" "night"]
[Seat3 "Carol" "Halikarnassos" "night"]

I.1 Lumber Yard | sell ? | stage ?
"""
FIRST_OPEN = HEADER.count("\n") + 1  # the line of the first "("


def nested(depth: int, *, indent: bool = False) -> str:
    """A game whose ``I.1`` has ``depth`` variations, each a variation of the one before's ``I.1``, all closed on
    the last line."""
    lines = [("  " * k if indent else "") + "( I.1 Bob: Loom" for k in range(depth)]
    return HEADER + "\n".join(lines) + " " + ")" * depth + "\n"


def depth_of(record: Record) -> int:
    depth, turn = 0, record.turns[0]
    while turn.variations:
        depth += 1
        turn = turn.variations[0].turns[0]
    return depth


def test_the_limit_is_the_records():
    assert MAX_VARIATION_DEPTH == 32


@pytest.mark.parametrize("route", ["auto", "lark"])
@pytest.mark.parametrize("indent", [False, True])
def test_variations_nested_to_the_limit_are_read(route, indent):
    record = parse(nested(MAX_VARIATION_DEPTH, indent=indent), route=route)
    assert depth_of(record) == MAX_VARIATION_DEPTH


@pytest.mark.parametrize("route", ["auto", "lark"])
@pytest.mark.parametrize("indent", [False, True])
def test_a_variation_one_level_too_deep_is_refused_at_its_bracket(route, indent):
    with pytest.raises(NotationError) as info:
        parse(nested(MAX_VARIATION_DEPTH + 1, indent=indent), source="deep.7wn", route=route)
    error = info.value
    line = FIRST_OPEN + MAX_VARIATION_DEPTH
    column = 2 * MAX_VARIATION_DEPTH + 1 if indent else 1
    assert (error.rule, error.line, error.column) == ("variation", line, column)
    assert error.source_line.lstrip().startswith("( I.1 Bob: Loom")
    assert "33 deep" in error.message and "at most 32" in error.message


def test_siblings_do_not_add_up_to_a_depth():
    """Depth counts open variations, not variations: 40 variations side by side, each closed, are read."""
    text = HEADER + "( I.1 Bob: sell ? )\n" * 40
    assert len(parse(text).turns[0].variations) == 40


def test_a_variation_closed_before_the_limit_makes_room_again():
    """32 open, one closed, and one more opened at depth 32 again: read."""
    lines = ["( I.1 Bob: sell ?"] * MAX_VARIATION_DEPTH
    lines[-1] += " )"
    lines.append("( I.1 Carol: sell ?" + " )" * MAX_VARIATION_DEPTH)
    record = parse(HEADER + "\n".join(lines) + "\n")
    assert depth_of(record) == MAX_VARIATION_DEPTH


def test_a_500_deep_file_is_a_quick_notation_error_of_check():
    text = nested(500)
    assert 8_000 < len(text.encode()) < 9_500
    start = time.process_time()  # CPU time: a loaded machine does not fail the bound
    report = check_text(text, "deep.7wn")
    elapsed = time.process_time() - start
    [d] = [d for d in report.diagnostics if d.severity == "error"]  # and the note: the game is not replayed
    assert (d.rule, d.line, d.column) == ("variation", FIRST_OPEN + MAX_VARIATION_DEPTH, 1)
    assert elapsed < 1.0


def test_check_on_a_500_deep_file_exits_1_in_under_100_MB(tmp_path):
    """The command itself, in a fresh process, its peak memory measured by the parent of a watcher."""
    path = tmp_path / "deep.7wn"
    path.write_text(nested(500), encoding="utf-8")
    watcher = (
        "import resource, subprocess, sys\n"
        "p = subprocess.run([sys.executable, '-m', 'wnotation', 'check', sys.argv[1]], capture_output=True, text=True)\n"
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(p.stdout + p.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", watcher, str(path)], capture_output=True, text=True, timeout=60)
    head, _, shown = out.stdout.partition("\n")
    code, peak_kb = map(int, head.split())
    assert code == 1, shown
    assert f"deep.7wn:{FIRST_OPEN + MAX_VARIATION_DEPTH}:1: error[variation]" in shown
    assert "Traceback" not in shown and "RecursionError" not in shown
    assert peak_kb < 100 * 1024
