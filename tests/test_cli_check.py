"""``wnotation check``: diagnostics, summary, exit codes, stdin, directories, --jobs and --json."""

from __future__ import annotations

import json
import os
import re
import sys
import warnings
from pathlib import Path

import pytest

from click.testing import CliRunner

from cli_helpers import game_text, run, with_action
from wnotation import cli
from wnotation.diagnostics import batch
from wnotation.cli import streams


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
    with open(path, encoding="utf-8") as handle:
        assert lines[1] == "    " + handle.read().splitlines()[line - 1]
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
    with open(illegal[0], encoding="utf-8") as handle:
        path = _write(tmp_path / "two.7wn", text + "\n" + good_second + "\n" + handle.read())
    result = run("check", path, code=1)
    heads = [line for line in result.stderr.splitlines() if line.startswith(path)]
    assert "error[unknown-card]: unknown card 'Lumbr Yard'; did you mean Lumber Yard?" in heads[0]
    assert any("error[R-TRADE]" in h for h in heads[1:])
    assert result.stdout.startswith("checked 3 games in 1 file: 2 games with errors")


def test_warnings_and_notes_do_not_fail(tmp_path):
    """A Halikarnassos pick owed but not written: taken as declined, a warning, exit 0."""
    text = (Path(__file__).parent.parent / "spec" / "cases" / "080-hali-pick-unstated.7wn").read_text()
    path = _write(tmp_path / "pick.7wn", text)
    result = run("check", path)
    assert "warning[R-HALI]: Cat may build a card from the discard pile" in result.stderr
    assert result.stdout.startswith("checked 1 game in 1 file: all good (1 warning")


def test_results_on_an_unfinished_game_are_an_error(tmp_path):
    """R-SCORE: a record that states results but stops before its last turn claims a finished game (exit 1)."""
    lines = game_text().splitlines()
    body = [ln for ln in lines if not ln.startswith(("II.", "III."))]
    path = _write(tmp_path / "partial.7wn", "\n".join(body) + "\n")
    result = run("check", path, code=1)
    assert "error[R-SCORE]: the record states results, but it stops at I.6 before the game ends" in result.stderr


@pytest.mark.parametrize("content", ["", "\n\n", "  \t\n"], ids=["empty", "blank", "spaces"])
def test_an_input_without_a_game_is_an_error(tmp_path, content):
    path = _write(tmp_path / "empty.7wn", content)
    result = run("check", path, code=1)
    assert f"{path}:1:1: error[games]: no game in this input" in result.stderr
    assert result.stdout == "checked 0 games in 1 file: 1 file without a game (1 error)\n"


def test_empty_stdin_is_an_error():
    result = run("check", "-", input="", code=1)
    assert result.stderr.startswith("<stdin>:1:1: error[games]: no game in this input")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_allow_empty_accepts_an_input_without_a_game_with_a_warning(tmp_path, jobs):
    path = _write(tmp_path / "empty.7wn", "\n\n")
    clean = _write(tmp_path / "clean.7wn", game_text())
    result = run("check", path, clean, "--allow-empty", "--jobs", jobs)
    assert f"{path}:1:1: warning[games]: no game in this input" in result.stderr
    assert result.stdout == "checked 1 game in 2 files: all good (1 warning)\n"
    assert run("check", path, clean, "--jobs", jobs, code=1).stdout == \
        "checked 1 game in 2 files: 1 file without a game (1 error)\n"
    data = json.loads(run("check", path, "--json", code=1).stdout)
    assert data["files"][0]["ok"] is False and data["summary"]["empty"] == 1
    assert json.loads(run("check", path, "--json", "--allow-empty").stdout)["files"][0]["ok"] is True


def test_stdin():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # click 8.5 deprecates get_text_stream
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


def _corpus() -> tuple[str, dict[str, tuple[int, int]]]:
    """Six games in one text (blank lines before the first): good, a syntax error, good, an illegal action, a
    wrong stated result, good; and the (line, column) each expected diagnostic must name."""
    games = [game_text(3 + k % 5, 20 + k) for k in range(6)]
    games[1] = games[1].replace("\nI.2 ", "\nI.2 ) ", 1)
    games[3], line3, column3 = with_action(games[3], "I.1", 1, "Apothecary")
    k = games[4].index("result ")
    total = games[4].index(" total ", k) + len(" total ")
    end = games[4].index(" ", total)
    games[4] = games[4][:total] + str(int(games[4][total:end]) + 1) + games[4][end:]
    text = "\n\n"
    where = {}
    for g, game in enumerate(games):
        before = text.count("\n")
        if g == 1:
            where["syntax"] = (before + game[: game.index("\nI.2 ) ")].count("\n") + 2, 5)
        elif g == 3:
            where["R-TRADE"] = (before + line3, column3)
        elif g == 4:
            where["R-SCORE"] = (before + game[:k].count("\n") + 1, 1)
        text += game + ("\n" if g < 5 else "")
    return text, where


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_jobs_cuts_one_file_at_game_boundaries_and_keeps_every_position(tmp_path, newline):
    text, where = _corpus()
    path = tmp_path / "corpus.7wn"
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    one = run("check", str(path), "--jobs", "1", code=1)
    for jobs in ("2", "3"):
        other = run("check", str(path), "--jobs", jobs, code=1)
        assert (other.stdout, other.stderr) == (one.stdout, one.stderr)
    lines = text.split("\n")
    shown = one.stderr.splitlines()
    for rule, (line, column) in where.items():
        k = next(k for k, h in enumerate(shown) if h.startswith(f"{path}:{line}:{column}: error[{rule}]: "))
        assert shown[k + 1] == "    " + lines[line - 1]
    assert one.stdout.startswith("checked 6 games in 1 file: 3 games with errors")
    data = json.loads(run("check", str(path), "-j", "2", "--json", code=1).stdout)
    assert data == json.loads(run("check", str(path), "--json", code=1).stdout)
    assert [g["index"] for g in data["files"][0]["games"]] == [1, 2, 3, 4, 5, 6]


def test_jobs_with_several_big_files_stdin_and_an_unreadable_one(tmp_path, monkeypatch):
    text, _ = _corpus()
    paths = [_write(tmp_path / f"c{k}.7wn", text) for k in range(3)]
    bad = tmp_path / "latin1.7wn"
    bad.write_bytes("[Event \"Café\"]".encode("latin-1"))
    args = [paths[0], str(bad), "-", paths[1], paths[2]]
    one = run("check", *args, "--jobs", "1", input=text, code=2)
    monkeypatch.setattr(batch, "PIECES_PER_WORKER", 1)  # few pieces in flight: files are reported while others run
    two = run("check", *args, "--jobs", "2", input=text, code=2)
    assert (two.stdout, two.stderr) == (one.stdout, one.stderr)
    assert one.stdout.startswith("checked 24 games in 5 files: 12 games with errors (")
    assert one.stdout.endswith("; 1 file unreadable\n")


def test_a_worker_process_killed_is_one_line_naming_the_input(tmp_path, monkeypatch):
    from wnotation.diagnostics import pipeline

    parent, reports = os.getpid(), pipeline._game_reports

    def killed(text, origin):  # in a forked worker: the process ends as a kill would end it, without a report
        if os.getpid() != parent:
            os._exit(9)
        return reports(text, origin)

    monkeypatch.setattr(pipeline, "_game_reports", killed)
    text, _ = _corpus()
    path = _write(tmp_path / "corpus.7wn", text)
    result = run("check", path, "--jobs", "2", code=3)
    assert result.stderr.splitlines()[-1] == (
        f"internal error: a worker process ended before it sent the reports of {path} (killed, or out of "
        "memory?): the games after those shown were not checked")
    assert result.stdout == ""


def test_progress_bar_with_jobs_on_one_file(monkeypatch, tmp_path):
    monkeypatch.setattr(streams, "stderr_is_terminal", lambda: True)
    text, _ = _corpus()
    result = run("check", _write(tmp_path / "corpus.7wn", text), "--jobs", "2", code=1)
    assert result.stderr.count("error[R-TRADE]") == 1
    assert result.stdout.startswith("checked 6 games in 1 file: 3 games with errors")


def test_progress_bar_only_on_a_terminal(monkeypatch, good, illegal):
    monkeypatch.setattr(streams, "stderr_is_terminal", lambda: True)
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


ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted((ROOT / "replays").glob("*.7wn")) + sorted((ROOT / "spec" / "cases").glob("*.7wn"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.parent.name + "/" + p.name)
def test_check_on_every_bundled_record_behaves_as_documented(path):
    """The replays are clean (exit 0). A casebook case that announces an error finding ([%expect R-…]) or a
    refusal by the reader ([Notation "id"]) gives exit 1 with that rule in a diagnostic; any other case exit 0
    (warnings announced by [%expect-warning] are shown but do not fail)."""
    text = path.read_text(encoding="utf-8")
    expected = re.findall(r"\[%expect\s+([^\]]+)\]", text)
    refused = re.search(r'\[Notation\s+"([^"]+)"\]', text)
    code = 1 if expected or refused else 0
    if "[XFail " in text:
        result = CliRunner().invoke(cli.main, ["check", str(path)], prog_name="wnotation")
        if result.exit_code != code:
            pytest.xfail("a known defect, announced by the case's XFail tag")
    else:
        result = run("check", str(path), code=code)
    assert result.stdout.startswith("checked 1 game in 1 file: ")
    rules = {r for announced in expected for r in announced.split()}
    for rule in rules | ({refused.group(1)} if refused else set()):
        assert f"error[{rule}]" in result.stderr
    if "[%expect-warning " in text:
        assert "warning[" in result.stderr


# --- streaming: flat memory, JSON byte for byte, small files batched -------------------------------------------


def _expected_json(*reports) -> str:
    from wnotation.diagnostics import CheckReport

    return json.dumps(CheckReport(tuple(reports)).to_dict(), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_streamed_json_is_the_report_json_byte_for_byte(tmp_path, jobs):
    from wnotation.diagnostics import FileReport, check_file, check_text

    text, _ = _corpus()
    corpus = _write(tmp_path / "corpus.7wn", text)
    empty = _write(tmp_path / "empty.7wn", "{ nothing here }\n")
    clean = _write(tmp_path / "clean.7wn", game_text())
    bad = tmp_path / "latin1.7wn"
    bad.write_bytes("[Event \"Café\"]".encode("latin-1"))
    result = run("check", corpus, empty, str(bad), "-", clean, "--json", "--jobs", jobs, input=text, code=2)
    unreadable = check_file(bad)
    assert unreadable.error is not None
    expected = _expected_json(check_file(corpus), check_file(empty), unreadable, check_text(text, "<stdin>"),
                              check_file(clean))
    assert result.stdout == expected
    assert result.stderr == ""
    assert run("check", empty, "--json", code=1).stdout == _expected_json(check_file(empty))
    blank = _write(tmp_path / "blank.7wn", "\n\n")
    assert run("check", blank, "--json", code=1).stdout == _expected_json(check_file(blank))
    assert run("check", blank, "--json", "--allow-empty").stdout == \
        _expected_json(check_file(blank, allow_empty=True))
    assert check_file(blank).remarks
    assert run("check", clean, "--json", "-j", jobs).stdout == _expected_json(check_file(clean))
    assert FileReport  # the names the JSON comes from


def test_memory_does_not_grow_with_the_number_of_games(tmp_path):
    """``check`` streams: it holds one game (per piece in flight) and counts, not a report per game. Checking
    10x more games must not raise the traced peak by more than a small bound (a report and the text of a game
    each kept would add about 10 KiB a game, over 1.3 MiB here)."""
    import gc
    import tracemalloc

    one = game_text(3, 7)
    small = _write(tmp_path / "small.7wn", one * 15)
    big = _write(tmp_path / "big.7wn", one * 150)
    run("check", small)  # warm-up: parser, catalogue, the engine's and reader's caches for this game

    def peak(path: str) -> int:
        gc.collect()
        tracemalloc.start()
        try:
            result = run("check", path)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            assert result.stdout.startswith("checked ")

    low, high = peak(small), peak(big)
    assert high - low < 512 * 1024, f"peak {low / 1024:.0f} KiB for 15 games, {high / 1024:.0f} KiB for 150"


def test_many_small_files_are_sent_several_to_a_task(tmp_path):
    texts = [game_text(3 + k % 5, 40 + k % 3) for k in range(40)]
    texts[7], _, _ = with_action(texts[7], "I.1", 1, "Apothecary")
    for k, text in enumerate(texts):
        _write(tmp_path / f"g{k:02d}.7wn", text)
    one = run("check", str(tmp_path), "--jobs", "1", code=1)
    assert one.stdout.startswith("checked 40 games in 40 files: 1 game with errors")
    for jobs in ("2", "3"):
        many = run("check", str(tmp_path), "--jobs", jobs, code=1)
        assert (many.stdout, many.stderr) == (one.stdout, one.stderr)
    assert batch.piece_size(40, 2) == 10 and batch.piece_size(2000, 2) == batch.MAX_PIECE_GAMES
    assert batch.piece_size(3, 2) == 1


def test_tasks_shrink_to_single_games_at_the_end_so_that_workers_finish_together(tmp_path):
    from concurrent.futures import Future

    sizes = []

    class Inline:  # a pool that runs each task at once and records how many games it holds
        def submit(self, fn, batch):
            sizes.append(sum(piece.count("[Format") for piece, _, _ in batch))
            done = Future()
            done.set_result(fn(batch))
            return done

    texts = [game_text(3 + k % 5, 40 + k % 3) for k in range(40)]
    big = _write(tmp_path / "big.7wn", "\n".join(texts))
    small = [_write(tmp_path / f"s{k}.7wn", texts[k]) for k in range(3)]
    runs = [(run.source, list(run.games())) for run in batch._Pool(Inline(), [big, *small], 2).runs()]
    # the first game is checked in this process (what a first check builds is then shared by the forked workers)
    assert sum(sizes) == 42 and sizes[0] == batch.piece_size(42, 2) == 11 and sizes[-3:] == [1, 1, 1]
    assert sizes == sorted(sizes, reverse=True)
    one = [(run.source, list(run.games())) for run in batch.check_many([big, *small], 1)]
    assert runs == one and [len(games) for _, games in one] == [40, 1, 1, 1]


def test_findings_inside_variations_are_notes_naming_the_variation_and_leave_the_verdict_alone():
    game = str(ROOT / "replays" / "variations-3p-rhodos-babylon-olympia.7wn")
    result = run("check", game)  # exit 0: a variation is analysis, its findings no error of the record
    notes = [line for line in result.stderr.splitlines() if ": note[" in line]
    assert result.stdout.strip().endswith("all good (2 notes)")
    assert [n.split(": ", 1)[1][:40] for n in notes] == ["note[R-DECK]: in variation I.5(1).I.6: C",
                                                         "note[R-LAST]: in variation I.5(1).I.6: C"]
    assert all(n.startswith(f"{game}:22:3: ") for n in notes)  # at the variation's turn line, where it plays
    data = json.loads(run("check", game, "--json").stdout)
    assert data["files"][0]["games"][0]["notes"] == 2 and data["files"][0]["ok"]
