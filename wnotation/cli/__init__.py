"""The ``wnotation`` command line: a thin shell over the library, one module per command group.

Commands parse their options, call the library and print; no rules live here. Results go to stdout (rich tables
on a terminal, plain aligned text or JSON when piped); diagnostics go to stderr. Exit codes:

    0  ok
    1  findings in the records (a record breaks a rule, or a stated result is wrong)
    2  usage error, unreadable input or output that cannot be written: one line on stderr, never a traceback
    3  internal error (a bug in wnotation): one line on stderr; ``--debug`` shows the traceback

A reader that closes the pipe early (``| head``) ends the command as it ends coreutils' writers: killed by
SIGPIPE, silently (the shell sees 141). Library errors that are the user's doing (an unknown card, an impossible
guild list, an unreadable file) are listed in :data:`~wnotation.cli.errors.USER_ERRORS` and become exit 2;
anything else escaping a command is exit 3.

The package:

- ``shell``: the click group ``main``, its error handler and the guarded streams (``streams``); ``errors``: the
  exit codes and the exceptions a command raises to end with one (``UserError`` for one ``error: …`` line);
- ``inputs`` (record paths, one game of a file, a game replayed), ``output`` (tables, fields, JSON, stderr),
  ``progress`` (the progress bar), ``completion`` (shell completion of argument values);
- one module per command group: ``cards``, ``check``, ``score``, ``show``, ``fmt``, ``json_command`` (``json``
  and ``schema``), ``generate``, ``rules``, and the others listed in :data:`COMMAND_MODULES`. The process pool of
  ``check --jobs`` is the library's (:func:`wnotation.diagnostics.batch.check_many`), as is the streamed JSON report
  (:mod:`wnotation.diagnostics.jsonreport`).

**Adding a command**: write ``wnotation/cli/NAME.py`` with a ``@click.command()`` function (import the library
inside it, so that other commands do not pay for its imports), raise :class:`~wnotation.cli.errors.UserError`
for bad input, print through ``output``, and end the module with ``COMMANDS = (your_command,)``; add ``"NAME"``
to :data:`COMMAND_MODULES` below; add ``tests/test_cli_NAME.py`` running it with ``cli_helpers.run``. Every
command module is imported by every run (``--help`` lists them all), so a library imported at module level slows
every command: tests/test_cli_startup.py fails when ``check`` or ``--version`` loads one it does not need.
"""

from __future__ import annotations

from importlib import import_module

from .errors import (
    EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, USER_ERRORS, InternalError, OutputError, RecordError,
    UserError, user_errors,
)
from .shell import main, script

#: The command modules (``wnotation --help`` lists their commands by name). Each defines ``COMMANDS``.
COMMAND_MODULES = (
    "check",
    "score",
    "show",
    "fmt",
    "json_command",
    "generate",
    "cards",
    "rules",
    "share",
    "archive",
    "record",
    "new",
    "bgstats",
    "conformance",
    "lsp",
    "serve",
    "analyse",
    "explore",
)

for _name in COMMAND_MODULES:
    for _command in import_module(f"{__name__}.{_name}").COMMANDS:
        main.add_command(_command)

__all__ = ["COMMAND_MODULES", "EXIT_FINDINGS", "EXIT_INTERNAL", "EXIT_OK", "EXIT_USAGE", "USER_ERRORS",
           "InternalError", "OutputError", "RecordError", "UserError", "main", "script", "user_errors"]
