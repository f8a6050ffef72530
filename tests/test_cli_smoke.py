"""The installed command in a real process: ``python -m wnotation`` and, when on PATH, the ``wnotation`` script."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [[sys.executable, "-m", "wnotation"]] + ([[shutil.which("wnotation")]] if shutil.which("wnotation") else [])


def _run(command, *args, input=None):
    return subprocess.run([*command, *args], cwd=ROOT, capture_output=True, text=True, input=input, timeout=120)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: Path(c[-1]).name)
def test_generate_pipe_check(command):
    generated = _run(command, "generate", "--players", "5", "--seed", "3")
    assert generated.returncode == 0, generated.stderr
    checked = _run(command, "check", "-", input=generated.stdout)
    assert (checked.returncode, checked.stdout, checked.stderr) == (0, "checked 1 game in 1 file: all good\n", "")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: Path(c[-1]).name)
def test_exit_codes_in_a_real_process(command, tmp_path):
    bad = _run(command, "check", str(tmp_path / "missing.7wn"))
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr == f"error: cannot read {tmp_path / 'missing.7wn'}: no such file or directory\n"
    wrong = _run(command, "score", "-", input="[Format \"7WN 1\"]\n")
    assert wrong.returncode == 2 and "error[missing-tag]" in wrong.stderr and "Traceback" not in wrong.stderr


def test_jobs_in_a_real_process(tmp_path):
    for k in range(3):
        text = _run(COMMANDS[0], "generate", "-p", str(3 + k), "-s", str(k)).stdout
        (tmp_path / f"g{k}.7wn").write_text(text, encoding="utf-8")
    one = _run(COMMANDS[0], "check", str(tmp_path), "--jobs", "1")
    two = _run(COMMANDS[0], "check", str(tmp_path), "--jobs", "2")
    assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)
    assert one.stdout == "checked 3 games in 3 files: all good\n"
