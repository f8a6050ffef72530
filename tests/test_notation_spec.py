"""Every example of spec/7wn.md runs: ```7wn texts read, ```7wn-body lines read after the example header,
```7wn-error blocks are refused with the message shown in the ```text block after them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wnotation.notation import NotationError, parse_many, write

SPEC = (Path(__file__).resolve().parents[1] / "spec" / "7wn.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\S*)( [^\n]*)?\n(.*?)```", SPEC, re.S)
HEADER = next(text for kind, attrs, text in BLOCKS if "example-header" in (attrs or ""))


def _examples(kind: str) -> list[tuple[str, str | None]]:
    out = []
    for i, (k, _, text) in enumerate(BLOCKS):
        if k == kind:
            following = BLOCKS[i + 1] if i + 1 < len(BLOCKS) else None
            shown = following[2].splitlines()[0] if following and following[0] == "text" else None
            out.append((text, shown))
    return out


def test_the_spec_has_examples_of_each_kind():
    assert len(_examples("7wn")) >= 4 and len(_examples("7wn-body")) >= 5 and len(_examples("7wn-error")) >= 3


@pytest.mark.parametrize("text", [t for t, _ in _examples("7wn")])
def test_complete_examples_read_and_round_trip(text):
    for record in parse_many(text):
        assert parse_many(write(record)) == [record]


@pytest.mark.parametrize("text", [t for t, _ in _examples("7wn-body")])
def test_body_examples_read(text):
    assert parse_many(HEADER + "\n" + text)


@pytest.mark.parametrize("text, shown", _examples("7wn-error"))
def test_error_examples_are_refused_as_shown(text, shown):
    with pytest.raises(NotationError) as info:
        parse_many(HEADER + "\n" + text, source="example.7wn")
    e = info.value
    offset = HEADER.count("\n") + 1
    first = str(e).splitlines()[0].replace(f"example.7wn:{e.line}:", f"example.7wn:{e.line - offset}:", 1)
    assert first == shown


def test_the_complete_game_replays_without_findings():
    replay = pytest.importorskip("wnotation.engine.replay")
    game = _examples("7wn")[-1][0]
    (record,) = parse_many(game)
    assert len(record.turns) == 20 and record.results
    assert replay.replay(record).findings == ()


# --- every example is a legal record ------------------------------------------------------------------------

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _legal_examples() -> list[tuple[str, str]]:
    """``(where, text)`` of every 7WN example that is not an error example: the spec's ```7wn blocks, its
    ```7wn-body blocks after the example header (but ```7wn-body fragment: lines out of their game), and the
    README's ```7wn blocks."""
    out = []
    for kind in ("7wn", "7wn-body"):
        blocks = [(attrs, text) for k, attrs, text in BLOCKS if k == kind]
        out += [(f"spec {kind} block {i}", text if kind == "7wn" else HEADER + "\n" + text)
                for i, (attrs, text) in enumerate(blocks, 1) if "fragment" not in attrs]
    readme = re.findall(r"^```7wn\n(.*?)^```$", README, flags=re.M | re.S)
    out += [(f"README 7wn block {i}", text) for i, text in enumerate(readme, 1)]
    return out


@pytest.mark.parametrize("where, text", _legal_examples(), ids=[w for w, _ in _legal_examples()])
def test_every_example_is_a_legal_record(where, text):
    """The spec's first example and its extra-turn example failed ``wnotation check``; an example that is meant
    to be refused is a ```7wn-error block."""
    replay = pytest.importorskip("wnotation.engine.replay")
    for record in parse_many(text):
        errors = [str(f) for f in replay.replay(record).findings if f.severity == "error"]
        assert errors == [], where
