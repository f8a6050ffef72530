"""``wnotation lsp``: the 7WN language server over standard input and output (the ``[lsp]`` extra, pygls)."""

from __future__ import annotations

import os

import click

from .errors import UserError

LSP_EPILOG = """\b
An editor starts it and speaks the Language Server Protocol on its standard input and output:
diagnostics as you type (every notation error and rule finding, with its rule ID), completion
from the rules, hover, quick fixes, formatting, the outline and folding. docs/howto/editors.md
sets up VS Code, Neovim and Helix. It needs the lsp extra: pip install 'wnotation[lsp]'.

\b
Examples:
  wnotation lsp
  wnotation lsp --debounce 0.3"""


@click.command(epilog=LSP_EPILOG, short_help="Run the 7WN language server (for editors) on stdin/stdout.")
@click.option("--debounce", type=click.FloatRange(0, 5), default=0.15, show_default=True, metavar="SECONDS",
              help="Seconds between the last keystroke and the check it triggers.")
def lsp(debounce: float) -> None:
    """Run the language server on standard input and output until the editor ends it."""
    from ..lsp import PYGLS_MISSING, pygls_available

    if not pygls_available():
        raise UserError(PYGLS_MISSING)
    from ..lsp.server import serve

    try:  # copies of the descriptors: the server closes its streams when the client says exit
        stdin, stdout = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    except OSError:
        raise UserError("the language server needs standard input and output") from None
    serve(stdin, stdout, debounce)


COMMANDS = (lsp,)
