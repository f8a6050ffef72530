"""``wnotation json`` and ``wnotation schema``: Records as JSON, JSON back to 7WN, and the JSON Schema."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import click

from .errors import UserError, one_line
from .inputs import RECORD_PATH, read
from .output import colour_option, count, emit_data, emit_json, emit_json_text

if TYPE_CHECKING:
    from ..model.record import Record

JSON_EPILOG = """\b
A file with one game gives one Record object; a file with several games gives an array of them
(--game N picks one). --to-7wn reads such JSON (object or array) and prints canonical 7WN. Source
positions are not part of JSON; everything else round-trips.

\b
Examples:
  wnotation json game.7wn > game.json
  wnotation json --to-7wn game.json
  wnotation json games.7wn | wnotation json --to-7wn -"""


@click.command("json", epilog=JSON_EPILOG, short_help="Convert a record to JSON, or JSON back to 7WN.")
@click.argument("file", type=RECORD_PATH)
@click.option("--to-7wn", "to_7wn", is_flag=True, help="Read JSON (a Record or an array of them), write 7WN.")
@click.option("--game", type=click.IntRange(min=1), metavar="N", help="Only game N of the file (1 first).")
@colour_option
def json_command(file: str, to_7wn: bool, game: int | None) -> None:
    """Print the Records of a 7WN FILE (- for stdin) as JSON, or with --to-7wn a JSON FILE as 7WN.

    The JSON follows the schema printed by 'wnotation schema'.
    """
    from ..notation import NotationError, read_games, write_games

    if to_7wn:
        records = _records_from_json(file)
        if game is not None:
            if game > len(records):
                raise UserError(f"{file} holds {count(len(records), 'game')}; there is no game {game}")
            records = records[game - 1 : game]
        try:
            emit_data(write_games(records), f"the 7WN text of {file}")
        except ValueError as exc:
            raise UserError(f"{file}: this Record cannot be written as 7WN: {one_line(str(exc))}") from None
        return
    text, source = read(file)
    if _JSON_START.match(text):
        raise UserError(f"{source} is JSON, not 7WN text: 'wnotation json --to-7wn' reads JSON and writes 7WN")
    records = []
    total = 0
    for total, item in enumerate(read_games(text, source=source), start=1):
        if game is not None and total != game:
            continue
        if isinstance(item, NotationError):
            raise item
        records.append(item)
    if game is not None and not records:
        have = "no game" if total == 0 else count(total, "game")
        raise UserError(f"{source} has {have}; there is no game {game}")
    if not records:
        raise UserError(f"{source} has no game")
    if len(records) == 1:
        emit_json_text(_json_of(records[0], source))
    else:
        emit_json([json.loads(_json_of(r, source)) for r in records])


def _json_of(record: Record, source: str) -> str:
    """``to_json`` of a Record read from ``source``; one it refuses (variations nested deeper than the limit) is a
    usage error, exit 2."""
    from ..notation import to_json

    try:
        return to_json(record)
    except ValueError as exc:
        raise UserError(f"{source}: this Record cannot be written as JSON: {one_line(str(exc))}") from None


# A JSON document (an object, or an array of objects or an empty one) rather than 7WN text, which starts with a
# tag "[Format".
_JSON_START = re.compile(r"\ufeff?\s*(?:\{|\[\s*[{\]])")


def _records_from_json(file: str) -> list[Record]:
    """The Records of a JSON document (:func:`~wnotation.notation.records_from_json`: one parser, with a depth
    limit, so that no document reaches Python's recursion limit); every failure is one line, exit 2."""
    from pydantic import ValidationError

    from ..notation import records_from_json

    text, source = read(file)
    try:
        records = records_from_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the document"
        k = _first_invalid(text)
        which = f"record {k} of " if k is not None else ""
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        msg = first["msg"]  # pydantic's "Value error, ..." in the one-line style; names in it keep their case
        raise UserError(f"{which}{source} is not a valid Record: {where}: {msg[:1].lower()}{msg[1:]}{more}") from None
    except ValueError as exc:  # "not JSON: ...", or nested deeper than any Record: "not a Record: ..."
        raise UserError(f"{source} is {one_line(str(exc))}") from None
    if not records:
        raise UserError(f"{source} holds no Record")
    return records


def _first_invalid(text: str) -> int | None:
    """For a document that is an array: the number (1-based) of its first item that is not a valid Record; ``None``
    for a single Record. Only called once the document is known to be JSON with an invalid Record in it."""
    import pydantic_core
    from pydantic import ValidationError

    from ..notation import from_json

    data = pydantic_core.from_json(text)
    if not isinstance(data, list):
        return None
    for k, item in enumerate(data, start=1):
        try:
            from_json(pydantic_core.to_json(item))
        except ValidationError:
            return k
    return None


SCHEMA_EPILOG = """\b
Examples:
  wnotation schema > 7wn-record.schema.json
  wnotation schema | python3 -m json.tool --compact"""


@click.command(epilog=SCHEMA_EPILOG, short_help="Print the JSON Schema of a Record.")
def schema() -> None:
    """Print the JSON Schema (draft 2020-12) of the Record that 'wnotation json' writes, for other languages."""
    from ..notation import json_schema

    emit_json(json_schema())


COMMANDS = (json_command, schema)
