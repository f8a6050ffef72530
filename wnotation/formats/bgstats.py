"""A finished game as a BG Stats play, so that games recorded here reach the app many players keep statistics in.

BG Stats documents one way for another program to hand it a play, its "push play" link
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):
``https://app.bgstatsapp.com/createPlay.html?data=<data>``, where ``<data>`` is URL-encoded JSON with the members
``sourceName``, ``sourcePlayId``, ``playDate`` (``YYYY-MM-DD HH:MM:SS``), ``location``, ``comments``, ``game``
(``name``, ``highestWins``, ``noPoints``, ``sourceGameId``, optionally ``bggId``) and ``players`` (``name``,
``score``, ``rank``, ``winner``, ``startPlayer``, ``role``, ``sourcePlayerId``). Opening the link on a phone with
the app shows its import dialog, where the game and players are matched once. Only documented members are
written. Not done here: the BGG id (the app matches the game by name when it is left out), the play's duration.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.parse
from typing import Any

from ..errors import WnotationError
from ..model.record import Record
from ..model.vocabulary import seat_key

__all__ = ["GAME_NAME", "PUSH_URL", "BGStatsError", "play_data", "push_url"]

#: The game's name as BG Stats (and BoardGameGeek) list it: what the app matches on.
GAME_NAME = "7 Wonders (Second Edition)"
PUSH_URL = "https://app.bgstatsapp.com/createPlay.html?data="
#: The time of day written when the record has no ``[Time "HH:MM:SS"]`` tag: noon, so that a time-zone shift in
#: the app cannot move the play to another day.
NOON = "12:00:00"


class BGStatsError(WnotationError, ValueError):
    """A record that cannot be a BG Stats play (no date, or an unfinished game): the message says what is missing."""


def play_data(record: Record, sheet: Any) -> dict[str, Any]:
    """The BG Stats play of ``record`` whose final score sheet is ``sheet`` (``Replay.scores``): players in seat
    order with their total, rank (shared on a tie, R-WIN) and whether they won, the Wonder side as their role.
    ``sourcePlayId`` is derived from the roster, date and scores, so the same game gives the same id. Raises
    :class:`BGStatsError` when the date is unknown or only partly known, or ``sheet`` is ``None``."""
    if sheet is None:
        raise BGStatsError("the game is not finished: BG Stats takes the final scores")
    date = record.date
    if date is None or "?" in date:
        raise BGStatsError(f"the record's date is {'unknown' if date is None else date}: BG Stats needs the day "
                           "of the play (set the Date tag)")
    time = record.tag("Time") or NOON
    if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d:[0-5]\d", time):
        raise BGStatsError(f"the Time tag {time!r} is not HH:MM:SS")
    players = []
    for seat, line in zip(record.seats, sheet.lines):
        players.append({
            "name": seat.name,
            "score": line.total,
            "rank": line.rank,
            "winner": line.rank == 1,
            "startPlayer": False,  # 7 Wonders has no first player: everybody plays at once
            "role": f"{seat.wonder} {seat.side}",
            "sourcePlayerId": seat_key(seat.name),
        })
    fingerprint = json.dumps([date, [(s.name, s.wonder, s.side) for s in record.seats],
                              [(ln.total, ln.coins) for ln in sheet.lines]], ensure_ascii=False)
    data: dict[str, Any] = {
        "sourceName": "wnotation",
        "sourcePlayId": hashlib.sha256(fingerprint.encode("utf-8")).hexdigest()[:16],
        "playDate": f"{date.replace('.', '-')} {time}",
        "game": {"name": GAME_NAME, "highestWins": True, "noPoints": False, "sourceGameId": "7wonders-2e"},
        "players": players,
    }
    if record.tag("Site"):
        data["location"] = record.tag("Site")
    if record.tag("Event"):
        data["comments"] = record.tag("Event")
    return data


def push_url(data: dict[str, Any]) -> str:
    """The link that opens BG Stats' import dialog on ``data`` (compact JSON, URL-encoded)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return PUSH_URL + urllib.parse.quote(text, safe="")
