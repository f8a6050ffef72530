"""Exporters: the one walk over a Record that every output format implements.

:func:`export` calls an :class:`Exporter`'s hooks in game order: :meth:`~Exporter.begin_game` with the Record (its
header: tags, seats, guilds, seed, deals, the game's annotation), :meth:`~Exporter.turn` for each turn,
:meth:`~Exporter.result` for each stated result, then :meth:`~Exporter.end_game` gives the output. Canonical text
(:class:`~wnotation.notation.writer.TextExporter`) and JSON data (:class:`~wnotation.notation.jsonio.JsonExporter`)
implement it; a new format is one module with one exporter class and a test. Exporters read Records only: a
front end that needs the engine (positions, scores: the viewer, the archive rows, the score sheet, the BG Stats
play) reads the engine's Replay instead and is not an exporter.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from ..model.record import Record, SeatResult, Turn

try:  # mypyc reads the decorator (and applies none at run time); pure Python needs no mypy_extensions
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - mypy_extensions comes with mypy, which the tests install

    def mypyc_attr(*_attrs: Any, **_kwattrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls

__all__ = ["Exporter", "export", "export_games"]

T = TypeVar("T")


@mypyc_attr(allow_interpreted_subclasses=True)
class Exporter(ABC, Generic[T]):
    """One game's output, built hook by hook (one exporter per game). A hook raises :class:`ValueError` for a
    Record its format cannot express. Compiled in the wheel (the canonical writer's :class:`TextExporter` is), it
    allows interpreted subclasses (:class:`~wnotation.notation.jsonio.JsonExporter`, a new format's); compiled, a
    class lacking a hook is made all the same (mypyc does not enforce ``abstractmethod``) and the hook raises
    :class:`NotImplementedError`."""

    @abstractmethod
    def begin_game(self, record: Record) -> None:
        """The game starts: everything but its turns and results (read them from ``record`` if needed)."""
        raise NotImplementedError

    @abstractmethod
    def turn(self, turn: Turn) -> None:
        """The next turn, in game order."""
        raise NotImplementedError

    @abstractmethod
    def result(self, result: SeatResult) -> None:
        """The next stated result, in the Record's order."""
        raise NotImplementedError

    @abstractmethod
    def end_game(self) -> T:
        """The game is over: its output."""
        raise NotImplementedError


def export(record: Record, exporter: Exporter[T]) -> T:
    """Walk ``record`` through ``exporter``'s hooks and return its output. Raises what the hooks raise."""
    exporter.begin_game(record)
    for turn in record.turns:
        exporter.turn(turn)
    for result in record.results:
        exporter.result(result)
    return exporter.end_game()


def export_games(records: Iterable[Record], make: Callable[[], Exporter[T]]) -> Iterator[T]:
    """The output of each Record through a fresh ``make()`` (an exporter class, or any callable), lazily."""
    for record in records:
        yield export(record, make())
