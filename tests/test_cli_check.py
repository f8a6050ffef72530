"""``wnotation check``: diagnostics, summary, exit codes, stdin, directories, --jobs and --json."""

from __future__ import annotations

import json
import os
import sys

import pytest

from cli_helpers import game_text, run, with_action
from wnotation import cli


def _write(path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def good(tmp_path):
    return _write(tmp_path / "good.7wn", game_text())


@pytest.fixture
def illegal(tmp_path):
    """Ada builds Apothecary on I.1 without any loom: R-TRADE at that action."""
    text, line, column = with_action(game_text(), "I.1", 1, "Apothecary")
    return _write(tmp_path / "illegal.7wn", text), line, column


def test_a_clean_game(good):
    result = run("check", good)
    assert result.stdout == "checked 1 game in 1 file: all good\n"
    assert result.stderr == ""


def test_an_illegal_action_names_file_line_column_and_rule(illegal):
    path, line, column = illegal
    result = run("check", path, code=1)
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{path}:{line}:{column}: error[R-TRADE]: Ada cannot build Apothecary: needs loom")
    assert lines[1] == "    " + open(path).read().splitlines()[line - 1]
    assert lines[2] == " " * (4 + column - 1) + "^"
    assert result.stdout.startswith("checked 1 game in 1 file: 1 game with errors (")


def test_a_wrong_expected_result_is_an_r_score_finding_on_the_result_line(tmp_path):
    text = game_text()
    k = text.index("result Ada:")
    total = text.index(" total ", k) + len(" total ")
    end = text.index(" ", total)
    wrong = text[:total] + str(int(text[total:end]) + 1) + text[end:]
    path = _write(tmp_path / "score.7wn", wrong)
    result = run("check", path, code=1)
    line = wrong[:k].count("\n") + 1
    assert result.stderr.startswith(f"{path}:{line}:1: error[R-SCORE]: expected total ")


def test_a_broken_game_is_reported_and_the_next_one_still_checked(tmp_path, illegal):
    text = game_text().replace("I.2 ", "I.2 Lumbr Yard | ", 1)
    good_second = game_text(3, 1)
    path = _write(tmp_path / "two.7wn", text + "\n" + good_second + "\n" + open(illegal[0]).read())
    result = run("check", path, code=1)
    heads = [line for line in result.stderr.splitlines() if line.startswith(path)]
    assert "error[unknown-card]: unknown card 'Lumbr Yard'; did you mean Lumber Yard?" in heads[0]
    assert any("error[R-TRADE]" in h for h in heads[1:])
    assert result.stdout.startswith("checked 3 games in 1 file: 2 games with errors")


def test_warnings_and_notes_do_not_fail(tmp_path):
    """An unfinished game with a result line: the results cannot be checked, a warning, exit 0."""
    text = game_text()
    lines = text.splitlines()
    body = [ln for ln in lines if not ln.startswith(("II.", "III."))]
    path = _write(tmp_path / "partial.7wn", "\n".join(body) + "\n")
    result = run("check", path)
    assert "warning[R-SCORE]: the record states results, but the game is incomplete" in result.stderr
    assert result.stdout.startswith("checked 1 game in 1 file: all good (1 warning")


def test_an_empty_file_is_a_warning(tmp_path):
    path = _write(tmp_path / "empty.7wn", "\n\n")
    result = run("check", path)
    assert f"{path}:1:1: warning[games]: no game in this input" in result.stderr


def test_stdin():
    result = run("check", "-", input=game_text())
    assert result.stdout == "checked 1 game in 1 file: all good\n"


@pytest.mark.parametrize("players", range(3, 8))
def test_generate_then_check_round_trip(players):
    generated = run("generate", "--players", str(players), "--seed", "11", "--count", "2").stdout
    result = run("check", "-", input=generated)
    assert (result.stdout, result.stderr) == ("checked 2 games in 1 file: all good\n", "")


def test_directories_are_searched_recursively_in_sorted_order(tmp_path, illegal):
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "sub" / "a.7wn", game_text(3, 2))
    _write(tmp_path / "notes.txt", "not a record")
    result = run("check", str(tmp_path), "--json", code=1)
    data = json.loads(result.stdout)
    assert [f["source"] for f in data["files"]] == [
        str(tmp_path / "illegal.7wn"), str(tmp_path / "sub" / "a.7wn")]
    assert data["exit_code"] == 1 and result.stderr == ""


def test_json_report(illegal):
    path, line, column = illegal
    data = json.loads(run("check", path, "--json", code=1).stdout)
    game = data["files"][0]["games"][0]
    assert game["ok"] is False and game["seats"] == ["Ada", "Bob", "Cyd", "Dee"] and game["complete"]
    first = game["diagnostics"][0]
    assert (first["rule"], first["line"], first["column"], first["seat"], first["address"], first["kind"]) == (
        "R-TRADE", line, column, 1, "I.1", "finding")
    assert first["text"].startswith(f"{path}:{line}:{column}: error[R-TRADE]")
    assert data["summary"]["games_with_errors"] == 1
    assert len(game["scores"]) == 4 and set(game["scores"][0]) >= {"military", "science", "total", "rank"}


def test_jobs_gives_the_same_output_in_input_order(tmp_path, illegal):
    paths = [_write(tmp_path / f"g{k}.7wn", game_text(3 + k % 5, k)) for k in range(5)]
    paths.insert(2, illegal[0])
    paths.append(_write(tmp_path / "bad.7wn", "[Format \"7WN 1\"]\n[Edition \"3e\"]\n"))
    one = run("check", *paths, "--jobs", "1", code=1)
    two = run("check", *paths, "--jobs", "2", code=1)
    assert (two.stdout, two.stderr) == (one.stdout, one.stderr)
    assert one.stderr.index(illegal[0]) < one.stderr.index(paths[-1])
    assert json.loads(run("check", *paths, "-j", "2", "--json", code=1).stdout) == \
        json.loads(run("check", *paths, "--json", code=1).stdout)


def test_progress_bar_only_on_a_terminal(monkeypatch, good, illegal):
    monkeypatch.setattr(cli, "_stderr_is_terminal", lambda: True)
    result = run("check", good, illegal[0], code=1)
    assert "error[R-TRADE]" in result.stderr
    assert result.stdout.startswith("checked 2 games in 2 files")


def test_a_missing_path_is_one_line_exit_2(tmp_path):
    result = run("check", str(tmp_path / "nope.7wn"), code=2)
    assert result.stdout == ""
    assert result.stderr == f"error: cannot read {tmp_path / 'nope.7wn'}: no such file or directory\n"


def test_a_directory_without_records_is_exit_2(tmp_path):
    result = run("check", str(tmp_path), code=2)
    assert result.stderr == f"error: no .7wn file in directory {tmp_path}\n"


def test_a_file_that_is_not_utf8_is_exit_2_and_the_rest_is_checked(tmp_path, good):
    bad = tmp_path / "latin1.7wn"
    bad.write_bytes("[Event \"Café\"]".encode("latin-1"))
    result = run("check", str(bad), good, code=2)
    assert result.stderr == f"error: cannot read {bad}: not UTF-8 text (invalid continuation byte at byte 11)\n"
    assert result.stdout == "checked 1 game in 2 files: all good; 1 file unreadable\n"


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads any file")
def test_a_file_without_read_permission_is_exit_2(tmp_path, good):
    os.chmod(good, 0)
    result = run("check", good, code=2)
    assert result.stderr == f"error: cannot read {good}: permission denied\n"


def test_stdin_that_is_not_utf8():
    result = run("check", "-", input=b"\xff\xfe", code=2)
    assert result.stderr.startswith("error: cannot read <stdin>: not UTF-8 text")


def test_help_has_examples():
    out = run("check", "--help").stdout
    assert "Examples:" in out and "wnotation check replays/" in out and "--jobs" in out
