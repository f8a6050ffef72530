"""JSON export and import of Records: through the Record's pydantic twins (:mod:`wnotation.model.record_json`), so
the JSON Schema comes for free; pydantic is imported when JSON is first read or written, not with this module.

Spans (source positions) are left out of JSON; everything else round-trips: ``from_json(to_json(r)) == r``.
"""

from __future__ import annotations

from typing import Any

from ..model import record as _record
from ..model.record import Record, SeatResult, Turn
from .export import Exporter

__all__ = ["to_json", "from_json", "records_from_json", "json_schema", "JsonExporter"]


#: The members of a Record's JSON object, in the order the model writes them (spans are not written).
_MEMBERS = tuple(name for name, field in Record.model_fields.items() if not field.exclude)


class JsonExporter(Exporter[dict[str, Any]]):
    """A Record's JSON document as data (``json.dumps`` of it is :func:`to_json`'s text), as an
    :class:`~wnotation.notation.export.Exporter`: each part made by the Record model's own serializer, so the
    two cannot differ. For writers that stream games or embed them in larger documents."""

    def begin_game(self, record: Record) -> None:
        self.head = record.model_dump(mode="json", exclude={"turns", "results"})
        self.parts: dict[str, list[Any]] = {"turns": [], "results": []}

    def turn(self, turn: Turn) -> None:
        _record.check_variation_depth((turn,))
        self.parts["turns"].append(turn.model_dump(mode="json"))

    def result(self, result: SeatResult) -> None:
        self.parts["results"].append(result.model_dump(mode="json"))

    def end_game(self) -> dict[str, Any]:
        head, parts = self.head, self.parts
        return {name: parts[name] if name in parts else head[name] for name in _MEMBERS}


def to_json(record: Record, *, indent: int | None = 2) -> str:
    """The Record as a JSON document (UTF-8 text, no spans): the text of :class:`JsonExporter`'s data, written in
    one pass by the model's serializer. Cost: linear; returns a fresh string.

    Raises ``ValueError`` for a Record made without validation whose variations nest deeper than
    :data:`~wnotation.model.record.MAX_VARIATION_DEPTH` (the serializer itself would stop at a depth of its own)."""
    _record.check_variation_depth(record.turns)
    return record.model_dump_json(indent=indent)


def from_json(text: str | bytes) -> Record:
    """The Record in a JSON document, validated (shapes, seat count, distinct Wonders, seat numbers).

    Raises :class:`pydantic.ValidationError` (a :class:`ValueError`) when the document is not a valid Record.
    """
    return Record.model_validate_json(text)


#: How deep the JSON parser nests (pydantic-core's, fixed): a Record nests far less, 137 at most (its JSON at
#: :data:`~wnotation.model.record.MAX_VARIATION_DEPTH` variations: 4 levels each, and 9 down to a pick's tag).
JSON_DEPTH_LIMIT = 200


def records_from_json(text: str | bytes) -> list[Record]:
    """The Records of a JSON document holding one Record (an object) or several (an array), each validated as
    :func:`from_json` validates it.

    Raises :class:`ValueError` naming the problem for a document that is not JSON ("not JSON: …") or that nests
    deeper than :data:`JSON_DEPTH_LIMIT` ("not a Record: …": no Record's JSON does, so no input reaches Python's
    recursion limit), and :class:`pydantic.ValidationError` (a :class:`ValueError`) for an item that is not a
    valid Record, one whose variations nest deeper than :data:`~wnotation.model.record.MAX_VARIATION_DEPTH` included.
    """
    import pydantic_core

    try:
        data = pydantic_core.from_json(text)
    except ValueError as exc:
        message = str(exc)
        if message.startswith("recursion limit exceeded"):
            where = message.removeprefix("recursion limit exceeded").strip()
            raise ValueError(f"not a Record: the document nests more than {JSON_DEPTH_LIMIT} deep ({where}), and "
                             f"a Record's JSON at most 137 (variations nest at most {_record.MAX_VARIATION_DEPTH} deep: "
                             "spec 6.1, 14)") from None
        raise ValueError(f"not JSON: {message}") from None
    items = data if isinstance(data, list) else [data]
    return [Record.model_validate_json(pydantic_core.to_json(item)) for item in items]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a Record (draft 2020-12), for implementations in other languages."""
    return _record.json_schema()
