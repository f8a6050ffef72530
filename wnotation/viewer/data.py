"""The viewer's data: a record and its replay as JSON-ready snapshots, one per position, for pages and pictures.

Everything here is read off the engine and the Record (action text, annotations): the positions and what happened
between them come from a visitor of the engine's walk (:mod:`wnotation.engine.walk`: each position with its facts,
what a seat sees of them), the findings and ``Replay.score_at`` from the replay, through
:mod:`wnotation.formats.render`'s data functions where they exist. Non-goals: no rules (a page never replays
anything, reads no event and does no seat arithmetic), no HTML or SVG (see :mod:`.html` and :mod:`.svg`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from ..model.catalog import AGE_NUMERALS, Card, card_data, load, wonder_data
from ..engine import Replay, view
from ..engine.findings import Finding
from ..engine.variations import split_address
from ..engine.walk import Fact, PositionView, Visitor, fact_of, walk
from ..diagnostics import is_check_only
from ..notation import NotationError, format_action, parse, write
from ..model.record import CATEGORIES, NO_ANNOTATION, UNKNOWN, Action, Annotation, Deal, Record, Turn
from ..formats.render import SCORE_ROWS, city_data, describe_address, score_data, score_rows, sheet_lines
from .wins import with_wins

#: Bump when the shape of :func:`game_data` changes (the page's script reads it).
DATA_VERSION = 1


def game_title(record: Record) -> str:
    """``Thursday board-game night, 2026.10.03: Marta, Jonas, Priya``: the event (if any), date and players."""
    event = record.tag("Event")
    date = record.date or "date unknown"
    names = ", ".join(s.name for s in record.seats)
    return f"{event}, {date}: {names}" if event else f"{date}: {names}"


def without_comments(record: Record) -> Record:
    """``record`` without its annotator's comments, glyphs and annotation tags (game, turns, actions, picks and
    variations): what a seat's view keeps unless asked, since a comment can name the cards that seat did not see.
    A fresh Record."""
    def bare(turn: Turn) -> Turn:
        actions = tuple(_bare(a) for a in turn.actions)
        variations = tuple(v.model_copy(update={"turns": tuple(bare(t) for t in v.turns)}) for v in turn.variations)
        return turn.model_copy(update={"actions": actions, "annotation": NO_ANNOTATION, "variations": variations})

    return record.model_copy(update={"turns": tuple(bare(t) for t in record.turns), "annotation": NO_ANNOTATION})


def redact(record: Record, seat: int) -> Record:
    """The record as seat ``seat`` could have written it, the way a partial record is: the cards other seats sold,
    staged or discarded become ``?``, the other hands of a written deal too, and the seed and the guild list go
    (either tells the hidden deals); a game that starts from a position starts from that seat's projection of it
    (spec/position.md §7). Builds, picks, coins, annotations and results stay: the table sees builds, and
    annotations are the annotator's. A fresh Record."""
    from ..engine.position import POSITION_TAG, record_start, to_string

    turns = [_redacted(turn, seat) for turn in record.turns]
    deals = tuple(
        Deal(age=d.age, hands=tuple(h if k == seat - 1 else (UNKNOWN,) * len(h) for k, h in enumerate(d.hands)))
        for d in record.deals
    )
    tags = record.tags
    start = record_start(record)
    if start is not None:
        seen = to_string(start.state, seat=seat)
        tags = tuple(t.model_copy(update={"value": seen}) if t.name == POSITION_TAG else t for t in tags)
    return record.model_copy(update={"turns": tuple(turns), "deals": deals, "seed": None, "guilds": None,
                                     "tags": tags})


def _redacted(turn: Turn, seat: int) -> Turn:
    """``turn`` as ``seat`` saw it (see :func:`redact`), its variations (7WN 2) too: a variation can restate what
    another seat sold, staged or discarded."""
    actions = []
    for a in turn.actions:
        if a.seat != seat:
            hidden: dict[str, Any] = {}
            if a.use != "build":
                hidden["card"] = UNKNOWN
            if a.discard is not None:
                hidden["discard"] = UNKNOWN
            a = a.model_copy(update=hidden) if hidden else a
        actions.append(a)
    variations = tuple(v.model_copy(update={"turns": tuple(_redacted(t, seat) for t in v.turns)})
                       for v in turn.variations)
    return turn.model_copy(update={"actions": tuple(actions), "variations": variations})


# --- pieces -----------------------------------------------------------------------------------------------------


def _note(annotation: Annotation) -> dict[str, Any]:
    return {"glyph": annotation.glyph, "before": list(annotation.before), "after": list(annotation.after),
            "tags": [list(t) for t in annotation.tags]}


def _bare(action: Action) -> Action:
    """The action without its annotations, so its text is just what was played."""
    pick = action.pick
    if pick is not None:
        pick = pick.model_copy(update={"annotation": NO_ANNOTATION})
    return action.model_copy(update={"annotation": NO_ANNOTATION, "pick": pick})


def _name(card: Card | None) -> str:
    return card.name if card is not None else UNKNOWN


def event_parts(event: object, players: int) -> list[str | int] | None:
    """What an engine event (or its :class:`~wnotation.engine.walk.Fact`) did, as a sentence for the turn's log
    whose seats are numbers (``[1, " paid 2 coins to ", 2]``) that the page replaces by names, so a long name is
    embedded once, not at every event; ``None`` for the bookkeeping events (hands passed, turn over, the deal)."""
    fact = event if isinstance(event, Fact) else fact_of(event)
    return None if fact is None else _fact_parts(fact, players)


def _fact_parts(fact: Fact, players: int) -> list[str | int] | None:
    def who(seat: int | None) -> str | int:
        return seat if seat is not None and 1 <= seat <= players else f"seat {seat}"

    def coins(n: int) -> str:
        return f"{n} coin{'s' if n != 1 else ''}"

    what = fact.what
    if what == "built":
        how = {"chain": " for free (chain)", "power": " for free (Wonder power)", "unpaid": " (illegal: unpaid)"}
        return [who(fact.seat), f" built {_name(fact.card)}{how.get(fact.how or '', '')}"]
    if what == "staged":
        return [who(fact.seat), f" built stage {fact.stage} with {_name(fact.card)}"]
    if what == "sold":
        return [who(fact.seat), f" sold {_name(fact.card)}"]
    if what == "discarded":
        return [who(fact.seat), f" discarded {_name(fact.card)}"]
    if what == "paid":
        return [who(fact.seat), f" paid {coins(fact.amount)} to ", "the bank" if fact.to is None else who(fact.to)]
    if what == "gained":
        why = {"sale": "for the sale", "card": "from a card", "stage": "from a stage"}
        reason = fact.reason or ""
        return [who(fact.seat), f" took {coins(fact.amount)} {why.get(reason, reason)}"]
    if what == "picked":
        return [who(fact.seat), f" built {_name(fact.card)} from the discard pile (Halikarnassos)"]
    if what == "declined":
        return [who(fact.seat), " built nothing from the discard pile (Halikarnassos)"]
    if what == "fought":
        result = "won" if fact.token > 0 else "lost"
        return [who(fact.seat), f" {result} against ", who(fact.opponent), f": token {fact.token:+d}"]
    return None


def _log_entry(fact: Fact, parts: list[str | int]) -> dict[str, Any]:
    """One line of a position's log: the seat, the event's kind and sentence (:func:`event_parts`), and what the
    board draws of it: the card (``"?"`` unknown) of a build, sale, stage or pick, the coins and the payee
    (``None``: the bank) of a payment, the coins of a gain."""
    entry: dict[str, Any] = {"seat": fact.seat, "kind": fact.kind, "parts": parts}
    what = fact.what
    if what in ("built", "staged", "sold", "discarded", "picked"):
        entry["card"] = _name(fact.card)
    if what == "staged":
        entry["stage"] = fact.stage
    if what == "paid":
        entry["to"], entry["amount"] = fact.to, fact.amount
    if what == "gained":
        entry["amount"] = fact.amount
    return entry


def _log(at: PositionView, players: int, view_seat: int | None) -> list[dict[str, Any]]:
    """The log of the position ``at``: what happened since the one before, as ``view_seat`` saw it if given."""
    out = []
    for fact in at.facts:
        if view_seat is not None:
            fact = fact.seen_by(view_seat)
        parts = _fact_parts(fact, players)
        if parts is not None:
            out.append(_log_entry(fact, parts))
    return out


class _Lines(Visitor):
    """The positions of each line of play in the order the walk reaches them: ``""`` the main line, else the
    variation's address."""

    def __init__(self) -> None:
        self.lines: dict[str, list[PositionView]] = {}

    def position(self, at: PositionView) -> None:
        self.lines.setdefault(at.line, []).append(at)


def event_text(event: object, names: Sequence[str]) -> str | None:
    """:func:`event_parts` as one sentence with the seats' ``names`` (``Marta paid 2 coins to Jonas``)."""
    parts = event_parts(event, len(names))
    if parts is None:
        return None
    return "".join(names[p - 1] if isinstance(p, int) else p for p in parts)


def _city(state: Any, seat: int) -> dict[str, Any]:
    """:func:`wnotation.formats.render.city_data` without the seat's name, which the page takes from ``seats`` (a name
    is embedded once, however many positions there are)."""
    data = city_data(state, seat, "")
    del data["name"]
    data["stage_ages"] = list(state.cities[seat - 1].stage_ages)  # public: the table sees a stage's Age back
    return data


def card_facts() -> dict[str, list[dict[str, Any]]]:
    """Every card design of the catalogue by printed name (a name printed in two Ages has two designs), with what
    a tile and its tooltip show: Age, colour, cost, effects (each with its wording), chains and the copies per
    player count; from :func:`wnotation.model.catalog.card_data`. The same table for every game (no record text)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for c in load():
        d = card_data(c)
        out.setdefault(c.name, []).append({k: d[k] for k in ("age", "colour", "cost", "effects", "chain_from",
                                                             "chain_to", "copies_by_players")})
    return out


def wonder_facts(record: Record) -> dict[str, dict[str, Any]]:
    """The Wonder sides at the table, keyed ``"name side"``: full name, starting resource and each stage's cost
    and effects (:func:`wnotation.model.catalog.wonder_data`). A seat whose Wonder the catalogue does not know has no
    entry (its board shows the stage count only)."""
    out: dict[str, dict[str, Any]] = {}
    for s in record.seats:
        try:
            side = load().wonder(s.wonder, s.side)
        except (ValueError, KeyError):
            continue
        out[f"{side.name} {side.side}"] = wonder_data(side)
    return out


def _action_data(action: Action) -> dict[str, Any]:
    return {
        "seat": action.seat,
        "use": action.use,
        "card": action.card,
        "text": format_action(_bare(action)),
        "note": _note(action.annotation),
        "pick": None if action.pick is None else {"card": action.pick.card, "note": _note(action.pick.annotation)},
    }


def _turn_data(turn: Turn) -> dict[str, Any]:
    return {"label": turn.label, "extra": turn.number == 7, "note": _note(turn.annotation),
            "actions": [_action_data(a) for a in sorted(turn.actions, key=lambda a: a.seat)]}


def _sheet_rows(sheet: Any) -> list[dict[str, int]]:
    return [{name: getattr(line, name) for name in SCORE_ROWS} for line in sheet.lines]


def tie_break(names: Sequence[str], sheet: Any) -> list[str]:
    """A sentence for each tie on points and how coins broke it (R-WIN), read off the sheet's own ranks (``names``
    in seat order): ``Marta and Jonas tie on 52 points; Jonas ranks first on coins (18 to 6).``"""
    out = []
    totals: dict[int, list[Any]] = {}
    for line in sheet.lines:
        totals.setdefault(line.total, []).append(line)
    for total in sorted(totals, reverse=True):
        tied = totals[total]
        if len(tied) < 2:
            continue
        who = [names[t.seat - 1] for t in tied]
        head = f"{', '.join(who[:-1])} and {who[-1]} tie on {total} points"
        best = min(t.rank for t in tied)
        first = [t for t in tied if t.rank == best]
        if any(t.coins is None for t in tied):  # a score pad that states no coins: its treasury row bounded them
            coins = "treasury " + " to ".join(str(t.treasury) for t in sorted(tied, key=lambda t: (t.rank, t.seat)))
        else:
            coins = " to ".join(str(t.coins) for t in sorted(tied, key=lambda t: (t.rank, t.seat)))
        place = "first" if best == 1 else f"{best}"
        if len(first) == len(tied):
            out.append(f"{head} and {coins} coins: the place is shared.")
        else:
            winners = " and ".join(names[t.seat - 1] for t in first)
            out.append(f"{head}; {winners} rank{'s' if len(first) == 1 else ''} {place} on coins ({coins}).")
    return out


def points_by_age(replay: Replay, address: str) -> list[list[int]]:
    """Each seat's points earned in Ages I, II and III as of ``address``: the provisional total at the end of each
    Age played (at ``address`` itself for the Age in progress) minus the total at the end of the Age before; Ages
    not reached count 0; the points of Ages that ended before the position a record starts from (spec/position.md
    §8) count in the first Age it plays. ``[[a1, a2, a3], …]`` in seat order. Raises ``KeyError`` for an unknown
    address."""
    state = replay.position(address)
    players = len(state.cities)
    before = [0] * players
    out = [[0, 0, 0] for _ in range(players)]
    inside = split_address(address)
    line = inside[0] if inside is not None else ""  # the line of play: "" is the main line
    for age in range(1, state.age + 1):
        where = address if age == state.age else _age_end(replay, line, age)
        if where is None:
            continue  # before the start of a record that starts from a position
        totals = [line.total for line in replay.score_at(where).lines]
        for s in range(players):
            out[s][age - 1] = totals[s] - before[s]
        before = totals
    return out


def _age_end(replay: Replay, line: str, age: int) -> str | None:
    """The address of the end of ``age`` as seen from the line of play ``line`` (``""``: the main line; else a
    variation, spec 7wn.md 6.1): the variation's own end of that Age if it reaches it, else that of the line it
    branches from, out to the main line; ``None`` before the start of a record that starts from a position."""
    label = f"{AGE_NUMERALS[age]}.end"
    while line:
        variation = replay.variations.get(line)
        if variation is None:
            break
        if label in variation.positions:
            return f"{line}.{label}"
        line = variation.parent
    return label if label in replay.positions else None


# --- the whole game ---------------------------------------------------------------------------------------------


def game_data(record: Record, replay: Replay, *, view_seat: int | None = None,
              source: str | None = None, line0: int = 0, keep_comments: bool = False) -> dict[str, Any]:
    """The record and its replay as one JSON-ready dict: header, seats, the 7WN source, the findings, and one
    snapshot per position of ``replay`` (each city as :func:`wnotation.formats.render.city_data` gives it but for the
    name, the discard pile, the turn just played with its annotations, the engine's events as sentences
    (:func:`event_parts`), the provisional score sheet from ``Replay.score_at`` and the points by Age), and the
    final score sheet. Record text appears once, not once per position: the size is linear in the record's.

    ``view_seat`` (1-based) shows the game as that seat saw it: positions through :func:`wnotation.engine.view`,
    the actions, findings and source of :func:`redact`'s record (replayed for its findings). ``source`` is the
    text to embed (default: the canonical text of the record shown); each finding's ``line`` is a line of that
    text: the record's own line minus ``line0`` for a ``source`` given (the lines of the file before the game),
    the line of the canonical text otherwise (which is read back for it). Engine remarks that only ``check``
    shows are left out. Cost: one score sheet per position, and a second replay when the source is made here.
    A seat's view drops the annotator's comments, glyphs and tags (:func:`without_comments`: a comment can name a
    card the seat did not see) unless ``keep_comments``; ``view.comments`` says which.
    Raises ``ValueError`` for a ``view_seat`` not at the table."""
    shown = record
    findings: Sequence[Finding] = replay.findings
    if view_seat is not None:
        if not 1 <= view_seat <= record.players:
            raise ValueError(f"seat {view_seat} is not at the table (seats 1 to {record.players})")
        shown = redact(record, view_seat)
        if not keep_comments:
            shown = without_comments(shown)
    lines_of = replay  # the replay whose spans are lines of the embedded source
    if source is None or view_seat is not None:
        source, line0 = write(shown), 0
        findings = _findings_in(source, shown)
        lines_of = _replay_of(source) or replay
    findings = [f for f in findings if not is_check_only(f)]
    names = [s.name for s in record.seats]
    turns = {t.label: t for t in shown.turns}
    addresses = replay.addresses
    last = addresses[-1] if addresses else None

    finding_rows = []
    at_address: dict[str, list[int]] = {}
    for k, f in enumerate(findings):
        where = f.address if f.address in replay.positions else last
        finding_rows.append({"rule": f.rule, "message": f.message, "address": f.address, "seat": f.seat,
                             "severity": f.severity,
                             "line": f.span.line - line0 if f.span is not None and f.span.line > line0 else None})
        if where is not None:
            at_address.setdefault(where, []).append(k)

    walked = _Lines()
    walk(replay, walked)
    positions = []
    for at in walked.lines.get("", []):
        address = at.address
        state = at.state
        shown_state = view(state, view_seat) if view_seat is not None else state
        sheet = replay.score_at(address)
        turn = turns.get(address)
        positions.append({
            "address": address,
            "title": describe_address(address),
            "age": state.age,
            "turn": state.turn,
            "ended": state.ended,
            "cities": [_city(shown_state, s) for s in range(1, record.players + 1)],
            "discard": [_name(c) for c in shown_state.discard],
            "played": _turn_data(turn) if turn is not None else None,
            "log": _log(at, record.players, view_seat),
            "score": _sheet_rows(sheet),
            "provisional": sheet.provisional,
            "by_age": points_by_age(replay, address),
            "findings": at_address.get(address, []),
        })

    final = None
    if replay.scores is not None:
        # the lines keyed by the rows the page draws (D.rows); the seats' boards are in "seats" above
        final = {"seats": sheet_lines(replay.scores), "winners": score_data(record, replay.scores)["winners"],
                 "tie_break": tie_break(names, replay.scores)}
    return with_wins({
        "version": DATA_VERSION,
        "title": game_title(record),
        "date": record.date,
        "tags": [[t.name, t.value] for t in record.tags],
        "seats": [{"seat": k, "name": s.name, "wonder": s.wonder, "side": s.side}
                  for k, s in enumerate(record.seats, 1)],
        "view": None if view_seat is None else {"seat": view_seat, "name": names[view_seat - 1],
                                                "comments": keep_comments},
        "cards": card_facts(),
        "wonders": wonder_facts(record),
        "categories": list(CATEGORIES if replay.scores is None else replay.scores.rows),
        "rows": list(SCORE_ROWS if replay.scores is None else score_rows(replay.scores)),
        "game": _note(shown.annotation),
        "source": source,
        "findings": finding_rows,
        "positions": positions,
        "final": final,
        "variations": _variations_data(shown, replay, lines_of, walked, view_seat, line0),
    }, shown, addresses)  # the computed analysis, when the record carries it (wins.py)


def _variations_data(shown: Record, replay: Replay, lines_of: Replay, walked: _Lines, view_seat: int | None,
                     line0: int) -> list[dict[str, Any]]:
    """Each variation (spec 7wn.md §6.1, 7WN 2) in text order, for a page to show beside the main line: its address,
    the turn it replaces, the line it branches from, its findings (lines of the embedded source, from
    ``lines_of``) and one snapshot per position it reaches (as the walk of ``replay`` reached them), shaped as the
    main line's (``address`` the full one, ``I.5(1).I.6``; ``findings`` indices into the variation's own list).
    Empty for a game without variations."""
    turns: dict[str, Turn] = {}

    def collect(line_turns: Sequence[Turn], prefix: str) -> None:
        for t in line_turns:
            for k, v in enumerate(t.variations, 1):
                where = f"{prefix}{t.label}({k})"
                for vt in v.turns:
                    turns[f"{where}.{vt.label}"] = vt
                collect(v.turns, where + ".")

    collect(shown.turns, "")
    out = []
    for where, line in replay.variations.items():
        placed = lines_of.variations.get(where, line)
        rows = [{"rule": f.rule, "message": f.message, "address": f.address, "seat": f.seat, "severity": f.severity,
                 "line": f.span.line - line0 if f.span is not None and f.span.line > line0 else None}
                for f in placed.findings if not is_check_only(f)]
        positions = []
        for at in walked.lines.get(where, []):
            full, state = at.address, at.state
            shown_state = view(state, view_seat) if view_seat is not None else state
            sheet = replay.score_at(full)
            turn = turns.get(full)
            positions.append({
                "address": full, "title": describe_address(at.label), "age": state.age, "turn": state.turn,
                "ended": state.ended, "cities": [_city(shown_state, s) for s in range(1, shown.players + 1)],
                "discard": [_name(c) for c in shown_state.discard],
                "played": _turn_data(turn) if turn is not None else None,
                "log": _log(at, shown.players, view_seat),
                "score": _sheet_rows(sheet), "provisional": sheet.provisional,
                "by_age": points_by_age(replay, full),
                "findings": [k for k, r in enumerate(rows) if r["address"] == full],
            })
        out.append({"address": where, "replaces": line.replaces, "parent": line.parent, "findings": rows,
                    "positions": positions})
    return out


def _replay_of(source: str) -> Replay | None:
    """The replay of the canonical ``source`` read back (its spans are lines of it), or ``None`` if it does not
    read."""
    from ..engine import replay as run

    try:
        return run(parse(source))
    except NotationError:
        return None


def _findings_in(source: str, shown: Record) -> Sequence[Finding]:
    """The findings of ``shown`` placed in ``source``, its canonical text: the text read back and replayed (the
    round trip gives an equal Record, so the same findings). A text that does not read back (a hand-built Record
    the notation cannot hold) gives the findings of ``shown`` without lines."""
    from ..engine import replay as run

    try:
        return run(parse(source)).findings
    except NotationError:
        return [replace(f, span=None) for f in run(shown).findings]
