"""7WN, the notation: read text into Records, write Records as canonical text, and JSON for both.

``parse``/``read_games`` read (errors are :class:`NotationError`); what ``read_games`` yields and what an error
does is its builder's (a :class:`Visitor`: :class:`RecordBuilder` collects errors, :class:`StrictRecordBuilder`
raises them; ``errors="collect"``/``"raise"`` picks one). ``read_headers`` is the same reader with
:class:`HeadersBuilder`, which skips bodies (for listing and indexing). ``write``/``write_games`` write, and
``to_json``/``from_json``/``json_schema`` exchange the same Records as JSON; both writers are exporters
(:class:`Exporter`, walked by :func:`export`), the interface a new output format implements. The rules live in
the engine. :data:`COMPILED` says whether the reader's modules run compiled (a wheel built with mypyc) or as
Python sources.
"""

from importlib.machinery import EXTENSION_SUFFIXES

from .errors import (
    NotationError,
    NotationSyntaxError,
    RosterError,
    StructureError,
    TagError,
    UnknownNameError,
)
from .export import Exporter, export, export_games
from .jsonio import JsonExporter, from_json, json_schema, records_from_json, to_json
from .reader import (
    SKIP,
    Header,
    HeadersBuilder,
    RecordBuilder,
    StrictHeadersBuilder,
    StrictRecordBuilder,
    Visitor,
    parse,
    parse_many,
    read_games,
    read_headers,
)
from .reader import build as _build
from .writer import TextExporter, format_action, format_purchase, format_turn, write, write_games

#: Whether the reader's compiled modules (``lexical`` and ``reader.build``, ``fast_route``, ``header``, ``split``: see
#: hatch_build.py) run compiled, as ``wnotation.engine.COMPILED`` says of the engine.
COMPILED: bool = _build.__file__ is not None and _build.__file__.endswith(tuple(EXTENSION_SUFFIXES))

__all__ = [
    "COMPILED",
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
    "Visitor",
    "RecordBuilder",
    "StrictRecordBuilder",
    "HeadersBuilder",
    "StrictHeadersBuilder",
    "SKIP",
    "Exporter",
    "export",
    "export_games",
    "TextExporter",
    "JsonExporter",
]
