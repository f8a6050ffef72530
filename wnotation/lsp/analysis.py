"""What the language server knows about a 7WN document, as plain values: no pygls, no protocol types.

A document is cut into games at the reader's boundaries (:func:`~wnotation.diagnostics.game_pieces`); each game is
checked by the diagnostics layer (:func:`~wnotation.diagnostics.check_piece`) and the answer is kept by the game's
text (:class:`GameCache`), so a keystroke re-checks only the game it changed. Everything the server answers is
computed here from those checks, the Record and its Replay: the diagnostics with their ranges and related
locations, completions from the engine's legal actions, hovers, code-action edits, symbols and folding ranges.

Positions are 0-based ``(line, column)`` pairs with the column counted in code points, as Python indexes a
``str``; the server converts them to the client's units. Nothing here decides a rule: the diagnostics layer
reports, the engine answers what is legal, the catalogue describes the cards.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

from ..model import catalog as _catalog
from ..diagnostics import Diagnostic, GameReport, check_piece, game_pieces, normalise, no_game_remark
from ..notation.errors import NotationError
from ..model.record import Record, Turn, Variation, position_tag
from ..model.vocabulary import AGE_NUMERALS, Address

if TYPE_CHECKING:
    from ..engine import Replay, State

__all__ = ["Completion", "DocumentAnalysis", "Edit", "Fix", "Fold", "GameCache", "GameView", "LspDiagnostic",
           "Related", "Symbol", "analyse", "code_fixes", "completions", "docs_href", "folding", "format_games", "hover",
           "symbols"]

#: Games kept by their text (and their checks) across the open documents: a 10,000-game archive open in an editor
#: stays checked; and the games whose Record and Replay are kept (the ones completion and hover last asked about).
CACHE_GAMES = 16384
CACHE_REPLAYS = 32

_LABEL = re.compile(r"[ \t]*((?i:III|II|I))\.([1-7])(?=[ \t\n]|$)")
_TAG = re.compile(r'[ \t]*\[([A-Za-z0-9_]*)')
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)("?)')
_NAME_CHAR = re.compile(r"[A-Za-z0-9'\-#\u00c0-\u024f]")
_STOP = set("|,(){}[]!?:\"/")
_VERBS = ("sell ", "stage ")


# --- positions and ranges --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text from ``(line, column)`` to ``(end_line, end_column)`` (0-based, code points) by ``text``."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass(frozen=True, slots=True)
class Related:
    """A location that explains a diagnostic (an earlier error of the same seat), with a message."""

    line: int
    column: int
    end_column: int
    message: str


@dataclass(frozen=True, slots=True)
class LspDiagnostic:
    """A diagnostic of the diagnostics layer placed in the document: 0-based line, columns of the range it
    covers on that line, and the earlier locations it relates to."""

    diagnostic: Diagnostic
    line: int
    column: int
    end_column: int
    related: tuple[Related, ...] = ()


def _skip_annotation(text: str, k: int) -> int:
    """The index past a comment ``{…}`` or a ``[%tag …]`` starting at ``k`` (escapes honoured; its end if open)."""
    close = "}" if text[k] == "{" else "]"
    j = k + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == close:
            return j + 1
        j += 1
    return len(text)


def name_end(line: str, start: int) -> int:
    """The end of the run of name words (a card, a seat, a Wonder) starting at ``start`` of ``line``: words of
    name characters separated by single blanks, stopping at punctuation."""
    k = start
    while k < len(line) and _NAME_CHAR.match(line[k]):
        k += 1
        if k + 1 < len(line) and line[k] in " \t" and _NAME_CHAR.match(line[k + 1]):
            k += 1
    return k


def token_end(line: str, column: int) -> int:
    """The end of the token a notation error points at: a quoted value, a run of name words, or one character."""
    if column >= len(line):
        return column
    c = line[column]
    if c == '"':
        m = _STRING.match(line, column)
        return m.end() if m else column + 1
    if _NAME_CHAR.match(c):
        return name_end(line, column)
    return column + 1


def action_end(line: str, column: int) -> int:
    """The end of the action starting at ``column`` of a turn line: the next ``|`` or ``//`` outside comments and
    tags, or the line's end, trailing blanks left out."""
    k = column
    while k < len(line):
        c = line[k]
        if c == "{" or line.startswith("[%", k):
            k = _skip_annotation(line, k)
            continue
        if c == "|" or line.startswith("//", k):
            break
        k += 1
    while k > column and line[k - 1] in " \t":
        k -= 1
    return max(k, min(column + 1, len(line)))


def docs_href(rule: str, base: str) -> str:
    """The page of the documentation site that explains ``rule``: a rule ID's entry of the rules page, or the
    table of the notation's codes (spec 12.2) for a notation code."""
    base = base.rstrip("/")
    if rule.startswith("R-"):
        return f"{base}/rules.html#rule-{rule.lower()}"
    return f"{base}/spec/7wn.html#122-the-codes"


# --- games and their checks ------------------------------------------------------------------------------------


class GameView:
    """One game's text and what is known about it, computed when first asked: the diagnostics layer's report
    (``line0`` 0: lines counted from the game's first line), kept as long as the view; the Record (``None`` when
    the game does not read) and its Replay, kept in the ``played`` store of the cache (a few games: a replay holds
    every position). Shared between documents holding the same text."""

    __slots__ = ("text", "_report", "_played")

    def __init__(self, text: str, played: OrderedDict[str, tuple[Record | None, Replay | None]],
                 keep: int) -> None:
        self.text = text
        self._report: GameReport | None = None
        self._played = (played, keep)

    @property
    def report(self) -> GameReport | None:
        """The check of the game (``None`` for a piece without a game: text before the first ``[Format``)."""
        if self._report is None:
            reports = check_piece(self.text, "<document>", 0)
            if not reports:
                return None
            self._report = reports[0]
        return self._report

    def _read(self) -> tuple[Record | None, Replay | None]:
        store, keep = self._played
        found = store.get(self.text)
        if found is not None:
            store.move_to_end(self.text)
            return found
        record = read_record(self.text)
        played = None
        if record is not None:
            from ..engine import replay

            played = replay(record)
        store[self.text] = (record, played)
        if len(store) > keep:
            store.popitem(last=False)
        return record, played

    @property
    def record(self) -> Record | None:
        return self._read()[0]

    @property
    def replay(self) -> Replay | None:
        return self._read()[1]


def read_record(text: str) -> Record | None:
    """The first game of ``text`` as a Record, or ``None`` when it does not read."""
    from ..notation import read_games

    for item in read_games(text):
        return None if isinstance(item, NotationError) else item
    return None


class GameCache:
    """Game views by their text, the least recently used dropped past ``size`` (a view keeps its text and its
    check, a few kilobytes), and the Records and Replays of the last ``played`` games asked for (completion and
    hover ask for those near the cursor): the work of unchanged games is reused across keystrokes and documents.
    ``hits`` and ``misses`` count the look-ups of views (for the benchmark)."""

    def __init__(self, size: int = CACHE_GAMES, played: int = CACHE_REPLAYS) -> None:
        self.size = size
        self._views: OrderedDict[str, GameView] = OrderedDict()
        self._played: OrderedDict[str, tuple[Record | None, Replay | None]] = OrderedDict()
        self._keep = played
        self.hits = self.misses = 0

    def view(self, text: str) -> GameView:
        found = self._views.get(text)
        if found is not None:
            self.hits += 1
            self._views.move_to_end(text)
            return found
        self.misses += 1
        made = GameView(text, self._played, self._keep)
        self._views[text] = made
        if len(self._views) > self.size:
            self._views.popitem(last=False)
        return made


@dataclass(frozen=True, slots=True)
class Piece:
    """A game of the document: its view and the lines before it."""

    view: GameView
    line0: int
    lines: int

    def holds(self, line: int) -> bool:
        return self.line0 <= line < self.line0 + self.lines


@dataclass
class DocumentAnalysis:
    """A document cut into games (:class:`Piece`), with its lines as the reader counts them."""

    lines: list[str]
    pieces: list[Piece] = field(default_factory=list)

    def piece_at(self, line: int) -> Piece | None:
        for p in self.pieces:
            if p.holds(line):
                return p
        return None

    def diagnostics(self) -> list[LspDiagnostic]:
        """Every diagnostic of every game, in document order, each with its range and related locations; an
        input without any game gets the diagnostics layer's remark, as a warning (a new file is empty)."""
        out: list[LspDiagnostic] = []
        games = 0
        for p in self.pieces:
            report = p.view.report
            if report is None:
                continue
            games += 1
            out.extend(self._placed(report.diagnostics, p.line0))
        if not games:
            d = no_game_remark("<document>", self.lines[0] if self.lines else "", True)
            out.append(LspDiagnostic(d, 0, 0, len(self.lines[0]) if self.lines else 0))
        return out

    def _placed(self, found: tuple[Diagnostic, ...], line0: int) -> Iterator[LspDiagnostic]:
        first_error: dict[int, LspDiagnostic] = {}
        for d in found:
            line = d.line - 1 + line0
            text = self.lines[line] if 0 <= line < len(self.lines) else ""
            column = max(0, min(d.column - 1, len(text)))
            end = token_end(text, column) if d.kind == "notation" else action_end(text, column)
            related: tuple[Related, ...] = ()
            earlier = first_error.get(d.seat) if d.seat is not None else None
            if earlier is not None and earlier.line < line:
                what = earlier.diagnostic
                related = (Related(earlier.line, earlier.column, earlier.end_column,
                                   f"an earlier error of this seat ({what.address}, {what.rule}) may cause this one"),)
            placed = LspDiagnostic(d, line, column, end, related)
            if d.severity == "error" and d.seat is not None and d.seat not in first_error:
                first_error[d.seat] = placed
            yield placed


def analyse(text: str, cache: GameCache) -> DocumentAnalysis:
    """The document ``text`` cut into games, each game's view taken from ``cache`` (checked lazily, when its
    diagnostics are first asked for). Cost: one pass over the text plus, for each game not in the cache, one
    parse and one replay when asked."""
    norm = normalise(text)
    doc = DocumentAnalysis(norm.split("\n"))
    for piece, line0 in game_pieces(norm, 1):
        doc.pieces.append(Piece(cache.view(piece), line0, piece.count("\n") + (0 if piece.endswith("\n") else 1)))
    return doc


# --- document symbols and folding ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Symbol:
    """An entry of the outline: ``kind`` is ``game``, ``age``, ``turn`` or ``variation``; lines are 0-based and
    inclusive; ``column`` where its name starts on ``line``."""

    name: str
    kind: str
    line: int
    end_line: int
    column: int = 0
    children: tuple[Symbol, ...] = ()


def _turn_lines(turns: tuple[Turn, ...]) -> list[int]:
    return [t.span.line for t in turns if t.span is not None]


def _variation_end(variation: Variation) -> int:
    """The last line (1-based) of a variation: that of its last turn or of a nested variation's end."""
    end = variation.span.line if variation.span is not None else 1
    for t in variation.turns:
        if t.span is not None:
            end = max(end, t.span.line)
        for v in t.variations:
            end = max(end, _variation_end(v))
    return end


def _turn_symbols(turns: tuple[Turn, ...], line0: int, lines: list[str]) -> list[Symbol]:
    out = []
    for t in turns:
        if t.span is None:
            continue
        label = f"{AGE_NUMERALS[t.age]}.{t.number}"
        children = []
        for k, v in enumerate(t.variations, start=1):
            if v.span is None:
                continue
            children.append(Symbol(f"({label} variation {k})", "variation", v.span.line - 1 + line0,
                                   _variation_end(v) - 1 + line0, v.span.column - 1,
                                   tuple(_turn_symbols(v.turns, line0, lines))))
        line = t.span.line - 1 + line0
        end = max([line] + [c.end_line for c in children])
        out.append(Symbol(label, "turn", line, end, t.span.column - 1, tuple(children)))
    return out


def symbols(doc: DocumentAnalysis) -> list[Symbol]:
    """The outline: each game (named by its seats, or ``game N (does not read)``), its Ages, their turns and the
    variations of each turn."""
    out = []
    index = 0
    for p in doc.pieces:
        if p.view.report is None:
            continue
        index += 1
        last = p.line0 + p.lines - 1
        while last > p.line0 and not doc.lines[last].strip():
            last -= 1
        record = p.view.record
        if record is None:
            out.append(Symbol(f"game {index} (does not read)", "game", p.line0, last))
            continue
        ages = []
        for age in (1, 2, 3):
            turns = tuple(t for t in record.turns if t.age == age)
            turn_syms = _turn_symbols(turns, p.line0, doc.lines)
            if turn_syms:
                ages.append(Symbol(f"Age {AGE_NUMERALS[age]}", "age", turn_syms[0].line,
                                   max(s.end_line for s in turn_syms), 0, tuple(turn_syms)))
        names = ", ".join(s.name for s in record.seats)
        start = record.span.line - 1 + p.line0 if record.span is not None else p.line0
        out.append(Symbol(f"game {index}: {names}", "game", start, last, 0, tuple(ages)))
    return out


@dataclass(frozen=True, slots=True)
class Fold:
    """A folding range (0-based lines, inclusive); ``kind`` ``comment`` or ``region``."""

    line: int
    end_line: int
    kind: str


def folding(doc: DocumentAnalysis) -> list[Fold]:
    """Folds for every game, every variation (from its ``(`` to its last line) and every comment spanning lines."""
    from ..viewer.lexer import SevenWNLexer
    from pygments.token import Comment  # type: ignore[import-untyped]

    out: list[Fold] = []

    def walk(symbols_: tuple[Symbol, ...] | list[Symbol]) -> None:
        for s in symbols_:
            if s.kind in ("game", "variation") and s.end_line > s.line:
                out.append(Fold(s.line, s.end_line, "region"))
            walk(s.children)

    walk(symbols(doc))
    for p in doc.pieces:
        for offset, kind, value in SevenWNLexer(stripnl=False, ensurenl=False).get_tokens_unprocessed(p.view.text):
            if kind in Comment and "\n" in value:
                line = p.view.text.count("\n", 0, offset) + p.line0
                out.append(Fold(line, line + value.count("\n"), "comment"))
    return sorted(set(out), key=lambda f: (f.line, f.end_line))


# --- the turn line under the cursor ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnContext:
    """Where the cursor is on a turn line: the turn's Age and number, the seat whose action it is in (from the
    ``|`` before it, or its seat prefix), the text of that action typed so far and where it starts."""

    age: int
    number: int
    seat: int | None
    typed: str
    start: int
    prefixed: bool


def _top_level(line: str, stop: int) -> list[int]:
    """The columns of the ``|`` before ``stop`` outside comments and tags."""
    bars, k = [], 0
    while k < stop:
        c = line[k]
        if c == "{" or line.startswith("[%", k):
            k = _skip_annotation(line, k)
            continue
        if c == "|":
            bars.append(k)
        k += 1
    return bars


def turn_context(line: str, column: int, record: Record | None) -> TurnContext | None:
    """The turn context at ``column`` of ``line`` (``None`` off a turn line or on its label); ``record`` (read
    from the game's lines before this one) names the seats for a seat prefix."""
    m = label_at(line)
    if m is None or column < m.end():
        return None
    age = {"i": 1, "ii": 2, "iii": 3}[m.group(1).lower()]
    number = int(m.group(2))
    bars = _top_level(line, column)
    start = bars[-1] + 1 if bars else m.end()
    if line.startswith("//", start) or "//" in line[start:column]:
        return None
    while start < column and line[start] in " \t":
        start += 1
    typed = line[start:column]
    seat: int | None = None if number == 7 else len(bars) + 1
    prefixed = False
    prefix = re.match(r"([^:|{}()\[\]]+?)[ \t]*:[ \t]*", typed)
    if prefix is not None and record is not None:
        key = prefix.group(1).strip().casefold()
        for k, s in enumerate(record.seats, start=1):
            if s.name.casefold() == key or f"#{k}" == key:
                seat, prefixed = k, True
        start += prefix.end()
        typed = typed[prefix.end():]
    if record is not None and seat is not None and seat > len(record.seats):
        seat = None
    return TurnContext(age, number, seat, typed, start, prefixed)


_ANNOTATIONS = re.compile(r"\{[^}\\]*(?:\\.[^}\\]*)*\}?|\[%[^\]\\]*(?:\\.[^\]\\]*)*\]?")
_LEAD = re.compile(r"(?:[ \t(]|\{[^}\\]*(?:\\.[^}\\]*)*\})*")


def label_at(line: str) -> re.Match[str] | None:
    """The turn label of a turn line, after the ``(`` and comments that may open a variation's line."""
    return _LABEL.match(line, _LEAD.match(line).end())  # type: ignore[union-attr]


def _prefix(doc: DocumentAnalysis, piece: Piece, line: int) -> tuple[str, int]:
    """The game's lines before ``line``, with a ``)`` closing each variation still open at the end (on the last
    line when it is a turn line), and how many were closed: the text of the position the turn on ``line`` is
    played from, which reads even while that line does not."""
    lines = doc.lines[piece.line0:line]
    depth = 0
    for text in lines:
        bare = _ANNOTATIONS.sub("", text)
        depth += bare.count("(") - bare.count(")")  # a purchase opens and closes on its line
    if depth > 0 and lines and label_at(lines[-1]) is not None:
        lines = lines[:-1] + [lines[-1] + " )" * depth]
    else:
        depth = 0
    return "\n".join(lines) + "\n", depth


def _prefix_record(doc: DocumentAnalysis, piece: Piece, line: int, cache: GameCache) -> Record | None:
    return cache.view(_prefix(doc, piece, line)[0]).record


def _variation_path(record: Record, depth: int) -> list[str]:
    """The addresses of the ``depth`` innermost variations open at the end of ``record`` (``I.5(1).``,
    ``I.5(1).I.6(1).``), outermost first: each the last variation of the last turn of the line around it."""
    paths, path, turns = [], "", record.turns
    for _ in range(depth):
        if not turns or not turns[-1].variations:
            break
        turn = turns[-1]
        path += f"{AGE_NUMERALS[turn.age]}.{turn.number}({len(turn.variations)})."
        paths.append(path)
        turns = turn.variations[-1].turns
    return paths


def turn_start(played: Replay, age: int, number: int, paths: list[str] | None = None) -> State | None:
    """The position a turn is played from, or ``None`` if the replay does not reach it: in the innermost of the
    open variations ``paths`` that has it (a variation's first turn is played from the line around it), else on
    the main line."""
    where = f"{AGE_NUMERALS[age]}.{number - 1}"
    for path in reversed(paths or []):
        try:
            state = played.position(path + where)
        except KeyError:
            continue
        if state.age == age and state.turn == number - 1:
            return state
    main = played.positions.get(str(Address(age, number - 1)))
    if main is None or main.age != age or main.turn != number - 1:
        return None
    return main


# --- completion ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Completion:
    """A completion: ``label`` shown, ``text`` inserted over columns ``start``..cursor of the cursor's line,
    ``detail`` beside it (affordability, coins), ``kind`` (``card``, ``keyword``, ``value``, ``tag``, ``seat``,
    ``label``), ``order`` for sorting (affordable plays first)."""

    label: str
    text: str
    start: int
    detail: str = ""
    kind: str = "value"
    order: int = 0
    documentation: str = ""


_TAG_VALUES = {"Format": ("7WN 1", "7WN 2"), "Edition": ("2e",), "Seed": ("SM64-FY ",)}
#: The tag names completions offer, in the order offered (every row of the header-tag table, reserved first in the
#: order they were defined, then the usual free tags); a test checks it against the table.
_OFFERED_TAGS = ("Format", "Edition", "Date", "Guilds", "Seed", "DealI", "DealII", "DealIII", "Expansions") + tuple(
    f"Seat{i}" for i in range(1, 8)) + ("Event", "Site", "Round", "Annotator", "Position")


def _header_completions(doc: DocumentAnalysis, line: int, column: int) -> list[Completion]:
    from ..notation.tags import RESERVED_TAGS

    text = doc.lines[line][:column]
    m = _TAG.match(text)
    if m is None:
        return []
    if m.end() == len(text):  # in the tag name
        start = m.start(1)
        return [Completion(n, n, start, "reserved tag" if n in RESERVED_TAGS else "tag", "tag", k)
                for k, n in enumerate(_OFFERED_TAGS)]
    tag = m.group(1)
    values = [v for v in _STRING.finditer(text, m.end())]
    if not values or values[-1].group(2):  # not inside an open value
        return []
    index = len(values) - 1
    start = values[-1].start() + 1
    cat = _catalog.load()
    if tag.startswith("Seat") and index == 0:
        used = []
        for other in doc.lines:
            s = re.match(r'[ \t]*\[Seat[1-7][ \t]+"((?:[^"\\\n]|\\.)+)"', other)
            if s is not None and s.group(1) not in used:
                used.append(s.group(1))
        return [Completion(n, n, start, "a player of this file", "seat", k) for k, n in enumerate(used)]
    if tag.startswith("Seat") and index == 1:
        return [Completion(n, n, start, "Wonder", "value", k)
                for k, n in enumerate(dict.fromkeys(w.name for w in cat.wonders))]
    if tag.startswith("Seat") and index == 2:
        return [Completion(s, s, start, "Wonder side", "value", k) for k, s in enumerate(("day", "night"))]
    if tag == "Guilds":
        item = values[-1].group(1).rsplit(",", 1)
        item_start = start + (len(item[0]) + 1 if len(item) == 2 else 0)
        while item_start < column and doc.lines[line][item_start] in " \t":
            item_start += 1
        named = {g.strip().casefold() for g in values[-1].group(1).split(",")}
        return [Completion(g.name, g.name, item_start, "guild", "card", k)
                for k, g in enumerate(cat.guilds) if g.name.casefold() not in named or
                g.name.casefold() == item[-1].strip().casefold()]
    return [Completion(v, v, start, f"{tag} value", "value", k) for k, v in enumerate(_TAG_VALUES.get(tag, ()))]


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _how(play_free: str | None, coins: int, bought: str) -> str:
    if play_free:
        return f"affordable: free ({play_free})"
    if bought:
        return f"affordable: buy {bought[1:-1]}, {_coins(coins)} in all"
    return f"affordable: own production{f', {_coins(coins)}' if coins else ''}"


def _play_completions(state: State, ctx: TurnContext, record: Record) -> list[Completion]:
    """The plays of the seat at ``state``: the engine's legal actions (via the recorder's :func:`plays`, which
    fills an unknown hand with the cards the seat may hold), then the cards it may hold but cannot build."""
    from ..engine.rules import pick_options
    from ..recorder.choices import plays, possible_cards

    assert ctx.seat is not None
    seat = ctx.seat
    city = state.cities[seat - 1]
    known = tuple(c for c in state.hands[seat - 1] if c is not None)
    whole = len(known) == len(state.hands[seat - 1])
    out: list[Completion] = []
    offered = plays(state, seat)
    last = ctx.number == 6 and whole and len(known) == 2
    grants_pick = city.stages < len(city.wonder.stages) and any(
        type(e) is _catalog.BuildFromDiscard for e in city.wonder.stages[city.stages].effects)
    pile = []
    if grants_pick:
        from ..engine import Game

        pile = [c.name for c in pick_options(Game(state), seat)]
    built = {(p.use, p.card) for p in offered}
    stages = any(p.use == "stage" and p.card != "?" for p in offered)
    for k, p in enumerate(offered):
        if p.card == "?" and (whole or (p.use == "stage" and not stages)):
            continue  # a hand the record shows names its cards; an unaffordable stage is not offered as ``stage ?``
        clauses = [""]
        if last and p.card != "?":
            rest = list(known)
            rest.remove(next(c for c in known if c.name == p.card))
            clauses = ([""] if p.keeps else []) + [f", discard {rest[0].name}"]
        note = "sale: 3 coins" if p.use == "sell" else _how(
            p.free, p.coins, p.purchases[0].text if p.purchases and p.purchases[0].purchase.left +
            p.purchases[0].purchase.right else "")
        where = "" if whole else " (the hand is not in the record: a card this seat may hold)"
        if p.use == "stage" and pile:
            where += "; this stage builds from the discard pile: ', pick' names the card (R-HALI)"
        for clause in clauses:
            out.append(Completion(p.text + clause, p.text + clause, ctx.start, note + where, "card", k))
        for option in p.purchases[1:]:
            text = f"{p.text} {option.text}"
            out.append(Completion(text, text, ctx.start, f"affordable: buy {option.text[1:-1]}, {_coins(option.coins)} "
                                                        "in all (another cheapest purchase)", "card", k))
    for card in possible_cards(state, seat):
        if ("build", card.name) in built:
            continue
        why = "already built (R-UNIQUE)" if card.name in city.names else "not affordable (R-TRADE)"
        out.append(Completion(card.name, card.name, ctx.start, why, "card", 1000 + len(out)))
    return out


def _clause_completions(state: State, ctx: TurnContext, line_text: str) -> list[Completion]:
    """After a ``,`` of an action: ``pick`` and the cards of the discard pile when the seat's stage builds from it
    (R-HALI), ``discard`` and the last card on turn 6 (R-LAST)."""
    from ..engine import Game
    from ..engine.rules import pick_options

    assert ctx.seat is not None
    comma = ctx.typed.rfind(",")
    start = ctx.start + comma + 1
    while start < len(line_text) and line_text[start] in " \t":
        start += 1
    play = ctx.typed[:comma].strip()
    city = state.cities[ctx.seat - 1]
    out: list[Completion] = []
    grants = city.stages < len(city.wonder.stages) and any(
        type(e) is _catalog.BuildFromDiscard for e in city.wonder.stages[city.stages].effects)
    if play.casefold().startswith("stage") and grants:
        for k, card in enumerate(pick_options(Game(state), ctx.seat)):
            out.append(Completion(f"pick {card.name}", f"pick {card.name}", start,
                                  "a build from the discard pile (R-HALI)", "card", k))
        out.append(Completion("pick -", "pick -", start, "declines the build from the discard pile", "card", 999))
    known = [c for c in state.hands[ctx.seat - 1] if c is not None]
    if ctx.number == 6:
        played = _card_in(play)
        rest = [c for c in known]
        if played is not None and played in rest:
            rest.remove(played)
        for k, card in enumerate(dict.fromkeys(rest)):
            out.append(Completion(f"discard {card.name}", f"discard {card.name}", start,
                                  "the last card of the Age is discarded (R-LAST)", "card", k))
    return out


def completions(doc: DocumentAnalysis, line: int, column: int, cache: GameCache) -> list[Completion]:
    """The completions at ``(line, column)``: header tags and their values; on a turn line, the plays of the seat
    whose action the cursor is in, at the position the turn is played from; at the start of a body line, the next
    turn's label."""
    if not 0 <= line < len(doc.lines):
        return []
    text = doc.lines[line]
    column = min(column, len(text))
    if text.lstrip().startswith("["):
        return _header_completions(doc, line, column)
    piece = doc.piece_at(line)
    if piece is None:
        return []
    prefix, depth = _prefix(doc, piece, line)
    record = cache.view(prefix).record
    played = cache.view(prefix).replay if record is not None else None
    if not text[:column].strip():
        if record is not None and not record.turns and not depth and position_tag(record) is None:
            return [Completion("I.1", "I.1 ", 0, "the first turn", "label")]
        return _label_completion(played, column)
    ctx = turn_context(text, column, record)
    if ctx is None or record is None or played is None:
        return []
    state = turn_start(played, ctx.age, ctx.number, _variation_path(record, depth))
    if state is None and (ctx.age, ctx.number) == (1, 1) and not record.turns and not depth:
        # The engine deals Age I with its first turn: the deal (I.0) is read from the prefix and a first turn of
        # unseen sales, which the position I.0 does not depend on.
        dealt = cache.view(prefix + "I.1 " + " | ".join(["sell ?"] * len(record.seats)) + "\n").replay
        state = turn_start(dealt, 1, 1) if dealt is not None else None
    if state is None:
        return []
    if ctx.seat is None:
        from ..engine import seats_to_act

        return [Completion(f"{record.seats[s - 1].name}: ", f"{record.seats[s - 1].name}: ", ctx.start,
                           "plays the extra turn (R-BABYLON-N1)", "seat", s) for s in seats_to_act(state)]
    if "(" in ctx.typed:
        return []
    if "," in ctx.typed:
        return _clause_completions(state, ctx, line_text=text)
    return _play_completions(state, ctx, record)


def _label_completion(played: Replay | None, column: int) -> list[Completion]:
    if played is None or played.final is None:
        return []
    from ..engine import seats_to_act

    state = played.final
    if state.finished:
        return []
    age, turn = state.age, state.turn
    if state.ended or (turn >= 6 and not seats_to_act(state)):
        age, turn = age + 1, 0
    if age > 3:
        return []
    label = f"{AGE_NUMERALS[age]}.{turn + 1}"
    return [Completion(label, label + " ", 0, "the next turn", "label")]


# --- hover -----------------------------------------------------------------------------------------------------


def _md(text: str) -> str:
    """Record text made inert in Markdown: every punctuation character that Markdown or HTML reads escaped."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>&~\"'])", r"\\\1", text)


def _card_markdown(card: _catalog.Card) -> str:
    effects = "; ".join(_catalog.describe(e) for e in card.effects)
    lines = [f"**{card.name}**: Age {AGE_NUMERALS[card.age]}, {card.colour}",
             "", f"- cost: {card.cost if not card.cost.is_free else 'free'}", f"- effect: {effects}"]
    if card.chain_from:
        lines.append(f"- free if you own: {', '.join(card.chain_from)} (R-CHAIN)")
    if card.chain_to:
        lines.append(f"- makes free: {', '.join(card.chain_to)}")
    if card.is_guild:
        lines.append("- players: a guild; N+2 of the 10 are drawn into the Age III deck")
    else:
        counts = "/".join(str(card.copies_for(n)) for n in range(_catalog.MIN_PLAYERS, _catalog.MAX_PLAYERS + 1))
        lines.append(f"- players: printed {', '.join(f'{m}+' for m in card.copies)}; copies for 3/4/5/6/7 "
                     f"players: {counts}")
    return "\n".join(lines)


def _rule_markdown(rule: str) -> str | None:
    from ..engine import rulebook

    try:
        found = rulebook.lookup(rule)
    except rulebook.UnknownRule:
        return None
    return f"**{found.id}**: {found.title}\n\n{found.summary}\n\n(`wnotation rules {found.id}`)"


def _sheet_markdown(played: Replay, where: str, record: Record) -> str | None:
    try:
        sheet = played.score_at(where)
    except KeyError:
        return None
    rows = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total")
    head = "| seat | " + " | ".join(rows) + " |"
    out = [f"**{where}**: {'provisional ' if sheet.provisional else ''}score sheet after this turn", "", head,
           "|" + "---|" * (len(rows) + 1)]
    for line in sheet.lines:
        name = _md(record.seats[line.seat - 1].name)
        out.append(f"| {name} | " + " | ".join(str(getattr(line, r)) for r in rows) + " |")
    return "\n".join(out)


def _word_at(line: str, column: int) -> tuple[int, int] | None:
    """The run of name words under ``column`` (a card or Wonder name), as columns."""
    if column >= len(line) or not _NAME_CHAR.match(line[column]):
        if column > 0 and column <= len(line) and _NAME_CHAR.match(line[column - 1]):
            column -= 1
        else:
            return None
    start = column
    while start > 0 and (_NAME_CHAR.match(line[start - 1]) or (
            line[start - 1] in " \t" and start > 1 and _NAME_CHAR.match(line[start - 2]))):
        start -= 1
    return start, name_end(line, start)


def _card_in(text: str) -> _catalog.Card | None:
    """The card named by ``text``, a verb or seat prefix allowed before it."""
    cat = _catalog.load()
    words = text.split()
    for k in range(len(words)):  # the label's number, a verb or a seat name may come first
        try:
            return cat.card(" ".join(words[k:]))
        except _catalog.CatalogError:
            continue
    return None


def _wonder_at(text: str, column: int) -> tuple[str, int, int] | None:
    """The Wonder side of a seat tag, when the cursor is on its Wonder or its side: its starting resource and
    each stage's cost and effects, and the columns of the value."""
    values = list(_STRING.finditer(text))
    if len(values) < 3:
        return None
    for value in values[1:3]:
        if value.start() <= column < value.end():
            break
    else:
        return None
    cat = _catalog.load()
    try:
        side = cat.wonder(values[1].group(1), values[2].group(1))
    except (_catalog.CatalogError, KeyError):
        return None
    lines = [f"**{side.name} ({side.side})**: {side.full_name}, starts with {side.resource}", ""]
    for stage in side.stages:
        cost = "free" if stage.cost.is_free else str(stage.cost)
        lines.append(f"- stage {stage.index}: {cost}: {'; '.join(_catalog.describe(e) for e in stage.effects)}")
    return "\n".join(lines), value.start() + 1, value.end() - 1


def hover(doc: DocumentAnalysis, line: int, column: int, found: list[LspDiagnostic]) -> tuple[str, int, int] | None:
    """Markdown for the cursor at ``(line, column)`` and the columns it concerns: the rules of the diagnostics
    there, a card's cost, effect, chains, Age and player counts, or on a turn label the provisional score sheet
    after that turn. ``found`` are the document's diagnostics. ``None`` when there is nothing to say."""
    if not 0 <= line < len(doc.lines):
        return None
    text = doc.lines[line]
    parts: list[str] = []
    span = (column, column)
    for d in found:
        if d.line == line and d.column <= column <= max(d.end_column, d.column + 1):
            rule = _rule_markdown(d.diagnostic.rule)
            if rule is not None and rule not in parts:
                parts.append(rule)
            span = (d.column, d.end_column)
    label = _LABEL.match(text)
    piece = doc.piece_at(line)
    if label is not None and label.start(1) <= column <= label.end() and piece is not None:
        played, record = piece.view.replay, piece.view.record
        where = f"{label.group(1).upper()}.{label.group(2)}"
        sheet = _sheet_markdown(played, where, record) if played is not None and record is not None else None
        if sheet is not None:
            parts.append(sheet)
            span = (label.start(1), label.end())
    elif not text.lstrip().startswith("["):
        word = _word_at(text, column)
        if word is not None:
            card = _card_in(text[word[0]:word[1]])
            if card is not None:
                parts.append(_card_markdown(card))
                span = word
    elif re.match(r"[ \t]*\[Seat[1-7][ \t]", text):
        wonder = _wonder_at(text, column)
        if wonder is not None:
            parts.append(wonder[0])
            span = wonder[1:]
    else:
        word = _word_at(text, column)
        if word is not None and re.match(r'[ \t]*\[Guilds', text):
            card = _card_in(text[word[0]:word[1]])
            if card is not None:
                parts.append(_card_markdown(card))
                span = word
    if not parts:
        return None
    return "\n\n---\n\n".join(parts), span[0], span[1]


# --- code actions ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fix:
    """A code action: its title, its kind (``quickfix`` or ``refactor.rewrite``), the edits it makes, and the
    diagnostic it fixes (``None`` for a rewrite)."""

    title: str
    kind: str
    edits: tuple[Edit, ...]
    diagnostic: LspDiagnostic | None = None


def _is_card(text: str) -> bool:
    try:
        _catalog.load().card_name(text)
    except _catalog.CatalogError:
        return False
    return True


def _is_play(text: str) -> bool:
    """A card, or ``sell``/``stage`` and a card: what an action may say."""
    words = text.split()
    if words and words[0].casefold() in ("sell", "stage"):
        words = words[1:]
    return bool(words) and _is_card(" ".join(words))


def _split_fix(d: LspDiagnostic, written: str) -> Fix | None:
    """Two actions written without the ``|`` between them (``Loom Lumber Yard``), or an action and its clause
    without the ``,`` (``Loom discard Press``): the fix that inserts it, keeping every word."""
    words = written.split()
    for k in range(1, len(words)):
        head, tail = " ".join(words[:k]), " ".join(words[k:])
        if not _is_play(head):
            continue
        clause = re.fullmatch(r"(?i)(discard|pick)[ \t]+(.+)", tail)
        if clause and (_is_card(clause.group(2)) or clause.group(2).strip() in ("?", "-")):
            return Fix(f"insert ',' before '{clause.group(1)}'", "quickfix",
                       (Edit(d.line, d.column, d.line, d.end_column, f"{head}, {tail}"),), d)
        if _is_play(tail):
            return Fix(f"insert '|' between {head} and {tail}", "quickfix",
                       (Edit(d.line, d.column, d.line, d.end_column, f"{head} | {tail}"),), d)
    return None


def _suggestion_fixes(d: LspDiagnostic, text: str) -> list[Fix]:
    diag = d.diagnostic
    written = text[d.column:d.end_column]
    split = _split_fix(d, written) if diag.rule == "unknown-card" else None
    if split is not None:
        return [split]
    if diag.suggestion is None:
        return []
    fix = diag.suggestion
    if len(written.split()) > len(fix.split()):
        return []  # the suggestion would drop words of the record: nothing is offered
    return [Fix(f"replace '{written}' by '{fix}'", "quickfix", (Edit(d.line, d.column, d.line, d.end_column, fix),),
                d)]


def _syntax_fixes(d: LspDiagnostic, text: str) -> list[Fix]:
    diag = d.diagnostic
    if diag.rule != "syntax" or d.column >= len(text):
        return []
    out = []
    rest = text[d.column:]
    before = " " if d.column > 0 and text[d.column - 1] not in " \t" else ""
    if "','" in diag.expected and re.match(r"(?i)(discard|pick)[ \t]", rest):
        out.append(Fix("insert ',' before the clause", "quickfix",
                       (Edit(d.line, d.column, d.line, d.column, f"{before.strip()}, "),), d))
    elif "'|'" in diag.expected and (_NAME_CHAR.match(rest[0]) and rest[0] != "-" or rest[0] == "?"):
        out.append(Fix("insert '|' before the next action", "quickfix",
                       (Edit(d.line, d.column, d.line, d.column, f"{before}| "),), d))
    return out


def _purchase_fixes(doc: DocumentAnalysis, piece: Piece, first: int, last: int) -> list[Fix]:
    """The canonical purchase (R-TRADE-MINIMAL, :func:`~wnotation.formats.canonical.purchase_changes`) of each action on
    lines ``first``..``last`` whose stated purchase the canonical form changes."""
    from ..formats.canonical import purchase_changes
    from ..notation import format_purchase

    record, played = piece.view.record, piece.view.replay
    if record is None or played is None:
        return []
    by_address = {f"{AGE_NUMERALS[t.age]}.{t.number}": t for t in record.turns}
    out = []
    for change in purchase_changes(record, played):
        turn = by_address.get(change.address)
        if turn is None or change.index >= len(turn.actions):
            continue
        action = turn.actions[change.index]
        if action.span is None:
            continue
        line = action.span.line - 1 + piece.line0
        if not first <= line <= last:
            continue
        text = doc.lines[line]
        start = action.span.column - 1
        end = action_end(text, start)
        edit = _purchase_edit(text, line, start, end, None if change.after is None else format_purchase(change.after))
        if edit is not None:
            out.append(Fix(f"canonical purchase of {change.card}: {change.why}", "refactor.rewrite", (edit,)))
    return out


def _purchase_edit(text: str, line: int, start: int, end: int, purchase: str | None) -> Edit | None:
    """The edit that writes ``purchase`` (``None``: no purchase) in the action at ``start``..``end`` of ``text``."""
    k = start
    name_at = None
    while k < end:
        c = text[k]
        if c == "{" or text.startswith("[%", k):
            k = _skip_annotation(text, k)
            continue
        if c == "(":
            close = text.find(")", k)
            if close < 0 or close >= end:
                return None
            if purchase is None:
                j = k
                while j > start and text[j - 1] in " \t":
                    j -= 1
                return Edit(line, j, line, close + 1, "")
            return Edit(line, k, line, close + 1, purchase)
        if c in ",!?" and name_at is not None:
            break
        if name_at is None and _NAME_CHAR.match(c):
            name_at = k
            k = name_end(text, k)
            if text[name_at:k].casefold() in ("sell", "stage") or text[k:k + 1] == ":":
                name_at = None
                k += 1
            continue
        k += 1
    if purchase is None or name_at is None:
        return None
    after = name_end(text, name_at)
    return Edit(line, after, line, after, f" {purchase}")


def code_fixes(doc: DocumentAnalysis, first: int, last: int, found: list[LspDiagnostic]) -> list[Fix]:
    """The code actions for lines ``first``..``last``: each diagnostic's suggestion there as a quick fix (a
    misspelt name replaced, a missing ``|`` or ``,`` inserted; never a fix that drops a word of the record), and
    the canonical purchase of each action whose stated purchase the canonical form changes."""
    out: list[Fix] = []
    for d in found:
        if first <= d.line <= last and d.diagnostic.kind == "notation":
            text = doc.lines[d.line]
            out.extend(_suggestion_fixes(d, text) or _syntax_fixes(d, text))
    for piece in doc.pieces:
        if piece.line0 <= last and first < piece.line0 + piece.lines:
            out.extend(_purchase_fixes(doc, piece, first, last))
    return out


# --- formatting ------------------------------------------------------------------------------------------------


def format_games(doc: DocumentAnalysis, first: int | None = None, last: int | None = None) -> list[Edit]:
    """The edits that make the games overlapping lines ``first``..``last`` (all games without them) canonical
    with the verified canonical writer (:func:`~wnotation.diagnostics.canonical_text`, purchases normalised as
    ``wnotation fmt`` does). A game that does not read, or is canonical already, is left as it is. Raises
    :class:`~wnotation.diagnostics.FormatBug` when the writer's verification fails."""
    from ..diagnostics import canonical_text

    edits = []
    for p in doc.pieces:
        end = p.line0 + p.lines
        if first is not None and last is not None and not (p.line0 <= last and first < end):
            continue
        if p.view.report is None or p.view.record is None:
            continue
        new = canonical_text(p.view.text, purchases=True)
        old = p.view.text if p.view.text.endswith("\n") else p.view.text + "\n"
        if new == old:
            continue
        if not p.view.text.endswith("\n"):  # the last game, without a final line end
            edits.append(Edit(p.line0, 0, len(doc.lines) - 1, len(doc.lines[-1]), new))
        else:
            edits.append(Edit(p.line0, 0, end, 0, new))
    return edits
