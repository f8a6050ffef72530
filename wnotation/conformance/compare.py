"""Comparing an adapter's answer with a vector's expectation (spec/conformance.md §6): a list of differences,
each one readable line, empty when the answer passes."""

from __future__ import annotations

import json
from typing import Any

#: The longest value shown in a difference; longer ones are cut in the middle.
SHOWN = 240


def shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= SHOWN else text[: SHOWN // 2] + " … " + text[-SHOWN // 2:]


#: The most differences listed for one field of an answer.
MOST = 6


def _strings(name: str, want: Any, got: Any) -> list[str]:
    """The differences of one field: for lists and objects, each differing item by its path (``hands[1][3]``,
    0-based as in JSON), at most :data:`MOST`; for values, both, and for strings the first differing column."""
    out = _paths(name, want, got)
    if len(out) > MOST * 2:
        out = out[: MOST * 2] + [f"{name}: … and more differences"]
    return out


def _paths(name: str, want: Any, got: Any) -> list[str]:
    if want == got:
        return []
    if isinstance(want, dict) and isinstance(got, dict):
        return [line for key in sorted(set(want) | set(got), key=str)
                for line in _paths(f"{name}.{key}", want.get(key), got.get(key))]
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [line for k, (a, b) in enumerate(zip(want, got)) for line in _paths(f"{name}[{k}]", a, b)]
    return _leaf(name, want, got)


def _leaf(name: str, want: Any, got: Any) -> list[str]:
    out = [f"{name}: expected {shown(want)}", f"{' ' * len(name)}  got      {shown(got)}"]
    if isinstance(want, str) and isinstance(got, str) and max(len(want), len(got)) > 40:
        at = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
        out.append(f"{' ' * len(name)}  first difference at column {at + 1}: expected {shown(want[at:at + 40])!r}, "
                   f"got {shown(got[at:at + 40])!r}")
    return out


def compare(vector: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """The differences between ``got`` (an answer) and ``vector``'s expectation."""
    expect = vector["expect"]
    if vector["request"]["op"] == "check":
        return _check(expect, got)
    if vector["request"]["op"] == "deal" and expect.get("refused") is True:
        return [] if got.get("refused") not in (None, False) else [
            f"refused: expected a refusal, got the deal {shown(got)}"]
    out: list[str] = []
    for key in sorted(expect):
        out += _strings(key, expect[key], got.get(key))
    return out


def _located(f: dict[str, Any], turn_lines: set[int]) -> tuple[str, int | None, int | None, str]:
    line = f.get("line")
    return (str(f.get("severity")), line if line in turn_lines else None, f.get("seat"), str(f.get("rule")))


def _check(expect: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """A casebook verdict (spec/cases/README.md): refusal, findings at their lines and seats, results, positions."""
    if expect["refused"] is not None:
        if got.get("refused") == expect["refused"]:
            return []
        return [f"refused: expected the reader to refuse the record with {expect['refused']!r}, got "
                f"{shown(got.get('refused'))}"]
    if got.get("refused") is not None:
        return [f"refused: expected the record to be read, got the refusal {shown(got.get('refused'))}"]
    turn_lines = set(expect["turn_lines"])
    found = {_located(f, turn_lines) for f in got.get("findings") or []
             if f.get("severity") in ("error", "warning")}
    wanted = {_located(f, turn_lines) for f in expect["findings"]}
    out = []
    for sev, line, seat, rule in sorted(found, key=str):
        if not any(w[0] == sev and w[1] == line and w[3] == rule and w[2] in (None, seat) for w in wanted):
            out.append(f"finding: unexpected {sev} {rule} at {_where(line, seat)}")
    for sev, line, seat, rule in sorted(wanted, key=str):
        if not any(f[0] == sev and f[1] == line and f[3] == rule and seat in (None, f[2]) for f in found):
            column = next((w["column"] for w in expect["findings"] if (w["line"], w["rule"]) == (line, rule)), None)
            at = _where(line, seat) + (f", column {column}" if column else "")
            out.append(f"finding: missing {sev} {rule} at {at}")
    sheet = got.get("scores")
    for result in expect["results"]:
        if not isinstance(sheet, list) or not 0 < result["seat"] <= len(sheet):
            out.append(f"scores: expected a score sheet with seat {result['seat']}, got {shown(sheet)}")
            break
        line = sheet[result["seat"] - 1]
        for field, value in result.items():
            if line.get(field) != value:
                out.append(f"scores: seat {result['seat']} {field}: the result line states {value}, got "
                           f"{shown(line.get(field))}")
    if expect["scores"] is not None:
        out += _strings("scores", expect["scores"], sheet)
    positions = got.get("positions") or {}
    for where, string in expect["positions"].items():
        out += _strings(f"position {where}", string, positions.get(where))
    return out


def _where(line: int | None, seat: int | None) -> str:
    return ("the game" if line is None else f"line {line}") + (f" (seat {seat})" if seat else "")
