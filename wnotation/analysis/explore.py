"""What winners pick (issue 33, item 4): the opening explorer's table over an archive, by documented SQL.

From a hand (an Age, a turn, cards it holds; a Wonder side; what the seat took first in the Age): what was taken
from it, how often, and how the takers did (``sql/explore_moves.sql``); and each card's win rate when built from a
hand against when passed on (``sql/explore_cards.sql``). Both read the archive's ``hands`` table, so the archive
must be exported with ``--hands`` (7WN inputs are read with it). Every value is a bound parameter: card names are
turned into catalogue keys here, against the catalogue, and the SQL text comes from the package only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..archive.stats import Filters, Report, connect, prepare, query_text
from ..archive.store import ArchiveError
from ..model.catalog import load

__all__ = ["Question", "card_key", "explore", "wonder_name", "MOVES", "CARDS"]

#: The two queries, files of ``wnotation/archive/sql/``.
MOVES, CARDS = "explore_moves", "explore_cards"


@dataclass(frozen=True, slots=True)
class Question:
    """Which hands are looked at. ``age`` and ``turn`` pick the hands of the moves table (both needed there; the
    cards table takes every Age or turn left ``None``); ``hand`` and ``first`` are catalogue keys (``I:Loom``);
    ``players`` keeps games of that many seats only."""

    age: int | None = 1
    turn: int | None = 1
    hand: tuple[str, ...] = ()
    wonder: str | None = None
    side: str | None = None
    first: str | None = None
    players: int | None = None

    def parameters(self, sql: str) -> dict[str, Any]:
        """The named parameters ``sql`` uses, with their values (DuckDB refuses unused ones)."""
        values = {"age": self.age, "turn": self.turn, "hand": list(self.hand) or None, "wonder": self.wonder,
                  "side": self.side, "first": self.first}
        return {k: v for k, v in values.items() if f"${k}" in sql}


def card_key(name: str, age: int) -> str:
    """The catalogue key (``II:Loom``) of the card of Age ``age`` called ``name``, as the archive's ``card_key``
    columns hold it. Raises :class:`~wnotation.model.catalog.CatalogError`, with the nearest name, for a card that
    Age does not have."""
    return load().card(name, age).key


def wonder_name(name: str) -> str:
    """The catalogue's spelling of Wonder ``name`` (the archive's ``seats.wonder``); :class:`CatalogError` for
    an unknown Wonder."""
    return load().wonder(name, "day").name


def _has_hands(con: Any) -> bool:
    return bool(con.execute("SELECT count(*) FROM hands").fetchone()[0])


def _run(con: Any, name: str, question: Question) -> Report:
    sql = query_text(name)
    cur = con.execute(sql, question.parameters(sql))
    return Report(name, tuple(d[0] for d in cur.description), tuple(cur.fetchall()))


def explore(sources: Sequence[Any], moves: Question | None = Question(), cards: Question | None = None,
            progress: Callable[[int], None] | None = None) -> list[Report]:
    """The explorer's reports on the archive of ``sources`` (an archive directory, a DuckDB file, or 7WN inputs
    read with their hands; see :func:`~wnotation.archive.stats.connect`): the moves table of the hands ``moves``
    asks for, then the cards table of those ``cards`` asks for (each left out when ``None``; ``players`` is read
    from the first given). Raises :class:`ArchiveError` when the archive has no hands (exported without
    ``--hands``) or DuckDB is missing, ``ValueError`` for a moves question without an Age and a turn."""
    if moves is not None and (moves.age is None or moves.turn is None):
        raise ValueError("the moves table needs an Age and a turn")
    asked = [(name, q) for name, q in ((MOVES, moves), (CARDS, cards)) if q is not None]
    con = connect(sources, progress, hands=True)
    try:
        if not _has_hands(con):
            raise ArchiveError("this archive has no hands table rows: export it with --hands "
                               "(wnotation export SRC -o DIR --hands), or give the 7WN files themselves")
        prepare(con, Filters(players=asked[0][1].players if asked else None))
        return [_run(con, name, q) for name, q in asked]
    finally:
        con.close()
