"""Visitors, as python-chess has them: the reader calls a builder's hooks for each game in file order, and the
builder decides what comes out and what an error does.

``read_games(source, builder=RecordBuilder)`` yields each game's ``builder().result()``; ``read_headers`` is the
same reader with :class:`HeadersBuilder`, whose :meth:`~Visitor.end_headers` returns :data:`SKIP` so no body is
read. The error policy is the builder's: a collecting builder makes the error its result and reading goes on at
the next game, a raising one raises it (``errors="collect"`` / ``"raise"`` pick one of the two kinds below).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar, Generic, TypeVar

from ...model.record import Record
from ..errors import NotationError
from .header import Header

__all__ = ["SKIP", "Skip", "Visitor", "RecordBuilder", "StrictRecordBuilder", "HeadersBuilder",
           "StrictHeadersBuilder", "ERROR_POLICIES", "builder_for"]

T = TypeVar("T")

ERROR_POLICIES = ("collect", "raise")


class Skip:
    """The type of :data:`SKIP`."""

    _instance: ClassVar[Skip | None] = None

    def __new__(cls) -> Skip:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "SKIP"


#: Returned by :meth:`Visitor.end_headers`: the game's body is not read (nor checked), ``end_game`` not called.
SKIP = Skip()


class Visitor(ABC, Generic[T]):
    """The hooks the reader calls for one game, in this order: :meth:`begin_game`, :meth:`end_headers` with the
    game's tags, :meth:`end_game` with its Record, then :meth:`result` gives what the reader yields. A broken
    game gets :meth:`handle_error` instead of the hooks after the problem; so does text before the first game
    or an input that is not UTF-8 (without ``begin_game``). A reader makes one visitor per game.

    ``reads_bodies`` false says that :meth:`end_headers` always skips: the reader then checks only the tag
    section (a broken body goes unnoticed), else it reports the error of the whole game, as ``read_games`` does.
    """

    reads_bodies: ClassVar[bool] = True

    def begin_game(self, source: str, index: int, line: int, offset: int) -> None:
        """A game starts: ``index`` its place in its input (1-based, broken games counted), ``line`` and
        ``offset`` where its ``[Format`` line is (1-based line, 0-based offset)."""

    def end_headers(self, header: Header) -> Skip | None:
        """The game's tags are read and valid; return :data:`SKIP` not to read its body."""
        return None

    def end_game(self, record: Record) -> None:
        """The whole game is read and valid."""

    @abstractmethod
    def handle_error(self, error: NotationError) -> None:
        """The game (or the text before the first game) cannot be read: raise ``error``, or keep it."""

    @abstractmethod
    def result(self) -> T:
        """What the reader yields for this game."""


class RecordBuilder(Visitor["Record | NotationError"]):
    """Each game's :class:`Record`, or the :class:`NotationError` of a broken game (``errors="collect"``)."""

    def __init__(self) -> None:
        self.item: Record | NotationError | None = None

    def end_game(self, record: Record) -> None:
        self.item = record

    def handle_error(self, error: NotationError) -> None:
        self.item = error

    def result(self) -> Record | NotationError:
        assert self.item is not None, "result() before the game was read"
        return self.item


class StrictRecordBuilder(RecordBuilder):
    """Each game's :class:`Record`; the error of a broken game is raised (``errors="raise"``)."""

    def handle_error(self, error: NotationError) -> None:
        raise error


class HeadersBuilder(Visitor["Header | NotationError"]):
    """Each game's :class:`Header` (its body is skipped), or the error of a broken tag section."""

    reads_bodies = False

    def __init__(self) -> None:
        self.item: Header | NotationError | None = None

    def end_headers(self, header: Header) -> Skip:
        self.item = header
        return SKIP

    def end_game(self, record: Record) -> None:
        raise AssertionError("a headers builder skips every body")

    def handle_error(self, error: NotationError) -> None:
        self.item = error

    def result(self) -> Header | NotationError:
        assert self.item is not None, "result() before the game was read"
        return self.item


class StrictHeadersBuilder(HeadersBuilder):
    """:class:`HeadersBuilder` that raises the error of a broken tag section."""

    def handle_error(self, error: NotationError) -> None:
        raise error


def builder_for(errors: str, headers: bool = False) -> type[Visitor]:  # type: ignore[type-arg]
    """The builder of records (or headers) with error policy ``errors``; :class:`ValueError` for another."""
    if errors not in ERROR_POLICIES:
        raise ValueError(f"errors={errors!r}: expected one of {', '.join(map(repr, ERROR_POLICIES))}")
    if headers:
        return StrictHeadersBuilder if errors == "raise" else HeadersBuilder
    return StrictRecordBuilder if errors == "raise" else RecordBuilder
