"""The hostile corpus (issue 21): records whose every free text holds a payload of payloads.json.

``python tests/hostile/make_corpus.py`` writes the .7wn files beside it from a seeded bot game; ``--check``
reports a stored file that differs (tests/test_viewer_hostile.py runs the check). The files:

- ``hostile-game.7wn``: a legal 4-player game; seat names, tag values, comments and ``[%…]`` tags of the game,
  of turns and of actions hold every payload; its results are stated, so it replays with no finding.
- ``hostile-illegal.7wn``: the same with one illegal action (a card of Age III in Age I, R-DECK), so a finding's
  message names a hostile seat.
- ``hostile-unreadable.7wn``: two games the reader refuses, quoting hostile text in the error (a payload where a
  card name goes, and an unknown card whose name is a payload's words).

Values of 1 MB and text no 7WN file can hold (lone surrogates) are made by the tests, not stored.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from wnotation.engine.bot import play_game  # noqa: E402
from wnotation.notation import write  # noqa: E402
from wnotation.model.record import Record, Tag  # noqa: E402

SEAT_PAYLOADS = ("script", "img", "bidi", "attribute")


def payloads() -> dict[str, str]:
    """Payload name -> text, in file order."""
    return json.loads((HERE / "payloads.json").read_text(encoding="utf-8"))["payloads"]


def _key(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "_", name)


def hostile_record() -> Record:
    """The legal game of ``hostile-game.7wn`` as a Record."""
    p = payloads()
    game = play_game(4, 2026, "greedy")
    values = list(p.values())
    seats = tuple(s.model_copy(update={"name": p[k]}) for s, k in zip(game.seats, SEAT_PAYLOADS))
    tags = (Tag(name="Event", value=p["script-json"]), Tag(name="Site", value=p["css"])) + tuple(
        Tag(name=f"P_{_key(k)}", value=v) for k, v in p.items())
    pairs = tuple((_key(k), v) for k, v in p.items())
    note = game.annotation.model_copy(update={"before": tuple(values), "tags": pairs, "glyph": "!?"})
    turns = list(game.turns)
    for k, turn in enumerate(turns[:6]):
        chosen = values[k * 4:(k + 1) * 4] or values[:4]
        actions = tuple(a.model_copy(update={"annotation": a.annotation.model_copy(update={
            "after": (chosen[(a.seat - 1) % len(chosen)],),
            "tags": ((_key(list(p)[k]), chosen[0]),)})}) for a in turn.actions)
        turns[k] = turn.model_copy(update={"actions": actions, "annotation": turn.annotation.model_copy(
            update={"after": tuple(chosen), "tags": (("why", chosen[-1]),)})})
    return game.model_copy(update={"seats": seats, "tags": tags, "annotation": note, "turns": tuple(turns)})


def texts() -> dict[str, str]:
    """File name -> content of every stored file of the corpus."""
    legal = write(hostile_record())
    first = next(line for line in legal.split("\n") if line.startswith("I.1 "))
    illegal = legal.replace(first, "I.1 Palace | " + first.split(" | ", 1)[1], 1)
    p = payloads()
    unreadable = (
        legal.replace(first, "I.1 " + p["img"] + " | " + first.split(" | ", 1)[1], 1)
        + legal.replace(first, "I.1 Script Window Pwned | " + first.split(" | ", 1)[1], 1)
    )
    return {"hostile-game.7wn": legal, "hostile-illegal.7wn": illegal, "hostile-unreadable.7wn": unreadable}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, text in texts().items():
        path = HERE / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8", newline="\n")
    for name in stale:
        print(f"{name} differs from what make_corpus.py writes", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
