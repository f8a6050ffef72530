"""``wnotation record --scores``: a score-pad record (7WN §9.1) typed row by row through prompt_toolkit's pipe, as
at the table: the science calculator (R-SCORE), treasury from coins, undo, an answer refused and asked again,
totals and ranks computed (R-WIN), the expansion rows asked when named (R-SCORE-EXP), and going on after a stop."""

from __future__ import annotations

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli_helpers import run as cli
from wnotation import parse, replay
from wnotation.recorder import scores as pad
from wnotation.recorder.header import make_header

SEATS = ["Ann:Gizah:day", "Ben:Babylon:night", "Cat:Rhodos:day"]
# coins, military, treasury (Enter: coins // 3), wonder, civilian, commercial, guilds, science, cities
ANSWERS = ["7", "12", "", "13", "8", "-3", "", "", "5", "15", "0", "3", "8", "20", "30", "0", "0", "0",
           "0", "0", "0", "3 2 1", "26", "9", "-3", "4", "0"]
EXPECTED = """\
result Ann: military 13 treasury 2 wonder 15 civilian 8 commercial 0 guilds 0 science 21 cities -3 total 56 coins 7 rank 2 tablets 3 compasses 2 gears 1
result Ben: military 8 treasury 4 wonder 0 civilian 20 commercial 0 guilds 0 science 26 cities 4 total 62 coins 12 rank 1
result Cat: military -3 treasury 5 wonder 3 civilian 30 commercial 0 guilds 0 science 9 cities 0 total 44 rank 3
"""


def session(path, expansions=("Cities",)):
    header = make_header(seats=SEATS, date="2026.11.29")
    return pad.PadSession(header.model_copy(update={"expansions": expansions}), str(path))


def typed(s, answers):
    shown: list[str] = []
    with create_pipe_input() as pipe:
        pipe.send_text("".join(a + "\r" for a in answers))
        pipe.close()
        done = pad.run(s, echo=shown.append, input=pipe, output=DummyOutput())
    return done, shown


def test_R_SCORE__a_pad_typed_row_by_row_with_the_science_calculator_checks_clean(tmp_path):
    path = tmp_path / "pad.7wn"
    done, shown = typed(session(path), ANSWERS)
    text = path.read_text(encoding="utf-8")
    assert done and text.endswith(EXPECTED) and '[Expansions "Cities"]' in text
    played = replay(parse(text))
    assert played.ok and played.scores.winners() == (2,)
    assert any(line.startswith("cities") for line in shown)  # the sheet is shown with the expansion row


def test_a_refused_answer_is_asked_again_and_undo_takes_one_back(tmp_path):
    path = tmp_path / "pad.7wn"
    answers = ANSWERS[:3] + ["", "many", "13", "9", "undo"] + ANSWERS[4:]
    done, shown = typed(session(path), answers)
    assert done and path.read_text(encoding="utf-8").endswith(EXPECTED)
    assert "military: a whole number" in shown  # Enter without a default, then a word


def test_R_WIN__the_rank_comes_from_totals_then_coins_and_a_stopped_pad_goes_on(tmp_path):
    path = tmp_path / "pad.7wn"
    done, _ = typed(session(path), ANSWERS[:10])  # the pipe ends: the user stopped after Ann's wonder row
    assert not done
    partial = parse(path.read_text(encoding="utf-8"))
    assert [r.military for r in partial.results] == [13, 8, -3] and partial.results[0].wonder == 15
    again = pad.PadSession.open(str(path))
    assert again.question() == (2, "wonder")
    done, _ = typed(again, ANSWERS[10:])
    assert done and path.read_text(encoding="utf-8").endswith(EXPECTED)


def test_R_SCORE_EXP__only_the_named_expansions_rows_are_asked(tmp_path):
    assert session(tmp_path / "a.7wn", ()).rows[-1] == "science"
    assert session(tmp_path / "b.7wn", ("Cities", "Edifice")).rows[-2:] == ("cities", "edifice")
    assert pad.expansions_of("leaders, CITIES") == ("Cities", "Leaders")


def test_the_command_refuses_an_unknown_expansion_and_a_new_header_on_an_existing_pad(tmp_path):
    assert "unknown expansion 'Citties'" in cli("record", str(tmp_path / "x.7wn"), "--scores", "--expansions",
                                                "Citties", *[f for s in SEATS for f in ("--seat", s)], code=2).stderr
    path = tmp_path / "pad.7wn"
    typed(session(path), ANSWERS[:4])
    assert "already holds a record" in cli("record", str(path), "--scores", "--expansions", "Leaders", code=2).stderr
