"""``wnotation check``: read, replay and verify records, diagnostics on stderr and a summary (or JSON) on stdout."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import closing
from typing import TYPE_CHECKING

import click

from .errors import InternalError, UserError
from ..support.compiler_style import json_safe
from ..diagnostics.batch import WorkerLost
from .inputs import RECORD_PATH, STDIN, expand
from .output import colour_option, echo
from .progress import Progress, games_in

if TYPE_CHECKING:
    from ..diagnostics.batch import Run

CHECK_EPILOG = """\b
Diagnostics go to stderr, compiler-style, with the source line and a caret:
  game.7wn:41:9: error[R-TRADE]: Bob cannot build Temple: …
The summary line goes to stdout; with --json the whole report does (and nothing to stderr).
What goes wrong inside a variation (7WN 2) is a note naming the variation
(note[R-DECK]: in variation I.5(1).I.6: …): analysis, not an error of the record.
Exit codes: 0 no errors (warnings and notes allowed), 1 an error in some record or an
input without any game (unless --allow-empty), 2 an input that cannot be read (missing
file, not UTF-8) or a usage error.

\b
Examples:
  wnotation check replays/
  wnotation check archive.7wn --jobs 4
  wnotation generate --players 5 --seed 1 | wnotation check -
  wnotation check replays/ --json > report.json
  wnotation check big/ --scheduler tcp://10.0.0.5:8786"""


@click.command(epilog=CHECK_EPILOG, short_help="Check records: read, replay every action, verify the results.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", type=RECORD_PATH)
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, metavar="N",
              help="Check in N worker processes (0: one per CPU); a big file is cut into pieces of whole games "
              "for them. Output is the same, in input order, whatever N is.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON on stdout.")
@click.option("--allow-empty", is_flag=True, help="Accept an input without any game (empty, blank, only "
              "comments) with a warning; by default it is an error (exit 1), so a truncated file does not pass.")
@click.option("--scheduler", metavar="ADDRESS", help="Check on the Dask cluster whose scheduler is at ADDRESS "
              "(tcp://host:8786): pieces of whole games are its tasks; same output, in input order. Needs "
              "wnotation[cluster].")
@colour_option
def check(paths: tuple[str, ...], jobs: int, as_json: bool, allow_empty: bool, scheduler: str | None) -> int:
    """Check 7WN records: read every game, replay it under the rules, verify its expected results.

    PATH is a .7wn file, a directory (searched recursively for *.7wn files) or - for standard input. A broken
    game is reported and the next one is still checked. Every problem is shown with its file, line and column,
    its rule ID (R-… for the rules, a notation check such as syntax or unknown-card otherwise) and the line.
    """
    from ..diagnostics import CheckTally
    from ..support.gcpolicy import batch_collection

    inputs = expand(paths)
    if scheduler is not None:
        if jobs != 1:
            raise click.UsageError("--jobs and --scheduler exclude each other: the cluster's workers do the work")
        if STDIN in inputs:
            raise click.UsageError("--scheduler checks files, not standard input")
    tally = CheckTally()
    out = None
    if as_json:
        from ..diagnostics.jsonreport import JsonReport

        out = JsonReport(tally, _echo)
    try:
        with Progress("checking", lambda: games_in(inputs), writes=as_json) as progress, \
                closing(_runs(inputs, jobs, allow_empty, scheduler)) as runs, batch_collection():
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
                            progress.diagnostic(d)
                tally.add_file(run.error, run.remarks)
                if out is not None:
                    out.end(run.error, run.remarks)
                else:
                    for d in run.remarks:
                        progress.diagnostic(d)
    except WorkerLost as exc:  # a worker process killed: one line naming the input, exit 3
        raise InternalError(str(exc)) from None
    if out is not None:
        out.finish()
    else:
        echo(tally.summary())
    return tally.exit_code


def _runs(inputs: list[str], jobs: int, allow_empty: bool, scheduler: str | None) -> Generator[Run, None, None]:
    """The runs of ``check_many`` here, or of the same pieces on the Dask cluster at ``scheduler``; a cluster that
    cannot be reached (or dask.distributed missing) is one clear error, exit 2."""
    if scheduler is None:
        from ..diagnostics.batch import check_many

        yield from check_many(inputs, jobs, allow_empty)
        return
    from ..archive.cluster import check_on_cluster
    from ..archive.store import ArchiveError

    try:
        yield from check_on_cluster(inputs, scheduler, allow_empty)
    except ArchiveError as exc:
        raise UserError(str(exc)) from None


def _echo(text: str) -> None:
    click.echo(json_safe(text), nl=False)  # JSON: controls and format characters from the records escaped


COMMANDS = (check,)
