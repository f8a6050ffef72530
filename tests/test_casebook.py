"""The rules casebook (spec/cases/, format in spec/cases/README.md): one test per case file, plus completeness.

Each case is a 7WN record. The test replays it and asserts that the error (and warning) findings are exactly
the ones its ``[%expect R-…]`` (``[%expect-warning R-…]``) annotations announce, at the annotated line and seat;
that every ``[Expect "…"]`` value holds; and that every ``result`` line matches the computed score sheet. A case
with a ``[Notation "id"]`` tag must instead be refused by the reader with that error identifier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from wnotation.model.catalog import RESOURCES
from wnotation.engine import replay
from wnotation.engine.position import start_setup
from wnotation.model.position_values import PositionError
from wnotation.notation import NotationError, parse

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "spec" / "cases"
RULINGS = ROOT / "spec" / "rulings.md"

RULE_ID = re.compile(r"R-[A-Z0-9]+(?:-[A-Z0-9]+)*")
FILE_NAME = re.compile(r"^(\d{3})-[a-z0-9]+(?:-[a-z0-9]+)*\.7wn$")
SCORE_FIELDS = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total", "coins",
                "rank")
SYMBOLS = ("tablet", "compass", "gear", "any")
GAME = "game"  # the line key of findings and expectations that belong to no turn line


# --- reading a case ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    path: Path
    number: str
    title: str
    rules: tuple[str, ...]
    text: str

    @property
    def test_id(self) -> str:
        return f"case-{self.number}-{self.rules[0] if self.rules else 'none'}"


def _raw_tag(text: str, name: str) -> list[str]:
    """The values of header tag ``name``, read with a regular expression (works on records the reader refuses)."""
    return re.findall(rf'^\s*\[{name}\s+"((?:[^"\\]|\\.)*)"\s*\]', text, re.MULTILINE)


def load_case(path: Path) -> Case:
    text = path.read_text(encoding="utf-8")
    number = (_raw_tag(text, "Case") or [""])[0]
    title = (_raw_tag(text, "Title") or [""])[0]
    rules = tuple((_raw_tag(text, "Rules") or [""])[0].split())
    return Case(path, number, title, rules, text)


def all_cases() -> list[Case]:
    return [load_case(p) for p in sorted(CASES.glob("*.7wn"))]


# --- expectations ------------------------------------------------------------------------------------------------


def _rule_ids(value: str, where: str) -> list[str]:
    ids = value.split()
    bad = [i for i in ids if not RULE_ID.fullmatch(i)]
    assert ids and not bad, f"{where}: [%expect] needs rule IDs, got {value!r}"
    return ids


def expected_findings(record) -> tuple[set, set]:
    """``(errors, warnings)``: sets of ``(line, seat or None, rule)`` announced by ``[%expect…]`` annotations.

    An action's (or pick's) annotation names that seat at the action's line; a turn's annotation (a comment
    line before it, or after ``//``) any seat at the turn's line; the game's annotation (the ``game`` line or
    comment lines after the last turn) any seat, for findings outside the turn lines."""
    out: dict[str, set] = {"expect": set(), "expect-warning": set()}

    def take(annotation, line, seat, where):
        for key, value in annotation.tags:
            if key in out:
                out[key].update((line, seat, r) for r in _rule_ids(value, where))

    for turn in record.turns:
        label = f"turn {turn.age}.{turn.number}"
        take(turn.annotation, turn.span.line, None, label)
        for a in turn.actions:
            take(a.annotation, a.span.line, a.seat, label)
            if a.pick is not None:
                take(a.pick.annotation, (a.pick.span or a.span).line, a.seat, label)
    take(record.annotation, GAME, None, "game")
    return out["expect"], out["expect-warning"]


def actual_findings(record, rp, severity: str) -> set:
    turn_lines = {t.span.line for t in record.turns}
    found = set()
    for f in rp.findings:
        if f.severity != severity:
            continue
        line = f.span.line if f.span is not None and f.span.line in turn_lines else GAME
        found.add((line, f.seat, f.rule))
    return found


def compare(expected: set, actual: set) -> list[str]:
    """Problems: actual findings no expectation covers, and expectations no finding meets."""
    problems = []
    for line, seat, rule in sorted(actual, key=str):
        if not any(e[0] == line and e[2] == rule and e[1] in (None, seat) for e in expected):
            problems.append(f"unexpected {rule} at line {line} (seat {seat})")
    for line, seat, rule in sorted(expected, key=str):
        if not any(a[0] == line and a[2] == rule and seat in (None, a[1]) for a in actual):
            problems.append(f"missing {rule} at line {line}" + (f" (seat {seat})" if seat else ""))
    return problems


def _seat(record, token: str) -> int:
    if token.startswith("#"):
        return int(token[1:])
    for k, s in enumerate(record.seats):
        if s.name.casefold() == token.casefold():
            return k + 1
    raise AssertionError(f"[Expect]: unknown seat {token!r}")


def _card_names(cards) -> list[str]:
    return [c.name.casefold() for c in cards if c is not None]


def quantity(city, what: str) -> int:
    """One seat quantity of the [Expect] vocabulary (spec/cases/README.md), read from an engine City."""
    words = what.split()
    if what == "coins":
        return city.coins
    if what == "shields":
        return city.shields
    if what == "stages":
        return city.stages
    if what == "military":
        return sum(city.tokens)
    if what == "victories":
        return sum(1 for t in city.tokens if t > 0)
    if what == "defeats":
        return sum(1 for t in city.tokens if t < 0)
    if what == "buildings":
        return len(city.buildings)
    if what in SYMBOLS:
        return city.science.count(what)
    if len(words) == 2 and words[0] in ("produces", "sells") and words[1] in RESOURCES:
        sources = city.own if words[0] == "produces" else city.tradable
        return sum(1 for src in sources if words[1] in src)
    raise AssertionError(f"[Expect]: unknown quantity {what!r}")


def check_expect(record, rp, value: str) -> str | None:
    """``None`` if the ``[Expect]`` statement ``value`` holds, else what differs."""
    words = value.split()
    assert len(words) >= 3, f"[Expect {value!r}]: too short"
    where = words[0]
    if where == GAME:
        assert rp.scores is not None, f"[Expect {value!r}]: the game is not complete"
        seat, field, want = _seat(record, words[1]), " ".join(words[2:-1]), int(words[-1])
        assert field in SCORE_FIELDS, f"[Expect {value!r}]: unknown score field {field!r}"
        got = getattr(rp.scores.line(seat), field)
        return None if got == want else f"{value}: computed {got}"
    try:
        state = rp.position(where)
    except KeyError as exc:
        return f"{value}: {exc.args[0]}"
    if words[1] == "pile":
        if words[2] in ("has", "lacks"):
            name = " ".join(words[3:]).casefold()
            present = name in _card_names(state.discard)
            return None if present == (words[2] == "has") else f"{value}: pile holds " + \
                ", ".join("?" if c is None else c.name for c in state.discard)
        got = len(state.discard)
        return None if got == int(words[2]) else f"{value}: pile holds {got}"
    city = state.cities[_seat(record, words[1]) - 1]
    if words[2] in ("has", "lacks"):
        name = " ".join(words[3:]).casefold()
        present = name in _card_names(city.buildings)
        return None if present == (words[2] == "has") else f"{value}: city holds " + \
            ", ".join(c.name for c in city.buildings)
    got = quantity(city, " ".join(words[2:-1]))
    return None if got == int(words[-1]) else f"{value}: computed {got}"


def check_results(record, rp) -> list[str]:
    """Each ``result`` line against the score sheet, independently of the engine's own R-SCORE check."""
    if not record.results:
        return []
    if rp.scores is None:
        return [] if not record.turns else ["result lines in an incomplete game"]  # a score pad of totals only
    problems = []
    for r in record.results:
        line = rp.scores.line(r.seat)
        for f in SCORE_FIELDS:
            want = getattr(r, f)
            if want is not None and want != getattr(line, f):
                problems.append(f"result {record.seats[r.seat - 1].name} {f}: stated {want}, computed "
                                f"{getattr(line, f)}")
    return problems


def run_case(case: Case) -> list[str]:
    """Every problem with ``case`` (an empty list: the case passes)."""
    refused = _raw_tag(case.text, "Notation")
    try:
        record = parse(case.text, source=case.path.name)
        start_setup(record)  # the engine judges the [Position] the reader read, as check does (spec/position.md §8)
    except NotationError as exc:
        if refused and exc.rule == refused[0]:
            return []
        return [f"the reader refuses the case: {exc}"]
    except PositionError as exc:  # check reports it as the reader's error 'position' at the tag
        if refused and refused[0] == "position":
            return []
        return [f"the engine refuses the case's [Position]: {exc}"]
    if refused:
        return [f"the reader accepts the case; expected a {refused[0]!r} notation error"]
    rp = replay(record)
    errors, warnings = expected_findings(record)
    problems = compare(errors, actual_findings(record, rp, "error"))
    problems += compare(warnings, actual_findings(record, rp, "warning"))
    if problems:
        problems += [f"  finding: {f} (seat {f.seat}, line {f.span.line if f.span else '-'}, {f.severity})"
                     for f in rp.findings if f.severity != "note"]
    for value in [t.value for t in record.tags if t.name == "Expect"]:
        miss = check_expect(record, rp, value)
        if miss:
            problems.append(f"[Expect] {miss}")
    if not any(rule in ("R-SCORE", "R-SCORE-EXP", "R-WIN") for _, _, rule in errors):
        problems += check_results(record, rp)
    return problems


# --- the tests ---------------------------------------------------------------------------------------------------

_CASES = all_cases()


def _param(case: Case):
    """A case with an ``[XFail "reason"]`` tag documents a known engine defect: it must fail (strict)."""
    reason = _raw_tag(case.text, "XFail")
    marks = [pytest.mark.xfail(reason=reason[0], strict=True)] if reason else []
    return pytest.param(case, id=case.test_id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in _CASES])
def test_case(case: Case):
    problems = run_case(case)
    assert not problems, f"{case.path.name}: {case.title}\n" + "\n".join(problems)


def test_case_files_are_well_formed():
    """File names ``NNN-slug.7wn``, unique numbers matching the ``Case`` tag, a title, known rule IDs."""
    known = set(rulings_ids())
    numbers = []
    for case in _CASES:
        m = FILE_NAME.match(case.path.name)
        assert m, f"{case.path.name}: expected NNN-slug.7wn"
        assert case.number == m.group(1), f"{case.path.name}: [Case {case.number!r}]"
        assert case.title, f"{case.path.name}: no [Title]"
        assert case.rules and set(case.rules) <= known, f"{case.path.name}: [Rules {case.rules}]"
        numbers.append(case.number)
    assert len(numbers) == len(set(numbers))
    assert len(numbers) >= 80


def rulings_ids() -> list[str]:
    """The rule IDs listed in spec/rulings.md's table (the copy of the reference's list kept in the repo)."""
    text = RULINGS.read_text(encoding="utf-8")
    table = text.split("## Rule index", 1)[1]
    return [m.group(1) for m in re.finditer(r"^\| (R-[A-Z0-9-]+) \|", table, re.MULTILINE)]


def test_rulings_list_matches_the_engine_rule_list():
    """spec/rulings.md lists exactly the reference's IDs, which the engine tests keep in tests/test_rules_complete."""
    from test_rules_complete import RULES

    assert rulings_ids() == list(RULES)


def test_every_rule_is_cited_by_a_case():
    cited = {r for c in _CASES for r in c.rules}
    assert [r for r in rulings_ids() if r not in cited] == []


def _is_illegal(case: Case) -> bool:
    return "[%expect " in case.text or bool(_raw_tag(case.text, "Notation"))


def test_every_rule_has_a_legal_and_an_illegal_case():
    """Both sides of each rule: a case citing it that replays clean, and a case citing it with an expected error
    (which may carry the ID of the rule that reports it, e.g. a missing chain is an R-TRADE error). Rules that
    check nothing by themselves (set-up, incomes, scoring) are marked 'no illegal side' in spec/rulings.md."""
    text = RULINGS.read_text(encoding="utf-8")
    no_illegal = set(re.findall(r"^\| (R-[A-Z0-9-]+) \|[^\n]*no illegal side", text, re.MULTILINE))
    clean = {r for c in _CASES if not _is_illegal(c) for r in c.rules}
    illegal = {r for c in _CASES if _is_illegal(c) for r in c.rules}
    ids = rulings_ids()
    assert [r for r in ids if r not in clean] == []
    assert [r for r in ids if r not in illegal and r not in no_illegal] == []
    assert [r for r in no_illegal if r in illegal] == [], "a rule marked 'no illegal side' has one"


def test_rulings_cite_existing_cases():
    numbers = {c.number for c in _CASES}
    text = RULINGS.read_text(encoding="utf-8")
    cited = set(re.findall(r"\b(\d{3})\b", text.split("## Rule index", 1)[1]))
    assert cited - numbers == set()


def test_case_files_are_canonical_in_layout():
    """Every readable case is written in canonical layout (spec 7wn.md §10); purchases are left as the case states
    them, since many cases state or omit one on purpose (``wnotation fmt --check --keep-purchases spec/cases``)."""
    from wnotation.diagnostics import canonical_text

    for case in _CASES:
        if _raw_tag(case.text, "Notation"):
            continue  # a record the reader must refuse has no canonical form
        assert canonical_text(case.text, str(case.path)) == case.text, f"{case.path.name} is not canonical"
