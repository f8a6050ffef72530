"""Running the vectors through an adapter process (spec/conformance.md §3, §6): one persistent process, one
request line and one answer line per vector, a timeout per vector, a restart after a crash or a timeout.
"""

from __future__ import annotations

import fnmatch
import json
import os
import queue
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..errors import WnotationError

from .compare import compare
from .vectors import AREAS, VECTORS_VERSION, Vector

#: The least time the adapter is given to start and answer the greeting, in seconds.
START_TIMEOUT = 30.0
#: The longest answer line read, in characters; a longer one fails its vector (the rest of it is dropped).
MAX_ANSWER = 1 << 24
#: Consecutive vectors after which an adapter that crashes or times out on each is declared broken.
BROKEN_AFTER = 20


class AdapterBroken(WnotationError, RuntimeError):
    """The adapter cannot be run: it does not start, does not answer the greeting, or fails vector after vector."""


@dataclass
class Outcome:
    vector: Vector
    differences: list[str]  # empty: passed

    @property
    def passed(self) -> bool:
        return not self.differences


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    adapter: str = ""

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.passed]

    def by_area(self) -> dict[str, tuple[int, int]]:
        """(passed, run) per area, in :data:`AREAS` order."""
        out: dict[str, tuple[int, int]] = {}
        for area in AREAS:
            run = [o for o in self.outcomes if o.vector["area"] == area]
            if run:
                out[area] = (sum(o.passed for o in run), len(run))
        return out

    def by_rule(self) -> dict[str, tuple[int, int]]:
        """(passed, run) per rule ID of the casebook vectors, in ID order."""
        out: dict[str, list[int]] = {}
        for o in self.outcomes:
            if o.vector["area"] == "rules":
                for rule in o.vector["rules"]:
                    tally = out.setdefault(rule, [0, 0])
                    tally[0] += o.passed
                    tally[1] += 1
        return {rule: (p, n) for rule, (p, n) in sorted(out.items())}


def selected(vector: Vector, only: Sequence[str], skip: Sequence[str]) -> bool:
    """Whether ``vector`` runs: a pattern (shell style) matches its area, its id or one of its rule IDs."""
    names = [vector["area"], vector["id"], *vector["rules"]]

    def hit(patterns: Sequence[str]) -> bool:
        return any(fnmatch.fnmatchcase(n, p) for p in patterns for n in names)

    return (not only or hit(only)) and not hit(skip)


class Adapter:
    """The adapter process: ``ask(request, timeout)`` sends one line and waits for one answer line."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.name = ""
        self.errors: Any = None  # the adapter's stderr, kept in a temporary file for the crash message

    def start(self, timeout: float) -> None:
        self.errors = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        try:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=self.errors, text=True, encoding="utf-8", bufsize=1,
                                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        except OSError as exc:
            raise AdapterBroken(f"cannot start the adapter {' '.join(self.command)!r}: {exc.strerror or exc}") from None
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.process, self.lines), daemon=True).start()
        try:
            hello = self.ask({"id": "hello", "op": "hello", "vectors_version": VECTORS_VERSION},
                             max(timeout, START_TIMEOUT))
        except (TimeoutError, EOFError, ValueError) as exc:
            self.stop()
            raise AdapterBroken(f"the adapter {' '.join(self.command)!r} does not answer the greeting: {exc}") from None
        if "error" in hello and set(hello) <= {"id", "error"} or hello.get("id") != "hello":
            raise AdapterBroken(f"the adapter does not answer the greeting: {hello}")
        self.name = str(hello.get("name", ""))

    @staticmethod
    def _read(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert process.stdout is not None
        while line := process.stdout.readline(MAX_ANSWER + 1):
            if len(line) > MAX_ANSWER and not line.endswith("\n"):
                while (rest := process.stdout.readline(MAX_ANSWER)) and not rest.endswith("\n"):
                    pass
                line = "too long\n"  # not JSON: the vector fails as an answer that is not a JSON object
            lines.put(line)
        lines.put(None)

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """The answer to ``request``; raises :class:`TimeoutError` or ``EOFError`` (the process ended) or
        ``ValueError`` (the answer is not one JSON object)."""
        if self.process is None or self.process.stdin is None:
            raise EOFError("the adapter is not running")
        try:
            self.process.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EOFError("the adapter closed its input") from None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no answer within {timeout:g} s") from None
        if line is None:
            status = self.process.wait()
            raise EOFError(f"the adapter ended (exit status {status})" + self._last_error())
        if line == "too long\n":
            raise ValueError(f"an answer line longer than {MAX_ANSWER} characters")
        got = json.loads(line)
        if not isinstance(got, dict):
            raise ValueError("the answer is not a JSON object")
        return got

    def _last_error(self) -> str:
        """The last line the adapter wrote on stderr, as ``": LINE"`` (empty when it wrote none)."""
        if self.errors is None:
            return ""
        self.errors.seek(0)
        tail = [line.strip() for line in self.errors.read()[-4000:].splitlines() if line.strip()]
        return f": {tail[-1][:200]}" if tail else ""

    def stop(self) -> None:
        if self.errors is not None and self.process is None:
            self.errors.close()
            self.errors = None
        if self.process is None:
            return
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self.process = None
        if self.errors is not None:
            self.errors.close()
            self.errors = None


def run(command: Sequence[str], vectors: dict[str, list[Vector]], *, only: Sequence[str] = (),
        skip: Sequence[str] = (), timeout: float = 10.0,
        progress: Callable[[Outcome], None] | None = None) -> Report:
    """Every selected vector through one adapter process (restarted after a crash or a timeout, which fail that
    vector). Raises :class:`AdapterBroken` when the adapter does not start or fails :data:`BROKEN_AFTER` vectors
    in a row by crashing or timing out."""
    adapter = Adapter(command)
    adapter.start(timeout)
    report = Report(adapter=adapter.name)
    broken = 0
    try:
        for area in AREAS:
            for v in vectors.get(area, []):
                if not selected(v, only, skip):
                    continue
                try:
                    got = adapter.ask({"id": v["id"], **v["request"]}, timeout)
                except (TimeoutError, EOFError) as exc:
                    broken += 1
                    outcome = Outcome(v, [f"adapter: {exc}; restarted"])
                    adapter.stop()
                    if broken >= BROKEN_AFTER:
                        raise AdapterBroken(f"the adapter failed {broken} vectors in a row, the last {v['id']}: "
                                            f"{exc}") from None
                    adapter.start(timeout)
                except ValueError as exc:
                    broken = 0
                    outcome = Outcome(v, [f"answer: not a JSON object line ({exc})"])
                else:
                    broken = 0
                    if got.get("id") != v["id"]:
                        outcome = Outcome(v, [f"answer: id {got.get('id')!r}, expected {v['id']!r}"])
                    elif "error" in got:
                        outcome = Outcome(v, [f"adapter error: {got['error']}"])
                    else:
                        outcome = Outcome(v, _compared(v, got))
                report.outcomes.append(outcome)
                if progress is not None:
                    progress(outcome)
    finally:
        adapter.stop()
    return report


def _compared(v: Vector, got: dict[str, Any]) -> list[str]:
    """:func:`~.compare.compare`, an answer whose fields are not of the protocol's types failing the vector."""
    try:
        return compare(v, got)
    except (AttributeError, KeyError, TypeError) as exc:
        return [f"answer: a field is not of the protocol's type ({type(exc).__name__}: {exc})"]


def render(report: Report, *, verbose: bool = False) -> str:
    """The text report: each failure with its differences, then the summary by area and the rule IDs whose
    casebook vectors fail (with ``verbose``, every vector that passes and every rule ID's tally too). What the
    adapter answered and what vector files say is data: control and format characters are shown as visible
    stand-ins (:func:`wnotation.support.compiler_style.visible`), never sent to the terminal."""
    from ..support.compiler_style import visible

    lines: list[str] = []
    for o in report.outcomes:
        v = o.vector
        if o.passed:
            if verbose:
                lines.append(f"PASS {v['id']}")
            continue
        lines.append(f"FAIL {v['id']}" + (f" [{' '.join(v['rules'])}]" if v["rules"] else "")
                     + (f": {v['title']}" if v["title"] else ""))
        lines += [f"  {d}" for d in o.differences]
    if lines:
        lines.append("")
    lines.append(f"conformance vectors {VECTORS_VERSION}" + (f", adapter {report.adapter}" if report.adapter else ""))
    for area, (passed, n) in report.by_area().items():
        lines.append(f"  {area:<10} {passed:>4} / {n:<4} passed" + ("" if passed == n else f"  ({n - passed} failed)"))
    if verbose:
        for rule, (passed, n) in report.by_rule().items():
            lines.append(f"    {rule:<16} {passed:>4} / {n:<4} passed")
    failing = {rule: t for rule, t in report.by_rule().items() if t[0] != t[1]}
    if failing:
        lines.append("  rules failing: " + ", ".join(f"{r} ({n - p} of {n})" for r, (p, n) in failing.items()))
    total = len(report.outcomes)
    lines.append(f"  total      {total - len(report.failures):>4} / {total:<4} passed")
    return "\n".join(visible(line) for line in lines) + "\n"
