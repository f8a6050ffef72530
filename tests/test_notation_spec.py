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
