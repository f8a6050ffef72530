"""Shell completion through click's own machinery (``_WNOTATION_COMPLETE=bash_complete``, as the bash script that
``_WNOTATION_COMPLETE=bash_source wnotation`` prints asks): record arguments complete as paths, and card names,
Wonders, seat names and ``--at`` addresses complete from the catalogue and the record."""

from __future__ import annotations

import shlex

import pytest
from click.testing import CliRunner

from cli_helpers import game_text
from wnotation import cli


def complete(line: str) -> list[tuple[str, str]]:
    """What bash completion offers for the last word of ``line`` (a trailing space: a new, empty word), as
    ``(type, value)`` pairs."""
    words = shlex.split(line) + ([""] if line.endswith(" ") else [])
    env = {"_WNOTATION_COMPLETE": "bash_complete", "COMP_WORDS": " ".join(shlex.quote(w) for w in words),
           "COMP_CWORD": str(len(words) - 1)}
    result = CliRunner().invoke(cli.main, [], prog_name="wnotation", env=env)
    assert result.exit_code == 0, result.output
    return [tuple(line.split(",", 1)) for line in result.stdout.splitlines() if line]


@pytest.mark.parametrize("command", ["check", "score", "show", "fmt", "json", "fmt --write", "check --jobs 2"])
def test_record_arguments_complete_as_file_names(command):
    assert complete(f"wnotation {command} rep") == [("file", "rep")]
    assert complete(f"wnotation {command} ") == [("file", "")]


def test_the_bash_script_is_printed_for_installation():
    result = CliRunner().invoke(cli.main, [], prog_name="wnotation", env={"_WNOTATION_COMPLETE": "bash_source"})
    assert result.exit_code == 0 and "_WNOTATION_COMPLETE=bash_complete" in result.stdout


def test_card_names_complete_in_any_case():
    assert complete("wnotation cards lumb") == [("plain", "Lumber Yard")]
    assert ("plain", "Glassworks") in complete("wnotation cards gl")
    assert complete("wnotation cards zzz") == []


def test_wonders_complete():
    assert complete("wnotation cards --wonder gi") == [("plain", "Gizah")]
    assert len(complete("wnotation cards --wonder ")) == 7


def test_addresses_complete():
    assert complete("wnotation show game.7wn --at ii.e") == [("plain", "II.end")]
    assert [v for _, v in complete("wnotation show game.7wn --at III.")][-1] == "III.end"


def test_seat_names_complete_from_the_record(tmp_path):
    path = tmp_path / "game.7wn"
    path.write_text(game_text() + "\n" + game_text(5, 3), encoding="utf-8")
    assert [v for _, v in complete(f"wnotation show {path} --seat ")] == ["Ada", "Bob", "Cyd", "Dee"]
    assert complete(f"wnotation show {path} --seat b") == [("plain", "Bob")]
    assert len(complete(f"wnotation show {path} --game 2 --seat ")) == 5
    assert complete(f"wnotation show {tmp_path / 'missing.7wn'} --seat ") == []


def test_at_completes_only_the_positions_the_game_has(tmp_path):
    path = tmp_path / "game.7wn"
    path.write_text(game_text(3, 7), encoding="utf-8")  # Rhodos, Ephesos, Alexandria: no Babylon night
    offered = [v for _, v in complete(f"wnotation show {path} --at ")]
    assert offered[:8] == ["I.0", "I.1", "I.2", "I.3", "I.4", "I.5", "I.6", "I.end"] and len(offered) == 24
    assert not any(a.endswith(".7") for a in offered)
    assert [v for _, v in complete(f"wnotation score {path} --at ii.")][-1] == "II.end"


def test_at_offers_the_extra_turn_where_the_replay_has_it():
    offered = [v for _, v in complete("wnotation show replays/partial-4p-niamh.7wn --at II.")]
    assert "II.7" in offered


def test_at_completes_the_positions_of_the_game_that_game_names(tmp_path):
    path = tmp_path / "games.7wn"
    cut = game_text(3, 7).split("\nII.1 ")[0] + "\n"  # a record that stops after Age I
    path.write_text(game_text(3, 7) + "\n" + cut, encoding="utf-8")
    assert [v for _, v in complete(f"wnotation show {path} --game 2 --at ")][-3:] == ["I.6", "I.end", "II.0"]
    assert [v for _, v in complete(f"wnotation show {path} --at ")][-1] == "III.end"


def test_at_falls_back_to_the_roster_when_the_game_does_not_read(tmp_path):
    path = tmp_path / "broken.7wn"
    text = game_text(3, 7).replace("I.3 Clay Pool", "I.3 Clay Poool")  # an unknown card: no Record
    path.write_text(text, encoding="utf-8")
    offered = [v for _, v in complete(f"wnotation show {path} --at I.")]
    assert offered == ["I.0", "I.1", "I.2", "I.3", "I.4", "I.5", "I.6", "I.end"]
