"""The analysis a record carries, for the viewer: its computed ``[%win]`` and ``[%mark]`` tags (spec/7wn.md §8.4)
read off the Record's annotations and shaped for the page's graph, estimate and log.

Only the main line's tags are read (a variation has no graph). A tag that does not read as §8.4 writes it (a
human can type ``[%win soon]``) is not drawn: its address is listed under ``unread``, so the page can say so.
A record without either tag gives ``None``, and the page is then the one it was before this module existed.
Non-goals: no estimate is computed here (see :mod:`wnotation.analysis`), and nothing here is HTML.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from ..analysis.marks import MARK_TAG, THRESHOLDS, WIN_TAG
from ..analysis.winchance import wilson
from ..model.record import Annotation, Record

#: The classes a ``[%mark]`` may name, worst first.
CLASSES = tuple(name for name, _ in THRESHOLDS)
#: A shared victory splits 1 among its winners, so a turn's chances sum to 1 up to the three decimals written.
_SUM_SLACK = 0.01


def _tag(annotation: Annotation, key: str) -> str | None:
    """The value of the last tag ``key`` (the one a reader of the record would believe), or ``None``."""
    found = None
    for name, value in annotation.tags:
        if name == key:
            found = value
    return found


def read_win(value: str, seats: int) -> tuple[tuple[float, ...], int | None] | None:
    """``[%win]``'s value as (each seat's chance, the playouts or ``None`` when unstated), or ``None`` when it is
    not one chance in 0..1 per seat summing to 1, then at most ``n=`` a positive count."""
    words = value.split()
    playouts = None
    if words and words[-1].startswith("n="):
        digits = words.pop()[2:]
        if not digits.isdigit() or int(digits) < 1:
            return None
        playouts = int(digits)
    if len(words) != seats:
        return None
    try:
        chances = tuple(float(w) for w in words)
    except ValueError:
        return None
    if not all(math.isfinite(c) and 0.0 <= c <= 1.0 for c in chances) or abs(sum(chances) - 1.0) > _SUM_SLACK:
        return None
    return chances, playouts


def read_mark(value: str) -> dict[str, Any] | None:
    """``[%mark]``'s value as ``{"class", "loss", "best"}`` (the loss as a positive share of win chance), or
    ``None`` when it is not a class of §8.4, a loss in -1..0, then the best alternative's play."""
    parts = value.split(None, 2)
    if len(parts) != 3 or parts[0] not in CLASSES:
        return None
    try:
        loss = -float(parts[1])
    except ValueError:
        return None
    if not (math.isfinite(loss) and 0.0 <= loss <= 1.0):
        return None
    return {"class": parts[0], "loss": loss, "best": parts[2]}


def _point(address: str, chances: tuple[float, ...], playouts: int | None) -> dict[str, Any]:
    """One estimate of the graph: each seat's chance with its 95 % Wilson interval when the playouts are known."""
    bounds = [wilson(c, playouts) if playouts else (c, c) for c in chances]
    return {"address": address, "chances": list(chances), "low": [round(lo, 4) for lo, _ in bounds],
            "high": [round(hi, 4) for _, hi in bounds], "playouts": playouts}


def win_data(record: Record, addresses: Collection[str]) -> dict[str, Any] | None:
    """The computed tags of ``record``'s main-line turns whose address is a position of its replay
    (``addresses``): ``points``, one per turn with a readable ``[%win]``, in turn order; ``marks``, one per action
    with a readable ``[%mark]`` (its seat, class, loss, best alternative); ``unread``, the addresses of tags that
    could not be read. ``None`` when the record carries neither tag, so its page is unchanged."""
    points: list[dict[str, Any]] = []
    marks: list[dict[str, Any]] = []
    unread: list[str] = []
    seen = False
    for turn in record.turns:
        address = turn.label
        win = _tag(turn.annotation, WIN_TAG)
        found = [(a.seat, m) for a in turn.actions if (m := _tag(a.annotation, MARK_TAG)) is not None]
        if win is None and not found:
            continue
        seen = True
        if address not in addresses:
            unread.append(address)
            continue
        if win is not None:
            read = read_win(win, record.players)
            if read is None:
                unread.append(address)
            else:
                points.append(_point(address, *read))
        for seat, value in found:
            mark = read_mark(value)
            if mark is None:
                unread.append(address)
            else:
                marks.append({"address": address, "seat": seat, **mark})
    if not seen:
        return None
    return {"points": points, "marks": marks, "unread": sorted(set(unread), key=unread.index)}


def with_wins(data: dict[str, Any], record: Record, addresses: Collection[str]) -> dict[str, Any]:
    """``data`` (a page's :func:`~.data.game_data`) with its ``wins`` (:func:`win_data`) when ``record`` has any.
    The tags drawn leave the main line's notes (a superseded earlier tag of the key with them), so that the
    commentary is what a person wrote and no figure is shown twice; a tag that does not read stays there, as the
    reader gave it, and the source pane keeps them all."""
    wins = win_data(record, addresses)
    if wins is None:
        return data
    data["wins"] = wins
    read = {p["address"] for p in wins["points"]}
    marked = {(m["address"], m["seat"]) for m in wins["marks"]}
    for position in data["positions"]:
        turn, address = position["played"], position["address"]
        if turn is None:
            continue
        if address in read:
            turn["note"]["tags"] = [t for t in turn["note"]["tags"] if t[0] != WIN_TAG]
        for action in turn["actions"]:
            if (address, action["seat"]) in marked:
                action["note"]["tags"] = [t for t in action["note"]["tags"] if t[0] != MARK_TAG]
    return data
