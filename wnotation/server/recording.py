"""Games recorded at the table over HTTP: the recorder's own :class:`~wnotation.recorder.session.Session`,
one per game, driven by the answers typed on a phone.

The database keeps a recording as its header and the list of every answer typed, each committed before the page
answers; the session is the replay of those answers (the session is deterministic), so a restarted server or a
closed tab resumes exactly where it stopped. Live sessions are kept in memory, one lock each (a session is not
thread-safe). When the record is complete it is stored as a game, checked like an upload.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from ..errors import InputError
from ..model.record import Record, Seat, Tag
from ..recorder.session import Reply, Session
from .store import Store

#: The most answers one recording may take (a 7-player game needs a few hundred, undos included).
MAX_ANSWERS = 5000
#: The longest answer (characters).
MAX_ANSWER_CHARS = 500


class RecordingError(InputError, ValueError):
    """A roster or an answer that cannot be taken: the message says why."""


def make_header(seats: list[tuple[str, str, str]], date: str, event: str) -> Record:
    """A new game's record without turns: ``seats`` as ``(name, Wonder, side)`` in clockwise order, the Wonder
    and side as the recorder reads them (``bab``, ``Giza``, ``A``); ``date`` (empty: today), ``event``. Raises
    :class:`RecordingError`."""
    from pydantic import ValidationError

    from ..model.catalog import CatalogError
    from ..recorder.header import HeaderError, date_of, side_of, today, wonder_of

    try:
        roster = tuple(Seat(name=name, wonder=wonder_of(wonder), side=side_of(side or "day"))
                       for name, wonder, side in seats)
        tags = (Tag(name="Event", value=event),) if event else ()
        return Record(date=date_of(date) if date else today(), seats=roster, tags=tags)
    except (CatalogError, HeaderError) as exc:
        raise RecordingError(str(exc)) from None
    except ValidationError as exc:
        raise RecordingError("; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())) from None


@dataclass(slots=True)
class Live:
    """A recording's session in memory, the lines of its last answer, and its lock."""

    session: Session
    answers: int
    game: int | None
    lines: tuple[str, ...] = ()
    lock: threading.Lock = field(default_factory=threading.Lock)


class Recordings:
    """The live sessions of a store's recordings, each rebuilt from its answers on first use."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._live: dict[int, Live] = {}
        self._lock = threading.Lock()

    def start(self, header: Record) -> int:
        """A new recording of the game ``header``: its id."""
        from ..notation import write

        return self.store.add_recording(write(header))

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
            session = Session(parse(header))
            lines: tuple[str, ...] = ()
            for typed in answers:
                lines = session.answer(typed).lines
            found = Live(session, len(answers), game, lines)
            if game is None and session.question() is None and session.record.results:
                found.game = self._finish(recording_id, session)  # complete, but stopped before it was stored
            self._live[recording_id] = found
            return found

    def answer(self, recording_id: int, live: Live, typed: str) -> Reply:
        """Take ``typed`` (persisted first) and store the game once its record is complete."""
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
            if live.session.question() is None and live.session.record.results:
                live.game = self._finish(recording_id, live.session)
            return reply

    def _finish(self, recording_id: int, session: Session) -> int:
        from .upload import check_upload

        checked = check_upload(session.text(), f"recording {recording_id}")
        game = checked.games[0].game
        assert game is not None, "a session's record always reads back"
        game_id, _ = self.store.add_game(game)
        self.store.finish_recording(recording_id, game_id)
        return game_id
