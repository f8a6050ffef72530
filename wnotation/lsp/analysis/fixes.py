"""Code actions: quick fixes from the diagnostics' suggestions (a misspelt name, a missing ``|`` or ``,``; never one
that drops a word of the record) and the canonical purchase of an action as a rewrite."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model import catalog as _catalog
from ...model.vocabulary import AGE_NUMERALS
from .document import DocumentAnalysis, LspDiagnostic, Piece
from .text import NAME_CHAR, Edit, action_end, name_end, skip_annotation


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
    elif "'|'" in diag.expected and (NAME_CHAR.match(rest[0]) and rest[0] != "-" or rest[0] == "?"):
        out.append(Fix("insert '|' before the next action", "quickfix",
                       (Edit(d.line, d.column, d.line, d.column, f"{before}| "),), d))
    return out


def _purchase_fixes(doc: DocumentAnalysis, piece: Piece, first: int, last: int) -> list[Fix]:
    """The canonical purchase (R-TRADE-MINIMAL, :func:`~wnotation.formats.canonical.purchase_changes`) of each action on
    lines ``first``..``last`` whose stated purchase the canonical form changes."""
    from ...formats.canonical import purchase_changes
    from ...notation import format_purchase

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
            k = skip_annotation(text, k)
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
        if name_at is None and NAME_CHAR.match(c):
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
