"""The reference answers of the conformance protocol (spec/conformance.md): one request in, one answer out, computed
by this project's reader and engine through their public functions. The shipped adapter
(:mod:`wnotation.conformance.adapter`) serves them; the vector generator uses the same counting functions.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..model import deck
from ..model.catalog import CatalogError
from ..errors import WnotationError
from ..engine import legal_actions, seats_to_act, step_turn
from ..engine.legal import LegalAction
from ..engine.replay import city_view
from ..engine.rules import Play
from ..engine.scoring import ScoreSheet, score
from ..engine.state import State

#: The fields of a score-sheet line in answers and vectors, in the order of the score pad.
SCORE_FIELDS = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total", "coins",
                "rank")
#: The deepest joint-turn count a request may ask for (spec/conformance.md §5.5).
MAX_DEPTH = 3


class RequestError(WnotationError, ValueError):
    """A request that does not follow the protocol (an unknown op, a missing or mistyped field)."""


def sheet_data(sheet: ScoreSheet | None) -> list[dict[str, Any]] | None:
    """A score sheet as the protocol writes it: one object per seat, in seat order."""
    if sheet is None:
        return None
    return [{"seat": line.seat, **{f: getattr(line, f) for f in SCORE_FIELDS}} for line in sheet.lines]


def _field(request: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = request.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise RequestError(f"request field {name!r} missing or not of the expected type")
    return value


# --- check: a record replayed ------------------------------------------------------------------------------------


def check(text: str, positions: Sequence[str]) -> dict[str, Any]:
    """The ``check`` answer: the reader's refusal, or the findings, the score sheet and the requested positions."""
    from ..engine import replay
    from ..engine.position import start_setup, to_string
    from ..notation import NotationError, parse
    from ..model.position_values import PositionError

    try:
        record = parse(text, source="vector.7wn")
        start = start_setup(record)  # the engine judges the [Position] the reader read (spec/position.md §8)
    except NotationError as exc:
        return {"refused": exc.rule, "findings": [], "scores": None, "positions": {}}
    except PositionError:
        return {"refused": "position", "findings": [], "scores": None, "positions": {}}
    rp = replay(record)
    findings = [{"severity": f.severity, "rule": f.rule, "seat": f.seat,
                 "line": f.span.line if f.span is not None else None,
                 "column": f.span.column if f.span is not None else None}
                for f in rp.findings if f.severity in ("error", "warning")]
    seed = start.seed if start is not None else (
        record.seed.value if record.seed is not None and record.seed.algorithm == deck.SHUFFLE_ALGORITHM else None)
    strings: dict[str, str | None] = {}
    for where in positions:
        try:
            strings[where] = to_string(rp.position(where), seed=seed)
        except (KeyError, ValueError):
            strings[where] = None
    return {"refused": None, "findings": findings, "scores": sheet_data(rp.scores), "positions": strings}


# --- deal -------------------------------------------------------------------------------------------------------


def deal(players: int, seed: int, guilds: Sequence[str] | None) -> dict[str, Any]:
    """The ``deal`` answer: the Age III guilds and every hand, or the refusal of impossible inputs."""
    try:
        dealt = deck.deal(players, seed, guilds)
    except CatalogError as exc:
        return {"refused": str(exc)}
    return {"refused": None, "guilds": [g.name for g in dealt.guilds],
            "hands": [[[c.name for c in hand] for hand in age] for age in dealt.hands]}


# --- position -----------------------------------------------------------------------------------------------------


def position(string: str, seat: int | None) -> dict[str, Any]:
    """The ``position`` answer: the canonical string (or the projection for ``seat``), or the refusal."""
    from ..engine.position import from_string, to_string
    from ..model.position_values import PositionError

    try:
        state, seed = from_string(string)
    except PositionError as exc:
        return {"refused": {"check": exc.check, "column": exc.column}}
    if seat is not None and not 1 <= seat <= len(state.cities):
        raise RequestError(f"seat {seat} is not a seat of the position")
    return {"refused": None, "canonical": to_string(state, seed=seed, seat=seat)}


def score_position(string: str) -> dict[str, Any]:
    """The ``score`` answer: the score sheet of the cities of a position string, as if the game ended there."""
    from ..engine.position import from_string
    from ..model.position_values import PositionError

    try:
        state, _ = from_string(string)
    except PositionError as exc:
        raise RequestError(f"invalid position string: {exc}") from None
    return {"scores": sheet_data(score([city_view(c) for c in state.cities]))}


# --- count: legal actions and joint turns ---------------------------------------------------------------------------


def actions(state: State) -> list[list[LegalAction]]:
    """Each seat's counted legal actions (spec/conformance.md §5.5), seat 1 first; empty for a seat that does not
    act."""
    return [list(legal_actions(state, seat)) for seat in range(1, len(state.cities) + 1)]


def _play(a: LegalAction) -> Play:
    purchase = None if a.default else (a.purchase.left, a.purchase.right)
    discard = (a.discard,) if a.discard is not None else ()
    return Play(a.seat, a.use, a.card, purchase, discard)


def joint_turns(state: State, depth: int) -> int:
    """The number of sequences of ``depth`` joint turns from ``state`` (a sequence ends early where no seat acts
    any more in the Age): perft for 7 Wonders, spec/conformance.md §5.5."""
    if depth == 0 or not seats_to_act(state):
        return 1
    lists = [a for a in actions(state) if a]
    if depth == 1:
        total = 1
        for a in lists:
            total *= len(a)
        return total
    total = 0
    for joint in _product(lists):
        _, findings, after = step_turn(state, [_play(a) for a in joint])
        if any(f.severity == "error" for f in findings):
            raise AssertionError(f"a listed legal joint turn has errors: {findings}")
        total += joint_turns(after, depth - 1)
    return total


def _product(lists: list[list[LegalAction]]) -> Any:
    import itertools

    return itertools.product(*lists)


def count(string: str, depth: int) -> dict[str, Any]:
    """The ``count`` answer: per seat the number of legal actions, and the joint turns to depths 1..``depth``."""
    from ..engine.position import from_string
    from ..model.position_values import PositionError

    if not 0 <= depth <= MAX_DEPTH:
        raise RequestError(f"depth {depth}: expected 0 to {MAX_DEPTH}")
    try:
        state, _ = from_string(string)
    except PositionError as exc:
        raise RequestError(f"invalid position string: {exc}") from None
    if any(card is None for hand in state.hands for card in hand):
        raise RequestError("a counted position names every card in hand")
    return {"actions": [len(a) for a in actions(state)],
            "joint": [joint_turns(state, d) for d in range(1, depth + 1)]}


# --- dispatch --------------------------------------------------------------------------------------------------------

#: The operations of protocol version 1.
OPS = ("hello", "check", "deal", "position", "score", "count")


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The reference answer to one request (without its ``id``). Raises :class:`RequestError` for a bad request."""
    op = request.get("op")
    if op == "hello":
        return {"name": "wnotation", "ops": list(OPS[1:])}
    if op == "check":
        wanted = request.get("positions", [])
        if not isinstance(wanted, list) or not all(isinstance(w, str) for w in wanted):
            raise RequestError("request field 'positions' must be a list of addresses")
        return check(_field(request, "record", str), wanted)
    if op == "deal":
        guilds = request.get("guilds")
        if guilds is not None and not (isinstance(guilds, list) and all(isinstance(g, str) for g in guilds)):
            raise RequestError("request field 'guilds' must be null or a list of names")
        return deal(_field(request, "players", int), _field(request, "seed", int), guilds)
    if op == "position":
        seat = request.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise RequestError("request field 'seat' must be null or a seat number")
        return position(_field(request, "string", str), seat)
    if op == "score":
        return score_position(_field(request, "position", str))
    if op == "count":
        return count(_field(request, "position", str), _field(request, "depth", int))
    raise RequestError(f"unknown op {op!r}: expected one of {', '.join(OPS)}")
