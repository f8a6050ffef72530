"""The progress bar of long runs, for real: in a terminal (a tmux pane) ``generate``, ``check``, ``fmt --check``,
``export`` and ``stats`` of 7WN files show one on stderr once they have run for about a second; with stderr piped
there is none.

Needs tmux (Debian package ``tmux``; ``.ci/run`` installs it). Without tmux the terminal test is skipped, except
in CI (``CI`` set), where it must run.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WNOTATION = [sys.executable, "-m", "wnotation"]
TMUX = shutil.which("tmux")


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """A file of 5,000 games (50 generated ones, repeated): several seconds of checking or formatting."""
    done = subprocess.run([*WNOTATION, "generate", "-p", "3", "-s", "9", "--count", "50"], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, check=True)
    path = tmp_path_factory.mktemp("progress") / "archive.7wn"
    path.write_text("\n".join([done.stdout] * 100), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def small(archive) -> Path:
    """The first 1,000 games of the archive: past the bar's delay, and quicker to run to the end."""
    text = archive.read_text(encoding="utf-8")
    path = archive.with_name("small.7wn")
    path.write_text(text[: len(text) // 5], encoding="utf-8")
    return path


def _pane(tmux: list[str], target: str) -> str:
    return subprocess.run([*tmux, "capture-pane", "-p", "-t", target], capture_output=True, text=True).stdout


COMMANDS = {
    "generate": ["generate", "-p", "3", "-s", "1", "--count", "100000"],
    "check": ["check", "{archive}"],
    "fmt --check": ["fmt", "--check", "{archive}"],
    "export": ["export", "{archive}", "-o", "{archive}-parts"],
    "stats": ["stats", "{archive}"],
}
WORDS = {"generate": "generating", "check": "checking", "fmt --check": "formatting", "export": "exporting",
         "stats": "reading"}


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
@pytest.mark.parametrize("name", COMMANDS)
def test_a_long_run_shows_a_progress_bar_in_a_terminal(name, archive, tmp_path):
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    tmux = [TMUX, "-L", f"wnotation-test-{os.getpid()}-{name.split()[0]}", "-f", os.devnull]
    args = [a.format(archive=archive) for a in COMMANDS[name]]
    line = " ".join(shlex.quote(a) for a in [*WNOTATION, *args]) + f" > {shlex.quote(str(tmp_path / 'out'))}"
    env = {**os.environ, "TERM": "xterm-256color"}
    subprocess.run([*tmux, "new-session", "-d", "-s", "bar", "-x", "150", "-y", "10", "-c", str(ROOT),
                    f"{line}; sleep 30"], check=True, env=env, timeout=30)
    try:
        deadline, screen = time.monotonic() + 60, ""
        while time.monotonic() < deadline:
            screen = _pane(tmux, "bar")
            if WORDS[name] in screen and "games" in screen and "/s" in screen:
                break
            time.sleep(0.2)
        assert WORDS[name] in screen and "games" in screen and "/s" in screen, screen
        bar = next(ln for ln in screen.splitlines() if WORDS[name] in ln)
        assert "eta" in bar and "/" in bar.split("games")[0], bar  # games done of the total, and the time left
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)


@pytest.mark.parametrize("name", COMMANDS)
def test_piped_stderr_gets_no_progress_bar(name, small):
    args = [a.format(archive=small) for a in COMMANDS[name]]
    if name == "generate":
        args[-1] = "60"  # longer than the bar's delay, and short
    done = subprocess.run([*WNOTATION, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          cwd=ROOT, timeout=600)
    assert done.returncode in (0, 1) and WORDS[name] not in done.stderr and "\x1b" not in done.stderr
