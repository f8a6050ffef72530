"""The ``wnotation`` command line: a thin shell over the library, one function per command.

Commands parse their options, call the library and print; no rules live here. Results go to stdout (rich tables
on a terminal, plain aligned text or JSON when piped); diagnostics go to stderr. Exit codes:

    0  ok
    1  findings in the records (a record breaks a rule, or a stated result is wrong)
    2  usage error, unreadable input or output that cannot be written: one line on stderr, never a traceback
    3  internal error (a bug in wnotation): one line on stderr; ``--debug`` shows the traceback

A reader that closes the pipe early (``| head``) ends the command as it ends coreutils' writers: killed by
SIGPIPE, silently (the shell sees 141).

Library errors that are the user's doing (an unknown card, an impossible guild list, an unreadable file) are
listed in :data:`USER_ERRORS` and become exit 2; anything else escaping a command is exit 3.
"""

from __future__ import annotations

import errno
import json
import os
import sys
import traceback
from collections.abc import Sequence
from contextlib import closing, nullcontext
from typing import Any, Iterator

import click

from . import __version__, catalog
from .catalog import AGE_NUMERALS, COLOURS, MAX_PLAYERS, MIN_PLAYERS, Card, CatalogError, WonderSide, describe
from .deck import check_players, guild_count

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
#: What the shell reports for a process killed by SIGPIPE (128 + 13); used where there is no SIGPIPE.
EXIT_BROKEN_PIPE = 141

#: Exceptions that mean "the input was wrong", not "wnotation is wrong": one line on stderr and exit 2.
#: :class:`~wnotation.notation.NotationError` joins them through :func:`user_errors` (importing the notation
#: here would load Lark and pydantic and slow down ``wnotation --version``); it is shown compiler-style.
USER_ERRORS: tuple[type[Exception], ...] = (CatalogError, OSError, UnicodeDecodeError)


def user_errors() -> tuple[type[Exception], ...]:
    """:data:`USER_ERRORS` plus ``NotationError`` once the notation is loaded (no notation error can exist
    before that)."""
    errors = sys.modules.get("wnotation.notation.errors")
    return USER_ERRORS + ((errors.NotationError,) if errors is not None else ())


class UserError(click.ClickException):
    """Bad input from the user: shown as one ``error: …`` line on stderr, exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class RecordError(click.ClickException):
    """A record that cannot be read, shown as the notation renders it (``file:line:col: error[rule]: …``, the
    line and a caret), exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file: Any = None) -> None:
        click.echo(self.message, err=True)


class InternalError(click.ClickException):
    """A bug in wnotation: one line on stderr (the traceback only with ``--debug``), exit code 3."""

    exit_code = EXIT_INTERNAL

    def show(self, file: Any = None) -> None:
        click.echo(f"internal error: {self.format_message()}", err=True)


class OutputError(click.ClickException):
    """Standard output cannot be written (closed, disk full, an I/O error): the output is lost, so this is an
    error, shown as one ``error: …`` line on stderr, exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file: Any = None) -> None:
        try:
            click.echo(f"error: {self.format_message()}", err=True)
        except (OSError, _BrokenPipe):
            pass  # stderr is gone too: the exit code is all that is left


class _BrokenPipe(Exception):
    """The reader of standard output (or error) has gone away (``| head``): the command stops quietly. Not an
    ``OSError``, so that click's own handling of EPIPE (exit 1, which means findings here) never sees it."""


class _Stream:
    """Standard output or error as the commands write to it: a failed write raises :class:`_BrokenPipe` for a
    closed pipe and, on stdout, :class:`OutputError` otherwise (stderr has nowhere to report to, so its other
    failures are ignored). A stream that Python could not open (the descriptor was closed, ``>&-``) is
    ``None`` and fails on the first non-empty write. ``buffer`` is a :class:`_Binary` over the stream's own, so
    that bytes written there (click writes some) fail the same way."""

    def __init__(self, stream: Any, name: str) -> None:
        self._stream, self._name = stream, name
        raw = getattr(stream, "buffer", None)
        self.buffer = _Binary(raw, self) if raw is not None or stream is None else None

    def _failed(self, exc: OSError) -> None:
        if exc.errno == errno.EPIPE:
            raise _BrokenPipe() from None
        if self._name == "stdout":
            reason = (exc.strerror or str(exc)).lower()
            raise OutputError(f"cannot write to standard output: {reason}") from None

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self._stream is None:
            if text:
                self._failed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._failed(exc)
            return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except OSError as exc:
                self._failed(exc)

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str:
        return getattr(self._stream, "errors", None) or "strict"

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


class _Binary:
    """The binary buffer under a :class:`_Stream`: writes and flushes fail as the stream's do. Text written to
    the stream before is flushed first, so that both reach the output in order."""

    def __init__(self, raw: Any, text: _Stream) -> None:
        self._raw, self._text = raw, text

    def write(self, data: bytes) -> int:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"a bytes-like object is required, not {type(data).__name__}")
        if self._raw is None:
            if data:
                self._text._failed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
            return len(data)
        try:
            self._text.flush()
            return self._raw.write(data)
        except OSError as exc:
            self._text._failed(exc)
            return len(data)

    def flush(self) -> None:
        if self._raw is not None:
            try:
                self._raw.flush()
            except OSError as exc:
                self._text._failed(exc)

    def writable(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        if self._raw is None:
            raise AttributeError(name)
        return getattr(self._raw, name)


def _silence(stream: Any) -> None:
    """Point the descriptor under ``stream`` at /dev/null, so that Python's flush at exit cannot fail on what it
    still holds (a traceback-like "Exception ignored" message and exit 120 otherwise)."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (AttributeError, OSError, ValueError):
        return
    os.dup2(null, fd)
    os.close(null)


def _die_of_sigpipe() -> None:
    """End the process as coreutils' writers end on a closed pipe: killed by SIGPIPE, without a message."""
    import signal

    for stream in (sys.stdout, sys.stderr):
        _silence(stream)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    sys.exit(EXIT_BROKEN_PIPE)


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _lower_first(message: str) -> str:
    return message[:1].lower() + message[1:] if message[1:2].islower() else message


class WnotationGroup(click.Group):
    """The command group with the shared error handler: one line per user error, exit codes 0–3."""

    def invoke(self, ctx: click.Context) -> Any:
        debug = bool(ctx.params.get("debug"))
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, _BrokenPipe):
            raise
        except Exception as e:
            if not isinstance(e, user_errors()):
                if debug:
                    traceback.print_exc()
                hint = "" if debug else " (rerun with --debug for the traceback)"
                raise InternalError(f"{type(e).__name__}: {_one_line(str(e))}; this is a bug in wnotation{hint}") from e
            if debug:
                traceback.print_exc()
            notation = sys.modules.get("wnotation.notation.errors")
            if notation is not None and isinstance(e, notation.NotationError):
                raise RecordError(str(e)) from e
            if isinstance(e, UnicodeDecodeError):
                raise UserError(f"cannot read input: not UTF-8 text ({e.reason} at byte {e.start})") from e
            if isinstance(e, OSError) and e.strerror:
                where = f"{e.filename}: " if e.filename else ""
                raise UserError(f"cannot read {where}{e.strerror.lower()}") from e
            raise UserError(_one_line(str(e))) from e

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, *more: Any,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, *more, standalone_mode=False, **extra)
        streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = _Stream(streams[0], "stdout"), _Stream(streams[1], "stderr")
        broken = False
        try:
            code = self._exit_code(args, prog_name, *more, **extra)
            sys.stdout.flush()  # output still buffered is output too: a failure to write it is an error
        except OutputError as e:
            e.show()
            _silence(streams[0])
            code = e.exit_code
        except _BrokenPipe:
            broken = True
        finally:
            sys.stdout, sys.stderr = streams
        if broken:  # after the handler, so that every generator and worker pool of the command has been closed
            _die_of_sigpipe()
        sys.exit(code)

    def _exit_code(self, args: Sequence[str] | None, prog_name: str | None, *more: Any, **extra: Any) -> int:
        """Run the command and return its exit code, every user error shown as one line on stderr."""
        try:
            rv = super().main(args, prog_name, *more, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            e.show()
            return EXIT_USAGE
        except click.UsageError as e:  # click prints usage and a hint over four lines; one is enough
            where = e.ctx.command_path if e.ctx else "wnotation"
            click.echo(f"error: {_lower_first(e.format_message())} (see '{where} --help')", err=True)
            return EXIT_USAGE
        except OutputError:
            raise
        except click.ClickException as e:
            e.show()
            return e.exit_code
        except click.Abort:
            click.echo("aborted", err=True)
            return 130
        return rv if isinstance(rv, int) else EXIT_OK


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
@click.version_option(__version__, "-V", "--version", prog_name="wnotation", message="%(prog)s %(version)s")
@click.option("--debug", is_flag=True, help="Show the Python traceback of any error (for bug reports).")
def main(debug: bool) -> None:
    """7WN, the notation for games of 7 Wonders (2nd edition, 3-7 players): read, check and score records."""


# --- shell completion ----------------------------------------------------------------------------------------

#: A record argument: any path (stdin as ``-``), left to the command to read, so that its errors stay one line; the
#: type lets the shell complete file names.
RECORD_PATH = click.Path(allow_dash=True, readable=False)


def _starting(names: Sequence[str], incomplete: str) -> list[str]:
    """``names`` whose spelling starts like ``incomplete`` (any case and spacing), in order, each once."""
    wanted = catalog.normalise(incomplete)
    return list(dict.fromkeys(n for n in names if catalog.normalise(n).startswith(wanted)))


def _complete_card(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return _starting([c.name for c in catalog.load().cards], incomplete)


def _complete_wonder(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return _starting([w.name for w in catalog.load().wonders], incomplete)


#: Every position address a game can have (``I.7``: after Babylon's extra turn), for completing ``--at``.
ADDRESSES = tuple(f"{AGE_NUMERALS[a]}.{t}" for a in (1, 2, 3) for t in (*range(8), "end"))


def _complete_address(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return [a for a in ADDRESSES if a.casefold().startswith(incomplete.casefold())]


def _complete_seat(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The seat names of the game that ``FILE`` and ``--game`` name, read from its tags only; nothing when the file
    cannot be read (completion never prints an error)."""
    from .notation import read_headers

    path, game = ctx.params.get("file"), ctx.params.get("game") or 1
    if path is None:  # click stops parsing at the option being completed and leaves the words it read in ctx.args
        words = list(ctx.args)
        if "--game" in words[:-1]:
            k = words.index("--game")
            game = int(words[k + 1]) if words[k + 1].isdigit() else 1
            del words[k : k + 2]
        path = next((w for w in words if not w.startswith("-") or w == STDIN), None)
    if not path or path == STDIN:
        return []
    try:
        for k, header in enumerate(read_headers(path), start=1):
            if k == game:
                return [] if isinstance(header, Exception) else _starting([s.name for s in header.seats], incomplete)
    except Exception:  # an unreadable file completes nothing
        return []
    return []


# --- cards ---------------------------------------------------------------------------------------------------


class AgeType(click.ParamType):
    name = "AGE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip().upper()
        ages = {numeral: age for age, numeral in AGE_NUMERALS.items()} | {str(a): a for a in AGE_NUMERALS}
        if text not in ages:
            self.fail(f"{value!r} is not an Age: use I, II, III (or 1, 2, 3)", param, ctx)
        return ages[text]


class ColourType(click.ParamType):
    name = "COLOUR"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value).strip().lower()
        text = {"gray": "grey", "guild": "purple"}.get(text, text)
        if text not in COLOURS:
            self.fail(f"{value!r} is not a card colour: use one of {', '.join(COLOURS)}", param, ctx)
        return text


def _is_terminal() -> bool:
    """Rich tables for a person at a terminal, plain text for pipes and files."""
    return sys.stdout.isatty()


def _age(card: Card) -> str:
    return AGE_NUMERALS[card.age]


def _effects(effects: Sequence[catalog.Effect]) -> str:
    return "; ".join(describe(e) for e in effects)


def _names(names: Sequence[str]) -> str:
    return ", ".join(names) if names else "-"


def _copies_row(card: Card) -> str:
    return "/".join(str(card.copies_for(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))


def _plain_table(header: Sequence[str], rows: Sequence[Sequence[str]], right_align: bool = False) -> str:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]

    def cell(k: int, text: str, width: int) -> str:
        return text.rjust(width) if right_align and k else text.ljust(width)

    return "\n".join(
        "  ".join(cell(k, str(c), w) for k, (c, w) in enumerate(zip(row, widths))).rstrip() for row in [header, *rows]
    )


_STYLE = {"brown": "dark_orange3", "grey": "grey62", "blue": "bright_blue", "yellow": "yellow", "red": "red",
          "green": "green", "purple": "magenta"}


def _print_table(header: Sequence[str], rows: Sequence[Sequence[str]], title: str | None = None,
                 colour_column: int | None = None, right_align: bool = False) -> None:
    """A table on stdout: rich on a terminal, plain aligned columns otherwise. ``right_align`` aligns every
    column but the first to the right (numbers)."""
    if not _is_terminal():
        if title:
            click.echo(title)
        click.echo(_plain_table(header, rows, right_align))
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


def _print_fields(title: str, fields: Sequence[tuple[str, str]]) -> None:
    """One item in full, a field per line: rich on a terminal, plain ``name  value`` lines otherwise."""
    if not _is_terminal():
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


def _card_fields(card: Card, players: int | None) -> list[tuple[str, str]]:
    fields = [("age", _age(card)), ("colour", card.colour), ("cost", str(card.cost))]
    fields += [("effect" if i == 0 else "", describe(e)) for i, e in enumerate(card.effects)]
    fields += [("free if you own", _names(card.chain_from)), ("makes free", _names(card.chain_to))]
    if card.is_guild:
        fields.append(("copies", "1; N+2 of the 10 guilds are drawn into the Age III deck"))
    else:
        printed = ", ".join(f"{m}+" for m in card.copies)
        fields.append(("copies", f"{len(card.copies)} (printed {printed}); in the deck for 3/4/5/6/7 players: "
                                 f"{_copies_row(card)}"))
    if players is not None:
        count = f"{guild_count(players)} of the 10 guilds are drawn" if card.is_guild else card.copies_for(players)
        fields.append((f"{players}-player deck", str(count)))
    fields.append(("key", card.key))
    return fields


def _wonder_rows(side: WonderSide) -> list[list[str]]:
    return [[str(s.index), str(s.cost), _effects(s.effects)] for s in side.stages]


def _emit_json(data: dict) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


CARDS_EPILOG = """\b
Examples:
  wnotation cards --age I --colour brown
  wnotation cards "lumber yard"
  wnotation cards --players 3 --age III
  wnotation cards --wonder gizah --side night
  wnotation cards --json > catalogue.json"""


@main.command(epilog=CARDS_EPILOG, short_help="List the cards and Wonder boards, or show one in full.")
@click.argument("name", required=False, shell_complete=_complete_card)
@click.option("--age", type=AgeType(), help="Only this Age: I, II or III (1, 2, 3 work too).")
@click.option("--colour", "--color", "colour", type=ColourType(), help=f"Only this colour: {', '.join(COLOURS)}.")
@click.option("--players", type=int, metavar="N", help="Show the copies in an N-player deck (3-7), leaving out "
              "cards that are not in it.")
@click.option("--name", "substring", metavar="TEXT", help="Only cards whose name contains TEXT (any case).")
@click.option("--guilds", is_flag=True, help="Only the 10 guilds.")
@click.option("--wonder", metavar="WONDER", shell_complete=_complete_wonder, help="Show a Wonder board (both sides, or the one given by --side).")
@click.option("--wonders", "all_wonders", is_flag=True, help="Show every Wonder board.")
@click.option("--side", type=click.Choice(["day", "night", "A", "B"], case_sensitive=False),
              help="With --wonder/--wonders: only this side (A = day, B = night).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for other tools: the whole catalogue, or the "
              "selection.")
def cards(name: str | None, age: int | None, colour: str | None, players: int | None, substring: str | None,
          guilds: bool, wonder: str | None, all_wonders: bool, side: str | None, as_json: bool) -> None:
    """List and filter the cards, or show one card or Wonder board in full.

    Without NAME, lists the cards that pass every filter, in catalogue order. With NAME (a printed card name,
    any case and spacing), shows that card: Age, colour, cost, effects, chains both ways and its copies per
    player count; a name printed in two Ages (Glassworks, Press, Loom) shows both designs unless --age picks one.
    """
    cat = catalog.load()
    if players is not None:
        check_players(players)
    if side is not None and not (wonder or all_wonders):
        raise click.UsageError("--side needs --wonder or --wonders")
    if wonder or all_wonders:
        card_options = [o for o, v in (("NAME", name), ("--age", age), ("--colour", colour), ("--players", players),
                                       ("--name", substring), ("--guilds", guilds)) if v]
        if wonder and all_wonders:
            raise click.UsageError("give --wonder WONDER or --wonders, not both")
        if card_options:
            raise click.UsageError(f"{', '.join(card_options)} cannot be combined with --wonder/--wonders")
        _show_wonders(cat, wonder, side, as_json)
    elif name is not None:
        filters = [o for o, v in (("--colour", colour), ("--name", substring), ("--guilds", guilds)) if v]
        if filters:
            raise click.UsageError(f"NAME shows one card; {', '.join(filters)} only filter the list (drop NAME)")
        _show_card(cat, name, age, players, as_json)
    else:
        _list_cards(cat, age, colour, players, substring, guilds, as_json)


def _show_card(cat: catalog.Catalog, name: str, age: int | None, players: int | None, as_json: bool) -> None:
    try:
        printed = cat.card_name(name)
    except CatalogError:
        if catalog.normalise(name) in {catalog.normalise(w.name) for w in cat.wonders}:
            wonder = cat.wonder_name(name)
            raise UserError(f"{name!r} is a Wonder, not a card: try 'wnotation cards --wonder {wonder}'") from None
        raise
    designs = [cat.card(printed, age)] if age is not None else [c for c in cat.cards if c.name == printed]
    if as_json:
        _emit_json({"edition": cat.edition, "cards": [catalog.card_data(c) for c in designs]})
        return
    for i, card in enumerate(designs):
        if i:
            click.echo()
        _print_fields(card.name, _card_fields(card, players))


def _list_cards(cat: catalog.Catalog, age: int | None, colour: str | None, players: int | None,
                substring: str | None, guilds: bool, as_json: bool) -> None:
    needle = catalog.normalise(substring) if substring is not None else None
    selection = [
        c for c in cat.cards
        if (age is None or c.age == age)
        and (colour is None or c.colour == colour)
        and (not guilds or c.is_guild)
        and (needle is None or needle in catalog.normalise(c.name))
        and (players is None or c.is_guild or c.copies_for(players) > 0)
    ]
    unfiltered = age is None and colour is None and needle is None and not guilds and players is None
    if as_json:
        data: dict[str, Any] = {"edition": cat.edition}
        if unfiltered:
            data["disputed"] = list(cat.disputed)
        if players is not None:
            data["players"] = players
        data["cards"] = [
            catalog.card_data(c) | ({} if players is None else {"copies_in_deck": c.copies_for(players)})
            for c in selection
        ]
        if unfiltered:
            data["wonders"] = [catalog.wonder_data(w) for w in cat.wonders]
        _emit_json(data)
        return
    if not selection:
        click.echo("no card matches these filters", err=True)
        return
    copies = "copies 3/4/5/6/7" if players is None else f"copies ({players}p)"
    header = ["age", "name", "colour", "cost", "effects", "free if you own", "makes free", copies]
    rows = [
        [_age(c), c.name, c.colour, str(c.cost), _effects(c.effects), _names(c.chain_from), _names(c.chain_to),
         ("drawn" if c.is_guild else str(c.copies_for(players))) if players is not None
         else ("drawn" if c.is_guild else _copies_row(c))]
        for c in selection
    ]
    _print_table(header, rows, colour_column=2)
    if players is not None and colour is None and needle is None and not guilds:
        for a in catalog.AGES if age is None else (age,):
            in_deck = sum(c.copies_for(players) for c in cat.age_cards(a))
            drawn = f" + {guild_count(players)} guilds drawn = {7 * players}" if a == 3 else ""
            click.echo(f"Age {AGE_NUMERALS[a]} deck for {players} players: {in_deck} cards{drawn}")


def _show_wonders(cat: catalog.Catalog, wonder: str | None, side: str | None, as_json: bool) -> None:
    sides = list(cat.wonders)
    if wonder is not None:
        printed = cat.wonder_name(wonder)
        sides = [w for w in sides if w.name == printed]
    if side is not None:
        wanted = {"a": "day", "b": "night"}.get(side.lower(), side.lower())
        sides = [w for w in sides if w.side == wanted]
    if as_json:
        _emit_json({"edition": cat.edition, "wonders": [catalog.wonder_data(w) for w in sides]})
        return
    for i, w in enumerate(sides):
        if i:
            click.echo()
        title = f"{w.name} {w.side} ({w.full_name}): starting resource {w.resource}, {len(w.stages)} stages"
        _print_table(["stage", "cost", "effects"], _wonder_rows(w), title=title)


# --- reading inputs ------------------------------------------------------------------------------------------

STDIN = "-"
STDIN_NAME = "<stdin>"


def _stdin_text() -> str:
    """Standard input as UTF-8 text (strict: bytes that are not UTF-8 make it unreadable, whatever the locale).
    The bytes are read from ``sys.stdin.buffer``; a replaced ``sys.stdin`` without one is read as text."""
    raw = getattr(sys.stdin, "buffer", None)
    return raw.read().decode("utf-8") if raw is not None else sys.stdin.read()


def _read(path: str) -> tuple[str, str]:
    """``(text, source name)`` of a file or of ``-`` (stdin). Raises ``UserError`` with one line when the input
    cannot be read."""
    from .diagnostics import read_text, unreadable_reason

    try:
        if path == STDIN:
            return _stdin_text(), STDIN_NAME
        return read_text(path), path
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {STDIN_NAME if path == STDIN else path}: {unreadable_reason(exc)}") from None


def _expand(paths: Sequence[str]) -> list[str]:
    """The inputs named by ``paths``, in order: files as given, directories searched recursively for ``*.7wn``
    (sorted), ``-`` for stdin. A path that does not exist, or a directory without any ``.7wn`` file, is a
    ``UserError`` (exit 2) before anything is read."""
    import os
    from pathlib import Path

    out: list[str] = []
    for path in paths:
        if path == STDIN:
            out.append(path)
        elif os.path.isdir(path):
            found = sorted(str(p) for p in Path(path).rglob("*.7wn") if p.is_file())
            if not found:
                raise UserError(f"no .7wn file in directory {path}")
            out.extend(found)
        elif os.path.exists(path):
            out.append(path)
        else:
            raise UserError(f"cannot read {path}: no such file or directory")
    if out.count(STDIN) > 1:
        raise click.UsageError("'-' (stdin) can be given only once")
    return out


def _one_game(path: str, game: int) -> tuple[Any, list[str], str]:
    """``(record, source lines, source name)`` of game number ``game`` (1-based) of a file. A notation error in
    that game is raised (shown compiler-style, exit 2); a missing game is a ``UserError``."""
    from .diagnostics import _lines
    from .notation import NotationError, read_games

    text, source = _read(path)
    count = 0
    for count, item in enumerate(read_games(text, source=source), start=1):
        if count == game:
            if isinstance(item, NotationError):
                raise item
            return item, _lines(text), source
    have = "no game" if count == 0 else f"{count} game" + ("s" if count > 1 else "")
    raise UserError(f"{source} has {have}; there is no game {game}")


def _err(text: str) -> None:
    click.echo(text, err=True)


def _worst(codes: Sequence[int]) -> int:
    """The exit code of several results: internal error over unreadable input over findings over ok."""
    order = (EXIT_INTERNAL, EXIT_USAGE, EXIT_FINDINGS)
    return next((code for code in order if code in codes), EXIT_OK)


# --- check ---------------------------------------------------------------------------------------------------

CHECK_EPILOG = """\b
Diagnostics go to stderr, compiler-style, with the source line and a caret:
  game.7wn:41:9: error[R-TRADE]: Bob cannot build Temple: …
The summary line goes to stdout; with --json the whole report does (and nothing to stderr).
Exit codes: 0 no errors (warnings and notes allowed), 1 an error in some record or an
input without any game (unless --allow-empty), 2 an input that cannot be read (missing
file, not UTF-8) or a usage error.

\b
Examples:
  wnotation check replays/
  wnotation check archive.7wn --jobs 4
  wnotation generate --players 5 --seed 1 | wnotation check -
  wnotation check replays/ --json > report.json"""


@main.command(epilog=CHECK_EPILOG, short_help="Check records: read, replay every action, verify the results.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", type=RECORD_PATH)
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, metavar="N",
              help="Check in N worker processes (0: one per CPU); a big file is cut into pieces of whole games "
              "for them. Output is the same, in input order, whatever N is.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON on stdout.")
@click.option("--allow-empty", is_flag=True, help="Accept an input without any game (empty, blank, only "
              "comments) with a warning; by default it is an error (exit 1), so a truncated file does not pass.")
def check(paths: tuple[str, ...], jobs: int, as_json: bool, allow_empty: bool) -> int:
    """Check 7WN records: read every game, replay it under the rules, verify its expected results.

    PATH is a .7wn file, a directory (searched recursively for *.7wn files) or - for standard input. A broken
    game is reported and the next one is still checked. Every problem is shown with its file, line and column,
    its rule ID (R-… for the rules, a notation check such as syntax or unknown-card otherwise) and the line.
    """
    from .diagnostics import CheckTally

    inputs = _expand(paths)
    tally = CheckTally()
    out = _JsonReport(tally) if as_json else None
    with _Progress("checking", lambda: _games_in(inputs), writes=as_json) as progress, \
            closing(_check_all(inputs, jobs, allow_empty)) as runs:
        for run in runs:
            if out is None and run.error is not None:
                progress.echo(f"error: cannot read {run.source}: {run.error}")
            if out is not None:
                out.start(run.source)
            for game in run.games():
                tally.add_game(game)
                progress.advance()
                if out is not None:
                    out.game(game)
                else:
                    for d in game.diagnostics:
                        progress.echo(str(d))
            tally.add_file(run.error, run.remarks)
            if out is not None:
                out.end(run.error, run.remarks)
            else:
                for d in run.remarks:
                    progress.echo(str(d))
    if out is not None:
        out.finish()
    else:
        click.echo(tally.summary())
    return tally.exit_code


class _JsonReport:
    """``check --json`` written as the games come: the text ``json.dumps(CheckReport(...).to_dict(), indent=2)``
    gives, byte for byte, without holding the reports. A file's ``ok`` comes before its games in that layout, so
    each file's games are spooled (to a temporary file past a few MiB) until the file is done; the summary follows
    the last file. Memory stays flat whatever the number of games."""

    def __init__(self, tally: Any) -> None:
        self.tally, self.files, self.spool, self.ok, self.empty = tally, 0, None, True, True
        self.source = ""

    def start(self, source: str) -> None:
        import tempfile

        self.source, self.ok, self.empty = source, True, True
        self.spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+", encoding="utf-8")

    def game(self, game: Any) -> None:
        self.ok = self.ok and game.ok
        self.spool.write(("" if self.empty else ",\n") + _json_at(game.to_dict(), 4, first=True))
        self.empty = False

    def end(self, error: str | None, remarks: Sequence[Any]) -> None:
        ok = error is None and self.ok and not any(d.severity == "error" for d in remarks)
        head = {"source": self.source, "ok": ok, "error": error,
                "remarks": [d.to_dict() for d in remarks], "games": []}
        text = _json_at(head, 2, first=True)
        assert text.endswith('"games": []\n    }')
        click.echo((",\n" if self.files else '{\n  "files": [\n') + text[: -len("[]\n    }")], nl=False)
        if self.empty:
            click.echo("[]", nl=False)
        else:
            import shutil

            click.echo("[\n", nl=False)
            self.spool.seek(0)
            shutil.copyfileobj(self.spool, _Echo())
            click.echo("\n      ]", nl=False)
        click.echo("\n    }", nl=False)
        self.spool.close()
        self.files += 1

    def finish(self) -> None:
        summary = _json_at(self.tally.summary_dict(), 1)
        click.echo(f'\n  ],\n  "summary": {summary},\n  "exit_code": {self.tally.exit_code}\n}}')


#: A file's games in ``check --json`` are held in memory up to this size, then in a temporary file.
SPOOL_BYTES = 4 << 20


class _Echo:
    """A writable object that sends its text through ``click.echo`` (for ``shutil.copyfileobj``)."""

    def write(self, text: str) -> None:
        click.echo(text, nl=False)


def _json_at(value: Any, level: int, first: bool = False) -> str:
    """``value`` as ``json.dumps(..., indent=2)`` lays it out ``level`` levels deep in a bigger document: every
    line but the first indented by ``2 * level`` spaces (the first too with ``first``)."""
    pad = "  " * level
    text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + pad)
    return pad + text if first else text


class _Run:
    """One input as ``check`` streams it: ``source``, ``error`` (unreadable), then its game reports in file order
    (``games()``, numbered across pieces: consume them before the next input), then ``remarks`` (the warning of
    an input without games)."""

    def __init__(self, source: str, error: str | None, results: Iterator[tuple[Any, ...]], first: list[str],
                 allow_empty: bool = False) -> None:
        self.source, self.error, self.results, self.first = source, error, results, first
        self.allow_empty = allow_empty
        self.remarks: tuple[Any, ...] = ()

    def games(self) -> Iterator[Any]:
        from dataclasses import replace

        from .diagnostics import no_game_remark

        index = 0
        for reports in self.results:
            for game in reports:
                index += 1
                yield game if game.index == index else replace(game, index=index)
        if index == 0 and self.error is None:
            self.remarks = (no_game_remark(self.source, self.first[0] if self.first else "", self.allow_empty),)


def _check_all(inputs: Sequence[str], jobs: int, allow_empty: bool = False) -> Iterator[_Run]:
    """Yield a :class:`_Run` for each input in input order.

    Each input is read lazily and cut into pieces of whole games (:func:`~wnotation.diagnostics.iter_pieces`;
    a file is first scanned once for UTF-8 and its number of games, so that an unreadable file is reported before
    any of its games). With one job, each piece (one game) is checked here; with more, worker processes check
    the pieces (:func:`~wnotation.diagnostics.check_pieces`), a big file cut into pieces of several games, small
    files sent several to a task; at most about ``PIECES_PER_WORKER`` tasks per worker are in flight, so only
    their text is held. Both ways give equal reports, in file order."""
    import os

    from .diagnostics import check_piece

    workers = jobs or os.cpu_count() or 1
    if workers == 1:
        for path in inputs:
            source, error, count, pieces, first = _open_input(path, lambda count: 1)
            yield _Run(source, error, (check_piece(piece, source, line0) for piece, line0 in pieces), first, allow_empty)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Load the notation and the engine before the workers start: forked workers then share them (jobs 1 pays the
    # same imports), and a worker's first piece costs no more than its others.
    from . import engine, notation  # noqa: F401

    # fork where it is safe (Linux): workers start at once with all of the above loaded. Nothing here runs a
    # thread before the pool starts (the progress bar redraws without one).
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from _Pool(pool, inputs, workers, allow_empty).runs()


#: With N workers, a file is cut into about PIECES_PER_WORKER * N pieces (so that workers finish together and the
#: output can start early), of at most MAX_PIECE_GAMES games each; at most PIECES_PER_WORKER * N tasks are in
#: flight. Files of one piece are sent several to a task, up to as many games as a piece of a file as big as all
#: the inputs together would hold (one-game files: MAX_PIECE_GAMES for PIECES_PER_WORKER * N * MAX_PIECE_GAMES
#: files or more).
PIECES_PER_WORKER = 8
MAX_PIECE_GAMES = 32


def _piece_size(games: int, workers: int) -> int:
    return max(1, min(MAX_PIECE_GAMES, -(-games // (PIECES_PER_WORKER * workers))))


def _open_input(path: str, size: Any) -> tuple[str, str | None, int, Iterator[tuple[str, int]], list[str]]:
    """``(source, error, marks, pieces, first)`` of an input: ``error`` why it cannot be read (and no pieces),
    ``marks`` its ``[Format`` marks (at least its games), its pieces of ``size(marks)`` games read lazily
    (:func:`~wnotation.diagnostics.iter_pieces`), and ``first``, filled with its first line once read. Standard
    input is read whole (it cannot be scanned twice)."""
    from .diagnostics import _text_lines, file_lines, iter_pieces, normalise, scan_file, unreadable_reason

    source = STDIN_NAME if path == STDIN else path
    try:
        if path == STDIN:
            text = normalise(_stdin_text())
            marks = text.count("[Format")
            lines: Iterator[str] = _text_lines(text)
        else:
            marks = scan_file(path)
            lines = file_lines(path)
    except (OSError, UnicodeDecodeError) as exc:
        return source, unreadable_reason(exc), 0, iter(()), []
    first: list[str] = []

    def pieces() -> Iterator[tuple[str, int]]:
        for piece, line0 in iter_pieces(lines, size(marks)):
            if not first:
                first.append(piece.split("\n", 1)[0])
            yield piece, line0

    return source, None, marks, pieces(), first


class _Task:
    """Pieces sent to a worker together (one piece of a big file, or several small files): ``(piece, source,
    line0)`` each, and once submitted the future of their reports."""

    def __init__(self) -> None:
        self.pieces: list[tuple[str, str, int]] = []
        self.games = 0
        self.future: Any = None


class _Pool:
    """The pieces of every input sent to a process pool in input order, at most about ``PIECES_PER_WORKER`` tasks
    per worker submitted and not yet reported, the reports handed back in input order as :class:`_Run` objects.
    Pieces of big files are a task each; inputs of one piece are gathered several to a task."""

    def __init__(self, pool: Any, inputs: Sequence[str], workers: int, allow_empty: bool = False) -> None:
        from collections import deque

        self.allow_empty = allow_empty
        self.pool, self.workers = pool, workers
        self.batch_games = _piece_size(len(inputs), workers)  # games in a task of small files
        self.limit = PIECES_PER_WORKER * workers
        self.items = self._items(inputs)
        self.slots: deque[tuple[Any, ...]] = deque()  # ("file", source, error, first) and ("piece", task, k)
        self.submitted: deque[_Task] = deque()  # tasks submitted and not yet reported, in order
        self.batch = _Task()  # small inputs' pieces waiting for a task

    def _items(self, inputs: Sequence[str]) -> Iterator[tuple[Any, ...]]:
        for path in inputs:
            size = _piece_size  # per input: a piece is 1/(PIECES_PER_WORKER * workers) of it, within bounds
            source, error, marks, pieces, first = _open_input(path, lambda marks: size(marks, self.workers))
            yield "file", source, error, first
            count = max(1, -(-marks // size(marks, self.workers)))
            for piece, line0 in pieces:
                yield "piece", (piece, source, line0), count == 1, marks

    def _submit(self, task: _Task) -> None:
        from .diagnostics import check_pieces

        task.future = self.pool.submit(check_pieces, task.pieces)
        self.submitted.append(task)

    def _flush(self) -> None:
        if self.batch.pieces:
            self._submit(self.batch)
            self.batch = _Task()

    def _fill(self) -> None:
        """Read inputs and submit their pieces until enough tasks are in flight (at least one slot ready)."""
        while len(self.submitted) < self.limit or not self.slots:
            item = next(self.items, None)
            if item is None:
                self._flush()
                return
            if item[0] == "file":
                self.slots.append(item)
                continue
            _, piece, small, marks = item
            if small:
                task = self.batch
            else:
                self._flush()
                task = _Task()
            task.pieces.append(piece)
            task.games += max(1, marks)
            self.slots.append(("piece", task, len(task.pieces) - 1))
            if not small:
                self._submit(task)
            elif task.games >= self.batch_games:
                self._flush()

    def runs(self) -> Iterator[_Run]:
        while True:
            self._fill()
            if not self.slots:
                return
            _, source, error, first = self.slots.popleft()
            run = _Run(source, error, self._results(), first, self.allow_empty)
            yield run
            for _ in run.results:  # what the caller left unread
                pass

    def _results(self) -> Iterator[tuple[Any, ...]]:
        """The reports of the current input's pieces, in order (waiting for them)."""
        while True:
            self._fill()
            if not self.slots or self.slots[0][0] == "file":
                return
            _, task, k = self.slots.popleft()
            if task.future is None:
                self._flush()
            reports = task.future.result()[k]
            if k == len(task.pieces) - 1:
                self.submitted.remove(task)
            yield reports


#: A progress bar appears once a run has lasted this long (seconds): short runs stay quiet.
PROGRESS_DELAY = 1.0
#: The bar is redrawn at most this often (seconds), so that fast runs do not pay for drawing it.
PROGRESS_REDRAW = 0.1


class _Progress:
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

    def __enter__(self) -> "_Progress":
        import time

        self.terminal = _stderr_is_terminal() and not (self.writes and _is_terminal())
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
        if self.bar is not None:
            self.bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            _err(text)


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


def _games_in(inputs: Sequence[str]) -> int | None:
    """How many games the inputs hold, for a progress bar's total: their ``[Format`` marks (a comment may hold one
    more); ``None`` when standard input is one of them (it cannot be read twice). Cost: a scan of each file."""
    from .diagnostics import scan_file

    total = 0
    for path in inputs:
        if path == STDIN:
            return None
        try:
            total += scan_file(path)
        except (OSError, UnicodeDecodeError):
            pass  # reported when it is checked
    return total


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


# --- score ---------------------------------------------------------------------------------------------------

SCORE_EPILOG = """\b
The sheet is laid out like the score pad: a column per seat, a row per category (military,
treasury, wonder, civilian, commercial, guilds, science), then total, coins and rank (ties on
points broken by coins; seats still tied share the rank). Findings go to stderr; exit 1 if any
is an error or the game is incomplete. A card a seat built that the record does not name (a
build or a pick of ?) cannot be scored: the sheet then says what it leaves out (--json:
"incomplete" and "missing").

\b
Examples:
  wnotation score replays/7p-all-wonders.7wn
  wnotation score club-night.7wn --game 3
  wnotation score replays/3p-babylon-halikarnassos-olympia.7wn --json"""


def _replayed(record: Any, lines: list[str], source: str) -> tuple[Any, int]:
    """Replay ``record``, print its findings to stderr, and return the replay and the exit code they give."""
    from .diagnostics import diagnostics_of, is_check_only
    from .engine import replay

    played = replay(record)
    found = diagnostics_of(record, [f for f in played.findings if not is_check_only(f)], lines, source)
    for d in found:
        _err(str(d))
    return played, EXIT_FINDINGS if any(d.severity == "error" for d in found) else EXIT_OK


@main.command(epilog=SCORE_EPILOG, short_help="Show the final score sheet of a game.")
@click.argument("file", type=RECORD_PATH)
@click.option("--game", type=click.IntRange(min=1), default=1, metavar="N", help="Which game of the file (1 first).")
@click.option("--json", "as_json", is_flag=True, help="Print the score sheet as JSON.")
def score(file: str, game: int, as_json: bool) -> int:
    """Replay game N of FILE (- for stdin) and print its final score sheet.

    The expected results stated in the record are verified: a difference is reported as an R-SCORE finding.
    """
    from . import render

    record, lines, source = _one_game(file, game)
    played, code = _replayed(record, lines, source)
    if played.scores is None:
        last = played.final.address if played.final is not None else "the start"
        _err(f"error: game {game} of {source} is incomplete (the record stops at {last}): no score sheet")
        return EXIT_FINDINGS
    missing = render.unnamed_cards(record)
    if missing:
        _err(f"warning: {render.unnamed_text(missing)}")
    if as_json:
        _emit_json({"source": source, "game": game} | render.score_data(record, played.scores)
                   | {"incomplete": bool(missing), "missing": missing})
    else:
        header, rows = render.score_table(record, played.scores)
        _print_table(header, rows, right_align=True)
        if missing:
            click.echo(render.unnamed_text(missing))
    return code


# --- show ----------------------------------------------------------------------------------------------------

SHOW_EPILOG = """\b
Addresses: I.0 is Age I dealt, II.3 the position after turn 3 of Age II, I.7 after Babylon's extra
turn, III.end the end of the game (after Age III's military). Without --at, the last position.

\b
Examples:
  wnotation show replays/7p-all-wonders.7wn --at II.3
  wnotation show replays/partial-4p-niamh.7wn --at II.3 --seat Bao --legal
  wnotation show game.7wn --at III.end --json"""


@main.command(epilog=SHOW_EPILOG, short_help="Show a position: every city, the hands, the discard pile.")
@click.argument("file", type=RECORD_PATH)
@click.option("--at", "where", metavar="ADDRESS", shell_complete=_complete_address, help="The position to show, e.g. II.3 (default: the last one).")
@click.option("--game", type=click.IntRange(min=1), default=1, metavar="N", help="Which game of the file (1 first).")
@click.option("--seat", metavar="NAME", shell_complete=_complete_seat, help="Only this seat (its name, or its number 1-7).")
@click.option("--legal", is_flag=True, help="List the legal actions of the seat (of every seat without --seat) "
              "in the next turn, with each cheapest purchase and its cost.")
@click.option("--json", "as_json", is_flag=True, help="Print the position as JSON.")
def show(file: str, where: str | None, game: int, seat: str | None, legal: bool, as_json: bool) -> int:
    """Replay game N of FILE (- for stdin) up to a position and show it.

    Each city: Wonder and stages built, coins, production (tradable, and own-use only), shields and military
    tokens, science symbols, trade prices when discounted, Buildings grouped by colour, and the hand (? for a card
    the record does not reveal); then the discard pile. With --legal, the legal actions as you would write them.
    """
    from . import render
    from .engine import legal_actions

    record, lines, source = _one_game(file, game)
    played, code = _replayed(record, lines, source)
    if played.final is None:
        raise UserError(f"game {game} of {source} has no turn: there is no position to show")
    if where is None:
        state = played.final
    else:
        try:
            state = played.position(render.canonical_address(where))
        except KeyError as exc:
            raise UserError(str(exc.args[0])) from None
    seats = [_seat_number(record, seat)] if seat is not None else list(range(1, record.players + 1))
    names = [s.name for s in record.seats]
    moves = {s: legal_actions(state, s) for s in seats} if legal else {}
    if as_json:
        data: dict[str, Any] = {"source": source, "game": game} | render.position_data(state, record, seats)
        if legal:
            data["legal"] = {names[s - 1]: render.legal_data(moves[s]) for s in seats}
        _emit_json(data)
        return code
    click.echo(render.position_title(state, record.players))
    for s in seats:
        click.echo()
        title, fields = render.city_fields(state, s, names[s - 1])
        _print_fields(title, fields)
    if seat is None:
        click.echo()
        click.echo(f"discard pile: {render.discard_text(state)}")
    for s in seats if legal else ():
        click.echo()
        if not moves[s]:
            click.echo(f"{names[s - 1]} has no action to play after {state.address}: {_why_idle(state)}")
            continue
        header, rows = render.legal_table(moves[s])
        nxt = f"{AGE_NUMERALS[state.age]}.{state.turn + 1}"
        _print_table(header, rows, title=f"legal actions of {names[s - 1]} in turn {nxt}")
    return code


def _why_idle(state: Any) -> str:
    if state.finished:
        return "the game is over"
    if state.ended:
        return f"Age {state.address.split('.')[0]} is over; the next position is the next Age's deal"
    if state.turn >= 6:
        return "the Age's turns are over for this seat"
    return "the hand holds only cards the record does not reveal"


def _seat_number(record: Any, text: str) -> int:
    """The seat named ``text``: a name (any case), or a number ``2`` / ``#2``. ``UserError`` otherwise."""
    import difflib

    wanted = " ".join(text.split()).casefold()
    digits = wanted.lstrip("#")
    if digits.isdigit() and 1 <= int(digits) <= record.players:
        return int(digits)
    for k, s in enumerate(record.seats, start=1):
        if " ".join(s.name.split()).casefold() == wanted:
            return k
    names = [s.name for s in record.seats]
    near = difflib.get_close_matches(text, names, n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]}?" if near else f" (seats: {', '.join(names)})"
    raise UserError(f"no seat {text!r} in this game{hint}")


# --- fmt -----------------------------------------------------------------------------------------------------

FMT_EPILOG = """\b
Like black: without an option, the canonical text goes to stdout. --check exits 1 and names
the files that would change; --diff prints a unified diff (exit 0, or 1 with --check);
--write rewrites the files in place, atomically. The canonical form includes purchases
(R-TRADE-MINIMAL, spec/7wn.md section 10): the rules engine replays each game and a purchase
is stated exactly when more than one cheapest purchase exists (the engine's default is then
written out) or the stated one is not the default; a stated purchase that is the only
cheapest one is dropped. Illegal actions and free builds keep what they state, and the
game replays exactly as before. --keep-purchases formats the notation only and keeps every
purchase as written (so --check --keep-purchases checks the layout alone). A file is
rewritten only if its canonical text replays as before, reads back as the same games and
formats to itself again; if not, that is a bug in wnotation: exit 3, and the file is left
untouched. A file that does not read is reported compiler-style and left alone (exit 2); a file
that cannot be written (disk full, read-only) is named, left untouched, and the other files are
still formatted (exit 2). A symbolic link is written through: its target is formatted, the link
kept.

\b
Examples:
  wnotation fmt game.7wn
  wnotation fmt --check replays/
  wnotation fmt --check --keep-purchases replays/
  wnotation fmt --diff game.7wn
  wnotation fmt --write replays/"""


@main.command(epilog=FMT_EPILOG, short_help="Format records in the canonical 7WN form.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", type=RECORD_PATH)
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 if a file would change.")
@click.option("--diff", is_flag=True, help="Print a unified diff of the changes instead of the text.")
@click.option("--write", "-w", "write_back", is_flag=True, help="Rewrite the files in place (atomically).")
@click.option("--keep-purchases", is_flag=True, help="Keep every purchase as written: format the notation only, "
              "without the rules engine's purchase normalisation.")
def fmt(paths: tuple[str, ...], check_only: bool, diff: bool, write_back: bool, keep_purchases: bool) -> int:
    """Format 7WN records canonically (spec/7wn.md, section 10).

    PATH is a .7wn file, a directory (searched recursively for *.7wn) or - for standard input. Formatting never
    changes what a record says: comments, glyphs and tags are kept, names spelt as printed, and a purchase is
    written out or left out only where the engine's choice is the same either way.
    """
    from .diagnostics import FormatBug, canonical_text

    if write_back and (check_only or diff):
        raise click.UsageError("--write cannot be combined with --check or --diff")
    inputs = _expand(paths)
    codes: list[int] = []
    changed = unchanged = 0
    bar = _Progress("formatting", lambda: _games_in(inputs)) if (check_only or write_back) and not diff else None
    with bar or nullcontext() as progress:
        say = progress.echo if progress is not None else _err
        step = progress.advance if progress is not None else None
        for path in inputs:
            try:
                text, source = _read(path)
            except UserError as exc:
                say(f"error: {exc.format_message()}")
                codes.append(EXIT_USAGE)
                continue
            try:
                new = canonical_text(text, source, purchases=not keep_purchases, on_game=step)
            except FormatBug as bug:
                say(f"internal error: {source}: {bug}; this is a bug in wnotation, the file is left untouched")
                codes.append(EXIT_INTERNAL)
                continue
            except ValueError as exc:  # a NotationError: the record does not read
                say(str(exc))
                codes.append(EXIT_USAGE)
                continue
            same = new == text
            if write_back and not same and path != STDIN:
                try:
                    _atomic_write(path, new)
                except OSError as exc:
                    from .diagnostics import unreadable_reason

                    say(f"error: cannot write {source}: {unreadable_reason(exc)}; the file is left untouched")
                    codes.append(EXIT_USAGE)
                    continue
            changed += not same
            unchanged += same
            if diff:
                _print_diff(text, new, source)
            if check_only:
                if not same:
                    say(f"would reformat {source}")
                    codes.append(EXIT_FINDINGS)
            elif write_back:
                if path == STDIN:
                    click.echo(new, nl=False)
                elif not same:
                    say(f"reformatted {source}")
            elif not diff:
                click.echo(new, nl=False)
    if check_only or write_back:
        verb = ("would be reformatted", "would be left unchanged") if check_only else ("reformatted", "left unchanged")
        parts = [f"{_count(changed, 'file')} {verb[0]}" if changed else "", f"{_count(unchanged, 'file')} {verb[1]}"
                 if unchanged else ""]
        failed = sum(1 for c in codes if c in (EXIT_USAGE, EXIT_INTERNAL))
        parts.append(f"{_count(failed, 'file')} failed to format" if failed else "")
        _err(", ".join(p for p in parts if p) or "nothing to do")
    return _worst(codes)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _print_diff(old: str, new: str, source: str) -> None:
    import difflib

    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 fromfile=f"{source} (original)", tofile=f"{source} (canonical)")
    for line in lines:
        click.echo(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n", nl=False)


#: Temporary files of ``fmt --write`` are named ``.NAME.wnotation-PID-XXXX.tmp`` beside the file NAME: hidden and
#: not ``*.7wn``, so ``check DIR`` and ``fmt DIR`` never read one, and tied to the process that made it.
TEMP_MARK = ".wnotation-"


def _atomic_write(path: str, text: str) -> None:
    """Replace the file at ``path`` by ``text`` atomically: a temporary file in the same directory (same
    permissions), flushed to disk, then renamed over the original. A symbolic link is written through: the file it
    points to is replaced, the link kept. On any failure the original is untouched and the temporary file removed;
    one left by a killed run (its process gone) is removed by the next write of the same file. Raises
    :class:`OSError`."""
    import os
    import tempfile

    target = os.path.realpath(path)
    directory, name = os.path.split(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}{TEMP_MARK}{os.getpid()}-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, os.stat(target).st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _remove_stale_temps(directory, name)


def _remove_stale_temps(directory: str, name: str) -> None:
    """Remove the temporary files of ``fmt --write`` for the file ``name`` whose process no longer runs (killed
    mid-write): they hold nothing the file does not."""
    import os

    prefix = f".{name}{TEMP_MARK}"
    for entry in os.listdir(directory):
        pid = entry[len(prefix):].split("-", 1)[0] if entry.startswith(prefix) and entry.endswith(".tmp") else ""
        if pid.isdigit() and int(pid) != os.getpid() and not _process_runs(int(pid)):
            try:
                os.unlink(os.path.join(directory, entry))
            except OSError:
                pass  # gone already, or not ours to remove: it is hidden and never read


def _process_runs(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it runs, under another user
    return True


# --- json and schema -----------------------------------------------------------------------------------------

JSON_EPILOG = """\b
A file with one game gives one Record object; a file with several games gives an array of them
(--game N picks one). --to-7wn reads such JSON (object or array) and prints canonical 7WN. Source
positions are not part of JSON; everything else round-trips.

\b
Examples:
  wnotation json game.7wn > game.json
  wnotation json --to-7wn game.json
  wnotation json games.7wn | wnotation json --to-7wn -"""


@main.command("json", epilog=JSON_EPILOG, short_help="Convert a record to JSON, or JSON back to 7WN.")
@click.argument("file", type=RECORD_PATH)
@click.option("--to-7wn", "to_7wn", is_flag=True, help="Read JSON (a Record or an array of them), write 7WN.")
@click.option("--game", type=click.IntRange(min=1), metavar="N", help="Only game N of the file (1 first).")
def json_command(file: str, to_7wn: bool, game: int | None) -> None:
    """Print the Records of a 7WN FILE (- for stdin) as JSON, or with --to-7wn a JSON FILE as 7WN.

    The JSON follows the schema printed by 'wnotation schema'.
    """
    from .notation import NotationError, read_games, to_json, write_games

    if to_7wn:
        records = _records_from_json(file)
        if game is not None:
            if game > len(records):
                raise UserError(f"{file} holds {_count(len(records), 'game')}; there is no game {game}")
            records = records[game - 1 : game]
        try:
            click.echo(write_games(records), nl=False)
        except ValueError as exc:
            raise UserError(f"{file}: this Record cannot be written as 7WN: {_one_line(str(exc))}") from None
        return
    if game is not None:
        record, _, _ = _one_game(file, game)
        click.echo(to_json(record))
        return
    text, source = _read(file)
    records = []
    for item in read_games(text, source=source):
        if isinstance(item, NotationError):
            raise item
        records.append(item)
    if not records:
        raise UserError(f"{source} has no game")
    if len(records) == 1:
        click.echo(to_json(records[0]))
    else:
        _emit_json([json.loads(to_json(r)) for r in records])


def _records_from_json(file: str) -> list[Any]:
    from pydantic import ValidationError

    from .notation import from_json

    text, source = _read(file)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{source} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    items = data if isinstance(data, list) else [data]
    records = []
    for k, item in enumerate(items, start=1):
        try:
            records.append(from_json(json.dumps(item)))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "the document"
            which = f"record {k} of " if isinstance(data, list) else ""
            more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
            raise UserError(f"{which}{source} is not a valid Record: {where}: {first['msg'].lower()}{more}") from None
    if not records:
        raise UserError(f"{source} holds no Record")
    return records


SCHEMA_EPILOG = """\b
Examples:
  wnotation schema > 7wn-record.schema.json
  wnotation schema | python3 -m json.tool --compact"""


@main.command(epilog=SCHEMA_EPILOG, short_help="Print the JSON Schema of a Record.")
def schema() -> None:
    """Print the JSON Schema (draft 2020-12) of the Record that 'wnotation json' writes, for other languages."""
    from .notation import json_schema

    _emit_json(json_schema())


# --- generate ------------------------------------------------------------------------------------------------

GENERATE_EPILOG = """\b
Game k of --count K (k = 0, 1, ...) is dealt and played from seed S+k: the deal by SM64-FY
(spec/deal.md), the Wonders by the generator seeded with (S+k) xor 0x574F4E44455253, the bot's
choices by SplitMix64 from S+k. Each game records its seed, guilds and expected results, so
'wnotation check' verifies it, and is canonical, purchases included ('wnotation fmt --check'
passes on it). The same options give the same bytes on every machine.

\b
Examples:
  wnotation generate --players 5 --seed 42
  wnotation generate --players 7 --seed 1 --count 100 --bot greedy > fixtures.7wn
  wnotation generate -p 3 -s 7 | wnotation check -"""


@main.command(epilog=GENERATE_EPILOG, short_help="Generate complete legal games (fixtures) in canonical 7WN.")
@click.option("--players", "-p", type=click.IntRange(3, 7), required=True, metavar="N", help="Seats (3-7).")
@click.option("--seed", "-s", type=click.IntRange(0, (1 << 64) - 1), required=True, metavar="S",
              help="Seed of the first game (0 to 2^64-1).")
@click.option("--count", "-n", type=click.IntRange(min=1), default=1, metavar="K", help="Number of games.")
@click.option("--bot", type=click.Choice(["random", "greedy"]), default="random",
              help="Who plays: uniformly random legal actions, or a one-move greedy heuristic.")
def generate(players: int, seed: int, count: int, bot: str) -> None:
    """Play complete legal games with a built-in bot and print them as canonical 7WN, with expected results."""
    from .canonical import canonical_purchases
    from .engine.bot import play_game
    from .notation import write

    if seed + count - 1 >= 1 << 64:
        raise click.UsageError(f"--seed {seed} with --count {count} runs past the largest seed, 2^64-1")
    with _Progress("generating", count, writes=True) as progress:
        for k in range(count):
            if k:
                click.echo()
            click.echo(write(canonical_purchases(play_game(players, seed + k, bot))), nl=False)
            progress.advance()
