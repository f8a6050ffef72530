"""Each seat's chance to win a position, estimated by playing it out many times (issue 33, item 1).

A playout keeps what the position knows (cities, coins, the pile, the hands held) and draws what it does not: a
hand's unknown cards from what the Age's deck can still hold, the later Ages afresh (and the guilds, when the record
does not name them). Every seat is then played by the rollout policy (:data:`.rollout.ROLLOUT`) to the end, by
the engine's :func:`~wnotation.engine.playout.play_out`, and the winners share the victory (R-WIN: 1/k to each of
k winners). Each playout has its own SplitMix64 stream, derived from the seed, the
position's index and the playout's index, so the figures depend on the seed alone, never on ``jobs``.

Within a playout, each kind of chance draws from its own generator, split from the playout's by what it is for:
one for the unknown cards, one per Age dealt, one per seat and turn for the plays (spec/7wn.md §8.4, common random
numbers). So two positions played out with the same stream (a seat's action and an alternative, in
:func:`.marks.marks`) are dealt the same later Ages and have each seat explore on the same turns, however the
plays before made the draws diverge: what differs between their estimates is the action, much less the luck.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ..model import deck
from ..model.catalog import Card, load
from ..engine import Game, Replay, State, replay
from ..engine.playout import play_out
from ..engine.results import city_view
from ..engine.scoring import score
from ..model.record import Record
from ..notation.writer import write
from .rollout import ROLLOUT

#: The normal quantile of the 95 % intervals.
Z95 = 1.959963984540054
_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


@dataclass(frozen=True, slots=True)
class Estimate:
    """One seat's chance to win: the mean win share over ``playouts`` and its 95 % Wilson interval; an exact
    figure (a finished game) has ``playouts`` 0 and ``low == high == chance``."""

    seat: int
    chance: float
    low: float
    high: float
    playouts: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """The estimates of one position (address ``where``), one per seat in seat order."""

    where: str
    estimates: tuple[Estimate, ...]


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` seen over ``n`` trials (``(p, p)`` when ``n`` is 0): it stays
    inside [0, 1] and is not empty at 0 or 1, where the normal interval collapses."""
    if n == 0:
        return p, p
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # rounding never leaves p outside


def stream(seed: int, position: int, playout: int) -> deck.SplitMix64:
    """The generator of one playout: a function of the seed and both indices only."""
    rng = deck.SplitMix64((seed + _GAMMA * ((position << 24) + playout + 1)) & _MASK)
    rng.state = rng.next()
    return rng


#: What a split generator is for (:func:`split`).
_FILL, _DEAL, _PLAY, _PICK = range(4)


def split(base: int, what: int, age: int = 0, turn: int = 0, seat: int = 0) -> deck.SplitMix64:
    """The generator of one kind of chance of a playout (``what``: the unknown cards, an Age's deal, a seat's play
    or pick on a turn): a function of the playout's ``base`` draw and of these numbers only."""
    rng = deck.SplitMix64((base + _GAMMA * ((((what << 3) + age) << 12) + (turn << 6) + seat + 1)) & _MASK)
    rng.state = rng.next()
    return rng


def shares(game: Game | State) -> tuple[float, ...]:
    """Each seat's win share at the end of ``game``: 1/k to each of the k seats ranked first (R-WIN)."""
    sheet = score([city_view(c) for c in game.cities])
    winners = sheet.winners()
    return tuple(1 / len(winners) if c.seat in winners else 0.0 for c in game.cities)


def _fill(game: Game, rng: deck.SplitMix64, pile: Sequence[Card] = ()) -> None:
    """Replace the unknown cards of the position by cards consistent with every card it shows (R-DECK): a hand's
    by cards the current Age's deck can still hold, the pile's by ``pile`` (hidden cards the record later picks
    from it, :func:`picked_later`) and then by what is left of the hidden cards of the Ages so far (so a pick from
    the pile, R-HALI, can find them). Hidden means the deck's copies less every known card in the hands, the
    cities, under the boards and on the pile; an Age III deck whose guilds the record does not name takes the
    guilds seen and, for the rest of its N+2, guilds drawn from those not seen."""
    hands_hidden = any(c is None for h in game.hands for c in h)
    pile_hidden = any(c is None for c in game.discard)
    if not (hands_hidden or pile_hidden):
        return
    known = [c for h in game.hands for c in h if c is not None]
    known += [c for city in game.cities for c in (*city.buildings, *city.snapshot().staged) if c is not None]
    known += [c for c in game.discard if c is not None]
    hidden: list[list[Card]] = []
    for age in range(1, game.age + 1):
        left: Counter[Card] = deck.copies(age, game.players, _age3_guilds(game, known, rng) if age == 3 else None)
        for c in known:
            if c.age == age and left[c] > 0:
                left[c] -= 1
        hidden.append(deck.shuffle(sorted(left.elements(), key=lambda c: c.name), rng))
    placed: list[Card] = []
    for c in pile if pile_hidden else ():
        cards = hidden[c.age - 1] if c.age <= game.age else []
        if c in cards and len(placed) < sum(1 for d in game.discard if d is None):
            cards.remove(c)
            placed.append(c)
    current = hidden[-1]
    for k, hand in enumerate(game.hands):
        if any(c is None for c in hand):
            game.set_hand(k, tuple(c if c is not None or not current else current.pop() for c in hand))
    if pile_hidden:
        rest = deck.shuffle(sorted((c for cards in hidden for c in cards), key=lambda c: (c.age, c.name)), rng)
        rest += reversed(placed)  # popped first
        game.discard = tuple(c if c is not None or not rest else rest.pop() for c in game.discard)


def picked_later(played: Replay, where: str) -> tuple[Card, ...]:
    """The cards the record picks from the pile after position ``where`` (R-HALI) that the position's pile does
    not show and that must already be in it, being of an Age already over: its hidden cards include them, and a
    playout's fill puts them there."""
    from ..engine.events import PickedFromDiscard

    state = played.position(where)
    shown: Counter[Card] = Counter(c for c in state.discard if c is not None)
    out = []
    for e in played.events[played.marks[where]:]:
        if isinstance(e, PickedFromDiscard) and e.card is not None and (
                e.card.age < state.age or (e.card.age == state.age and state.ended)):
            if shown[e.card] > 0:
                shown[e.card] -= 1
            else:
                out.append(e.card)
    return tuple(out)


def _age3_guilds(game: Game, known: Sequence[Card], rng: deck.SplitMix64) -> tuple[Card, ...]:
    """The guilds of the Age III deck: the record's, else every guild seen and guilds not seen drawn to N+2."""
    if game.table.guilds is not None:
        return tuple(game.table.guilds)
    guilds = load().guilds
    seen = [g for g in guilds if g in known]
    unseen = [g for g in guilds if g not in seen]
    return tuple(seen) + tuple(deck.shuffle(unseen, rng)[: max(0, deck.guild_count(game.players) - len(seen))])


class _Streams:
    """The generators of one playout, one per kind of chance (:func:`split`), from its ``base`` draw."""

    def __init__(self, base: int) -> None:
        self.base = base

    def deal(self, age: int) -> deck.SplitMix64:
        return split(self.base, _DEAL, age)

    def play(self, age: int, turn: int, seat: int) -> deck.SplitMix64:
        return split(self.base, _PLAY, age, turn, seat)

    def pick(self, age: int, turn: int, seat: int) -> deck.SplitMix64:
        return split(self.base, _PICK, age, turn, seat)


def playout(state: State, rng: deck.SplitMix64, pile: Sequence[Card] = ()) -> tuple[float, ...]:
    """Play ``state`` out to the end once, every seat played by the rollout policy; each seat's win share. One draw
    of ``rng`` seeds the playout; each kind of chance then has its own generator (:func:`split`). ``pile``: hidden
    cards known to be on the pile (:func:`picked_later`)."""
    base = rng.next()
    game = Game(state)
    _fill(game, split(base, _FILL, game.age), pile)
    play_out(game, (ROLLOUT,) * game.players, _Streams(base))
    return shares(game)


def estimate(state: State, playouts: int, seed: int = 0, position: int = 0, *, pile: Sequence[Card] = ()
             ) -> tuple[Estimate, ...]:
    """Each seat's chance to win ``state``: exact at the end of the game, else the mean of ``playouts`` playouts
    with its Wilson interval. ``position`` picks the playouts' streams (:func:`stream`); ``pile``: hidden cards
    known to be on the pile (:func:`picked_later`)."""
    if state.finished:
        return tuple(Estimate(k + 1, p, p, p, 0) for k, p in enumerate(shares(state)))
    if playouts < 1:
        raise ValueError(f"{playouts} playouts: at least one is needed")
    totals = [0.0] * state.players
    for j in range(playouts):
        for k, p in enumerate(playout(state, stream(seed, position, j), pile)):
            totals[k] += p
    out = []
    for k, total in enumerate(totals):
        p = total / playouts
        low, high = wilson(p, playouts)
        out.append(Estimate(k + 1, p, low, high, playouts))
    return tuple(out)


def boundaries(played: Replay) -> tuple[str, ...]:
    """The turn boundaries analysed: every position of the replay from the first deal on."""
    return tuple(a for a in played.positions if a != "start")


_WORKER: Replay | None = None


def _start(record: Record) -> None:
    global _WORKER
    _WORKER = replay(record)


def _task(args: tuple[str, int, int, int]) -> Analysis:
    where, playouts, seed, index = args
    assert _WORKER is not None
    return Analysis(where, estimate(_WORKER.position(where), playouts, seed, index,
                                    pile=picked_later(_WORKER, where)))


def analyse(record: Record, playouts: int, seed: int = 0, jobs: int = 1,
            done: Callable[[Analysis], None] | None = None, played: Replay | None = None,
            scheduler: str | None = None) -> tuple[Analysis, ...]:
    """Estimate every turn boundary of ``record`` (:func:`boundaries`), in ``jobs`` worker processes when more
    than one, or as tasks of the Dask cluster whose scheduler is at ``scheduler``; ``done`` is called as each
    position is finished, in order (for a progress bar). The same seed gives the same figures wherever they are
    computed."""
    played = played if played is not None else replay(record)
    where = boundaries(played)
    if scheduler is not None:
        return _on_cluster(record, where, playouts, seed, scheduler, done)
    tasks = [(a, playouts, seed, k) for k, a in enumerate(where)]
    out: list[Analysis] = []
    if jobs <= 1:
        global _WORKER
        _WORKER = played
        try:
            for t in tasks:
                out.append(_task(t))
                if done is not None:
                    done(out[-1])
        finally:
            _WORKER = None
        return tuple(out)
    with ProcessPoolExecutor(jobs, initializer=_start, initargs=(record,)) as pool:
        for result in pool.map(_task, tasks):
            out.append(result)
            if done is not None:
                done(result)
    return tuple(out)


def _cluster_task(text: str, where: str, playouts: int, seed: int, index: int) -> tuple[Estimate, ...]:
    """One position's :func:`estimate` on a Dask worker: the record travels as its canonical 7WN text and is
    replayed there, because the engine's states are not picklable in the compiled build (mypyc's frozen classes)
    and text is the format's own interchange; a replay costs about a millisecond against the playouts' seconds."""
    from ..notation import parse

    played = replay(parse(text))
    return estimate(played.position(where), playouts, seed, index, pile=picked_later(played, where))


def _on_cluster(record: Record, where: Sequence[str], playouts: int, seed: int, scheduler: str,
                done: Callable[[Analysis], None] | None) -> tuple[Analysis, ...]:
    """:func:`analyse` on a Dask cluster: each position's :func:`estimate` one task (:func:`_cluster_task`),
    gathered in order. :class:`~wnotation.archive.errors.ArchiveError` when the scheduler cannot be reached or
    goes away."""
    import uuid

    from ..archive.cluster import connect
    from ..archive.errors import ArchiveError

    run = uuid.uuid4().hex[:12]
    client = connect(scheduler)
    out: list[Analysis] = []
    try:
        text = write(record)
        futures = [client.submit(_cluster_task, text, a, playouts, seed, k, key=f"wnotation-analyse-{run}-{k}",
                                 pure=False) for k, a in enumerate(where)]
        for a, future in zip(where, futures):
            try:
                got = future.result()
            except Exception:
                if future.status == "error":
                    raise  # the task's own exception
                raise ArchiveError(f"lost the Dask scheduler at {scheduler} before every position was estimated; "
                                   "start it again, or run without --scheduler") from None
            out.append(Analysis(a, got))
            if done is not None:
                done(out[-1])
    finally:
        client.close()
    return tuple(out)


def seat_names(record: Record) -> Sequence[str]:
    """The seats' names in seat order."""
    return [s.name for s in record.seats]
