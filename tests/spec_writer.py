"""A second 7WN writer, written from spec/7wn.md alone: the JSON form of section 14 in, the canonical text of
section 10 out. It imports nothing of ``wnotation``, so that tests/test_spec_writer.py can check that the spec
suffices to write what the reference writes (issue: the spec stands alone). Comments cite the spec's rules.
"""

from __future__ import annotations

import re
from typing import Any

# 7.5: a seat name in the body is words (a first character, then more) separated by blanks.
_SEAT_WORD = r"[A-Za-z0-9\u00c0-\u024f][A-Za-z0-9_'.\-\u00c0-\u024f\u0300-\u036f]*"
_SEAT_NAME = re.compile(rf"{_SEAT_WORD}(?:[ \t]+{_SEAT_WORD})*")
# Section 2: white space, where the spec names it (the seat key).
_WHITE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + (
    "\u2028\u2029\u202f\u205f\u3000")
# 10.8: the order of a result line's words (9, 9.1: the expansion rows, then the science symbols at the end).
_CATEGORIES = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "cities", "leaders",
               "armada", "edifice", "total", "coins", "rank", "tablets", "compasses", "gears")
_EXPANSIONS = ("Cities", "Leaders", "Armada", "Edifice")  # 4.4: the score pad's order
_NUMERALS = {1: "I", 2: "II", 3: "III"}


def _escape(text: str, closer: str) -> str:
    """10.2 and 10.9: a backslash is written twice, and so is escaped the character that would close the value."""
    return text.replace("\\", "\\\\").replace(closer, "\\" + closer)


def _string(value: str) -> str:
    return '"' + _escape(value, '"') + '"'


def _seat_key(name: str) -> str:
    """4.1 (the name is NFC already, as 14 requires): white space runs made one space, ends trimmed, casefolded."""
    import unicodedata

    name = unicodedata.normalize("NFC", name)
    words = re.split(f"[{re.escape(_WHITE)}]+", name)
    return " ".join(w for w in words if w).casefold()


def _comment(text: str) -> str:
    return "{ " + _escape(text, "}") + " }"  # 10.9


def _tag(key: str, value: str) -> str:
    return f"[%{key} {_escape(value, ']')}]" if value else f"[%{key}]"  # 10.9


def _annotation(a: dict[str, Any] | None) -> dict[str, Any]:
    """14: every member of an annotation may be left out (empty lists, no glyph)."""
    a = a or {}
    return {"before": a.get("before", []), "after": a.get("after", []), "glyph": a.get("glyph"),
            "tags": a.get("tags", [])}


def _notes(glyph: str | None, tags: list[list[str]], comments: list[str]) -> list[str]:
    """The glyph, the tags, the comments (10.3.1, 10.4), each one piece."""
    return ([glyph] if glyph else []) + [_tag(k, v) for k, v in tags] + [_comment(c) for c in comments]


def _purchase(p: dict[str, Any]) -> str:
    """10.6: left group then right group, runs of equal units counted, at most 99 to a count; coins (version 2):
    a side paid nothing left out, ``(L 0 coins)`` for none, at most 99 coins to a group."""
    groups = []
    if "left_coins" in p:
        for side, coins in (("L", p["left_coins"]), ("R", p["right_coins"])):
            while coins > 99:
                groups.append(f"{side} 99 coins")
                coins -= 99
            if coins:
                groups.append(f"{side} {coins} {'coin' if coins == 1 else 'coins'}")
        return "(" + (", ".join(groups) or "L 0 coins") + ")"
    for side, units in (("L", p.get("left", [])), ("R", p.get("right", []))):
        if not units:
            continue
        words: list[str] = []
        i = 0
        while i < len(units):
            j = i
            while j < len(units) and units[j] == units[i]:
                j += 1
            n = j - i
            while n > 99:
                words.append(f"99 {units[i]}")
                n -= 99
            words.append(units[i] if n == 1 else f"{n} {units[i]}")
            i = j
        groups.append(side + " " + " ".join(words))
    return "(" + ", ".join(groups) + ")"


def _action(a: dict[str, Any], seat: str | None) -> str:
    """10.5."""
    note = _annotation(a.get("annotation"))
    head = "".join(c + " " for c in map(_comment, note["before"]))
    text = head + (f"{seat}: " if seat is not None else "")
    text += ("" if a["use"] == "build" else a["use"] + " ") + a["card"]
    if a.get("purchase") is not None:
        text += " " + _purchase(a["purchase"])
    if note["glyph"]:
        text += " " + note["glyph"]
    if a.get("discard") is not None:
        text += ", discard " + a["discard"]
    text += "".join(" " + piece for piece in _notes(None, note["tags"], note["after"]))
    pick = a.get("pick")
    if pick is not None:
        p = _annotation(pick.get("annotation"))
        text += ", pick" + "".join(" " + c for c in map(_comment, p["before"]))
        text += " " + (pick.get("card") if pick.get("card") is not None else "-")
        text += "".join(" " + piece for piece in _notes(p["glyph"], p["tags"], p["after"]))
    return text


def _turn_line(turn: dict[str, Any], refs: list[str], in_variation: bool) -> str:
    """10.4; in a variation (10.12) a turn with fewer actions than seats names every action's seat (10.7)."""
    t = _annotation(turn.get("annotation"))
    actions = sorted(turn["actions"], key=lambda a: a["seat"])  # 14: actions in seat order
    named = turn["number"] == 7 or (in_variation and len(actions) < len(refs))
    line = f"{_NUMERALS[turn['age']]}.{turn['number']} " + " | ".join(
        _action(a, refs[a["seat"] - 1] if named else None) for a in actions)
    if t["glyph"] or t["tags"] or t["after"]:
        line += " // " + " ".join(_notes(t["glyph"], t["tags"], t["after"]))  # 10.4
    return line


def _variation(variation: dict[str, Any], depth: int, refs: list[str], body: list[str]) -> None:
    """10.12: the first turn after "( " and its comments, indented 2 x (depth - 1); further turns (and their comment
    lines) indented 2 x depth; each turn's variations after it; " )" ending the variation's last line."""
    for i, turn in enumerate(variation["turns"]):
        before = [_comment(c) for c in _annotation(turn.get("annotation"))["before"]]
        line = _turn_line(turn, refs, True)
        if i == 0:
            body.append("  " * (depth - 1) + " ".join(["(", *before, line]))
        else:
            body += ["  " * depth + c for c in before]
            body.append("  " * depth + line)
        for nested in turn.get("variations", []):
            _variation(nested, depth + 1, refs, body)
    body[-1] += " )"


def write(game: dict[str, Any]) -> str:
    """The canonical text (section 10) of one game object (section 14)."""
    seats = game["seats"]
    lines = [f"[Format {_string(game.get('format', '7WN 1'))}]", f"[Edition {_string(game.get('edition', '2e'))}]",
             f"[Date {_string(game.get('date') or '????.??.??')}]"]  # 10.2, 4.3
    if game.get("expansions"):  # 10.2, 4.4
        lines.append(f"[Expansions {_string(', '.join(sorted(game['expansions'], key=_EXPANSIONS.index)))}]")
    lines += [f"[{t['name']} {_string(t['value'])}]" for t in game.get("tags", [])]
    lines += [f"[Seat{i} {_string(s['name'])} {_string(s['wonder'])} {_string(s['side'])}]"
              for i, s in enumerate(seats, 1)]
    if game.get("guilds") is not None:
        lines.append(f"[Guilds {_string(', '.join(game['guilds']))}]")
    if game.get("seed") is not None:
        lines.append(f"[Seed \"{game['seed']['algorithm']} {game['seed']['value']}\"]")
    for deal in sorted(game.get("deals", []), key=lambda d: d["age"]):
        hands = [_string(", ".join(hand)) for hand in deal["hands"]]
        lines.append(f"[Deal{_NUMERALS[deal['age']]} " + "\n  ".join(hands) + "]")

    keys = [_seat_key(s["name"]) for s in seats]
    refs = [s["name"] if _SEAT_NAME.fullmatch(s["name"]) and keys.count(keys[i]) == 1 else f"#{i + 1}"
            for i, s in enumerate(seats)]  # 10.7
    body = []
    g = _annotation(game.get("annotation"))
    if g["glyph"] or g["tags"] or g["before"]:
        body.append(" ".join(["game", *_notes(g["glyph"], g["tags"], g["before"])]))  # 10.3.1
    for turn in game.get("turns", []):
        body += [_comment(c) for c in _annotation(turn.get("annotation"))["before"]]  # 10.3.2
        body.append(_turn_line(turn, refs, False))
        for variation in turn.get("variations", []):  # 10.3.2, 10.12
            _variation(variation, 1, refs, body)
    for result in game.get("results", []):  # 10.8
        pairs = [f"{c} {result[c]}" for c in _CATEGORIES if result.get(c) is not None]
        body.append(" ".join([f"result {refs[result['seat'] - 1]}:", *pairs]))
    body += [_comment(c) for c in g["after"]]  # 10.3.4
    return "\n".join(lines + ([""] + body if body else [])) + "\n"


def write_document(document: Any) -> str:
    """A document (14) of one game object or an array of them: the games separated by one empty line (10.11)."""
    games = document if isinstance(document, list) else [document]
    return "\n".join(write(game) for game in games)
