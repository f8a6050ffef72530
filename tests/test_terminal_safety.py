"""Record text is data on a terminal too: diagnostics show control characters, escape sequences and bidi
overrides from a record as visible stand-ins, never as the bytes that would steer the reader's terminal."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from cli_helpers import run
from helpers import HEADER
from wnotation import cli
from wnotation.support.compiler_style import compiler_style, json_safe, safe, steers, visible
from wnotation.notation import NotationError

ROOT = Path(__file__).resolve().parent.parent
STEERING = ("\x1b", "\x07", "\x9b", "\r", "\u202e", "\u2066", "\x00")


def test_an_escape_sequence_in_a_source_line_is_shown_as_a_control_picture_with_the_caret_under_the_column():
    line = "I.1 Lumber\x1b[2J Yard | Loom"
    column = line.index("Loom") + 1
    text = compiler_style("error", "unknown-card", "no card 'x'", "g.7wn", 5, column, line)
    head, shown, caret = text.split("\n")
    assert "\x1b" not in text and "\u241b[2J" in shown
    assert shown[caret.index("^")] == "L" and shown[caret.index("^"):].startswith("Loom")


def test_a_bidi_override_in_a_message_is_not_printed():
    text = compiler_style("error", "R-TRADE", "Bob\u202e pays", "g.7wn", 1, 1)
    assert "\u202e" not in text and "Bob\ufffd pays" in text


def test_tabs_stay_tabs_so_that_the_caret_lines_up():
    assert visible("I.1\tLoom") == "I.1\tLoom"
    assert compiler_style("error", "x", "m", "s", 1, 5, "I.1\tLoom").endswith("\n       \t^")


def test_a_notation_error_renders_through_the_same_safe_layout():
    error = NotationError("bad \x1b[31mred", source="f\x07.7wn", line=2, column=3, source_line="ab\x1bcd")
    rendered = str(error)
    assert not any(c in rendered for c in STEERING)
    assert rendered.splitlines()[2] == "      ^" and error.caret == "  ^"


@given(st.text())
def test_visible_text_keeps_its_length_and_holds_no_control_or_format_character(text):
    shown = visible(text)
    assert len(shown) == len(text)
    assert all(c == "\t" or unicodedata.category(c) not in {"Cc", "Cf", "Zl", "Zp", "Cs"} for c in shown)


def test_check_prints_no_terminal_control_sequence_from_a_record(tmp_path):
    path = tmp_path / "hostile.7wn"
    path.write_text(HEADER + "I.1 Lumber\x1b]0;pwned\x07Yard | Loom {\x1b[2J\u202e} | Baths\n", encoding="utf-8")
    result = run("check", str(path), code=1)
    out = result.stdout + result.stderr
    assert "hostile.7wn:" in out and "\u241b]0;pwned\u2407Yard" in out
    assert not any(c in out for c in STEERING)


# --- every command, on a record whose texts hold each kind of escape ------------------------------------------

#: One of each: OSC 52 (writes the clipboard), OSC 0 (sets the window title), CSI (clears the screen, moves the
#: cursor), an 8-bit CSI (C1), a backspace, a bell, a right-to-left override.
ESCAPES = {
    "OSC 52": "\x1b]52;c;cHduZWQ=\x07",
    "OSC 0": "\x1b]0;pwned\x07",
    "CSI": "\x1b[2J\x1b[5;7H",
    "C1 CSI": "\x9b6n",
    "backspace": "\x08\x08",
    "bidi override": "\u202e",
}
HOSTILE = "Ann" + "".join(ESCAPES.values())


def _steering(text: str) -> list[str]:
    """The characters of ``text`` that would steer a terminal (line ends excepted)."""
    return [c for c in text if c != "\n" and steers(c)]


def _named(name: str) -> str:
    """A finished 3-player bot game, canonical, its first seat named ``name``."""
    from cli_helpers import game_text
    from wnotation.notation import parse, write

    record = parse(game_text(3, 7))
    seats = list(record.seats)
    seats[0] = seats[0].model_copy(update={"name": name})
    return write(record.model_copy(update={"seats": tuple(seats)}))


def _strings(data: object) -> list[str]:
    """Every string of a JSON value, keys included."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [k, *_strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    """A finished 3-player game whose first seat's name, Event tag and a comment hold every escape of
    :data:`ESCAPES`, in a file whose name holds an OSC 0 too."""
    text = _named(HOSTILE)
    text = text.replace('[Event "wnotation bot game (greedy)"]', f'[Event "club {HOSTILE}"]')
    text = text.replace('[Date "????.??.??"]', '[Date "2026.11.29"]')
    text = text.replace("\nI.2 ", f"\n{{ a comment {HOSTILE} }}\nI.2 ", 1)
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "club\x1b]0;title\x07.7wn"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hostile_cases(tmp_path_factory) -> Path:
    """A casebook of one case whose title holds every escape."""
    folder = tmp_path_factory.mktemp("cases")
    source = (ROOT / "spec" / "cases" / "001-start-coins.7wn").read_text(encoding="utf-8")
    (folder / "001-start-coins.7wn").write_text(
        re.sub(r'\[Title "[^"]*"\]', f'[Title "{HOSTILE}"]', source), encoding="utf-8")
    return folder


#: The commands that print text for people (stdout, stderr or both), with the record (or its folder) as {path}.
HUMAN = {
    "check": ["check", "{path}"],
    "score": ["score", "{path}"],
    "score --at": ["score", "{path}", "--at", "II.3"],
    "show": ["show", "{path}"],
    "show --legal": ["show", "{path}", "--at", "II.3", "--legal"],
    "show --seat": ["show", "{path}", "--seat", "1", "--legal", "--at", "I.2"],
    "show --seat name": ["show", "{path}", "--seat", HOSTILE + "x"],
    "sheet": ["sheet", "{path}", "-o", "{out}.svg"],
    "html": ["html", "{path}", "-o", "{out}.html"],
    "html site": ["html", "{folder}", "-o", "{out}/"],
    "bgstats": ["bgstats", "{path}"],
    "fmt --check": ["fmt", "--check", "{path}"],
    "rules": ["rules", "R-START", "--casebook", "{cases}"],
    "rules list": ["rules", "--casebook", "{cases}"],
    "cards": ["cards", "Lumber" + HOSTILE],
    "stats": ["stats", "{path}"],
    "json --to-7wn": ["json", "--to-7wn", "{path}"],
    "unreadable": ["score", "{folder}/missing" + HOSTILE],
    "record (complete)": ["record", "{path}"],
}
#: The commands of :data:`HUMAN` that show the hostile name or file name (as stand-ins).
SHOWN = {"score", "score --at", "show", "show --legal", "show --seat", "show --seat name", "rules", "unreadable",
         "record (complete)"}
#: The commands whose stdout is JSON.
JSON = {
    "score --json": ["score", "{path}", "--json"],
    "show --json": ["show", "{path}", "--json", "--legal"],
    "bgstats --json": ["bgstats", "{path}", "--json"],
    "json": ["json", "{path}"],
    "check --json": ["check", "{path}", "--json"],
    "stats --json": ["stats", "{path}", "--json"],
    "rules --json": ["rules", "--casebook", "{cases}", "--json"],
}


def _args(args: list[str], hostile: Path, cases: Path, out: Path) -> list[str]:
    return [a.format(path=hostile, folder=hostile.parent, cases=cases, out=out) for a in args]


@pytest.mark.parametrize("name", HUMAN)
def test_no_command_prints_an_escape_from_a_record_to_a_pipe(name, hostile, hostile_cases, tmp_path):
    result = CliRunner().invoke(cli.main, _args(HUMAN[name], hostile, hostile_cases, tmp_path / "out"))
    out = result.stdout + result.stderr
    assert result.exit_code in (0, 1, 2), (result.exit_code, out, result.exception)
    assert not _steering(out), out
    if name in SHOWN:
        assert "Ann\u241b]52;c;cHduZWQ=\u2407" in out or "club\u241b]0;title\u2407" in out, out


@pytest.mark.parametrize("name", JSON)
def test_json_holds_every_escape_as_a_json_escape_and_reads_back_the_same(name, hostile, hostile_cases, tmp_path):
    result = CliRunner().invoke(cli.main, _args(JSON[name], hostile, hostile_cases, tmp_path / "out"))
    assert result.exit_code in (0, 1), (result.stdout, result.stderr)
    assert not _steering(result.stdout)
    data = json.loads(result.stdout)
    strings = _strings(data)  # the values are the record's, escape for escape
    assert name == "stats --json" or any(HOSTILE in s for s in strings) or any(str(hostile) == s for s in strings), strings


def test_json_safe_escapes_what_json_leaves_raw_and_keeps_the_value():
    text = json.dumps({"name": HOSTILE, "n": 1}, ensure_ascii=False)
    assert "\x9b" in text and "\u202e" in text  # JSON itself escapes only C0
    safe = json_safe(text)
    assert not _steering(safe) and json.loads(safe) == {"name": HOSTILE, "n": 1}


@given(st.text())
def test_json_safe_never_changes_a_json_value(text):
    document = json.dumps([text, {"k": text}], ensure_ascii=False, indent=2)
    safe = json_safe(document)
    assert json.loads(safe) == [text, {"k": text}] and not _steering(safe)


#: Data: their stdout keeps the record's bytes in a pipe.
DATA = {
    "fmt": ["fmt", "{path}"],
    "show --position": ["show", "{path}", "--position"],
    "html": ["html", "{path}"],
    "sheet": ["sheet", "{path}"],
}


@pytest.mark.parametrize("name", DATA)
def test_data_keeps_the_records_bytes_in_a_pipe(name, hostile, hostile_cases, tmp_path):
    result = CliRunner().invoke(cli.main, _args(DATA[name], hostile, hostile_cases, tmp_path / "out"))
    assert result.exit_code in (0, 1), (result.stdout, result.stderr)
    assert not _steering(result.stderr)
    if name == "fmt":
        assert result.stdout == hostile.read_text(encoding="utf-8")  # canonical already: byte for byte
    elif name == "show --position":
        assert HOSTILE in result.stdout
    else:
        assert result.stdout.startswith(("<!DOCTYPE html>", "<svg", "<?xml"))


def test_new_writes_the_names_it_is_given_as_they_are_to_a_pipe():
    result = run("new", "--date", "2026.11.29", "--seat", f"{HOSTILE}:Gizah:day", "--seat", "Bob:Babylon:night",
                 "--seat", "Cy:Rhodos:day")
    assert f'[Seat1 "{HOSTILE}" "Gizah" "day"]' in result.stdout


@pytest.mark.parametrize("name", DATA)
def test_data_holding_an_escape_is_refused_on_a_terminal_and_nothing_is_written(name, hostile, hostile_cases,
                                                                               tmp_path, monkeypatch):
    from wnotation.cli import streams

    monkeypatch.setattr(streams, "is_terminal", lambda: True)
    result = CliRunner().invoke(cli.main, _args(DATA[name], hostile, hostile_cases, tmp_path / "out"))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "would steer this terminal: it is written only to a file or a pipe (add > FILE)" in result.stderr
    assert not _steering(result.stdout + result.stderr)
    assert "U+001B (line " in result.stderr or "U+009B (line " in result.stderr
    assert HOSTILE not in result.stdout


def test_data_without_an_escape_still_goes_to_a_terminal(monkeypatch, tmp_path):
    from cli_helpers import game_text
    from wnotation.cli import streams


    monkeypatch.setattr(streams, "is_terminal", lambda: True)
    path = tmp_path / "g.7wn"
    path.write_text(game_text(3, 7), encoding="utf-8")
    assert run("fmt", str(path)).stdout == game_text(3, 7)


def test_rich_markup_in_a_seat_name_is_shown_as_text_on_a_terminal(monkeypatch, tmp_path):
    """A name such as ``[link=https://x]Ann[/link]`` is text: rich would otherwise turn it into an OSC 8 link."""
    from wnotation.cli import streams

    monkeypatch.setattr(streams, "is_terminal", lambda: True)
    path = tmp_path / "g.7wn"
    path.write_text(_named("[link=https://x]Ann[/link]"), encoding="utf-8")
    result = run("score", str(path))
    assert "[link=https://x]Ann[/link]" in result.stdout and "\x1b]8;" not in result.stdout


# --- on a real terminal (tmux) --------------------------------------------------------------------------------

TMUX = shutil.which("tmux")
WNOTATION = [sys.executable, "-m", "wnotation"]


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
def test_no_escape_from_a_record_reaches_a_real_terminal(hostile, hostile_cases, tmp_path):
    """Every command of :data:`HUMAN`, :data:`JSON` and :data:`DATA` run in a tmux pane, the bytes the pane
    receives recorded (pipe-pane): none of the record's sequences is among them, the window title is unchanged
    and no clipboard buffer was set."""
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    tmux = [TMUX, "-L", f"wnotation-safety-{os.getpid()}", "-f", os.devnull]
    lines = [" ".join(shlex.quote(a) for a in [*WNOTATION, *_args(args, hostile, hostile_cases, tmp_path / f"o{k}")])
             for k, args in enumerate([*HUMAN.values(), *JSON.values(), *DATA.values()])]
    script = tmp_path / "run.sh"
    script.write_text("\n".join(f"{line}; echo EXIT=$?" for line in lines) + "\necho ALL-DONE\nsleep 60\n")
    log = tmp_path / "pane.bytes"
    env = {**os.environ, "TERM": "xterm-256color"}
    subprocess.run([*tmux, "new-session", "-d", "-s", "safe", "-x", "200", "-y", "50", "-c", str(ROOT),
                    f"sleep 1; sh {shlex.quote(str(script))}"], check=True, env=env, timeout=30)
    try:
        subprocess.run([*tmux, "pipe-pane", "-o", "-t", "safe", f"cat >> {shlex.quote(str(log))}"], check=True,
                       timeout=30)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and b"ALL-DONE" not in (log.read_bytes() if log.exists() else b""):
            time.sleep(0.5)
        seen = log.read_bytes()
        assert b"ALL-DONE" in seen, seen[-2000:]
        title = subprocess.run([*tmux, "display-message", "-p", "-t", "safe", "#{pane_title}"], capture_output=True,
                               text=True, timeout=30).stdout
        buffers = subprocess.run([*tmux, "list-buffers"], capture_output=True, text=True, timeout=30).stdout
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)
    assert seen.count(b"EXIT=") == len(lines)
    for kind, sequence in ESCAPES.items():
        assert sequence.encode() not in seen, kind
    for raw in (b"\x1b]52;", b"\x1b]0;pwned", b"\x1b]0;title", b"\x1b[2J", b"\xc2\x9b", b"\x08", b"\xe2\x80\xae", b"\x07"):
        assert raw not in seen, raw
    assert "pwned" not in title and "title" not in title and not buffers.strip()
    assert "Ann\u241b]52;c;cHduZWQ=\u2407".encode() in seen  # the names were shown, as stand-ins
    assert seen.count(b"would steer this terminal") == len(DATA)


# --- what is not steering stays as written ---------------------------------------------------------------------

#: A name of a correct record with characters that draw nothing but steer nothing: a zero-width non-joiner
#: (Persian), a zero-width joiner (an emoji family), a soft hyphen and a right-to-left mark.
JOINED = "Mohammad\u200cReza \U0001f468\u200d\U0001f469 Ma\u00adria \u05d3\u05d5\u05d3\u200f"


@given(st.text())
def test_safe_text_keeps_its_length_and_every_character_that_does_not_steer(text):
    shown = safe(text)
    assert len(shown) == len(text) and not _steering(shown.replace("\n", "\ufffd"))
    assert all(a == b for a, b in zip(text, shown) if not steers(a))


def test_every_bidi_control_steers_and_joiners_do_not():
    assert all(steers(c) for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert all(steers(c) for c in "\x00\x07\x08\x1b\x7f\x85\x9b\u2028\u2029\r\n")
    assert not any(steers(c) for c in "\t\u200c\u200d\u00ad\u200b\ufeff\u200e\u200f\u061c")  # marks: text


def test_a_name_with_joiners_is_shown_printed_and_formatted_as_written(tmp_path, monkeypatch):
    from wnotation.cli import streams

    path = tmp_path / "joined.7wn"
    text = _named(JOINED)
    path.write_text(text, encoding="utf-8")
    assert JOINED in run("score", str(path)).stdout
    assert JOINED in run("show", str(path), "--seat", "1").stdout
    assert json.loads(run("score", str(path), "--json").stdout)["seats"][0]["name"] == JOINED
    assert f'"name": "{JOINED}"' in run("json", str(path)).stdout  # the JSON bytes hold the joiners as they are
    monkeypatch.setattr(streams, "is_terminal", lambda: True)
    assert run("fmt", str(path)).stdout == text  # data without a steering character still goes to a terminal
    assert JOINED in run("score", str(path)).stdout
