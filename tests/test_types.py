"""Types: ``mypy --strict wnotation`` has no error outside :data:`REMAINING`, the modules still being typed.

Any error in a module that is not listed fails the suite, as does a listed module with more errors than its count;
a listed module without errors fails too, so that its line goes and the list only shrinks. When the list is empty
the test requires mypy to find nothing. Run by the suite, so by .ci/run (mypy is in the test extra; under CI=true
a missing mypy fails the test instead of skipping it).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The modules that do not pass ``mypy --strict`` yet, with the errors each may still have (issue 30 item 8). Empty:
#: the whole package is clean, so any error fails. Lower a count, remove a line; never add one.
REMAINING: dict[str, int] = {}

_ERROR = re.compile(r"^(\S+?\.py):\d+(?::\d+)?: error: .*$", re.MULTILINE)


def mypy_errors() -> list[tuple[str, str]]:
    """Run mypy --strict on the package: each error as (module, its line of mypy's output); notes are not errors."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "wnotation"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    found = [(m.group(1), m.group(0)) for m in _ERROR.finditer(done.stdout)]
    if done.returncode not in (0, 1) or done.returncode == 1 and not found:
        raise RuntimeError(f"mypy failed to run ({done.returncode}):\n{done.stdout}{done.stderr}")
    return found


def problems(found: Counter[str], allowed: Mapping[str, int]) -> list[str]:
    """What is wrong with per-module error counts ``found`` against ``allowed``: a module with more errors than
    it may have (an unlisted one may have none), or a listed one with none left (its line must go)."""
    grown = [f"{m}: {n} errors, {allowed.get(m, 0)} allowed" for m, n in sorted(found.items())
             if n > allowed.get(m, 0)]
    cleared = [f"{m}: no errors left, remove it from REMAINING" for m in sorted(allowed) if not found.get(m)]
    return grown + cleared


def test_problems_flags_new_modules_growth_and_cleared_lines() -> None:
    allowed = {"a.py": 2, "b.py": 4}
    assert problems(Counter({"a.py": 2, "b.py": 1}), allowed) == []
    assert problems(Counter({"a.py": 2, "b.py": 1, "c.py": 1}), allowed) == ["c.py: 1 errors, 0 allowed"]
    assert problems(Counter({"a.py": 3, "b.py": 4}), allowed) == ["a.py: 3 errors, 2 allowed"]
    assert problems(Counter({"b.py": 4}), allowed) == ["a.py: no errors left, remove it from REMAINING"]
    assert problems(Counter(), {}) == []
    assert problems(Counter({"a.py": 1}), {}) == ["a.py: 1 errors, 0 allowed"]


def test_remaining_names_modules_of_the_package_with_positive_counts() -> None:
    for module, count in REMAINING.items():
        assert (ROOT / module).is_file(), f"{module} is in REMAINING but not in the package"
        assert count > 0, f"{module}: a module without errors has no line"


def test_mypy_strict_finds_no_error_outside_the_remaining_modules() -> None:
    """Skipped without mypy, except under CI=true (the CI script sets it), where it must run."""
    if subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True).returncode != 0:
        if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
            pytest.fail("mypy is not installed (it is in the test extra)", pytrace=False)
        pytest.skip("mypy is not installed (it is in the test extra)")
    errors = mypy_errors()
    counts = Counter(module for module, _ in errors)
    wrong = problems(counts, REMAINING)
    shown = [line for module, line in errors if counts[module] > REMAINING.get(module, 0)]
    assert wrong == [], "\n".join(wrong + shown)
