"""``wnotation explore``: what was taken from a hand and how the takers did, over an archive (the opening
explorer). Thin: the SQL is ``wnotation/archive/sql/explore_*.sql``, run by :mod:`wnotation.analysis.explore`."""

from __future__ import annotations


import click

from .archive import archive_errors, archive_sources, cell_text
from .errors import UserError
from .inputs import RECORD_PATH
from .output import echo, emit_json, print_table
from .progress import Progress, games_in

EXPLORE_EPILOG = """\b
The moves table: every hand held at the start of turn --turn of Age --age (narrowed by
--hand, --first, --wonder, --side, --players), what was taken from it (use and card), how
often, and the win rate and average score of the seats that took it. The cards table: over
every turn of that Age (--wonder, --side and --players still apply), each card's win rate
when built from a hand against when passed on. A shared victory counts as a win for each
winner, as in stats. Only complete games played from the deal count, and only where the
record shows the hands (a game with a [Seed, or hands written out). The SQL is in
wnotation/archive/sql/explore_moves.sql and explore_cards.sql (docs/howto/explore.md).

\b
Examples:
  wnotation explore games/ --age 1 --turn 1
  wnotation export games/ -o archive/ --hands && wnotation explore archive/ --hand Loom --json
  wnotation explore archive/ --age 2 --turn 1 --wonder Gizah --side night
  wnotation explore archive/ --turn 2 --first "Stone Pit" --report moves"""

REPORTS = ("moves", "cards")
TITLES = {"explore_moves": "Taken from these hands", "explore_cards": "Cards: built against passed on"}


@click.command(epilog=EXPLORE_EPILOG, short_help="What was taken from a hand, and how often the taker won.")
@click.argument("paths", nargs=-1, required=True, metavar="SRC...", type=RECORD_PATH)
@click.option("--age", type=click.IntRange(1, 3), default=1, show_default=True, metavar="N", help="The Age.")
@click.option("--turn", type=click.IntRange(1, 7), default=1, show_default=True, metavar="N",
              help="The turn whose starting hands are looked at (1: the first pick; 7: Babylon's extra turn).")
@click.option("--hand", "held", multiple=True, metavar="CARD", help="Only hands holding CARD (repeatable: all of them).")
@click.option("--first", metavar="CARD", help="Only seats that took CARD on the Age's first turn.")
@click.option("--wonder", metavar="NAME", help="Only seats playing this Wonder.")
@click.option("--side", type=click.Choice(["day", "night"]), help="Only seats playing this side.")
@click.option("--players", type=click.IntRange(3, 7), metavar="N", help="Only games of N players.")
@click.option("--report", "only", multiple=True, type=click.Choice(REPORTS),
              help="Only this table (repeatable): moves, cards.")
@click.option("--json", "as_json", is_flag=True, help="Print the tables as JSON.")
def explore(paths: tuple[str, ...], age: int, turn: int, held: tuple[str, ...], first: str | None,
            wonder: str | None, side: str | None, players: int | None, only: tuple[str, ...],
            as_json: bool) -> None:
    """Ask an archive what was taken from a hand (an Age, a turn, cards it holds, a Wonder side, a first pick)
    and how often the taker won; and each card's win rate when built against when passed on.

    SRC is an archive directory written by export --hands, a DuckDB file written by export --hands --duckdb, or
    7WN files and directories (read into memory with their hands). Needs DuckDB: pip install
    'wnotation[analytics]'.
    """
    from ..analysis.explore import Question, card_key, explore as run, wonder_name
    from ..support.gcpolicy import batch_collection

    hand = tuple(card_key(name, age) for name in held)
    first_key = card_key(first, age) if first is not None else None
    wonder = wonder_name(wonder) if wonder is not None else None
    asked = only or REPORTS
    moves = Question(age, turn, hand, wonder, side, first_key, players) if "moves" in asked else None
    cards = Question(age, None, (), wonder, side, None, players) if "cards" in asked else None
    found, sources = archive_sources(paths)
    try:
        with batch_collection(), Progress("reading", lambda: games_in(found)) as progress:
            reports = run(sources, moves, cards, progress=progress.advance)
    except archive_errors() as exc:
        raise UserError(str(exc)) from None
    if as_json:
        emit_json({"question": {"age": age, "turn": turn, "hand": list(hand), "first": first_key, "wonder": wonder,
                                "side": side, "players": players},
                   "reports": [r.to_dict() for r in reports]})
        return
    for k, report in enumerate(reports):
        if k:
            echo()
        if not report.rows:
            echo(f"{TITLES[report.name]}: no hand in the archive matches")
            continue
        print_table(list(report.columns), [[cell_text(v) for v in row] for row in report.rows],
                    title=TITLES[report.name], right_align=False)


COMMANDS = (explore,)
