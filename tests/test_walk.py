"""The engine's walk (issue 30 item 1): hook order and content on bundled replays, variations nested where they
branch, and the clients that use it holding no engine rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wnotation.engine import events as ev
from wnotation.engine import replay
from wnotation.engine.results import Replay, VariationReplay
from wnotation.engine.walk import Battle, TurnView, Visitor, walk
from wnotation.notation import parse

ROOT = Path(__file__).resolve().parent.parent


def _played(path: str) -> Replay:
    return replay(parse((ROOT / path).read_text(encoding="utf-8")))


class _Log(Visitor):
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.turns: list[TurnView] = []
        self.battles: list[Battle] = []

    def begin_game(self, played: Replay) -> None:
        self.calls.append(("begin_game", ""))

    def turn(self, turn: TurnView) -> None:
        self.calls.append(("turn", turn.address))
        self.turns.append(turn)

    def end_age(self, age: int, battles: tuple[Battle, ...]) -> None:
        self.calls.append(("end_age", str(age)))
        self.battles += battles

    def begin_variation(self, variation: VariationReplay) -> None:
        self.calls.append(("begin_variation", variation.address))

    def end_variation(self, variation: VariationReplay) -> None:
        self.calls.append(("end_variation", variation.address))

    def end_game(self, played: Replay) -> None:
        self.calls.append(("end_game", ""))


GAME = "replays/3p-babylon-halikarnassos-olympia.7wn"  # Babylon's extra turn and Halikarnassos' picks


def test_hooks_in_game_order() -> None:
    played = _played(GAME)
    log = _Log()
    walk(played, log)
    assert log.calls[0] == ("begin_game", "") and log.calls[-1] == ("end_game", "")
    # every turn position of the main line, in game order, each Age's end after its turns
    expected: list[tuple[str, str]] = []
    for label in played.marks:
        age, _, turn = label.partition(".")
        if turn.isdigit() and turn != "0":
            expected.append(("turn", label))
        elif turn == "end":
            expected.append(("end_age", str(len(age))))
    assert log.calls[1:-1] == expected
    assert ("turn", "I.7") in expected or ("turn", "II.7") in expected or ("turn", "III.7") in expected


def test_outcomes_account_for_every_event() -> None:
    """The outcomes carry every placement, coin and pick of the events (R-TRADE, R-HALI), each exactly once."""
    played = _played(GAME)
    log = _Log()
    walk(played, log)
    outs = [o for t in log.turns for o in t.seats.values()]
    paid = [e for e in played.events if isinstance(e, ev.CoinsPaid)]
    assert sum(o.bank + o.left + o.right for o in outs) == sum(e.amount for e in paid)
    assert sum(o.bank for o in outs) == sum(e.amount for e in paid if e.to is None)
    assert sorted(u for o in outs for u in o.bought_left + o.bought_right) == sorted(u for e in paid for u in e.units)
    gained = [e for e in played.events if isinstance(e, ev.CoinsGained)]
    assert sum(o.income for o in outs) == sum(e.amount for e in gained)
    picks = [e.card for e in played.events if isinstance(e, ev.PickedFromDiscard)]
    assert picks and [o.pick for o in outs if o.pick is not None] == picks
    staged = sum(1 for e in played.events if isinstance(e, ev.StageBuilt))
    assert sum(o.placed == "staged" for o in outs) == staged
    last = [e for e in played.events if isinstance(e, ev.CardDiscarded)]
    assert sum(not o.kept_last for o in outs) + sum(o.placed == "discarded" for o in outs) == len(last)


def test_battles_are_the_conflicts_with_both_neighbours() -> None:
    """R-MILITARY: each seat against its left then its right neighbour, every Age; a tie is token 0."""
    played = _played(GAME)
    log = _Log()
    walk(played, log)
    n = len(played.positions["I.0"].cities)
    assert len(log.battles) == 3 * 2 * n
    fought = [(e.seat, e.opponent, e.token) for e in played.events if isinstance(e, ev.ConflictResolved)]
    assert [(b.seat, b.opponent, b.token) for b in log.battles if b.token] == fought
    first = [b for b in log.battles if b.age == 1]
    assert [(b.seat, b.opponent) for b in first[:2]] == [(1, 2), (1, n)]
    assert all((b.result == "tie") == (b.token == 0) for b in log.battles)


def test_positions_before_and_after() -> None:
    played = _played(GAME)
    log = _Log()
    walk(played, log)
    first = log.turns[0]
    assert first.label == "I.1" and first.before is played.position("I.0") and first.after is played.position("I.1")
    extra = next(t for t in log.turns if t.number == 7)
    assert extra.before is played.position(f"{extra.label[:-1]}6")


@pytest.mark.parametrize("path", ["spec/cases/085-hali-last-discards.7wn", "spec/cases/086-babylon-then-hali.7wn",
                                  "spec/cases/083-hali-pick-income.7wn"])
def test_a_pick_belongs_to_the_play_that_earned_it(path: str) -> None:
    """R-HALI, R-HALI-LAST: a pick (or its refusal) is on the seat's stage-building play."""
    played = _played(path)
    log = _Log()
    walk(played, log)
    holders = [o for t in log.turns for o in t.seats.values() if o.pick is not None or o.declined]
    made = [e for e in played.events if isinstance(e, (ev.PickedFromDiscard, ev.PickDeclined))]
    assert len(holders) == len(made) > 0
    assert all(o.placed == "staged" for o in holders)


def test_findings_of_a_turn() -> None:
    played = _played("spec/cases/082-hali-pick-not-in-pile.7wn")
    log = _Log()
    walk(played, log)
    told = [f for t in log.turns for f in t.findings]
    assert told and all(f.address in {t.address for t in log.turns} for f in told)
    assert set(told) == {f for f in played.findings if f.address in {t.address for t in log.turns}}


def test_variations_nested_after_the_turn_they_replace() -> None:
    played = _played("spec/cases/210-variation-nested.7wn")
    log = _Log()
    walk(played, log)
    calls = log.calls
    i = calls.index(("begin_variation", "I.2(1)"))
    assert calls[i - 1] == ("turn", "I.2")
    j = calls.index(("begin_variation", "I.2(1).I.2(1)"))
    assert calls[i + 1] == ("turn", "I.2(1).I.2") and calls[j - 1] == calls[i + 1]
    assert calls.index(("end_variation", "I.2(1).I.2(1)")) < calls.index(("end_variation", "I.2(1)"))
    inner = next(t for t in log.turns if t.address == "I.2(1).I.2(1).I.2")
    assert inner.before is played.position("I.1")  # a variation's first turn is played from where it branches
    assert inner.after is played.position("I.2(1).I.2(1).I.2")
    ben = inner.seats[2]
    assert ben.placed == "built" and ben.card is not None and ben.card.name == "Theater"


#: The clients of the walk: they fold no event and do no neighbour arithmetic (issue 30 item 1).
CLIENTS = ["wnotation/archive/rows.py", "wnotation/formats/bgstats.py"]
EVENT_NAMES = sorted(n for n in vars(ev) if isinstance(vars(ev)[n], type) and vars(ev)[n].__module__ == ev.__name__
                     and n[0].isupper() and n != "Memo")


@pytest.mark.parametrize("path", CLIENTS)
def test_clients_hold_no_engine_rule(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    assert "engine import events" not in text and "engine.events" not in text
    for name in EVENT_NAMES:
        assert not re.search(rf"\b{name}\b", text), f"{path} names the event {name}"
    assert not re.search(r"%\s*n\s*\+\s*1|-\s*2\)\s*%\s*n", text), f"{path} computes a neighbour"
    assert ".events" not in text, f"{path} reads a replay's events"


def test_the_grep_catches_a_rule() -> None:
    """The client test would fail on the old rows.py, which re-read the events (ConflictResolved, seat % n + 1)."""
    assert {"CardBuilt", "ConflictResolved", "TurnResolved", "PickedFromDiscard"} <= set(EVENT_NAMES)
    assert re.search(r"%\s*n\s*\+\s*1", "to == seat % n + 1")
