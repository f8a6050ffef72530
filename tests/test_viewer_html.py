"""Viewer pages reference nothing outside themselves, are the same bytes for the same input, allow by their
Content-Security-Policy exactly their own script and style, and keep record text inside the JSON data block."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wnotation.engine import replay
from wnotation.notation import read_games
from wnotation.model.record import Record
from wnotation.viewer import page, page_data
from wnotation.viewer.html import csp_hash, file_name, script_json, text

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = sorted((ROOT / "replays").glob("*.7wn"))
CASES = sorted((ROOT / "spec" / "cases").glob("*.7wn"))

#: Attributes through which HTML can load or navigate to something.
URL_ATTRIBUTES = {"src", "href", "srcset", "action", "formaction", "data", "poster", "background", "xlink:href",
                  "ping", "manifest", "cite", "longdesc", "usemap", "codebase", "archive", "lowsrc"}


class Elements(HTMLParser):
    """Every start tag with its attributes, and the raw text of each ``<script>`` and ``<style>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.blocks: list[tuple[str, dict[str, str | None], str]] = []
        self._open: tuple[str, dict[str, str | None]] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "style"):
            self._open = (tag, dict(attrs))
            self.blocks.append((tag, dict(attrs), ""))

    def handle_data(self, data):
        if self._open is not None:
            tag, attrs, old = self.blocks[-1]
            self.blocks[-1] = (tag, attrs, old + data)

    def handle_endtag(self, tag):
        if self._open is not None and tag == self._open[0]:
            self._open = None


def parsed(document: str) -> Elements:
    parser = Elements()
    parser.feed(document)
    parser.close()
    return parser


def assert_self_contained(document: str, *, links: bool = False) -> None:
    """No element that loads or navigates, no event handler, no attribute holding a URL scheme, no ``http(s):``,
    ``@import`` or ``url(`` but ``data:`` in the page's style and script. With ``links`` (the site's index),
    ``<a href>`` is allowed to a plain file name beside the page."""
    p = parsed(document)
    for tag, attrs in p.tags:
        urls = URL_ATTRIBUTES & set(attrs)
        if links and tag == "a" and urls == {"href"}:
            assert re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9._-]*\.html", attrs["href"] or ""), attrs
        else:
            assert not urls, (tag, attrs)
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        assert tag not in ("link", "iframe", "object", "embed", "img", "base", "form", "frame", "audio", "video")
        if tag == "meta":
            assert attrs.get("http-equiv", "").lower() in ("", "content-security-policy")
        for name, value in attrs.items():
            if not (tag == "meta" and name == "content"):
                assert not re.search(r"(?i)(https?|javascript|data|file|blob):", value or ""), (tag, name, value)
    for tag, attrs, body in p.blocks:
        if attrs.get("type") == "application/json":
            continue  # data, set only as text by the page's script
        assert not re.search(r"(?i)https?:", body.replace("http://www.w3.org/2000/svg", "")), tag
        if tag == "style":
            assert "@import" not in body
            for m in re.finditer(r"url\(\s*['\"]?([^)'\"]*)", body):
                assert m.group(1).startswith("data:"), m.group(0)


positions: dict[str, int] = {}  # page name -> positions of its replay, filled by the fixture


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    out = {}
    for path in REPLAYS + CASES:
        for k, record in enumerate(read_games(path), 1):
            if isinstance(record, Record):
                played = replay(record)
                out[f"{path.name}#{k}"] = page(record, played, source=path.read_text(encoding="utf-8"))
                positions[f"{path.name}#{k}"] = len(played.addresses)
    return out


def test_every_bundled_replay_and_readable_case_renders(pages: dict[str, str]) -> None:
    readable = {p.name for p in REPLAYS + CASES if all(isinstance(g, Record) for g in read_games(p))}
    assert {name.split("#")[0] for name in pages} == readable
    # only the cases the reader refuses (those with a [Notation] tag) have no page; a case whose [Position] the
    # reader reads and the engine refuses (spec/position.md §8) has one: its one finding, no position
    texts = {p.name: p.read_text(encoding="utf-8") for p in REPLAYS + CASES}
    judged = readable - {name for name, text in texts.items() if '[Notation "' not in text}
    assert judged and all('[Notation "position"]' in texts[name] for name in judged)
    for name in judged:
        [finding] = page_data(pages[f"{name}#1"])["findings"]
        assert finding["severity"] == "error" and finding["message"].startswith("[Position]: position string")
    for name, document in pages.items():
        data = page_data(document)
        # a position per turn boundary the engine replays; none for a record of results only (a score pad) or of
        # an expansion's game, which still gets a page with its findings
        assert len(data["positions"]) == positions[name], name


def test_pages_reference_nothing_outside_themselves(pages: dict[str, str]) -> None:
    for document in pages.values():
        assert_self_contained(document)


def test_policy_forbids_every_request_and_allows_only_the_pages_own_blocks(pages: dict[str, str]) -> None:
    for name, document in pages.items():
        p = parsed(document)
        meta = [a for t, a in p.tags if t == "meta" and a.get("http-equiv", "").lower() == "content-security-policy"]
        assert len(meta) == 1, name
        policy = dict((d.split()[0], d.split()[1:]) for d in meta[0]["content"].split(";") if d.strip())
        assert policy["default-src"] == ["'none'"]
        assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'none'"]
        assert policy["img-src"] == ["data:"]
        assert "'unsafe-inline'" not in meta[0]["content"] and "'unsafe-eval'" not in meta[0]["content"]
        scripts = [body for t, a, body in p.blocks if t == "script" and "type" not in a]
        styles = [body for t, a, body in p.blocks if t == "style"]
        assert policy["script-src"] == [csp_hash(s) for s in scripts] and len(scripts) == 1
        assert policy["style-src"] == [csp_hash(s) for s in styles] and len(styles) == 1
        # the only other script element is the inert JSON data block, which the policy need not allow
        others = [a for t, a, _ in p.blocks if t == "script" and "type" in a]
        assert others == [{"type": "application/json", "id": "wn-data"}]
        # the meta policy comes before anything it governs
        assert document.index("Content-Security-Policy") < document.index("<style>") < document.index("<script")


def test_same_input_same_bytes() -> None:
    path = ROOT / "replays" / "7p-all-wonders.7wn"
    one = page(next(iter(read_games(path))), replay(next(iter(read_games(path)))), view_seat=3)
    two = page(next(iter(read_games(path))), replay(next(iter(read_games(path)))), view_seat=3)
    assert one == two
    assert one.encode("utf-8") == two.encode("utf-8")


def test_the_script_never_writes_markup() -> None:
    from wnotation.viewer.html import asset

    script = re.sub(r"(?m)^\s*//.*$", "", asset("viewer.js"))  # the comments may name what the code avoids
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                 "setAttribute(\"on", "srcdoc", "javascript:", "fetch(", "XMLHttpRequest", "WebSocket", "import("):
        assert sink not in script, sink
    assert "JSON.parse(" in script


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.text() | st.integers() | st.booleans() | st.none(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=12))
def test_script_json_cannot_end_its_element_and_reads_back(value) -> None:
    encoded = script_json(value)
    assert re.fullmatch(r"[\x20-\x7e]*", encoded)  # ASCII: no U+2028/9, no lone surrogate, no control
    assert not set("<>&") & set(encoded)  # so no </script>, <!-- or <script> can appear
    assert json.loads(encoded) == value


@given(st.text())
def test_text_escapes_every_markup_character(value: str) -> None:
    escaped = text(value)
    assert not set("<>\"'") & set(escaped)
    assert "&" not in re.sub(r"&(amp|lt|gt|quot|#x27);", "", escaped)


@given(st.text())
def test_file_name_is_a_plain_name(name: str) -> None:
    safe = file_name(name)
    assert re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9._-]*", safe), safe
    assert "/" not in safe and "\\" not in safe and not safe.startswith(".") and len(safe) <= 120


def test_same_bytes_in_processes_with_different_hash_seeds(tmp_path: Path) -> None:
    """No set or dict order of the process leaks into a page or a picture (PYTHONHASHSEED varies it)."""
    import hashlib
    import os
    import subprocess
    import sys

    script = ("import sys; from wnotation.notation import read_games; from wnotation.engine import replay; "
              "from wnotation.viewer import page, sheet_svg, chart_svg; "
              "r = next(iter(read_games(sys.argv[1]))); p = replay(r); "
              "sys.stdout.write(page(r, p) + page(r, p, view_seat=2) + sheet_svg(p) + chart_svg(p, 'II.3'))")
    game = str(ROOT / "replays" / "5p-olympia-night-halikarnassos-day.7wn")
    digests = set()
    for seed in ("1", "2", "3"):
        out = subprocess.run([sys.executable, "-c", script, game], capture_output=True, check=True,
                             env=os.environ | {"PYTHONHASHSEED": seed}, timeout=120)
        digests.add(hashlib.sha256(out.stdout).hexdigest())
    assert len(digests) == 1
