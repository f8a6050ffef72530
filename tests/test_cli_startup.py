"""Start-up (issue 11 item 5): ``wnotation check one.7wn`` imports what checking needs and nothing else. Each
command imports its library inside the command, so another command's libraries (the viewer, the archive, the
recorder, DuckDB, Pygments, rich without a terminal, the JSON report) stay unloaded; a module-level import that
pulled one of them in would slow every command down. The time itself is a figure of benchmarks/, not a test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "replays" / "3p-babylon-halikarnassos-olympia.7wn"

#: Modules that no plain ``check`` (one job, no --json, stdout not a terminal) needs.
NOT_FOR_CHECK = ("wnotation.viewer", "wnotation.archive", "wnotation.recorder", "wnotation.formats.canonical",
                 "wnotation.formats.render", "wnotation.engine.bot", "wnotation.engine.rulebook",
                 "wnotation.diagnostics.jsonreport", "duckdb", "pygments", "rich", "jsonschema", "multiprocessing",
                 "click.shell_completion")

PROBE = """
import sys
from wnotation import cli
try:
    cli.main(sys.argv[2:], prog_name="wnotation")
except SystemExit as exc:
    code = exc.code
print(code, sorted(m for m in sys.modules if m.split(".")[0] in ("wnotation", "duckdb", "pygments", "rich",
      "jsonschema", "multiprocessing", "click") and any(m == n or m.startswith(n + ".") for n in sys.argv[1].split())))
"""


def _loaded(*args: str) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE, " ".join(NOT_FOR_CHECK), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]


def test_check_of_one_file_imports_only_what_checking_needs():
    assert _loaded("check", str(GAME)) == "0 []"


@pytest.mark.parametrize("args", [["--version"], ["cards", "--age", "I"]])
def test_other_commands_do_not_load_the_notation_engine_or_pydantic(args):
    probe = PROBE.replace('("wnotation", "duckdb"', '("wnotation", "pydantic", "lark", "duckdb"')
    done = subprocess.run([sys.executable, "-c", probe, "wnotation.notation wnotation.engine wnotation.model.record "
                           "pydantic lark", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines()[-1] == "0 []", done.stderr


def _loaded_of(modules: str, *args: str) -> str:
    probe = PROBE.replace('("wnotation", "duckdb"', '("wnotation", "pydantic", "pydantic_core", "duckdb"')
    done = subprocess.run([sys.executable, "-c", probe, modules, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]


def test_check_of_one_game_imports_no_pydantic():
    """Issue 31 item 1: the Record is native on the hot path; its pydantic twins are the JSON boundary only."""
    assert _loaded_of("pydantic pydantic_core wnotation.model.record_json", "check", str(GAME)) == "0 []"


def test_generate_imports_no_pydantic():
    """Issue 31 item 4: the bot builds its Record natively, unvalidated (tests/test_bot.py holds it equal to what
    the twin validates), so generating games imports no pydantic."""
    assert _loaded_of("pydantic pydantic_core wnotation.model.record_json", "generate", "-p", "7", "-s", "3",
                      "--bot", "greedy") == "0 []"


def test_reading_json_loads_the_records_pydantic_twins(tmp_path):
    """The probe above can see pydantic: reading a JSON record, at the boundary, validates it by the twins."""
    from wnotation.notation import parse, to_json

    document = tmp_path / "game.json"
    document.write_text(to_json(parse(GAME.read_text(encoding="utf-8"))), encoding="utf-8")
    out = _loaded_of("pydantic wnotation.model.record_json", "json", "--to-7wn", str(document))
    assert out.startswith("0 [") and "'wnotation.model.record_json'" in out and "'pydantic'" in out
