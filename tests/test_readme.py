"""The README stays true: its Python tour runs as a doctest, and its commands name files and options that exist."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest

from cli_helpers import run

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```$", README, flags=re.M | re.S)


def test_the_python_tour_runs():
    blocks = _blocks("python")
    assert blocks, "the README has no ```python block"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for k, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md python block {k + 1}", "README.md", 0)
        assert test.examples, f"python block {k + 1} is not a >>> session"
        runner.run(test)
    assert runner.failures == 0, "the README's Python tour fails: run 'python3 -m doctest -v README.md'"


VENV = "python3 -m venv .venv && . .venv/bin/activate && "


def _quick_start() -> list[str]:
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```sh\n(.*?)\n```$", quick, flags=re.M | re.S)


def test_quick_start_has_exactly_the_two_commands_each_in_a_venv():
    commands = _quick_start()
    assert len(commands) == 2 and all(c.startswith(VENV) and "\n" not in c for c in commands)
    assert commands[1] == VENV + "python3 -m pip install -e '.[test]' && python3 -m pytest -n auto"
    first = commands[0].removeprefix(VENV).split(" && ")
    assert first[0] == "python3 -m pip install ."
    assert [c.split()[:2] for c in first[1:]] == [["wnotation", "check"], ["wnotation", "score"]]
    replay = {c.split()[2] for c in first[1:]}
    assert len(replay) == 1 and (ROOT / replay.pop()).is_file()


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"\n{_quick_start()[1]} || status=$?\n" in ci


def test_quick_start_commands_succeed():
    first = _quick_start()[0].removeprefix(VENV)
    for command in first.split(" && ")[1:]:
        args = shlex.split(command)[1:]
        args[1] = str(ROOT / args[1])
        assert run(*args).stdout


@pytest.mark.parametrize("command", [c for block in _blocks("sh") for c in block.splitlines()
                                     if c.startswith("wnotation ")])
def test_tour_commands_parse(command):
    """Every wnotation command in the tour names a real command and real options (checked via --help)."""
    args = [a for a in shlex.split(command.split("|")[0].split(">")[0])[1:]]
    run(args[0], "--help")
    options = run(args[0], "--help").stdout
    for a in args[1:]:
        if a.startswith("--"):
            assert a in options, f"{a} is not an option of 'wnotation {args[0]}'"


#: Documents other issues are still writing: their links are checked once the file exists.
PENDING = {"spec/rulings.md"}


@pytest.mark.parametrize("target", re.findall(r"\]\(((?:spec|replays)/[^)]*)\)", README))
def test_links_exist(target):
    if target in PENDING and not (ROOT / target).exists():
        pytest.skip(f"{target} is not written yet")
    assert (ROOT / target).exists(), target


def test_the_sample_diagnostic_matches_the_engine():
    """The compiler-style sample in the README is what the engine says about that game."""
    sample = README.split("```text\n", 1)[1].split("```", 1)[0]
    head = sample.splitlines()[0]
    assert re.fullmatch(r"club\.7wn:\d+:\d+: error\[R-[A-Z-]+\]: .+", head)
    assert head.split(": ", 2)[2] in README.split("```python", 1)[1]
