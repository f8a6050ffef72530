"""Canonical purchases: what a record states about trading, normalised so that its export is canonical.

R-TRADE-MINIMAL lets a record leave a purchase out (the engine then takes the cheapest one, ties broken by the trade
solver's canonical order, spec/rulings.md) and says the canonical export writes a purchase only when it is needed,
as chess notation disambiguates a move only when needed. Whether it is needed depends on the rules, so the notation
writer cannot decide it (it writes what the Record holds); this module decides it with the engine, on the Record.

The canonical form states a paid build's or stage's purchase exactly when (a) more than one cheapest purchase
exists at the turn-start position, or (b) the stated purchase is not the engine's default. For each action
:func:`purchase_changes` therefore

* drops a stated purchase that equals the only cheapest purchase (``()`` included when nothing needs buying);
* states the default explicitly when several cheapest purchases exist and the record states none (the engine's
  tie-break choice, so the meaning is unchanged);
* keeps every other stated purchase: a legal purchase dearer than the cheapest, or one of several cheapest;
* drops ``()`` on a free build (R-CHAIN, Olympia; R-FREE): nothing is ever bought there, so it says nothing;
  so is ``(L 0 coins)``;
* writes a purchase stated in coins (7WN 2) as the units those coins buy (the first of them in the tie-break
  order, :mod:`wnotation.engine.coins`), then drops or keeps it as above; on a stage of an unknown card the units
  are kept;
* leaves untouched every action the engine reports an error on (an illegal action keeps its text, such as a
  purchase stated on a free build, R-TRADE-MINIMAL), actions on unknown or unlisted cards, sales, a second action
  of a seat in one turn, a turn written twice, and turns the replay does not reach.

The replay of the normalised record is identical to the original's (same events, findings and scores): every change
replaces "no purchase" by the purchase the engine would choose, or the reverse, or coins by a purchase paying
them to the same neighbours. A visitor of the engine's walk (:mod:`wnotation.engine.walk`, given the record): the
engine says which written action it played for each seat (R-TURN), how a build was placed (free or paid), the
turn's errors, the position the turn starts from and its cheapest purchases; nothing here decides a rule. Imports
the record and the engine, never the notation. Cost: one replay plus one
:func:`~wnotation.engine.legal_actions` call per paid action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..model.catalog import Card
from ..engine import Replay, replay
from ..engine.coins import Coins, purchase_for
from ..engine.legal import LegalAction
from ..engine.results import same_replay
from ..engine.state import State
from ..engine.trade import Purchase, Refusal
from ..engine.walk import MainLineVisitor, TurnView, walk
from ..model.record import UNKNOWN, Action, CoinsPaid, Record, StatedPurchase, Turn

NOTHING = StatedPurchase()  # ``()``: nothing bought
PAID_NOTHING = CoinsPaid(left_coins=0, right_coins=0)  # ``(L 0 coins)``: nothing paid, so nothing bought

__all__ = ["PurchaseChange", "canonical_purchases", "purchase_changes", "same_replay"]


@dataclass(frozen=True, slots=True)
class PurchaseChange:
    """One action whose stated purchase the canonical form changes: at ``address`` (``II.3``, ``I.7``), the
    ``index``-th action (0-based) of that turn in the Record, by ``seat``; ``before`` and ``after`` are the
    purchases stated (``None``: none). ``why`` says which half of the rule applies, for people."""

    address: str
    index: int
    seat: int
    use: str
    card: str
    before: StatedPurchase | CoinsPaid | None
    after: StatedPurchase | None
    why: str

    def __str__(self) -> str:
        def text(p: StatedPurchase | CoinsPaid | None) -> str:
            if p is None:
                return "no purchase"
            if isinstance(p, CoinsPaid):
                return f"(L {p.left_coins} coins, R {p.right_coins} coins)"
            groups = [f"{side} {' '.join(units)}" for side, units in (("L", p.left), ("R", p.right)) if units]
            return "(" + ", ".join(groups) + ")"

        verb = "" if self.use == "build" else f"{self.use} "
        return f"{self.address} seat {self.seat} {verb}{self.card}: {text(self.before)} -> {text(self.after)} " \
               f"({self.why})"


def _as_record(p: Purchase) -> StatedPurchase:
    """An engine purchase as the Record holds one: each side's units sorted by name."""
    return StatedPurchase(left=tuple(sorted(p.left)), right=tuple(sorted(p.right)))


def _same(stated: StatedPurchase, option: Purchase) -> bool:
    return sorted(stated.left) == sorted(option.left) and sorted(stated.right) == sorted(option.right)


def _change(action: Action, options: Sequence[LegalAction], address: str, index: int) -> PurchaseChange | None:
    stated = action.purchase
    assert not isinstance(stated, CoinsPaid)  # written in units first (_coins_change)
    default = options[0].purchase
    if len(options) == 1:
        if stated is not None and _same(stated, default):
            return PurchaseChange(address, index, action.seat, action.use, action.card, stated, None,
                                  "the only cheapest purchase")
        return None
    if stated is None:
        return PurchaseChange(address, index, action.seat, action.use, action.card, None, _as_record(default),
                              f"{len(options)} cheapest purchases: the default stated")
    return None


def _coins_change(state: State, action: Action, card: Card | None, options: Sequence[LegalAction] | None,
                  address: str, index: int) -> PurchaseChange | None:
    """A purchase stated in coins (7WN 2) is written as the units those coins buy (R-TRADE-MINIMAL, spec 7.4),
    and then left out or kept as any stated purchase would be (``options``: the cheapest ones; ``None`` on a stage
    of an unknown card, whose purchase is kept as stated, in units)."""
    paid = action.purchase
    assert isinstance(paid, CoinsPaid)
    bought = purchase_for(state, action.seat, action.use, card, Coins(paid.left_coins, paid.right_coins))
    if isinstance(bought, Refusal):
        return None  # the replay reports it: kept as stated, like every action the engine finds illegal
    units = _as_record(bought)
    as_units = None if options is None else _change(action.model_copy(update={"purchase": units}), options,
                                                      address, index)
    after = units if as_units is None else as_units.after
    return PurchaseChange(address, index, action.seat, action.use, action.card, paid, after,
                          "coins stated: the purchase they buy" + ("" if as_units is None else f", {as_units.why}"))


class _Changes(MainLineVisitor):
    """The changes of the main line's turns, keyed by where the action is written (its turn's place in the record,
    its own in the turn), so that they come out in record order whatever the order of play."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, int, PurchaseChange]] = []

    def turn(self, turn: TurnView) -> None:
        place, state = turn.written_at, turn.before
        if self.depth or place is None or state is None:
            return
        errors = {f.seat for f in turn.findings if f.severity == "error" and f.seat is not None}
        for seat, outcome in turn.seats.items():
            action, index = outcome.action, outcome.index
            if action is None or index is None or action.use == "sell" or seat in errors:
                continue  # the engine ignored it or reports it: kept as written
            change = _change_of(turn, state, action, outcome.card, outcome.how, index)
            if change is not None:
                self.found.append((place, index, change))


def _change_of(turn: TurnView, state: State, action: Action, card: Card | None, how: str | None,
               index: int) -> PurchaseChange | None:
    """The change of one action the engine played without error (``card`` and ``how`` as it placed it)."""
    address = turn.label
    if action.card == UNKNOWN:  # a stage of a card not seen: its coins in units, nothing else changed
        if action.use == "stage" and isinstance(action.purchase, CoinsPaid):
            return _coins_change(state, action, None, None, address, index)
        return None
    if card is None:
        return None  # a name the catalogue does not list
    if action.use == "build" and how in ("chain", "power"):  # free (R-CHAIN, Olympia): nothing is bought
        if action.purchase == NOTHING or action.purchase == PAID_NOTHING:
            return PurchaseChange(address, index, action.seat, action.use, action.card, NOTHING, None,
                                  "a free build buys nothing")
        return None
    listed = turn.purchases(action.seat)
    if not listed:
        return None  # not a play the engine lists here (a card not in the known hand)
    if isinstance(action.purchase, CoinsPaid):
        return _coins_change(state, action, card, listed, address, index)
    return _change(action, listed, address, index)


def purchase_changes(record: Record, played: Replay | None = None) -> tuple[PurchaseChange, ...]:
    """What the canonical form changes in ``record``'s purchases, in record order (see the module docstring).

    ``played`` is ``replay(record)`` when the caller has it already (it is computed otherwise)."""
    if played is None:
        played = replay(record)
    changes = _Changes()
    walk(played, changes, record)
    return tuple(change for _, _, change in sorted(changes.found, key=lambda found: found[:2]))


def _apply(record: Record, changes: tuple[PurchaseChange, ...]) -> Record:
    if not changes:
        return record
    by_turn: dict[str, dict[int, PurchaseChange]] = {}
    for c in changes:
        by_turn.setdefault(c.address, {})[c.index] = c
    turns: list[Turn] = []
    done: set[str] = set()
    for turn in record.turns:
        mine = by_turn.get(turn.label) if turn.label not in done else None
        done.add(turn.label)
        if not mine:
            turns.append(turn)
            continue
        actions = tuple(a.model_copy(update={"purchase": mine[k].after}) if k in mine else a
                        for k, a in enumerate(turn.actions))
        turns.append(turn.model_copy(update={"actions": actions}))
    return record.model_copy(update={"turns": tuple(turns)})


def canonical_purchases(record: Record, played: Replay | None = None) -> Record:
    """``record`` with its purchases stated as the canonical form states them (R-TRADE-MINIMAL; spec/7wn.md
    section 10): exactly when more than one cheapest purchase exists, or when the stated one is not the engine's
    default. Everything else (annotations, source spans, illegal actions) is kept; the result replays to the same
    events, findings and scores. Idempotent. Returns ``record`` itself when nothing changes.

    ``played`` is ``replay(record)`` when the caller has it already."""
    return _apply(record, purchase_changes(record, played))
