"""Exit codes and the errors a command raises to end with one of them (each shown as one line on stderr)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Any

import click

from ..errors import InputError
from ..support.compiler_style import safe_lines

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
#: What the shell reports for a process killed by SIGPIPE (128 + 13); used where there is no SIGPIPE.
EXIT_BROKEN_PIPE = 141

#: Exceptions that mean "the input was wrong", not "wnotation is wrong": one line on stderr and exit 2.
#: :class:`~wnotation.errors.InputError` covers ``CatalogError`` and ``NotationError`` (shown compiler-style)
#: without importing the notation (which would load Lark and pydantic and slow down ``wnotation --version``).
USER_ERRORS: tuple[type[Exception], ...] = (InputError, OSError, UnicodeDecodeError)


def user_errors() -> tuple[type[Exception], ...]:
    """:data:`USER_ERRORS`; kept for callers that used it before the one exception base."""
    return USER_ERRORS


class UserError(click.ClickException):
    """Bad input from the user: shown as one ``error: …`` line on stderr, exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(safe_lines(f"error: {self.format_message()}"), err=True)


class RecordError(click.ClickException):
    """A record that cannot be read, shown as the notation renders it (``file:line:col: error[rule]: …``, the
    line and a caret, record text already visible; coloured when ``--color`` says so), exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(self.message, err=True, color=True)


class InternalError(click.ClickException):
    """A bug in wnotation: one line on stderr (the traceback only with ``--debug``), exit code 3."""

    exit_code = EXIT_INTERNAL

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(safe_lines(f"internal error: {self.format_message()}"), err=True)


class BrokenPipe(Exception):
    """The reader of standard output (or error) has gone away (``| head``): the command stops quietly. Not an
    ``OSError``, so that click's own handling of EPIPE (exit 1, which means findings here) never sees it."""


class OutputError(click.ClickException):
    """Standard output cannot be written (closed, disk full, an I/O error): the output is lost, so this is an
    error, shown as one ``error: …`` line on stderr, exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file: IO[Any] | None = None) -> None:
        try:
            click.echo(safe_lines(f"error: {self.format_message()}"), err=True)
        except (OSError, BrokenPipe):
            pass  # stderr is gone too: the exit code is all that is left


def worst(codes: Sequence[int]) -> int:
    """The exit code of several results: internal error over unreadable input over findings over ok."""
    order = (EXIT_INTERNAL, EXIT_USAGE, EXIT_FINDINGS)
    return next((code for code in order if code in codes), EXIT_OK)


def one_line(message: str) -> str:
    """``message`` with every run of white space (line ends included) as one space."""
    return " ".join(message.split())
