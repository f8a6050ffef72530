"""The two builds of one source (issue 11 item 7): the wheel's build hook (hatch_build.py) compiles the engine and
the reader (issue 31 item 2) with mypyc unless asked not to or unable to, and ``wnotation.engine.COMPILED`` and
``wnotation.notation.COMPILED`` say which build is running.

The hook is loaded here with a stand-in for hatchling's base class (hatchling is a build requirement, not a test
one); the compilation itself is exercised by .ci/run, which installs the compiled wheel in a second venv and runs
the whole suite again on its compiled modules with ``WNOTATION_EXPECT_COMPILED=1``.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import tomllib
import types
from pathlib import Path

import pytest

import wnotation.engine

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
COMPILE = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["compile"]


class _Base:
    """Stands in for hatchling's BuildHookInterface: the attributes the hook reads."""

    def __init__(self, root: str, config: dict, target_name: str = "wheel") -> None:
        self.root = root
        self.config = config
        self.target_name = target_name
        self.shown: list[str] = []
        self.app = types.SimpleNamespace(display_info=self.shown.append)


@pytest.fixture(scope="module")
def hook_module(tmp_path_factory):
    stubs = {}
    for name in ("hatchling", "hatchling.builders", "hatchling.builders.hooks", "hatchling.builders.hooks.plugin",
                 "hatchling.builders.hooks.plugin.interface"):
        stubs[name] = types.ModuleType(name)
    stubs["hatchling.builders.hooks.plugin.interface"].BuildHookInterface = _Base
    saved = {n: sys.modules.get(n) for n in stubs}
    sys.modules.update(stubs)
    try:
        spec = importlib.util.spec_from_file_location("wnotation_hatch_build", ROOT / "hatch_build.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m
    return module


@pytest.mark.parametrize("value, pure", [("1", True), ("yes", True), (" 1 ", True), ("", False), ("0", False),
                                         (None, False)])
def test_wnotation_pure_turns_compilation_off(hook_module, value, pure):
    env = {} if value is None else {"WNOTATION_PURE": value}
    assert hook_module.pure_requested(env) is pure


def test_an_editable_install_is_pure_whatever_the_environment(hook_module):
    assert hook_module.why_pure("editable", {}) == "an editable install runs the sources"


def test_no_compiler_means_a_pure_build(hook_module, monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/cc-for-wnotation")
    assert "no C compiler" in hook_module.compiler()
    assert "no C compiler" in hook_module.why_pure("standard", {})
    hook = hook_module.MypycHook(str(ROOT), {"compile": COMPILE})
    assert hook.dependencies() == []


def test_a_pure_build_leaves_the_wheel_as_it_is(hook_module, monkeypatch):
    monkeypatch.setenv("WNOTATION_PURE", "1")
    hook = hook_module.MypycHook(str(ROOT), {"compile": COMPILE})
    data = {"force_include": {}, "pure_python": True, "infer_tag": False}
    hook.initialize("standard", data)
    assert data == {"force_include": {}, "pure_python": True, "infer_tag": False}
    assert hook.shown == ["wnotation: pure-Python build (WNOTATION_PURE is set)"]
    assert hook.dependencies() == []
    hook.finalize("standard", data, "")


def test_a_compiling_build_asks_for_mypy_setuptools_and_pydantic(hook_module, monkeypatch):
    monkeypatch.delenv("WNOTATION_PURE", raising=False)
    monkeypatch.setattr(hook_module, "compiler", lambda: None)
    hook = hook_module.MypycHook(str(ROOT), {"compile": COMPILE})
    assert [d.split(">")[0] for d in hook.dependencies()] == ["mypy", "setuptools", "pydantic"]


#: The reader's compiled modules (issue 31 item 2) and those of its package that stay Python: the Lark route (a
#: Transformer subclass), the visitors (subclassed by callers), the Header dataclass, the recovery and the API.
READER_COMPILED = {"wnotation/notation/lexical.py", "wnotation/notation/reader/build.py",
                   "wnotation/notation/reader/fast_route.py", "wnotation/notation/reader/header.py",
                   "wnotation/notation/reader/split.py"}
#: The canonical writer and the Exporter it subclasses (compiled for `generate`, issue 31 item 4).
WRITER_COMPILED = {"wnotation/notation/export.py", "wnotation/notation/writer.py"}
READER_PURE = ("wnotation.notation.reader.lark_route", "wnotation.notation.reader.visitors",
               "wnotation.notation.reader.header_type", "wnotation.notation.reader", "wnotation.notation.errors")


def test_the_compiled_modules_exist_and_leave_out_what_mypyc_cannot_compile():
    engine = ROOT / "wnotation" / "engine"
    assert all((ROOT / m).is_file() for m in COMPILE)
    assert {m for m in COMPILE if (ROOT / m).parent != engine} == READER_COMPILED | WRITER_COMPILED
    names = {Path(m).name for m in COMPILE}
    assert "state.py" in names and "rules.py" in names and "trade.py" in names
    assert not names & {"errors.py", "memo.py"}  # a RuntimeError and a dict subclass stay Python classes
    assert not {m.replace(".", "/") + ".py" for m in READER_PURE} & set(COMPILE)


def test_the_source_distribution_carries_the_hook():
    assert "hatch_build.py" in PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]


def test_compiled_says_which_build_runs():
    from wnotation.engine import rules, state, trade

    from wnotation import notation
    from wnotation.notation import lexical
    from wnotation.notation.reader import build, fast_route

    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert wnotation.engine.COMPILED is all(m.__file__.endswith(suffixes) for m in (rules, state, trade))
    assert notation.COMPILED is all(m.__file__.endswith(suffixes) for m in (build, fast_route, lexical))
    for name in READER_PURE:  # compiled or not, these stay Python modules
        assert importlib.import_module(name).__file__.endswith(".py"), name
    if os.environ.get("WNOTATION_EXPECT_COMPILED") == "1":
        assert wnotation.engine.COMPILED, f"the engine runs from {state.__file__}, not a compiled module"
        assert notation.COMPILED, f"the reader runs from {build.__file__}, not a compiled module"
        for m in COMPILE:
            module = importlib.import_module(m.removesuffix(".py").replace("/", ".").removesuffix(".__init__"))
            assert module.__file__.endswith(suffixes), module.__file__


def test_the_reader_s_python_classes_stay_python_classes_in_either_build():
    """Header is a dataclass callers build, copy and pickle; the route's Decline is caught by the interpreted API;
    the Lark transformer and the visitors are subclassed. Compiled or not, they behave as Python classes."""
    import dataclasses
    import pickle

    from wnotation.notation import read_headers
    from wnotation.notation.reader import Header, fast_route, header, visitors

    assert header.Header is Header and dataclasses.is_dataclass(Header)
    got = next(read_headers(
        '[Format "7WN 1"]\n[Edition "2e"]\n[Date "????.??.??"]\n[Seat1 "A" "Giza" "day"]\n'
        '[Seat2 "B" "Rhodes" "day"]\n[Seat3 "C" "Babylon" "day"]\n'))
    assert isinstance(got, Header) and got.players == 3 and got.HEADER_FIELDS == Header.HEADER_FIELDS
    assert pickle.loads(pickle.dumps(got)) == got and dataclasses.replace(got, index=2).index == 2
    assert issubclass(fast_route.Decline, Exception)
    with pytest.raises(fast_route.Decline):
        fast_route.lex_header("no tags here\n")

    class Counting(visitors.RecordBuilder):
        pass

    assert issubclass(Counting, visitors.Visitor)
