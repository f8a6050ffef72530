"""``wnotation serve``: the club server on the local network (the ``[server]`` extra: Starlette and uvicorn)."""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

import click

from .errors import UserError

SERVE_EPILOG = """\b
Serves the club's games from one folder (--data, created at first start with
its SQLite database): the game list, each game in the viewer, download as 7WN,
and, with the club key, upload of .7wn files and recording a game (or its
score pad) from a phone, which anyone can watch live. At first start the key
is read from WNOTATION_CLUB_KEY, asked for on a terminal, or made up and
printed once; --new-key sets it again. It binds 127.0.0.1, only this machine:
--host 0.0.0.0 lets phones on the same network in. docs/howto/server.md says
more. Needs the server extra: pip install 'wnotation[server]'.

\b
Examples:
  wnotation serve
  wnotation serve --data club-games --port 8036
  wnotation serve --host 0.0.0.0 --data club-games
  WNOTATION_CLUB_KEY='a new key' wnotation serve --data club-games --new-key"""

#: The environment variable a first start reads the club key from (for scripts and services).
KEY_VARIABLE = "WNOTATION_CLUB_KEY"
#: Seconds uvicorn's shutdown waits for a response still being sent before it cancels it.
SHUTDOWN_GRACE = 3


def club_server(data: str, **config: Any) -> Any:
    """A uvicorn server of the club in ``data`` whose shutdown first ends every live stream (uvicorn would
    otherwise wait for the watchers to leave); ``config``: more :class:`uvicorn.Config` arguments."""
    import uvicorn

    from ..server.app import create_app
    from ..server.live import Feed

    feed = Feed()

    class ClubServer(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            feed.close()
            await super().shutdown(sockets)

    settings: dict[str, Any] = {"log_level": "warning", "access_log": False, "server_header": False,
                "timeout_graceful_shutdown": SHUTDOWN_GRACE} | config
    return ClubServer(uvicorn.Config(create_app(data, feed=feed), **settings))


def _first_key() -> tuple[str, bool]:
    """The club key for a first start and whether to print it (made up here): from :data:`KEY_VARIABLE`, a
    terminal's prompt, or a fresh random key."""
    import secrets

    from ..server.keys import key_problem

    key = os.environ.get(KEY_VARIABLE)
    if key is not None:
        problem = key_problem(key)
        if problem is not None:
            raise UserError(f"{KEY_VARIABLE}: {problem}")
        return key, False
    if sys.stdin.isatty():
        while True:
            key = click.prompt("Choose the club key (needed to upload games)", hide_input=True,
                               confirmation_prompt=True, err=True)
            problem = key_problem(key)
            if problem is None:
                return key, False
            click.echo(problem, err=True)
    return secrets.token_urlsafe(12), True


def _addresses(host: str, port: int) -> list[str]:
    """The addresses to open: the bound one, or for a wildcard host this machine's address on the network
    (found by routing a UDP socket, which sends nothing)."""
    if host not in ("0.0.0.0", "::", ""):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    out = [f"http://127.0.0.1:{port}/"]
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            lan = probe.getsockname()[0]
        if lan != "127.0.0.1":
            out.append(f"http://{lan}:{port}/")
    except OSError:
        pass
    return out


@click.command(epilog=SERVE_EPILOG, short_help="Serve the club's games over HTTP (upload, list, viewer).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets other machines of the network in.")
@click.option("--port", type=click.IntRange(0, 65535), default=8036, show_default=True,
              help="Port to listen on (0: any free port, printed).")
@click.option("--data", "data", type=click.Path(file_okay=False), default="wnotation-data", show_default=True,
              help="The folder holding the club's database (created when missing).")
@click.option("--new-key", is_flag=True,
              help="Set a new club key (as a first start sets it) before serving; every open session ends.")
def serve(host: str, port: int, data: str, new_key: bool) -> None:
    """Serve the club's games until interrupted (Ctrl-C)."""
    from ..server import STARLETTE_MISSING, starlette_available

    if not starlette_available():
        raise UserError(STARLETTE_MISSING)
    import sqlite3

    from ..server.store import Store

    try:
        store = Store(data)
    except (OSError, sqlite3.Error) as exc:  # a file in the way, no permission, not a database
        raise UserError(f"cannot use the data folder {data}: {exc}") from None
    if new_key or not store.has_key():
        key, show = _first_key()
        store.set_key(key)
        if show:
            click.echo(f"club key (shown once, keep it; set {KEY_VARIABLE} at first start to choose it): {key}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    bound = sock.getsockname()[1]
    click.echo(f"wnotation serve: {' or '.join(_addresses(host, bound))} (data in {os.path.abspath(data)}); "
               "Ctrl-C stops it")
    sys.stdout.flush()
    try:
        club_server(data).run(sockets=[sock])
    finally:
        sock.close()


COMMANDS = (serve,)
