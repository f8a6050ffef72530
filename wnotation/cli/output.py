"""What commands print: tables and fields (rich on a terminal, plain aligned text in pipes and files), JSON, and
lines on stderr. Every command prints through these, so that the terminal test is made in one place
(:func:`~wnotation.cli.streams.is_terminal`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from . import streams

if TYPE_CHECKING:
    from ..notation.errors import NotationError

_STYLE = {"brown": "dark_orange3", "grey": "grey62", "blue": "bright_blue", "yellow": "yellow", "red": "red",
          "green": "green", "purple": "magenta"}


def err(text: str) -> None:
    """One line (or block) on stderr."""
    click.echo(text, err=True)


def rendered(error: NotationError) -> str:
    """A notation error as every diagnostic is shown: through :func:`wnotation.diagnostics.render`, the one
    compiler-style renderer (``file:12:5: error[syntax]: …``, the line and a caret)."""
    from ..diagnostics import Diagnostic

    return str(Diagnostic.from_error(error))


def emit_json(data: Any) -> None:
    """``data`` as indented JSON on stdout (non-ASCII text kept as is)."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def count(n: int, word: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def plain_table(header: Sequence[str], rows: Sequence[Sequence[str]], right_align: bool = False) -> str:
    """Aligned columns two spaces apart, without trailing spaces."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]

    def cell(k: int, text: str, width: int) -> str:
        return text.rjust(width) if right_align and k else text.ljust(width)

    return "\n".join(
        "  ".join(cell(k, str(c), w) for k, (c, w) in enumerate(zip(row, widths))).rstrip() for row in [header, *rows]
    )


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], title: str | None = None,
                colour_column: int | None = None, right_align: bool = False) -> None:
    """A table on stdout: rich on a terminal, plain aligned columns otherwise. ``right_align`` aligns every
    column but the first to the right (numbers)."""
    if not streams.is_terminal():
        if title:
            click.echo(title)
        click.echo(plain_table(header, rows, right_align))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, title_justify="left", header_style="bold")
    for k, name in enumerate(header):
        table.add_column(name, justify="right" if right_align and k else "left")
    for row in rows:
        cells = list(row)
        if colour_column is not None:
            cells[colour_column] = f"[{_STYLE.get(cells[colour_column], '')}]{cells[colour_column]}[/]"
        table.add_row(*cells)
    Console(highlight=False).print(table)


def print_fields(title: str, fields: Sequence[tuple[str, str]]) -> None:
    """One item in full, a field per line: rich on a terminal, plain ``name  value`` lines otherwise."""
    if not streams.is_terminal():
        click.echo(title)
        width = max(len(name) for name, _ in fields)
        for name, value in fields:
            click.echo(f"  {name.ljust(width)}  {value}".rstrip())
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(show_header=False, title=title, title_justify="left", title_style="bold", box=None)
    table.add_column(style="dim")
    table.add_column()
    for name, value in fields:
        table.add_row(name, value)
    Console(highlight=False).print(table)
