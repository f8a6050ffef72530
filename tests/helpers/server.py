"""What the club-server tests share: the club's key and a data folder that holds it, logging in (the CSRF token of
a form), the start tags of a page (for the checks that a page runs nothing and links nowhere else), and
``wnotation serve`` run as a process of its own on a free port."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
KEY = "the club's key"
CSRF_RE = re.compile(r'name="csrf" value="([^"]+)"')


def keyed_folder(tmp_path: Path) -> Path:
    """A new data folder under ``tmp_path`` whose club key is :data:`KEY`."""
    from wnotation.server.store import Store

    folder = tmp_path / "data"
    Store(folder).set_key(KEY)
    return folder


def log_in(client: Any, key: str = KEY) -> Any:
    """The answer to the login form of ``client`` (a Starlette TestClient or an httpx Client) sent with ``key``
    and the form's own CSRF token, redirects not followed."""
    token = CSRF_RE.search(client.get("/login").text)
    assert token is not None, "no login form"
    return client.post("/login", data={"key": key, "csrf": token.group(1)}, follow_redirects=False)


class Tags(HTMLParser):
    """Every start tag of a page, with its attributes, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def free_port() -> int:
    """A port of 127.0.0.1 free at the time of asking."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_process(data: Path, port: int, cwd: Path | None = None) -> subprocess.Popen[str]:
    """``wnotation serve`` of ``data`` on 127.0.0.1:``port``, the club key :data:`KEY` from its environment, its
    output and errors piped (its first line says where it serves)."""
    env = dict(os.environ, WNOTATION_CLUB_KEY=KEY, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "wnotation", "serve", "--port", str(port), "--data", str(data)],
                            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
