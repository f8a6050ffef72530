"""``wnotation fmt``: black's modes (stdout, --check, --diff, --write), verified and atomic rewrites."""

from __future__ import annotations

import os
import stat

import pytest

from cli_helpers import game_text, run
from wnotation import notation


def _messy(text: str) -> str:
    """The same games written loosely: extra blanks, lower case, CRLF line ends, blank lines."""
    out = text.replace("I.1 ", "I.1    ").replace(" | ", "|").replace("[Edition", "\n[Edition")
    return out.replace("\n", "\r\n")


@pytest.fixture
def messy(tmp_path):
    path = tmp_path / "messy.7wn"
    path.write_bytes(_messy(game_text()).encode())
    return path


@pytest.fixture
def canonical(tmp_path):
    path = tmp_path / "canonical.7wn"
    path.write_text(game_text(), encoding="utf-8")
    return path


def _no_temp_files(directory) -> bool:
    return not [p for p in os.listdir(directory) if p.startswith(".wnotation-")]


def test_default_prints_the_canonical_text(messy, canonical):
    assert run("fmt", str(messy)).stdout == game_text()
    assert messy.read_bytes() == _messy(game_text()).encode()  # untouched
    assert run("fmt", "-", input=_messy(game_text())).stdout == game_text()


def test_check(messy, canonical):
    result = run("fmt", "--check", str(messy), str(canonical), code=1)
    assert result.stdout == ""
    assert result.stderr == (f"would reformat {messy}\n"
                             "1 file would be reformatted, 1 file would be left unchanged\n")
    assert run("fmt", "--check", str(canonical)).stderr == "1 file would be left unchanged\n"


def test_diff(messy, canonical):
    result = run("fmt", "--diff", str(messy))
    assert result.stdout.startswith(f"--- {messy} (original)\n+++ {messy} (canonical)\n@@ ")
    assert "+I.1 " in result.stdout
    assert run("fmt", "--diff", str(canonical)).stdout == ""
    assert run("fmt", "--diff", "--check", str(messy), code=1).stdout == result.stdout


def test_write_is_idempotent(messy, tmp_path):
    os.chmod(messy, 0o640)
    result = run("fmt", "--write", str(messy))
    assert result.stderr == f"reformatted {messy}\n1 file reformatted\n"
    assert messy.read_text(encoding="utf-8") == game_text()
    assert stat.S_IMODE(os.stat(messy).st_mode) == 0o640
    again = run("fmt", "--write", str(messy))
    assert again.stderr == "1 file left unchanged\n"
    assert messy.read_text(encoding="utf-8") == game_text()
    assert _no_temp_files(tmp_path)


def test_write_to_a_directory_and_stdin(tmp_path, messy):
    (tmp_path / "sub").mkdir()
    other = tmp_path / "sub" / "b.7wn"
    other.write_text(_messy(game_text(3, 5)), encoding="utf-8")
    run("fmt", "--write", str(tmp_path))
    assert other.read_text(encoding="utf-8") == game_text(3, 5)
    assert run("fmt", "--write", "-", input=_messy(game_text())).stdout == game_text()


def test_several_games_keep_their_annotations(tmp_path):
    text = game_text().replace("I.2 ", "{ a note }\nI.2 { before } ", 1) + "\n" + game_text(3, 2)
    path = tmp_path / "two.7wn"
    path.write_text(text.replace("\n\n[Format", "\n\n\n\n[Format"), encoding="utf-8")
    run("fmt", "--write", str(path))
    out = path.read_text(encoding="utf-8")
    assert out == notation.write_games(notation.parse_many(text))
    assert "{ a note }\nI.2 { before } " in out


def _broken_writer(real):
    def write_games(records):
        text = real(records)
        return text.replace("I.1 ", "I.1 sell ? | ", 1) if "I.1 " in text else text
    return write_games


def test_a_failing_verification_leaves_the_file_untouched(monkeypatch, messy, tmp_path):
    before = messy.read_bytes()
    monkeypatch.setattr(notation, "write_games", _broken_writer(notation.write_games))
    result = run("fmt", "--write", str(messy), code=3)
    assert messy.read_bytes() == before
    assert _no_temp_files(tmp_path)
    assert result.stderr.startswith(f"internal error: {messy}: the canonical text does not read back")
    assert "this is a bug in wnotation, the file is left untouched" in result.stderr


def test_a_writer_that_does_not_reproduce_itself_is_caught(monkeypatch, messy):
    real = notation.write_games
    calls = []

    def unstable(records):
        calls.append(1)
        return real(records) + ("\n" * len(calls))

    monkeypatch.setattr(notation, "write_games", unstable)
    result = run("fmt", "--check", str(messy), code=3)
    assert "formatting the canonical text again changes it" in result.stderr


def test_a_record_that_does_not_read_is_left_alone(tmp_path, canonical):
    bad = tmp_path / "bad.7wn"
    text = game_text().replace("I.3 ", "I.3 Lumbr Yard | ", 1)
    bad.write_text(text, encoding="utf-8")
    result = run("fmt", "--write", str(bad), str(canonical), code=2)
    assert bad.read_text(encoding="utf-8") == text
    assert f"{bad}:" in result.stderr and "error[unknown-card]" in result.stderr and "\n        ^\n" in result.stderr
    assert result.stderr.endswith("1 file left unchanged, 1 file failed to format\n")


def test_write_cannot_be_combined_with_check():
    result = run("fmt", "--write", "--check", "x.7wn", code=2)
    assert result.stderr == "error: --write cannot be combined with --check or --diff (see 'wnotation fmt --help')\n"


def test_a_missing_file_is_exit_2(tmp_path):
    result = run("fmt", str(tmp_path / "none.7wn"), code=2)
    assert result.stderr.count("\n") == 1 and "no such file or directory" in result.stderr
