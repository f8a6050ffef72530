"""The README stays true: it is the front page (what it is, the two set-up commands, a picture, links into the
documentation site); its Python block runs as a doctest and its links and commands point at what exists. The
sessions and commands that moved to the site (the tour, the sample diagnostic) are run by tests/test_docs.py."""

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


def test_the_python_tour_runs(monkeypatch):
    monkeypatch.chdir(ROOT)  # the block reads a bundled replay
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
    assert commands[1] == VENV + "python3 -m pip install -e '.[test,docs]' && python3 -m pytest -n auto"
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


def test_the_docs_build_command_makes_warnings_errors_as_ci_does():
    """The README's command to build the site is the one the tests run (tests/test_docs.py: build)."""
    from test_docs import SPHINX_ARGS

    build = [c for block in _blocks("sh") for c in block.splitlines() if "-m sphinx" in c]
    assert len(build) == 1
    assert build[0] == "python3 -m pip install -e '.[docs]' && python3 -m sphinx " + " ".join(SPHINX_ARGS) + \
        " -d docs/_build/doctrees docs docs/_build/html"


def test_the_front_page_links_every_page_of_the_site():
    pages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")} | \
        {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs" / "howto").glob("*.md")}
    linked = set(re.findall(r"\]\((docs/[^)#]*\.md)", README))
    assert pages - linked == set(), "pages of the site the README does not link"


def test_the_site_front_page_includes_the_readme_quick_start():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "<!-- quick start -->\n## Quick start\n" in README and "<!-- /quick start -->" in README
    assert ":start-after: <!-- quick start -->" in index and ":end-before: <!-- /quick start -->" in index
    quick = README.split("<!-- quick start -->", 1)[1].split("<!-- /quick start -->", 1)[0]
    assert all(c in quick for c in _quick_start()), "the two set-up commands are in the included part"
    assert "docs/viewer.png" in README


#: Documents other issues are still writing: their links are checked once the file exists.
PENDING = {"spec/rulings.md"}


@pytest.mark.parametrize("target", re.findall(r"\]\(((?:spec|replays|docs|benchmarks)/[^)#]*)(?:#[^)]*)?\)", README))
def test_links_exist(target):
    if target in PENDING and not (ROOT / target).exists():
        pytest.skip(f"{target} is not written yet")
    assert (ROOT / target).exists(), target
