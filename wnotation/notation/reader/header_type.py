"""The :class:`Header` that ``read_headers`` gives for a game, in a module of its own so that it stays a Python
dataclass while :mod:`.header`, which reads tag sections, is compiled by mypyc: compiled, it becomes a native class
that cannot be built (its dataclass ``__init__`` finds the ``HEADER_FIELDS`` class attribute read-only).
``header.Header`` re-exports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ...model.record import Deal, GameHeader, Seat, Seed, Span, Tag
from ..tags import FIELDS

__all__ = ["Header"]


@dataclass(frozen=True)
class Header:
    """The tag section of one game, as :func:`~wnotation.notation.read_headers` reads it without the body.

    ``index`` is the game's place in its input (1-based, counting broken games too), ``line`` and ``offset``
    where its ``[Format`` line starts (1-based line, 0-based offset). The other fields are those of the
    :class:`Record` the full reader gives for the game, equal to them: ``format``, ``edition``, ``date``
    (``None`` when unknown), ``expansions``, ``seats``, free ``tags`` in file order, ``guilds``, ``seed``, ``deals`` and ``span``.
    Both it and a Record are a :class:`~wnotation.model.record.GameHeader`; :meth:`of` builds one, from either.
    """

    source: str
    index: int
    line: int
    offset: int
    format: str
    edition: str
    date: str | None
    expansions: tuple[str, ...]
    seats: tuple[Seat, ...]
    tags: tuple[Tag, ...]
    guilds: tuple[str, ...] | None
    seed: Seed | None
    deals: tuple[Deal, ...]
    span: Span | None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def event(self) -> str | None:
        """The ``Event`` tag's value, or ``None``."""
        return self.tag("Event")

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first free tag called ``name`` (case-sensitive), as :meth:`Record.tag`."""
        return next((t.value for t in self.tags if t.name == name), default)

    HEADER_FIELDS: ClassVar[tuple[str, ...]] = FIELDS  # the tag table's fields, in its order

    @classmethod
    def of(cls, fields: Mapping[str, Any] | GameHeader, *, source: str, index: int, line: int,
           offset: int) -> Header:
        """The header of the game at ``line``/``offset`` of ``source`` whose header fields (the tag table's and
        ``span``) are ``fields``: the reader's decoded fields by name, or a :class:`Record` (any
        :class:`~wnotation.model.record.GameHeader`)."""
        names = (*FIELDS, "span")
        values = {n: fields[n] for n in names} if isinstance(fields, Mapping) else \
            {n: getattr(fields, n) for n in names}
        return cls(source=source, index=index, line=line, offset=offset, **values)
