"""``wnotation`` and ``wnotation cards`` run in-process: exit codes, stdout and stderr.

Every assertion on a result goes through :func:`run`, whose failure message shows both streams.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import wnotation
from wnotation import cli
from wnotation.model import catalog
from wnotation.cli import streams

CAT = catalog.load()
ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, code: int = 0) -> Result:
    """Invoke ``wnotation *args`` and check its exit code, showing both streams if it is not ``code``."""
    result = CliRunner().invoke(cli.main, list(args), prog_name="wnotation")
    assert result.exit_code == code, (
        f"wnotation {' '.join(args)} exited {result.exit_code}, expected {code}\n"
        f"--- stdout ---\n{result.stdout}\n--- stderr ---\n{result.stderr}\n--- exception ---\n{result.exception!r}"
    )
    return result


def fail(*args: str, message: str) -> Result:
    """A user error: exit 2, nothing on stdout, exactly one line on stderr, which is ``error: <message>``."""
    result = run(*args, code=2)
    assert result.stdout == ""
    assert result.stderr == f"error: {message}\n", result.stderr
    return result


def rows(result: Result) -> list[str]:
    """The data lines of a plain-text card list (header and deck totals dropped)."""
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["age", "name", "colour"], lines[0]
    return [line for line in lines[1:] if not line.startswith("Age ")]


def names(result: Result) -> list[str]:
    header = result.stdout.splitlines()[0]
    start, end = header.index("name"), header.index("colour")
    return [line[start:end].strip() for line in rows(result)]


# --- the group -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag):
    assert run(flag).stdout in (f"wnotation {wnotation.__version__} (pure Python engine)\n",
                                f"wnotation {wnotation.__version__} (compiled engine)\n")


def test_version_says_which_engine_build_runs_without_importing_it():
    import wnotation.engine

    compiled = getattr(wnotation.engine, "COMPILED", False)
    assert run("--version").stdout.endswith("(compiled engine)\n" if compiled else "(pure Python engine)\n")
    probe = ("import sys\nfrom wnotation.cli import shell\nshell.engine_build()\n"
             "print(sorted(m for m in sys.modules if m.startswith(('wnotation.engine', 'wnotation.notation', 'pydantic'))))")
    assert subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                          timeout=60).stdout == "[]\n"


def test_help_lists_commands_exit_codes_and_examples():
    out = run("--help").stdout
    assert "cards" in out and "Exit codes: 0 ok, 1 findings" in out and "3 internal error" in out
    assert "Examples:" in out


def test_the_commands_are_those_of_the_registry():
    from importlib import import_module

    declared = {c.name for m in cli.COMMAND_MODULES for c in import_module(f"wnotation.cli.{m}").COMMANDS}
    assert set(cli.main.list_commands(None)) == declared and len(declared) >= 16


def test_no_command_shows_the_help_as_a_usage_error():
    result = run(code=2)
    assert "Usage:" in result.stderr and "cards" in result.stderr


def test_unknown_command_is_one_line():
    result = run("carts", code=2)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: no such command 'carts'")
    assert re.search(r"Did you mean (one of: )?[^?]*'cards'", result.stderr)


def test_python_dash_m_runs_the_same_cli():
    done = subprocess.run([sys.executable, "-m", "wnotation", "--version"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == run("--version").stdout


def test_exit_codes_are_named():
    assert (cli.EXIT_OK, cli.EXIT_FINDINGS, cli.EXIT_USAGE, cli.EXIT_INTERNAL) == (0, 1, 2, 3)


# --- errors --------------------------------------------------------------------------------------------------


def test_unknown_card_suggests_a_name():
    fail("cards", "lumbr yard", message="unknown card 'lumbr yard'; did you mean Lumber Yard?")


def test_unknown_card_without_a_near_miss():
    fail("cards", "xyzzy", message="unknown card 'xyzzy'")


def test_a_wonder_name_given_as_a_card():
    fail("cards", "GIZAH", message="'GIZAH' is a Wonder, not a card: try 'wnotation cards --wonder Gizah'")


def test_unknown_wonder_suggests_a_name():
    fail("cards", "--wonder", "rodos", message="unknown Wonder 'rodos'; did you mean Rhodos?")


def test_card_not_in_that_age():
    fail("cards", "glassworks", "--age", "III", message="Glassworks is not an Age III card (it is in Age I, II)")


@pytest.mark.parametrize("players", ["2", "8", "0", "-1"])
def test_player_counts_outside_three_to_seven(players):
    fail("cards", "--players", players, message=f"{players} players: the base game is for 3 to 7 players")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--age", "IV"], "invalid value for '--age': 'IV' is not an Age: use I, II, III (or 1, 2, 3)"),
        (["--colour", "pink"], "invalid value for '--colour' / '--color': 'pink' is not a card colour: use one of "
                               "brown, grey, blue, yellow, red, green, purple"),
        (["--players", "many"], "invalid value for '--players': 'many' is not a valid integer."),
        (["--side", "night"], "--side needs --wonder or --wonders"),
        (["--wonder", "gizah", "--wonders"], "give --wonder WONDER or --wonders, not both"),
        (["--wonder", "gizah", "--age", "I"], "--age cannot be combined with --wonder/--wonders"),
        (["lumber yard", "--colour", "brown"], "NAME shows one card; --colour only filter the list (drop NAME)"),
        (["--side", "dusk", "--wonders"], "invalid value for '--side': 'dusk' is not one of 'day', 'night', 'a', "
                                          "'b'."),
    ],
)
def test_usage_errors_are_one_line(args, message):
    fail("cards", *args, message=f"{message} (see 'wnotation cards --help')")


def test_unknown_option():
    result = run("cards", "--bogus", code=2)
    assert result.stderr.startswith("error: no such option '--bogus'") and result.stderr.count("\n") == 1


def test_user_error_with_debug_shows_the_traceback():
    result = run("--debug", "cards", "lumbr", code=2)
    assert "Traceback" in result.stderr
    assert result.stderr.rstrip().endswith("error: unknown card 'lumbr'; did you mean Lumber Yard?")


def _boom():
    raise RuntimeError("the catalogue\nexploded")


def test_internal_error_is_exit_three_without_a_traceback(monkeypatch):
    monkeypatch.setattr(catalog, "load", _boom)
    result = run("cards", code=3)
    assert result.stdout == ""
    assert result.stderr == (
        "internal error: RuntimeError: the catalogue exploded; this is a bug in wnotation "
        "(rerun with --debug for the traceback)\n"
    )


def test_internal_error_with_debug_shows_the_traceback(monkeypatch):
    monkeypatch.setattr(catalog, "load", _boom)
    result = run("--debug", "cards", code=3)
    assert "Traceback (most recent call last)" in result.stderr and "_boom" in result.stderr
    assert result.stderr.rstrip().splitlines()[-1].startswith("internal error: RuntimeError")


# --- listing -------------------------------------------------------------------------------------------------


def test_list_everything_in_catalogue_order():
    assert names(run("cards")) == [c.name for c in CAT.cards]


@pytest.mark.parametrize("age, numeral", [("1", "I"), ("I", "I"), ("ii", "II"), ("3", "III")])
def test_filter_by_age(age, numeral):
    result = run("cards", "--age", age)
    assert names(result) == [c.name for c in CAT.cards if catalog.AGE_NUMERALS[c.age] == numeral]
    assert all(line.split()[0] == numeral for line in rows(result))


def test_filter_by_colour_and_age():
    result = run("cards", "--colour", "green", "--age", "III")
    assert names(result) == ["Lodge", "Observatory", "University", "Academy", "Study"]


@pytest.mark.parametrize("spelling", ["--color", "--colour"])
def test_colour_spellings(spelling):
    assert names(run("cards", spelling, "GRAY")) == [c.name for c in CAT.cards if c.colour == "grey"]


def test_filter_by_name_substring():
    assert names(run("cards", "--name", "trading POST")) == ["East Trading Post", "West Trading Post"]
    assert len(names(run("cards", "--name", "guild"))) == 10


def test_guilds():
    result = run("cards", "--guilds")
    assert names(result) == [g.name for g in CAT.guilds]
    assert all(" purple " in line and line.endswith("drawn") for line in rows(result))


def test_no_match_is_not_an_error():
    result = run("cards", "--guilds", "--age", "I")
    assert (result.stdout, result.stderr) == ("", "no card matches these filters\n")


@pytest.mark.parametrize("players", range(3, 8))
def test_players_shows_the_copies_and_deck_sizes(players):
    result = run("cards", "--players", str(players))
    lines = result.stdout.splitlines()
    assert lines[0].endswith(f"copies ({players}p)")
    body = rows(result)
    listed = [c for c in CAT.cards if c.is_guild or c.copies_for(players)]
    assert names(result) == [c.name for c in listed]
    copies = [line.rsplit(None, 1)[1] for line in body]
    assert copies == ["drawn" if c.is_guild else str(c.copies_for(players)) for c in listed]
    for age in (1, 2, 3):
        in_age = sum(int(n) for line, n in zip(body, copies) if line.split()[0] == "I" * age and n != "drawn")
        assert in_age == 7 * players - (players + 2 if age == 3 else 0)
    assert lines[-3:] == [
        f"Age I deck for {players} players: {7 * players} cards",
        f"Age II deck for {players} players: {7 * players} cards",
        f"Age III deck for {players} players: {6 * players - 2} cards + {players + 2} guilds drawn = {7 * players}",
    ]


def test_players_leaves_out_cards_not_in_the_deck():
    listed = names(run("cards", "--players", "3", "--age", "I"))
    assert "Tree Farm" not in listed and "Lumber Yard" in listed and len(listed) == 21


def test_plain_columns_are_aligned():
    lines = run("cards", "--age", "II").stdout.splitlines()
    header = lines[0]
    for column in ("name", "colour", "cost"):
        at = header.index(column)
        assert all(line[at - 2 : at] == "  " and line[at] != " " for line in lines[1:]), column


# --- one card ------------------------------------------------------------------------------------------------


def _fields(result: Result) -> dict[str, str]:
    lines = result.stdout.splitlines()
    return {line[2:19].strip(): line[19:] for line in lines[1:]}


def test_show_one_card():
    result = run("cards", "  LUMBER yard ")
    assert result.stdout.splitlines()[0] == "Lumber Yard"
    fields = _fields(result)
    assert fields["age"] == "I" and fields["colour"] == "brown" and fields["cost"] == "free"
    assert fields["effect"] == "produces wood"
    assert fields["copies"] == "2 (printed 3+, 4+); in the deck for 3/4/5/6/7 players: 1/2/2/2/2"
    assert fields["key"] == "I:Lumber Yard"
    assert result.stderr == ""


def test_show_chains_both_ways():
    assert _fields(run("cards", "aqueduct"))["free if you own"] == "Baths"
    assert _fields(run("cards", "baths"))["makes free"] == "Aqueduct"
    assert _fields(run("cards", "forum"))["free if you own"] == "East Trading Post, West Trading Post"
    assert _fields(run("cards", "scriptorium"))["makes free"] == "Courthouse, Library"


def test_show_every_effect():
    out = run("cards", "haven").stdout
    assert "1 coin per brown card in your city (once, when built)" in out
    assert "1 VP per brown card in your city (end of game)" in out


def test_show_a_name_printed_in_two_ages():
    out = run("cards", "glassworks").stdout.splitlines()
    assert [line for line in out if line.startswith(("Glassworks", "  key"))] == [
        "Glassworks", "  key              I:Glassworks", "Glassworks", "  key              II:Glassworks",
    ]
    assert out[out.index("Glassworks", 1) - 1] == ""  # one blank line between the designs
    out = run("cards", "glassworks", "--age", "2").stdout.splitlines()
    assert out.count("Glassworks") == 1 and "  key              II:Glassworks" in out


def test_show_with_players():
    assert _fields(run("cards", "tavern", "--players", "7"))["7-player deck"] == "3"
    assert _fields(run("cards", "spies guild", "--players", "4"))["4-player deck"] == "6 of the 10 guilds are drawn"


def test_show_a_guild():
    fields = _fields(run("cards", "decorators guild"))
    assert fields["colour"] == "purple" and fields["age"] == "III"
    assert fields["effect"] == "7 VP if you have built every stage of your Wonder"
    assert "N+2 of the 10 guilds" in fields["copies"]


# --- Wonders -------------------------------------------------------------------------------------------------


def _titles(result: Result) -> list[str]:
    return [line.split(" (")[0] for line in result.stdout.splitlines() if "starting resource" in line]


@pytest.mark.parametrize("side", ["night", "B", "NIGHT"])
def test_show_one_wonder_side(side):
    out = run("cards", "--wonder", "gizah", "--side", side).stdout.splitlines()
    assert out[0] == "Gizah night (The Pyramids of Giza): starting resource stone, 4 stages"
    assert out[1].split() == ["stage", "cost", "effects"]
    assert [line.split()[0] for line in out[2:]] == ["1", "2", "3", "4"]
    assert out[-1].split(None, 1)[1].split("  ")[0] == "4×stone + papyrus"


def test_show_both_sides_of_a_wonder():
    assert _titles(run("cards", "--wonder", "Rhodos")) == ["Rhodos day", "Rhodos night"]


def test_show_every_wonder():
    assert _titles(run("cards", "--wonders")) == [str(w) for w in CAT.wonders]
    assert _titles(run("cards", "--wonders", "--side", "A")) == [str(w) for w in CAT.wonders if w.side == "day"]


def test_wonder_powers_are_described():
    out = run("cards", "--wonder", "babylon", "--side", "night").stdout
    assert "play the last card of each Age instead of discarding it" in out


# --- JSON ----------------------------------------------------------------------------------------------------


def _json(*args: str) -> dict:
    result = run(*args)
    assert result.stderr == ""
    return json.loads(result.stdout)


def test_json_is_the_whole_catalogue():
    data = _json("cards", "--json")
    assert set(data) == {"edition", "disputed", "cards", "wonders"}
    assert data["cards"] == [catalog.card_data(c) for c in CAT.cards]
    assert data["wonders"] == [catalog.wonder_data(w) for w in CAT.wonders]
    assert len(data["disputed"]) == 4


def test_json_of_a_selection():
    data = _json("cards", "--age", "I", "--colour", "blue", "--json")
    assert set(data) == {"edition", "cards"}
    assert [c["name"] for c in data["cards"]] == ["Altar", "Theater", "Well", "Baths"]


def test_json_with_players():
    data = _json("cards", "--players", "5", "--age", "2", "--json")
    assert data["players"] == 5
    assert sum(c["copies_in_deck"] for c in data["cards"]) == 35


def test_json_of_one_card_and_one_wonder():
    assert [c["key"] for c in _json("cards", "press", "--json")["cards"]] == ["I:Press", "II:Press"]
    wonders = _json("cards", "--wonder", "olympia", "--side", "day", "--json")["wonders"]
    assert wonders == [catalog.wonder_data(CAT.wonder("Olympia", "day"))]


def test_json_of_no_match_is_an_empty_list():
    assert _json("cards", "--guilds", "--age", "1", "--json")["cards"] == []


# --- terminal output -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args", [["--age", "I"], ["lumber yard"], ["--wonder", "alexandria"], ["--players", "4", "--age", "III"]]
)
def test_rich_tables_on_a_terminal(monkeypatch, args):
    monkeypatch.setattr(streams, "is_terminal", lambda: True)
    out = run("cards", *args).stdout
    assert any(name in out for name in ("Lumber", "Alexandria", "Pantheon"))
    if args[0].startswith("--"):
        assert "┃" in out or "│" in out  # a rich table, not plain text
