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
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli_helpers import run as cli
from test_recorder_session import SEVEN, THREE, answer_for, bot_game, drive, expected_text, header, script
from wnotation import check, parse, replay, write
from wnotation.recorder import scores as pad
from wnotation.recorder import table, ui
from wnotation.recorder.header import make_header, today
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
    # the purchases are listed before the purchase question, with no Tab pressed
    asked = [k for k, line in enumerate(shown) if line.startswith("  1  (") and line.endswith(" (default)")]
    assert asked and all(shown[k + 1].startswith("  2  (") for k in asked)
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


def _no_size(environ: Any) -> dict[str, str]:
    """The environment without COLUMNS and LINES, which would override the pane's own size."""
    return {k: v for k, v in environ.items() if k not in ("COLUMNS", "LINES")}


def _recording(path: Path, socket: str, then: str) -> tuple[Any, list[str], Path, list[str]]:
    """``wnotation record PATH`` started in a tmux session ``rec`` (120x30) on its own server, for a bot game of
    three seats, the shell running ``then`` after it: the game, its typed answers, the path and the tmux prefix."""
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    target = bot_game(*THREE)
    tmux = [TMUX, "-L", f"wnotation-{socket}-{os.getpid()}", "-f", os.devnull]
    line = " ".join(shlex.quote(a) for a in [*WNOTATION, "record", str(path), *seat_flags(target)])
    env = {**_no_size(os.environ), "TERM": "xterm-256color"}
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
    env = {**_no_size(os.environ), "TERM": "xterm-256color"}
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


# --- issue 28: confirmation, the table commands, escapes, wrapping, SIGKILL at every kind of prompt -------------


ROSTER = ["Ada:Babylon:night", "Bob:Ephesos:day", "Cyd:Halikarnassos:night"]


def test_R_DECK__the_issues_sequence_through_the_prompts_records_nothing_illegal_unconfirmed(tmp_path):
    """I.1 lo, clay po, al; at I.2 Ada's lo (R-DECK, R-UNIQUE), then lo again, then an ambiguous sto, then Bob's al
    typed too soon: the file never holds an illegal I.2, and the table commands at the confirmation leave it
    pending."""
    path = tmp_path / "club.7wn"
    session = Session(make_header(seats=ROSTER, date="2026.11.29"), path=str(path))
    answers = ["lo", "clay po", "al", "lo", "lo", "sto", "al", "coins", "city", "n", "lo", "pile", "y", "lu ya"]
    done, shown = through_pipe(session, answers)
    assert not done and "\nI.2 " not in path.read_text(encoding="utf-8")
    assert shown.count("not recorded: Loom for Ada; enter the action again") == 1
    assert shown.count("not recorded: Altar for Ada; enter the action again") == 1
    assert any("could be" in line for line in shown)
    assert "coins at I.1:" in shown and any(line.startswith("Ada: Babylon night, 3 coins (at I.1)") for line in shown)
    assert any(line.startswith("discard pile at I.1 (0)") for line in shown)
    assert [(a.seat, a.card) for a in session.entered] == [(1, "Loom"), (2, "Lumber Yard")]
    done, shown = through_pipe(session, ["gla"])
    at = shown.index(f"I.2 recorded in {path}, with 2 errors (R-DECK, R-UNIQUE):")
    assert shown[at + 1].startswith("  ! I.2 error[R-DECK]: Loom")
    assert shown[at + 2].startswith("  ! I.2 error[R-UNIQUE]")
    assert "\nI.2 Loom | Lumber Yard | Glassworks\n" in path.read_text(encoding="utf-8")


def test_help_lists_the_table_commands_and_they_leave_the_record_as_it_is(tmp_path):
    target = bot_game(*THREE)
    path = tmp_path / "g.7wn"
    session = Session(header(target), path=str(path))
    drive(session, target, until="II.4")
    before = (session.text(), list(session.turns), list(session.entered))
    done, shown = through_pipe(session, ["help", "city", "city cy", "hand 2", "pile", "coins", "sheet", "city Zed"])
    assert (session.text(), session.turns, session.entered) == before and path.read_text(encoding="utf-8") == before[0]
    assert shown.index(ui.HELP) < shown.index("  pile: the discard pile")
    for name in ("city", "hand", "pile", "coins", "sheet"):
        assert any(line.startswith(f"  {name}: ") for line in shown)
    assert any(line.startswith("Ada: Babylon night,") for line in shown)
    cyd = next(k for k, line in enumerate(shown) if line.startswith("Cyd: Halikarnassos night"))
    fields = [line.split()[0] for line in shown[cyd + 1:cyd + 12]]
    assert {"stages", "production", "shields", "science", "hand"} <= set(fields)
    assert any(line.startswith("  red ") and "Guard Tower" in line for line in shown[cyd:cyd + 14])  # the pick
    assert any(line.startswith("Bob's hand at II.3: 4 cards, not known; still possible:") for line in shown)
    assert any(line.startswith("provisional score sheet after II.3:") for line in shown)
    assert "no seat 'Zed': seats Ada, Bob, Cyd, or 1 to 3" in shown
    assert ui.ChoiceCompleter([], extra=table.completions(session)).texts("ci") == ["city Ada", "city Bob", "city Cyd"]
    guilds = ui.ChoiceCompleter([ui.Choice("Builders Guild"), ui.Choice("Spies Guild")], multi=True)
    assert guilds.texts("Builders Guild, sp") == ["Spies Guild"]  # the item after the last comma


def test_with_the_deal_known_hand_shows_the_cards():
    target = bot_game(*THREE)
    session = Session(target.model_copy(update={"turns": (), "results": ()}))
    lines = table.command(session, "hand ada")
    assert lines == [f"Ada's hand at I.0: {', '.join(c.name for c in session.start().hands[0])}"]


@pytest.mark.parametrize("escape", ["\x1b]52;c;aGVsbG8=\x07", "\x1b]0;owned\x07", "\x1b[2J\x1b[31m", "\x9b31m"],
                         ids=["osc52", "osc0", "csi", "c1-csi"])
def test_a_seat_name_with_an_escape_sequence_is_shown_as_visible_stand_ins(tmp_path, escape):
    """Issue 27 item 3, the recorder's share: prompts, findings, turn summary, standings and table commands."""
    seats = [f"Ada{escape}:Babylon:night", "Bob:Ephesos:day", "Cyd:Halikarnassos:night"]
    session = Session(make_header(seats=seats, date="2026.11.29"), path=str(tmp_path / "x.7wn"))
    prompts: list[str] = []
    real = ui._message
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ui, "_message", lambda q: prompts.append(real(q)) or prompts[-1])
        _, shown = through_pipe(session, ["lo", "clay po", "al", "lo", "y", "coins", "city 1", "sheet"])
    assert any("Ada" in line and "Loom" in line for line in shown) and prompts
    for text in shown + prompts:
        assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in text), repr(text)
    assert any("Ada␛" in line for line in shown) or escape.startswith("\x9b")
    offered = ui.ChoiceCompleter([], extra=table.completions(session)).get_completions(
        Document("city"), CompleteEvent(text_inserted=True))
    texts = [(c.text, c.display_meta_text) for c in offered]
    assert texts[0][0] == "city 1" and texts[1][0] == "city Bob"  # a name with a control character: its number
    assert all(text.isprintable() and meta.isprintable() for text, meta in texts)


def test_long_lines_wrap_at_word_boundaries_at_any_width():
    for width in (40, 80, 100, 120, 170):
        pieces = ui.wrap(ui.HELP, width)
        assert all(len(p) <= width for p in pieces)
        assert " ".join(p.strip() for p in pieces) == ui.HELP  # no word broken, none lost
    assert ui.wrap(ui.HELP, None) == [ui.HELP]  # not a terminal: one line, as a pipe or a log wants it
    line = "  Ada  coins  3  shields  0  points  12"
    pieces = ui.wrap(line, 20)
    assert len(pieces) > 1 and all(len(p) <= 20 and p.startswith("  ") for p in pieces)
    assert pieces[0].startswith("  Ada") and pieces[1].startswith("    ") and " ".join(pieces).split() == line.split()


def _spawn(tmux: list[str], path: Path, flags: list[str]) -> int:
    """``wnotation record PATH FLAGS`` as the process of a new tmux pane (120x30); its pid."""
    line = "exec " + " ".join(shlex.quote(a) for a in [*WNOTATION, "record", str(path), *flags])
    env = {**_no_size(os.environ), "TERM": "xterm-256color"}
    subprocess.run([*tmux, "new-session", "-d", "-s", "rec", "-x", "120", "-y", "30", "-c", str(ROOT), line],
                   check=True, env=env, timeout=30)
    pid = subprocess.run([*tmux, "display", "-p", "-t", "rec", "#{pane_pid}"], capture_output=True, text=True,
                         check=True, timeout=30).stdout
    return int(pid)


KINDS = ["action", "purchase", "keep", "discard", "pick", "confirm", "guilds"]


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
@pytest.mark.parametrize("kind", KINDS)
def test_killed_with_sigkill_at_each_kind_of_prompt_in_a_terminal_then_resumed(tmp_path, kind):
    """The real command in a tmux pane, killed with SIGKILL while its prompt of ``kind`` waits: the file holds
    every complete turn and reads and checks; the same command on it goes on and the record comes out whole."""
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    target, view = (bot_game(3, 1), 1) if kind == "guilds" else (bot_game(*THREE), None)
    flags = seat_flags(target) + (["--view", "Ada"] if view else [])
    shadow = Session(header(target).model_copy(update={"date": today(), "tags": ()}), view=view)
    answers: list[str] = []
    illegal = target.turns[0].actions[0].card  # Ada's card of I.1, again at I.2
    while True:
        q = shadow.question()
        assert q is not None
        if q.kind == kind and (len(shadow.turns) >= 4 or kind in ("confirm", "guilds", "keep", "pick")):
            break
        answer = illegal if kind == "confirm" and (q.label, q.seat, q.kind) == ("I.2", 1, "action") \
            else answer_for(shadow, target)
        shadow.answer(answer)
        answers.append(answer)
    waiting = ui._message(q).rstrip()
    path = tmp_path / f"{kind}.7wn"
    tmux = [TMUX, "-L", f"wnotation-kill-{kind}-{os.getpid()}", "-f", os.devnull]
    try:
        pid = _spawn(tmux, path, flags)
        for answer in answers:
            subprocess.run([*tmux, "send-keys", "-t", "rec", "-l", answer + "\r"], check=True, timeout=30)
        screen, deadline = "", time.monotonic() + 60
        while time.monotonic() < deadline and not screen.rstrip().endswith(waiting):
            screen = _pane(tmux)
            time.sleep(0.1)
        assert screen.rstrip().endswith(waiting), screen[-600:]  # the last line: the prompt, whole
        os.kill(pid, signal.SIGKILL)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)
    text = path.read_text(encoding="utf-8")
    kept = parse(text)
    assert kept.turns == tuple(shadow.turns)[:len(kept.turns)] and len(kept.turns) >= len(shadow.turns) - 1
    assert check(text).ok and not [p for p in os.listdir(tmp_path) if ".wnotation-" in p]
    if kind == "confirm":
        shadow.answer("n")
    resumed = Session.open(str(path), view=view)
    rest = []
    while resumed.question() is not None:
        rest.append(answer_for(resumed, target))
        assert resumed.answer(rest[-1]).accepted, rest[-1]
    while shadow.question() is not None:
        shadow.answer(answer_for(shadow, target))
    again = subprocess.run([*WNOTATION, "record", str(path), *(["--view", "Ada"] if view else [])],
                           input=typed(rest).encode(), capture_output=True, cwd=ROOT, timeout=120)
    assert again.returncode == 0, again.stderr
    assert path.read_text(encoding="utf-8") == shadow.text() == resumed.text()


def _wait(tmux: list[str], done, timeout: float = 60) -> str:
    screen, deadline = "", time.monotonic() + timeout
    while time.monotonic() < deadline and not done(screen):
        screen = _pane(tmux)
        time.sleep(0.1)
    return screen


def _keys(tmux: list[str], *answers: str) -> None:
    for answer in answers:
        subprocess.run([*tmux, "send-keys", "-t", "rec", "-l", answer + "\r"], check=True, timeout=30)


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
def test_in_a_real_terminal_an_illegal_action_waits_for_y_the_table_shows_and_the_intro_wraps_at_words(tmp_path):
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    path = tmp_path / "club.7wn"
    tmux = [TMUX, "-L", f"wnotation-confirm-{os.getpid()}", "-f", os.devnull]
    flags = [f for s in ["Ada\x1b]0;owned\x07:Babylon:night", *ROSTER[1:]] for f in ("--seat", s)]
    try:
        _spawn(tmux, path, flags)
        screen = _wait(tmux, lambda s: "I.1 Ada" in s)
        top = screen.splitlines()
        pieces = ui.wrap(ui.HELP, 120)
        assert len(pieces) > 1 and top[:len(pieces)] == pieces, top[:4]  # wrapped at words on 120 columns
        _keys(tmux, "lo", "clay po", "al", "lo")
        screen = _wait(tmux, lambda s: s.rstrip().endswith("[y/N]>"))
        assert screen.rstrip().endswith("I.2 record Loom for Ada␛]0;owned␇ with 2 errors (R-DECK, R-UNIQUE)? [y/N]>")
        _keys(tmux, "lo", "sto", "al", "coins")
        screen = _wait(tmux, lambda s: "coins at I.1:" in s)
        assert "not recorded: Loom for Ada␛]0;owned␇; enter the action again" in screen
        assert "could be" in screen and "I.2 record Altar for Ada␛]0;owned␇ with 1 error (R-DECK)? [y/N]>" in screen
        _keys(tmux, "n", "th", "lu ya", "gla", "sheet")
        screen = _wait(tmux, lambda s: "provisional score sheet after I.2:" in s)
        assert "I.2 recorded in" in screen and ", with" not in screen.split("I.2 recorded in")[1].split("\n")[0]
        assert "\nI.2 Theater | Lumber Yard | Glassworks\n" in path.read_text(encoding="utf-8")
        assert "\x1b" not in screen
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
def test_in_a_real_terminal_the_score_pad_refuses_an_impossible_row_and_says_when_it_keeps_one(tmp_path):
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    path = tmp_path / "pad.7wn"
    tmux = [TMUX, "-L", f"wnotation-pad-{os.getpid()}", "-f", os.devnull]
    line = " ".join(shlex.quote(a) for a in [*WNOTATION, "record", str(path), "--scores", "--seat", "Kai:Gizah",
                                            "--seat", "Lu:Rhodos", "--seat", "Mo:Ephesos"])
    env = {**_no_size(os.environ), "TERM": "xterm-256color"}
    subprocess.run([*tmux, "new-session", "-d", "-s", "rec", "-x", "120", "-y", "40", "-c", str(ROOT),
                    f"{line}; echo EXIT $?; sleep 60"], check=True, env=env, timeout=30)
    try:
        _wait(tmux, lambda s: "coins Kai" in s)
        _keys(tmux, "0", "0", "0", "1", "19", "n", "1", "1", "3")
        screen = _wait(tmux, lambda s: s.rstrip().endswith("[y/N]>") and "treasury 3" in s)
        assert "error[R-MILITARY]: Lu's military 19 cannot be" in screen
        assert "error[R-SCORE]: Kai's treasury is 0 for 0 coins (coins / 3, rounded down), not 3" in screen
        _keys(tmux, "y", "", "", *["0"] * 15, "", "", "", "")
        screen = _wait(tmux, lambda s: "EXIT" in s)
        assert "the score pad is filled in with 1 error (R-SCORE)" in screen and "EXIT 0" in screen
        assert "is complete" not in screen
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)
    assert not replay(parse(path.read_text(encoding="utf-8"))).ok


PAD_SEATS = ["--seat", "Kai:Gizah", "--seat", "Lu:Rhodos", "--seat", "Mo:Ephesos"]
#: For each kind of the score pad's prompts: the answers typed before it, the prompt waiting when it is killed.
PAD_PROMPTS = {
    "row": (["3", "4", "5", "1"], "military Lu>"),
    "confirm": (["3", "4", "5", "1", "1", "1", "2"], "record treasury 2 for Kai with 1 error (R-SCORE)? [y/N]>"),
    "re-enter": (["3", "4", "5"] + ["1"] * 21 + ["", "", ""], "re-enter a row (ROW SEAT, e.g. treasury Kai), or "
                 "Enter: done>"),
    "header": (["Club night", "Kai"], "seat 1 Wonder>"),  # the event, then the first seat's name
}


@pytest.mark.skipif(TMUX is None and not os.environ.get("CI"), reason="tmux is not installed (apt-get install tmux)")
@pytest.mark.parametrize("kind", list(PAD_PROMPTS))
def test_the_score_pad_killed_with_sigkill_at_each_kind_of_prompt_then_resumed(tmp_path, kind):
    """``record --scores`` in a tmux pane killed while a row, a confirmation, the final re-entry or (no --seat) the
    header is asked: the file holds every answer taken (none for the header: it is written once complete) and the
    same command goes on to the same pad."""
    assert TMUX is not None, "tmux is missing in CI: .ci/run installs it"
    answers, waiting = PAD_PROMPTS[kind]
    path = tmp_path / "pad.7wn"
    tmux = [TMUX, "-L", f"wnotation-padkill-{kind}-{os.getpid()}", "-f", os.devnull]
    try:
        pid = _spawn(tmux, path, ["--scores", "--date", "2026.11.29"] + ([] if kind == "header" else PAD_SEATS))
        _keys(tmux, *answers)
        screen = _wait(tmux, lambda s: s.rstrip().endswith(waiting))
        assert screen.rstrip().endswith(waiting), screen[-400:]
        os.kill(pid, signal.SIGKILL)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)
    if kind == "header":
        assert not path.exists()
        rest = ["3", "4", "5"] + ["1"] * 21 + ["", "", ""]
        again = subprocess.run([*WNOTATION, "record", str(path), "--scores", "--date", "2026.11.29", *PAD_SEATS],
                               input=typed(rest).encode(), capture_output=True, cwd=ROOT, timeout=120)
    else:
        kept = parse(path.read_text(encoding="utf-8"))
        coins = [r.coins for r in kept.results]
        assert coins == [3, 4, 5] and [r.military for r in kept.results][:1] == [1]
        if kind == "confirm":
            assert kept.results[0].treasury is None  # the answer with an error waited for y: not kept
        left = pad.PadSession.open(str(path))
        n = len(left.answered)
        rest = ["1"] * (24 - n) + ["", "", ""] if kind != "re-enter" else []  # 7 rows of 1, then the totals
        again = subprocess.run([*WNOTATION, "record", str(path), "--scores"], input=typed(rest).encode(),
                               capture_output=True, cwd=ROOT, timeout=120)
    assert again.returncode == 0, again.stderr
    assert b"the score pad is complete" in again.stdout
    record = parse(path.read_text(encoding="utf-8"))
    assert replay(record).ok and [r.total for r in record.results] == [7, 7, 7] and record.results[0].treasury == 1


def test_going_on_with_a_record_shows_its_errors_with_escapes_as_visible_stand_ins(tmp_path):
    path = tmp_path / "x.7wn"
    session = Session(make_header(seats=["Ada\x1b]52;c;aGk=\x07:Babylon:night", *ROSTER[1:]], date="2026.11.29"),
                      path=str(path))
    for answer in ("lo", "clay po", "al", "lo", "y", "lu ya", "gla"):
        session.answer(answer)
    assert "\nI.2 Loom | " in path.read_text(encoding="utf-8")
    done = subprocess.run([*WNOTATION, "record", str(path)], input=b"", capture_output=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "I.2 error[R-UNIQUE]: Ada␛]52;c;aGk=␇ cannot build Loom" in out and "\x1b]" not in out


def test_the_commands_refusals_show_names_with_escapes_as_visible_stand_ins(tmp_path):
    path = tmp_path / "g.7wn"
    path.write_text(cli("new", "--seat", "A:Gizah", "--seat", "B:Ephesos", "--seat", "C:Rhodos").stdout)
    err = cli("record", str(path), "--view", "Z\x1b]0;x\x07", code=2).stderr
    assert err == "error: --view Z␛]0;x␇: no such seat (seats: A, B, C, or 1 to 3)\n"


def test_a_wonder_given_by_the_beginning_of_only_one_name_is_taken_in_the_flags_too():
    out = cli("new", "--date", "2026.11.29", "--seat", "A:bab", "--seat", "B:hal:n", "--seat", "C:colossus").stdout
    assert '[Seat1 "A" "Babylon" "day"]\n[Seat2 "B" "Halikarnassos" "night"]\n[Seat3 "C" "Rhodos" "day"]' in out
    assert "unknown Wonder 'the'" in cli("new", "--seat", "A:the", "--seat", "B:hal", "--seat", "C:rh", code=2).stderr
