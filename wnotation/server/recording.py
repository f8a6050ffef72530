"""Games recorded at the table over HTTP: the recorder's own :class:`~wnotation.recorder.session.Session`
(turn by turn) or :class:`~wnotation.recorder.scores.PadSession` (a score pad), one per game, driven by the
answers typed on a phone.

The database keeps a recording as its kind, its header and the list of every answer typed, each committed before
the page answers; the session is the replay of those answers (both sessions are deterministic), so a restarted
server or a closed tab resumes exactly where it stopped. Live sessions are kept in memory, one lock each (a session
is not thread-safe). When the record is complete it is stored as a game, checked like an upload, and every
watcher's stream is told (:mod:`.live`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import cast

from ..errors import InputError
from ..model.record import Expansion, Record, Seat, Tag
from ..recorder.scores import PadSession
from ..recorder.session import Reply, Session
from .live import Feed
from .store import Store

#: The most answers one recording may take (a 7-player game needs a few hundred, undos included).
MAX_ANSWERS = 5000
#: The longest answer (characters).
MAX_ANSWER_CHARS = 500
#: The kinds of recording: the game turn by turn, or its score pad only.
TURNS, PAD = "turns", "pad"


class RecordingError(InputError, ValueError):
    """A roster or an answer that cannot be taken: the message says why."""


def make_header(seats: list[tuple[str, str, str]], date: str, event: str,
                expansions: tuple[str, ...] = ()) -> Record:
    """A new game's record without turns: ``seats`` as ``(name, Wonder, side)`` in clockwise order, the Wonder
    and side as the recorder reads them (``bab``, ``Giza``, ``A``); ``date`` (empty: today), ``event``, the
    ``expansions`` played (a score pad's). Raises :class:`RecordingError`."""
    from pydantic import ValidationError

    from ..model.catalog import CatalogError
    from ..recorder.header import HeaderError, date_of, side_of, today, wonder_of

    try:
        roster = tuple(Seat(name=name, wonder=wonder_of(wonder), side=side_of(side or "day"))
                       for name, wonder, side in seats)
        tags = (Tag(name="Event", value=event),) if event else ()
        return Record(date=date_of(date) if date else today(), seats=roster, tags=tags,
                      expansions=cast("tuple[Expansion, ...]", expansions))  # checked by the model
    except (CatalogError, HeaderError) as exc:
        raise RecordingError(str(exc)) from None
    except ValidationError as exc:
        raise RecordingError("; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())) from None


class PadRecording:
    """A score pad filled in over HTTP: the recorder's pad session, and the CLI's last Enter (an empty answer
    once every row is in) as the answer that stores it, so that the last row can still be re-entered."""

    def __init__(self, header: Record) -> None:
        self.pad = PadSession(header)
        self.done = False

    @property
    def header(self) -> Record:
        return self.pad.header

    def filled_in(self) -> bool:
        """Every row is in and no answer waits for its yes: an empty answer now stores the pad."""
        return self.pad.question() is None and self.pad.confirm is None

    def answer(self, typed: str) -> Reply:
        """Take ``typed``; accepted when it changed the pad (a row, a yes, an undo, the last Enter)."""
        if self.filled_in() and not typed.strip():
            self.done = True
            return Reply(True)
        before = (tuple(self.pad.answered), self.pad.confirm)
        lines = self.pad.answer(typed)
        return Reply((tuple(self.pad.answered), self.pad.confirm) != before, lines)

    def text(self) -> str:
        from ..notation import write

        return write(self.pad.record)


@dataclass(slots=True)
class Live:
    """A recording's session in memory (turn by turn or a score pad), the lines of its last answer, its lock, and
    the watch page's last rendering (its answers count and fragment)."""

    session: Session | PadRecording
    answers: int
    game: int | None
    lines: tuple[str, ...] = ()
    lock: threading.Lock = field(default_factory=threading.Lock)
    shown: tuple[int, str] | None = None


def _complete(session: Session | PadRecording) -> bool:
    if isinstance(session, PadRecording):
        return session.done
    return session.question() is None and bool(session.record.results)


class Recordings:
    """The live sessions of a store's recordings, each rebuilt from its answers on first use."""

    def __init__(self, store: Store, feed: Feed | None = None) -> None:
        self.store = store
        self.feed = feed if feed is not None else Feed()
        self._live: dict[int, Live] = {}
        self._lock = threading.Lock()

    def start(self, header: Record, kind: str = TURNS) -> int:
        """A new recording of the game ``header`` (``kind``: :data:`TURNS` or :data:`PAD`): its id."""
        from ..notation import write

        if kind not in (TURNS, PAD):
            raise RecordingError(f"no such kind of recording: {kind}")
        if kind == TURNS and header.expansions:
            raise RecordingError("a game with expansions is recorded as a score pad: turn by turn covers the "
                                 "base game only")
        return self.store.add_recording(write(header), kind)

    def live(self, recording_id: int) -> Live | None:
        """The recording's live session (rebuilt from the database when the server has just started), or
        ``None`` for no such recording."""
        with self._lock:
            found = self._live.get(recording_id)
            if found is not None:
                return found
            kept = self.store.recording(recording_id)
            if kept is None:
                return None
            from ..notation import parse

            header, answers, game = kept
            record = parse(header)
            pad = self.store.recording_kind(recording_id) == PAD
            session: Session | PadRecording = PadRecording(record) if pad else Session(record)
            lines: tuple[str, ...] = ()
            for typed in answers:
                lines = session.answer(typed).lines
            found = Live(session, len(answers), game, lines)
            if game is None and _complete(session):
                found.game = self._finish(recording_id, session)  # complete, but stopped before it was stored
            self._live[recording_id] = found
            return found

    def answer(self, recording_id: int, live: Live, typed: str) -> Reply:
        """Take ``typed`` (persisted first), store the game once its record is complete, and wake the
        watchers."""
        if len(typed) > MAX_ANSWER_CHARS:
            raise RecordingError(f"an answer may have at most {MAX_ANSWER_CHARS} characters")
        if "\x00" in typed:
            raise RecordingError("an answer may not hold a NUL character")
        with live.lock:
            if live.game is not None:
                raise RecordingError("this game is recorded already")
            if live.answers >= MAX_ANSWERS:
                raise RecordingError(f"a recording may take at most {MAX_ANSWERS} answers")
            self.store.add_answer(recording_id, typed)
            live.answers += 1
            reply = live.session.answer(typed)
            live.lines = reply.lines
            if _complete(live.session):
                live.game = self._finish(recording_id, live.session)
        self.feed.publish(recording_id)
        return reply

    def _finish(self, recording_id: int, session: Session | PadRecording) -> int:
        from .upload import check_upload

        checked = check_upload(session.text(), f"recording {recording_id}")
        game = checked.games[0].game
        assert game is not None, "a session's record always reads back"
        game_id, _ = self.store.add_game(game)
        self.store.finish_recording(recording_id, game_id)
        return game_id
