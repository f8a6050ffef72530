"""The command group: the shared error handler (one line per user error, exit codes 0-3), the guarded streams
around a run, and the options every command has (``--version``, ``--debug``)."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any

import click

from .. import __version__
from ..support.compiler_style import safe_lines
from . import streams
from .errors import (
    EXIT_OK, EXIT_USAGE, BrokenPipe, InternalError, OutputError, RecordError, UserError, one_line, user_errors,
)


def _lower_first(message: str) -> str:
    return message[:1].lower() + message[1:] if message[1:2].islower() else message


class WnotationGroup(click.Group):
    """The command group with the shared error handler: one line per user error, exit codes 0–3."""

    def invoke(self, ctx: click.Context) -> Any:
        debug = bool(ctx.params.get("debug"))
        from .output import set_colour

        set_colour("auto")  # each run starts from auto; a command's --color sets it again before it runs
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, BrokenPipe):
            raise
        except Exception as e:
            if not isinstance(e, user_errors()):
                if debug:
                    traceback.print_exc()
                hint = "" if debug else " (rerun with --debug for the traceback)"
                raise InternalError(f"{type(e).__name__}: {one_line(str(e))}; this is a bug in wnotation{hint}") from e
            if debug:
                traceback.print_exc()
            notation = sys.modules.get("wnotation.notation.errors")
            if notation is not None and isinstance(e, notation.NotationError):
                from .output import rendered

                raise RecordError(rendered(e)) from e
            if isinstance(e, UnicodeDecodeError):
                raise UserError(f"cannot read input: not UTF-8 text ({e.reason} at byte {e.start})") from e
            if isinstance(e, OSError) and e.strerror:
                where = f"{e.filename}: " if e.filename else ""
                raise UserError(f"cannot read {where}{e.strerror.lower()}") from e
            raise UserError(one_line(str(e))) from e

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = streams.Stream(saved[0], "stdout"), streams.Stream(saved[1], "stderr")
        broken = False
        try:
            code = self._exit_code(args, prog_name, complete_var, **extra)
            sys.stdout.flush()  # output still buffered is output too: a failure to write it is an error
        except OutputError as e:
            e.show()
            streams.silence(saved[0])
            code = e.exit_code
        except BrokenPipe:
            broken = True
        finally:
            sys.stdout, sys.stderr = saved
        if broken:  # after the handler, so that every generator and worker pool of the command has been closed
            streams.die_of_sigpipe()
        sys.exit(code)

    def _exit_code(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None,
                   **extra: Any) -> int:
        """Run the command and return its exit code, every user error shown as one line on stderr."""
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            e.show()
            return EXIT_USAGE
        except click.UsageError as e:  # click prints usage and a hint over four lines; one is enough
            where = e.ctx.command_path if e.ctx else "wnotation"
            message = safe_lines(f"error: {_lower_first(e.format_message())} (see '{where} --help')")
            click.echo(message, err=True)
            return EXIT_USAGE
        except OutputError:
            raise
        except (UserError, RecordError, InternalError) as e:
            e.show()
            return e.exit_code
        except click.ClickException as e:  # click's own (a file option it could not open): one sanitised line
            click.echo(safe_lines(f"error: {_lower_first(e.format_message())}"), err=True)
            return e.exit_code
        except click.Abort:
            click.echo("aborted", err=True)
            return 130
        return rv if isinstance(rv, int) else EXIT_OK


def engine_build() -> str:
    """``compiled engine`` when the engine runs from mypyc-compiled modules (``pip install .`` with a C compiler),
    else ``pure Python engine``. Decided as the import system decides, without importing the engine (which would
    make ``--version`` slow): an extension module beside ``state.py`` is the one imported, which is what
    :data:`wnotation.engine.COMPILED` reports."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    engine = Path(__file__).resolve().parent.parent / "engine"
    compiled = any((engine / f"state{suffix}").is_file() for suffix in EXTENSION_SUFFIXES)
    return "compiled engine" if compiled else "pure Python engine"


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    click.echo(f"wnotation {__version__} ({engine_build()})")
    ctx.exit()


CONTEXT = {"help_option_names": ["-h", "--help"], "show_default": True, "max_content_width": 100}


@click.group(cls=WnotationGroup, context_settings=CONTEXT, epilog="""\b
Exit codes: 0 ok, 1 findings in the records, 2 usage error or unreadable input, 3 internal error.

\b
Examples:
  wnotation check replays/
  wnotation score game.7wn
  wnotation show game.7wn --at II.3 --seat Bob --legal
  wnotation generate --players 4 --seed 7 | wnotation check -
  wnotation cards --age I""")
@click.option("-V", "--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version (and whether the engine is compiled) and exit.")
@click.option("--debug", is_flag=True, help="Show the Python traceback of any error (for bug reports).")
def main(debug: bool) -> None:
    """7WN, the notation for games of 7 Wonders (2nd edition, 3-7 players): read, check and score records."""


def script() -> None:
    """The ``wnotation`` console script and ``python -m wnotation``: :func:`main`, then, once stdout and stderr are
    flushed, the process ends with ``os._exit``, without tearing its heap down (freeing every object of a Python
    process, the catalogue, the grammar and the caches, is CPU that nobody waits for). Only here: ``main`` called
    in process (tests, other programs) exits by ``SystemExit`` as usual. Should the last flush fail, the exit is
    the ordinary one, which reports it as before."""
    try:
        main(prog_name="wnotation")
        code: object = 0
    except SystemExit as e:
        code = e.code
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        raise SystemExit(code) from None
    if code is None:
        os._exit(0)
    if isinstance(code, int):
        os._exit(code & 0xFF)
    raise SystemExit(code)  # a message for stderr: Python prints it and exits 1
