"""Turning a Lark parse failure into a :class:`NotationSyntaxError` at the exact column, in plain words.

Lark's position says which line failed; this module re-reads that line with a small hand-written recogniser of the
same syntax and reports the first character that cannot continue it, with what was expected there (the words of
syntax errors are older than the grammar's action rules and stay as they were). It runs only on errors; speed does not matter here.
"""

from __future__ import annotations

import difflib
import re

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..model import vocabulary as _vocabulary
from . import lexical
from .errors import NotationError, NotationSyntaxError, Origin, at_offset

_WS = re.compile(r"[ \t]*")
_SP = re.compile(r"[ \t]+")
_LABEL = re.compile(lexical.TERMINALS["LABEL"])
# a label with the next word glued to it (a blank is required after a label): "I.1Lumber", "I.1{c}"
_GLUED_LABEL = re.compile(r"((?i:III|II|I)\.[1-7])([^ \t\n0-9.][^ \t\n|]*)")
_LABELISH = re.compile(r"[IVXLivxl]+\.?[0-9]+|[0-9]+\.[0-9]+|[IVX]+\.")
_WORD = re.compile(r"[A-Za-z]+")
_NAME = re.compile(lexical.NAME)
_SEAT_PREFIX = re.compile(rf"({lexical.SEAT_REF})[ \t]*:")
_VERB = re.compile(r"(?i:sell|stage)(?=[ \t])")
_VERB_ALONE = re.compile(r"(?i:sell|stage)(?![A-Za-z0-9'\-])")
_GLYPH = re.compile(lexical.GLYPH)
_COMMENT = re.compile(lexical.TERMINALS["COMMENT"])
_ATAG = re.compile(lexical.TERMINALS["ATAG"])
_STRING = re.compile(lexical.TERMINALS["STRING"])
_TAG_NAME = re.compile(lexical.TERMINALS["TAG_NAME"])
_SEAT_REF = re.compile(lexical.SEAT_REF)
_SEAT_TAG = re.compile(rf"^[ \t]*\[[ \t]*Seat([1-7])[ \t]+({lexical.TERMINALS['STRING']})", re.M)
_SIDE = re.compile(rf"{lexical.SIDE}(?=[ \t])")
_COUNT = re.compile(r"[1-9][0-9]?")
_COIN_COUNT = re.compile(r"0|[1-9][0-9]?")
_PAID_TAIL = re.compile(rf"(?:0|[1-9][0-9]?)[ \t]*{lexical.COINS_WORD}(?![A-Za-z0-9'\-])")
_ANY_PAID = re.compile(rf"[0-9]+[ \t]*{lexical.COINS_WORD}(?![A-Za-z0-9'\-])")  # coins, whatever the number
_INT = re.compile(r"-?[0-9]+")
_KEYWORD = re.compile(r"(?i:game|result)(?![A-Za-z0-9_])")
_SKIP = re.compile(
    r"\{[^}\\]*(?:\\[\s\S][^}\\]*)*\}|\[%[^\]\\]*(?:\\[\s\S][^\]\\]*)*\]|\"[^\"\\\n]*(?:\\[^\n][^\"\\\n]*)*\"|[^{\[\"\n]+|[\s\S]"
)
#: A line that is not blank and starts (past its blanks) with neither "[" nor '"': a body line.
_BODY_LINE = re.compile(r"^[^\S\n]*[^\s\[\"]", re.MULTILINE)
RESOURCES = _vocabulary.RESOURCES
CATEGORIES = _vocabulary.LINE_FIELDS  # the words a result line may state
_ANNOTATION = ("a comment", "a [%tag]")
_PLAIN = {
    "SEAT": "a seat",
    "VERB": "'sell' or 'stage'",
    "NAME": "a card name",
    "UNKNOWN": "'?'",
    "NONE": "'-'",
    "UGLYPH": "a glyph",
    "DISCARD": "', discard'",
    "PICK": "', pick'",
    "SIDE": "a side",
    "COUNT": "a number",
    "ZERO": "'0'",
    "RESOURCE": "a resource",
    "COINS": "'coins'",
    "COLON": "':'",
    "COMMA": "','",
    "BAR": "'|'",
    "COMMENT": "a comment",
    "ATAG": "a [%tag]",
    "TAIL": "'//'",
    "_NL": "the end of the line",
    "LABEL": "a turn label",
    "GAME": "'game'",
    "RESULT": "'result'",
    "RESULTS": "a seat and its results",
    "GLYPH": "a glyph",
    "TAG_NAME": "a tag name",
    "STRING": "a quoted value",
    "LSQB": "'['",
    "RSQB": "']'",
    "VOPEN": "'(' (a variation)",
    "VCLOSE": "')' (the end of a variation)",
    "$END": "the end of the game",
}


class _Found(Exception):
    def __init__(self, pos: int, message: str, expected: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.pos, self.message, self.expected = pos, message, expected


def _fail(pos: int, message: str, *expected: str) -> None:
    raise _Found(pos, message, expected)


def _near(word: str, options: tuple[str, ...]) -> str | None:
    close = difflib.get_close_matches(word.casefold(), options, n=1, cutoff=0.6)
    return close[0] if close else None


#: What players call the resources, by the notation's word for each (the card art says cloth, the rules loom).
RESOURCE_WORDS = {
    "loom": ("cloth", "textile", "textiles", "fabric", "silk", "linen", "weave"),
    "papyrus": ("paper", "parchment", "scroll"),
    "clay": ("brick", "bricks"),
    "wood": ("timber", "lumber", "log", "logs", "tree"),
    "ore": ("iron", "metal"),
    "stone": ("rock", "rocks"),
}
_RESOURCE_OF_WORD = {word: resource for resource, words in RESOURCE_WORDS.items() for word in words}


def _resource_meant(word: str) -> str | None:
    """The resource a word of a purchase means: another name for it (``cloth``), a plural, or a near spelling."""
    key = word.casefold()
    found = _RESOURCE_OF_WORD.get(key) or _RESOURCE_OF_WORD.get(key.removesuffix("s"))
    if found is None and key.endswith("s") and key[:-1] in RESOURCES:
        found = key[:-1]
    return found or _near(word, RESOURCES)


def _show(t: str, p: int) -> str:
    if p >= len(t) or t[p] == "\n":
        return "the end of the line"
    m = re.compile(r"[^\s|{}\[\],()]+").match(t, p)
    return repr(m.group() if m else t[p])


# --- the recogniser ------------------------------------------------------------------------------------------


class _Walker:
    def __init__(self, text: str) -> None:
        self.t = text

    def ch(self, p: int) -> str:
        return self.t[p] if p < len(self.t) else "\n"

    def ws(self, p: int) -> int:
        return _WS.match(self.t, p).end()  # type: ignore[union-attr]

    def unwritable_seat(self, p: int) -> None:
        """Fail with ``write #N`` if the text at ``p`` up to a ``:`` is the name of a seat that cannot be written
        in the body (7.5: a CJK name, one with other signs); return if it is not."""
        end = self.t.find(":", p)
        stop = min((i for i in (self.t.find("\n", p), self.t.find("|", p)) if i >= 0), default=len(self.t))
        if end < 0 or end > stop:
            return
        key = _vocabulary.seat_key(self.t[p:end])
        for m in _SEAT_TAG.finditer(self.t):
            name = lexical.nfc(lexical.string_value(m.group(2)))
            if _vocabulary.seat_key(name) == key:
                _fail(p, f"seat {m.group(1)}'s name {name!r} cannot be written here (a name in the body is words of "
                         f"letters, digits, _ ' . and -): write #{m.group(1)}", f"#{m.group(1)}")

    # annotations -------------------------------------------------------------------------------------------

    def annotation(self, p: int) -> int | None:
        """Skip one comment or [%tag] at ``p`` (error if it is broken); ``None`` if there is none."""
        t = self.t
        if self.ch(p) == "{":
            m = _COMMENT.match(t, p)
            if not m:
                _fail(p, "unterminated comment: this '{' has no closing '}' (write \\} for a '}' inside)", "'}'")
            return m.end()  # type: ignore[union-attr]
        if t.startswith("[%", p):
            m = _ATAG.match(t, p)
            if not m:
                if not re.match(r"[A-Za-z]", self.ch(p + 2)):
                    _fail(p + 2, "expected a key (a letter first) after '[%'", "a key")
                key = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*").match(t, p + 2).end()  # type: ignore[union-attr]
                if self.ch(key) not in " \t]":
                    _fail(key, f"expected a space and the value, or ']', after the key, not {_show(t, key)}", "']'")
                _fail(p, "unterminated [%tag]: no closing ']' (write \\] for a ']' inside)", "']'")
            return m.end()  # type: ignore[union-attr]
        return None

    def annotations(self, p: int) -> int:
        while True:
            p = self.ws(p)
            q = self.annotation(p)
            if q is None:
                return p
            p = q

    def end_of_line(self, p: int, what: str, *expected: str) -> None:
        p = self.ws(p)
        if self.ch(p) != "\n":
            _fail(p, f"expected {what}, not {_show(self.t, p)}", *expected)

    # lines -------------------------------------------------------------------------------------------------

    def line(self, p: int, in_header: bool) -> None:
        """Walk the logical line at ``p``; raise :class:`_Found` at the first error (return if none)."""
        t = self.t
        p = self.ws(p)
        c = self.ch(p)
        if c == "[" and not t.startswith("[%", p):
            self.tag(p)
            if not in_header:
                _fail(p, "a header tag after the first turn: tags come before the turns "
                         "(a new game starts with [Format])", "a turn label")
            return
        if c in "{[":
            p = self.annotations(p)
            if _LABEL.match(t, p):
                _fail(p, "a turn label starts its line: put the comments on the line above", "a new line")
            self.end_of_line(p, "the end of a comment line", "a new line")
            return
        if c == "(":  # a variation (7WN 2): its first turn follows, after comments
            p = self.annotations(p + 1)
            if not _LABEL.match(t, p):
                m = _GLUED_LABEL.match(t, p)
                if m:
                    _fail(p, f"a blank is required after the turn label {m.group(1)!r}: write "
                             f"'{m.group(1)} {t[m.end(1):m.end()]}'", "a turn label")
                _fail(p, f"expected a turn label after '(': a variation starts with the turn it replaces, not "
                         f"{_show(t, p)}", "a turn label")
        if _LABEL.match(t, p):
            self.turn(p)
            return
        m = _KEYWORD.match(t, p)
        if m:
            if m.group().lower() == "game":
                self.game(m.end())
            else:
                self.result(m.end())
            return
        m = _GLUED_LABEL.match(t, p)
        if m:
            _fail(p, f"a blank is required after the turn label {m.group(1)!r}: write "
                     f"'{m.group(1)} {t[m.end(1):m.end()]}'", "a turn label")
        m = _LABELISH.match(t, p)
        if m:
            _fail(p, f"bad turn label {m.group()!r}: turns are labelled I.1 … III.6 (I.7 … III.7 for an extra turn)",
                  "a turn label")
        _fail(p, f"expected a turn label (I.1 … III.7), 'result', 'game' or a comment, not {_show(t, p)}",
              "a turn label", "'result'", "'game'", "a comment")

    def tag(self, p: int) -> None:
        t = self.t
        p = self.ws(p + 1)
        m = _TAG_NAME.match(t, p)
        if not m:
            _fail(p, f"expected a tag name (a letter first) after '[', not {_show(t, p)}", "a tag name")
        p = self.ws(m.end())  # type: ignore[union-attr]
        values = 0
        while True:
            c = self.ch(p)
            if c == '"':
                m = _STRING.match(t, p)
                if not m:
                    _fail(p, "unterminated string: no closing '\"' on this line (write \\\" for a quote inside)",
                          "'\"'")
                values += 1
                p = self.ws(m.end())  # type: ignore[union-attr]
            elif c == "]" and values:
                self.end_of_line(p + 1, "the end of the line after ']'", "a new line")
                return
            elif c == "\n" and values and p < len(t):
                q = re.compile(r"\s*").match(t, p).end()  # type: ignore[union-attr]
                if self.ch(q) != '"':
                    _fail(p, "expected ']' to close the tag", "']'")
                p = q
            elif values:
                _fail(p, f"expected a quoted value or ']', not {_show(t, p)}", "a quoted value", "']'")
            else:
                _fail(p, f"expected a quoted value after the tag name, not {_show(t, p)}", "a quoted value")

    def game(self, p: int) -> None:
        p = self.ws(p)
        m = _GLYPH.match(self.t, p)
        if m:
            p = m.end()
        p = self.annotations(p)
        self.end_of_line(p, "a glyph, a comment or a [%tag] on the 'game' line", "a glyph", *_ANNOTATION)

    def result(self, p: int) -> None:
        t = self.t
        if not _SP.match(t, p):
            _fail(p, "expected a space and a seat after 'result'", "a seat")
        p = self.ws(p)
        m = _SEAT_REF.match(t, p)
        if not m:
            self.unwritable_seat(p)
            _fail(p, f"expected a seat name or #N after 'result', not {_show(t, p)}", "a seat")
        q = self.ws(m.end())  # type: ignore[union-attr]
        if self.ch(q) != ":":
            self.unwritable_seat(p)
            _fail(q, f"expected ':' after the seat, not {_show(t, q)}", "':'")
        p = q
        p += 1
        while True:
            q = self.ws(p)
            if self.ch(q) == "\n":
                return
            if q == p:
                _fail(p, "expected a space before the next category", "a space")
            m = _WORD.match(t, q)
            if not m or m.group().casefold() not in CATEGORIES:
                word = m.group() if m else t[q]
                near = _near(word, CATEGORIES)
                hint = f"; did you mean {near}?" if near else f" (one of {', '.join(CATEGORIES)})"
                _fail(q, f"unknown result category {word!r}{hint}", *CATEGORIES)
            r = m.end()  # type: ignore[union-attr]
            if not _SP.match(t, r):
                _fail(r, f"expected a space and a number after {m.group()!r}", "a number")  # type: ignore[union-attr]
            r = self.ws(r)
            n = _INT.match(t, r)
            if not n:
                _fail(r, f"expected a whole number after {m.group()!r}, not {_show(t, r)}", "a number")  # type: ignore[union-attr]
            p = n.end()  # type: ignore[union-attr]

    # turns -------------------------------------------------------------------------------------------------

    def turn(self, p: int) -> None:
        t = self.t
        label = _LABEL.match(t, p)
        p = label.end()  # type: ignore[union-attr]
        if re.match(r"[0-9.]", self.ch(p)):
            m = re.compile(r"\S*").match(t, label.start())  # type: ignore[union-attr]
            _fail(label.start(), f"bad turn label {m.group()!r}: turns are labelled I.1 … III.6 "  # type: ignore[union-attr]
                  "(I.7 … III.7 for an extra turn)", "a turn label")
        context = "after the turn label"
        while True:  # an action, then what may follow it
            p = self.annotations(p)
            c = self.ch(p)
            if c == "|":
                _fail(p, f"expected an action {context}, not another '|' (turn annotations follow '//')",
                      "an action")
            if c == "\n":
                _fail(p, f"expected an action {context}", "an action")
            p = self.action(p, context)
            while True:  # clauses and annotations
                p = self.ws(p)
                q = self.annotation(p)
                if q is not None:
                    p = q
                    continue
                c = self.ch(p)
                if c == ",":
                    p = self.clause(p)
                    continue
                break
            c = self.ch(p)
            if c == "\n":
                return
            if c == "|":
                p += 1
                context = "after '|'"
                continue
            if t.startswith("//", p):
                self.tail(p + 2)
                return
            if c == ")":
                self.closers(p)
                return
            _fail(p, f"expected '|' before the next action, ',' before a clause, a comment or the end of the line, "
                     f"not {_show(t, p)}", "'|'", "','", *_ANNOTATION, "the end of the line")

    def closers(self, p: int) -> None:
        """The ``)`` closing variations at the end of a turn line (7WN 2), then the line's end."""
        while self.ch(p) == ")":
            p = self.ws(p + 1)
        self.end_of_line(p, "')' or the end of the line after a variation's ')'", "')'", "the end of the line")

    def tail(self, p: int) -> None:
        p = self.ws(p)
        m = _GLYPH.match(self.t, p)
        if m:
            p = m.end()
        p = self.annotations(p)
        if self.ch(p) == ")":
            self.closers(p)
            return
        self.end_of_line(p, "a glyph, comments or [%tags] after '//' (the turn's annotations)", "a glyph",
                         *_ANNOTATION)

    def action(self, p: int, context: str) -> int:
        t = self.t
        m = _SEAT_PREFIX.match(t, p)
        if m:
            p = self.ws(m.end())
        else:
            self.unwritable_seat(p)
        m = _VERB.match(t, p)
        if m:
            verb = m.group().lower()
            p = self.ws(m.end())
            if self.ch(p) in "|\n":  # the verb is the whole card name (spec 12.3 refinement 4): just past it
                _fail(m.end(), f"expected a card name or '?' after '{verb}'", "a card name", "'?'")
            if not (self.ch(p) == "?" or _WORD.match(t, p)):
                _fail(p, f"expected a card name or '?' after '{verb}', not {_show(t, p)}", "a card name", "'?'")
        elif _VERB_ALONE.match(t, p):
            end = _VERB_ALONE.match(t, p).end()  # type: ignore[union-attr]
            _fail(end, f"expected a card name or '?' after '{t[p:end].lower()}'", "a card name", "'?'")
        return self.card_part(p, context, allow_verb=not m)

    def card_part(self, p: int, context: str, *, allow_verb: bool) -> int:
        t = self.t
        if self.ch(p) == "?":
            p += 1
            if self.ch(p) in "!?":
                _fail(p, "an unknown card '?' and a glyph need a space between them: write '? ?', '? !', …",
                      "a space")
            q = self.ws(p)
            if self.ch(q) == "(":
                p = self.purchase(q)
                q = self.ws(p)
                m = _GLYPH.match(t, q)
                return m.end() if m else p
            if q > p and _GLYPH.match(t, q):
                return _GLYPH.match(t, q).end()  # type: ignore[union-attr]
            return p
        m = _NAME.match(t, p)
        if not m:
            options = "a card name, '?', 'sell' or 'stage'" if allow_verb else "a card name or '?'"
            _fail(p, f"expected {options} {context}, not {_show(t, p)}", "a card name", "'?'",
                  *(("'sell'", "'stage'") if allow_verb else ()))
        p = m.end()  # type: ignore[union-attr]
        c = self.ch(p)
        if c not in " \t\n|{[,()!?/":
            _fail(p, f"unexpected {c!r} in a card name (names are words of letters, digits, ' and -)",
                  "a card name")
        q = self.ws(p)
        if self.ch(q) == "(":
            p = self.purchase(q)
            q = self.ws(p)
        m = _GLYPH.match(t, q)
        if m:
            p = m.end()
        return p

    def purchase(self, p: int) -> int:
        t = self.t
        p = self.ws(p + 1)
        if self.ch(p) == ")":
            return p + 1
        kind = ""  # "coins" or "units" once the first group says which (a purchase never mixes them)
        while True:  # a group: side, units; or side, coins (7WN 2)
            m = _SIDE.match(t, p)
            if not m:
                _fail(p, f"expected L or R (the neighbour you buy from) in the purchase, not {_show(t, p)}",
                      "'L'", "'R'", "')'")
            p = self.ws(m.end())  # type: ignore[union-attr]
            paid = _PAID_TAIL.match(t, p) if kind != "units" else None
            if not paid and kind != "units" and _ANY_PAID.match(t, p):  # "100 coins", "007 coins"
                digits = re.match(r"[0-9]+", t[p:])
                number = digits.group() if digits else ""
                # at the first digit the grammar cannot take (spec 12.3): the third, or the one after a 0
                _fail(p + (1 if number.startswith("0") else 2), "a purchase pays 0 to 99 coins to a side, written "
                      f"without leading zeros, not {number!r}", "a number of coins")
            if paid or kind == "coins":
                if not paid:  # a coin purchase goes on with coins: at the count's place, or at the word after it
                    count = _COIN_COUNT.match(t, p)
                    q = self.ws(count.end()) if count else p
                    _fail(q, "this purchase states coins: a purchase states the coins paid or the resources "
                          "bought, not both", "'coins'" if count else "a number of coins")
                kind = "coins"
                p = self.ws(paid.end())  # type: ignore[union-attr]
                if self.ch(p) == ")":
                    return p + 1
                if self.ch(p) == ",":
                    p = self.ws(p + 1)
                    continue
                _fail(p, f"expected ',' or ')' after the coins, not {_show(t, p)}", "','", "')'")
            kind = "units"
            units = 0
            while True:
                c = _COUNT.match(t, p)
                q = self.ws(c.end()) if c else p
                w = _WORD.match(t, q)
                if not w or w.group().casefold() not in RESOURCES:
                    word = w.group() if w else t[q : q + 1]
                    if w or units == 0 or c:
                        near = _resource_meant(word)
                        hint = f"; did you mean {near}?" if near else ""
                        what = f"unknown resource {word!r}{hint}" if w else f"expected a resource, not {_show(t, q)}"
                        _fail(q, what, *RESOURCES)
                    break
                units += 1
                p = w.end()
                end = self.ws(p)
                if self.ch(end) in ",)":
                    break
                if end == p:
                    _fail(p, f"expected a space, ',' or ')' after {w.group()!r}", "','", "')'")
                p = end
            p = self.ws(p)
            c2 = self.ch(p)
            if c2 == ")":
                return p + 1
            if c2 == ",":
                p = self.ws(p + 1)
                continue
            _fail(p, f"expected a resource, ',' or ')' in the purchase, not {_show(t, p)}", "a resource", "','",
                  "')'")

    def clause(self, p: int) -> int:
        t = self.t
        p = self.ws(p + 1)
        m = _WORD.match(t, p)
        word = m.group().lower() if m else ""
        glued = next((k for k in ("discard", "pick") if word.startswith(k) and word != k), None)
        if glued is not None:
            _fail(p, f"a blank is required after '{glued}': write ', {glued} {m.group()[len(glued):]}'",  # type: ignore[union-attr]
                  "'discard'", "'pick'")
        if word not in ("discard", "pick"):
            near = _near(word, ("discard", "pick")) if word else None
            hint = f" (did you mean {near}?)" if near else ""
            _fail(p, f"expected 'discard' or 'pick' after ',', not {_show(t, p)}{hint}", "'discard'", "'pick'")
        p = m.end()  # type: ignore[union-attr]
        if not _SP.match(t, p):  # a blank follows the keyword, also before an annotation (spec 7.3)
            _fail(p, f"expected a space and a card after '{word}'", "a card name")
        q = self.annotations(p) if word == "pick" else self.ws(p)
        p = q
        c = self.ch(p)
        if word == "pick" and c == "-":
            q = self.ws(p + 1)
            m = _GLYPH.match(t, q)
            return m.end() if m else p + 1
        if c == "?":
            if word == "discard" and self.ch(p + 1) in "!?":
                self.glyph_after_discard(p + 1)
            if self.ch(p + 1) in "!?":
                _fail(p + 1, "an unknown card '?' and a glyph need a space between them: write '? ?', '? !', …",
                      "a space")
            q = self.ws(p + 1)
            if word == "pick" and q > p + 1 and _GLYPH.match(t, q):
                return _GLYPH.match(t, q).end()  # type: ignore[union-attr]
            p += 1
        else:
            m = _NAME.match(t, p)
            if not m:
                what = "a card name, '?' or '-' (declined)" if word == "pick" else "a card name or '?'"
                _fail(p, f"expected {what} after '{word}', not {_show(t, p)}", "a card name", "'?'")
            p = m.end()  # type: ignore[union-attr]
            if word == "pick":
                m = _GLYPH.match(t, self.ws(p))
                if m:
                    p = m.end()
        if word == "discard" and _GLYPH.match(t, self.ws(p)):
            self.glyph_after_discard(self.ws(p))
        return p

    def glyph_after_discard(self, p: int) -> None:
        _fail(p, "a glyph after the discarded card: a glyph marks the card played, so write it before ', discard' "
                 "(as in 'Scriptorium !, discard Loom')", "'|'", "','", "the end of the line")


# --- entry point ---------------------------------------------------------------------------------------------


def _logical_lines(text: str, upto: int) -> tuple[int, bool]:
    """The start of the logical line holding ``upto`` (newlines inside comments do not count) and whether
    it lies in the header (no body line before it)."""
    in_header = True
    pos = 0
    line_start = 0
    while pos < len(text) and pos <= upto:
        m = _SKIP.match(text, pos)
        assert m is not None
        if text[pos] == "\n":  # the match is the line end itself (a comment's is not: it starts with "{")
            if pos >= upto:
                break
            line_start = pos + 1
        pos = m.end()
        if pos > upto:
            break
    start = line_start
    # a line before it whose first character past its blanks (``str.strip``'s, which ``\\s`` matches) is not "["
    # or '"': found in the text itself, not in a copy of its lines (a huge game's error was 2 copies more)
    if _BODY_LINE.search(text, 0, start) is not None:
        in_header = False
    return start, in_header


def diagnose(exc: UnexpectedInput, text: str, origin: Origin) -> NotationError:
    """A :class:`NotationSyntaxError` for Lark's ``exc`` on one game's ``text``, at the exact column."""
    pos: int
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream if exc.pos_in_stream is not None else len(text)
    elif isinstance(exc, UnexpectedToken):
        pos = exc.token.start_pos if exc.token.start_pos is not None else len(text)
        if exc.token.type == "$END":
            pos = len(text)
    else:
        pos = len(text)
    pos = min(pos, len(text))
    start, in_header = _logical_lines(text, pos)
    try:
        _Walker(text).line(start, in_header)
    except _Found as found:
        return at_offset(NotationSyntaxError, found.message, text, found.pos, origin,
                         expected=found.expected)
    expected = _expected(exc)
    words = ", ".join(expected) if expected else "something else"
    return at_offset(NotationSyntaxError, f"unexpected {_show(text, pos)}: expected {words}", text, pos, origin,
                     expected=expected)


def _expected(exc: UnexpectedInput) -> tuple[str, ...]:
    names: set[str] = set()
    if isinstance(exc, UnexpectedCharacters):
        names = set(exc.allowed or ())
    elif isinstance(exc, (UnexpectedToken, UnexpectedEOF)):
        names = set(exc.expected or ())
    return tuple(sorted({_PLAIN.get(n, n.lower()) for n in names if not n.startswith("__")}))
