"""The escapes of comments, ``[%tag]`` values and tag strings (spec 7wn.md: ``\\\\`` and ``\\<closer>``): one regex
pass, the same text as reading them one character at a time, and a huge comment unescaped without a list of its
characters (issue 31 item 5)."""

from __future__ import annotations

import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from wnotation.notation import lexical


def _by_characters(text: str, closer: str) -> str:
    """The reference: left to right, a backslash before a backslash or the closer stands for that character."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in ("\\", closer):
            out.append(text[i + 1])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


TEXTS = st.text(alphabet=st.sampled_from(' \\}]"a{[é'), max_size=16)


@given(TEXTS, st.sampled_from(['}', ']', '"']))
def test_unescape_reads_as_one_character_at_a_time(text, closer):
    assert lexical.unescape(text, closer) == _by_characters(text, closer)
    assert lexical.unescape(lexical.escape(text, closer), closer) == text


@given(TEXTS)
def test_comment_text_and_tag_values_unpad_and_unescape(text):
    inner = text[1:] if text.startswith(" ") else text
    inner = inner[:-1] if inner.endswith(" ") else inner
    assert lexical.comment_text("{" + text + "}") == _by_characters(inner, "}")
    assert lexical.comment_text(lexical.write_comment(text)) == text
    assert lexical.atag_pair("[%note " + text + "]") == ("note", _by_characters(text, "]"))
    assert lexical.atag_pair("[%k]") == ("k", "")


def test_a_huge_comment_is_copied_about_once():
    raw = "{ " + "lorem \\} ipsum " * 200_000 + " }"  # 3.2 MB, with escapes
    tracemalloc.start()
    try:
        text = lexical.comment_text(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert text.count("}") == 200_000 and "\\" not in text
    assert peak < 2.5 * len(raw)  # the slice and the unescaped text; a list of characters took 8 bytes each
