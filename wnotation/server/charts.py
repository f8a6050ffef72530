"""Horizontal bar charts of the ``stats`` answers, as SVG inlined in the server's pages.

Shapes and text only, colours as attributes (no style, no script, no link), every label escaped with the
viewer's :func:`~wnotation.viewer.svg.xml_text` (which also drops what XML cannot hold and the bidi controls),
so record text (a Wonder, a player, an event) stays text. Deterministic: the same rows give the same bytes.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..viewer.svg import FONT, xml_text

#: How many rows a chart draws at most (the table beside it has them all).
MAX_BARS = 30
BAR_COLOUR = "#2f6fb5"
#: Sizes in px: a chart is 360 wide, so that it fits a phone (390 CSS px less the page's padding).
_LABEL_WIDTH, _BAR_WIDTH, _ROW, _TOP = 150, 160, 20, 26


def _label(values: Sequence[Any], most: int = 22) -> str:
    shown = " ".join(str(v) for v in values if v is not None and str(v) != "")
    return shown if len(shown) <= most else shown[:most - 1] + "\u2026"


def _number(value: float, rate: bool) -> str:
    return f"{value * 100:.1f}%" if rate else f"{value:g}"


def bar_chart(title: str, rows: Sequence[tuple[Sequence[Any], float | None]], *, rate: bool = False) -> str:
    """An SVG chart titled ``title`` with a bar per ``(label values, value)`` (the first :data:`MAX_BARS`; a
    ``None`` value draws no bar); ``rate``: the values are fractions, shown as percentages on a 0-100% scale."""
    drawn = list(rows[:MAX_BARS])
    values = [float(v) for _, v in drawn if v is not None]
    top = 1.0 if rate else max([abs(v) for v in values] + [1e-9])
    height = _TOP + _ROW * len(drawn) + 8
    width = _LABEL_WIDTH + _BAR_WIDTH + 50
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{xml_text(title)}" font-family="{FONT}" '
             f'font-size="12"><title>{xml_text(title)}</title>',
             f'<text x="0" y="16" font-weight="bold">{xml_text(_label([title], 50))}</text>']
    for k, (label, value) in enumerate(drawn):
        y = _TOP + _ROW * k
        parts.append(f'<text x="{_LABEL_WIDTH - 6}" y="{y + 14}" text-anchor="end">{xml_text(_label(label))}</text>')
        if value is None:
            parts.append(f'<text x="{_LABEL_WIDTH}" y="{y + 14}" fill="#5f6368">none</text>')
            continue
        length = round(_BAR_WIDTH * min(abs(float(value)) / top, 1.0), 1)
        parts.append(f'<rect x="{_LABEL_WIDTH}" y="{y + 3}" width="{length}" height="{_ROW - 6}" '
                     f'fill="{BAR_COLOUR}"/>')
        parts.append(f'<text x="{_LABEL_WIDTH + length + 4}" y="{y + 14}">{_number(float(value), rate)}</text>')
    parts.append("</svg>")
    return "".join(parts)
