"""Reading 7WN text into :class:`~wnotation.model.record.Record` objects, one game at a time.

The layers, one module each: :mod:`.split` cuts an input into games (one normalisation, one boundary test);
:mod:`.lark_route` (the reference: Lark's LALR parser, an inline transformer) and :mod:`.fast_route` (plain
games, one regex per line, declining anything else to Lark) only lex; :mod:`.build` and :mod:`.header` make every
check the notation owns and assemble every Record; :mod:`.visitors` holds the builders that decide what the
reader yields and what an error does. This module is the API: ``parse``, ``parse_many``, ``read_games``,
``read_headers``. Legality is the engine's, not checked here.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, TypeVar

from ...model.record import FORMAT_VERSION, Record
from .. import lexical
from ..errors import NotationError, NotationSyntaxError, Origin, StructureError, at_offset
from . import fast_route, lark_route, recovery
from .build import Game
from .names import VERB_WORDS
from .header import RESERVED_TAGS, Header, header_of, read_header
from .split import LINE_LIMIT, check_line_lengths, iter_pieces, normalise, split_games, split_stream
from .visitors import (
    ERROR_POLICIES,
    SKIP,
    HeadersBuilder,
    RecordBuilder,
    StrictHeadersBuilder,
    StrictRecordBuilder,
    Visitor,
    builder_for,
)

__all__ = ["Header", "parse", "parse_many", "read_games", "read_headers", "split_games", "iter_pieces",
           "normalise", "RouteDeclined", "ROUTES", "RESERVED_TAGS", "LINE_LIMIT", "ERROR_POLICIES", "SKIP",
           "Visitor", "RecordBuilder", "StrictRecordBuilder", "HeadersBuilder", "StrictHeadersBuilder",
           "VERB_WORDS"]

T = TypeVar("T")

#: The routes a game may be read by: ``auto`` (the fast route, else Lark: the default), ``lark`` (the reference
#: alone) and ``fast`` (the fast route alone, which raises :class:`RouteDeclined` for a game it does not read).
#: The two routes give equal Records with equal spans; ``lark`` and ``fast`` exist to test and measure that.
ROUTES = ("auto", "fast", "lark")


class RouteDeclined(Exception):
    """``route="fast"`` and the fast route does not read this game (Lark would; not a problem of the text)."""


def _check_route(route: str) -> None:
    if route not in ROUTES:
        raise ValueError(f"route={route!r}: expected one of {', '.join(map(repr, ROUTES))}")


def _visit(v: Visitor[T], chunk: str, origin: Origin, index: int, route: str) -> T:
    """Read one game chunk (starting with its ``[Format`` line, placed in its input by ``origin``) through the hooks
    of ``v``; return its result."""
    v.begin_game(origin.source, index, origin.first_line, origin.chars_before)
    text = chunk if chunk.endswith("\n") else chunk + "\n"
    try:
        if v.reads_bodies and len(text) > LINE_LIMIT:
            check_line_lengths(text, origin)
        record = None
        headed = False  # end_headers called
        if route != "lark":
            g = Game(text, origin)
            try:
                entries, pos, line = fast_route.lex_header(text)
                read_header(g, entries)
                headed = True
            except fast_route.Decline:
                pass
            except NotationError:
                if not v.reads_bodies:  # the tags alone are read: their error is the answer
                    raise
            if headed:
                if v.end_headers(header_of(g, index)) is SKIP:
                    return v.result()
                record = fast_route.read_body(g, pos, line)
        if record is None:
            if route == "fast":
                raise RouteDeclined("the fast route does not read this game")
            if not v.reads_bodies and len(text) > LINE_LIMIT:
                check_line_lengths(text, origin)
            record = lark_route.read(text, origin)
            if not headed and v.end_headers(_header_of_record(record, origin, index)) is SKIP:
                return v.result()
        v.end_game(record)
    except NotationError as exc:
        if v.reads_bodies:
            exc._recover = functools.partial(recovery.further_errors, exc, text, origin)
        v.handle_error(exc)
    return v.result()


def _header_of_record(r: Record, origin: Origin, index: int) -> Header:
    return Header.of(r, source=origin.source, index=index, line=origin.first_line, offset=origin.chars_before)


def _prelude_error(text: str, origin: Origin) -> NotationError | None:
    """The error of text before the first game, unless it is blank."""
    stripped = text.lstrip()
    if not stripped:
        return None
    pos = len(text) - len(stripped)
    return at_offset(NotationSyntaxError, f"expected a game: each game starts with a line [Format \"{FORMAT_VERSION}\"]",
                     text, pos, origin, expected=(f"[Format \"{FORMAT_VERSION}\"]",))


def _games(chunks: Iterable[tuple[str, int, int]], source: str, builder: Callable[[], Visitor[Any]],
           route: str) -> Iterator[Any]:
    """Each game chunk's result through a fresh ``builder()``, and the error of text before the first game."""
    index = 0
    for chunk, line0, off0 in chunks:
        origin = Origin(source, line0, off0)
        if not lexical.BOUNDARY_RE.match(chunk):
            error = _prelude_error(chunk, origin)
            if error is not None:
                v = builder()
                v.handle_error(error)
                yield v.result()
            continue
        index += 1
        yield _visit(builder(), chunk, origin, index, route)


def _looks_like_path(text: str) -> bool:
    return "\n" not in text and not text.lstrip("\ufeff \t").startswith("[") and os.path.isfile(text)


def _stream(handle: IO[str], source: str, builder: Callable[[], Visitor[T]], route: str) -> Iterator[T]:
    try:
        yield from _games(split_stream(handle), source, builder, route)
    except UnicodeDecodeError as exc:
        v = builder()
        v.handle_error(NotationSyntaxError(f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})",
                                           source=source, rule="encoding"))
        yield v.result()


def _inputs(arg: Any, source: str | None, builder: Callable[[], Visitor[T]], route: str) -> Iterator[T]:
    if isinstance(arg, os.PathLike) or (isinstance(arg, str) and _looks_like_path(arg)):
        name = os.fspath(arg)
        with open(name, encoding="utf-8", errors="strict", newline=None) as handle:
            yield from _stream(handle, source or name, builder, route)
        return
    if isinstance(arg, str):
        yield from _games(split_games(normalise(arg)), source or "<string>", builder, route)
        return
    yield from _stream(arg, source or str(getattr(arg, "name", "<stream>")), builder, route)


def _builder(errors: str | None, builder: Callable[[], Visitor[Any]] | None, headers: bool) -> Callable[[], Any]:
    if builder is None:
        return builder_for("collect" if errors is None else errors, headers)
    if errors is not None:
        raise ValueError("pass errors= or builder=, not both: the error policy is the builder's")
    return builder


def read_games(
    path_or_file_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None, errors: str | None = None,
    builder: Callable[[], Visitor[Any]] | None = None, route: str = "auto",
) -> Iterator[Any]:
    """Yield each game of a file or text in order: by default a :class:`Record`, or the :class:`NotationError`
    of a broken game (reading then goes on at the next ``[Format`` line).

    The argument is a path (:class:`os.PathLike`, or a one-line ``str`` naming an existing file), an open
    text file (read lazily: one game in memory at a time), or the text itself. ``source`` names the input in
    error messages (default: the path, the file's ``name``, or ``"<string>"``).

    ``builder`` makes one :class:`~.visitors.Visitor` per game (a visitor class, or any callable) whose
    ``result()`` is yielded: :class:`~.visitors.RecordBuilder` by default. ``errors`` picks the error policy of
    the default builders instead: ``"collect"`` (the default) yields the error of a broken game and goes on;
    ``"raise"`` raises it, after the games before it have been yielded. ``route`` is one of :data:`ROUTES`.
    Raises :class:`ValueError` at once for another policy or route, or both ``errors`` and ``builder``;
    :class:`OSError` when a path cannot be opened; with ``"collect"`` never raises for the content.
    """
    make = _builder(errors, builder, headers=False)
    _check_route(route)
    return _inputs(path_or_file_or_text, source, make, route)


def read_headers(
    path_or_file_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None, errors: str | None = None
) -> Iterator[Header | NotationError]:
    """Yield the :class:`Header` of each game of a file or text, reading only its tag section: for listing
    and indexing, several times faster than :func:`read_games`. Arguments as :func:`read_games`; this is
    ``read_games`` with :class:`~.visitors.HeadersBuilder` (or its strict kind for ``errors="raise"``).

    A header equals the header fields of the Record that :func:`read_games` reads for the same game. The body
    is not read, so a game whose tags are valid gives its header even if its body is broken; a broken tag
    section gives the error that reading the whole game reports for it.
    """
    make = _builder(errors, None, headers=True)
    return _inputs(path_or_file_or_text, source, make, "auto")


def parse(text: str, *, source: str = "<string>", route: str = "auto") -> Record:
    """The one game in ``text`` as a :class:`Record` (spans set, names in printed form).

    Raises :class:`NotationError` (a subclass saying which check failed) if the text is not exactly one
    valid 7WN game. Never raises anything else for any ``str`` (with ``route="fast"``, :class:`RouteDeclined`
    for a game the fast route does not read). Cost: linear in the text.
    """
    _check_route(route)
    text = normalise(text)
    record: Record | None = None
    for chunk, line0, off0 in split_games(text):
        origin = Origin(source, line0, off0)
        if not lexical.BOUNDARY_RE.match(chunk):
            error = _prelude_error(chunk, origin)
            if error is not None:
                raise error
        elif record is not None:
            raise at_offset(StructureError, "a second game: parse() reads one game (use read_games or parse_many)",
                            text, off0, Origin(source), rule="games")
        else:
            record = _visit(StrictRecordBuilder(), chunk, origin, 1, route)  # type: ignore[assignment]
    if record is None:
        raise NotationSyntaxError(f"no game: a game starts with a line [Format \"{FORMAT_VERSION}\"]", source=source,
                                  expected=(f"[Format \"{FORMAT_VERSION}\"]",))
    return record


def parse_many(text: str, *, source: str = "<string>", route: str = "auto") -> list[Record]:
    """Every game in ``text``, in order. Raises the first :class:`NotationError` met (strict policy)."""
    _check_route(route)
    records: list[Record] = list(_games(split_games(normalise(text)), source, StrictRecordBuilder, route))
    return records


# Names the benchmarks reach for (benchmarks/phases.py, bench_parse.py): the Lark parser, the Lark route alone,
# the normalisation and the fast route's piece cache.
_parser = lark_route.parser
_normalise = normalise
_PIECES = fast_route.PIECES


def _lark_game(text: str, source: str = "<string>", line0: int = 0, off0: int = 0) -> Record:
    """The Lark route alone on one game ``text`` (ending with a line end), ``line0`` lines and ``off0`` characters
    into its input: :func:`.lark_route.read` with the place as the benchmarks pass it."""
    return lark_route.read(text, Origin(source, line0, off0))
