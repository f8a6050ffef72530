"""Golden playthroughs (issue 6, item 5): seeded bot games stored with a dump of every position, as OpenSpiel's
playthrough files and chess perft counts are.

Each file under ``tests/golden/`` holds the game's canonical 7WN record, then one line per position address
(``I.0`` … ``III.end``) with, for every seat, the number of legal actions (``len(legal_actions(state, seat))``),
the number of distinct cards it can build, its coins, shields, military points and Wonder stages, and the size of
the discard pile; then the final score sheet. The test reads the stored record, replays it, renders the dump again
and compares the whole file, showing a unified diff on failure; a second test checks that the bot still plays the
stored game from its seed; a third that the folder holds exactly the listed games (none missing, none stale).

Regenerate after an intended change, then review the diff like code::

    python tests/regen_golden.py
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.engine.legal import legal_actions
from wnotation.notation import parse, write
from wnotation.model.record import CATEGORIES, Record

FOLDER = Path(__file__).parent / "golden"
#: (players, seed, bot) of each stored game. 5p seed 2 and 7p seed 3 have Halikarnassos' builds from the discard
#: pile; 4p seed 26 has Babylon's extra turns, a pick and stated (non-default) purchases too.
GAMES = ((3, 1, "random"), (4, 26, "random"), (5, 2, "greedy"), (7, 3, "greedy"))
RECORD, POSITIONS, SHEET = "== record", "== positions", "== score sheet"


def path_of(players: int, seed: int, bot: str) -> Path:
    return FOLDER / f"{players}p-seed{seed}-{bot}.txt"


def render(record: Record, players: int, seed: int, bot: str) -> str:
    """The golden text of ``record`` (the bot game ``play_game(players, seed, bot)``): record, positions, sheet."""
    r = replay(record)
    out = [
        f"# Golden playthrough of play_game({players}, seed={seed}, bot={bot!r}); do not edit by hand.",
        "# Regenerate: python tests/regen_golden.py (then review the diff).",
        "# Positions: per seat `legal/builds cC sS mM wW`: legal actions / distinct cards it can build,",
        "# coins, shields, military points, Wonder stages built; `pile P`: cards in the discard pile.",
        "",
        RECORD,
        write(record).rstrip("\n"),
        "",
        POSITIONS,
    ]
    width = max(len(a) for a in r.addresses)
    for address, s in r:
        cells = []
        for c in s.cities:
            legal = legal_actions(s, c.seat)
            builds = len({a.card.key for a in legal if a.use == "build"})
            cells.append(f"{len(legal):2d}/{builds} c{c.coins:<2d} s{c.shields:<2d} m{c.military:<3d} w{c.stages}")
        out.append(f"{address:<{width}}  " + " | ".join(cells) + f" | pile {len(s.discard)}")
    out += ["", SHEET]
    fields = CATEGORIES + ("total", "coins", "rank")
    names = [s.name for s in record.seats]
    name_w = max(len(n) for n in names)
    out.append(" ".join([f"{'seat':<{name_w}}", *(f"{f[:5]:>5}" for f in fields)]))
    for line, name in zip(r.scores.lines, names):
        out.append(" ".join([f"{name:<{name_w}}", *(f"{getattr(line, f):>5}" for f in fields)]))
    if r.findings:
        out += ["", "== findings", *map(str, r.findings)]
    return "\n".join(out) + "\n"


def stored_record(text: str) -> Record:
    """The record section of a golden file."""
    start, end = text.index(RECORD + "\n"), text.index("\n" + POSITIONS)
    return parse(text[start + len(RECORD) + 1 : end], source="golden")


def regenerate() -> list[Path]:
    """Write every golden file from the bot; returns the paths written."""
    FOLDER.mkdir(exist_ok=True)
    written = []
    for game in GAMES:
        path = path_of(*game)
        path.write_text(render(play_game(*game), *game), encoding="utf-8")
        written.append(path)
    return written


def _diff(want: str, got: str, name: str) -> str:
    return "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), f"stored {name}",
                                        f"recomputed {name}"))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: path_of(*g).stem)
def test_golden_positions_and_score_sheet(game):
    path = path_of(*game)
    stored = path.read_text(encoding="utf-8")
    got = render(stored_record(stored), *game)
    if got != stored:
        pytest.fail(f"{path.name} differs (python tests/regen_golden.py regenerates it):\n"
                    + _diff(stored, got, path.name), pytrace=False)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: path_of(*g).stem)
def test_golden_record_is_still_what_the_bot_plays(game):
    path = path_of(*game)
    stored = path.read_text(encoding="utf-8")
    played = play_game(*game)
    if stored_record(stored) != played:
        pytest.fail(f"the bot no longer plays {path.name}:\n" + _diff(stored, render(played, *game), path.name),
                    pytrace=False)


def test_golden_folder_holds_exactly_the_listed_games():
    assert sorted(p.name for p in FOLDER.glob("*.txt")) == sorted(path_of(*g).name for g in GAMES)
