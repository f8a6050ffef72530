"""The reference adapter of the conformance protocol (spec/conformance.md §3): wnotation's own engine answering
one JSON request per line of stdin with one JSON line on stdout, until stdin ends.

Run it as ``wnotation conformance run -- python -m wnotation.conformance.adapter``. A request that breaks the
protocol gets ``{"id": …, "error": "…"}``; the process goes on with the next line.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from .answer import RequestError, answer

#: The longest request line read, in characters (a casebook record is a few kilobytes).
MAX_LINE = 1 << 20


def serve(stdin: IO[str], stdout: IO[str]) -> None:
    """Answer every request line of ``stdin`` on ``stdout``, flushed after each answer."""
    while True:
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while (rest := stdin.readline(MAX_LINE)) and not rest.endswith("\n"):
                pass  # the rest of the line too long to be a request: read and dropped, so the next line is next
            line = json.dumps({"op": None, "too-long": True})
        if not line.strip():
            continue
        out: dict[str, Any]
        request: Any = None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise RequestError("a request is a JSON object")
            if request.get("too-long"):
                raise RequestError(f"a request line longer than {MAX_LINE} characters")
            out = {"id": request.get("id"), **answer(request)}
        except (RequestError, ValueError) as exc:
            out = {"id": request.get("id") if isinstance(request, dict) else None, "error": str(exc)}
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        stdout.flush()


def main() -> None:
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
