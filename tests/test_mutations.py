"""Mutation testing of records (issue 6, item 4): one change to one line of a legal game is reported at that line.

A bot plays a legal game (``play_game``; the record carries ``[Seed]``, so every hand is fixed by SM64-FY and a
changed card is detectable). Its canonical text is mutated on **one turn line** (checked: the mutated text differs
from the original in exactly that line), then read and replayed. Hypothesis chooses the game, and the turn, seat
and details of the mutation among those the kind can apply to.

**Reported at the changed line L** means: reading the text raises a :class:`NotationError` whose ``line`` is L, or
the replay's **first error finding in game order** has a span on line L. Why the first error and not "some
error": the text before L is unchanged and legal, and the replay is causal (findings come in game order, each turn
checked against the state before it), so an engine that blames an earlier line, or only a later one, has
mis-located the fault. Findings after the first may land on later lines (a changed Building changes later
chains, coins and the stated results, R-SCORE, at the result lines); they are allowed and not asserted. Where a
kind pins the rule, the first error's rule ID is asserted too.

Negative controls (mutations that keep the game legal: dropping a stated purchase lets the engine choose its
default, R-TRADE-MINIMAL) must produce **no** error at or before L, so the harness cannot pass by accepting any
finding anywhere. A "stage out of order" cannot be written in 7WN (a stage action names no stage number: the
engine numbers stages left to right, R-STAGE); its nearest forms, a stage beyond the last and a stage that cannot
be paid, are kinds here.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from wnotation.model import deck
from wnotation.model.catalog import RESOURCES
from wnotation.engine import replay
from wnotation.engine.bot import play_game
from wnotation.engine.legal import legal_actions
from wnotation.notation import NotationError, parse, write
from wnotation.model.record import Action, Pick, Purchase, Record

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
GAMES = st.tuples(st.integers(3, 7), st.integers(0, 2**32 - 1), st.sampled_from(["random", "greedy"]))
RESULT = re.compile(r"^result ")


@dataclass(frozen=True)
class Game:
    """A legal bot game with what the mutators need: text, turn lines, the position before each turn."""

    record: Record
    text: str
    lines: tuple[int, ...]  # the text line of each turn of record.turns
    before: tuple  # the state before each turn of record.turns
    players: int


@lru_cache(maxsize=128)
def legal_game(players: int, seed: int, bot: str) -> Game:
    record = play_game(players, seed, bot)
    text = write(record)
    parsed = parse(text)
    r = replay(parsed)
    assert r.findings == () and parsed == record
    order = r.addresses
    before = tuple(r.position(order[order.index(t.label) - 1]) for t in record.turns)
    return Game(record, text, tuple(t.span.line for t in parsed.turns), before, players)


@dataclass(frozen=True)
class Change:
    """One candidate mutation: turn index, seat, a description, and how to make the new Record or line."""

    turn: int
    seat: int
    what: str
    action: dict | None = None  # field updates of the seat's Action
    line: Callable[[str], str] | None = None  # a text-level rewrite of the turn line
    extra: Action | None = None  # an action to add to the turn (extra turn)
    rules: frozenset[str] | None = None  # the rule ID the first error must cite (None: any)


# --- helpers ------------------------------------------------------------------------------------------------


def _names(cards) -> set[str]:
    return {c.name for c in cards if c is not None}


def _legal(state, action: Action):
    """The listed legal action the recorded ``action`` took (its stated purchase, or the default)."""
    for a in legal_actions(state, action.seat):
        if a.use != action.use or a.card.name != action.card:
            continue
        if action.purchase is None and a.default:
            return a
        if action.purchase is not None and (tuple(sorted(a.purchase.left)), tuple(sorted(a.purchase.right))) == (
                action.purchase.left, action.purchase.right):
            return a
    return None


def _other_in_hand(state, seat: int, card: str) -> str:
    """The other card of a two-card hand (turn 6)."""
    rest = [c.name for c in state.hands[seat - 1]]
    rest.remove(card)
    return rest[0]


def _card_update(g: Game, k: int, a: Action, card: str) -> dict:
    """Fields for ``a`` playing ``card`` instead: on turn 6 the discard becomes the other card of the hand, so
    that the new card is the only fault."""
    update = {"card": card}
    if a.discard is not None and card in _names(g.before[k].hands[a.seat - 1]):
        update["discard"] = _other_in_hand(g.before[k], a.seat, card)
    return update


# --- mutation kinds: each lists every change it can make to a game -------------------------------------------


def other_card(g: Game) -> list[Change]:
    """A card that is not in the hand the seat holds (R-DECK; R-PASS when a neighbour holds it)."""
    out = []
    guilds = tuple(g.record.guilds or ())
    for k, turn in enumerate(g.record.turns):
        designs = sorted({c.name for c in deck.deck(turn.age, g.players, guilds if turn.age == 3 else ())})
        for a in turn.actions:
            hand = _names(g.before[k].hands[a.seat - 1])
            for name in designs:
                if name not in hand:
                    out.append(Change(k, a.seat, f"{a.use} {name} for {a.card}", _card_update(g, k, a, name),
                                      rules=frozenset({"R-DECK", "R-PASS"})))
    return out


def other_discard(g: Game) -> list[Change]:
    """Turn 6 discards a card other than the one left in hand (R-LAST)."""
    out = []
    for k, turn in enumerate(g.record.turns):
        for a in turn.actions:
            if a.discard is None:
                continue
            for name in sorted({c.name for c in deck.deck(turn.age, g.players, tuple(g.record.guilds or ()))}):
                if name != a.discard:
                    out.append(Change(k, a.seat, f"discard {name} for {a.discard}", {"discard": name},
                                      rules=frozenset({"R-LAST"})))
    return out


def no_discard(g: Game) -> list[Change]:
    """Turn 6 without the discard clause, for a seat that cannot keep its last card (R-LAST, R-BABYLON-N1)."""
    return [Change(k, a.seat, "drop the discard clause", {"discard": None},
                   rules=frozenset({"R-LAST", "R-BABYLON-N1"}))
            for k, turn in enumerate(g.record.turns) for a in turn.actions if a.discard is not None]


def duplicate_building(g: Game) -> list[Change]:
    """Build a card the city already has (R-UNIQUE). When the hand holds a copy of an owned name, that copy is
    built (the only fault); otherwise an owned name of this Age is built (also not in hand: R-DECK first)."""
    out = []
    for k, turn in enumerate(g.record.turns):
        state = g.before[k]
        for a in turn.actions:
            owned = state.cities[a.seat - 1].names
            hand = _names(state.hands[a.seat - 1])
            twins = sorted(hand & owned)
            for name in twins:
                out.append(Change(k, a.seat, f"build owned {name} from hand", {**_card_update(g, k, a, name),
                                  "use": "build", "purchase": None}, rules=frozenset({"R-UNIQUE"})))
            if not twins:
                this_age = sorted(b.name for b in state.cities[a.seat - 1].buildings if b.age == turn.age)
                for name in this_age:
                    out.append(Change(k, a.seat, f"build owned {name}", {**_card_update(g, k, a, name),
                                      "use": "build", "purchase": None}))
    return out


def stage_beyond_last(g: Game) -> list[Change]:
    """A stage by a seat whose Wonder is complete (R-STAGE)."""
    out = []
    for k, turn in enumerate(g.record.turns):
        state = g.before[k]
        for a in turn.actions:
            city = state.cities[a.seat - 1]
            if city.stages == len(city.wonder.stages) and a.use != "stage":
                out.append(Change(k, a.seat, f"stage {a.card} beyond stage {city.stages}",
                                  {"use": "stage", "purchase": None}, rules=frozenset({"R-STAGE"})))
    return out


def unaffordable(g: Game) -> list[Change]:
    """A sale (or stage) turned into a build (or stage) that the seat cannot pay for at the turn's start
    (R-TRADE, R-PRODUCE, R-COST-COINS): the card is in hand, not owned, and not listed by ``legal_actions``."""
    out = []
    for k, turn in enumerate(g.record.turns):
        state = g.before[k]
        for a in turn.actions:
            city = state.cities[a.seat - 1]
            listed = legal_actions(state, a.seat)
            builds = {x.card.name for x in listed if x.use == "build"}
            stages = bool([x for x in listed if x.use == "stage"])
            if a.use == "sell" and a.card not in builds and a.card not in city.names:
                out.append(Change(k, a.seat, f"build {a.card} instead of selling it", {"use": "build"}))
            if a.use != "stage" and not stages and city.stages < len(city.wonder.stages):
                out.append(Change(k, a.seat, f"stage {a.card} without the means", {"use": "stage",
                                  "purchase": None}))
    return out


def purchase_plus_unit(g: Game) -> list[Change]:
    """One more unit bought than the paid build or stage needs (R-TRADE-MINIMAL, or R-TRADE / R-COST-COINS)."""
    out = []
    for k, turn in enumerate(g.record.turns):
        for a in turn.actions:
            if a.use == "sell":
                continue
            taken = _legal(g.before[k], a)
            assert taken is not None, (turn.label, a)
            if taken.free:
                continue  # paying normally for a free build is legal (R-CHAIN): a unit may be needed then
            for side in ("left", "right"):
                for r in RESOURCES:
                    p = {"left": list(taken.purchase.left), "right": list(taken.purchase.right)}
                    p[side].append(r)
                    new = Purchase(left=tuple(sorted(p["left"])), right=tuple(sorted(p["right"])))
                    out.append(Change(k, a.seat, f"buy {r} more from {side}", {"purchase": new}))
    return out


def purchase_minus_unit(g: Game) -> list[Change]:
    """One unit fewer than a cheapest (hence minimal) purchase: the cost is not covered (R-PRODUCE)."""
    out = []
    for k, turn in enumerate(g.record.turns):
        for a in turn.actions:
            if a.use == "sell":
                continue
            taken = _legal(g.before[k], a)
            for side in ("left", "right"):
                units = list(getattr(taken.purchase, side))
                for i, r in enumerate(units):
                    p = {"left": list(taken.purchase.left), "right": list(taken.purchase.right)}
                    del p[side][i]
                    new = Purchase(left=tuple(sorted(p["left"])), right=tuple(sorted(p["right"])))
                    out.append(Change(k, a.seat, f"buy no {r} from {side}", {"purchase": new},
                                      rules=frozenset({"R-PRODUCE"})))
    return out


def extra_pick(g: Game) -> list[Change]:
    """A Halikarnassos pick on an action of a seat owed none this turn (R-HALI), in turns 1..6. (The extra turn's
    actions are :func:`test_R_HALI__a_pick_on_an_extra_turn_action_is_reported`'s: a known engine bug.)"""
    out = []
    for k, turn in enumerate(g.record.turns):
        if turn.number == 7:
            continue
        names = sorted({c.name for c in deck.deck(turn.age, g.players, tuple(g.record.guilds or ()))})
        for a in turn.actions:
            if a.pick is None:
                for name in (names[k % len(names)], None):
                    out.append(Change(k, a.seat, f"pick {name or '-'}", {"pick": Pick(card=name)},
                                      rules=frozenset({"R-HALI"})))
    return out


def extra_action(g: Game) -> list[Change]:
    """An action too many: one more in a normal turn (a notation error, action-count), or an extra-turn action
    for a seat that kept no last card (R-BABYLON-N1)."""
    out = []
    for k, turn in enumerate(g.record.turns):
        if turn.number < 7:
            a = turn.actions[-1]
            out.append(Change(k, a.seat, f"append | sell {a.card}", line=lambda s, c=a.card: f"{s} | sell {c}"))
            continue
        playing = {a.seat for a in turn.actions}
        state = g.before[k]
        for seat in range(1, g.players + 1):
            if seat not in playing:
                card = g.record.turns[k - 1].actions[seat - 1].card  # what it played on turn 6
                extra = Action(seat=seat, use="sell", card=card)
                assert not state.hands[seat - 1]
                out.append(Change(k, seat, f"extra turn for seat {seat}", extra=extra,
                                  rules=frozenset({"R-BABYLON-N1"})))
    return out


def missing_action(g: Game) -> list[Change]:
    """A normal turn with one action fewer than seats (a notation error, action-count)."""
    return [Change(k, turn.actions[-1].seat, "drop the last action", line=lambda s: s.rsplit(" | ", 1)[0])
            for k, turn in enumerate(g.record.turns) if turn.number < 7]


def misspelt_card(g: Game) -> list[Change]:
    """A card name with a letter added after its first (a notation error, unknown-card, at the name's column)."""
    out = []
    for k, turn in enumerate(g.record.turns):
        for a in turn.actions:
            def spoil(s: str, name: str = a.card) -> str:
                m = re.search(rf"(?<=[ |:]){re.escape(name)}(?=$|[ ,(|])", s)
                return s[: m.start() + 1] + "x" + s[m.start() + 1 :]
            out.append(Change(k, a.seat, f"misspell {a.card}", line=spoil))
    return out


def wrong_label(g: Game) -> list[Change]:
    """A turn labelled with the next turn's number (a notation error, turn-order)."""
    return [Change(k, 1, f"label {turn.label} as {turn.number + 1}",
                   line=lambda s, n=turn.number: re.sub(rf"^(I+)\.{n}\b", rf"\1.{n + 1}", s))
            for k, turn in enumerate(g.record.turns) if turn.number < 6]


def no_purchase(g: Game) -> list[Change]:
    """Negative control: a stated purchase dropped. The engine then pays with its default, a cheapest purchase
    too (R-TRADE-MINIMAL), so the line stays legal."""
    return [Change(k, a.seat, "drop the stated purchase", {"purchase": None})
            for k, turn in enumerate(g.record.turns) for a in turn.actions if a.purchase is not None]


KINDS = {
    "other_card": other_card,
    "other_discard": other_discard,
    "no_discard": no_discard,
    "duplicate_building": duplicate_building,
    "stage_beyond_last": stage_beyond_last,
    "unaffordable": unaffordable,
    "purchase_plus_unit": purchase_plus_unit,
    "purchase_minus_unit": purchase_minus_unit,
    "extra_pick": extra_pick,
    "extra_action": extra_action,
    "missing_action": missing_action,
    "misspelt_card": misspelt_card,
    "wrong_label": wrong_label,
}
LEGAL_KINDS = {"no_purchase": no_purchase}


# --- applying a change and judging the result --------------------------------------------------------------


def mutate(g: Game, c: Change) -> tuple[str, int]:
    """The mutated text and its changed line; asserts that exactly that one line differs."""
    line = g.lines[c.turn]
    old = g.text.split("\n")
    if c.line is not None:
        new = list(old)
        new[line - 1] = c.line(old[line - 1])
        text = "\n".join(new)
    else:
        turn = g.record.turns[c.turn]
        if c.extra is not None:
            actions = tuple(sorted(turn.actions + (c.extra,), key=lambda a: a.seat))
        else:
            actions = tuple(a.model_copy(update=c.action) if a.seat == c.seat else a for a in turn.actions)
        turns = list(g.record.turns)
        turns[c.turn] = turn.model_copy(update={"actions": actions})
        text = write(g.record.model_copy(update={"turns": tuple(turns)}))
    lines = text.split("\n")
    changed = [i + 1 for i, (x, y) in enumerate(zip(old, lines)) if x != y]
    assert len(lines) == len(old) and changed == [line], (c.what, changed)
    return text, line


def verdict(text: str, line: int) -> tuple[str, object]:
    """``("notation", error)`` or ``("replay", error findings in game order)``."""
    try:
        record = parse(text, source="<mutant>")
    except NotationError as error:
        return "notation", error
    return "replay", [f for f in replay(record).findings if f.severity == "error"]


def show(text: str, g: Game, c: Change, got) -> str:
    diff = "".join(difflib.unified_diff(g.text.splitlines(True), text.splitlines(True), "legal", "mutant", n=0))
    return f"{c.what} (seat {c.seat})\n{diff}\ngot: {got!r}"


def assert_reported_at_line(g: Game, c: Change) -> None:
    text, line = mutate(g, c)
    how, got = verdict(text, line)
    if how == "notation":
        assert got.line == line, show(text, g, c, str(got))
        return
    assert got, show(text, g, c, "no error finding")
    first = got[0]
    assert first.span is not None and first.span.line == line, show(text, g, c, got[:3])
    if c.rules is not None:
        assert first.rule in c.rules, show(text, g, c, got[:3])


def choose(kind: Callable[[Game], list[Change]], game: tuple, data) -> tuple[Game, Change]:
    """The drawn game, or the next seeds' games until one admits the kind (bounded, deterministic)."""
    players, seed, bot = game
    other = "random" if bot == "greedy" else "greedy"
    for step in range(100):
        g = legal_game(players, (seed + step // 2) % 2**32, (bot, other)[step % 2])
        found = kind(g)
        if found:
            return g, data.draw(st.sampled_from(found), label="change")
    raise AssertionError(f"no game from seed {seed} on admits {kind.__name__}")


@pytest.mark.parametrize("kind", sorted(KINDS))
@SETTINGS
@given(game=GAMES, data=st.data())
def test_a_single_mutation_is_reported_at_its_line(kind, game, data):
    g, c = choose(KINDS[kind], game, data)
    assert_reported_at_line(g, c)


@pytest.mark.parametrize("kind", sorted(LEGAL_KINDS))
@SETTINGS
@given(game=GAMES, data=st.data())
def test_a_legal_mutation_is_not_reported_at_or_before_its_line(kind, game, data):
    g, c = choose(LEGAL_KINDS[kind], game, data)
    text, line = mutate(g, c)
    how, got = verdict(text, line)
    assert how == "replay", show(text, g, c, got)
    early = [f for f in got if f.span is None or f.span.line <= line]
    assert early == [], show(text, g, c, early)
    lines = text.split("\n")
    assert all(RESULT.match(lines[f.span.line - 1]) or f.span.line > line for f in got)


def test_every_kind_applies_to_some_small_game():
    """The kinds are not vacuous: each finds candidates within a few seeds of 3- and 7-player games."""
    for name, kind in {**KINDS, **LEGAL_KINDS}.items():
        assert any(kind(legal_game(p, s, b)) for p in (3, 7) for s in range(12) for b in ("random", "greedy")), name


def test_R_HALI__a_pick_on_an_extra_turn_action_is_reported():
    """Babylon's extra-turn action can never owe a build from the discard pile, so a pick clause there is an
    error at its line, as it is on an action of turns 1..6 (``extra_pick``)."""
    g = legal_game(3, 0, "random")
    k = next(k for k, t in enumerate(g.record.turns) if t.number == 7)
    a = g.record.turns[k].actions[0]
    assert_reported_at_line(g, Change(k, a.seat, "pick on the extra turn", {"pick": Pick(card="Press")},
                                      rules=frozenset({"R-HALI"})))
