"""``wnotation analyse``: each seat's chance to win at every turn boundary of a game, estimated by playouts."""

from __future__ import annotations

import click

from .errors import UserError
from .inputs import RECORD_PATH, one_game, replayed
from .output import colour_option, echo, emit_json, print_table

ANALYSE_EPILOG = """\b
At each turn boundary (I.0 after the deal, I.1 ... I.end, II.0 ... III.end) every seat's chance
to win is estimated by playing the game out --playouts times from there: the cards the position
does not show (a hand's unknown cards, the later Ages, the guilds when the record does not name
them) are drawn afresh each time from what the deck can still hold, every seat is played by the
greedy bot with one play in four at random, and a shared victory is split among its winners
(R-WIN). Each chance has its 95 % Wilson interval; a finished game's is exact (0 playouts).
A partial record's unknown cards are drawn consistently with every card it shows; a
score-pad record has no position and is refused. The same --seed gives the same figures
whatever --jobs is, and on a Dask cluster (--scheduler). A progress bar is shown on stderr
when it is a terminal.

\b
With --marks each seat's action is also played against each alternative of the same turn
(the other seats' actions kept as played) and classed by the loss of win chance against the
best one: inaccuracy from 0.05, mistake from 0.10, blunder from 0.15 (spec/7wn.md 8.4),
with common random numbers (the same deals and random plays for every alternative). It
costs about one estimate per legal play. --annotate prints the record as canonical 7WN with
the computed tags [%win ...] on each turn and [%mark ...] on each classed action; a human's
glyphs and comments are kept.

\b
Examples:
  wnotation analyse replays/4p-alexandria-ephesos-gizah-rhodos.7wn --playouts 20
  wnotation analyse replays/3p-babylon-halikarnassos-olympia.7wn --playouts 200 --jobs 2
  wnotation analyse replays/7p-all-wonders.7wn --playouts 10 --seed 7 --json
  wnotation analyse replays/3p-babylon-halikarnassos-olympia.7wn --playouts 8 --marks --annotate"""


@click.command(epilog=ANALYSE_EPILOG, short_help="Estimate each seat's chance to win at every turn.")
@click.argument("file", type=RECORD_PATH)
@click.option("--game", type=click.IntRange(min=1), default=None, metavar="N",
              help="Which game of the file (1 first; default: the first, with a note when there are several).")
@click.option("--playouts", type=click.IntRange(min=1), default=100, show_default=True, metavar="N",
              help="Playouts per position.")
@click.option("--seed", type=click.IntRange(0, (1 << 64) - 1), default=0, show_default=True, metavar="S",
              help="Seed of the playouts' generators.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Worker processes.")
@click.option("--scheduler", metavar="ADDRESS", help="Estimate on the Dask cluster whose scheduler is at ADDRESS "
              "(tcp://host:8786): each position is a task; the same figures as here with the same --seed. Needs "
              "wnotation[cluster].")
@click.option("--marks", "with_marks", is_flag=True,
              help="Also rate each action against the best alternative of its turn (slow).")
@click.option("--annotate", is_flag=True, help="Print the record with the computed tags as canonical 7WN.")
@click.option("--json", "as_json", is_flag=True, help="Print the estimates (and marks) as JSON.")
@colour_option
def analyse(file: str, game: int | None, playouts: int, seed: int, jobs: int, scheduler: str | None,
            with_marks: bool, annotate: bool, as_json: bool) -> int:
    """Replay game N of FILE (- for stdin) and estimate each seat's chance to win at every turn boundary."""
    from ..analysis import Analysis, Mark, analyse as run, annotate as annotated, marks
    from ..model.catalog import AGE_NUMERALS
    from ..analysis.winchance import boundaries
    from ..archive.errors import ArchiveError
    from .progress import Progress

    if scheduler is not None and jobs != 1:
        raise click.UsageError("--jobs and --scheduler exclude each other: the cluster's workers do the work")
    record, lines, source, game = one_game(file, game)
    played, code = replayed(record, lines, source)
    total = len(boundaries(played))
    if total == 0:
        what = ("a score-pad record (spec/7wn.md 9.1): it has the final scores and no turns" if record.results and
                not record.turns else "a record without any dealt position")
        raise UserError(f"{source}: game {game} is {what}, so there is no position to analyse")
    with Progress("analysing", total) as bar:
        def done(_: Analysis) -> None:
            bar.advance()

        try:
            found = run(record, playouts, seed, jobs, done, played, scheduler)
        except ArchiveError as exc:
            raise UserError(str(exc)) from None
    marked: tuple[Mark, ...] = ()
    if with_marks:
        with Progress("marking turns", len(record.turns)) as bar:
            marked = marks(record, playouts, seed, lambda k, n: bar.advance())
    names = [s.name for s in record.seats]
    if annotate:
        from ..notation import write

        echo(write(annotated(record, found, marked)), nl=False)
    elif as_json:
        emit_json({"source": source, "game": game, "playouts": playouts, "seed": seed, "interval": "wilson 95%",
                   "positions": [{"at": a.where, "seats": [
                       {"seat": e.seat, "name": names[e.seat - 1], "chance": round(e.chance, 6),
                        "low": round(e.low, 6), "high": round(e.high, 6), "playouts": e.playouts}
                       for e in a.estimates]} for a in found],
                   "marks": [{"at": f"{AGE_NUMERALS[m.age]}.{m.turn}", "seat": m.seat, "chance": round(m.chance, 6),
                              "best": m.best, "best_chance": round(m.best_chance, 6), "loss": round(m.loss, 6),
                              "class": m.label} for m in marked]})
    else:
        rows = [[a.where] + [f"{100 * e.chance:.0f}% ({100 * e.low:.0f}-{100 * e.high:.0f})" for e in a.estimates]
                for a in found]
        print_table(["at"] + names, rows, title=f"chance to win, 95 % interval, {playouts} playouts a position "
                    f"(seed {seed})", right_align=True)
        classed = [m for m in marked if m.label is not None]
        if classed:
            print_table(["at", "seat", "class", "chance", "best alternative", "its chance"],
                        [[f"{AGE_NUMERALS[m.age]}.{m.turn}", names[m.seat - 1], str(m.label), f"{100 * m.chance:.0f}%",
                          m.best, f"{100 * m.best_chance:.0f}%"] for m in classed], title="plays that mattered")
    return code


COMMANDS = (analyse,)
