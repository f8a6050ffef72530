"""Diagnostics coloured as rustc colours them, on a terminal only: ``--color auto|always|never`` on every command
that prints diagnostics, ``NO_COLOR`` honoured, never when stderr is piped in ``auto``; the record's own text stays
shown as stand-ins inside the colours."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import HEADER
from wnotation import cli
from wnotation.cli import streams

ROOT = Path(__file__).resolve().parent.parent
#: A typo on a line whose comment holds a record's own escape sequence (a CSI that would turn the terminal red).
BAD = HEADER + "I.1 Lumbr Yard {x\x1b[31my} | Loom | Baths\n"
#: rustc's layout: the location bold, severity and code in bold red, the message bold, the caret in bold red.
HEAD = "\x1b[1m{path}:8:5:\x1b[0m \x1b[1;31merror[unknown-card]\x1b[0m\x1b[1m: "
CARET = "\x1b[1;31m^\x1b[0m"
OURS = ("\x1b[1m", "\x1b[0m", "\x1b[1;31m", "\x1b[1;33m", "\x1b[1;32m")

#: Every command that prints diagnostics, with the record as {path}.
COMMANDS = {
    "check": ["check", "{path}"],
    "score": ["score", "{path}"],
    "show": ["show", "{path}"],
    "sheet": ["sheet", "{path}"],
    "html": ["html", "{path}"],
    "bgstats": ["bgstats", "{path}"],
    "fmt": ["fmt", "{path}"],
    "json": ["json", "{path}"],
}


@pytest.fixture
def bad(tmp_path) -> Path:
    path = tmp_path / "bad.7wn"
    path.write_text(BAD, encoding="utf-8")
    return path


def _stderr(args, path, *, terminal=False, env=None, monkeypatch=None):
    if terminal:
        monkeypatch.setattr(streams, "stderr_is_terminal", lambda: True)
    result = CliRunner(env=env).invoke(cli.main, [a.format(path=path) for a in args])
    assert result.exit_code in (1, 2), (result.stdout, result.stderr)
    return result.stderr


def _without_our_colours(text: str) -> str:
    for code in OURS:
        text = text.replace(code, "")
    return text


@pytest.mark.parametrize("name", COMMANDS)
def test_color_always_colours_the_diagnostic_as_rustc_does_and_keeps_the_records_escape_visible(name, bad):
    err = _stderr([*COMMANDS[name], "--color", "always"], bad)
    assert err.startswith(HEAD.format(path=bad)), repr(err)
    assert err.splitlines()[2].endswith(CARET)
    assert "{x\u241b[31my}" in err  # the record's CSI, shown as a stand-in
    assert "\x1b" not in _without_our_colours(err)


@pytest.mark.parametrize("name", COMMANDS)
def test_auto_colours_on_a_terminal(name, bad, monkeypatch):
    err = _stderr(COMMANDS[name], bad, terminal=True, env={"NO_COLOR": None, "TERM": "xterm-256color"},
                  monkeypatch=monkeypatch)
    assert err.startswith(HEAD.format(path=bad)), repr(err)


@pytest.mark.parametrize("name", COMMANDS)
def test_auto_never_colours_a_pipe(name, bad):
    err = _stderr(COMMANDS[name], bad, env={"NO_COLOR": None})
    assert "\x1b" not in err and err.startswith(f"{bad}:8:5: error[unknown-card]: ")


@pytest.mark.parametrize("setting", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_no_color_or_a_dumb_terminal_turns_auto_off_and_always_still_colours(setting, bad, monkeypatch):
    env = {"NO_COLOR": None, "TERM": "xterm-256color"} | setting
    assert "\x1b" not in _stderr(["check", "{path}"], bad, terminal=True, env=env, monkeypatch=monkeypatch)
    coloured = _stderr(["check", "{path}", "--color", "always"], bad, terminal=True, env=env, monkeypatch=monkeypatch)
    assert coloured.startswith(HEAD.format(path=bad))


def test_an_empty_no_color_is_unset(bad, monkeypatch):
    err = _stderr(["check", "{path}"], bad, terminal=True, env={"NO_COLOR": "", "TERM": "xterm"},
                  monkeypatch=monkeypatch)
    assert err.startswith(HEAD.format(path=bad))


def test_color_never_on_a_terminal_is_plain(bad, monkeypatch):
    err = _stderr(["check", "{path}", "--color", "never"], bad, terminal=True, env={"NO_COLOR": None},
                  monkeypatch=monkeypatch)
    assert "\x1b" not in err and err.startswith(f"{bad}:8:5: error[unknown-card]: ")


def test_a_finding_is_coloured_by_its_severity(tmp_path):
    from cli_helpers import game_text

    text = game_text(3, 7).replace("rank 3", "rank 2")  # a wrong stated rank: an R-SCORE error finding
    path = tmp_path / "g.7wn"
    path.write_text(text, encoding="utf-8")
    err = CliRunner().invoke(cli.main, ["check", str(path), "--color", "always"]).stderr
    assert "\x1b[1;31merror[R-SCORE]\x1b[0m" in err or "\x1b[1;31merror[R-WIN]\x1b[0m" in err, repr(err)


def test_an_unknown_color_setting_is_a_usage_error(bad):
    result = CliRunner().invoke(cli.main, ["check", str(bad), "--color", "sometimes"])
    assert result.exit_code == 2 and "'sometimes' is not one of 'auto', 'always', 'never'" in result.stderr


TMUX = shutil.which("tmux")


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
def test_a_real_terminal_gets_colours_and_a_pipe_from_it_none(bad, tmp_path):
    """In a tmux pane: ``check`` colours its diagnostic; the same with stderr piped to ``cat``, or with
    ``NO_COLOR=1``, does not. The bytes the pane receives are recorded."""
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    tmux = [TMUX, "-L", f"wnotation-colour-{os.getpid()}", "-f", os.devnull]
    check = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "wnotation", "check", str(bad)])
    script = tmp_path / "run.sh"
    script.write_text(f"echo MARK-A; {check}; echo MARK-B; {check} 2>&1 | cat; echo MARK-C; NO_COLOR=1 {check}; "
                      "echo ALL-DONE\n"
                      "sleep 60\n")
    log = tmp_path / "pane.bytes"
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm-256color"}
    subprocess.run([*tmux, "new-session", "-d", "-s", "colour", "-x", "200", "-y", "30", "-c", str(ROOT),
                    f"sleep 1; sh {shlex.quote(str(script))}"], check=True, env=env, timeout=30)
    try:
        subprocess.run([*tmux, "pipe-pane", "-o", "-t", "colour", f"cat >> {shlex.quote(str(log))}"], check=True,
                       timeout=30)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and b"ALL-DONE" not in (log.read_bytes() if log.exists() else b""):
            time.sleep(0.3)
        seen = log.read_bytes().decode("utf-8")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)
    assert "ALL-DONE" in seen, seen
    body = seen.split("MARK-A\r\n", 1)[1].split("ALL-DONE")[0]
    terminal, rest = body.split("MARK-B\r\n")
    piped, no_color = rest.split("MARK-C\r\n")
    assert terminal.startswith(HEAD.format(path=bad)), repr(terminal)
    assert piped.startswith(f"{bad}:8:5: error[unknown-card]: ") and "\x1b" not in piped
    assert no_color.startswith(f"{bad}:8:5: error[unknown-card]: ") and "\x1b" not in no_color
    assert "\x1b" not in _without_our_colours(seen.split("ALL-DONE")[0])


def test_a_diagnostic_above_the_progress_bar_keeps_the_records_text_visible_and_its_colours(monkeypatch):
    """With the bar shown, a coloured diagnostic goes through rich (its ANSI styles parsed, not printed as text);
    the record's own escape is a stand-in before that, so rich cannot take it for a style."""
    import io

    from rich.console import Console

    from wnotation.cli import output, progress
    from wnotation.diagnostics import Diagnostic

    d = Diagnostic("error", "unknown-card", "no card 'x\x1b[31m'", "g.7wn", 8, 5, "I.1 Lumbr\x1b]0;t\x07 Yard")
    monkeypatch.setattr(output, "colour", lambda: True)
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, color_system="standard", width=200)
    monkeypatch.setattr("rich.console.Console", lambda **kw: console)
    bar = progress.Progress("checking", 10)
    bar.__enter__()
    bar._show()
    bar.diagnostic(d)
    bar.__exit__(None, None, None)
    shown = screen.getvalue()
    assert "no card 'x\u241b[31m'" in shown and "I.1 Lumbr\u241b]0;t\u2407 Yard" in shown
    assert "\x1b]0;" not in shown and "\x1b[31m'" not in shown
    assert "\x1b[1;31merror[unknown-card]" in shown or "\x1b[31;1merror[unknown-card]" in shown, repr(shown)
