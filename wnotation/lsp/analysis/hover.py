"""Hovers: the rules of the diagnostics under the cursor, a card's or a Wonder side's text, the score sheet after a
turn. Record text shown in Markdown is made inert first."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...model import catalog as _catalog
from ...model.record import Record
from ...model.vocabulary import AGE_NUMERALS
from .document import DocumentAnalysis, LspDiagnostic
from .text import LABEL, NAME_CHAR, STRING, card_in, name_end

if TYPE_CHECKING:
    from ...engine import Replay


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
    from ...engine import rulebook

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
    if column >= len(line) or not NAME_CHAR.match(line[column]):
        if column > 0 and column <= len(line) and NAME_CHAR.match(line[column - 1]):
            column -= 1
        else:
            return None
    start = column
    while start > 0 and (NAME_CHAR.match(line[start - 1]) or (
            line[start - 1] in " \t" and start > 1 and NAME_CHAR.match(line[start - 2]))):
        start -= 1
    return start, name_end(line, start)


def _wonder_at(text: str, column: int) -> tuple[str, int, int] | None:
    """The Wonder side of a seat tag, when the cursor is on its Wonder or its side: its starting resource and
    each stage's cost and effects, and the columns of the value."""
    values = list(STRING.finditer(text))
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
    label = LABEL.match(text)
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
            card = card_in(text[word[0]:word[1]])
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
            card = card_in(text[word[0]:word[1]])
            if card is not None:
                parts.append(_card_markdown(card))
                span = word
    if not parts:
        return None
    return "\n\n---\n\n".join(parts), span[0], span[1]
