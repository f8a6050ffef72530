"""``wnotation score``, ``show``, ``json``, ``schema`` and ``generate``, and what every registered command shares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import game_text, run, with_action
from wnotation import cli, notation, parse, replay
from wnotation.cli import streams
from wnotation.formats.canonical import canonical_purchases, purchase_changes, same_replay
from wnotation.engine import legal_actions
from wnotation.engine.bot import play_game
from wnotation.model.record import CATEGORIES

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "game.7wn"
    path.write_text(game_text(), encoding="utf-8")
    return str(path)


@pytest.fixture
def played():
    record = parse(game_text())
    return record, replay(record)


# --- every command -------------------------------------------------------------------------------------------

def _registered() -> list[str]:
    """Every command, as the registry declares them (the ``COMMANDS`` of each of ``cli.COMMAND_MODULES``), not a
    hand-kept list: a new command is held to what follows by being registered (test_cli_cards checks that the
    registry is what the group runs)."""
    from importlib import import_module

    return sorted(c.name for m in cli.COMMAND_MODULES for c in import_module(f"wnotation.cli.{m}").COMMANDS)


COMMANDS = _registered()


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_worked_examples(command):
    """Its --help ends with an Examples section holding at least two worked examples that run it by name."""
    out = run(command, "--help").stdout
    assert "Examples:" in out, f"wnotation {command} --help has no Examples: section"
    examples = out.split("Examples:", 1)[1]
    assert examples.count(f"wnotation {command}") >= 2, f"wnotation {command} --help has fewer than two examples"


def test_the_group_lists_every_command():
    out = run("--help").stdout
    assert all(f"  {c} " in out for c in COMMANDS)


def test_a_notation_error_is_shown_compiler_style_with_exit_2(tmp_path):
    path = tmp_path / "bad.7wn"
    path.write_text(game_text().replace("I.2 ", "I.2 Lumbr Yard | ", 1), encoding="utf-8")
    for command in (["score"], ["show"], ["json"]):
        result = run(*command, str(path), code=2)
        head, source_line, caret = result.stderr.splitlines()
        assert head.startswith(f"{path}:") and "error[unknown-card]: unknown card 'Lumbr Yard'" in head
        assert source_line.startswith("    I.2 Lumbr Yard") and caret == "        ^"
        assert result.stdout == ""


def test_debug_shows_the_traceback_of_a_notation_error(tmp_path):
    path = tmp_path / "bad.7wn"
    path.write_text("[Format \"7WN 1\"]\n", encoding="utf-8")
    result = run("--debug", "score", str(path), code=2)
    assert "Traceback" in result.stderr and "error[missing-tag]" in result.stderr


# --- score ---------------------------------------------------------------------------------------------------


def test_score_is_laid_out_like_the_score_pad(game, played):
    record, rep = played
    lines = run("score", game).stdout.splitlines()
    assert lines[0].split() == [s.name for s in record.seats]
    assert lines[1].split()[:2] == ["wonder", "board"]
    labels = [line.split()[0] for line in lines[2:]]
    assert labels == list(CATEGORIES) + ["total", "coins", "rank"]
    for line, name in zip(lines[2:], labels):
        assert [int(v) for v in line.split()[1:]] == [getattr(s, name) for s in rep.scores.lines]


def test_score_json(game, played):
    record, rep = played
    data = json.loads(run("score", game, "--json").stdout)
    assert data["source"] == game and data["game"] == 1
    assert [s["total"] for s in data["seats"]] == [s.total for s in rep.scores.lines]
    assert data["winners"] == [record.seats[s - 1].name for s in rep.scores.winners()]
    categories = ["wonder_points" if c == "wonder" else c for c in CATEGORIES]
    assert list(data["seats"][0]) == ["seat", "name", "wonder", "side", *categories, "total", "coins", "rank"]
    # the board and the points are two fields: "wonder" named the board's points once, and lost the board
    assert [(s["wonder"], s["side"]) for s in data["seats"]] == [(s.wonder, s.side) for s in record.seats]
    assert [s["wonder_points"] for s in data["seats"]] == [s.wonder for s in rep.scores.lines]


def test_score_of_the_second_game_and_of_stdin(tmp_path):
    two = game_text() + "\n" + game_text(5, 3)
    data = json.loads(run("score", "-", "--game", "2", "--json", input=two).stdout)
    assert len(data["seats"]) == 5 and data["source"] == "<stdin>"
    assert run("score", "-", "--game", "3", input=two, code=2).stderr == \
        "error: <stdin> has 2 games; there is no game 3\n"


def test_score_with_findings_still_prints_the_sheet_and_exits_1(tmp_path):
    text, line, column = with_action(game_text(), "I.1", 1, "Apothecary")
    path = tmp_path / "illegal.7wn"
    path.write_text(text, encoding="utf-8")
    result = run("score", str(path), code=1)
    assert result.stdout.splitlines()[2].startswith("military")
    assert result.stderr.startswith(f"{path}:{line}:{column}: error[R-TRADE]")


def test_score_of_an_unfinished_game(tmp_path):
    text = "\n".join(ln for ln in game_text().splitlines() if not ln.startswith(("III.", "result"))) + "\n"
    result = run("score", "-", input=text, code=1)
    assert result.stdout == ""
    assert result.stderr == "error: game 1 of <stdin> is incomplete (the record stops at III.0): no score sheet\n"


def _without_guilds_and_seed(text: str) -> str:
    return "\n".join(ln for ln in text.split("\n") if not ln.startswith(("[Guilds ", "[Seed ")))


def test_the_guild_note_is_shown_by_check_only(tmp_path):
    path = tmp_path / "no-guilds.7wn"
    path.write_text(_without_guilds_and_seed(game_text()), encoding="utf-8")
    note = "names neither its guilds nor a seed"
    assert note in run("check", str(path)).stderr
    for command in (["score"], ["score", "--json"], ["show"], ["show", "--at", "III.2"]):
        result = run(*command, str(path))
        assert note not in result.stderr and result.stderr == "", command


def _with_unnamed_build(text: str) -> str:
    """The game with Ada's first build in Age III written as ``?``."""
    lines = text.split("\n")
    k = next(i for i, ln in enumerate(lines) if ln.startswith("III.1 "))
    head, rest = lines[k].split(" ", 1)
    parts = rest.split(" | ")
    assert not parts[0].startswith(("stage ", "sell ")), parts[0]
    lines[k] = f"{head} " + " | ".join(["?", *parts[1:]])
    return "\n".join(lines)


def test_score_says_the_sheet_is_incomplete_when_a_built_card_is_unnamed():
    text = _with_unnamed_build(_without_guilds_and_seed(game_text(4, 11)))
    missing = "the sheet is incomplete: it leaves out 1 card the record does not name (III.1 Ada's build)"
    result = run("score", "-", input=text, code=1)
    assert "error[R-TURN]" in result.stderr and f"warning: {missing}\n" in result.stderr
    assert result.stdout.splitlines()[-1] == missing
    data = json.loads(run("score", "-", "--json", input=text, code=1).stdout)
    assert data["incomplete"] is True
    assert data["missing"] == [{"address": "III.1", "seat": 1, "name": "Ada", "what": "build"}]


def test_score_of_a_fully_named_game_is_complete(game):
    data = json.loads(run("score", game, "--json").stdout)
    assert (data["incomplete"], data["missing"]) == (False, [])


def test_score_rich_table_on_a_terminal(monkeypatch, game):
    monkeypatch.setattr(streams, "is_terminal", lambda: True)
    out = run("score", game).stdout
    assert "│" in out and "military" in out and "Ada" in out


# --- show ----------------------------------------------------------------------------------------------------


def test_show_a_position(game, played):
    record, rep = played
    out = run("show", game, "--at", "ii.3").stdout
    assert out.startswith("II.3: Age II after turn 3 (4 players)\n")
    state = rep.position("II.3")
    for seat, city in zip(record.seats, state.cities):
        assert f"\n{seat.name}: {city.wonder.name} {city.wonder.side}, {city.coins} coins\n" in out
    ada = out.split("\n\n")[1].splitlines()
    fields = {line.split(None, 1)[0]: line.split(None, 1)[1] for line in ada[1:]}
    assert fields["stages"] == f"{state.cities[0].stages} of {len(state.cities[0].wonder.stages)}"
    assert fields["hand"] == ", ".join(c.name for c in state.hands[0])
    for card in state.cities[0].buildings:
        assert card.name in fields[card.colour]
    assert "\ndiscard pile: " in out


def test_show_defaults_to_the_last_position(game):
    assert run("show", game).stdout.startswith("III.end: end of Age III (military resolved)")


def test_show_one_seat_with_its_legal_actions(game, played):
    record, rep = played
    state = rep.position("I.4")
    out = run("show", game, "--at", "I.4", "--seat", "BOB", "--legal").stdout
    assert "Ada:" not in out and "Bob:" in out and "discard pile" not in out
    table = out.split("legal actions of Bob in turn I.5\n", 1)[1].splitlines()
    assert table[0].split() == ["action", "buys", "coins", "to", "neighbours", "note"]
    assert len(table) - 1 == len(legal_actions(state, 2))
    assert any(row.startswith("sell ") and row.endswith("gains 3 coins") for row in table)


def test_show_legal_json(game, played):
    record, rep = played
    data = json.loads(run("show", game, "--at", "II.0", "--seat", "#3", "--legal", "--json").stdout)
    assert data["address"] == "II.0" and [c["name"] for c in data["cities"]] == ["Cyd"]
    moves = data["legal"]["Cyd"]
    assert len(moves) == len(legal_actions(rep.position("II.0"), 3))
    assert {"use", "card", "purchase", "coins", "free", "default", "notation"} <= set(moves[0])
    city = data["cities"][0]
    assert set(city["buildings"]) == {"brown", "grey", "blue", "yellow", "red", "green", "purple"}
    assert len(city["hand"]) == 7


def test_show_legal_when_nobody_plays(game):
    out = run("show", game, "--at", "III.end", "--seat", "Ada", "--legal").stdout
    assert out.rstrip().endswith("Ada has no action to play after III.end: the game is over")


def test_show_unknown_cards_of_a_partial_record(tmp_path):
    """Seat 2's sale on I.1 written as ``sell ?``: the discard pile shows an unknown card."""
    lines = [ln for ln in game_text().splitlines() if not ln.startswith(("II.", "III.", "result"))]
    k = next(i for i, ln in enumerate(lines) if ln.startswith("I.1 "))
    parts = lines[k][4:].split(" | ")
    parts[1] = "sell ?"
    lines[k] = "I.1 " + " | ".join(parts)
    data = json.loads(run("show", "-", "--at", "I.1", "--json", input="\n".join(lines) + "\n").stdout)
    assert data["discard"] == ["?"]


@pytest.mark.parametrize("args, message", [
    (["--at", "IV.2"], "error: no position 'IV.2' in this game (positions: I.0, I.1,"),
    (["--seat", "Zoe"], "error: no seat 'Zoe' in this game (seats: Ada, Bob, Cyd, Dee, or 1-4)"),
    (["--seat", "Bobb"], "error: no seat 'Bobb' in this game; did you mean Bob?"),
    (["--seat", "9"], "error: no seat '9' in this game"),
])
def test_show_bad_options_are_one_line(game, args, message):
    result = run("show", game, *args, code=2)
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_show_rich_on_a_terminal(monkeypatch, game):
    monkeypatch.setattr(streams, "is_terminal", lambda: True)
    out = run("show", game, "--at", "I.3", "--seat", "Ada", "--legal").stdout
    assert "Ada: " in out and "┃" in out


# --- json and schema -----------------------------------------------------------------------------------------


def test_json_round_trip(game):
    out = run("json", game).stdout
    data = json.loads(out)
    assert data["seats"][0]["name"] == "Ada" and data["seed"]["algorithm"] == "SM64-FY"
    assert run("json", "--to-7wn", "-", input=out).stdout == game_text()


def test_json_of_several_games_is_an_array(tmp_path):
    text = game_text() + "\n" + game_text(3, 9)
    out = run("json", "-", input=text).stdout
    assert [len(r["seats"]) for r in json.loads(out)] == [4, 3]
    assert run("json", "--to-7wn", "-", input=out).stdout == text
    assert json.loads(run("json", "-", "--game", "2", input=text).stdout)["seats"][0]["name"] == "Ada"
    assert run("json", "--to-7wn", "-", "--game", "2", input=out).stdout == game_text(3, 9)


@pytest.mark.parametrize("document, message", [
    ("nope", "error: <stdin> is not JSON: expected ident at line 1 column 2\n"),
    ('{"seats": []}', "error: <stdin> is not a valid Record: the document: value error, 0 seats: the base game "
                      "is for 3 to 7 players\n"),
    ('{"seats": [{"name": "A"}]}', "error: <stdin> is not a valid Record: seats.0.wonder: field required "
                                   "(and 1 more)\n"),
    ("[]", "error: <stdin> holds no Record\n"),
    # only the first letter is lowered: rule IDs and names keep their case (the whole message was lowered once)
    ('{"seats": [{"name": "Ann", "wonder": "Gizah", "side": "day"}, {"name": "Bo", "wonder": "Gizah", "side": "day"},'
     ' {"name": "Cy", "wonder": "Rhodos", "side": "day"}]}',
     "error: <stdin> is not a valid Record: the document: value error, two seats play the same Wonder (R-BOARD)\n"),
])
def test_json_to_7wn_refuses_bad_documents_in_one_line(document, message):
    assert run("json", "--to-7wn", "-", input=document, code=2).stderr == message


def test_json_to_7wn_refuses_a_record_whose_position_string_is_not_valid_in_one_line():
    """spec/position.md §8: the Record's validator reads the [Position] tag, so a bad one is refused here with
    the tag and the column named, instead of being written out as 7WN that no reader accepts."""
    path = ROOT / "replays" / "position-4p-rhodos-from-age-2.7wn"
    data = json.loads(run("json", str(path)).stdout)
    tag = next(t for t in data["tags"] if t["name"] == "Position")
    tag["value"] = tag["value"].replace("coins", "coinz", 1)
    result = run("json", "--to-7wn", "-", input=json.dumps(data), code=2)
    assert result.stderr == ("error: <stdin> is not a valid Record: the document: value error, [Position]: position "
                             "string, column 30: syntax: unknown field 'coinz'\n")


def test_json_to_7wn_refuses_a_deeply_nested_document_in_one_line():
    """A 100,000-deep array once reached Python's recursion limit in json.loads (exit 3); the notation's JSON
    reader has a depth limit, so it is one line and exit 2 (records_from_json)."""
    deep = "[" * 100_000 + "]" * 100_000
    result = run("json", "--to-7wn", "-", input=deep, code=2)
    assert result.stderr.startswith("error: <stdin> is not a Record: the document nests more than 200 deep")
    assert result.stderr.count("\n") == 1 and "internal error" not in result.stderr


def test_json_to_7wn_names_the_record_of_an_array_that_is_not_valid():
    good = run("json", "-", input=game_text()).stdout
    result = run("json", "--to-7wn", "-", input=f"[{good}, {{\"seats\": []}}]", code=2)
    assert result.stderr.startswith("error: record 2 of <stdin> is not a valid Record: the document: value error")


def test_schema():
    assert json.loads(run("schema").stdout) == notation.json_schema()


# --- generate ------------------------------------------------------------------------------------------------


def test_generate_is_reproducible_and_game_k_uses_seed_s_plus_k():
    three = run("generate", "--players", "4", "--seed", "7", "--count", "3", "--bot", "greedy").stdout
    assert three == run("generate", "-p", "4", "-s", "7", "-n", "3", "--bot", "greedy").stdout
    games = notation.parse_many(three)
    assert [g.seed.value for g in games] == [7, 8, 9]
    assert three.split("\n\n[Format")[0] + "\n" == notation.write(canonical_purchases(play_game(4, 7, "greedy")))
    second = run("generate", "-p", "4", "-s", "8", "--bot", "greedy").stdout
    assert notation.write(games[1]) == second


@pytest.mark.parametrize("players, seed, bot", [(3, 2, "greedy"), (5, 2, "greedy"), (7, 1, "random")])
def test_generated_games_are_canonical_purchases_included(players, seed, bot):
    """generate writes the bot's game with canonical purchases (R-TRADE-MINIMAL): the default purchase of an
    ambiguous cost written out; the game means the same, and fmt --check passes on it."""
    text = run("generate", "-p", str(players), "-s", str(seed), "--bot", bot, "-n", "2").stdout
    records = notation.parse_many(text)
    for k, record in enumerate(records):
        bots = play_game(players, seed + k, bot)
        assert record == canonical_purchases(bots) and purchase_changes(record) == ()
        assert same_replay(replay(record), replay(bots))
    run("fmt", "--check", "-", input=text)


def test_generated_games_carry_expected_results():
    record = parse(run("generate", "-p", "6", "-s", "3").stdout)
    assert len(record.results) == 6 and all(r.total is not None for r in record.results)
    assert replay(record).findings == ()


@pytest.mark.parametrize("args, message", [
    (["-p", "8", "-s", "1"], "error: invalid value for '--players' / '-p': 8 is not in the range 3<=x<=7."),
    (["-p", "3", "-s", "-1"], "error: invalid value for '--seed' / '-s': -1 is not in the range "),
    (["-p", "3", "-s", str((1 << 64) - 1), "-n", "2"], "error: --seed 18446744073709551615 with --count 2 runs "
                                                       "past the largest seed, 2^64-1"),
    (["-p", "3", "-s", "1", "--bot", "smart"], "error: invalid value for '--bot': 'smart' is not one of"),
    (["-s", "1"], "error: missing option '--players' / '-p'"),
])
def test_generate_usage_errors_are_one_line(args, message):
    result = run("generate", *args, code=2)
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1 and result.stdout == ""


def _bundled_examples() -> list[str]:
    import re

    texts = [cli.check.CHECK_EPILOG, cli.score.SCORE_EPILOG, cli.show.SHOW_EPILOG, cli.fmt.FMT_EPILOG,
             cli.json_command.JSON_EPILOG]
    return [line.strip() for text in texts for line in text.splitlines()
            if re.match(r"\s+wnotation \w+ [^|>]*replays/", line) and "--write" not in line]


@pytest.mark.parametrize("example", _bundled_examples())
def test_help_examples_on_bundled_replays_run(example):
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    command = example.split(" > ")[0].split(" | ")[0]
    args = [str(root / a) if a.startswith("replays/") else a for a in shlex.split(command)[1:]]
    if args[:2] == ["fmt", "--check"] and "--keep-purchases" not in args:
        # the verdict is the files' own: exit 1 names bundled replays whose purchases are not canonical (see
        # test_cli_fmt), 0 once they are; anything else (a file that fails to format) is wrong
        from click.testing import CliRunner

        result = CliRunner().invoke(cli.main, args, prog_name="wnotation")
        assert result.exit_code in (0, 1) and "failed to format" not in result.stderr, result.stderr
        return
    run(*args)
