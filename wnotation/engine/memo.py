"""The memo registry's former place: the engine's memos are those of :mod:`wnotation.support.memo`, which the reader
shares (it must not load the engine to register its caches)."""

from __future__ import annotations

from ..support.memo import REGISTRY, K, Memo, V, clear_all, memo

__all__ = ["REGISTRY", "K", "Memo", "V", "clear_all", "memo"]
