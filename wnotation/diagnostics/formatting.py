"""Formatting, verified as black verifies: the canonical text of every game, refused (:class:`FormatBug`) unless
it replays as before, reads back as the same games and formats to itself again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..errors import WnotationError
from ..notation.errors import NotationError
from ..model.record import Record

if TYPE_CHECKING:
    from ..engine import Replay

__all__ = ["FormatBug", "canonical_text"]


class FormatBug(WnotationError, RuntimeError):
    """The canonical text of a record does not read back as the same games, or does not format to itself: a bug
    in wnotation, never in the user's file."""


def canonical_text(text: str, source: str = "<string>", *, purchases: bool = False,
                   on_game: Callable[[], None] | None = None) -> str:
    """The canonical 7WN text of every game in ``text`` (spec section 10), verified like black verifies.

    With ``purchases=True`` (what ``wnotation fmt`` does unless ``--keep-purchases``) each game's purchases are
    first normalised by the rules engine (:func:`~wnotation.formats.canonical.canonical_purchases`, R-TRADE-MINIMAL: a
    purchase is stated exactly when more than one cheapest purchase exists or the stated one is not the engine's
    default). Without it (the default, the notation alone, no replay) the purchases stay as the record states
    them and the text is canonical only up to that normalisation.

    Verification: the normalised game replays to the same events, findings and scores as the game read; reading
    the result gives Records equal to the normalised ones; formatting it again (normalising included) gives the
    same text. Raises the first :class:`~wnotation.notation.NotationError` when a game does not read (nothing is
    formatted then), :class:`FormatBug` when the verification fails. An input without any game is returned as
    is. ``on_game`` is called once per game as it is read (normalised, with ``purchases``), for a progress bar.
    Cost: two parses and two writes of the text, and with ``purchases`` two replays per game.
    """
    from .. import notation

    records = []
    for item in notation.read_games(text, source=source):
        if isinstance(item, NotationError):
            raise item
        records.append(item)
        if on_game is not None and not purchases:
            on_game()
    if not records:
        return text
    replays: list[Replay | None] = [None] * len(records)
    if purchases:
        records, done = _normalised(records, on_game)
        replays = list(done)
    new = notation.write_games(records)
    try:
        again = notation.parse_many(new, source=f"{source} (canonical)")
    except NotationError as exc:
        raise FormatBug(f"the canonical text does not read back: {exc.message} at line {exc.line}") from None
    if len(again) != len(records):
        raise FormatBug(f"the canonical text reads back as {len(again)} games instead of {len(records)}")
    for k, (old, back) in enumerate(zip(records, again), start=1):
        if old != back:
            raise FormatBug(f"game {k} reads back from its canonical text as a different record")
    if purchases:
        from ..formats.canonical import purchase_changes

        for k, (back, played) in enumerate(zip(again, replays), start=1):
            # ``back`` equals the normalised record (checked above), so that record's replay is its replay
            if purchase_changes(back, played):
                raise FormatBug(f"game {k}: normalising its purchases again changes them")
    if notation.write_games(again) != new:
        raise FormatBug("formatting the canonical text again changes it")
    return new


def _normalised(records: list[Record], on_game: Callable[[], None] | None = None) -> tuple[list[Record], list[Replay]]:
    """Each record with canonical purchases, and the replay of each result (``on_game`` called after each);
    :class:`FormatBug` if a result does not replay exactly as its original (same events, findings and scores)."""
    from ..formats.canonical import canonical_purchases, same_replay
    from ..engine import replay

    out, replays = [], []
    for k, record in enumerate(records, start=1):
        played = replay(record)
        new = canonical_purchases(record, played)
        again = played if new is record else replay(new)
        if not same_replay(played, again):
            raise FormatBug(f"game {k}: normalising its purchases changes its replay")
        out.append(new)
        replays.append(again)
        if on_game is not None:
            on_game()
    return out, replays
