"""Regenerate the sample games of ``replays/`` (deterministic: same engine, same files).

Each game is played by the built-in greedy bot (:func:`wnotation.engine.bot.play_game`) from an ``SM64-FY`` seed
with Wonder sides chosen here, using a slightly Wonder-minded valuation (a stage that grants a power is worth
what the power promises), so that Babylon's extra turns, Halikarnassos' picks and Olympia's free builds are used.
The annotations below were written by hand after reading each replayed position (coins, discard pile, legal
actions) and are inserted into the Record before it is written in canonical form. ``partial-4p-dee.7wn`` is the
4-player game as its seat 4 recorded it: other seats' sold, staged and discarded cards are ``?``; no seed, no
guilds.

Usage: ``python replays/make_replays.py`` (writes ``replays/*.7wn``), ``--check`` (exit 1 if a file differs).
"""

from __future__ import annotations

import sys
from pathlib import Path
from unittest import mock

from wnotation.model import record as R
from wnotation.model.catalog import (
    BuildFromDiscard,
    FreeFirstCardEachAge,
    FreeFirstOfColour,
    FreeLastCardEachAge,
    PlayLastCard,
    load,
)
from wnotation.engine import bot
from wnotation.notation import write

HERE = Path(__file__).resolve().parent
_BASE_VALUE = bot._value


def _value(state, a) -> float:
    """The greedy bot's value, plus what a Wonder power on the stage promises for the rest of the game."""
    v = _BASE_VALUE(state, a)
    if a.use == "stage":
        city = state.cities[a.seat - 1]
        later = 3 - state.age
        for e in city.wonder.stages[city.stages].effects:
            kind = type(e)
            if kind is PlayLastCard:
                v += 2 + 2 * later
            elif kind is BuildFromDiscard:
                v += 1 + 0.5 * len(state.discard)
            elif kind is FreeFirstOfColour:
                v += 4
            elif kind is FreeFirstCardEachAge:
                v += 2 * later
            elif kind is FreeLastCardEachAge:
                v += 2 * (later + 1)
        v += 1.0
    return v


def play(seed: int, sides: list[tuple[str, str]]) -> R.Record:
    catalog = load()
    wonders = [catalog.wonder(w, s) for w, s in sides]
    with mock.patch.object(bot, "_value", _value):
        return bot.play_game(len(sides), seed, bot="greedy", wonders=wonders)


def _ann(before=(), after=(), glyph=None, tags=()) -> R.Annotation:
    if isinstance(before, str):
        before = (before,)
    if isinstance(after, str):
        after = (after,)
    return R.Annotation(before=tuple(before), after=tuple(after), glyph=glyph, tags=tuple(tags))


def annotate(rec: R.Record, game: dict) -> R.Record:
    """Insert the notes of ``game`` (see GAMES) into ``rec``; every note must land on a turn that exists."""
    names = game["names"]
    seats = tuple(s.model_copy(update={"name": names[k]}) for k, s in enumerate(rec.seats))
    notes = dict(game.get("notes", {}))
    turns = []
    for t in rec.turns:
        n = notes.pop(t.label, None)
        if n is None:
            turns.append(t)
            continue
        actions = []
        for a in t.actions:
            an = n.get(a.seat)
            if an is None:
                actions.append(a)
                continue
            upd = {"annotation": _ann(an.get("before", ()), an.get("after", ()), an.get("glyph"),
                                      an.get("tags", ()))}
            if "pick" in an:
                assert a.pick is not None, (t.label, a.seat)
                upd["pick"] = a.pick.model_copy(update={"annotation": _ann(after=an["pick"],
                                                                           glyph=an.get("pick_glyph"))})
            actions.append(a.model_copy(update=upd))
        ann = _ann(n.get("before", ()), n.get("after", ()), n.get("glyph"), n.get("tags", ()))
        turns.append(t.model_copy(update={"actions": tuple(actions), "annotation": ann}))
    assert not notes, f"notes for turns that are not in the game: {sorted(notes)}"
    tags = tuple(R.Tag(name=k, value=v) for k, v in game["tags"])
    out = rec.model_copy(update={
        "seats": seats, "turns": tuple(turns), "tags": tags, "date": game["date"],
        "annotation": _ann(game.get("intro", ()), game.get("outro", ()), game.get("glyph"),
                           game.get("game_tags", ())),
    })
    if game.get("partial_of"):
        out = hide(out, game["partial_of"], game.get("results_of", ()))
    return out


def hide(rec: R.Record, me: int, results_of: tuple[int, ...]) -> R.Record:
    """``rec`` as seat ``me`` saw it: other seats' sold, staged and discarded cards unknown; no seed or guilds
    (the recorder saw neither the shuffle nor every guild); results kept only for ``results_of`` (whole lines) and
    totals and ranks for the others (the shared score pad)."""
    turns = []
    for t in rec.turns:
        actions = []
        for a in t.actions:
            if a.seat != me:
                upd = {}
                if a.use in ("sell", "stage"):
                    upd["card"] = "?"
                if a.discard is not None:
                    upd["discard"] = "?"
                a = a.model_copy(update=upd)
            actions.append(a)
        turns.append(t.model_copy(update={"actions": tuple(actions)}))
    results = tuple(r if r.seat in results_of else R.SeatResult(seat=r.seat, total=r.total, rank=r.rank)
                    for r in rec.results)
    return rec.model_copy(update={"turns": tuple(turns), "seed": None, "guilds": None, "results": results})


sys.path.insert(0, str(HERE))
from notes import GAMES  # noqa: E402  (the hand-written annotations: replays/notes.py)


def build(game: dict) -> str:
    return write(annotate(play(game["seed"], game["sides"]), game))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = 0
    for game in GAMES:
        path = HERE / game["file"]
        text = build(game)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path.name}: differs from what make_replays.py writes")
                bad += 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
