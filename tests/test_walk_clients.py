"""The clients of the engine's walk hold no engine rule (issue 30 item 1): the archive rows, the viewer's data,
the canonical form and the BG Stats export read the walk, the findings and the Replay's public results, and never
an event class, a replay's event list, a rule function or neighbour arithmetic."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wnotation.engine import events as ev

ROOT = Path(__file__).resolve().parent.parent

#: The four clients named by the issue.
CLIENTS = ["wnotation/archive/rows.py", "wnotation/viewer/data.py", "wnotation/formats/canonical.py",
           "wnotation/formats/bgstats.py"]
#: The engine's event classes (engine/events.py), the names a client that folds events would use.
EVENT_NAMES = sorted(n for n in vars(ev) if isinstance(vars(ev)[n], type) and vars(ev)[n].__module__ == ev.__name__
                     and n[0].isupper() and n != "Memo")
#: What reimplementing a rule looks like: reading events, seat arithmetic round the table (R-TRADE's neighbours,
#: R-MILITARY), or calling the engine's rule functions to decide for it.
RULE_SIGNS = {
    "imports the engine's events": r"engine import events|engine\.events",
    "reads a replay's events": r"\.events\b",
    "computes a neighbour": r"%\s*(?:n|players|len\()|[-+]\s*\d+\s*\)\s*%|\bleft_of\b|\bright_of\b",
    "decides a rule": r"\b(?:free_reason|free_rule|seats_to_act|legal_actions|pick_options|play_turn)\s*\(",
}


def rule_signs(text: str) -> list[str]:
    """What in ``text`` shows an engine rule: an event class named, or one of :data:`RULE_SIGNS`. A name the text
    imports from the Record (``CoinsPaid``: a purchase stated in coins, 7WN 2) is the Record's class, not the
    event (which only an import of the engine's events, itself a sign, would bring)."""
    from_record = {n.strip() for m in re.finditer(r"from \.\.model\.record import ([^\n]+)", text)
                   for n in m.group(1).split(",")}
    found = [f"names the event {name}" for name in EVENT_NAMES
             if name not in from_record and re.search(rf"\b{name}\b", text)]
    return found + [why for why, pattern in RULE_SIGNS.items() if re.search(pattern, text)]


@pytest.mark.parametrize("path", CLIENTS)
def test_clients_hold_no_engine_rule(path: str) -> None:
    assert rule_signs((ROOT / path).read_text(encoding="utf-8")) == [], path


@pytest.mark.parametrize("path", CLIENTS[:3])
def test_clients_are_visitors_of_the_walk(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    assert "from ..engine.walk import" in text and re.search(r"class \w+\((MainLine)?Visitor\)", text)
    assert re.search(r"\bwalk\(", text)


def test_the_grep_catches_a_rule() -> None:
    """Lines of the clients before they were visitors, each caught: rows.py re-read the events, the viewer switched
    on event classes and sliced the events by marks, canonical.py decided a free build itself."""
    assert {"CardBuilt", "ConflictResolved", "TurnResolved", "PickedFromDiscard", "CoinsPaid"} <= set(EVENT_NAMES)
    old = {
        "if isinstance(e, ev.ConflictResolved):": "names the event ConflictResolved",
        "right = seat % n + 1": "computes a neighbour",
        "left = (seat - 2) % players + 1": "computes a neighbour",
        "elif e.to == left_of(e.seat, n):": "computes a neighbour",
        "events = replay.events[mark:replay.marks[address]]": "reads a replay's events",
        "from ..engine import events as ev": "imports the engine's events",
        "if free_reason(state, state.cities[action.seat - 1], card, turn.number):": "decides a rule",
        "for a in legal_actions(state, action.seat):": "decides a rule",
    }
    for line, why in old.items():
        assert why in rule_signs(line), line
    assert rule_signs("listed = turn.purchases(action.seat)  # the engine's cheapest purchases") == []
    assert rule_signs("from ..model.record import Action, CoinsPaid\nisinstance(p, CoinsPaid)") == []
    assert rule_signs("from ..model.record import Action\nisinstance(p, CoinsPaid)") == ["names the event CoinsPaid"]
