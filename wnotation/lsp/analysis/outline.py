"""The outline of a document (games, Ages, turns, variations) and its folding ranges."""

from __future__ import annotations

from dataclasses import dataclass

from ...model.record import Turn, Variation
from ...model.vocabulary import AGE_NUMERALS
from .document import DocumentAnalysis


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
    from ...viewer.lexer import SevenWNLexer
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
