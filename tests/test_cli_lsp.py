"""``wnotation lsp`` without pygls says how to install the extra (exit 2); with it, the server starts and stops."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli_helpers import run


def test_without_pygls_the_command_says_how_to_install_the_extra(monkeypatch):
    import wnotation.lsp

    monkeypatch.setattr(wnotation.lsp, "pygls_available", lambda: False)
    result = run("lsp", code=2)
    assert "pip install 'wnotation[lsp]'" in result.stderr


def test_pygls_missing_is_detected_in_a_fresh_interpreter():
    code = ("import sys; sys.modules['pygls'] = None; sys.modules['pygls.lsp'] = None; "
            "sys.modules['pygls.lsp.server'] = None; import wnotation.lsp as l; print(l.pygls_available())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


def _message(payload: dict) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def test_the_server_answers_initialize_and_exits_on_request():
    pytest.importorskip("pygls")
    messages = (_message({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                          "params": {"processId": None, "rootUri": None, "capabilities": {}}})
                + _message({"jsonrpc": "2.0", "method": "initialized", "params": {}})
                + _message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
                + _message({"jsonrpc": "2.0", "method": "exit"}))
    done = subprocess.run([sys.executable, "-m", "wnotation", "lsp"], input=messages, capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    body = done.stdout.split(b"\r\n\r\n", 1)[1]
    first = json.loads(body[: int(done.stdout.split(b"\r\n", 1)[0].split(b":")[1])])
    capabilities = first["result"]["capabilities"]
    assert first["result"]["serverInfo"]["name"] == "wnotation"
    for provider in ("completionProvider", "hoverProvider", "codeActionProvider", "documentFormattingProvider",
                     "documentRangeFormattingProvider", "documentSymbolProvider", "foldingRangeProvider"):
        assert capabilities.get(provider), provider


def test_a_burst_of_edits_is_checked_once_after_the_debounce():
    pytest.importorskip("pygls")
    import asyncio

    from wnotation.lsp.server import build

    server = build(debounce=0.05)
    checked: list[str] = []
    server.publish = checked.append  # type: ignore[method-assign]

    async def burst() -> None:
        for _ in range(5):
            server.schedule("file:///a.7wn")
        server.schedule("file:///b.7wn")
        assert checked == []
        await asyncio.sleep(0.5)

    asyncio.run(burst())
    assert sorted(checked) == ["file:///a.7wn", "file:///b.7wn"]
