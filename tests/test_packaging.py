"""The wheel: it ships the catalogue and the grammar, and a normal (non-editable) install runs from anywhere.

Builds the wheel with pip (present on every fresh machine, unlike ``build``), installs it into a fresh venv in a
temporary directory and runs the installed ``wnotation`` script there. Slow (a few seconds to half a minute):
deselect with ``-m "not slow"``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import wnotation

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "grammar" / "7wn.lark"
BIN = "Scripts" if os.name == "nt" else "bin"

pytestmark = pytest.mark.slow


def _run(*args: str | Path, cwd: Path, timeout: int = 300, **extra_env: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")} | extra_env
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=env)
    assert done.returncode == 0, f"{' '.join(map(str, args))} exited {done.returncode}\n" \
                                 f"--- stdout ---\n{done.stdout}\n--- stderr ---\n{done.stderr}"
    return done


def _source_tree(tmp: Path) -> Path:
    """The project to build: the repository itself, or, while grammar/7wn.lark is not written yet, a copy
    whose pyproject leaves out the force-included grammar (hatchling refuses a missing forced file)."""
    if GRAMMAR.exists():
        return ROOT
    copy = tmp / "src"
    shutil.copytree(ROOT / "wnotation", copy / "wnotation", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "README.md", copy / "README.md")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    pyproject, n = re.subn(r'(?m)^\[tool\.hatch\.build\.targets\.wheel\.force-include\]\n"grammar/7wn\.lark".*\n',
                           "", pyproject)
    assert n == 1, "pyproject.toml no longer force-includes grammar/7wn.lark as expected"
    (copy / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    source = _source_tree(tmp)
    # Without hatchling at hand, pip fetches it into an isolated build environment (needs the package index).
    isolation = [] if importlib.util.find_spec("hatchling") is None else ["--no-build-isolation"]
    # The pure wheel (no mypyc compilation, which takes a minute): .ci/run builds and tests the compiled one.
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-w", tmp / "dist", source, cwd=tmp,
         WNOTATION_PURE="1")
    (built,) = (tmp / "dist").glob("wnotation-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding the installed wheel; dependencies come from this interpreter's site-packages, listed
    in a .pth file (``--system-site-packages`` would give the base interpreter's, which lack them when the suite
    itself runs in a venv, as the README and CI run it). Paths listed so come after the venv's own, and their .pth
    files are not run, so an editable install of the source stays out."""
    import site

    tmp = tmp_path_factory.mktemp("venv")
    _run(sys.executable, "-m", "venv", tmp / "venv", cwd=tmp)
    python = tmp / "venv" / BIN / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp).stdout.strip()
    here = [p for p in (*site.getsitepackages(), site.getusersitepackages()) if os.path.isdir(p)]
    (Path(purelib) / "wnotation-test-dependencies.pth").write_text("\n".join(here) + "\n", encoding="utf-8")
    _run(python, "-m", "pip", "install", "--quiet", "--no-index", "--force-reinstall", "--no-deps", wheel, cwd=tmp)
    return tmp / "venv"


def test_wheel_holds_the_package_and_the_catalogue(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"wnotation/__init__.py", "wnotation/cli/__init__.py", "wnotation/__main__.py", "wnotation/model/catalog.py",
            "wnotation/model/deck.py", "wnotation/data/catalog.json"} <= names
    assert wheel.name.startswith(f"wnotation-{wnotation.__version__}-")
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "wnotation = wnotation.cli:script" in zipfile.ZipFile(wheel).read(entry_points).decode()


@pytest.mark.skipif(not GRAMMAR.exists(), reason="grammar/7wn.lark is not written yet")
def test_wheel_holds_the_grammar(wheel):
    shipped = zipfile.ZipFile(wheel).read("wnotation/grammar/7wn.lark")
    assert shipped == GRAMMAR.read_bytes()


def test_installed_script_runs_outside_the_repository(venv, tmp_path):
    script = venv / BIN / "wnotation"
    # the wheel built here is the pure one (WNOTATION_PURE=1)
    assert _run(script, "--version", cwd=tmp_path).stdout == f"wnotation {wnotation.__version__} (pure Python engine)\n"
    data = json.loads(_run(script, "cards", "--json", cwd=tmp_path).stdout)
    assert len(data["cards"]) == 80 and len(data["wonders"]) == 14


def test_installed_package_is_the_wheel_not_the_source(venv, tmp_path):
    python = venv / BIN / "python"
    where = _run(python, "-c", "import wnotation, wnotation.model.catalog as c; c.load(); print(wnotation.__file__)",
                 cwd=tmp_path).stdout.strip()
    assert Path(where).resolve().is_relative_to(venv.resolve()), where
    if GRAMMAR.exists():
        text = _run(python, "-c", "from importlib import resources; "
                    "print(resources.files('wnotation').joinpath('grammar/7wn.lark').read_text(), end='')",
                    cwd=tmp_path).stdout
        assert text == GRAMMAR.read_text(encoding="utf-8")


def test_wheel_holds_the_casebook_the_rulings_and_the_notation_spec(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    cases = sorted(p.name for p in (ROOT / "spec" / "cases").glob("*.7wn"))
    assert cases and {f"wnotation/spec/cases/{name}" for name in cases} <= names
    assert {"wnotation/spec/rulings.md", "wnotation/spec/7wn.md"} <= names
    assert zipfile.ZipFile(wheel).read("wnotation/spec/7wn.md") == (ROOT / "spec" / "7wn.md").read_bytes()


def test_installed_rules_find_the_casebook_rulings_and_codes_outside_the_repository(venv, tmp_path):
    script = venv / BIN / "wnotation"
    out = _run(script, "rules", "R-TRADE", cwd=tmp_path).stdout
    assert "casebook: not found" not in out and "003-right-has-no-wood" in out
    shipped = str(venv.resolve())
    assert re.search(r"Cases of the casebook \((.*)\) that name R-TRADE", out)[1].startswith(shipped)
    assert "**Choice.**" in _run(script, "rules", "R-HALI-LAST", cwd=tmp_path).stdout  # the ruling's text
    assert "A reader refuses a card name" in _run(script, "rules", "unknown-card", cwd=tmp_path).stdout
    assert _run(script, "rules", "023", cwd=tmp_path).stdout.startswith("023-last-card-wrong-discard: ")
