"""The documentation site stays true: every example on it runs, and it builds without a warning into a directory
that needs nothing else.

Examples are read from the Markdown of ``docs/`` (page by page, in order, in a scratch folder where ``replays/``
and ``spec/`` are the source tree's):

- a code block with a file name as its caption (```` ```{code-block} 7wn ```` and ``:caption: club.7wn``) writes
  that file, as the reader would save it;
- a ```` ```console ```` block is ``$ command`` lines, each followed by its output (stdout and stderr together, as
  a terminal shows them; ``...`` stands for any text, as in doctest). Commands run in bash, so ``|``, ``>`` and
  ``||`` work. ``$ wnotation record …`` is a session at the table: lines ending in ``> answer`` are its prompts
  and what was typed (``> ^D``: Ctrl-D), the other lines what the recorder said; the real command runs with the
  typed answers in place of prompt_toolkit's line editor;
- a ```` ```python ```` block of ``>>>`` lines is a doctest (one namespace per page).

``python3 tests/test_docs.py --update docs/PAGE.md`` rewrites the outputs of a page's console blocks that no
longer match with what the commands print now, for review as a diff. The site build needs the ``[docs]`` extra:
without Sphinx it is skipped, except in CI (``CI`` set), where it must run.
"""

from __future__ import annotations

import doctest
import html
import io
import os
import re
import subprocess
import sys
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: The pages written for the site (docs/spec/ only includes spec/ and is written by the build: not collected, so
#: that every test process collects the same tests whether or not a build ran before).
PAGES = sorted(p for p in DOCS.rglob("*.md") if not {"_build", "spec"} & set(p.relative_to(DOCS).parts))
FENCE = re.compile(r"^(?P<fence>`{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S)
PROMPT = re.compile(r"^(?P<message>[^>\n]*\S>)(?: (?P<answer>.*))?$")
WNOTATION = Path(sys.executable).parent / "wnotation"


@dataclass
class Block:
    kind: str  # "file", "console" or "python"
    body: str
    line: int  # of the fence, 1-based
    span: tuple[int, int]  # of the body in the page's text
    name: str = ""  # the file's name


def blocks(text: str) -> list[Block]:
    """The runnable blocks of a page, in order."""
    found = []
    for match in FENCE.finditer(text):
        info, body = match["info"].strip(), match["body"]
        line = text.count("\n", 0, match.start()) + 1
        if info.startswith("{code-block}"):
            options = re.match(r"((?::[\w-]+:[^\n]*\n)*)", body)
            caption = re.search(r"^:caption: (\S+\.\w+)$", options.group(1), re.M)
            if caption:
                content = body[options.end():]
                content = content[1:] if content.startswith("\n") else content  # the blank line after the options
                found.append(Block("file", content, line, match.span("body"), caption.group(1)))
        elif info == "console":
            found.append(Block("console", body, line, match.span("body")))
        elif info == "python" and body.lstrip().startswith(">>>"):
            found.append(Block("python", body, line, match.span("body")))
    return found


def commands(body: str) -> list[tuple[str, str]]:
    """A console block as (command, expected output) pairs."""
    pairs: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"console block: output before the first '$ ' line: {line!r}")
    return [(command, "\n".join(out)) for command, out in pairs]


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FORCE_COLOR", "PY_COLORS"))}
    env.update(COLUMNS="120", NO_COLOR="1", PYTHONUNBUFFERED="1", TERM="dumb", LC_ALL="C.UTF-8", PYTHONHASHSEED="0",
               PATH=f"{WNOTATION.parent}{os.pathsep}{env.get('PATH', '')}")
    return env


def run_shell(command: str, cwd: Path) -> str:
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=_environment(), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    return done.stdout


class _TypedPrompt:
    """prompt_toolkit's PromptSession replaced by the answers of a transcript: each prompt is shown with what was
    typed, as on the terminal; no answer left is Ctrl-D."""

    answers: list[str] = []

    def __init__(self, *args, **kwargs):
        pass

    def prompt(self, message, *args, **kwargs):
        if not self.answers:
            print(f"{message}^D")
            raise EOFError
        answer = self.answers.pop(0)
        print(f"{message}{answer}".rstrip())
        return answer


def run_recorder(command: str, expected: str, cwd: Path, monkeypatch) -> str:
    """``wnotation record …`` in-process, fed the answers the transcript shows; what it printed."""
    import shlex

    import prompt_toolkit
    from click.testing import CliRunner

    from wnotation import cli
    from wnotation.recorder import ui

    answers = []
    for line in expected.splitlines():
        prompt = PROMPT.match(line)
        if prompt and prompt["answer"] != "^D":
            answers.append(prompt["answer"] or "")
        elif prompt:
            break
    monkeypatch.setattr(_TypedPrompt, "answers", answers)
    monkeypatch.setattr(ui, "PromptSession", _TypedPrompt)
    monkeypatch.setattr(prompt_toolkit, "PromptSession", _TypedPrompt)
    monkeypatch.chdir(cwd)
    out = io.StringIO()
    with redirect_stdout(out):
        result = CliRunner().invoke(cli.main, shlex.split(command)[1:], prog_name="wnotation")
    return out.getvalue() + result.output


def matches(expected: str, got: str) -> bool:
    strip = "\n".join(line.rstrip() for line in got.rstrip("\n").splitlines())
    want = "\n".join(line.rstrip() for line in expected.rstrip("\n").splitlines())
    return doctest.OutputChecker().check_output(want + "\n", strip + "\n", doctest.ELLIPSIS)


def scratch(tmp: Path) -> Path:
    for name in ("replays", "spec"):
        (tmp / name).symlink_to(ROOT / name)
    return tmp


def run_page(page: Path, cwd: Path, monkeypatch) -> tuple[list[str], str]:
    """Run every example of ``page`` in ``cwd``: the failures, and the page text with outputs brought up to
    date (for ``--update``)."""
    text = page.read_text(encoding="utf-8")
    failures: list[str] = []
    pieces: list[str] = []
    done = 0
    globs: dict = {}
    for block in blocks(text):
        where = f"{page.relative_to(ROOT)}:{block.line}"
        if block.kind == "file":
            (cwd / block.name).write_text(block.body, encoding="utf-8")
        elif block.kind == "python":
            old = os.getcwd()
            os.chdir(cwd)
            try:
                test = doctest.DocTestParser().get_doctest(block.body, globs, where, str(page), block.line)
                runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
                report = io.StringIO()
                runner.run(test, out=report.write, clear_globs=False)
                globs.update(test.globs)
                if runner.failures:
                    failures.append(f"{where}: python block\n{report.getvalue()}")
            finally:
                os.chdir(old)
        else:
            fresh = []
            for command, expected in commands(block.body):
                if command.startswith("wnotation record "):
                    got = run_recorder(command, expected, cwd, monkeypatch)
                else:
                    got = run_shell(command, cwd)
                if not matches(expected, got):
                    failures.append(f"{where}: $ {command}\n--- expected ---\n{expected}\n--- got ---\n{got}")
                    expected = "\n".join(line.rstrip() for line in got.rstrip("\n").splitlines())
                fresh.append(f"$ {command}\n{expected}".rstrip("\n"))
            pieces += [text[done:block.span[0]], "\n".join(fresh) + "\n"]
            done = block.span[1]
    return failures, "".join(pieces) + text[done:]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_example_of_the_page_runs(page, tmp_path, monkeypatch):
    failures, _ = run_page(page, scratch(tmp_path), monkeypatch)
    hint = (f"\n\nIf the new output is right (a message or a generated game changed on purpose), "
            f"'python3 tests/test_docs.py --update {page.relative_to(ROOT)}' rewrites the page's outputs: "
            "review its diff and commit it with the change.")
    assert not failures, "\n\n".join(failures) + hint


def test_the_pages_have_examples_and_the_tutorial_records_checks_and_shares():
    kinds = [b.kind for page in PAGES for b in blocks(page.read_text(encoding="utf-8"))]
    assert kinds.count("console") >= 10 and "python" in kinds and "file" in kinds
    tutorial = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    run = [c for b in blocks(tutorial) if b.kind == "console" for c, _ in commands(b.body)]
    for verb in ("record", "check", "score", "html", "fmt"):
        assert any(c.startswith(f"wnotation {verb} ") for c in run), f"the tutorial never runs wnotation {verb}"


def records(text: str) -> list[tuple[int, str]]:
    """The complete 7WN records a page shows (```` ```7wn ```` blocks, captioned or not), with their lines."""
    found = []
    for match in FENCE.finditer(text):
        info, body = match["info"].split(), match["body"]
        if info[:1] == ["7wn"] or info[:2] == ["{code-block}", "7wn"]:
            body = re.sub(r"^(?::[\w-]+:[^\n]*\n)+\n?", "", body)
            found.append((text.count("\n", 0, match.start()) + 1, body))
    return found


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_record_on_the_page_reads_and_replays_without_an_error(page):
    """A 7WN example is a real game: the reader takes it and the engine finds no error (a record that is meant to
    be wrong is made with a command on the page, so that the reader sees what check says)."""
    import wnotation

    for line, text in records(page.read_text(encoding="utf-8")):
        report = wnotation.check(text, source=f"{page.name}:{line}")
        assert report.ok, "\n".join(str(d) for d in report.diagnostics)


def test_every_position_string_on_the_site_reads_and_is_canonical():
    """A ```` ```7wn-position ```` block holds position strings (spec/position.md), one a line, each valid and
    written as the writer writes it."""
    from wnotation.engine import position_rules
    from wnotation.model import position_string

    seen = 0
    for page in PAGES:
        for match in FENCE.finditer(page.read_text(encoding="utf-8")):
            if match["info"].split()[:1] == ["7wn-position"]:
                for line in match["body"].splitlines():
                    assert position_string.write(position_rules.read(line)) == line, f"{page.name}: {line}"
                    seen += 1
    assert seen


def test_a_console_block_is_read_as_commands_and_outputs():
    body = "$ wnotation check a.7wn\nchecked 1 game\n$ echo hi\nhi\n"
    assert commands(body) == [("wnotation check a.7wn", "checked 1 game"), ("echo hi", "hi")]
    assert matches("checked ... in 1 file", "checked 2 games in 1 file  \n")
    assert not matches("checked 1 game", "checked 2 games")


# --- the site ------------------------------------------------------------------------------------------------------

def _sphinx():
    try:
        import myst_parser  # noqa: F401
        import sphinx  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            raise AssertionError("Sphinx is missing in CI: .ci/run installs the [docs] extra") from None
        pytest.skip("the [docs] extra is not installed (pip install -e '.[docs]')")


#: How the site is built (the README gives the same command): every warning an error, all of them reported.
SPHINX_ARGS = ("-W", "--keep-going", "-b", "html")


def build(out: Path) -> subprocess.CompletedProcess[str]:
    """The site as the README's command builds it, into ``out``."""
    return subprocess.run([sys.executable, "-m", "sphinx", *SPHINX_ARGS, "-q", "-d", str(out.parent / "doctrees"),
                           str(DOCS), str(out)], capture_output=True, text=True, timeout=600)


REFERENCE = re.compile(r"""<(?P<tag>a|link|script|img|iframe|source)\b[^>]*?\s(?:href|src)="(?P<url>[^"]*)"[^>]*>""")


def broken_links(site: Path) -> list[str]:
    """Every internal link or resource of the built site that points to no file or no anchor, and every resource
    (script, style, picture) fetched from elsewhere: a page must load from the directory alone."""
    anchors = {}
    problems = []
    pages = sorted(site.rglob("*.html"))
    for page in pages:
        anchors[page] = set(re.findall(r'\sid="([^"]*)"', page.read_text(encoding="utf-8")))
    for page in pages:
        for match in REFERENCE.finditer(page.read_text(encoding="utf-8")):
            url = html.unescape(match["url"])
            parts = urlsplit(url)
            if parts.scheme or parts.netloc:
                if match["tag"] != "a":
                    problems.append(f"{page.relative_to(site)}: <{match['tag']}> fetches {url}")
                elif parts.scheme not in ("http", "https", "mailto"):
                    problems.append(f"{page.relative_to(site)}: {url}: a {parts.scheme}: link leads nowhere online")
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                problems.append(f"{page.relative_to(site)}: {url}: no such file")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in anchors.get(
                    target, set()):
                problems.append(f"{page.relative_to(site)}: {url}: no such anchor")
    return problems


def test_the_site_builds_without_a_warning_into_a_self_contained_directory(tmp_path):
    _sphinx()
    site = tmp_path / "html"
    done = build(site)
    assert done.returncode == 0, f"sphinx-build -W failed:\n{done.stderr}"
    assert "WARNING" not in done.stderr, done.stderr
    assert not (site / ".doctrees").exists(), "the build's pickles belong beside the site, not in it"
    problems = broken_links(site)
    assert not problems, "\n".join(problems)
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    for page in ("index.html", "tutorial.html", "cheatsheet.html", "rules.html", "api.html", "casebook.html",
                 "spec/7wn.html", "spec/cases/README.html"):
        assert page in pages
    rules = (site / "rules.html").read_text(encoding="utf-8")
    from wnotation.engine.rulebook import RULES

    assert all(f'id="rule-{rule.id.lower()}"' in rules for rule in RULES)
    # 7WN blocks are coloured by the project's lexer (a block it could not lex would have been a warning)
    tutorial = (site / "tutorial.html").read_text(encoding="utf-8")
    assert 'class="highlight-7wn' in tutorial and '<span class="nl">I.1</span>' in tutorial
    api = (site / "api.html").read_text(encoding="utf-8")
    assert 'id="wnotation.parse"' in api and 'id="wnotation.engine.Replay"' in api
    assert_the_cheat_sheet_prints_on_one_sheet(site / "cheatsheet.html", tmp_path / "cheatsheet.pdf")


CHROMIUM = Path("/usr/bin/chromium")


def assert_the_cheat_sheet_prints_on_one_sheet(page: Path, pdf: Path) -> None:
    """The cheat sheet printed by headless Chromium (A4 by default) takes at most two pages: both sides of one
    sheet. Chromium is a Debian package .ci/run installs; without it this part is skipped, except in CI."""
    if not CHROMIUM.exists():
        assert not os.environ.get("CI"), "Chromium is missing in CI: .ci/run installs it"
        return
    subprocess.run([str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", page.as_uri()], capture_output=True, timeout=120, check=True)
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf.read_bytes()))
    assert 1 <= pages <= 2, f"the printed cheat sheet takes {pages} pages"


def test_the_link_checker_finds_a_missing_page_an_anchor_and_a_remote_script(tmp_path):
    (tmp_path / "a.html").write_text('<p id="x"><a href="b.html">b</a> <a href="a.html#y">y</a> <a href="#x">x</a>'
                                     '<script src="https://cdn.example/x.js"></script>'
                                     '<a href="https://example.org/">fine</a><a href="file:line:column">f</a></p>',
                                     encoding="utf-8")
    assert broken_links(tmp_path) == ["a.html: b.html: no such file", "a.html: a.html#y: no such anchor",
                                      "a.html: <script> fetches https://cdn.example/x.js",
                                      "a.html: file:line:column: a file: link leads nowhere online"]


def _update(paths: list[str]) -> int:
    """``--update``: rewrite the console outputs of the named pages with what the commands print now."""
    import tempfile

    class _Patch:
        def __init__(self):
            self.undo = []

        def setattr(self, target, name, value):
            self.undo.append((target, name, getattr(target, name)))
            setattr(target, name, value)

        def chdir(self, path):
            os.chdir(path)

    for name in paths:
        page = Path(name).resolve()
        with tempfile.TemporaryDirectory() as tmp:
            patch = _Patch()
            here = os.getcwd()
            try:
                failures, text = run_page(page, scratch(Path(tmp)), patch)
            finally:
                os.chdir(here)
                for target, attr, value in reversed(patch.undo):
                    setattr(target, attr, value)
        page.write_text(text, encoding="utf-8")
        for failure in failures:
            print(failure.split("\n", 1)[0])
        print(f"{name}: {len(failures)} example(s) did not match; console outputs rewritten")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "tests"))
    if sys.argv[1:2] != ["--update"] or not sys.argv[2:]:
        sys.exit("usage: python3 tests/test_docs.py --update docs/PAGE.md ...")
    sys.exit(_update(sys.argv[2:]))
