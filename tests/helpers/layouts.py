"""Non-canonical layouts of a canonical game text: the same game written another way (spec 7wn.md allows each).

:func:`relayout` varies blanks (around ``|``, ``,``, ``:``, inside tags, blank and indented lines), case (keywords,
card names, resources, sides, labels, categories), seat prefixes on ordinary turns (name or ``#N``), purchases
(groups, units and counts in any order, ``L``/``left``; coins split into groups that add up), the order of result pairs and Wonder-side spellings;
with ``comments`` it adds comments, which change the Record's annotations but nothing else.
"""

from __future__ import annotations

import random
import re

_LABEL = re.compile(r"^(III|II|I)\.([1-7]) (.*)$")
_SEAT_TAG = re.compile(r'^\[Seat(\d) "([^"]*)" "([^"]*)" "(day|night)"\]$')
_PURCHASE = re.compile(r"\(([^()]*)\)")
_PREFIX = re.compile(r"^(#\d|[A-Za-z][A-Za-z0-9]*): ")


def _blank(rnd: random.Random, least: int = 0) -> str:
    return "".join(rnd.choice(" \t") for _ in range(rnd.randint(least, least + 2)))


def _case(rnd: random.Random, word: str) -> str:
    return rnd.choice([word, word.lower(), word.upper(), word.title()])


def _purchase(rnd: random.Random, inner: str) -> str:
    """A purchase's groups re-ordered: units shuffled, counts split or joined, sides spelt any way; coins (7WN 2)
    split into groups that add up, ``coin``/``coins`` either way."""
    groups = []
    if "coin" in inner:
        for group in (g.strip() for g in inner.split(",") if g.strip()):
            side, count, _ = group.split()
            n = int(count)
            cut = rnd.randint(0, n) if n and rnd.random() < 0.5 else n
            side_word = rnd.choice({"L": ["L", "l", "left", "LEFT"], "R": ["R", "r", "right", "Right"]}[side])
            for k in ([cut, n - cut] if cut != n else [n]):
                word = _case(rnd, rnd.choice(["coin", "coins"]))
                groups.append(f"{side_word}{_blank(rnd, 1)}{k}{_blank(rnd)}{word}")
        rnd.shuffle(groups)
        return "(" + _blank(rnd) + f"{_blank(rnd)},{_blank(rnd)}".join(groups) + _blank(rnd) + ")"
    for group in (g.strip() for g in inner.split(",") if g.strip()):
        side, *words = group.split()
        units: list[str] = []
        i = 0
        while i < len(words):
            if words[i].isdigit():
                units += [words[i + 1]] * int(words[i])
                i += 2
            else:
                units.append(words[i])
                i += 1
        rnd.shuffle(units)
        written = []
        for unit in units:
            if written and written[-1][1] == unit and rnd.random() < 0.5:
                written[-1] = (written[-1][0] + 1, unit)
            else:
                written.append((1, unit))
        side_word = rnd.choice({"L": ["L", "l", "left", "LEFT"], "R": ["R", "r", "right", "Right"]}[side])
        parts = [_case(rnd, u) if n == 1 else f"{n}{_blank(rnd)}{_case(rnd, u)}" for n, u in written]
        groups.append(side_word + _blank(rnd, 1) + _blank(rnd, 1).join(parts))
    rnd.shuffle(groups)
    return "(" + _blank(rnd) + f"{_blank(rnd)},{_blank(rnd)}".join(groups) + _blank(rnd) + ")"


def _action(rnd: random.Random, action: str, seat: int, name: str, prefix: bool, comments: bool) -> str:
    m = _PREFIX.match(action)
    if m:  # the extra turn: the same seat by name or number
        action = action[m.end():]
        prefix = True
    action = re.sub(r"^(sell|stage) ", lambda v: _case(rnd, v.group(1)) + _blank(rnd, 1), action)
    action = re.sub(r", (discard|pick) ", lambda v: f"{_blank(rnd)},{_blank(rnd)}{_case(rnd, v.group(1))}"
                    f"{_blank(rnd, 1)}", action)
    action = _PURCHASE.sub(lambda v: _blank(rnd) + _purchase(rnd, v.group(1)) if v.group(1) else v.group(), action)
    if rnd.random() < 0.3:  # a card name in another case
        action = re.sub(r"\b(Lumber Yard|Clay Pool|Stone Pit|Glassworks|Loom|Press|Chamber of Commerce)\b",
                        lambda v: _case(rnd, v.group(1)).replace(" ", _blank(rnd, 1)), action)
    if comments and rnd.random() < 0.2:
        action += " { note }" if rnd.random() < 0.5 else " [%eval +1]"
    if prefix:
        ref = rnd.choice([name, name.lower(), f"#{seat}"])
        action = f"{ref}{_blank(rnd)}:{_blank(rnd)}" + action
    return action


def relayout(text: str, rnd: random.Random, *, comments: bool = False, labels: bool = False) -> str:
    """``text`` (canonical, one game) laid out anew; ``labels`` writes turn labels in any case, ``comments``
    adds comments (both make the fast route leave the game to Lark)."""
    names: list[str] = []
    out = []
    for line in text.split("\n"):
        seat = _SEAT_TAG.match(line)
        if seat:
            number, name, wonder, side = seat.groups()
            names.append(name)
            side_word = rnd.choice([side, side.upper(), {"day": "a", "night": "B"}[side]])
            line = f'[{_blank(rnd)}Seat{number}{_blank(rnd, 1)}"{name}"{_blank(rnd, 1)}"{wonder}"' \
                   f'{rnd.choice([" ", chr(10) + "  "])}"{side_word}"{_blank(rnd)}]'
        elif line.startswith("[Format"):  # a blank after "[" would hide the game's boundary (spec 3)
            line = line[:-1] + _blank(rnd) + "]"
        elif line.startswith("["):
            line = "[" + _blank(rnd) + line[1:-1] + _blank(rnd) + "]"
        elif turn := _LABEL.match(line):
            numeral, number, rest = turn.groups()
            label = f"{_case(rnd, numeral) if labels else numeral}.{number}"
            actions = rest.split(" | ")
            extra = number == "7"
            seats = list(range(1, len(actions) + 1))
            parts = []
            for k, action in enumerate(actions):
                m = _PREFIX.match(action)
                if extra and m:
                    ref = m.group(1)
                    who = int(ref[1:]) if ref.startswith("#") else names.index(ref) + 1
                else:
                    who = seats[k]
                parts.append(_action(rnd, action, who, names[who - 1], not extra and rnd.random() < 0.3, comments))
            line = label + _blank(rnd, 1) + "".join(
                p if i == 0 else f"{_blank(rnd)}|{_blank(rnd)}{p}" for i, p in enumerate(parts)) + _blank(rnd)
            if comments and rnd.random() < 0.2:
                line = "{ before " + label + " }\n" + line
        elif line.startswith("result "):
            ref, pairs = line[len("result "):].split(": ", 1)
            words = pairs.split()
            pair_list = [(words[i], words[i + 1]) for i in range(0, len(words), 2)]
            rnd.shuffle(pair_list)
            who = rnd.choice([ref, ref.upper(), f"#{names.index(ref) + 1}" if ref in names else ref])
            line = _case(rnd, "result") + _blank(rnd, 1) + who + _blank(rnd) + ":" + "".join(
                _blank(rnd, 1) + _case(rnd, c) + _blank(rnd, 1) + v for c, v in pair_list)
        if line and rnd.random() < 0.2:
            line = _blank(rnd, 1) + line  # indented
        out.append(line)
        if line and rnd.random() < 0.1:
            out.append(_blank(rnd))  # a blank line
    return "\n".join(out)
