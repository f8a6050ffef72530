"""The bounds of a Record (issue 27 items 1 and 2): the coins a purchase may pay a side (spec 7.4, at most
``MAX_PURCHASE_COINS``), the digits of a result, and how deep variations nest (spec 6.1, ``MAX_VARIATION_DEPTH``).
The validator refuses what no game can hold, so no writer is asked to spell it and no walk of a Record recurses
past Python's limit; each refusal is one clean message, quick and small."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import pytest
from pydantic import ValidationError

from cli_helpers import run
from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.notation import from_json, parse, records_from_json, to_json, write
from wnotation.model.record import MAX_PURCHASE_COINS, MAX_VARIATION_DEPTH, CoinsPaid, Record, Turn, Variation

ROOT = Path(__file__).resolve().parent.parent

COINS_GAME = """[Format "7WN 2"]
[Edition "2e"]
[Date "2026.11.29"]
[Seat1 "Ann" "Gizah" "day"]
[Seat2 "Ben" "Babylon" "day"]
[Seat3 "Cat" "Rhodos" "day"]

I.1 East Trading Post | sell ? | Lumber Yard
I.2 Stockade (L 2 coins) | sell ? | stage Altar (r 2COINS)
"""

#: Runs ``wnotation ARGS`` in this process and prints its exit code, its CPU seconds (the interpreter's start-up
#: not counted; CPU time, so that a loaded machine does not fail the bound) and its peak RSS in MB: VmHWM of /proc/self/status, this process's own (getrusage's ru_maxrss would
#: count the RSS of the pytest process that forked it).
PROBE = """
import sys, time
from wnotation import cli
start = time.process_time()
try:
    cli.main(sys.argv[1:], prog_name="wnotation")
    code = 0
except SystemExit as exc:
    code = exc.code
seconds = time.process_time() - start
with open("/proc/self/status") as status:
    kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(code, seconds, kb / 1024, file=sys.stderr)
"""


def _probe(*args: str) -> tuple[int, float, float, str]:
    """Exit code, seconds, peak MB and the stderr (the probe's figures line removed) of ``wnotation *args``."""
    if not Path("/proc/self/status").exists():
        pytest.skip("the memory figures are read from /proc (Linux)")
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    *lines, figures = done.stderr.rstrip("\n").split("\n")
    code, seconds, mb = figures.split()
    return int(code), float(seconds), float(mb), "\n".join(lines)


def _coins_json(coins: int) -> dict:
    data = json.loads(to_json(parse(COINS_GAME)))
    data["turns"][1]["actions"][0]["purchase"] = {"left_coins": coins, "right_coins": 0}
    return data


# --- item 1: the coins of a purchase ----------------------------------------------------------------------------

def test_the_coin_bound_is_above_any_legal_purchase_and_any_seats_coins_by_the_catalogue():
    """MAX_PURCHASE_COINS' reasons (record.py, spec 7.4), recomputed from the catalogue so that a change to it that
    broke them fails here: no cost has more than 7 units (2 coins each), and the bank pays a seat less than 250."""
    data = json.loads((ROOT / "wnotation" / "data" / "catalog.json").read_text(encoding="utf-8"))
    costs = [c["cost"] for c in data["cards"]] + [st["cost"] for w in data["wonders"] for st in w["stages"]]
    assert max(sum(n for r, n in cost.items() if r != "coins") for cost in costs) == 7  # Palace
    names = {colour: sum(c["colour"] == colour for c in data["cards"]) for colour in
             {c["colour"] for c in data["cards"]}}
    cards = 0  # each card name once per city (R-UNIQUE): its most, counting cities at most once per name
    for c in data["cards"]:
        for e in c["effects"]:
            if e["type"] == "coins":
                cards += e["amount"]
            elif e["type"] == "coins_per":
                per = 4 if e["counts"] == ["wonder_stage"] else sum(names[k] for k in e["counts"])
                cards += e["each"] * per * len(e["cities"])
    stages = max(sum(e["amount"] for st in w["stages"] for e in st["effects"] if e["type"] == "coins")
                 for w in data["wonders"])
    sales = 3 * (18 + 3)  # 6 plays an Age, and Babylon Night's extra turns
    assert sales + cards + stages < 250
    assert 7 * (3 + 250) < MAX_PURCHASE_COINS and 2 * 7 < MAX_PURCHASE_COINS


@pytest.mark.parametrize("coins", [10**30, 2**64, MAX_PURCHASE_COINS + 1])
def test_a_json_purchase_of_more_coins_than_any_seat_holds_is_refused_by_the_validator(coins):
    with pytest.raises(ValidationError) as info:
        from_json(json.dumps(_coins_json(coins)))
    (error,) = info.value.errors()
    assert error["loc"] == ("turns", 1, "actions", 0, "purchase", "coins", "left_coins")
    assert "a purchase pays at most 2,000 coins to a side, more than any seat ever holds (spec 7.4, R-COST-COINS)" \
        in error["msg"]


def test_the_most_coins_a_json_purchase_may_pay_a_side_is_read_and_is_the_engines_error_R_TRADE_MINIMAL():
    record = from_json(json.dumps(_coins_json(MAX_PURCHASE_COINS)))
    assert record.turns[1].actions[0].purchase == CoinsPaid(left_coins=MAX_PURCHASE_COINS, right_coins=0)
    (finding,) = replay(record).findings
    assert finding.rule == "R-TRADE-MINIMAL" and "2000 coins to the left" in finding.message


@pytest.mark.parametrize("coins", [10**30, 2**64])
def test_json_to_7wn_of_a_huge_purchase_is_a_clean_refusal_in_a_second_and_100_MB(tmp_path, coins):
    """It spelt the count as ``99 coins`` groups until the memory ran out (24 GB seen, or MemoryError, exit 3)."""
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(_coins_json(coins)), encoding="utf-8")
    code, seconds, mb, stderr = _probe("json", "--to-7wn", str(path))
    assert code == 2, stderr
    assert stderr.startswith(f"error: {path} is not a valid Record: turns.1.actions.0.purchase.coins.left_coins: "
                             "value error, a purchase pays at most 2,000 coins to a side")
    assert "R-COST-COINS" in stderr and stderr.count("\n") == 0
    assert seconds < 1 and mb < 100, (seconds, mb)


@pytest.mark.parametrize("coins", [10**30, 2**64])
def test_write_refuses_a_huge_purchase_of_a_record_made_without_validation_at_once(coins):
    record = parse(COINS_GAME)
    action = record.turns[1].actions[0].model_copy(update={"purchase": CoinsPaid.model_construct(left_coins=coins,
                                                                                               right_coins=0)})
    turn = record.turns[1].model_copy(update={"actions": (action, *record.turns[1].actions[1:])})
    bad = record.model_copy(update={"turns": (record.turns[0], turn)})
    start = time.process_time()
    with pytest.raises(ValueError, match="a purchase pays at most 2,000 coins to a side"):
        write(bad)
    assert time.process_time() - start < 1


def test_check_of_the_text_purchase_adding_up_past_the_bound_is_an_R_TRADE_MINIMAL_error_at_its_action(tmp_path):
    """The text states at most 99 coins a group; groups add up, so text can state more than the JSON bound: the
    engine reports it as it reports any coins no legal purchase pays, at once."""
    groups = ", ".join(["L 99 coins"] * 30)
    path = tmp_path / "many.7wn"
    path.write_text(COINS_GAME.replace("(L 2 coins)", f"({groups})"), encoding="utf-8")
    code, seconds, mb, stderr = _probe("check", str(path))
    assert code == 1, stderr
    assert f"{path}:9:5: error[R-TRADE-MINIMAL]: Ann cannot build Stockade: no legal purchase pays exactly 2970 " \
        "coins to the left" in stderr
    assert seconds < 1 and mb < 100, (seconds, mb)


@pytest.mark.parametrize("field", ["total", "military", "coins"])
def test_a_json_result_of_more_than_18_digits_is_refused_as_the_reader_refuses_it(field):
    data = json.loads(to_json(parse(COINS_GAME)))
    for value, ok in ((10**18 - 1, True), (-(10**18 - 1), True), (10**18, False), (-(10**18), False)):
        data["results"] = [{"seat": 1, field: value}]
        if ok:
            assert getattr(from_json(json.dumps(data)).results[0], field) == value
        else:
            with pytest.raises(ValidationError, match=f"results.0.{field}"):
                from_json(json.dumps(data))


def test_a_json_span_is_bounded_too():
    data = json.loads(to_json(parse(COINS_GAME)))
    data["seats"][0]["span"] = {"line": 2**64, "column": 1}
    with pytest.raises(ValidationError, match="seats.0.span.line"):
        from_json(json.dumps(data))


# --- item 2: how deep variations nest ---------------------------------------------------------------------------

def _nested(record: Record, index: int, depth: int, pick_tags: bool = False) -> Record:
    """``record`` with variations nested ``depth`` deep on its turn ``index``, each restating that turn whole (so
    the game stays correct); built without validation, so any depth can be made."""
    turn = record.turns[index]
    actions = turn.actions
    if pick_tags:  # the deepest JSON a turn holds: an action's pick with a tag
        from wnotation.model.record import Annotation, Pick
        pick = Pick(card=None, annotation=Annotation(tags=(("eval", "+1"),)))
        actions = (actions[0].model_copy(update={"pick": pick}), *actions[1:])
    inner: tuple[Variation, ...] = ()
    for _ in range(depth):
        inner = (Variation.model_construct(turns=(Turn.model_construct(age=turn.age, number=turn.number,
                                                                       actions=actions, variations=inner),)),)
    changed = turn.model_copy(update={"variations": inner})
    turns = (*record.turns[:index], changed, *record.turns[index + 1:])
    return record.model_copy(update={"format": "7WN 2", "turns": turns})


@cache
def _game() -> Record:
    return play_game(3, 5, "greedy")


def _json_depth(text: str) -> int:
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def test_a_game_with_variations_32_deep_goes_through_every_command(tmp_path):
    game = _game()
    record = _nested(game, len(game.turns) - 1, MAX_VARIATION_DEPTH)
    assert from_json(to_json(record)) == record  # valid: the validator takes it
    path = tmp_path / "deep.7wn"
    path.write_text(write(record), encoding="utf-8")
    assert parse(path.read_text(encoding="utf-8")) == record
    where = ".".join(["III.6(1)"] * MAX_VARIATION_DEPTH) + ".III.end"
    for args in (["check"], ["score"], ["show"], ["show", "--at", where], ["html"], ["fmt", "--check"], ["sheet"],
                 ["json"]):
        result = run(*args, str(path))
        assert "error" not in result.stderr, (args, result.stderr)
    as_json = tmp_path / "deep.json"
    as_json.write_text(run("json", str(path)).stdout, encoding="utf-8")
    assert run("json", "--to-7wn", str(as_json)).stdout == path.read_text(encoding="utf-8")
    lines = replay(record).variations
    assert len(lines) == MAX_VARIATION_DEPTH and all(not line.findings for line in lines.values())
    assert all(line.scores == replay(record).scores for line in lines.values())


def test_the_json_of_a_record_nests_at_most_137_deep_below_the_parsers_200():
    """jsonio.JSON_DEPTH_LIMIT's claim: the deepest a valid Record's JSON goes (32 variations, a pick with a tag
    at the bottom) is 137, so pydantic-core's fixed 200 refuses only what is no Record."""
    game = _game()
    record = _nested(game, len(game.turns) - 1, MAX_VARIATION_DEPTH, pick_tags=True)
    text = to_json(record, indent=None)
    assert _json_depth(text) == 137
    assert records_from_json(text) == [record]


def test_variations_33_deep_in_json_are_refused_naming_the_limit_and_the_address(tmp_path):
    game = _game()
    record = _nested(game, len(game.turns) - 1, MAX_VARIATION_DEPTH + 1)
    path = tmp_path / "deep.json"
    path.write_text(record.model_dump_json(), encoding="utf-8")
    where = ".".join(["III.6(1)"] * (MAX_VARIATION_DEPTH + 1))
    with pytest.raises(ValidationError, match=rf"variation {re.escape(where)} nests 33 deep: variations nest at "
                                              r"most 32 deep \(spec 6.1\)"):
        records_from_json(path.read_text(encoding="utf-8"))
    result = run("json", "--to-7wn", str(path), code=2)
    assert result.stderr == (f"error: {path} is not a valid Record: the document: value error, variation {where} "
                             "nests 33 deep: variations nest at most 32 deep (spec 6.1)\n")


def test_variations_500_deep_in_json_are_refused_in_a_second_and_100_MB(tmp_path):
    """An 8.7 KB file 500 deep gave RecursionError (exit 3); valid JSON past pydantic-core's depth was "not JSON"."""
    data = json.loads(to_json(parse(COINS_GAME)))
    inner: list = []
    for _ in range(500):
        inner = [{"turns": [{"age": 1, "number": 2, "actions": [{"seat": 2, "use": "build", "card": "Altar"}],
                             "variations": inner}]}]
    data["turns"][1]["variations"] = inner
    path = tmp_path / "deep.json"
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)  # json.dumps of this test's own document
    try:
        path.write_text(json.dumps(data), encoding="utf-8")
    finally:
        sys.setrecursionlimit(old)
    code, seconds, mb, stderr = _probe("json", "--to-7wn", str(path))
    assert code == 2, stderr
    assert stderr == (f"error: {path} is not a Record: the document nests more than 200 deep (at line 1 column "
                      f"{stderr.split('column ')[1].split(')')[0]}), and a Record's JSON at most 137 (variations "
                      "nest at most 32 deep: spec 6.1, 14)")
    assert seconds < 1 and mb < 100, (seconds, mb)


def test_json_of_a_text_record_nested_deeper_than_the_limit_is_a_usage_error_not_an_internal_one(tmp_path):
    """``wnotation json`` of a 500-deep text game exited 3 (the serializer's depth, then to_json's refusal); it is
    refused in one line, exit 2 (by the writer's limit here, or by the reader's where it refuses the bracket)."""
    path = tmp_path / "deep.7wn"
    path.write_text(_deep_text(_nested(parse(COINS_GAME), 1, 40)), encoding="utf-8")
    result = run("json", str(path), code=2)
    assert "internal error" not in result.stderr and "32 deep" in result.stderr


def _deep_text(record: Record) -> str:
    """The 7WN text of ``record`` whatever its depth (the writer refuses past the limit): the header and main line
    written, each variation of turn I.2 nested by hand."""
    flat = record.model_copy(update={"turns": tuple(t.model_copy(update={"variations": ()}) for t in record.turns)})
    text, depth = write(flat), 0
    variations = record.turns[1].variations
    lines = []
    while variations:
        depth += 1
        (variation,) = variations
        (turn,) = variation.turns
        lines.append("  " * (depth - 1) + "( I.2 Ben: " + turn.actions[0].card)
        variations = turn.variations
    return text + "\n".join(lines) + " )" * depth + "\n"


def test_the_engine_replays_variations_nested_past_pythons_recursion_limit_and_writers_refuse_them():
    """engine/variations.py walks with a stack of its own (a RecursionError at 500 deep before); the text and JSON
    writers refuse a Record made without validation deeper than the limit rather than recurse."""
    record = _nested(parse(COINS_GAME), 1, 1_500)
    lines = replay(record).variations
    assert len(lines) == 1_500
    deepest = ".".join(["I.2(1)"] * 1_500)
    assert lines[deepest].positions["I.2"] is not None
    too_deep = ".".join(["I.2(1)"] * 33)
    for writer in (write, to_json):
        with pytest.raises(ValueError, match=rf"variation {re.escape(too_deep)} nests 33 deep"):
            writer(record)
