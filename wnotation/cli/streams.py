"""Standard output and error as the commands write to them: a write to a pipe whose reader has gone raises
:class:`~wnotation.cli.errors.BrokenPipe` (the command then ends as coreutils' writers end, by SIGPIPE), any other
failure on stdout an :class:`~wnotation.cli.errors.OutputError` (exit 2). The shell installs them around a run."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any, BinaryIO, TextIO

from .errors import EXIT_BROKEN_PIPE, BrokenPipe, OutputError


class Stream:
    """Standard output or error as the commands write to it: a failed write raises :class:`BrokenPipe` for a
    closed pipe and, on stdout, :class:`OutputError` otherwise (stderr has nowhere to report to, so its other
    failures are ignored). A stream that Python could not open (the descriptor was closed, ``>&-``) is
    ``None`` and fails on the first non-empty write. ``buffer`` is a :class:`Binary` over the stream's own, so
    that bytes written there (click writes some) fail the same way."""

    def __init__(self, stream: TextIO | None, name: str) -> None:
        self._stream, self._name = stream, name
        raw = getattr(stream, "buffer", None)
        self.buffer = Binary(raw, self) if raw is not None or stream is None else None

    def _failed(self, exc: OSError) -> None:
        if exc.errno == errno.EPIPE:
            raise BrokenPipe() from None
        if self._name == "stdout":
            reason = (exc.strerror or str(exc)).lower()
            raise OutputError(f"cannot write to standard output: {reason}") from None

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self._stream is None:
            if text:
                self._failed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._failed(exc)
            return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except OSError as exc:
                self._failed(exc)

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str:
        return getattr(self._stream, "errors", None) or "strict"

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


class Binary:
    """The binary buffer under a :class:`Stream`: writes and flushes fail as the stream's do. Text written to
    the stream before is flushed first, so that both reach the output in order."""

    def __init__(self, raw: BinaryIO | None, text: Stream) -> None:
        self._raw, self._text = raw, text

    def write(self, data: bytes) -> int:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"a bytes-like object is required, not {type(data).__name__}")
        if self._raw is None:
            if data:
                self._text._failed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
            return len(data)
        try:
            self._text.flush()
            return self._raw.write(data)
        except OSError as exc:
            self._text._failed(exc)
            return len(data)

    def flush(self) -> None:
        if self._raw is not None:
            try:
                self._raw.flush()
            except OSError as exc:
                self._text._failed(exc)

    def writable(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        if self._raw is None:
            raise AttributeError(name)
        return getattr(self._raw, name)


def silence(stream: Any) -> None:
    """Point the descriptor under ``stream`` at /dev/null, so that Python's flush at exit cannot fail on what it
    still holds (a traceback-like "Exception ignored" message and exit 120 otherwise)."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (AttributeError, OSError, ValueError):
        return
    os.dup2(null, fd)
    os.close(null)


def die_of_sigpipe() -> None:
    """End the process as coreutils' writers end on a closed pipe: killed by SIGPIPE, without a message."""
    import signal

    for stream in (sys.stdout, sys.stderr):
        silence(stream)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    sys.exit(EXIT_BROKEN_PIPE)


def is_terminal() -> bool:
    """Rich tables for a person at a terminal, plain text for pipes and files."""
    return sys.stdout.isatty()


def stderr_is_terminal() -> bool:
    """Whether a progress bar may be drawn on stderr."""
    return sys.stderr.isatty()
