"""``wnotation record --scores``: a score-pad record (7WN §9.1) typed row by row through prompt_toolkit's pipe, as
at the table: the science calculator (R-SCORE), treasury from coins, undo, an answer refused and asked again,
totals and ranks computed (R-WIN), the expansion rows asked when named (R-SCORE-EXP), and going on after a stop."""

from __future__ import annotations

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli_helpers import run as cli
from wnotation import parse, replay
from wnotation.recorder import scores as pad
from wnotation.recorder.header import make_header

SEATS = ["Ann:Gizah:day", "Ben:Babylon:night", "Cat:Rhodos:day"]
# coins, military, treasury (Enter: coins // 3), wonder, civilian, commercial, guilds, science, cities, total (Enter:
# the sum of the rows)
ANSWERS = ["7", "12", "", "13", "8", "-3", "", "", "5", "15", "0", "3", "8", "20", "30", "0", "0", "0",
           "0", "0", "0", "3 2 1", "26", "9", "-3", "4", "0", "", "", ""]
EXPECTED = """\
result Ann: military 13 treasury 2 wonder 15 civilian 8 commercial 0 guilds 0 science 21 cities -3 total 56 coins 7 rank 2 tablets 3 compasses 2 gears 1
result Ben: military 8 treasury 4 wonder 0 civilian 20 commercial 0 guilds 0 science 26 cities 4 total 62 coins 12 rank 1
result Cat: military -3 treasury 5 wonder 3 civilian 30 commercial 0 guilds 0 science 9 cities 0 total 44 rank 3
"""


def session(path, expansions=("Cities",)):
    header = make_header(seats=SEATS, date="2026.11.29")
    return pad.PadSession(header.model_copy(update={"expansions": expansions}), str(path))


def typed_pad(s, answers):
    shown: list[str] = []
    with create_pipe_input() as pipe:
        pipe.send_text("".join(a + "\r" for a in answers))
        pipe.close()
        done = pad.run(s, echo=shown.append, input=pipe, output=DummyOutput())
    return done, shown


def test_R_SCORE__a_pad_typed_row_by_row_with_the_science_calculator_checks_clean(tmp_path):
    path = tmp_path / "pad.7wn"
    done, shown = typed_pad(session(path), ANSWERS)
    text = path.read_text(encoding="utf-8")
    assert done and text.endswith(EXPECTED) and '[Expansions "Cities"]' in text
    played = replay(parse(text))
    assert played.ok and played.scores.winners() == (2,)
    assert any(line.startswith("cities") for line in shown)  # the sheet is shown with the expansion row


def test_a_refused_answer_is_asked_again_and_undo_takes_one_back(tmp_path):
    path = tmp_path / "pad.7wn"
    answers = ANSWERS[:3] + ["", "many", "13", "9", "undo"] + ANSWERS[4:]
    done, shown = typed_pad(session(path), answers)
    assert done and path.read_text(encoding="utf-8").endswith(EXPECTED)
    assert "military: a whole number" in shown  # Enter without a default, then a word


def test_R_WIN__the_rank_comes_from_totals_then_coins_and_a_stopped_pad_goes_on(tmp_path):
    path = tmp_path / "pad.7wn"
    done, _ = typed_pad(session(path), ANSWERS[:10])  # the pipe ends: the user stopped after Ann's wonder row
    assert not done
    partial = parse(path.read_text(encoding="utf-8"))
    assert [r.military for r in partial.results] == [13, 8, -3] and partial.results[0].wonder == 15
    again = pad.PadSession.open(str(path))
    assert again.question() == (2, "wonder")
    done, _ = typed_pad(again, ANSWERS[10:])
    assert done and path.read_text(encoding="utf-8").endswith(EXPECTED)


def test_R_SCORE_EXP__only_the_named_expansions_rows_are_asked(tmp_path):
    assert session(tmp_path / "a.7wn", ()).rows[-2:] == ("science", "total")
    assert session(tmp_path / "b.7wn", ("Cities", "Edifice")).rows[-3:] == ("cities", "edifice", "total")
    assert pad.expansions_of("leaders, CITIES") == ("Cities", "Leaders")


def test_the_command_refuses_an_unknown_expansion_and_a_new_header_on_an_existing_pad(tmp_path):
    assert "unknown expansion 'Citties'" in cli("record", str(tmp_path / "x.7wn"), "--scores", "--expansions",
                                                "Citties", *[f for s in SEATS for f in ("--seat", s)], code=2).stderr
    path = tmp_path / "pad.7wn"
    typed_pad(session(path), ANSWERS[:4])
    assert "already holds a record" in cli("record", str(path), "--scores", "--expansions", "Leaders", code=2).stderr


# --- every row checked as it is typed (issue 28 item 2): the engine's pad checks, refused unless confirmed -------

#: A row that no game can give, at the place of ANSWERS it replaces, the rule the engine cites, and what the
#: message says.
IMPOSSIBLE = [
    ("treasury", 6, "3", "R-SCORE", "Ann's treasury is 2 for 7 coins"),  # Ann has 7 coins
    ("military", 3, "30", "R-MILITARY", "Ann's military 30 cannot be"),
    ("civilian", 12, "-2", "R-SCORE", "Ann's civilian -2 cannot be negative"),
    ("science", 21, "-1 2 1", None, "symbol counts are 0 or more"),
    ("total", 27, "50", "R-SCORE-EXP", "Ann's categories add up to 56"),  # with its Cities row
]


@pytest.mark.parametrize("row, at, typed, rule, message", IMPOSSIBLE, ids=[i[0] for i in IMPOSSIBLE])
def test_R_SCORE__an_impossible_row_is_refused_as_typed_and_asked_again(tmp_path, row, at, typed, rule, message):
    path = tmp_path / "pad.7wn"
    answers = ANSWERS[:at] + [typed] + (["n"] if rule else []) + ANSWERS[at:]
    done, shown = typed_pad(session(path), answers)
    assert done and path.read_text(encoding="utf-8").endswith(EXPECTED)
    said = next(k for k, line in enumerate(shown) if message in line)
    if rule:
        assert shown[said].startswith(f"error[{rule}]: ")
        assert shown[said + 1] == f"not recorded: {row} {typed} for Ann; enter it again"
    assert shown[-1] == f"the score pad is complete: {path}"


def test_R_SCORE__an_impossible_row_confirmed_is_kept_and_the_pad_says_it_holds_an_error(tmp_path):
    path = tmp_path / "pad.7wn"
    s = pad.PadSession(make_header(seats=["Kai:Gizah:day", "Lu:Rhodos:day", "Mo:Ephesos:day"], date="2026.11.29"),
                       str(path))
    answers = ["0", "0", "0", "1", "1", "1", "3"]  # coins 0, then Kai's treasury 3: the pad
    assert typed_pad(s, answers)[1][-2:] == ["error[R-SCORE]: Kai's treasury is 0 for 0 coins (coins / 3, rounded "
                                             "down), not 3", "stopped; `wnotation record --scores` on the same file "
                                             "goes on from there"]
    assert s.prompt() == "treasury Kai [0]> "  # Ctrl-D at the question cancelled it: nothing kept
    rest = ["3", "y", "", ""] + ["0"] * 15 + ["", "", ""]
    done, shown = typed_pad(s, rest)
    assert done and s.prompt().startswith("re-enter a row")
    assert "error[R-SCORE]: Kai's treasury is 0 for 0 coins (coins / 3, rounded down), not 3" in shown
    assert shown[-1] == (f"the score pad is filled in with 1 error (R-SCORE): {path}; `wnotation record --scores` "
                         "on the same file re-enters a row")
    assert not replay(parse(path.read_text(encoding="utf-8"))).ok
    # the same command on the file corrects it: the row re-entered, the total asked again from the new rows
    again = pad.PadSession.open(str(path))
    assert again.question() is None
    done, shown = typed_pad(again, ["treasury kai", "", "", ""])
    assert done and "treasury Kai: enter it again" in shown and shown[-1] == f"the score pad is complete: {path}"
    fixed = parse(path.read_text(encoding="utf-8"))
    assert replay(fixed).ok and fixed.results[0].treasury == 0 and fixed.results[0].total == 1


def test_R_SCORE__a_pad_opened_with_symbols_that_do_not_give_its_science_is_corrected_by_reentering_it(tmp_path):
    path = tmp_path / "pad.7wn"
    typed_pad(session(path), ANSWERS)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("science 21", "science 20").replace("total 56", "total 55"), encoding="utf-8")
    s = pad.PadSession.open(str(path))
    done, shown = typed_pad(s, ["science Ann", "3 2 1", "", ""])
    assert any("Ann's symbols (3 tablets, 2 compasses, 1 gears) give 21 science points" in line for line in shown)
    assert done and path.read_text(encoding="utf-8") == text


def test_a_seat_name_with_escapes_is_shown_as_visible_stand_ins(tmp_path):
    s = pad.PadSession(make_header(seats=["\x1b]52;c;aGk=\x07Eve:Gizah:day", "Lu:Rhodos:day", "Mo:Ephesos:day"],
                                   date="2026.11.29"), str(tmp_path / "pad.7wn"))
    _, shown = typed_pad(s, ["1"] * 3)
    assert s.prompt() == "military ␛]52;c;aGk=␇Eve> "
    assert not any("\x1b" in line or "\x07" in line for line in shown)
