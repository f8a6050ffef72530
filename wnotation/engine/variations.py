"""Replaying a record's variations (spec 7wn.md §6.1, §6.2): each from the position before the turn it replaces,
every seat it leaves out keeping the action of the line it branches from, its findings under its own address.

The main line's replay is made first and never changed here: a variation gets its own run of the same turn loop
(:class:`~.replay.Run`), started from a snapshot the main run took before the replaced turn, dealt the main
line's hands in later Ages. Not done here: reading text (the Record holds the variations), verifying results (a
variation states none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from ..model.record import Turn, Variation
from . import deals as dealing
from . import events as ev
from .findings import Finding
from .results import Positions, VariationReplay, city_view, position_in, split_address
from .run import Decoded, Run, decode
from .rules import Play, address, deal_events
from .scoring import score
from .state import Game

__all__ = ["VariationReplay", "replay_variations", "position_in", "split_address"]

class _Line:
    """A line of play's written plays by turn, for the variations that branch from it: ``kept`` gives the action
    each seat has at a turn, written here or kept from an outer line (spec §6.1)."""

    def __init__(self, plays: Mapping[tuple[int, int], Sequence[Play]], parent: _Line | None, name: str,
                 prefix: str) -> None:
        self.plays = plays
        self.parent = parent
        self.name = name  # "the main line", "variation I.3(1)"
        self.prefix = prefix  # "" or "I.3(1)."

    def kept(self, key: tuple[int, int]) -> dict[int, tuple[Play, str]]:
        """Seat -> (its play at turn ``key``, the name of the line that writes it)."""
        chain: list[_Line] = []
        line: _Line | None = self
        while line is not None:  # a loop, not a recursion: no nesting depth reaches Python's recursion limit
            chain.append(line)
            line = line.parent
        found: dict[int, tuple[Play, str]] = {}
        for outer in reversed(chain):  # the main line first, so the innermost line that writes a seat wins
            for p in outer.plays.get(key, ()):
                found[p.seat] = (p, outer.name)
        return found


def replay_variations(main: Run) -> Mapping[str, VariationReplay]:
    """Every variation of ``main``'s record replayed, by address in text order (a variation before those nested
    in it). ``main`` has run, with snapshots before the turns that have variations (``branch_at``)."""
    dealt: dict[int, dealing.Hands] = {e.age: e.hands for e in main.events if isinstance(e, ev.AgeDealt)}
    out: dict[str, VariationReplay] = {}
    _branches(main, main.record.turns, _Line(main.decoded.plays, None, "the main line", ""), dealt, out)
    return MappingProxyType(out)


#: A variation to replay: the run and line it branches from, the variation, the key of the turn it replaces, its
#: address.
_Branch = tuple[Run, Variation, tuple[int, int], str, _Line]


def _branches(run: Run, turns: Sequence[Turn], line: _Line, dealt: dict[int, dealing.Hands],
              out: dict[str, VariationReplay]) -> None:
    """Replay the variations of ``turns`` (of ``run``'s ``line``) and those nested in them into ``out``, in text
    order: depth first, with a stack of its own rather than recursion, so any nesting replays."""
    stack = _children(run, turns, line)
    stack.reverse()
    while stack:
        parent, variation, key, where, outer = stack.pop()
        replayed, inner, inner_line = _replay_one(parent, variation, key, where, outer, dealt)
        out[where] = replayed
        if inner is not None and inner_line is not None:
            stack.extend(reversed(_children(inner, variation.turns, inner_line)))


def _children(run: Run, turns: Sequence[Turn], line: _Line) -> list[_Branch]:
    """The variations of ``turns``, the turns of ``run``'s ``line``, in order."""
    found: list[_Branch] = []
    seen: set[tuple[int, int]] = set()
    for turn in turns:
        key = (turn.age, turn.number)
        if key in seen:  # a turn written twice: the line plays the first (R-TURN), its variations are the first's
            continue
        seen.add(key)
        for k, variation in enumerate(turn.variations, 1):
            found.append((run, variation, key, f"{line.prefix}{turn.label}({k})", line))
    return found


def _replay_one(parent: Run, variation: Variation, key: tuple[int, int], where: str, line: _Line,
                dealt: dict[int, dealing.Hands]) -> tuple[VariationReplay, Run | None, _Line | None]:
    """Replay one variation of the turn ``key`` of ``parent``'s line; also its run and line, for the variations
    nested in it (``None`` when it is not replayed)."""
    label = address(*key)
    first = variation.turns[0]
    start = parent.before.get(key)
    problem = None
    if (first.age, first.number) != key:
        problem = (f"this variation of turn {label} starts with turn {first.label}: a variation's first turn "
                   "replaces that turn and has its label; the variation is not replayed")
    elif start is None:
        problem = (f"{line.name} stops before turn {label}, so this variation of it has no position to start "
                   "from; it is not replayed")
    if problem is not None or start is None:
        refused: tuple[Finding, ...] = (Finding("R-TURN", problem or "", f"{where}.{first.label}", None,
                                                variation.span),)
        empty: Mapping[str, int] = MappingProxyType({})
        return VariationReplay(where, label, line.prefix[:-1], (), refused, Positions(None, (), empty), None), None, None
    written = decode(variation.turns)
    own = _Line(written.plays, line, f"variation {where}", where + ".")
    run = Run(parent.record.model_copy(update={"turns": ()}))
    decoded, kept = _effective(written, own)
    if key[1] == 7:
        _turn_six(decoded, own, key[0])
    run.decoded = decoded
    run.findings = list(written.findings)
    run.start = start
    run.game = Game(start)
    run.dealt = dealt
    run.unpaid = [u for u in parent.unpaid if u.key < key]  # refused before the branch: the seller is short still
    run.branch_at = frozenset((t.age, t.number) for t in variation.turns if t.variations)
    age, number = key
    going = run.age(age, number)
    _check_deck(run, own, key, age)
    while going and age < 3:
        age += 1
        from_line = age in dealt  # else run.hands rebuilds the Age's hands from the variation and checks them
        run.apply(deal_events(age, run.hands(age)))
        run.mark()
        going = run.age(age)
        if from_line:
            _check_deck(run, own, key, age)
    sheet = score([city_view(c) for c in run.game.cities]) if run.game.finished else None
    found = tuple(_placed(f, where, kept) for f in run.findings)
    events = tuple(run.events)
    replayed = VariationReplay(where, label, line.prefix[:-1], events, found,
                               Positions(start, events, MappingProxyType(dict(run.marks))), sheet)
    return replayed, run, own


def _check_deck(run: Run, line: _Line, key: tuple[int, int], age: int) -> None:
    """The deck check (R-DECK) of the main line, for the cards of ``age`` in a variation's line of play, added to
    ``run``'s findings at the variation's own turns: the cards its line used in the Age (the lines outside it before
    ``key``, the turn it replaces; its own plays from there), and the named cards still in the hands where it stops
    (the hands it was dealt hold the cards the main line shows leaving them). A play already reported as not in its
    hand (R-DECK, R-PASS) is not counted again."""
    ours = [t for a, t in run.decoded.order if a == age]
    if not ours:
        return
    first = key[1] if key[0] == age else 1
    plays: dict[int, Sequence[Play]] = {}
    for t in range(1, 8):
        if t < first:
            plays[t] = [p for _, (p, _) in sorted(line.kept((age, t)).items())]
        elif (age, t) in run.decoded.plays:
            plays[t] = run.decoded.plays[(age, t)]
    reported = {(f.address, f.seat) for f in run.findings if f.rule in ("R-DECK", "R-PASS")}
    _, per_hand = dealing.rebuild(age, run.record.players, plays)
    uses = [u for hand in per_hand for u in hand if (u[1], u[2]) not in reported]
    held = address(age, 0)  # counted first, so that a copy too many is one the variation plays
    uses += [(c, held, None, None) for hand in run.game.hands for c in hand if c is not None]
    mine = {address(age, t) for t in ours}
    run.findings += [f for f in dealing.check_deck(age, run.record.players, run.guilds, uses) if f.address in mine]


def _effective(written: Decoded, line: _Line) -> tuple[Decoded, dict[tuple[str, int], str]]:
    """The plays a variation makes at each of its turns (its own, and for the seats it leaves out those kept from
    the lines outside it, given the span of its own turn so that findings point into the variation), and where
    each kept one comes from: ``(turn address, seat) -> line name``."""
    d = Decoded()
    kept: dict[tuple[str, int], str] = {}
    for key in written.order:
        span = written.spans.get(key)
        plays = []
        for seat, (p, origin) in sorted(line.kept(key).items()):
            if origin != line.name:
                kept[(address(*key), seat)] = origin
                p = p._replace(span=span, pick_span=span)
            plays.append(p)
        d.plays[key] = plays
        d.picked[key] = any(p.pick for p in plays)
        d.spans[key] = span
        d.order.append(key)
    return d, kept


def _turn_six(decoded: Decoded, line: _Line, age: int) -> None:
    """For a variation that starts at Babylon Night's extra turn (``A.7``): the turn-6 plays of the lines outside
    it, whose pick clauses name the builds from the discard pile made after the extra turn (R-HALI-LAST), which
    the variation plays too. Only their picks are read (the run starts after turn 6 and never replays it), and the
    turn is not one of the variation's (``order``), so no finding is placed on it."""
    six = (age, 6)
    span = decoded.spans.get((age, 7))  # a pick's finding points into the variation, as a kept action's does
    plays = [p._replace(span=span, pick_span=span) for _, (p, _) in sorted(line.kept(six).items())]
    decoded.plays[six] = plays
    decoded.picked[six] = any(p.pick for p in plays)


def _placed(f: Finding, where: str, kept: dict[tuple[str, int], str]) -> Finding:
    """A finding of a variation's run under the variation's address; one about a kept action says so."""
    message = f.message
    origin = kept.get((f.address, f.seat)) if f.seat is not None else None
    if origin is not None:
        message += f" (the action {origin} has at {f.address}, kept in this variation)"
    return replace(f, address=f"{where}.{f.address}", message=message)
