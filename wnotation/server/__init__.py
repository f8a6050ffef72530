"""The club server (``wnotation serve``, the ``[server]`` extra): the club's games in one SQLite file, browsed,
uploaded, downloaded and recorded from a phone over HTTP on the local network.

:mod:`.store` keeps each game's canonical 7WN text (the source of truth) and the club key, and imports only the
standard library; :mod:`.upload` checks an uploaded file with the library's reader and engine; :mod:`.keys`
hashes the key and makes session and CSRF tokens; :mod:`.recording` drives the recorder's session (turn by turn
or a score pad) for a game recorded from a phone; :mod:`.live` pushes each answer to the watch pages' event
streams; :mod:`.app` is the Starlette application and its pages. Not here yet: keyed reading, the Parquet archive
and the stats pages.
"""

from __future__ import annotations

__all__ = ["STARLETTE_MISSING", "starlette_available"]

#: What ``wnotation serve`` says when the extra is not installed.
STARLETTE_MISSING = ("the club server needs starlette, uvicorn and python-multipart, which the core install leaves "
                     "out: pip install 'wnotation[server]'")


def starlette_available() -> bool:
    """True when the server's dependencies can be imported."""
    from importlib.util import find_spec

    return all(find_spec(name) is not None for name in ("starlette", "uvicorn", "python_multipart"))
