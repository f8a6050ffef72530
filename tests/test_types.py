"""Types: ``mypy --strict wnotation`` against the per-module baseline in tests/mypy-baseline.txt.

The baseline lists, for each module that does not pass strict mypy yet, how many errors it has. It may only
shrink: a module with more errors than its line (or with errors and no line) fails this test; fewer errors pass,
and ``python3 tests/test_types.py --update`` then writes the smaller counts (it refuses to write a larger one).
A module that reaches zero leaves the file. Run by the suite, so by .ci/run (mypy is in the test extra; under
CI=true a missing mypy fails the test instead of skipping it).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASELINE = Path(__file__).with_name("mypy-baseline.txt")
HEAD = ("# mypy --strict wnotation: the errors each module may still have. This file may only shrink:\n"
        "# tests/test_types.py fails when a module has more, and `python3 tests/test_types.py --update` writes\n"
        "# smaller counts (never larger ones). A module without errors has no line.\n")


def errors_per_module() -> Counter[str]:
    """Run mypy --strict on the package and count its errors per file (notes are not errors)."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "wnotation"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    if done.returncode not in (0, 1) or "error: " not in done.stdout and done.returncode:
        raise RuntimeError(f"mypy failed to run ({done.returncode}):\n{done.stdout}{done.stderr}")
    return Counter(m.group(1) for m in re.finditer(r"^(\S+?\.py):\d+(?::\d+)?: error: ", done.stdout, re.MULTILINE))


def read_baseline(path: Path = BASELINE) -> dict[str, int]:
    counts = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            module, count = line.split()
            counts[module] = int(count)
    return counts


def write_baseline(counts: Counter[str], path: Path = BASELINE) -> None:
    lines = [f"{module} {n}" for module, n in sorted(counts.items()) if n]
    path.write_text(HEAD + "\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")


def over(found: Counter[str], allowed: dict[str, int]) -> list[str]:
    """The modules with more errors than the baseline allows, as lines for a failure message."""
    return [f"{m}: {n} errors, the baseline allows {allowed.get(m, 0)}" for m, n in sorted(found.items())
            if n > allowed.get(m, 0)]


def test_the_baseline_names_modules_that_exist_and_positive_counts():
    for module, count in read_baseline().items():
        assert (ROOT / module).is_file(), f"{module} is in the baseline but not in the package"
        assert count > 0, f"{module}: a module without errors has no line"
    assert BASELINE.read_text(encoding="utf-8").startswith(HEAD)


def test_over_counts_new_modules_and_growth_only():
    assert over(Counter({"a.py": 2, "b.py": 1, "c.py": 3}), {"a.py": 2, "b.py": 4}) == [
        "c.py: 3 errors, the baseline allows 0"]
    assert over(Counter({"a.py": 3}), {"a.py": 2}) == ["a.py: 3 errors, the baseline allows 2"]


def test_mypy_strict_errors_never_grow_past_the_baseline():
    """Skipped without mypy, except under CI=true (the CI script sets it), where it must run."""
    if subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True).returncode != 0:
        if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
            pytest.fail("mypy is not installed (it is in the test extra)", pytrace=False)
        pytest.skip("mypy is not installed (it is in the test extra)")
    found = errors_per_module()
    assert over(found, read_baseline()) == []


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python3 tests/test_types.py --update")
    found, allowed = errors_per_module(), read_baseline()
    grown = over(found, allowed)
    if grown:
        sys.exit("the baseline may only shrink; fix these first:\n" + "\n".join(grown))
    write_baseline(found)
    print(f"{BASELINE.name}: {sum(found.values())} errors in {len(+found)} modules (was {sum(allowed.values())})")
