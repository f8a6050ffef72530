"""The editor grammars: the TextMate grammar (editors/vscode/syntaxes/7wn.tmLanguage.json) colours every character of
the spec's examples and the bundled replays as the Pygments lexer (wnotation/viewer/lexer.py) does, tokenised by
vscode-textmate with vscode-oniguruma as VS Code runs it; and the VS Code extension folder packs into a .vsix with
@vscode/vsce. The npm packages are installed by the first test into build/editors/ (gitignored) and reused. Without
npm the tests skip, except under CI=true, where they must run."""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Token

from wnotation.viewer.lexer import SevenWNLexer

ROOT = Path(__file__).resolve().parents[1]
EDITORS = ROOT / "editors"
GRAMMAR = EDITORS / "vscode" / "syntaxes" / "7wn.tmLanguage.json"
CACHE = ROOT / "build" / "editors"
PACKAGES = {"vscode-textmate": "9.3.2", "vscode-oniguruma": "2.0.1", "@vscode/vsce": "3"}

#: Each TextMate scope (its name without ``.7wn``, by prefix) and the Pygments token it stands for.
SCOPES = (
    ("comment.block", Comment.Multiline),
    ("storage.type.annotation", Name.Decorator),
    ("punctuation", Punctuation),
    ("entity.name.tag", Name.Tag),
    ("string.quoted.double", String.Double),
    ("entity.name.section.label", Name.Label),
    ("keyword.other.declaration", Keyword.Declaration),
    ("keyword.operator.glyph", Operator),
    ("variable.other.seat", Name.Variable),
    ("keyword.control.verb", Keyword),
    ("constant.language.unknown", Keyword.Constant),
    ("entity.name.type.card", Name.Entity),
    ("keyword.other.side", Keyword.Pseudo),
    ("constant.numeric", Number.Integer),
    ("support.type.resource", Name.Builtin),
    ("entity.other.attribute-name.category", Name.Attribute),
)


def _npm_cache() -> Path:
    """build/editors/node_modules with the packages, installed once from the npm registry; the test skips without
    npm (it fails under CI=true, where the machines have node and npm)."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true: node and npm are needed for the editor grammar tests")
        pytest.skip("node and npm are not installed")
    modules = CACHE / "node_modules"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:  # test processes (xdist workers) install one at a time
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not all((modules / name / "package.json").is_file() for name in PACKAGES):
            _install(npm)
    return modules


def _install(npm: str) -> None:
    (CACHE / "package.json").write_text('{"name": "wnotation-editor-tests", "private": true}\n', encoding="utf-8")
    done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--silent"]
                          + [f"{name}@{version}" for name, version in PACKAGES.items()],
                          cwd=CACHE, capture_output=True, text=True, timeout=480)
    if done.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"npm install failed: {done.stderr[-2000:]}")
        pytest.skip(f"npm install failed (offline?): {done.stderr[-300:]}")


def examples() -> list[tuple[str, str]]:
    """The ``7wn`` blocks of the spec and the cheat sheet that the lexer reads without an error token, and every
    bundled replay: ``(name, text)``."""
    out = []
    for page in (ROOT / "spec" / "7wn.md", ROOT / "spec" / "position.md", ROOT / "docs" / "cheatsheet.md"):
        blocks = re.findall(r"^```7wn\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S)
        for k, block in enumerate(blocks, start=1):
            if not any(kind in Error for _, kind, _ in SevenWNLexer(stripnl=False).get_tokens_unprocessed(block)):
                out.append((f"{page.name} block {k}", block))
    for path in sorted((ROOT / "replays").glob("*.7wn")):
        out.append((path.name, path.read_text(encoding="utf-8")))
    return out


def _pygments_classes(text: str) -> list[object]:
    classes: list[object] = [Token.Text] * len(text)
    for offset, kind, value in SevenWNLexer(stripnl=False, ensurenl=False).get_tokens_unprocessed(text):
        for k in range(offset, offset + len(value)):
            classes[k] = kind
    return classes


def _textmate_class(scopes: list[str]) -> object:
    for scope in reversed(scopes):
        name = scope.removesuffix(".7wn")
        for prefix, kind in SCOPES:
            if name == prefix or name.startswith(prefix + "."):
                return kind
    return Token.Text


def test_the_grammar_colours_the_examples_as_the_pygments_lexer():
    modules = _npm_cache()
    found = examples()
    assert len(found) >= 20
    done = subprocess.run(["node", str(EDITORS / "tokenize.js"), str(GRAMMAR)],
                          input=json.dumps([text for _, text in found]), capture_output=True, text=True,
                          env={**os.environ, "NODE_PATH": str(modules)}, timeout=120)
    assert done.returncode == 0, done.stderr
    tokenised = json.loads(done.stdout)
    mismatches = []
    for (name, text), tokens in zip(found, tokenised):
        expected = _pygments_classes(text)
        got: list[object] = [Token.Text] * len(text)
        for start, end, scopes in tokens:
            for k in range(start, end):
                got[k] = _textmate_class(scopes)
        for k, ch in enumerate(text):
            if ch.isspace():
                continue
            want = expected[k]
            if want in Token.Text or want in Token.Whitespace:
                want = Token.Text
            if got[k] != want:
                line = text.count("\n", 0, k) + 1
                column = k - text.rfind("\n", 0, k)
                mismatches.append(f"{name}:{line}:{column} {ch!r}: lexer {want}, grammar {got[k]}")
                break
    assert not mismatches, "\n".join(mismatches)


def test_the_vscode_extension_packs_into_a_vsix(tmp_path):
    """The extension folder, with its one dependency (vscode-languageclient, installed into a cached copy of the
    folder under build/editors/), packs into a .vsix holding the manifest, the grammar, the language
    configuration, the client and the client library."""
    modules = _npm_cache()
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        folder = _extension_copy()
    out = tmp_path / "wnotation-7wn.vsix"
    done = subprocess.run([str(modules / ".bin" / "vsce"), "package", "--allow-missing-repository", "--skip-license",
                           "--out", str(out)], cwd=folder, capture_output=True, text=True, timeout=240,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    _check_vsix(out)


def _extension_copy() -> Path:
    """build/editors/vscode: the extension folder's files afresh, with vscode-languageclient installed once."""
    folder = CACHE / "vscode"
    if folder.exists():
        for item in folder.iterdir():  # the folder's files afresh; its node_modules kept
            if item.name != "node_modules":
                shutil.rmtree(item) if item.is_dir() else item.unlink()
    shutil.copytree(EDITORS / "vscode", folder, dirs_exist_ok=True)
    if not (folder / "node_modules" / "vscode-languageclient" / "package.json").is_file():
        done = subprocess.run([shutil.which("npm") or "npm", "install", "--omit=dev", "--no-audit", "--no-fund",
                               "--no-package-lock", "--silent"], cwd=folder, capture_output=True, text=True,
                              timeout=480)
        assert done.returncode == 0, done.stderr[-2000:]
    return folder


def _check_vsix(out: Path) -> None:
    with zipfile.ZipFile(out) as vsix:
        names = vsix.namelist()
        manifest = json.loads(vsix.read("extension/package.json"))
    for member in ("extension/package.json", "extension/language-configuration.json",
                   "extension/syntaxes/7wn.tmLanguage.json", "extension/extension.js",
                   "extension/node_modules/vscode-languageclient/package.json"):
        assert member in names, sorted(names)[:40]
    assert manifest["contributes"]["languages"][0]["extensions"] == [".7wn"]
    assert manifest["contributes"]["configuration"]["properties"]["wnotation.command"]["default"] == ["wnotation",
                                                                                                      "lsp"]
