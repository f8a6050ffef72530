"""``wnotation conformance run`` and ``conformance vectors`` (wnotation/cli/conformance.py): the summary, the
exit codes 0/1/2, the vector files written atomically and read back. The kit itself: tests/test_conformance.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cli_helpers import run
from wnotation.conformance import vectors

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = [sys.executable, "-m", "wnotation.conformance.adapter"]
MUTANTS = str(ROOT / "tests" / "conformance_mutants.py")


@pytest.fixture(scope="module")
def generated():
    return vectors.generate()


@pytest.fixture
def cached(generated, monkeypatch):
    """The CLI's vectors are the module's, generated once (generation itself is tested above)."""
    monkeypatch.setattr(vectors, "generate", lambda spec=vectors.SPEC: generated)


def test_cli_run_exit_codes_and_summary(tmp_path, cached):
    verbose = run("conformance", "run", "-v", "--only", "R-CHAIN", "--", *ADAPTER)
    assert "PASS rules/059-chain-free" in verbose.stdout and "    R-CHAIN " in verbose.stdout
    out = run("conformance", "run", "--only", "deals/3p-*", "--", *ADAPTER)
    assert "deals        10 / 10   passed" in out.stdout
    failing = run("conformance", "run", "--only", "rules/059-*", "--", sys.executable, MUTANTS, "chain-missing",
                  code=1)
    assert "FAIL rules/059-chain-free [R-CHAIN]" in failing.stdout
    assert "finding: unexpected error R-TRADE at line" in failing.stdout
    assert "rules failing: R-CHAIN (1 of 1)" in failing.stdout
    broken = run("conformance", "run", "--", str(tmp_path / "no-such-adapter"), code=2)
    assert "cannot start the adapter" in broken.stderr
    nothing = run("conformance", "run", "--only", "no-such-area", "--", *ADAPTER, code=2)
    assert "no vector matches" in nothing.stderr


def test_cli_vectors_writes_the_files_atomically_and_run_reads_them(tmp_path, cached):
    target = tmp_path / "vectors"
    run("conformance", "vectors", "-o", str(target))
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["vectors_version"] == 1
    assert sorted(p.name for p in target.iterdir()) == sorted(["manifest.json", *(f"{a}.json" for a in
                                                                                  vectors.AREAS)])
    first = {p.name: p.read_bytes() for p in target.iterdir()}
    run("conformance", "vectors", "-o", str(target))
    assert {p.name: p.read_bytes() for p in target.iterdir()} == first
    out = run("conformance", "run", "--vectors", str(target), "--only", "scoring/science-*", "--", *ADAPTER)
    assert "scoring      12 / 12   passed" in out.stdout
