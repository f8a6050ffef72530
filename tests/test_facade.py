"""The package's front door (wnotation/__init__.py): each function hands over to its module unchanged."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import wnotation
from wnotation.engine.bot import play_game
from wnotation.notation import NotationError
from wnotation.model.record import Record


def test_read_games_passes_the_error_policy_on():
    good = wnotation.write(play_game(3, 1))
    broken = good.replace("I.1 ", "I.9 ", 1)
    text = good + "\n" + broken + "\n" + good
    collected = list(wnotation.read_games(text))
    assert len(collected) == 3 and isinstance(collected[1], NotationError)
    assert isinstance(collected[0], Record) and isinstance(collected[2], Record)
    with pytest.raises(NotationError):
        list(wnotation.read_games(text, errors="raise"))


def test_parse_write_replay_agree_with_their_modules():
    record = play_game(4, 2, "greedy")
    text = wnotation.write(record)
    assert wnotation.parse(text) == record
    assert wnotation.replay(record).scores == wnotation.replay(wnotation.parse(text)).scores
    assert wnotation.write_games([record, record]) == text + "\n" + text
    assert wnotation.check(text).ok


def test_the_front_door_exports_the_types_it_returns():
    from wnotation.engine import Replay
    from wnotation.notation import read_headers

    assert (wnotation.NotationError, wnotation.Record, wnotation.Replay) == (NotationError, Record, Replay)
    assert wnotation.read_headers is read_headers
    from wnotation import NotationError as imported

    assert imported is NotationError
    assert {"NotationError", "Record", "Replay", "read_headers"} <= set(dir(wnotation)) & set(wnotation.__all__)
    with pytest.raises(AttributeError, match="no attribute 'Recrod'"):
        wnotation.Recrod  # noqa: B018
    text = wnotation.write(play_game(3, 1))
    (header,) = wnotation.read_headers(text)
    assert [s.name for s in header.seats] == [s.name for s in wnotation.parse(text).seats]


def test_import_wnotation_loads_neither_the_notation_nor_pydantic():
    """Nor does the Record itself (issue 31 item 1: native classes; pydantic only at the JSON boundary)."""
    import subprocess
    import sys

    code = ("import sys, wnotation; heavy = ('wnotation.notation', 'wnotation.engine', 'wnotation.model.record', "
            "'pydantic', 'lark'); print([m for m in heavy if m in sys.modules]); wnotation.Record; "
            "print('pydantic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "[]\nFalse\n"


def test_check_passes_allow_empty_on():
    assert not wnotation.check("\n\n").ok
    report = wnotation.check("\n\n", allow_empty=True)
    assert report.ok and [d.severity for d in report.diagnostics] == ["warning"]


def test_the_front_door_exports_the_visitors_and_read_games_takes_a_builder():
    from wnotation import notation

    for name in ("Visitor", "RecordBuilder", "StrictRecordBuilder", "HeadersBuilder", "StrictHeadersBuilder"):
        assert getattr(wnotation, name) is getattr(notation, name) and name in wnotation.__all__
    good = wnotation.write(play_game(3, 1))
    text = good + "\n" + good.replace("I.1 ", "I.9 ", 1)
    headers = list(wnotation.read_games(text, builder=wnotation.HeadersBuilder))
    assert headers == list(wnotation.read_headers(text))  # the body's error is not the header builder's concern
    with pytest.raises(NotationError):
        list(wnotation.read_games(text, builder=wnotation.StrictRecordBuilder))
    with pytest.raises(ValueError, match="not both"):
        list(wnotation.read_games(text, errors="raise", builder=wnotation.RecordBuilder))


@pytest.mark.parametrize("old", sorted(wnotation.MOVED))
def test_every_old_import_path_of_a_moved_module_is_the_new_module(old: str) -> None:
    """Issue 30 item 6: the modules grouped into model/, formats/, support/ and diagnostics/ keep their old paths,
    as the same module object (one copy of each class), its own spec intact, in a fresh interpreter too."""
    new = wnotation.MOVED[old]
    assert importlib.import_module(old) is importlib.import_module(new)
    assert importlib.import_module(old).__spec__.name == new
    code = (f"import sys; from {old.rsplit('.', 1)[0]} import {old.rsplit('.', 1)[1]} as m; import {new} as n; "
            f"assert m is n and sys.modules[{old!r}] is n; print(n.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == new


def test_no_moved_module_is_left_at_its_old_place() -> None:
    """Each moved module has one file, at its new home: the old path resolves only through the finder."""
    root = Path(wnotation.__file__).parent
    for old, new in wnotation.MOVED.items():
        assert not (root / (old.split(".", 1)[1] + ".py")).exists()
        assert (root.parent / (new.replace(".", "/") + ".py")).is_file()


def test_the_package_itself_imports_no_moved_module_by_its_old_path() -> None:
    """The old paths are for the library's users; the package and its tests use the new ones (an old path in the
    package would hide the layer a module belongs to)."""
    import ast

    root = Path(wnotation.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")) + sorted(root.parent.joinpath("tests").glob("*.py")):
        package = "wnotation." + ".".join(path.relative_to(root).parent.parts) if path.is_relative_to(root) else ""
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.rstrip(".").split(".") if node.level else []
                base = base[: len(base) - node.level + 1] if node.level else base
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found += [f"{path.name}:{node.lineno}: {n}" for n in names if n in wnotation.MOVED]
    found = [f for f in found if not f.startswith("test_facade.py")]
    assert found == []
