"""``wnotation fmt``: records in the canonical 7WN form, printed, checked, diffed or written back atomically."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext

import click

from ..support.atomicfile import write_atomic as _atomic_write
from ..support.compiler_style import safe_lines
from . import streams
from .errors import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, UserError, worst
from .inputs import RECORD_PATH, STDIN, expand, read
from .output import colour_option, count, diagnostic, emit_data, err
from .progress import Progress, games_in

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


@click.command(epilog=FMT_EPILOG, short_help="Format records in the canonical 7WN form.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", type=RECORD_PATH)
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 if a file would change.")
@click.option("--diff", is_flag=True, help="Print a unified diff of the changes instead of the text.")
@click.option("--write", "-w", "write_back", is_flag=True, help="Rewrite the files in place (atomically).")
@click.option("--keep-purchases", is_flag=True, help="Keep every purchase as written: format the notation only, "
              "without the rules engine's purchase normalisation.")
@colour_option
def fmt(paths: tuple[str, ...], check_only: bool, diff: bool, write_back: bool, keep_purchases: bool) -> int:
    """Format 7WN records canonically (spec/7wn.md, section 10).

    PATH is a .7wn file, a directory (searched recursively for *.7wn) or - for standard input. Formatting never
    changes what a record says: comments, glyphs and tags are kept, names spelt as printed, and a purchase is
    written out or left out only where the engine's choice is the same either way.
    """
    from ..diagnostics import Diagnostic, FormatBug, canonical_text
    from ..notation.errors import NotationError
    from ..support.gcpolicy import batch_collection

    if write_back and (check_only or diff):
        raise click.UsageError("--write cannot be combined with --check or --diff")
    inputs = expand(paths)
    codes: list[int] = []
    changed = unchanged = 0
    bar = Progress("formatting", lambda: games_in(inputs)) if (check_only or write_back) and not diff else None
    with bar or nullcontext() as progress, batch_collection():
        say = progress.echo if progress is not None else err
        show = progress.diagnostic if progress is not None else diagnostic
        step = progress.advance if progress is not None else None
        for path in inputs:
            try:
                text, source = read(path)
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
                if isinstance(exc, NotationError):
                    show(Diagnostic.from_error(exc))
                else:
                    say(str(exc))
                codes.append(EXIT_USAGE)
                continue
            same = new == text
            if write_back and not same and path != STDIN:
                try:
                    _atomic_write(path, new)
                except OSError as exc:
                    from ..diagnostics import unreadable_reason

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
                    codes.append(_emit(new, source, say))
                elif not same:
                    say(f"reformatted {source}")
            elif not diff:
                codes.append(_emit(new, source, say))
    if check_only or write_back:
        verb = ("would be reformatted", "would be left unchanged") if check_only else ("reformatted", "left unchanged")
        parts = [f"{count(changed, 'file')} {verb[0]}" if changed else "", f"{count(unchanged, 'file')} {verb[1]}"
                 if unchanged else ""]
        failed = sum(1 for c in codes if c in (EXIT_USAGE, EXIT_INTERNAL))
        parts.append(f"{count(failed, 'file')} failed to format" if failed else "")
        err(", ".join(p for p in parts if p) or "nothing to do")
    return worst(codes)


def _emit(text: str, source: str, say: Callable[[str], None]) -> int:
    """The canonical text of ``source`` on stdout as it is (it is data: > FILE, | wnotation check -); refused on a
    terminal when it holds a character that steers a terminal (:func:`~wnotation.cli.output.emit_data`), the other
    inputs still formatted. The exit code of the write."""
    try:
        emit_data(text, f"the canonical text of {source}")
    except UserError as exc:
        say(f"error: {exc.format_message()}")
        return EXIT_USAGE
    return EXIT_OK


def _print_diff(old: str, new: str, source: str) -> None:
    """A unified diff on stdout: as it is in a pipe (``| patch``), and on a terminal with every character that
    steers a terminal made visible (it is read there, not applied)."""
    import difflib

    shown = streams.is_terminal()
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 fromfile=f"{source} (original)", tofile=f"{source} (canonical)")
    for line in lines:
        text = line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
        click.echo(safe_lines(text) if shown else text, nl=False)


COMMANDS = (fmt,)
