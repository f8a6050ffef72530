"""The conformance kit (spec/conformance.md, wnotation/conformance/): the vectors are generated deterministically,
our own engine through the shipped adapter passes every one, and adapters made wrong the ways peer engines were
(tests/conformance_mutants.py) fail exactly the vectors that should catch them."""

from __future__ import annotations

import io
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wnotation.model.catalog import load
from wnotation.conformance import adapter, runner, vectors
from wnotation.conformance.compare import compare
from wnotation.engine import COMPILED

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = [sys.executable, "-m", "wnotation.conformance.adapter"]
MUTANTS = str(ROOT / "tests" / "conformance_mutants.py")


@pytest.fixture(scope="module")
def generated():
    return vectors.generate()


@pytest.fixture(scope="module")
def mutant_reports(generated):
    """Every mutant's report over every vector but the perft ones (run at once: the adapters are processes)."""
    if COMPILED:
        pytest.skip("the mutants patch the engine's Python modules")
    names = ("caravansery-7p", "chain-missing", "trading-posts-mirrored", "coins-vanish", "wildcard-not-maximised")
    with ThreadPoolExecutor(len(names)) as pool:
        reports = pool.map(lambda m: runner.run([sys.executable, MUTANTS, m], generated, skip=["*-perft"],
                                                timeout=60), names)
        return dict(zip(names, reports))


def _failing(report) -> set[str]:
    return {o.vector["id"] for o in report.failures}


def test_vectors_are_versioned_deterministic_and_cover_every_area(generated):
    again = vectors.generate()
    assert vectors.files(again) == vectors.files(generated)
    assert vectors.VECTORS_VERSION == 1
    sizes = {area: len(vs) for area, vs in generated.items()}
    assert list(sizes) == list(vectors.AREAS)
    cases, replays = (len(list((vectors.SPEC.parent / d).glob("*.7wn"))) for d in ("spec/cases", "replays"))
    assert sizes["rules"] == cases + replays  # no case is XFail today
    assert sizes["counts"] >= 300 and sizes["deals"] >= 50 and sizes["scoring"] >= 100
    perft = [v for v in generated["counts"] if v["request"]["depth"] == 2]
    assert perft and all(v["expect"]["joint"][1] > v["expect"]["joint"][0] > 0 for v in perft)
    players = {v["request"]["position"].count(" | <") for v in generated["counts"]}
    assert players == {3, 4, 5, 6, 7}
    sides = {f"> {w.name} {w.side};" for w in load().wonders}
    assert len(sides) == 14
    assert {s for v in generated["counts"] for s in sides if s in v["request"]["position"]} == sides


def test_deal_vectors_hold_the_spec_examples(generated):
    """spec/deal.md V7: 3 players, seed 42, seat 1's Age I hand."""
    v = next(v for v in generated["deals"] if v["id"] == "deals/3p-seed-42")
    assert v["expect"]["hands"][0][0] == ["Glassworks", "Apothecary", "Barracks", "Stone Pit", "Lumber Yard", "Altar",
                                          "Loom"]


def test_casebook_vectors_carry_the_verdict_of_the_annotations(generated):
    by_id = {v["id"]: v for v in generated["rules"]}
    chain = by_id["rules/060-chain-missing"]["expect"]
    assert [(f["rule"], f["severity"]) for f in chain["findings"]] == [("R-TRADE", "error")]
    assert chain["findings"][0]["line"] and chain["findings"][0]["column"]
    refused = by_id["rules/166-coins-in-a-version-1-game"]
    assert refused["expect"] == {"refused": refused["expect"]["refused"]} and refused["expect"]["refused"]


def test_our_adapter_passes_every_vector(generated):
    report = runner.run(ADAPTER, generated, timeout=60)
    assert report.failures == []
    assert len(report.outcomes) == sum(len(vs) for vs in generated.values())
    assert report.adapter == "wnotation"


def test_mutant_card_count_fails_the_seven_player_deals(mutant_reports):
    report = mutant_reports["caravansery-7p"]
    failing = _failing(report)
    assert {"deals/7p-seed-1", "deals/7p-seed-2026"} <= failing
    assert {o.vector["area"] for o in report.failures} <= {"deals", "positions", "scoring", "counts", "rules"}
    assert all("/7p-" in vid or vid == "rules/replay-7p-all-wonders" for vid in failing)  # deck checks: 7 players


def test_mutant_missing_chain_fails_R_CHAIN_cases_and_counts(mutant_reports):
    report = mutant_reports["chain-missing"]
    assert "rules/059-chain-free" in _failing(report)
    assert {o.vector["area"] for o in report.failures} == {"rules", "counts"}
    assert all("R-CHAIN" in o.vector["rules"] or "R-FREE" in o.vector["rules"] or "/replay-" in o.vector["id"]
               for o in report.failures if o.vector["area"] == "rules")
    assert "rules/replay-4p-alexandria-ephesos-gizah-rhodos" in _failing(report)  # a whole game uses the chain


def test_mutant_mirrored_trading_posts_fails_R_TRADE_cases(mutant_reports):
    report = mutant_reports["trading-posts-mirrored"]
    assert {"rules/050-trading-posts-marketplace", "rules/051-discount-one-side"} <= _failing(report)
    assert {o.vector["area"] for o in report.failures} == {"rules", "counts"}
    # each failure is a trading case, or a record of another rule whose game builds a trading post and buys
    assert all({"R-PRICE", "R-TRADE", "R-TRADE-MINIMAL"} & set(o.vector["rules"]) or
               "Trading Post" in o.vector["request"].get("record", "") for o in report.failures)


def test_mutant_vanishing_coins_fails_only_replayed_records(mutant_reports):
    report = mutant_reports["coins-vanish"]
    assert "rules/002-left-is-next-seat" in _failing(report)
    assert {o.vector["area"] for o in report.failures} == {"rules"}  # strings state coins; only replays pay them


def test_mutant_science_wildcard_fails_R_SCIENCE_ANY(mutant_reports):
    report = mutant_reports["wildcard-not-maximised"]
    assert "rules/093-science-wildcard" in _failing(report)
    assert {o.vector["area"] for o in report.failures} == {"rules", "scoring"}
    assert any(o.vector["id"].startswith("scoring/science-") for o in report.failures)
    assert all(o.vector["area"] == "scoring" or "R-SCORE" in json.dumps(o.differences) or
               "science" in json.dumps(o.differences) for o in report.failures)


def test_runner_reports_a_crash_and_goes_on(generated, tmp_path):
    """An adapter that dies on every deal request: those vectors fail with the crash, the others pass."""
    script = tmp_path / "dies.py"
    script.write_text("import json, sys\nfrom wnotation.conformance.answer import answer\n"
                      "for line in sys.stdin:\n    r = json.loads(line)\n"
                      "    if r['op'] == 'deal' and r['players'] == 7: sys.exit('boom')\n"
                      "    print(json.dumps({'id': r['id'], **answer(r)}), flush=True)\n", encoding="utf-8")
    report = runner.run([sys.executable, str(script)], generated, only=["deals/7p-seed-0", "deals/3p-seed-0"])
    assert [o.vector["id"] for o in report.failures] == ["deals/7p-seed-0"]
    assert "ended (exit status 1): boom" in report.failures[0].differences[0]


def test_runner_times_out_a_silent_adapter(generated, tmp_path):
    script = tmp_path / "silent.py"
    script.write_text("import json, sys, time\nfrom wnotation.conformance.answer import answer\n"
                      "for line in sys.stdin:\n    r = json.loads(line)\n"
                      "    if r['op'] == 'deal': time.sleep(30)\n"
                      "    print(json.dumps({'id': r['id'], **answer(r)}), flush=True)\n", encoding="utf-8")
    report = runner.run([sys.executable, str(script)], generated, only=["deals/3p-seed-0"], timeout=1)
    assert "no answer within 1 s" in report.failures[0].differences[0]


def test_an_answer_of_the_wrong_shape_fails_its_vector_only(generated, tmp_path):
    """Answers are data: findings that are not objects, a sheet that is a string, do not stop the run."""
    script = tmp_path / "odd.py"
    script.write_text("import json, sys\nfrom wnotation.conformance.answer import answer\n"
                      "for line in sys.stdin:\n    r = json.loads(line)\n    a = answer(r)\n"
                      "    if r['op'] == 'check': a['findings'] = [[1, 2], 'x']\n"
                      "    print(json.dumps({'id': r['id'], **a}), flush=True)\n", encoding="utf-8")
    report = runner.run([sys.executable, str(script)], generated, only=["rules/060-*", "deals/3p-seed-0"])
    assert [o.vector["id"] for o in report.failures] == ["rules/060-chain-missing"]
    assert "not of the protocol's type" in report.failures[0].differences[0]


def test_the_report_shows_control_characters_of_an_answer_as_visible_stand_ins(generated):
    v = next(v for v in generated["deals"] if v["id"] == "deals/3p-seed-0")
    got = {**v["expect"], "guilds": ["\x1b[2J\x07Workers Guild\u202e", *v["expect"]["guilds"][1:]]}
    text = runner.render(runner.Report([runner.Outcome(v, compare(v, got))], adapter="evil\x1b]0;title\x07"))
    assert not any(c in text for c in ("\x1b", "\x07", "\u202e"))
    assert f"guilds[0]: expected {v['expect']['guilds'][0]}" in text and "\u241b[2J" in text


def test_the_adapter_refuses_a_line_too_long_and_answers_the_next(tmp_path):
    long = json.dumps({"id": "b", "op": "deal", "pad": "y" * (adapter.MAX_LINE + 10)})
    lines = [json.dumps({"id": "a", "op": "hello"}), long, json.dumps({"id": "c", "op": "nothing"})]
    out = io.StringIO()
    adapter.serve(io.StringIO("\n".join(lines) + "\n"), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == ["a", None, "c"]
    assert "longer than" in answers[1]["error"] and "unknown op" in answers[2]["error"]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_compare_finds_every_changed_item_of_an_expectation(generated, data):
    """Any one leaf of a deal, position, score or count expectation changed: compare names its path."""
    area = data.draw(st.sampled_from(["deals", "positions", "scoring", "counts"]))
    v = data.draw(st.sampled_from([v for v in generated[area] if v["expect"].get("refused") is not True]))
    assert compare(v, v["expect"]) == []
    leaves = list(_leaves(v["expect"], ""))
    path, value = data.draw(st.sampled_from(leaves))
    got = json.loads(json.dumps(v["expect"]))
    _set(got, path, value + 1 if isinstance(value, int) and not isinstance(value, bool) else f"{value}x")
    differences = compare(v, got)
    assert differences and differences[0].startswith(path.lstrip("."))


def _leaves(value, path):
    if isinstance(value, dict):
        for k, item in value.items():
            yield from _leaves(item, f"{path}.{k}")
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _leaves(item, f"{path}[{k}]")
    elif value is not None:
        yield path, value


def _set(data, path, value):
    import re

    keys = [int(k) if k.isdigit() else k for k in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path) for k in k if k]
    for k in keys[:-1]:
        data = data[k]
    data[keys[-1]] = value


def test_an_answer_line_too_long_fails_its_vector_and_the_next_is_read(generated, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "MAX_ANSWER", 5000)
    script = tmp_path / "long.py"
    script.write_text("import json, sys\nfrom wnotation.conformance.answer import answer\n"
                      "for line in sys.stdin:\n    r = json.loads(line)\n"
                      "    a = answer(r) if r['id'] != 'deals/3p-seed-0' else {'pad': 'y' * 20000}\n"
                      "    print(json.dumps({'id': r['id'], **a}), flush=True)\n", encoding="utf-8")
    report = runner.run([sys.executable, str(script)], generated, only=["deals/3p-seed-0", "deals/3p-seed-1"])
    assert [o.vector["id"] for o in report.failures] == ["deals/3p-seed-0"]
    assert "longer than 5000 characters" in report.failures[0].differences[0]
