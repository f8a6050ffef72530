"""The reserved header tag names, shared by the reader and the writer.

A neutral module so that the writer, which refuses a free tag under a reserved name, need not import the reader.
"""

from __future__ import annotations

__all__ = ["RESERVED_TAGS", "RESERVED_BY_FOLDED"]

RESERVED_TAGS = ("Format", "Edition", "Date", "Guilds", "Seed", "DealI", "DealII", "DealIII", "Expansions") + tuple(
    f"Seat{i}" for i in range(1, 8)
)
RESERVED_BY_FOLDED = {name.casefold(): name for name in RESERVED_TAGS}
