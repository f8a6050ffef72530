"""JSON export and import of Records: the same pydantic models, so the JSON Schema comes for free.

Spans (source positions) are left out of JSON; everything else round-trips: ``from_json(to_json(r)) == r``.
"""

from __future__ import annotations

from typing import Any

from .. import record as _record
from ..record import Record

__all__ = ["to_json", "from_json", "json_schema"]


def to_json(record: Record, *, indent: int | None = 2) -> str:
    """The Record as a JSON document (UTF-8 text, no spans). Cost: linear; returns a fresh string."""
    return record.model_dump_json(indent=indent)


def from_json(text: str | bytes) -> Record:
    """The Record in a JSON document, validated (shapes, seat count, distinct Wonders, seat numbers).

    Raises :class:`pydantic.ValidationError` (a :class:`ValueError`) when the document is not a valid Record.
    """
    return Record.model_validate_json(text)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a Record (draft 2020-12), for implementations in other languages."""
    return _record.json_schema()
