"""Document formatting: the edits that make games canonical with the verified canonical writer."""

from __future__ import annotations

from .document import DocumentAnalysis
from .text import Edit


def format_games(doc: DocumentAnalysis, first: int | None = None, last: int | None = None) -> list[Edit]:
    """The edits that make the games overlapping lines ``first``..``last`` (all games without them) canonical
    with the verified canonical writer (:func:`~wnotation.diagnostics.canonical_text`, purchases normalised as
    ``wnotation fmt`` does). A game that does not read, or is canonical already, is left as it is. Raises
    :class:`~wnotation.diagnostics.FormatBug` when the writer's verification fails."""
    from ...diagnostics import canonical_text

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
