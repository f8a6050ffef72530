"""The table of header tags, shared by the reader, the writer and the editor's completions.

As sgfmill's property table drives its reader and writer, one row per tag says which Record field it fills, how
many strings it holds and whether its name is reserved; the reader's header, the writer and the reserved-tag list
all follow it, so a tag is added in one place. A neutral module (it imports nothing of the library), so the
writer, which refuses a free tag under a reserved name, need not import the reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["TagRow", "TAGS", "RESERVED_TAGS", "RESERVED_BY_FOLDED", "FREE_TAGS", "FIELDS", "BY_NAME"]

#: How many strings a tag holds: ``one``; ``seat`` three (name, Wonder, side); ``deal`` one hand per seat.
Shape = Literal["one", "seat", "deal"]


@dataclass(frozen=True)
class TagRow:
    """One header tag: its name, the :class:`~wnotation.model.record.Record` field it fills, its value's shape, and
    whether the name is reserved (refused as a free tag, case-insensitively) or free (kept in ``Record.tags``)."""

    name: str
    field: str
    shape: Shape
    reserved: bool


def _reserved(name: str, field: str, shape: Shape = "one") -> TagRow:
    return TagRow(name, field, shape, True)


def _free(name: str) -> TagRow:
    return TagRow(name, "tags", "one", False)


#: Every tag, in the order the writer writes the fields (free tags after ``Expansions``) and the reader decodes
#: and checks them. The free rows are the usual ones (completions offer them); any other free name is allowed.
#: ``Position`` is a free tag in ``Record.tags``, whose value the reader checks from format version 2 on.
TAGS: tuple[TagRow, ...] = (
    _reserved("Format", "format"),
    _reserved("Edition", "edition"),
    _reserved("Date", "date"),
    _reserved("Expansions", "expansions"),
    _free("Event"),
    _free("Site"),
    _free("Round"),
    _free("Annotator"),
    _free("Position"),
    *(_reserved(f"Seat{i}", "seats", "seat") for i in range(1, 8)),
    _reserved("Guilds", "guilds"),
    _reserved("Seed", "seed"),
    *(_reserved(f"Deal{age}", "deals", "deal") for age in ("I", "II", "III")),
)

BY_NAME = {row.name: row for row in TAGS}
#: The Record's header fields, in the table's order: each has a reader in the reader's header and a writer.
FIELDS: tuple[str, ...] = tuple(dict.fromkeys(row.field for row in TAGS))
RESERVED_TAGS: tuple[str, ...] = tuple(row.name for row in TAGS if row.reserved)
RESERVED_BY_FOLDED = {name.casefold(): name for name in RESERVED_TAGS}
FREE_TAGS: tuple[str, ...] = tuple(row.name for row in TAGS if not row.reserved)
