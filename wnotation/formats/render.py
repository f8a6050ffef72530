"""Positions, score sheets and legal actions as rows of text and as plain data, for the CLI and for JSON.

Pure functions from engine values (a :class:`~wnotation.engine.State`, a score sheet, legal actions) and the
Record's seats to tables (header and rows of strings), field lists and JSON-ready dicts. Non-goals: no printing,
no terminal detection (the CLI decides between rich and plain text), no rules.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Sequence

from ..model.catalog import COLOURS, Card
from ..model.record import UNKNOWN, Record
from ..model.vocabulary import BASE_RESULT_FIELDS, CATEGORIES

#: The rows of a base game's score pad, top to bottom (the seven categories of R-SCORE, then total, coins, rank).
SCORE_ROWS: tuple[str, ...] = BASE_RESULT_FIELDS


def score_rows(sheet: Any) -> tuple[str, ...]:
    """The rows of ``sheet`` top to bottom: its categories (the base ones, then the rows of the expansions of a
    score-pad record, R-SCORE-EXP, in the score pad's order), then total, coins and rank."""
    return tuple(getattr(sheet, "rows", CATEGORIES)) + SCORE_ROWS[len(CATEGORIES):]


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def describe_address(address: str) -> str:
    """``II.3`` → ``Age II after turn 3``; ``I.0`` → ``Age I dealt``; ``III.end`` → ``end of Age III``."""
    age, _, turn = address.partition(".")
    if turn == "0":
        return f"Age {age} dealt, before turn 1"
    if turn == "end":
        return f"end of Age {age} (military resolved)"
    if turn == "7":
        return f"Age {age} after the extra turn"
    return f"Age {age} after turn {turn}"


_LABEL = re.compile(r"(?<![A-Za-z])(i{1,3})\.([0-9]+|end)", re.IGNORECASE)


def canonical_address(text: str) -> str:
    """``ii.3`` → ``II.3``, ``iii.END`` → ``III.end``, ``i.2(1).i.3`` → ``I.2(1).I.3``: the spelling the Replay
    uses for positions, inside variations too (spec 6.1)."""
    return _LABEL.sub(lambda m: f"{m[1].upper()}.{m[2].lower()}", text.strip())


# --- score sheet -----------------------------------------------------------------------------------------------


def score_table(record: Record, sheet: Any) -> tuple[list[str], list[list[str]]]:
    """The score pad: a column per seat (headed by its name), a row for its Wonder, then one per category (with
    the expansion rows of a score-pad record), the total, the coins (empty when a score pad does not state them)
    and the rank (ties on points broken by coins; R-WIN)."""
    header = [""] + [s.name for s in record.seats]
    rows = [["wonder board"] + [f"{s.wonder} {s.side}" for s in record.seats]]
    for name in score_rows(sheet):
        rows.append([name] + [_cell(getattr(line, name)) for line in sheet.lines])
    return header, rows


def sheet_lines(sheet: Any) -> list[dict[str, Any]]:
    """Each seat's line of ``sheet`` as a dict keyed by the sheet's rows (:func:`score_rows`: the categories,
    total, coins, rank), in seat order."""
    rows = score_rows(sheet)
    return [{name: getattr(line, name) for name in rows} for line in sheet.lines]


def score_data(record: Record, sheet: Any) -> dict[str, Any]:
    """The score sheet as JSON-ready data: a dict per seat (seat number, name, Wonder board and side, the
    categories, total, coins, rank) and the winners' names. The Wonder category is ``wonder_points``, as in the
    archive's seats table, because ``wonder`` names the board."""
    seats = []
    for k, (seat, line) in enumerate(zip(record.seats, sheet_lines(sheet)), 1):
        points = {("wonder_points" if name == "wonder" else name): value for name, value in line.items()}
        seats.append({"seat": k, "name": seat.name, "wonder": seat.wonder, "side": seat.side} | points)
    return {"seats": seats, "winners": [record.seats[s - 1].name for s in sheet.winners()]}


def unnamed_cards(record: Record) -> list[dict[str, Any]]:
    """The cards seats put into their cities that the record does not name: a build of ``?`` and a pick of ``?``
    from the discard pile. The engine cannot score them, so a score sheet of such a record is incomplete. One
    JSON-ready dict per card (``address``, ``seat``, ``name``, ``what``), in record order; fresh on each call."""
    out = []
    for turn in record.turns:
        for action in turn.actions:
            name = record.seats[action.seat - 1].name if 1 <= action.seat <= record.players else f"#{action.seat}"
            if action.use == "build" and action.card == UNKNOWN:
                out.append({"address": turn.label, "seat": action.seat, "name": name, "what": "build"})
            if action.pick is not None and action.pick.card == UNKNOWN:
                out.append({"address": turn.label, "seat": action.seat, "name": name, "what": "pick"})
    return out


def unnamed_text(missing: Sequence[dict[str, Any]]) -> str:
    """One line saying what an incomplete score sheet leaves out, e.g. ``the sheet is incomplete: it leaves out
    2 cards the record does not name (I.1 Ann's build, II.4 Bob's pick from the discard pile)``."""
    what = {"build": "build", "pick": "pick from the discard pile"}
    items = ", ".join(f"{m['address']} {m['name']}'s {what[m['what']]}" for m in missing)
    cards = "1 card" if len(missing) == 1 else f"{len(missing)} cards"
    return f"the sheet is incomplete: it leaves out {cards} the record does not name ({items})"


# --- cities and positions --------------------------------------------------------------------------------------


def _counted(items: Sequence[str]) -> str:
    """``wood ×2, stone``: equal items counted, in first-seen order; ``-`` when empty."""
    counts = Counter(items)
    return ", ".join(f"{k} ×{n}" if n > 1 else k for k, n in counts.items()) or "-"


def _sources(sources: Sequence[tuple[str, ...]]) -> list[str]:
    return ["/".join(s) for s in sources]


def _own_only(own: Sequence[tuple[str, ...]], tradable: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The sources a city may use but not sell (multiset difference, in ``own`` order)."""
    left = Counter(tradable)
    out = []
    for s in own:
        if left[s]:
            left[s] -= 1
        else:
            out.append(s)
    return out


def _cards(cards: Sequence[Card | None]) -> list[str]:
    return [c.name if c is not None else "?" for c in cards]


def _tokens(tokens: Sequence[int]) -> str:
    if not tokens:
        return "-"
    return " ".join(f"{t:+d}" for t in tokens) + f" (= {sum(tokens)})"


def _prices(city: Any) -> str | None:
    p = city.prices
    if (p.left_raw, p.left_manufactured, p.right_raw, p.right_manufactured) == (2, 2, 2, 2):
        return None
    return (f"left: raw {p.left_raw}, manufactured {p.left_manufactured}; "
            f"right: raw {p.right_raw}, manufactured {p.right_manufactured}")


def city_data(state: Any, seat: int, name: str) -> dict[str, Any]:
    """Seat ``seat``'s city at ``state`` as JSON-ready data: Buildings by colour, production (for sale and
    own use only), shields, military tokens, science symbols, coins, stages and the hand (``"?"`` unknown)."""
    c = state.cities[seat - 1]
    by_colour = {colour: [b.name for b in c.buildings if b.colour == colour] for colour in COLOURS}
    return {
        "seat": seat,
        "name": name,
        "wonder": c.wonder.name,
        "side": c.wonder.side,
        "coins": c.coins,
        "stages": c.stages,
        "stages_total": len(c.wonder.stages),
        "shields": c.shields,
        "military_tokens": list(c.tokens),
        "science": list(c.science),
        "production": _sources(c.tradable),
        "own_use_only": _sources(_own_only(c.own, c.tradable)),
        "buildings": by_colour,
        "prices": {"left_raw": c.prices.left_raw, "left_manufactured": c.prices.left_manufactured,
                   "right_raw": c.prices.right_raw, "right_manufactured": c.prices.right_manufactured},
        "hand": _cards(state.hands[seat - 1]),
    }


def city_fields(state: Any, seat: int, name: str) -> tuple[str, list[tuple[str, str]]]:
    """A title (``Ada: Rhodos night, 5 coins``) and ``(field, value)`` lines for one city; colours without a
    Building are left out."""
    c = state.cities[seat - 1]
    title = f"{name}: {c.wonder.name} {c.wonder.side}, {c.coins} coin{'s' if c.coins != 1 else ''}"
    fields = [
        ("stages", f"{c.stages} of {len(c.wonder.stages)}"),
        ("production", _counted(_sources(c.tradable))),
    ]
    own = _own_only(c.own, c.tradable)
    if own:
        fields.append(("own use only", _counted(_sources(own))))
    fields.append(("shields", str(c.shields)))
    fields.append(("military", _tokens(c.tokens)))
    fields.append(("science", _counted(c.science)))
    prices = _prices(c)
    if prices:
        fields.append(("trade prices", prices))
    for colour in COLOURS:
        names = [b.name for b in c.buildings if b.colour == colour]
        if names:
            fields.append((colour, ", ".join(names)))
    hand = state.hands[seat - 1]
    if hand:
        fields.append(("hand", ", ".join(_cards(hand))))
    return title, fields


def position_title(state: Any, players: int) -> str:
    """``II.3: Age II after turn 3 (4 players)``."""
    return f"{state.address}: {describe_address(state.address)} ({players} players)"


def discard_text(state: Any) -> str:
    """The discard pile, known cards by name and unknown ones as ``?``; ``empty`` when there is none."""
    return ", ".join(_cards(state.discard)) or "empty"


def position_data(state: Any, record: Record, seats: Sequence[int]) -> dict[str, Any]:
    """The position as JSON-ready data: address, Age, turn, the cities of ``seats`` and the discard pile."""
    return {
        "address": state.address,
        "age": state.age,
        "turn": state.turn,
        "age_ended": state.ended,
        "cities": [city_data(state, s, record.seats[s - 1].name) for s in seats],
        "discard": _cards(state.discard),
    }


# --- legal actions ---------------------------------------------------------------------------------------------


def _purchase_text(purchase: Any) -> str:
    from ..notation import format_purchase
    from ..model.record import Purchase

    return format_purchase(Purchase(left=tuple(sorted(purchase.left)), right=tuple(sorted(purchase.right))))


def action_text(action: Any) -> str:
    """The action as it is written in 7WN; the purchase is written only when it is not the engine's default
    (``Temple``, ``Temple (L clay, R glass)``, ``stage Altar``, ``sell Altar``)."""
    text = action.card.name if action.use == "build" else f"{action.use} {action.card.name}"
    if not action.default and action.purchase.units:
        text += " " + _purchase_text(action.purchase)
    discard = getattr(action, "discard", None)  # a turn-6 play that discards the last card (R-LAST)
    if discard is not None and not getattr(action, "keeps", False):
        text += f", discard {discard.name}"
    return text


def _trade(action: Any) -> str:
    p = action.purchase
    parts = [f"{p.left_coins} to left" if p.left else "", f"{p.right_coins} to right" if p.right else ""]
    return ", ".join(x for x in parts if x) or "-"


def _note(action: Any) -> str:
    note = ""
    if action.use == "sell":
        note = "gains 3 coins"
    elif action.free:
        note = f"free ({action.free})"
    elif action.purchase.units:
        note = "default" if action.default else "alternative"
    if getattr(action, "keeps", False):  # R-BABYLON-N1: the same play, written without a discard clause
        note = f"{note}; keeps the last card (extra turn)" if note else "keeps the last card (extra turn)"
    return note


def legal_table(actions: Sequence[Any]) -> tuple[list[str], list[list[str]]]:
    """Legal actions as a table: what to write in 7WN, units bought, coins paid in all, coins to each
    neighbour, and a note (a free build's reason; which cheapest purchase is the default)."""
    header = ["action", "buys", "coins", "to neighbours", "note"]
    rows = []
    for a in actions:
        buys = _purchase_text(a.purchase) if a.purchase.units else "-"
        rows.append([action_text(a), buys, str(a.coins), _trade(a), _note(a)])
    return header, rows


def legal_data(actions: Sequence[Any]) -> list[dict[str, Any]]:
    """Legal actions as JSON-ready dicts, in the engine's order."""
    return [
        {
            "seat": a.seat,
            "use": a.use,
            "card": a.card.name,
            "purchase": {"left": list(a.purchase.left), "right": list(a.purchase.right),
                         "left_coins": a.purchase.left_coins, "right_coins": a.purchase.right_coins},
            "coins": a.coins,
            "free": a.free,
            "default": a.default,
            "keeps": a.keeps,
            "discard": a.discard.name if a.discard is not None else None,
            "notation": action_text(a),
        }
        for a in actions
    ]
