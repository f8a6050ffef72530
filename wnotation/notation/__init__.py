"""7WN, the notation: read text into Records, write Records as canonical text, and JSON for both.

``parse``/``read_games`` read (errors are :class:`NotationError`; ``errors="raise"`` or ``"collect"``),
``read_headers`` reads only the tag sections (for listing and indexing), ``write``/``write_games`` write, and
``to_json``/``from_json``/``json_schema`` exchange the same Records as JSON. The rules live in the engine.
"""

from .errors import (
    NotationError,
    NotationSyntaxError,
    RosterError,
    StructureError,
    TagError,
    UnknownNameError,
)
from .jsonio import from_json, json_schema, records_from_json, to_json
from .reader import Header, parse, parse_many, read_games, read_headers
from .writer import format_action, format_purchase, format_turn, write, write_games

__all__ = [
    "NotationError",
    "NotationSyntaxError",
    "RosterError",
    "StructureError",
    "TagError",
    "UnknownNameError",
    "from_json",
    "json_schema",
    "records_from_json",
    "to_json",
    "Header",
    "parse",
    "parse_many",
    "read_games",
    "read_headers",
    "format_action",
    "format_purchase",
    "format_turn",
    "write",
    "write_games",
]
