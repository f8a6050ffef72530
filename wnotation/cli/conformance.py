"""``wnotation conformance``: the conformance kit for other 7 Wonders engines (spec/conformance.md): ``run`` feeds
the vectors to an engine's adapter and compares its answers, ``vectors`` writes the vectors as files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .errors import EXIT_FINDINGS, UserError

CONFORMANCE_EPILOG = """\b
The vectors are generated from this version's casebook, deal, position strings, scoring
and legal actions (spec/conformance.md); the adapter is a process that reads one JSON
request per line on stdin and writes one JSON answer per line on stdout.

\b
Exit codes of run: 0 every vector passed, 1 some failed, 2 usage error or an adapter
that does not start, does not answer the greeting or fails vector after vector.

\b
Examples:
  wnotation conformance run -- python -m wnotation.conformance.adapter
  wnotation conformance run --only deals --only R-TRADE -- ./my-engine --adapter
  wnotation conformance run --skip 'counts/*-perft' --timeout 30 -- node adapter.js
  wnotation conformance vectors -o vectors/"""


@click.group(epilog=CONFORMANCE_EPILOG, short_help="Run the conformance vectors against another engine.")
def conformance() -> None:
    """The conformance kit: test vectors for 7 Wonders engines and the runner that checks an engine's adapter."""


@conformance.command("run", short_help="Feed the vectors to an adapter and compare its answers.")
@click.argument("command", nargs=-1, required=True, metavar="-- COMMAND...")
@click.option("--only", multiple=True, metavar="PATTERN",
              help="Run only the vectors whose area, id or rule ID matches (shell pattern; repeatable).")
@click.option("--skip", multiple=True, metavar="PATTERN", help="Leave out the vectors that match (repeatable).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True, metavar="SECONDS",
              help="Longest wait for one answer; the adapter is restarted after it.")
@click.option("--vectors", "directory", type=click.Path(file_okay=False, exists=True, path_type=Path),
              metavar="DIR", help="Run the vectors written by 'conformance vectors' instead of generating them.")
@click.option("--verbose", "-v", is_flag=True, help="List the vectors that pass too.")
def run_command(command: tuple[str, ...], only: tuple[str, ...], skip: tuple[str, ...], timeout: float,
                directory: Path | None, verbose: bool) -> None:
    """Run every vector through the adapter COMMAND (after --) and report passes, failures and a summary."""
    from ..conformance import runner

    loaded = _load(directory)
    if not any(runner.selected(v, only, skip) for vs in loaded.values() for v in vs):
        raise UserError("no vector matches the --only and --skip patterns")
    try:
        report = runner.run(command, loaded, only=only, skip=skip, timeout=timeout)
    except runner.AdapterBroken as exc:
        raise UserError(str(exc)) from None
    click.echo(runner.render(report, verbose=verbose), nl=False)
    if report.failures:
        raise SystemExit(EXIT_FINDINGS)


def _load(directory: Path | None) -> dict[str, list[dict[str, Any]]]:
    from ..conformance import vectors

    if directory is None:
        if not (vectors.SPEC / "cases").is_dir():
            raise UserError("the vectors are generated from the spec/ of a source tree, which this installation "
                            "lacks: give --vectors DIR (vectors written by 'conformance vectors')")
        return vectors.generate()
    try:
        return vectors.read_dir(directory)
    except (OSError, ValueError, KeyError) as exc:
        raise UserError(f"cannot read the vectors in {directory}: {exc}") from None


@conformance.command("vectors", short_help="Write the vectors as JSON files.")
@click.option("--output", "-o", "directory", type=click.Path(file_okay=False, path_type=Path), required=True,
              metavar="DIR", help="Directory to write manifest.json and one AREA.json per area into (made if "
                                  "missing; each file replaced atomically).")
def vectors_command(directory: Path) -> None:
    """Write the conformance vectors: manifest.json and rules, deals, positions, scoring, counts (.json)."""
    from ..support.atomicfile import write_atomic
    from ..conformance import vectors

    loaded = _load(None)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in vectors.files(loaded).items():
            write_atomic(str(directory / name), text)
    except OSError as exc:
        raise UserError(f"cannot write the vectors to {directory}: {exc.strerror or exc}") from None
    counts = ", ".join(f"{len(vs)} {area}" for area, vs in loaded.items())
    click.echo(f"wrote {sum(len(vs) for vs in loaded.values())} vectors ({counts}) to {directory}", err=True)


COMMANDS = (conformance,)
