"""Completions: header tags and their values, the plays of the seat at the cursor from the engine's legal actions,
their clauses, the next turn's label."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model import catalog as _catalog
from ...model.record import Record, position_tag
from ...model.vocabulary import AGE_NUMERALS
from .cursor import TurnContext, game_prefix, turn_context, turn_start, variation_path
from .document import DocumentAnalysis, GameCache
from .text import STRING, card_in

if TYPE_CHECKING:
    from ...engine import Replay, State

_TAG = re.compile(r'[ \t]*\[([A-Za-z0-9_]*)')


@dataclass(frozen=True, slots=True)
class Completion:
    """A completion: ``label`` shown, ``text`` inserted over columns ``start``..cursor of the cursor's line,
    ``detail`` beside it (affordability, coins), ``kind`` (``card``, ``keyword``, ``value``, ``tag``, ``seat``,
    ``label``), ``order`` for sorting (affordable plays first)."""

    label: str
    text: str
    start: int
    detail: str = ""
    kind: str = "value"
    order: int = 0
    documentation: str = ""


_TAG_VALUES = {"Format": ("7WN 1", "7WN 2"), "Edition": ("2e",), "Seed": ("SM64-FY ",)}
#: The tag names completions offer, in the order offered (every row of the header-tag table, reserved first in the
#: order they were defined, then the usual free tags); a test checks it against the table.
OFFERED_TAGS = ("Format", "Edition", "Date", "Guilds", "Seed", "DealI", "DealII", "DealIII", "Expansions") + tuple(
    f"Seat{i}" for i in range(1, 8)) + ("Event", "Site", "Round", "Annotator", "Position")


def _header_completions(doc: DocumentAnalysis, line: int, column: int) -> list[Completion]:
    from ...notation.tags import RESERVED_TAGS

    text = doc.lines[line][:column]
    m = _TAG.match(text)
    if m is None:
        return []
    if m.end() == len(text):  # in the tag name
        start = m.start(1)
        return [Completion(n, n, start, "reserved tag" if n in RESERVED_TAGS else "tag", "tag", k)
                for k, n in enumerate(OFFERED_TAGS)]
    tag = m.group(1)
    values = [v for v in STRING.finditer(text, m.end())]
    if not values or values[-1].group(2):  # not inside an open value
        return []
    index = len(values) - 1
    start = values[-1].start() + 1
    cat = _catalog.load()
    if tag.startswith("Seat") and index == 0:
        used = []
        for other in doc.lines:
            s = re.match(r'[ \t]*\[Seat[1-7][ \t]+"((?:[^"\\\n]|\\.)+)"', other)
            if s is not None and s.group(1) not in used:
                used.append(s.group(1))
        return [Completion(n, n, start, "a player of this file", "seat", k) for k, n in enumerate(used)]
    if tag.startswith("Seat") and index == 1:
        return [Completion(n, n, start, "Wonder", "value", k)
                for k, n in enumerate(dict.fromkeys(w.name for w in cat.wonders))]
    if tag.startswith("Seat") and index == 2:
        return [Completion(s, s, start, "Wonder side", "value", k) for k, s in enumerate(("day", "night"))]
    if tag == "Guilds":
        item = values[-1].group(1).rsplit(",", 1)
        item_start = start + (len(item[0]) + 1 if len(item) == 2 else 0)
        while item_start < column and doc.lines[line][item_start] in " \t":
            item_start += 1
        named = {g.strip().casefold() for g in values[-1].group(1).split(",")}
        return [Completion(g.name, g.name, item_start, "guild", "card", k)
                for k, g in enumerate(cat.guilds) if g.name.casefold() not in named or
                g.name.casefold() == item[-1].strip().casefold()]
    return [Completion(v, v, start, f"{tag} value", "value", k) for k, v in enumerate(_TAG_VALUES.get(tag, ()))]


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _how(play_free: str | None, coins: int, bought: str) -> str:
    if play_free:
        return f"affordable: free ({play_free})"
    if bought:
        return f"affordable: buy {bought[1:-1]}, {_coins(coins)} in all"
    return f"affordable: own production{f', {_coins(coins)}' if coins else ''}"


def _play_completions(state: State, ctx: TurnContext, record: Record) -> list[Completion]:
    """The plays of the seat at ``state``: the engine's legal actions (via the recorder's :func:`plays`, which
    fills an unknown hand with the cards the seat may hold), then the cards it may hold but cannot build."""
    from ...engine.rules import pick_options
    from ...recorder.choices import plays, possible_cards

    assert ctx.seat is not None
    seat = ctx.seat
    city = state.cities[seat - 1]
    known = tuple(c for c in state.hands[seat - 1] if c is not None)
    whole = len(known) == len(state.hands[seat - 1])
    out: list[Completion] = []
    offered = plays(state, seat)
    last = ctx.number == 6 and whole and len(known) == 2
    grants_pick = city.stages < len(city.wonder.stages) and any(
        type(e) is _catalog.BuildFromDiscard for e in city.wonder.stages[city.stages].effects)
    pile = []
    if grants_pick:
        from ...engine import Game

        pile = [c.name for c in pick_options(Game(state), seat)]
    built = {(p.use, p.card) for p in offered}
    stages = any(p.use == "stage" and p.card != "?" for p in offered)
    for k, p in enumerate(offered):
        if p.card == "?" and (whole or (p.use == "stage" and not stages)):
            continue  # a hand the record shows names its cards; an unaffordable stage is not offered as ``stage ?``
        clauses = [""]
        if last and p.card != "?":
            rest = list(known)
            rest.remove(next(c for c in known if c.name == p.card))
            clauses = ([""] if p.keeps else []) + [f", discard {rest[0].name}"]
        note = "sale: 3 coins" if p.use == "sell" else _how(
            p.free, p.coins, p.purchases[0].text if p.purchases and p.purchases[0].purchase.left +
            p.purchases[0].purchase.right else "")
        where = "" if whole else " (the hand is not in the record: a card this seat may hold)"
        if p.use == "stage" and pile:
            where += "; this stage builds from the discard pile: ', pick' names the card (R-HALI)"
        for clause in clauses:
            out.append(Completion(p.text + clause, p.text + clause, ctx.start, note + where, "card", k))
        for option in p.purchases[1:]:
            text = f"{p.text} {option.text}"
            out.append(Completion(text, text, ctx.start, f"affordable: buy {option.text[1:-1]}, {_coins(option.coins)} "
                                                        "in all (another cheapest purchase)", "card", k))
    for card in possible_cards(state, seat):
        if ("build", card.name) in built:
            continue
        why = "already built (R-UNIQUE)" if card.name in city.names else "not affordable (R-TRADE)"
        out.append(Completion(card.name, card.name, ctx.start, why, "card", 1000 + len(out)))
    return out


def _clause_completions(state: State, ctx: TurnContext, line_text: str) -> list[Completion]:
    """After a ``,`` of an action: ``pick`` and the cards of the discard pile when the seat's stage builds from it
    (R-HALI), ``discard`` and the last card on turn 6 (R-LAST)."""
    from ...engine import Game
    from ...engine.rules import pick_options

    assert ctx.seat is not None
    comma = ctx.typed.rfind(",")
    start = ctx.start + comma + 1
    while start < len(line_text) and line_text[start] in " \t":
        start += 1
    play = ctx.typed[:comma].strip()
    city = state.cities[ctx.seat - 1]
    out: list[Completion] = []
    grants = city.stages < len(city.wonder.stages) and any(
        type(e) is _catalog.BuildFromDiscard for e in city.wonder.stages[city.stages].effects)
    if play.casefold().startswith("stage") and grants:
        for k, card in enumerate(pick_options(Game(state), ctx.seat)):
            out.append(Completion(f"pick {card.name}", f"pick {card.name}", start,
                                  "a build from the discard pile (R-HALI)", "card", k))
        out.append(Completion("pick -", "pick -", start, "declines the build from the discard pile", "card", 999))
    known = [c for c in state.hands[ctx.seat - 1] if c is not None]
    if ctx.number == 6:
        played = card_in(play)
        rest = [c for c in known]
        if played is not None and played in rest:
            rest.remove(played)
        for k, card in enumerate(dict.fromkeys(rest)):
            out.append(Completion(f"discard {card.name}", f"discard {card.name}", start,
                                  "the last card of the Age is discarded (R-LAST)", "card", k))
    return out


def completions(doc: DocumentAnalysis, line: int, column: int, cache: GameCache) -> list[Completion]:
    """The completions at ``(line, column)``: header tags and their values; on a turn line, the plays of the seat
    whose action the cursor is in, at the position the turn is played from; at the start of a body line, the next
    turn's label."""
    if not 0 <= line < len(doc.lines):
        return []
    text = doc.lines[line]
    column = min(column, len(text))
    if text.lstrip().startswith("["):
        return _header_completions(doc, line, column)
    piece = doc.piece_at(line)
    if piece is None:
        return []
    prefix, depth = game_prefix(doc, piece, line)
    record = cache.view(prefix).record
    played = cache.view(prefix).replay if record is not None else None
    if not text[:column].strip():
        if record is not None and not record.turns and not depth and position_tag(record) is None:
            return [Completion("I.1", "I.1 ", 0, "the first turn", "label")]
        return _label_completion(played, column)
    ctx = turn_context(text, column, record)
    if ctx is None or record is None or played is None:
        return []
    state = turn_start(played, ctx.age, ctx.number, variation_path(record, depth))
    if state is None and (ctx.age, ctx.number) == (1, 1) and not record.turns and not depth:
        # The engine deals Age I with its first turn: the deal (I.0) is read from the prefix and a first turn of
        # unseen sales, which the position I.0 does not depend on.
        dealt = cache.view(prefix + "I.1 " + " | ".join(["sell ?"] * len(record.seats)) + "\n").replay
        state = turn_start(dealt, 1, 1) if dealt is not None else None
    if state is None:
        return []
    if ctx.seat is None:
        from ...engine import seats_to_act

        return [Completion(f"{record.seats[s - 1].name}: ", f"{record.seats[s - 1].name}: ", ctx.start,
                           "plays the extra turn (R-BABYLON-N1)", "seat", s) for s in seats_to_act(state)]
    if "(" in ctx.typed:
        return []
    if "," in ctx.typed:
        return _clause_completions(state, ctx, line_text=text)
    return _play_completions(state, ctx, record)


def _label_completion(played: Replay | None, column: int) -> list[Completion]:
    if played is None or played.final is None:
        return []
    from ...engine import seats_to_act

    state = played.final
    if state.finished:
        return []
    age, turn = state.age, state.turn
    if state.ended or (turn >= 6 and not seats_to_act(state)):
        age, turn = age + 1, 0
    if age > 3:
        return []
    label = f"{AGE_NUMERALS[age]}.{turn + 1}"
    return [Completion(label, label + " ", 0, "the next turn", "label")]
