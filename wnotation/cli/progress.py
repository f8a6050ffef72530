"""The progress bar of long runs (``check``, ``fmt --check/--write``, ``generate``, ``export``, ``stats`` of 7WN
files): on stderr, only on a terminal, only once a run has lasted a second."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import streams
from .inputs import STDIN
from ..support.compiler_style import safe_lines
from .output import diagnostic, diagnostic_text, err

#: A progress bar appears once a run has lasted this long (seconds): short runs stay quiet.
PROGRESS_DELAY = 1.0
#: The bar is redrawn at most this often (seconds), so that fast runs do not pay for drawing it.
PROGRESS_REDRAW = 0.1


class Progress:
    """A rich progress bar on stderr for a run that lasts: games done, their rate, the time spent and, when the
    total is known, the time left. Shown only when stderr is a terminal and once the run has lasted
    ``PROGRESS_DELAY``; never when stderr is piped, nor when results go to that terminal while the bar is shown
    (``writes``: the command prints to stdout as it goes). ``total`` is called only when the bar appears (it may
    scan the inputs) and may return ``None`` (no total: no ETA). ``echo`` prints a diagnostic above the bar (or
    plainly to stderr). No refresh thread: the bar redraws as it advances, so worker processes can be forked
    while it is shown."""

    def __init__(self, what: str, total: Any = None, *, writes: bool = False) -> None:
        self.what, self.total, self.writes = what, total, writes
        self.done = 0
        self.bar: Any = None
        self.task: Any = None
        self.terminal = False
        self.start = self.drawn = 0.0

    def __enter__(self) -> "Progress":
        import time

        self.terminal = streams.stderr_is_terminal() and not (self.writes and streams.is_terminal())
        self.start = time.monotonic()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
            TimeRemainingColumn

        total = self.total() if callable(self.total) else self.total
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                            _rate_column(), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                            console=Console(stderr=True, highlight=False), transient=True, auto_refresh=False,
                            redirect_stdout=False, redirect_stderr=False)  # results never go through the bar
        self.bar.__enter__()
        self.task = self.bar.add_task(self.what, total=max(total, self.done) if total else None,
                                      completed=self.done)
        self.bar.tasks[0].start_time = self.bar.get_time() - (self._now() - self.start)  # count from the run's start

    @staticmethod
    def _now() -> float:
        import time

        return time.monotonic()

    def advance(self, amount: int = 1) -> None:
        self.done += amount
        if not self.terminal:
            return
        now = self._now()
        if self.bar is None:
            if now - self.start < PROGRESS_DELAY:
                return
            self._show()
        elif now - self.drawn < PROGRESS_REDRAW:
            return
        task = self.bar.tasks[0]
        if task.total is not None and self.done > task.total:  # a comment held a [Format mark: more games
            self.bar.update(self.task, total=self.done)
        self.bar.update(self.task, completed=self.done)
        self.bar.refresh()
        self.drawn = now

    def echo(self, text: str) -> None:
        """A message above the bar (or plainly on stderr), every character that steers a terminal made visible."""
        if self.bar is not None:
            self.bar.console.print(safe_lines(text), markup=False, highlight=False, soft_wrap=True)
        else:
            err(text)

    def diagnostic(self, d: Any) -> None:
        """A diagnostic above the bar (or plainly on stderr), coloured as ``--color`` says."""
        if self.bar is None:
            diagnostic(d)
            return
        from rich.text import Text

        self.bar.console.print(Text.from_ansi(diagnostic_text(d)), highlight=False, soft_wrap=True)


def _rate_column() -> Any:
    """A rich column with the games per second over the whole run so far (rich's own speed column counts bytes)."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            elapsed = task.elapsed or 0.0
            rate = task.completed / elapsed if elapsed > 0 else 0.0
            return Text(f"{rate:,.0f}/s" if rate >= 10 else f"{rate:.1f}/s")

    return RateColumn()


def games_in(inputs: Sequence[str]) -> int | None:
    """How many games the inputs hold, for a progress bar's total: their ``[Format`` marks (a comment may hold one
    more); ``None`` when standard input is one of them (it cannot be read twice). Cost: a scan of each file."""
    from ..diagnostics import scan_file

    total = 0
    for path in inputs:
        if path == STDIN:
            return None
        try:
            total += scan_file(path)
        except (OSError, UnicodeDecodeError):
            pass  # reported when it is checked
    return total
