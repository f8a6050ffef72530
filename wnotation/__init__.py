"""wnotation: the 7WN notation for games of 7 Wonders (2nd edition) and the engine that replays it.

The package's front door, in the order data flows: :func:`parse` / :func:`read_games` (7WN text → :class:`Record`,
or the :class:`NotationError` of a broken game; ``builder=`` takes a :class:`Visitor` such as
:class:`RecordBuilder`, :class:`StrictRecordBuilder`, :class:`HeadersBuilder`), :func:`read_headers` (the tag
sections only), :func:`write` (Record → canonical text), :func:`replay` (Record → :class:`Replay`: positions,
findings, score sheet) and :func:`check` (text or file → diagnostics with file:line:column). Every module is
imported on first use (the classes through :pep:`562`), so ``import wnotation`` (and ``wnotation --version``) stays
fast.
"""

from __future__ import annotations

import os
from importlib import import_module
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, Iterable, Iterator, Literal, TypeVar, cast, overload

if TYPE_CHECKING:  # pragma: no cover
    from importlib.abc import Loader

    from .diagnostics import FileReport
    from .engine import Replay
    from .notation import (
        HeadersBuilder, RecordBuilder, StrictHeadersBuilder, StrictRecordBuilder, Visitor, read_headers,
    )
    from .errors import WnotationError
    from .notation.errors import NotationError
    from .model.record import Record

T = TypeVar("T")

__version__ = "0.1.0"

__all__ = ["HeadersBuilder", "NotationError", "WnotationError", "Record", "RecordBuilder", "Replay", "StrictHeadersBuilder",
           "StrictRecordBuilder", "Visitor", "__version__", "check", "parse", "read_games", "read_headers", "replay",
           "write", "write_games"]

#: What the package exports without importing it up front: name → the module that defines it.
_LAZY = {
    "NotationError": "wnotation.notation.errors",
    "WnotationError": "wnotation.errors",
    "Record": "wnotation.model.record",
    "Replay": "wnotation.engine",
    "read_headers": "wnotation.notation",
    "Visitor": "wnotation.notation",
    "RecordBuilder": "wnotation.notation",
    "StrictRecordBuilder": "wnotation.notation",
    "HeadersBuilder": "wnotation.notation",
    "StrictHeadersBuilder": "wnotation.notation",
}

def __getattr__(name: str) -> Any:
    """``wnotation.Record`` and the other names of ``_LAZY``, imported on first use (:pep:`562`)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'wnotation' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def parse(text: str, *, source: str = "<string>") -> Record:
    """The one game in ``text`` as a Record. Raises ``NotationError`` (``file:line:column``, a caret, the rule)
    if it is not exactly one valid 7WN game. See :func:`wnotation.notation.parse`."""
    from .notation import parse as _parse

    return _parse(text, source=source)


@overload
def read_games(path_or_file_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None,
               errors: Literal["collect"] | None = None, builder: None = None) -> Iterator[Record | NotationError]: ...
@overload
def read_games(path_or_file_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None,
               errors: Literal["raise"], builder: None = None) -> Iterator[Record]: ...
@overload
def read_games(path_or_file_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None,
               errors: None = None, builder: Callable[[], Visitor[T]]) -> Iterator[T]: ...
def read_games(path_or_file_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None,
               errors: Literal["collect", "raise"] | None = None,
               builder: Callable[[], Visitor[Any]] | None = None) -> Iterator[Any]:
    """Yield each game of a file, open file or text: a Record, or (``errors="collect"``, the default) the
    ``NotationError`` of a broken game, the next game still read; ``errors="raise"`` raises it instead. With
    ``builder`` (a :class:`Visitor` class or factory, one per game) each game yields its ``result()`` and the
    error policy is the builder's. See :func:`wnotation.notation.read_games`."""
    from .notation import read_games as _read_games

    return _read_games(path_or_file_or_text, source=source, errors=errors, builder=builder)


def write(record: Record) -> str:
    """The canonical 7WN text of ``record`` (ends with a newline). See :func:`wnotation.notation.write`."""
    from .notation import write as _write

    return _write(record)


def write_games(records: Iterable[Record]) -> str:
    """The canonical text of several games, separated by one empty line."""
    from .notation import write_games as _write_games

    return _write_games(records)


def replay(record: Record) -> Replay:
    """Replay ``record``: positions (``replay.position("II.3")``), findings (each with its rule ID and the source
    span of the action it concerns), and the score sheet of a complete game, expected results verified.
    See :func:`wnotation.engine.replay`."""
    from .engine import replay as _replay

    return _replay(record)


def check(path_or_text: str | os.PathLike[str] | IO[str], *, source: str | None = None,
          allow_empty: bool = False) -> FileReport:
    """Check every game of a file or text: read, replay, verify. Returns a report whose ``diagnostics`` render
    compiler-style (``game.7wn:12:5: error[R-TRADE]: …`` with the line and a caret); an input without any game
    is an error, a warning with ``allow_empty``. See :func:`wnotation.diagnostics.check`."""
    from .diagnostics import check as _check

    return _check(path_or_text, source=source, allow_empty=allow_empty)


#: Old import paths of the modules that moved into the layer packages (docs/internals.md, "What moved"): each
#: still imports, as the very module object of its new home, so ``from wnotation.record import Record`` and
#: ``import wnotation.catalog`` keep working and name the same classes.
MOVED = {
    "wnotation.record": "wnotation.model.record",
    "wnotation.vocabulary": "wnotation.model.vocabulary",
    "wnotation.catalog": "wnotation.model.catalog",
    "wnotation.deck": "wnotation.model.deck",
    "wnotation.position_string": "wnotation.model.position_string",
    "wnotation.position_checks": "wnotation.engine.position_rules",
    "wnotation.model.position_checks": "wnotation.engine.position_rules",
    "wnotation.canonical": "wnotation.formats.canonical",
    "wnotation.bgstats": "wnotation.formats.bgstats",
    "wnotation.render": "wnotation.formats.render",
    "wnotation.batch": "wnotation.diagnostics.batch",
    "wnotation.atomicfile": "wnotation.support.atomicfile",
    "wnotation.gcpolicy": "wnotation.support.gcpolicy",
    "wnotation.compiler_style": "wnotation.support.compiler_style",
}


class _MovedModules:
    """A meta-path finder for the old paths of :data:`MOVED`: it loads the new module and puts that same object
    in ``sys.modules`` under the old name too, so there is one module, never a second copy with its own classes."""

    def __init__(self) -> None:
        self._spec: Any = None

    @classmethod
    def find_spec(cls, name: str, path: object = None, target: object = None) -> Any:
        if name not in MOVED:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(name, cast("Loader", cls()))  # a loader by protocol; importlib.abc costs an import

    def create_module(self, spec: Any) -> Any:
        module = import_module(MOVED[spec.name])
        self._spec = module.__spec__
        return module

    def exec_module(self, module: Any) -> None:
        module.__spec__ = self._spec  # the import system stamped the old name's spec on the shared module


import sys as _sys  # noqa: E402

_sys.meta_path.append(_MovedModules)
