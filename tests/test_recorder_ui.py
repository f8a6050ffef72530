"""``wnotation record`` and ``wnotation new`` as a user meets them: the prompt_toolkit front end driven through a pipe
(every keystroke of whole games), the real command killed with SIGKILL mid-game then run again, and a real terminal
(a tmux pane: send-keys types, capture-pane reads the screen).

tmux is a Debian package (``.ci/run`` installs it); without it the terminal test is skipped, except in CI.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli_helpers import run as cli
from test_recorder_session import SEVEN, THREE, answer_for, bot_game, expected_text, header, script
from wnotation import check, parse, replay, write
from wnotation.recorder import ui
from wnotation.recorder.header import today
from wnotation.recorder.session import Session

ROOT = Path(__file__).resolve().parent.parent
WNOTATION = [sys.executable, "-m", "wnotation"]
TMUX = shutil.which("tmux")


def cli_text(record) -> str:
    """The record ``wnotation record --seat …`` makes of the game: today's date, no Event tag."""
    return expected_text(record.model_copy(update={"date": today(), "tags": ()}))


def seat_flags(record) -> list[str]:
    return [f for s in record.seats for f in ("--seat", f"{s.name}:{s.wonder}:{s.side}")]


def typed(answers: list[str]) -> str:
    return "".join(a + "\r" for a in answers)


def through_pipe(session: Session, answers: list[str]) -> tuple[bool, list[str]]:
    """Run the front end on ``session``, the answers typed into a pipe; (completed, the lines it showed)."""
    shown: list[str] = []
    with create_pipe_input() as pipe:
        pipe.send_text(typed(answers))
        pipe.close()
        done = ui.run(session, echo=shown.append, input=pipe, output=DummyOutput())
    return done, shown


def test_a_3_player_game_through_the_prompts_with_a_mistake_corrected_and_an_undo(tmp_path):
    target = bot_game(*THREE)
    answers = script(target)
    first_of_i2 = 3  # three answers for I.1 (no purchase, no question but the actions)
    built = target.turns[0].actions[0].card
    # the illegal build, then Ada's answer typed at the confirmation (it cancels), then typed again, then undone
    answers = answers[:first_of_i2] + [built] + answers[first_of_i2:first_of_i2 + 1] * 2 + ["undo"] + \
        answers[first_of_i2:]
    path = tmp_path / "club.7wn"
    done, shown = through_pipe(Session(header(target), path=str(path)), answers)
    assert done, shown[-5:]
    assert path.read_text(encoding="utf-8") == expected_text(target)
    assert any("error[R-UNIQUE]" in line and built in line for line in shown)
    assert f"not recorded: {built} for Ada; enter the action again" in shown
    assert "undone: Ada's action" in shown
    assert any(line.startswith("II.7 recorded") for line in shown)
    assert "Cyd builds Guard Tower from the discard pile" in shown
    assert "the game is over: score sheet" in shown and shown[-1] == f"the record is complete: {path}"


def test_a_7_player_game_in_a_seat_view_with_a_purchase_chosen_and_completion_fast_at_every_keystroke(tmp_path):
    target = bot_game(*SEVEN)
    shadow = Session(header(target), view=4)
    answers: list[str] = []
    chose = None
    worst = 0.0
    while (q := shadow.question()) is not None:
        answer = answer_for(shadow, target)
        if q.kind == "purchase" and chose is None:
            answer, chose = "2", (q.label, q.seat, shadow.draft.play.purchases[1].purchase)
        completer = ui.ChoiceCompleter(q.choices)
        for k in range(len(answer) + 1):  # what the menu shows as each letter is typed, in CPU time (the
            start = time.process_time()  # machine may be loaded: the wall clock would time the other processes)
            completer.texts(answer[:k])
            worst = max(worst, time.process_time() - start)
        assert shadow.answer(answer).accepted
        answers.append(answer)
    assert worst < 0.05, f"completing took {worst * 1000:.1f} ms"  # README: the measured figures
    path = tmp_path / "seven.7wn"
    done, shown = through_pipe(Session(header(target), path=str(path), view=4), answers)
    assert done
    text = path.read_text(encoding="utf-8")
    assert text == shadow.text() and write(parse(text)) == text
    record = parse(text)
    label, seat, purchase = chose
    assert next(a for t in record.turns if t.label == label for a in t.actions if a.seat == seat).purchase == purchase
    assert any(a.card == "?" for t in record.turns for a in t.actions if a.seat != 4)
    assert {t.label for t in record.turns if t.number == 7} == {"II.7", "III.7"}
    assert any(a.pick is not None and a.pick.card for t in record.turns for a in t.actions)
    played = replay(record)
    assert played.ok and played.complete and record.results


def test_killed_mid_game_the_file_holds_every_complete_turn_and_record_goes_on(tmp_path):
    target = bot_game(*THREE)
    answers = script(target)
    path = tmp_path / "killed.7wn"
    # Ages I and II up to II.2 complete, then two of the three actions of II.3
    log = [q.label for q, _, _ in _drive_log(target)]
    upto = log.index("II.3")
    proc = subprocess.Popen([*WNOTATION, "record", str(path), *seat_flags(target)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        proc.stdin.write(typed(answers[:upto + 2]).encode())
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "\nII.2 " not in _text(path):
            time.sleep(0.05)
        time.sleep(0.5)  # the two answers of II.3 are read and taken
        assert proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
    text = path.read_text(encoding="utf-8")
    assert [t.label for t in parse(text).turns][-1] == "II.2" and "\nII.3 " not in text
    kept = parse(text).turns
    assert kept == parse(cli_text(target)).turns[:len(kept)]
    assert check(text).ok
    assert not [p for p in os.listdir(tmp_path) if ".wnotation-" in p]  # no temporary file left behind
    again = subprocess.run([*WNOTATION, "record", str(path)], input=typed(answers[upto:]).encode(),
                           capture_output=True, cwd=ROOT, timeout=120)
    assert again.returncode == 0, again.stderr
    assert b"going on after II.2" in again.stdout
    assert path.read_text(encoding="utf-8") == cli_text(target)


def _drive_log(target):
    from test_recorder_session import drive

    return drive(Session(header(target)), target)


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def _pane(tmux: list[str]) -> str:
    return subprocess.run([*tmux, "capture-pane", "-p", "-t", "rec"], capture_output=True, text=True).stdout


def _recording(path: Path, socket: str, then: str) -> tuple[Any, list[str], Path, list[str]]:
    """``wnotation record PATH`` started in a tmux session ``rec`` (120x30) on its own server, for a bot game of
    three seats, the shell running ``then`` after it: the game, its typed answers, the path and the tmux prefix."""
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    target = bot_game(*THREE)
    tmux = [TMUX, "-L", f"wnotation-{socket}-{os.getpid()}", "-f", os.devnull]
    line = " ".join(shlex.quote(a) for a in [*WNOTATION, "record", str(path), *seat_flags(target)])
    env = {**os.environ, "TERM": "xterm-256color"}
    subprocess.run([*tmux, "new-session", "-d", "-s", "rec", "-x", "120", "-y", "30", "-c", str(ROOT),
                    f"{line}; {then}"], check=True, env=env, timeout=30)
    return target, script(target), path, tmux


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
def test_a_game_typed_in_a_real_terminal(tmp_path):
    target, answers, path, tmux = _recording(tmp_path / "terminal.7wn", "record", "sleep 60")
    try:
        screen = ""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "I.1 Ada (Babylon night)" not in screen:
            screen = _pane(tmux)
            time.sleep(0.1)
        assert "I.1 Ada (Babylon night) [3 coins]>" in screen, screen
        subprocess.run([*tmux, "send-keys", "-t", "rec", "-l", "lo"], check=True, timeout=30)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "Loom" not in screen.split("I.1 Ada")[-1]:
            screen = _pane(tmux)  # the completion menu shows Loom as the letters are typed
            time.sleep(0.1)
        assert "Loom" in screen.split("I.1 Ada")[-1], screen
        subprocess.run([*tmux, "send-keys", "-t", "rec", "BSpace", "BSpace"], check=True, timeout=30)
        for answer in answers:
            keys = ["-l", answer + "\r"]
            subprocess.run([*tmux, "send-keys", "-t", "rec", *keys], check=True, timeout=30)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and "the record is complete" not in screen:
            screen = _pane(tmux)
            time.sleep(0.2)
        assert "the record is complete" in screen, screen
        assert "rank" in screen and "total" in screen  # the score sheet
        assert path.read_text(encoding="utf-8") == cli_text(target)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)


def test_the_header_is_asked_with_completion_on_wonders_and_today_as_the_default():
    # "bab": the only Wonder that beginning names is taken, as the card prompts take the only card
    answers = ["Club night", "", "Ana", "Giza", "", "Bo", "rhodes", "B", "Cy", "bab", "night", ""]
    shown: list[str] = []
    with create_pipe_input() as pipe:
        pipe.send_text(typed(answers))
        record = ui.ask_header(echo=shown.append, input=pipe, output=DummyOutput())
    assert record.date == today() and record.tag("Event") == "Club night"
    assert [(s.name, s.wonder, s.side) for s in record.seats] == [
        ("Ana", "Gizah", "day"), ("Bo", "Rhodos", "night"), ("Cy", "Babylon", "night")]
    assert ui.ChoiceCompleter([]).texts("") == ["undo", "undo turn", "redo"]
    assert ui.wonder_of("hal") == "Halikarnassos" and ui.wonder_of("PYRAMIDS") == "Gizah"
    with pytest.raises(ValueError, match="Atlantis"):
        ui.wonder_of("Atlantis")


# --- the commands' own checks ----------------------------------------------------------------------------------


def test_new_prints_a_header_that_reads_back():
    out = cli("new", "--event", "Club night", "--seat", "Alice:Giza:day", "--seat", "Bob:babylon:B",
              "--seat", "Carol:Rhodes").stdout
    assert out == (f'[Format "7WN 1"]\n[Edition "2e"]\n[Date "{today()}"]\n[Event "Club night"]\n'
                   '[Seat1 "Alice" "Gizah" "day"]\n[Seat2 "Bob" "Babylon" "night"]\n[Seat3 "Carol" "Rhodos" "day"]\n')
    assert write(parse(out)) == out
    assert cli("new", "--date", "2026-3-7", "--seat", "A:Gizah", "--seat", "B:Rhodos", "--seat", "C:Ephesos"
               ).stdout.splitlines()[2] == '[Date "2026.03.07"]'


@pytest.mark.parametrize("args, message", [
    (["--seat", "A:Gizah"], "3 to 7"),
    (["--seat", "A:Gizah", "--seat", "B:Gizah", "--seat", "C:Rhodos"], "same Wonder"),
    (["--seat", "A:Atlantis", "--seat", "B:Gizah", "--seat", "C:Rhodos"], "unknown Wonder 'Atlantis'"),
    (["--seat", "A:Gizah:up", "--seat", "B:Ephesos", "--seat", "C:Rhodos"], "side 'up'"),
    (["--date", "yesterday", "--seat", "A:Gizah", "--seat", "B:Ephesos", "--seat", "C:Rhodos"], "YYYY.MM.DD"),
    ([], "give the seats with --seat"),
])
def test_new_refuses_a_roster_that_cannot_be_a_records(args, message):
    assert message in cli("new", *args, code=2).stderr


def test_record_refuses_a_new_header_on_an_existing_record_and_an_unknown_view(tmp_path):
    path = tmp_path / "g.7wn"
    path.write_text(cli("new", "--seat", "A:Gizah", "--seat", "B:Ephesos", "--seat", "C:Rhodos").stdout)
    assert "already holds a record" in cli("record", str(path), "--seat", "D:Gizah", code=2).stderr
    assert "no such seat" in cli("record", str(path), "--view", "Zed", code=2).stderr


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
def test_new_asks_in_a_terminal_and_writes_only_the_header_to_its_redirected_output(tmp_path):
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    path = tmp_path / "new.7wn"
    tmux = [TMUX, "-L", f"wnotation-new-{os.getpid()}", "-f", os.devnull]
    line = " ".join(shlex.quote(a) for a in [*WNOTATION, "new"]) + f" > {shlex.quote(str(path))}; echo DONE"
    env = {**os.environ, "TERM": "xterm-256color"}
    subprocess.run([*tmux, "new-session", "-d", "-s", "rec", "-x", "120", "-y", "30", "-c", str(ROOT),
                    f"{line}; sleep 60"], check=True, env=env, timeout=30)
    try:
        screen = ""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "event" not in screen:
            screen = _pane(tmux)
            time.sleep(0.1)
        assert "event (Enter: none)>" in screen, screen
        for answer in ["Club night", "", "Ana", "giza", "", "Bo", "Rhodes", "b", "Cy", "Ephesos", "", ""]:
            subprocess.run([*tmux, "send-keys", "-t", "rec", "-l", answer + "\r"], check=True, timeout=30)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "DONE" not in screen:
            screen = _pane(tmux)
            time.sleep(0.1)
        assert "DONE" in screen and "seat 3 Wonder>" in screen, screen
        assert path.read_text(encoding="utf-8") == (
            f'[Format "7WN 1"]\n[Edition "2e"]\n[Date "{today()}"]\n[Event "Club night"]\n'
            '[Seat1 "Ana" "Gizah" "day"]\n[Seat2 "Bo" "Rhodos" "night"]\n[Seat3 "Cy" "Ephesos" "day"]\n')
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
def test_ctrl_c_in_a_terminal_stops_with_every_complete_turn_in_the_file(tmp_path):
    target, answers, path, tmux = _recording(tmp_path / "stopped.7wn", "stop", "echo EXIT $?; sleep 60")
    try:
        for answer in answers[:7]:  # I.1 and I.2, then one action of I.3
            subprocess.run([*tmux, "send-keys", "-t", "rec", "-l", answer + "\r"], check=True, timeout=30)
        screen, deadline = "", time.monotonic() + 30
        while time.monotonic() < deadline and "I.3 Bob" not in screen:
            screen = _pane(tmux)
            time.sleep(0.1)
        subprocess.run([*tmux, "send-keys", "-t", "rec", "C-c"], check=True, timeout=30)
        while time.monotonic() < deadline and "EXIT" not in screen:
            screen = _pane(tmux)
            time.sleep(0.1)
        assert "stopped after I.2" in screen and "EXIT 0" in screen, screen
        record = parse(path.read_text(encoding="utf-8"))
        assert [t.label for t in record.turns] == ["I.1", "I.2"] and record.turns == target.turns[:2]
        assert check(path.read_text(encoding="utf-8")).ok
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)
