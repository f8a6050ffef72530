"""The archive's one exception, in a module of its own so that the store, the manifest and the cluster runner
can all raise it without importing one another."""

from __future__ import annotations

from ..errors import WnotationError

__all__ = ["ArchiveError"]


class ArchiveError(WnotationError):
    """An archive cannot be written or read: DuckDB missing, an output that is not a directory, a source that
    is neither 7WN, a Parquet archive nor a DuckDB file. The message is one lower-case sentence."""
