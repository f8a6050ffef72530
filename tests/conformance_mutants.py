"""Mutant adapters for tests/test_conformance.py: wnotation's engine made wrong in one way a peer engine was, then
served as an adapter (``python tests/conformance_mutants.py NAME``). Each patch is made before the catalogue is
first loaded or the first request is answered, in this process only."""

from __future__ import annotations

import json
import sys
from typing import Any

import wnotation.model.catalog as catalog


def _patch_catalogue(change: Any) -> None:
    """Make :func:`wnotation.model.catalog.load` read a changed copy of the catalogue data (the module's ``json``)."""
    real = json.loads

    class Json:
        @staticmethod
        def loads(text: str) -> Any:
            data = real(text)
            change(data)
            return data

    catalog.json = Json  # type: ignore[assignment]


def _card(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in data["cards"] if c["name"] == name)


def caravansery_7p() -> None:
    """A fourth Caravansery in the 7-player deck, one Forum fewer (the count of a card for a player count; the deck
    keeps its 49 cards)."""

    def change(data: dict[str, Any]) -> None:
        _card(data, "Caravansery")["copies"].append(7)
        _card(data, "Forum")["copies"].remove(7)

    _patch_catalogue(change)


def chain_missing() -> None:
    """Aqueduct no longer free for the owner of the Baths (a chain missing)."""
    _patch_catalogue(lambda data: _card(data, "Aqueduct").pop("chain_from"))


def trading_posts_mirrored() -> None:
    """East Trading Post discounts the left neighbour and West Trading Post the right one."""

    def change(data: dict[str, Any]) -> None:
        for name, side in (("East Trading Post", "left"), ("West Trading Post", "right")):
            for effect in _card(data, name)["effects"]:
                effect["neighbours"] = [side]

    _patch_catalogue(change)


def coins_vanish() -> None:
    """Coins paid to a neighbour leave the payer but never reach the neighbour (a coin identity broken)."""
    from wnotation.engine import events, state

    def paid(g: Any, e: Any) -> None:
        g.playing()
        payer = g.cities[e.seat - 1]
        payer.snapshot_taken = None
        payer.coins -= e.amount

    state.MUTATORS[events.CoinsPaid] = paid


def wildcard_not_maximised() -> None:
    """Science "any" symbols always counted as tablets instead of the best symbol."""
    from wnotation.engine import scoring

    def points(tablets: int, compasses: int, gears: int, wild: int = 0) -> int:
        a = tablets + wild
        return a * a + compasses * compasses + gears * gears + 7 * min(a, compasses, gears)

    scoring.science_points = points  # type: ignore[assignment]


MUTANTS = {f.__name__.replace("_", "-"): f for f in (caravansery_7p, chain_missing, trading_posts_mirrored,
                                                      coins_vanish, wildcard_not_maximised)}

if __name__ == "__main__":
    MUTANTS[sys.argv[1]]()
    from wnotation.conformance.adapter import main

    main()
