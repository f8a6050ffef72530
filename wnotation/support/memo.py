"""Memos: the engine's only mutable module-level state, and the reader's and position strings' caches. Each is
bounded, named and registered here on creation, so :func:`clear_all` forgets every memoised answer at once and a
test can prove no cache lives outside the registry. It imports nothing of the package, so the reader uses it
without loading the engine (``wnotation.engine.memo``, its former place, re-exports it).

A memo holds answers of pure functions; forgetting them never changes a result, only its cost.
"""

from __future__ import annotations

from typing import Any, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(dict[K, V]):
    """A bounded dictionary of answers: ``get`` a key's answer or ``None`` (the dictionary's own look-up), ``put``
    one (every entry is forgotten when ``limit`` is reached: answers are cheap to recompute, and a whole-memo reset
    keeps no order to maintain). Create memos with :func:`memo`, which registers them."""

    __slots__ = ("name", "limit")

    def __init__(self, name: str, limit: int) -> None:
        super().__init__()
        self.name = name
        self.limit = limit

    def put(self, key: K, value: V) -> V:
        """Store ``value`` as the answer for ``key`` and return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value

    def __repr__(self) -> str:
        return f"Memo({self.name!r}, {self.limit}, {len(self)} entries)"


REGISTRY: list[Memo[Any, Any]] = []


def memo(name: str, limit: int) -> Memo[K, V]:
    """A new memo, registered for :func:`clear_all`; assign it to a variable typed ``Memo[Key, Answer]`` (which
    gives the memo its types). Memos are made at import time, one per cached question."""
    m: Memo[K, V] = Memo(name, limit)
    REGISTRY.append(m)
    return m


def clear_all() -> None:
    """Forget every registered memo's answers (e.g. to measure a first replay, or to free memory)."""
    for m in REGISTRY:
        m.clear()
