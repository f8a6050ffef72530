"""The installed command in a real process: ``python -m wnotation`` and, when on PATH, the ``wnotation`` script."""

from __future__ import annotations

import re
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


SCRIPT = """import atexit, sys
atexit.register(lambda: print("torn down", file=sys.stderr))
from wnotation.cli import script
sys.argv = ["wnotation", *sys.argv[1:]]
script()
"""


def test_the_script_ends_without_tearing_down_once_its_output_is_flushed(tmp_path):
    """``script`` (the console script, ``python -m wnotation``) ends by ``os._exit``: no exit handler runs, yet the
    output and the exit code are those of ``main`` (0, 1 for findings, 2 for a usage error)."""
    run = [sys.executable, "-c", SCRIPT]
    good = _run(run, "check", "replays/3p-babylon-halikarnassos-olympia.7wn")
    assert (good.returncode, good.stdout, good.stderr) == (0, "checked 1 game in 1 file: all good\n", "")
    many = _run(run, "generate", "-p", "7", "-s", "1", "-n", "40")  # more than a pipe's buffer: all flushed
    assert many.returncode == 0 and many.stdout.count("[Event ") == 40 and len(many.stdout) > 1 << 16
    usage = _run(run, "check", "--no-such-option")
    assert usage.returncode == 2 and "no such option" in usage.stderr and "torn down" not in usage.stderr
    text = _run(COMMANDS[0], "generate", "-p", "3", "-s", "4").stdout
    wrong = tmp_path / "wrong.7wn"  # a stated total that the score sheet does not give: a finding, exit 1
    wrong.write_text(re.sub(r"(result Ada: .* total )(\d+)", lambda m: m[1] + str(int(m[2]) + 1), text),
                     encoding="utf-8")
    found = _run(run, "check", str(wrong))
    assert found.returncode == 1 and "total" in found.stdout + found.stderr and "torn down" not in found.stderr


def test_main_in_process_exits_as_usual():
    """Only the script ends by ``os._exit``: ``main`` called in process raises ``SystemExit``."""
    from wnotation.cli import main

    with pytest.raises(SystemExit) as exit:
        main(["--version"], prog_name="wnotation")
    assert exit.value.code == 0
