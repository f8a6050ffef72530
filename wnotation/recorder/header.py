"""The roster of a new record from what the user gives (``NAME:WONDER:SIDE`` per seat, an event, a date), for
``wnotation new`` and ``wnotation record``. Wonder names take every spelling the catalogue accepts (``Giza``,
``Rhodes``) or the beginning of only one (``bab``); sides ``day``/``night`` or ``A``/``B``. Validation is the
Record's own (R-SEAT, R-BOARD)."""

from __future__ import annotations

import datetime
import re
from typing import Literal, cast

from pydantic import ValidationError

from ..model.catalog import CatalogError, load
from ..errors import WnotationError
from ..model.record import Record, Seat, Tag

__all__ = ["HeaderError", "date_of", "make_header", "seat_of", "side_of", "today", "wonder_of"]

_DATE = re.compile(r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})")


class HeaderError(WnotationError, ValueError):
    """A roster that cannot be a record's: the message says which part and why."""


def today() -> str:
    """Today's date as a 7WN Date tag writes it (``2026.12.01``)."""
    return datetime.date.today().strftime("%Y.%m.%d")


def date_of(text: str) -> str:
    """``YYYY.MM.DD`` from ``2026.12.1``, ``2026-12-01`` or ``2026/12/01`` (a real date); ``today`` is today."""
    if text.strip().casefold() == "today":
        return today()
    m = _DATE.fullmatch(text.strip())
    if m is None:
        raise HeaderError(f"date {text!r}: write it YYYY.MM.DD (or today)")
    try:
        day = datetime.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError as exc:
        raise HeaderError(f"date {text!r}: {exc}") from None
    return day.strftime("%Y.%m.%d")


def side_of(text: str) -> Literal["day", "night"]:
    """``day`` or ``night`` from those words, their first letters, or the printed sides A and B."""
    side = {"a": "day", "b": "night", "d": "day", "n": "night"}.get(text.strip().casefold(), text.strip().casefold())
    if side not in ("day", "night"):
        raise HeaderError(f"side {text!r}: day or night (A or B)")
    return cast(Literal["day", "night"], side)


def seat_of(spec: str) -> Seat:
    """A seat from ``NAME:WONDER[:SIDE]`` (side day when left out)."""
    parts = [p.strip() for p in spec.split(":")]
    if len(parts) not in (2, 3) or not parts[0] or not parts[1]:
        raise HeaderError(f"seat {spec!r}: write NAME:WONDER:SIDE, e.g. Alice:Gizah:day")
    try:
        wonder = wonder_of(parts[1])
    except CatalogError as exc:
        raise HeaderError(f"seat {spec!r}: {exc}") from None
    return Seat(name=parts[0], wonder=wonder, side=side_of(parts[2]) if len(parts) == 3 else "day")


def wonder_of(typed: str) -> str:
    """The Wonder a typed name means: any spelling the catalogue accepts, or the beginning of only one of them
    (``bab`` is Babylon). Raises ``CatalogError`` with the catalogue's suggestion otherwise."""
    catalog = load()
    try:
        return catalog.wonder_name(typed)
    except CatalogError:
        from .choices import match  # the card prompts' matching (imported late: it brings the engine)

        spellings = {w.name: {w.name} for w in catalog.wonders}
        for name, others in catalog.wonder_spellings().items():
            spellings.setdefault(name, set()).update(others)
        found = {name for name, names in spellings.items() if typed.strip() and any(match(typed, n) for n in names)}
        if len(found) == 1:
            return found.pop()
        raise


def make_header(*, seats: list[str] | tuple[str, ...], event: str | None = None, date: str | None = None) -> Record:
    """A record with no turns: ``seats`` as ``NAME:WONDER:SIDE`` in clockwise order, the event tag, the date
    (today when ``None``). Raises :class:`HeaderError`."""
    roster = tuple(seat_of(s) for s in seats)
    tags = (Tag(name="Event", value=event),) if event else ()
    try:
        return Record(date=date_of(date) if date else today(), seats=roster, tags=tags)
    except ValidationError as exc:
        raise HeaderError("; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())) from None
