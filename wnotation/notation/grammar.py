"""Finding, building and caching the Lark parser of ``7wn.lark`` (one per process, shared).

The grammar ships inside the wheel as ``wnotation/grammar/7wn.lark``; in a source checkout it is read from
``<repo>/grammar/7wn.lark``. Lark's analysis cache goes to the temporary directory when it is writable and
is skipped (never an error) when it is not.
"""

from __future__ import annotations

import os
import tempfile
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TypeVar

from lark import Lark, Transformer

GRAMMAR_NAME = "7wn.lark"


def grammar_text() -> str:
    """The text of the 7WN grammar: the installed package data first, else the source checkout's file.

    Raises :class:`FileNotFoundError` when neither exists (a broken installation).
    """
    packaged = resources.files("wnotation").joinpath("grammar").joinpath(GRAMMAR_NAME)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[2] / "grammar" / GRAMMAR_NAME
    return checkout.read_text(encoding="utf-8")


def _cache_option() -> bool:
    try:
        return os.access(tempfile.gettempdir(), os.W_OK)
    except OSError:
        return False


_Leaf = TypeVar("_Leaf")
_Result = TypeVar("_Result")


def build(transformer: Transformer[_Leaf, _Result] | None = None, *, strict: bool = False, cache_: bool = True) -> Lark:
    """A fresh LALR parser with the contextual lexer; ``strict=True`` needs the ``interegular`` package.

    With a ``transformer`` the parser is tree-less: ``parse`` returns what the transformer's ``start``
    returns. Cost: about 0.5 s without the cache, a few milliseconds with it.
    """
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        strict=strict,
        transformer=transformer,
        cache=cache_ and _cache_option(),
        maybe_placeholders=False,
    )


@cache
def tree_parser() -> Lark:
    """The shared parser that returns Lark trees (for tools, tests and error diagnosis)."""
    return build()
