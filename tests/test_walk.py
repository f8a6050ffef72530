"""The engine's walk (issue 30 item 1): hook order and content on bundled replays, variations nested where they
branch, each position with its facts, the link to the written record, a turn's purchases. That the clients hold
no engine rule is tests/test_walk_clients.py."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from wnotation.engine import events as ev
from wnotation.engine import replay
from wnotation.engine.results import Replay, VariationReplay
from wnotation.engine.walk import Battle, Fact, MainLineVisitor, PositionView, TurnView, Visitor, fact_of, walk
from wnotation.model.record import Record
from wnotation.notation import parse

ROOT = Path(__file__).resolve().parent.parent


def _played(path: str) -> Replay:
    return replay(parse((ROOT / path).read_text(encoding="utf-8")))


class _Log(Visitor):
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.turns: list[TurnView] = []
        self.battles: list[Battle] = []
        self.positions: list[PositionView] = []
        self.unplayed_actions: list[tuple[str, int, int, str]] = []

    def begin_game(self, played: Replay) -> None:
        self.calls.append(("begin_game", ""))

    def position(self, at: PositionView) -> None:
        self.positions.append(at)

    def unplayed(self, line: str, at: int, index: int, why: str) -> None:
        self.unplayed_actions.append((line, at, index, why))

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
    assert [p.address for p in log.positions] == list(played.marks)  # position(): every position, in order
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


def test_a_main_line_visitor_knows_how_deep_in_variations_each_turn_is() -> None:
    """The depth the canonical form and the archive rows keep to the main line by: 0 on the main line, 1 in a
    variation, 2 in a variation of it, and 0 again once they end."""

    class Depths(MainLineVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.at: dict[str, int] = {}

        def turn(self, turn: TurnView) -> None:
            self.at[turn.address] = self.depth

    depths = Depths()
    walk(_played("spec/cases/210-variation-nested.7wn"), depths)
    assert depths.at["I.2"] == 0 and depths.at["I.2(1).I.2"] == 1 and depths.at["I.2(1).I.2(1).I.2"] == 2
    assert depths.depth == 0


def _facts(events: Sequence[ev.Event]) -> list[Fact]:
    return [f for e in events if (f := fact_of(e)) is not None]


@pytest.mark.parametrize("path", [GAME, "spec/cases/210-variation-nested.7wn", "spec/cases/216-variation-pick.7wn"])
def test_each_position_with_what_happened_since_the_one_before(path: str) -> None:
    """Every position of every line once, in its line's order, told before the turn that ends there; its facts
    are the facts of the events since the line's position before, so the positions of a line tell each fact once."""
    played = _played(path)
    log = _Log()
    walk(played, log)
    lines: dict[str, list[PositionView]] = {}
    for at in log.positions:
        lines.setdefault(at.line, []).append(at)
    assert set(lines) <= {""} | set(played.variations)
    assert [p.label for p in lines[""]] == list(played.marks)
    for where, v in played.variations.items():
        assert [p.label for p in lines.get(where, [])] == list(v.positions)
        assert all(p.address == f"{where}.{p.label}" for p in lines.get(where, []))
        end = next(reversed(tuple(v.positions.marks.values())), 0)
        assert [f for p in lines.get(where, []) for f in p.facts] == _facts(v.events[:end])
    told = [f for p in lines[""] for f in p.facts]
    assert told == _facts(played.events[:played.marks[next(reversed(tuple(played.marks)))]])
    assert all(p.state is played.position(p.address) for p in log.positions)
    order = [("position", p.address) for p in log.positions]
    seen = [c for c in _merged(played) if c[0] in ("position", "turn")]
    assert [c for c in seen if c[0] == "position"] == order
    for k, (hook, address) in enumerate(seen):
        if hook == "turn":
            assert ("position", address) in seen[:k]


def _merged(played: Replay) -> list[tuple[str, str]]:
    calls: list[tuple[str, str]] = []

    class Both(Visitor):
        def position(self, at: PositionView) -> None:
            calls.append(("position", at.address))

        def turn(self, turn: TurnView) -> None:
            calls.append(("turn", turn.address))

    walk(played, Both())
    return calls


def test_facts_say_what_the_events_say() -> None:
    """A fact for each placement, payment, gain, pick and conflict; none for the bookkeeping (deal, hands passed,
    turn and Age over)."""
    played = _played(GAME)
    for e in played.events:
        fact = fact_of(e)
        if isinstance(e, (ev.AgeDealt, ev.HandsPassed, ev.TurnResolved, ev.AgeEnded)):
            assert fact is None
            continue
        assert fact is not None and fact.kind == type(e).__name__ and fact.seat == e.seat
        if isinstance(e, ev.CoinsPaid):
            assert (fact.what, fact.to, fact.amount) == ("paid", e.to, e.amount)
        elif isinstance(e, ev.ConflictResolved):
            assert (fact.what, fact.opponent, fact.token) == ("fought", e.opponent, e.token)
        elif isinstance(e, ev.CardBuilt):
            assert (fact.what, fact.card, fact.how) == ("built", e.card, e.how)
    assert fact_of("not an event") is None


def test_a_seat_sees_other_seats_hidden_cards_face_down() -> None:
    """What a seat sees (as engine.view): another seat's sale, discard and stage card is unknown; its own cards,
    builds and picks stay."""
    played = _played(GAME)
    facts = _facts(played.events)
    for what in ("sold", "staged", "built", "picked"):
        mine = next(f for f in facts if f.what == what and f.card is not None)
        assert mine.seen_by(mine.seat) is mine
        other = mine.seen_by(mine.seat % 3 + 1)
        assert (other.card is None) == (what in ("sold", "staged")) and other.what == what


def _with_variation_past_the_line() -> Record:
    """Case 208 with its I.2 (and the variation of it) renamed I.4: the main line stops at the missing I.2, before
    the turn the variation replaces. A Record the reader refuses; one made otherwise can hold it."""
    record = parse((ROOT / "spec/cases/208-variation-one-seat.7wn").read_text(encoding="utf-8"))
    first, second = record.turns
    variation = second.variations[0]
    moved = variation.model_copy(update={"turns": tuple(t.model_copy(update={"number": 4}) for t in variation.turns)})
    return record.model_copy(update={"turns": (first, second.model_copy(update={"number": 4,
                                                                                 "variations": (moved,)}))})


def test_every_variation_is_walked_once_even_one_not_replayed() -> None:
    """R-TURN: a variation of a turn its line never reaches is not replayed; the walk still tells it (after its
    line's last turn), so a client lists every variation."""
    played = replay(_with_variation_past_the_line())
    assert played.variations["I.4(1)"].positions.marks == {}
    log = _Log()
    walk(played, log)
    assert log.calls.count(("begin_variation", "I.4(1)")) == 1
    assert log.calls.index(("begin_variation", "I.4(1)")) > log.calls.index(("turn", "I.1"))
    for path in ("spec/cases/210-variation-nested.7wn", "spec/cases/214-variation-extra-turn.7wn"):
        played = _played(path)
        log = _Log()
        walk(played, log)
        begun = [a for hook, a in log.calls if hook == "begin_variation"]
        assert sorted(begun) == sorted(played.variations) and len(begun) == len(set(begun))


def test_outcomes_tied_to_the_written_actions_the_engine_played() -> None:
    """R-TURN: a seat's first action of a turn's first writing is the one played; a second action and a second
    writing are tied to nothing. Without the record nothing is tied."""
    record = parse((ROOT / "spec/cases/208-variation-one-seat.7wn").read_text(encoding="utf-8"))
    first, second = record.turns
    again = first.actions[0].model_copy(update={"use": "sell", "card": "Stone Pit"})
    doubled = first.model_copy(update={"actions": (first.actions[0], again) + first.actions[1:]})
    rewritten = second.model_copy(update={"actions": second.actions[1:], "variations": ()})
    record = record.model_copy(update={"turns": (doubled, second, rewritten)})
    played = replay(record)
    assert {f.rule for f in played.findings} >= {"R-TURN"}
    log = _Log()
    walk(played, log, record)
    one, two = (t for t in log.turns if not t.address.count("("))
    assert one.written is doubled and two.written is second
    assert (one.written_at, two.written_at) == (0, 1)
    # the seat's second action, and every action of the second writing of I.2
    assert log.unplayed_actions == [("", 0, 1, "ignored")] + [("", 2, k, "ignored") for k in range(2)]
    assert [(s, o.action, o.index) for s, o in one.seats.items()] == [
        (1, doubled.actions[0], 0), (2, doubled.actions[2], 2), (3, doubled.actions[3], 3)]
    assert one.seats[1].card is not None and one.seats[1].card.name == "Lumber Yard"
    assert [o.action for o in two.seats.values()] == list(second.actions)
    inner = next(t for t in log.turns if t.address == "I.2(1).I.2")
    assert inner.written is second.variations[0].turns[0]
    assert inner.seats[2].action is not None and inner.seats[2].action.card == "Theater"
    bare = _Log()
    walk(played, bare)
    assert all(t.written is None and all(o.action is None for o in t.seats.values()) for t in bare.turns)
    assert bare.unplayed_actions == []


def test_actions_of_a_turn_the_line_never_reaches_are_not_replayed() -> None:
    record = _with_variation_past_the_line()
    log = _Log()
    walk(replay(record), log, record)
    assert [t.written_at for t in log.turns] == [0]
    # I.4 of the main line, then the one action of its variation, whose replay is refused: no turn of it is told
    assert log.unplayed_actions == [("", 1, k, "not-replayed") for k in range(3)] + [("I.4(1)", 0, 0, "not-replayed")]


def test_purchases_of_a_play_are_its_cheapest_legal_ones() -> None:
    """R-TRADE-MINIMAL: the legal plays placing the seat's card as it was placed, each purchase once, the first
    the engine's default, the one it paid for a record that states no purchase."""
    record = parse((ROOT / GAME).read_text(encoding="utf-8"))
    played = replay(record)
    log = _Log()
    walk(played, log, record)
    checked = 0
    for t in log.turns:
        for seat, out in t.seats.items():
            listed = t.purchases(seat)
            if out.placed not in ("built", "staged") or out.card is None or out.how in ("chain", "power"):
                assert out.placed in ("built", "staged") or listed == ()
                continue
            if out.how == "unpaid":
                continue
            assert listed and listed[0].default
            assert all(a.use == ("build" if out.placed == "built" else "stage") for a in listed)
            assert all(a.card.name == out.card.name for a in listed)
            assert len({a.purchase for a in listed}) == len(listed)
            if out.action is not None and out.action.purchase is None:
                first = listed[0].purchase
                assert (sorted(first.left), sorted(first.right)) == (sorted(out.bought_left),
                                                                   sorted(out.bought_right))
                checked += 1
    assert checked > 5
