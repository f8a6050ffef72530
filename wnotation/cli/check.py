"""``wnotation check``: read, replay and verify records, diagnostics on stderr and a summary (or JSON) on stdout."""

from __future__ import annotations

from contextlib import closing

import click

from .inputs import RECORD_PATH, expand
from .progress import Progress, games_in

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


@click.command(epilog=CHECK_EPILOG, short_help="Check records: read, replay every action, verify the results.")
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
    from ..batch import check_many
    from ..diagnostics import CheckTally
    from ..gcpolicy import batch_collection

    inputs = expand(paths)
    tally = CheckTally()
    out = None
    if as_json:
        from ..diagnostics.jsonreport import JsonReport

        out = JsonReport(tally, _echo)
    with Progress("checking", lambda: games_in(inputs), writes=as_json) as progress, \
            closing(check_many(inputs, jobs, allow_empty)) as runs, batch_collection():
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


def _echo(text: str) -> None:
    click.echo(text, nl=False)


COMMANDS = (check,)
