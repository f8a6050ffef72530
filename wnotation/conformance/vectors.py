"""The conformance vectors (spec/conformance.md §4), generated from what the project proves when they are made:
the casebook (``spec/cases/``), the seeded deal (``spec/deal.md``), the position strings (``spec/position.md``),
the score sheet and the engine's legal actions. Deterministic: the same sources give the same vectors, byte for
byte (:func:`files`), in a few seconds.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from ..engine import rulebook
from ..engine.findings import about_the_results
from ..model import deck
from ..model.catalog import load
from . import answer

#: The version of the vectors' format and of the protocol they are run with (spec/conformance.md §2).
VECTORS_VERSION = 1
#: The areas of the vectors, in report order.
AREAS = ("rules", "deals", "positions", "scoring", "counts")
#: The spec directory of a source tree (an installed wheel has none: the casebook and examples come from it; the
#: sample games come from ``replays/`` beside it).
SPEC = Path(__file__).resolve().parents[2] / "spec"

Vector = dict[str, Any]

_TAG = r'^\s*\[{name}\s+"((?:[^"\\]|\\.)*)"\s*\]'


def _raw_tag(text: str, name: str) -> list[str]:
    return re.findall(_TAG.format(name=name), text, re.MULTILINE)


def vector(vid: str, area: str, request: dict[str, Any], expect: dict[str, Any], rules: tuple[str, ...] = (),
           title: str = "") -> Vector:
    return {"id": vid, "area": area, "rules": list(rules), "title": title, "request": request, "expect": expect}


# --- rules: the casebook --------------------------------------------------------------------------------------------


def _expected_findings(record: Any) -> list[dict[str, Any]]:
    """The findings a case's ``[%expect…]`` annotations announce (spec/cases/README.md, "The verdict")."""
    out: list[dict[str, Any]] = []

    def take(annotation: Any, span: Any, seat: int | None) -> None:
        for key, value in annotation.tags:
            severity = {"expect": "error", "expect-warning": "warning"}.get(key)
            if severity is None:
                continue
            for rule in value.split():
                out.append({"severity": severity, "rule": rule, "seat": seat,
                            "line": span.line if span is not None else None,
                            "column": span.column if span is not None else None})

    for turn in record.turns:
        take(turn.annotation, turn.span, None)
        for a in turn.actions:
            take(a.annotation, a.span, a.seat)
            if a.pick is not None:
                take(a.pick.annotation, a.pick.span or a.span, a.seat)
    take(record.annotation, None, None)
    return sorted(out, key=lambda f: (f["line"] or 0, f["seat"] or 0, f["rule"], f["severity"]))


def _expected_results(record: Any) -> list[dict[str, Any]]:
    """The ``result`` lines, field by field as stated (a line states some fields or all)."""
    return [{"seat": r.seat, **{f: getattr(r, f) for f in answer.SCORE_FIELDS if getattr(r, f) is not None}}
            for r in record.results]


def casebook_vectors(cases: Path) -> Iterator[Vector]:
    """One ``check`` vector per casebook case, its verdict taken from the case's own annotations and tags. A case
    marked ``[XFail]`` (a known defect of the reference) is left out until the reference is fixed."""
    from ..notation import NotationError, parse

    for path in sorted(cases.glob("*.7wn")):
        text = path.read_text(encoding="utf-8")
        if _raw_tag(text, "XFail"):
            continue
        number = (_raw_tag(text, "Case") or [path.stem[:3]])[0]
        rules = tuple((_raw_tag(text, "Rules") or [""])[0].split())
        title = (_raw_tag(text, "Title") or [""])[0]
        vid = f"rules/{path.stem}"
        refused = _raw_tag(text, "Notation")
        if refused:
            yield vector(vid, "rules", {"op": "check", "record": text, "positions": []},
                         {"refused": refused[0]}, rules, title)
            continue
        try:
            record = parse(text, source=path.name)
        except NotationError as exc:
            raise ValueError(f"{path.name}: the casebook case is not readable: {exc}") from None
        expects = [t.value for t in record.tags if t.name == "Expect"]
        wanted = sorted({e.split()[0] for e in expects if e.split()[0] != "game" and "(" not in e.split()[0]},
                        key=_address_key)
        stated_score = any(about_the_results(f["rule"]) for f in _expected_findings(record))
        expect: dict[str, Any] = {
            "refused": None,
            "findings": _expected_findings(record),
            "turn_lines": sorted(t.span.line for t in record.turns if t.span is not None),
            "results": [] if stated_score or not record.turns else _expected_results(record),
            "scores": None,
            "positions": {},
        }
        if wanted or any(e.startswith("game ") for e in expects):
            reference = answer.check(text, wanted)
            expect["positions"] = reference["positions"]
            if any(e.startswith("game ") for e in expects):
                expect["scores"] = reference["scores"]
        yield vector(vid, "rules", {"op": "check", "record": text, "positions": wanted}, expect, rules,
                     f"case {number}: {title}")


def replay_vectors(replays: Path) -> Iterator[Vector]:
    """One ``check`` vector per sample game of ``replays/`` (whole games, a score pad, a partial game): no finding
    but those its annotations announce, its result lines, and its whole score sheet when it is complete."""
    from ..notation import parse

    for path in sorted(replays.glob("*.7wn")):
        text = path.read_text(encoding="utf-8")
        record = parse(text, source=path.name)
        reference = answer.check(text, [])
        expect: dict[str, Any] = {
            "refused": None,
            "findings": _expected_findings(record),
            "turn_lines": sorted(t.span.line for t in record.turns if t.span is not None),
            "results": _expected_results(record),
            "scores": reference["scores"] if record.turns else None,
            "positions": {},
        }
        yield vector(f"rules/replay-{path.stem}", "rules", {"op": "check", "record": text, "positions": []}, expect,
                     (rulebook.SCORE_SHEET,), f"the sample game {path.name}")


def _address_key(where: str) -> tuple[int, int]:
    age, _, turn = where.partition(".")
    return ({"I": 1, "II": 2, "III": 3}.get(age, 9), 99 if turn == "end" else int(turn) if turn.isdigit() else 98)


# --- deals -------------------------------------------------------------------------------------------------------

#: Seeds of the deal vectors: small, the spec's, a large one and the largest.
DEAL_SEEDS = (0, 1, 7, 11, 42, 2026, 1234567, 9223372036854775808, 18446744073709551615)


def deal_vectors() -> Iterator[Vector]:
    """Deals for every player count and several seeds, with the guilds drawn and with guilds listed, and refusals of
    impossible inputs."""
    guilds = [g.name for g in load().guilds]
    for players in range(3, 8):
        for seed in DEAL_SEEDS:
            request = {"op": "deal", "players": players, "seed": seed, "guilds": None}
            yield vector(f"deals/{players}p-seed-{seed}", "deals", request, _deal(request), (rulebook.DEAL,),
                         f"{players} players, seed {seed}")
        listed = guilds[10 - (players + 2):]
        request = {"op": "deal", "players": players, "seed": 7, "guilds": listed}
        yield vector(f"deals/{players}p-seed-7-guilds-listed", "deals", request, _deal(request), (rulebook.DEAL,),
                     f"{players} players, seed 7, the last {players + 2} guilds listed")
    refusals = (
        ("2-players", {"op": "deal", "players": 2, "seed": 1, "guilds": None}),
        ("8-players", {"op": "deal", "players": 8, "seed": 1, "guilds": None}),
        ("seed-too-large", {"op": "deal", "players": 3, "seed": 1 << 64, "guilds": None}),
        ("guilds-too-few", {"op": "deal", "players": 3, "seed": 1, "guilds": guilds[:4]}),
        ("guild-repeated", {"op": "deal", "players": 3, "seed": 1, "guilds": [guilds[0]] * 5}),
        ("guild-not-a-guild", {"op": "deal", "players": 3, "seed": 1, "guilds": guilds[:4] + ["Altar"]}),
    )
    for name, request in refusals:
        expect = _deal(request)
        assert expect == {"refused": True}, (name, expect)
        yield vector(f"deals/refused-{name}", "deals", request, expect, (rulebook.DEAL,), f"refused: {name}")


def _deal(request: dict[str, Any]) -> dict[str, Any]:
    got = answer.deal(request["players"], request["seed"], request["guilds"])
    return {"refused": True} if got["refused"] is not None else got


# --- positions --------------------------------------------------------------------------------------------------


def _spec_blocks(text: str, kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def _variants(string: str) -> list[tuple[str, str]]:
    """Non-canonical spellings of a canonical string that mean the same position (spec/position.md §2)."""
    out = [("blanks", "  " + string.replace(" | ", "|").replace("; ", " ;\t") + " ")]
    out.append(("keywords-case", re.sub(r"\b(coins|hand|built|pile|guilds|seed|day|night)\b",
                                        lambda m: m.group(1).upper(), string)))
    out.append(("sides-letters", string.replace(" day;", " A;").replace(" night;", " B;")))
    return out


def _refusals(string: str) -> list[tuple[str, str]]:
    """Invalid strings made from a valid one, one check each (spec/position.md §6)."""
    seats = string.split(" | ")
    first = seats[1]
    return [
        ("line-end", string.replace(" | ", "\n| ", 1)),
        ("address", "IV" + string[string.index("."):]),
        ("coins-twice", string.replace("; coins", "; coins 1; coins", 1)),
        ("unknown-wonder", string.replace(first.split(">", 1)[1].split()[0], "Atlantis", 1)),
        ("two-seats", " | ".join(seats[:3])),
        ("name-repeated", string.replace(seats[2].split(">")[0], first.split(">")[0], 1)),
        ("token", " | ".join([seats[0], re.sub(r"; coins (\d+)(; tokens [^;|]*)?", r"; coins \1; tokens 2", first,
                                                count=1)] + seats[2:])),
        ("seed-too-large", re.sub(r"seed SM64-FY \d+", "seed SM64-FY 18446744073709551616", string)),
    ]


def position_vectors(spec: Path) -> Iterator[Vector]:
    """The examples of spec/position.md (canonical strings, projections, refusals with their column), strings of
    positions of generated games with their projections, non-canonical spellings, and refusals made from them."""
    text = (spec / "position.md").read_text(encoding="utf-8")
    k = 0
    for block in _spec_blocks(text, "7wn-position"):
        for string in block.splitlines():
            if string.strip():
                k += 1
                yield _position_vector(f"positions/spec-{k:02d}", string, None, "an example of spec/position.md")
    for n, block in enumerate(_spec_blocks(text, "7wn-position-errors")):
        for m, case in enumerate(block.strip().split("\n\n")):
            string = case.splitlines()[0]
            yield _position_vector(f"positions/spec-refused-{n + 1}-{m + 1:02d}", string, None,
                                   "a refusal of spec/position.md")
    for players, seed, where in _game_positions():
        state, dealt_seed = _state_at(players, seed, where)
        from ..engine.position import to_string

        string = to_string(state, seed=dealt_seed)
        base = f"positions/{players}p-{seed}-{where}"
        yield _position_vector(base, string, None, f"position {where} of a {players}-player game")
        yield _position_vector(f"{base}-seat-2", string, 2, "its projection for seat 2")
        for name, variant in _variants(string):
            yield _position_vector(f"{base}-{name}", variant, None, f"position {where}, written as {name}")
        if where == "II.3":
            for name, bad in _refusals(string):
                yield _position_vector(f"{base}-refused-{name}", bad, None, f"refused: {name}")


def _position_vector(vid: str, string: str, seat: int | None, title: str) -> Vector:
    request = {"op": "position", "string": string, "seat": seat}
    expect = answer.position(string, seat)
    rules: tuple[str, ...] = ()
    if expect["refused"] is not None:
        from ..engine.position_rules import read
        from ..model.position_values import PositionError

        try:
            read(string)
        except PositionError as exc:
            rules = (exc.rule,) if exc.rule else ()
    return vector(vid, "positions", request, expect, rules, title)


# --- games the positions, scores and counts come from ------------------------------------------------------------

#: (players, seed) of the generated games the position, scoring and count vectors are taken from: every player
#: count, and seeds whose Wonder draws (bot.draw_wonders) seat every Wonder on both sides.
GAMES = tuple((p, s) for p in range(3, 8) for s in (1, 2, 3, 4, 5, 6))


#: The games of the count vectors: four of each player count, whose Wonder draws still seat every Wonder on both
#: sides.
COUNT_GAMES = tuple((p, s) for p, s in GAMES if s in (1, 2, 3, 6))


def _replay(players: int, seed: int) -> Any:
    from ..engine import replay
    from ..engine.bot import play_game

    return replay(play_game(players, seed, "greedy" if seed % 2 else "random"))


_REPLAYS: dict[tuple[int, int], Any] = {}


def _replayed(players: int, seed: int) -> Any:
    key = (players, seed)
    if key not in _REPLAYS:
        _REPLAYS[key] = _replay(players, seed)
    return _REPLAYS[key]


def _state_at(players: int, seed: int, where: str) -> tuple[Any, int]:
    return _replayed(players, seed).position(where), seed


def _game_positions() -> Iterator[tuple[int, int, str]]:
    for players, seed in GAMES[::3]:
        for where in ("I.0", "II.3", "III.6", "III.end"):
            yield players, seed, where


# --- scoring -----------------------------------------------------------------------------------------------------


def scoring_vectors() -> Iterator[Vector]:
    """Score sheets of the cities of positions: every generated game's end, sheets as if a game ended at the end of
    Ages I and II, and cities made to test science wildcards (R-SCIENCE-ANY) and the guilds (R-GUILD-COUNT)."""
    from ..engine.position import position, to_string

    for players, seed in GAMES:
        for where in ("I.end", "II.end", "III.end"):
            string = to_string(_state_at(players, seed, where)[0])
            yield _score_vector(f"scoring/{players}p-{seed}-{where}", string, (rulebook.SCORE_SHEET,),
                                f"the cities of a {players}-player game at {where}")
    science: tuple[tuple[str, list[str], list[str]], ...] = (
        ("wild-one-set", ["Apothecary", "Workshop", "Scriptorium"], ["Scientists Guild"]),
        ("wild-completes-set", ["Apothecary", "Workshop"], ["Scientists Guild"]),
        ("wild-adds-to-largest", ["Apothecary", "Dispensary", "Workshop"], ["Scientists Guild"]),
        ("wild-two", ["Apothecary", "Dispensary", "Workshop", "Laboratory", "Scriptorium"], ["Scientists Guild"]),
        ("wild-alone", [], ["Scientists Guild"]),
        ("no-wild", ["Apothecary", "Workshop", "Scriptorium", "Library"], []),
    )
    for name, age1and2, age3 in science:
        for stages in (0, 2):
            city = {"buildings": age1and2 + age3, "stages": stages, "stage_ages": (3,) * stages}
            state = position([("Babylon", "day"), ("Gizah", "day"), ("Rhodos", "day")], age=3, turn=6,
                             cities=[city, {}, {}], hands=[[], [], []])
            string = to_string(state._replace(ended=True))
            yield _score_vector(f"scoring/science-{name}-{stages}-stages", string, (rulebook.WILD_SCIENCE,),
                                f"science: {name.replace('-', ' ')}, Babylon day with {stages} stages")
    guilds: tuple[tuple[str, list[str], list[str], str], ...] = (
        ("traders", ["Marketplace", "Caravansery"], ["Forum", "Bazaar"], "Traders Guild"),
        ("magistrates", ["Altar", "Theater"], ["Temple", "Courthouse", "Statue"], "Magistrates Guild"),
        ("builders", [], [], "Builders Guild"),
        ("decorators", [], [], "Decorators Guild"),
        ("craftsmens", ["Sawmill", "Quarry"], ["Foundry"], "Craftsmens Guild"),
    )
    for name, left, right, guild in guilds:
        state = position([("Olympia", "day"), ("Ephesos", "night"), ("Alexandria", "day"), ("Halikarnassos", "day")],
                         age=3, turn=6, cities=[{"buildings": [guild], "stages": 3, "stage_ages": (1, 2, 3)},
                                                {"buildings": left, "stages": 1, "stage_ages": (2,)}, {},
                                                {"buildings": right, "stages": 2, "stage_ages": (1, 3)}],
                         hands=[[], [], [], []])
        string = to_string(state._replace(ended=True))
        yield _score_vector(f"scoring/guild-{name}", string, (rulebook.GUILD_COUNT,), f"the {guild} and its neighbours")


def _score_vector(vid: str, string: str, rules: tuple[str, ...], title: str) -> Vector:
    request = {"op": "score", "position": string}
    return vector(vid, "scoring", request, answer.score_position(string), rules, title)


# --- counts: legal actions and joint turns (perft) ------------------------------------------------------------------


def count_vectors() -> Iterator[Vector]:
    """Legal-action counts at positions of every generated game (every player count, every Wonder on both sides):
    turns 0 to 6 of each Age; joint turns to depth 2 from turn 4 of each Age of the 3-player games (the ids of
    these vectors end in ``-perft``)."""
    from ..engine.position import to_string

    for players, seed in COUNT_GAMES:
        rp = _replayed(players, seed)
        for age in ("I", "II", "III"):
            for turn in range(0, 7):
                where = f"{age}.{turn}"
                if where not in rp.positions:
                    continue
                state = rp.position(where)
                string = to_string(state, seed=seed)
                depth = 2 if turn == 4 and players == 3 and not _picks_possible(state) else 1
                request = {"op": "count", "position": string, "depth": depth}
                wonders = " ".join(f"{c.wonder.name}-{c.wonder.side}" for c in state.cities)
                yield vector(f"counts/{players}p-{seed}-{where}" + ("-perft" if depth > 1 else ""), "counts", request, answer.count(string, depth),
                             (rulebook.CHEAPEST_PURCHASE,), f"{where}: {wonders}")


def _picks_possible(state: Any) -> bool:
    """Whether a joint turn from ``state`` could earn a build from the discard pile (then the count of deeper joint
    turns would depend on the picks, which the count leaves out: spec/conformance.md §5.5)."""
    from ..model.catalog import BuildFromDiscard

    return any(type(e) is BuildFromDiscard for c in state.cities for s in c.wonder.stages for e in s.effects)


# --- all of them -------------------------------------------------------------------------------------------------


def generate(spec: Path = SPEC) -> dict[str, list[Vector]]:
    """Every vector, by area (in :data:`AREAS` order), each area's vectors in a fixed order."""
    out: dict[str, list[Vector]] = {
        "rules": [*casebook_vectors(spec / "cases"), *replay_vectors(spec.parent / "replays")],
        "deals": list(deal_vectors()),
        "positions": list(position_vectors(spec)),
        "scoring": list(scoring_vectors()),
        "counts": list(count_vectors()),
    }
    ids = [v["id"] for vs in out.values() for v in vs]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"vector ids generated twice: {', '.join(duplicates)}")
    return out


def dumps(data: Any) -> str:
    """The one JSON text of vectors (sorted keys, one space indent, ASCII-safe, a final line end)."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def files(vectors: dict[str, list[Vector]]) -> dict[str, str]:
    """The vector files: ``manifest.json`` and one ``AREA.json`` per area, file name → text."""
    manifest = {"vectors_version": VECTORS_VERSION, "generator": "wnotation",
                "shuffle": deck.SHUFFLE_ALGORITHM,
                "areas": {area: len(vectors[area]) for area in AREAS},
                "files": [f"{area}.json" for area in AREAS]}
    out = {"manifest.json": dumps(manifest)}
    for area in AREAS:
        out[f"{area}.json"] = dumps({"vectors_version": VECTORS_VERSION, "area": area, "vectors": vectors[area]})
    return out


def read_dir(directory: Path) -> dict[str, list[Vector]]:
    """Vectors written by :func:`files` back from ``directory``. Raises ``ValueError`` for another version or a
    file that is not theirs, ``OSError`` for an unreadable one."""
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    if manifest.get("vectors_version") != VECTORS_VERSION:
        raise ValueError(f"{directory}: vectors_version {manifest.get('vectors_version')!r}, this runner reads "
                         f"{VECTORS_VERSION}")
    out: dict[str, list[Vector]] = {}
    for area in AREAS:
        data = json.loads((directory / f"{area}.json").read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("area") != area or data.get("vectors_version") != VECTORS_VERSION:
            raise ValueError(f"{directory / (area + '.json')}: not the {area} vectors of version {VECTORS_VERSION}")
        items = data.get("vectors")
        if not isinstance(items, list) or not all(_well_formed(v, area) for v in items):
            raise ValueError(f"{directory / (area + '.json')}: a vector without its id, area, rules, title, request "
                             "or expect")
        out[area] = items
    return out


_OPS = {"rules": "check", "deals": "deal", "positions": "position", "scoring": "score", "counts": "count"}


def _well_formed(v: Any, area: str) -> bool:
    """Whether ``v`` has the fields of a vector of ``area`` (section 1 of spec/conformance.md) with their types."""
    return (isinstance(v, dict) and isinstance(v.get("id"), str) and v.get("area") == area
            and isinstance(v.get("rules"), list) and all(isinstance(r, str) for r in v["rules"])
            and isinstance(v.get("title"), str) and isinstance(v.get("request"), dict)
            and v["request"].get("op") == _OPS[area] and isinstance(v.get("expect"), dict))
