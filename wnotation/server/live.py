"""Pushed updates of the games being recorded: the server-sent event streams of the watch pages.

An answer is stored from a worker thread; :meth:`Feed.publish` wakes, on the event loop, every stream watching that
recording, which then sends the page's new state once (a stream that missed several answers sends only the last
state). Streams are bounded: at most :data:`MAX_STREAMS` open at once (the next is refused with 503, and the page
falls back to reloading), a heartbeat comment every :data:`HEARTBEAT` seconds (so a phone gone away is noticed
at the next write), and :meth:`Feed.close` ends them all at once so that a server's shutdown never waits for
them. Standard library only: the Starlette endpoint is in :mod:`.app`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

#: The most event streams open at once (a club evening's watchers, with room to spare).
MAX_STREAMS = 64
#: Seconds between heartbeats of an idle stream.
HEARTBEAT = 15.0
#: Milliseconds a browser waits before reconnecting a stream that ended (a restarted server, say).
RETRY_MS = 3000


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a watch page shows of a recording: its version (the answers taken), the page's live part as
    escaped HTML, and the stored game once the record is complete."""

    version: int
    fragment: str
    game: int | None


class StreamsFull(Exception):
    """Every stream of :data:`MAX_STREAMS` is in use."""


class Feed:
    """The open streams of one server, by recording; every method but :meth:`publish` runs on the event loop."""

    def __init__(self, max_streams: int | None = None) -> None:
        self.max_streams = max_streams  # None: MAX_STREAMS
        self.closed = False
        self._waiting: dict[int, set[asyncio.Event]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def open_streams(self) -> int:
        return sum(len(events) for events in self._waiting.values())

    def publish(self, recording_id: int) -> None:
        """Wake the streams of ``recording_id`` (from any thread: the answer was stored by a worker)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, recording_id)

    def _wake(self, recording_id: int) -> None:
        for event in self._waiting.get(recording_id, ()):
            event.set()

    def close(self) -> None:
        """End every stream now and refuse new ones (the server is shutting down)."""
        self.closed = True
        for events in self._waiting.values():
            for event in events:
                event.set()

    def _join(self, recording_id: int) -> asyncio.Event:
        bound = MAX_STREAMS if self.max_streams is None else self.max_streams
        if self.closed or self.open_streams >= bound:
            raise StreamsFull
        self._loop = asyncio.get_running_loop()
        event = asyncio.Event()
        self._waiting.setdefault(recording_id, set()).add(event)
        return event

    def _leave(self, recording_id: int, event: asyncio.Event) -> None:
        events = self._waiting.get(recording_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self._waiting[recording_id]

    def stream(self, recording_id: int, since: int | None,
               snapshot: Callable[[], Awaitable[Snapshot]]) -> AsyncIterator[str]:
        """The event stream of ``recording_id`` for a page showing version ``since`` (``None``: send the state
        at once). Raises :class:`StreamsFull` before the response starts when no stream is left."""
        event = self._join(recording_id)
        return self._events(recording_id, since, snapshot, event)

    async def _events(self, recording_id: int, since: int | None, snapshot: Callable[[], Awaitable[Snapshot]],
                      event: asyncio.Event) -> AsyncIterator[str]:
        try:
            yield f"retry: {RETRY_MS}\n\n"
            while not self.closed:
                event.clear()  # before the snapshot: an answer stored after it wakes the wait below
                now = await snapshot()
                if now.version != since:
                    since = now.version
                    yield message(now.fragment, event_id=str(now.version))
                if now.game is not None:
                    yield message(f"/games/{now.game}", event="done")
                    return
                try:
                    await asyncio.wait_for(event.wait(), HEARTBEAT)
                except TimeoutError:
                    yield ": heartbeat\n\n"
        finally:
            self._leave(recording_id, event)


def message(data: str, *, event: str | None = None, event_id: str | None = None) -> str:
    """One server-sent event: each line of ``data`` its own ``data:`` field (the browser joins them with
    newlines); carriage returns, which would end a field early, become newlines."""
    lines = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    head = (f"event: {event}\n" if event else "") + (f"id: {event_id}\n" if event_id is not None else "")
    return head + "".join(f"data: {line}\n" for line in lines) + "\n"
