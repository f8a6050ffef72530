"""The wheel's build hook: compile the engine and the reader with mypyc when a C compiler is at hand, as black
ships itself.

One source, two builds. A wheel (``pip install .``) holds the engine and reader modules listed in pyproject.toml
(``[tool.hatch.build.targets.wheel.hooks.custom] compile``) as C extensions beside their ``.py`` sources, which
Python imports first; everything else stays pure Python. The build is pure, and needs no compiler, when

* ``WNOTATION_PURE=1`` is set (or any value but ``""`` and ``0``),
* no C compiler (``CC``, else the one Python was built with) or no ``Python.h`` is found,
* the install is editable (``pip install -e .``: the tests run on the sources).

The compilation works on a copy of the package in a temporary directory, so the source tree never holds a compiled
module (which would shadow the sources of an editable install). A compiler that is found but fails stops the build
with mypyc's output: set ``WNOTATION_PURE=1`` to install without it. ``wnotation.engine.COMPILED`` and
``wnotation.notation.COMPILED`` say which build is running.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: What the compilation needs in the build environment (hatchling installs these before it builds a wheel):
#: mypyc, setuptools to drive the C compiler, and pydantic, so that the Record types the engine reads are the ones
#: ``mypy --strict`` checks (without it they would be ``Any``).
COMPILE_REQUIRES = ["mypy>=1.10", "setuptools>=61", "pydantic>=2.6,<3"]

SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

modules = sys.argv[1:]
sys.argv[1:] = ["build_ext", "--build-lib", "out", "--build-temp", "tmp", "--parallel", "{jobs}"]
setup(name="wnotation-engine", ext_modules=mypycify(
    ["--strict", "--follow-imports=silent", "--cache-dir", "mypy-cache", *modules],
    opt_level="3", debug_level="0", group_name="wnotation"))
"""


def pure_requested(environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """Whether ``WNOTATION_PURE`` asks for a pure build."""
    return environ.get("WNOTATION_PURE", "").strip() not in ("", "0")


def compiler() -> str | None:
    """Why no C extension can be built, or ``None`` when a compiler and Python's headers are both found."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler ({cc!r} not found)"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return f"no Python.h in {include!r} (install the Python development headers)"
    return None


def why_pure(version: str = "standard", environ: dict[str, str] | os._Environ[str] = os.environ) -> str | None:
    """Why this build is pure, or ``None`` when it compiles."""
    if version == "editable":
        return "an editable install runs the sources"
    if pure_requested(environ):
        return "WNOTATION_PURE is set"
    return compiler()


class MypycHook(BuildHookInterface):
    """Compiles the configured engine and reader modules into the wheel (see the module docstring)."""

    PLUGIN_NAME = "custom"
    workdir: tempfile.TemporaryDirectory[str] | None = None

    def dependencies(self) -> list[str]:
        return [] if why_pure() else list(COMPILE_REQUIRES)

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        reason = why_pure(version)
        if reason is not None:
            self.app.display_info(f"wnotation: pure-Python build ({reason})")
            return
        modules = list(self.config.get("compile", []))
        if not modules:
            return
        self.workdir = tempfile.TemporaryDirectory(prefix="wnotation-mypyc-")
        work = Path(self.workdir.name)
        root = Path(self.root)
        shutil.copytree(root / "wnotation", work / "wnotation", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        (work / "setup.py").write_text(SETUP.format(jobs=os.cpu_count() or 1), encoding="utf-8")
        self.app.display_info(f"wnotation: compiling {len(modules)} modules with mypyc")
        done = subprocess.run([sys.executable, "setup.py", *modules], cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError("mypyc could not compile the engine or the reader (set WNOTATION_PURE=1 for a pure "
                               f"install):\n{done.stdout[-6000:]}\n{done.stderr[-6000:]}")
        out = work / "out"
        built = sorted(out.rglob("*.so")) + sorted(out.rglob("*.pyd"))
        expected = {m.removesuffix(".py").replace("/", ".") for m in modules}
        got = {p.relative_to(out).as_posix().split(".")[0].replace("/", ".") for p in built}
        if not expected <= got:
            raise RuntimeError(f"mypyc built {sorted(got)}, not every module of {sorted(expected)}")
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(out).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self.workdir is not None:
            self.workdir.cleanup()
            self.workdir = None
