"""What commands print: tables and fields (rich on a terminal, plain aligned text in pipes and files), JSON, data
(7WN text, HTML, SVG), diagnostics and lines on stderr. Every command prints through these, so that the terminal
test is made in one place (:func:`~wnotation.cli.streams.is_terminal`) and so that record text reaches the
terminal only through the one sanitiser (:mod:`wnotation.support.compiler_style`):

- text for people (:func:`echo`, :func:`err`, :func:`print_table`, :func:`print_fields`, messages of errors) shows
  every control, escape and bidi control from a record as a visible stand-in (``␛``, ``�``), piped or not, and
  keeps the rest of a name as it is (a zero-width joiner, a soft hyphen);
- diagnostics (:func:`diagnostic`) are made visible by their renderer, and coloured on a terminal
  (``--color``, ``NO_COLOR``);
- JSON (:func:`emit_json`, :func:`emit_json_text`) escapes every such character (``\\u001b``): the same values;
- data that must keep its bytes (7WN text, an HTML page, an SVG picture, a position string: :func:`emit_data`) is
  written as it is to a file or a pipe, and refused on a terminal when it holds such a character."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..support.compiler_style import first_steering, json_safe, safe, safe_lines
from . import streams
from .errors import UserError

if TYPE_CHECKING:
    from ..diagnostics import Diagnostic
    from ..notation.errors import NotationError

_STYLE = {"brown": "dark_orange3", "grey": "grey62", "blue": "bright_blue", "yellow": "yellow", "red": "red",
          "green": "green", "purple": "magenta"}

#: ``--color``: ``auto`` (colour diagnostics when stderr is a terminal and ``NO_COLOR`` is unset), ``always``,
#: ``never``. Set by :func:`colour_option` before the command runs.
COLOUR_CHOICES = ("auto", "always", "never")
_colour = {"when": "auto"}

F = TypeVar("F", bound=Callable[..., Any])


def echo(text: str = "", *, nl: bool = True) -> None:
    """Text for people on stdout, every character that steers a terminal made visible (line ends kept)."""
    click.echo(safe_lines(text), nl=nl)


def err(text: str) -> None:
    """One line (or block) on stderr, every character that steers a terminal made visible (line ends kept)."""
    click.echo(safe_lines(text), err=True)


def set_colour(when: str) -> None:
    """Decide how diagnostics are coloured from now on (``auto``, ``always``, ``never``)."""
    if when not in COLOUR_CHOICES:
        raise ValueError(f"--color is one of {', '.join(COLOUR_CHOICES)}, not {when!r}")
    _colour["when"] = when


def colour() -> bool:
    """Whether diagnostics on stderr are coloured: ``--color always``, or ``auto`` with stderr a terminal,
    ``NO_COLOR`` unset or empty (https://no-color.org) and ``TERM`` not ``dumb``; never with ``--color never``."""
    when = _colour["when"]
    if when != "auto":
        return when == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return streams.stderr_is_terminal()


def colour_option(command: F) -> F:
    """The ``--color auto|always|never`` option of a command that prints diagnostics."""
    def chosen(ctx: click.Context, param: click.Parameter, value: str) -> str:
        set_colour(value)
        return value

    return click.option("--color", "--colour", "colour_when", type=click.Choice(COLOUR_CHOICES), default="auto",
                        expose_value=False, is_eager=True, callback=chosen,
                        help="Colour the diagnostics on stderr: auto (on a terminal, unless NO_COLOR is set), "
                        "always, never.")(command)


def diagnostic_text(d: Diagnostic) -> str:
    """A diagnostic as stderr shows it: compiler-style, record text visible, coloured as :func:`colour` says."""
    return d.rendered(colour())


def diagnostic(d: Diagnostic) -> None:
    """A diagnostic on stderr (:func:`diagnostic_text`)."""
    click.echo(diagnostic_text(d), err=True, color=True)


def rendered(error: NotationError) -> str:
    """A notation error as every diagnostic is shown: through :func:`wnotation.diagnostics.render`, the one
    compiler-style renderer (``file:12:5: error[syntax]: …``, the line and a caret), coloured as :func:`colour`
    says."""
    from ..diagnostics import Diagnostic

    return diagnostic_text(Diagnostic.from_error(error))


def emit_json(data: Any) -> None:
    """``data`` as indented JSON on stdout (non-ASCII text kept as is, controls and format characters escaped)."""
    emit_json_text(json.dumps(data, indent=2, ensure_ascii=False))


def emit_json_text(text: str) -> None:
    """A JSON document on stdout with every character that steers a terminal escaped (:func:`json_safe`)."""
    click.echo(json_safe(text))


def emit_data(text: str, what: str, *, nl: bool = False, flush: bool = True) -> None:
    """Data that keeps its bytes (7WN text, an HTML page, an SVG picture, a position string) on stdout. On a
    terminal, data holding a character that steers it (a control, a bidi control) is refused (exit 2, nothing
    written): shown, it would steer the terminal, and shown as stand-ins it would no longer be the data. A file or
    a pipe gets it as it is (a zero-width joiner in a name is no such character). ``flush=False`` leaves it in
    stdout's buffer, flushed when the command ends (for a command writing many pieces, e.g. one a game)."""
    found = first_steering(text) if streams.is_terminal() else None
    if found is not None:
        line, column, c = found
        raise UserError(f"{safe(what)} holds the control character U+{ord(c):04X} (line {line}, column {column}), "
                        "which would steer this terminal: it is written only to a file or a pipe (add > FILE)")
    if flush:
        click.echo(text, nl=nl, color=True)  # color=True: click strips CSI sequences from output to a pipe otherwise
    else:
        sys.stdout.write(text + "\n" if nl else text)


def count(n: int, word: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def plain_table(header: Sequence[str], rows: Sequence[Sequence[str]], right_align: bool = False) -> str:
    """Aligned columns two spaces apart, without trailing spaces; every cell made safe (:func:`~wnotation.support.compiler_style.safe`)."""
    header = [safe(str(c)) for c in header]
    rows = [[safe(str(c)) for c in row] for row in rows]
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows)]

    def cell(k: int, text: str, width: int) -> str:
        return text.rjust(width) if right_align and k else text.ljust(width)

    return "\n".join(
        "  ".join(cell(k, c, w) for k, (c, w) in enumerate(zip(row, widths))).rstrip() for row in [header, *rows]
    )


def _text(value: Any, style: str = "") -> Any:
    """A rich ``Text`` of ``value`` made visible: never read as rich markup (``[link=…]`` in a seat name stays
    text)."""
    from rich.text import Text

    return Text(safe(str(value)), style=style)


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], title: str | None = None,
                colour_column: int | None = None, right_align: bool = False) -> None:
    """A table on stdout: rich on a terminal, plain aligned columns otherwise. ``right_align`` aligns every
    column but the first to the right (numbers)."""
    if not streams.is_terminal():
        if title:
            echo(title)
        click.echo(plain_table(header, rows, right_align))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=_text(title) if title else None, title_justify="left", header_style="bold")
    for k, name in enumerate(header):
        table.add_column(_text(name), justify="right" if right_align and k else "left")
    for row in rows:
        cells = [_text(c) for c in row]
        if colour_column is not None:
            cells[colour_column] = _text(row[colour_column], _STYLE.get(str(row[colour_column]), ""))
        table.add_row(*cells)
    Console(highlight=False).print(table)


def print_fields(title: str, fields: Sequence[tuple[str, str]]) -> None:
    """One item in full, a field per line: rich on a terminal, plain ``name  value`` lines otherwise."""
    if not streams.is_terminal():
        echo(title)
        width = max(len(name) for name, _ in fields)
        for name, value in fields:
            echo(f"  {name.ljust(width)}  {value}".rstrip())
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(show_header=False, title=_text(title), title_justify="left", title_style="bold", box=None)
    table.add_column(style="dim")
    table.add_column()
    for name, value in fields:
        table.add_row(_text(name), _text(value))
    Console(highlight=False).print(table)
