"""The engine's shape (issue 11): no mutable module-level state outside the memo registry, every cache
registered, no private name imported across modules, and ``mypy --strict`` clean.

The module-level check inspects the live objects of every engine module (globals and class attributes); the import
check walks each module's syntax tree. Immutable tables held in a dict are allowed by name only, and the allowed
names are checked never to be mutated anywhere in the engine.
"""

from __future__ import annotations

import ast
import collections
import functools
import importlib
import inspect
import pkgutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import wnotation.engine
from wnotation.engine import memo

ENGINE = Path(wnotation.engine.__file__).parent
MODULES = sorted(f"wnotation.engine.{m.name}" for m in pkgutil.iter_modules([str(ENGINE)]))

#: Module-level dicts that are tables: built at import, never changed (checked below by walking the code).
TABLES = {
    ("wnotation.engine.state", "MUTATORS"),
    ("wnotation.engine.state", "CHECKS"),
    ("wnotation.engine.trade", "RESOURCE_INDEX"),
    ("wnotation.engine.trade", "_INDEX"),
    ("wnotation.engine.rules", "_FREE_WHY"),
    ("wnotation.engine.position", "_AGES"),
    ("wnotation.engine.rulebook", "_BY_ID"),
    ("wnotation.engine.scorepad", "EXPANSION_OF"),
}
#: The registry itself: the one list that is meant to change (memos append themselves at import).
REGISTRY = {("wnotation.engine.memo", "REGISTRY")}

MUTABLE = (dict, list, set, bytearray, collections.deque, functools._lru_cache_wrapper)
MUTATING_METHODS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault",
                    "add", "discard", "sort", "reverse", "put", "__setitem__", "__delitem__"}


def _is_mutable(value: object) -> bool:
    """Containers, caches, and instances of the package's own classes that are not frozen values."""
    if isinstance(value, MUTABLE):
        return True
    if callable(value):  # functions and methods, compiled ones included
        return False
    kind = type(value)
    if not kind.__module__.startswith("wnotation") or isinstance(value, (tuple, frozenset, type)):
        return False
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None:
        return not params.frozen
    return not _final_fields_only(value)


def _final_fields_only(value: object) -> bool:
    """A value class without dataclass machinery (trade.Purchase, legal.LegalAction ...) whose fields are
    read-only. Compiled (a native class, no source), assigning each of its fields must be refused at run time;
    as Python source, it is slotted, every field is bound once, in ``__init__``, annotated ``Final`` (so mypy
    --strict refuses any other assignment), and no method assigns one."""
    kind = type(value)
    native = getattr(kind, "__mypyc_attrs__", None)
    if native is not None:
        for name in native:
            try:
                setattr(value, name, getattr(value, name))
            except AttributeError:
                continue
            return False
        return True
    slots = getattr(kind, "__slots__", None)
    if not slots or "__dict__" in slots:
        return False
    source = inspect.getsource(kind)
    cls = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(cls, ast.ClassDef)
    final: set[str] = set()
    for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
        for node in ast.walk(fn):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AnnAssign, ast.AugAssign)) else []
            for t in targets:
                if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"):
                    continue
                annotation = node.annotation if isinstance(node, ast.AnnAssign) else None
                if fn.name != "__init__" or not (isinstance(annotation, ast.Name) and annotation.id == "Final"):
                    return False
                final.add(t.attr)
    return final == set(slots)


def _bound_names(body: list[ast.stmt]) -> list[str]:
    """The names a module or class body binds itself (assignments and definitions, not imports)."""
    names: list[str] = []
    for node in body:
        if isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
            names += [e.id for t in node.targets if isinstance(t, ast.Tuple) for e in t.elts
                      if isinstance(e, ast.Name)]
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
    return names


def _module_state():
    """(module, name, value) for every name an engine module binds at module level or in a class body (the values
    its own code made: imported names are checked where they are defined)."""
    for name, tree in _trees():
        module = importlib.import_module(name)
        for attr in _bound_names(tree.body):
            if not attr.startswith("__"):
                yield name, attr, getattr(module, attr)
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                cls = getattr(module, node.name)
                for attr in _bound_names(node.body):
                    if attr in vars(cls):
                        yield name, f"{node.name}.{attr}", vars(cls)[attr]


def _trees():
    for name in MODULES:
        path = ENGINE / (name.rsplit(".", 1)[1] + ".py")
        yield name, ast.parse(path.read_text(encoding="utf-8"), str(path))


def test_no_mutable_module_level_state_outside_the_registry():
    state = list(_module_state())  # imports every engine module: their memos register themselves
    registered = {id(m) for m in memo.REGISTRY}
    stray = []
    for module, attr, value in state:
        if not _is_mutable(value) or (module, attr) in TABLES | REGISTRY:
            continue
        if isinstance(value, memo.Memo) and id(value) in registered:
            continue
        stray.append(f"{module}.{attr}: {type(value).__name__}")
    assert not stray, "mutable module-level state outside memo.REGISTRY:\n" + "\n".join(stray)


def test_every_memo_is_registered_named_and_bounded():
    memos = [value for _, _, value in _module_state() if isinstance(value, memo.Memo)]
    assert memos, "the engine has memos"
    assert {id(m) for m in memos} <= {id(m) for m in memo.REGISTRY}
    names = [m.name for m in memo.REGISTRY]
    assert len(names) == len(set(names)), "memo names are unique"
    assert all(m.limit > 0 for m in memo.REGISTRY)


def test_clear_caches_empties_every_memo():
    from wnotation.engine import clear_caches, replay
    from wnotation.engine.bot import play_game

    replay(play_game(3, 1, "greedy"))
    assert any(len(m) for m in memo.REGISTRY)
    clear_caches()
    assert all(len(m) == 0 for m in memo.REGISTRY)


def test_a_memo_forgets_everything_at_its_limit():
    m: memo.Memo[int, int] = memo.Memo("test: bounded", 3)
    for k in range(3):
        m.put(k, k)
    assert len(m) == 3
    m.put(9, 9)
    assert dict(m) == {9: 9}


def test_tables_are_never_mutated():
    names = {attr for _, attr in TABLES}
    found = []
    for module, tree in _trees():
        for node in ast.walk(tree):
            target = None
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
                        target = t.value.id
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    isinstance(node.func.value, ast.Name) and node.func.attr in MUTATING_METHODS:
                target = node.func.value.id
            if target in names:
                found.append(f"{module}:{node.lineno} mutates {target}")
    assert not found, found


def _private_imports(module: str, tree: ast.Module) -> list[str]:
    out = []
    modules: set[str] = set()  # local names bound to imported modules
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_"):
                    out.append(f"{module}:{node.lineno} imports {alias.name} from {'.' * node.level}"
                               f"{node.module or ''}")
                elif node.module is None or node.level:
                    modules.add(alias.asname or alias.name)  # `from . import events as ev`
        elif isinstance(node, ast.Import):
            for alias in node.names:
                modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and node.attr.startswith("_") and not node.attr.startswith("__"):
            out.append(f"{module}:{node.lineno} uses {node.value.id}.{node.attr}")
    return out


def test_no_engine_module_imports_a_private_name_of_another():
    found = [line for module, tree in _trees() for line in _private_imports(module, tree)]
    assert not found, found


def test_the_private_import_check_can_fail():
    tree = ast.parse("from .state import _take\nfrom . import trade\nx = trade._INDEX\nimport gc\ngc.__name__\n")
    assert _private_imports("m", tree) == ["m:1 imports _take from .state", "m:3 uses trade._INDEX"]


def test_the_state_check_sees_a_stray_cache(monkeypatch):
    from wnotation.engine import trade

    monkeypatch.setattr(trade, "_SOLVED", {})  # a cache that bypasses the registry
    with pytest.raises(AssertionError, match="trade._SOLVED: dict"):
        test_no_mutable_module_level_state_outside_the_registry()


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is in the test extra")
def test_mypy_strict_passes_on_the_engine():
    root = Path(__file__).resolve().parent.parent  # the source tree (ENGINE is the installed package)
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary",
                           "wnotation/engine"],
                          cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
