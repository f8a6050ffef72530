"""Score sheets and points-by-Age charts as standalone SVG pictures, for chats and forums.

Deterministic text (same replay, same bytes), laid out like the score pad: a column per seat, a row per category.
Record text (seat names, the title) is escaped and stripped of what XML cannot hold; the pictures hold no
script, no external reference, no ``foreignObject`` and no style sheet (colours are attributes).
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any, Sequence
from xml.sax.saxutils import escape

from ..engine import Replay
from ..model.record import Record
from ..formats.render import describe_address, score_data, score_rows
from .data import points_by_age, tie_break

#: The score pad's colour per row (category bands), the total, coins and rank plain.
ROW_COLOURS = {"military": "#c62828", "treasury": "#e8b90c", "wonder": "#8d8478", "civilian": "#2f6fb5",
               "commercial": "#d39e00", "guilds": "#6a3d9a", "science": "#2e7d32",
               "cities": "#26282b", "leaders": "#d8d2c4", "armada": "#1f5fa8", "edifice": "#8a6d4b"}
AGE_COLOURS = ("#c9a227", "#9c6b30", "#5b3f8c")
FONT = "DejaVu Sans, Verdana, sans-serif"

# C0 controls but tab and line ends, lone surrogates and U+FFFE/U+FFFF cannot appear in XML, even escaped; the
# bidirectional formatting characters could reorder the picture's text: both are dropped from record text.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff\u202a-\u202e\u2066-\u2069]")


def xml_text(value: str) -> str:
    """``value`` as XML character data or a double-quoted attribute value."""
    return escape(_NOT_XML.sub("", value), {'"': "&quot;"})


def _short(name: str, width: int) -> str:
    name = " ".join(_NOT_XML.sub("", name).split())
    return name if len(name) <= width else name[: width - 1] + "\u2026"


def _svg(width: int, height: int, label: str, body: Sequence[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{xml_text(label)}" font-family="{FONT}">\n'
            f"<title>{xml_text(label)}</title>\n" + "".join(body) + "</svg>\n")


def _where(replay: Replay, at: str | None) -> str:
    if at is None:
        if replay.final is None:
            raise KeyError("the record plays no turn: there is no position to score")
        return replay.addresses[-1]
    replay.position(at)  # KeyError naming the addresses that exist
    return at


def sheet_svg(replay: Replay, at: str | None = None, *, title: str | None = None,
              record: Record | None = None) -> str:
    """The score sheet at ``at`` (default: the last position, the final sheet of a finished game) as an SVG
    picture: a column per seat headed by its name and Wonder, the seven categories, the total, coins and rank,
    the winners marked and a line on how a tie on points was broken (R-WIN). A sheet before the end says it is
    provisional. A score-pad record (no positions, R-SCORE-EXP rows included) is drawn from its final sheet and
    ``record``'s seats. Raises ``KeyError`` for an unknown address or a replay without positions or such a sheet."""
    if replay.final is None and at is None and replay.scores is not None and record is not None:
        where, sheet = "III.end", replay.scores
        names = tuple(s.name for s in record.seats)
        wonders: Sequence[Any] = tuple(SimpleNamespace(name=s.wonder, side=s.side) for s in record.seats)
    else:
        where = _where(replay, at)
        state = replay.position(where)
        sheet = replay.score_at(where)
        names, wonders = state.table.names, state.table.wonders
    n = len(names)
    label_w, col_w, row_h, top = 120, 104, 24, 78
    width = label_w + col_w * n + 16
    rows = ("wonder board",) + score_rows(sheet)
    ties = tie_break(names, sheet)
    height = top + row_h * len(rows) + 40 + 18 * len(ties)
    final = not sheet.provisional
    heading, _, subtitle = (title or ("Score sheet" if final else f"Provisional score sheet at {where}")).partition("\n")
    caption = (f"{heading} ({'final' if final else describe_address(where) + ', as if the game ended here'})")
    body = [f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fbfaf7"/>\n',
            f'<text x="12" y="24" font-size="16" font-weight="bold" fill="#1d1d1f">'
            f"{xml_text(_short(heading, max(30, (width - 24) // 10)))}"
            "</text>\n",
            '<text x="12" y="44" font-size="12" fill="#5f6368">'
            + (xml_text(_short(subtitle, max(30, (width - 24) // 7))) + " \u00b7 " if subtitle else "")
            + f"{'Final' if final else 'Provisional: ' + xml_text(describe_address(where))}</text>\n"]
    for k, name in enumerate(names):
        x = label_w + col_w * k
        body.append(f'<g><title>{xml_text(name)}</title><text x="{x + col_w // 2}" y="{top - 10}" font-size="13" '
                    f'font-weight="bold" text-anchor="middle" fill="#1d1d1f">{xml_text(_short(name, 13))}</text></g>\n')
    for r, row in enumerate(rows):
        y = top + row_h * r
        fill = "#ffffff" if r % 2 else "#f4f1ea"
        body.append(f'<rect x="8" y="{y}" width="{width - 16}" height="{row_h}" fill="{fill}" stroke="#d0d4d9"/>\n')
        if row in ROW_COLOURS:
            body.append(f'<rect x="8" y="{y}" width="6" height="{row_h}" fill="{ROW_COLOURS[row]}"/>\n')
        weight = ' font-weight="bold"' if row == "total" else ""
        body.append(f'<text x="20" y="{y + 16}" font-size="12"{weight} fill="#1d1d1f">{row}</text>\n')
        for k, line in enumerate(sheet.lines):
            cx = label_w + col_w * k + col_w // 2
            if row == "wonder board":
                value = f"{wonders[k].name} {wonders[k].side}"
                body.append(f'<text x="{cx}" y="{y + 16}" font-size="11" text-anchor="middle" fill="#5f6368">'
                            f"{xml_text(value)}</text>\n")
                continue
            value = "" if getattr(line, row) is None else getattr(line, row)
            if row == "total" and line.rank == 1:
                body.append(f'<rect x="{cx - col_w // 2 + 2}" y="{y + 2}" width="{col_w - 4}" height="{row_h - 4}" '
                            'fill="#fdf1c7"/>\n')
            body.append(f'<text x="{cx}" y="{y + 16}" font-size="12"{weight} text-anchor="middle" '
                        f'fill="#1d1d1f">{value}</text>\n')
    y = top + row_h * len(rows) + 22
    winners = [names[s - 1] for s in sheet.winners()]
    lead = ("Shared first place: " if len(winners) > 1 else ("Winner: " if final else "Leading: ")) + ", ".join(winners)
    body.append(f'<text x="12" y="{y}" font-size="13" fill="#1d1d1f">{xml_text(_short(lead, 110))}</text>\n')
    for k, sentence in enumerate(ties):
        body.append(f'<text x="12" y="{y + 18 * (k + 1)}" font-size="12" fill="#5f6368">'
                    f"{xml_text(_short(sentence, 130))}</text>\n")
    return _svg(width, height, caption, body)


def chart_svg(replay: Replay, at: str | None = None, *, title: str | None = None) -> str:
    """Points earned in each Age per seat, as of ``at`` (default: the last position), as an SVG bar chart:
    three bars per seat (Ages I, II, III) from a zero line, negative ones to its left, each labelled with its
    value. Raises ``KeyError`` for an unknown address or a replay without positions."""
    where = _where(replay, at)
    names = replay.position(where).table.names
    rows = points_by_age(replay, where)
    width, left, right, bar, gap = 520, 130, 40, 12, 12
    height = 60 + len(rows) * (3 * bar + gap) + 8
    lo = min(0, *(v for r in rows for v in r))
    hi = max(1, *(v for r in rows for v in r))
    scale = (width - left - right) / (hi - lo)
    zero = left - lo * scale
    heading = " \u00b7 ".join((title or f"Points by Age at {where}").split("\n"))
    body = [f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fbfaf7"/>\n',
            f'<text x="12" y="22" font-size="15" font-weight="bold" fill="#1d1d1f">'
            f"{xml_text(_short(heading, max(30, (width - 24) // 10)))}"
            "</text>\n"]
    for k, age in enumerate(("Age I", "Age II", "Age III")):
        x = left + 80 * k
        body.append(f'<rect x="{x}" y="32" width="12" height="10" fill="{AGE_COLOURS[k]}"/>'
                    f'<text x="{x + 16}" y="41" font-size="11" fill="#1d1d1f">{age}</text>\n')
    for i, r in enumerate(rows):
        y = 52 + i * (3 * bar + gap)
        body.append(f'<g><title>{xml_text(names[i])}</title><text x="{left - 8}" y="{y + 2 * bar}" font-size="12" '
                    f'text-anchor="end" fill="#1d1d1f">{xml_text(_short(names[i], 16))}</text></g>\n')
        for k, v in enumerate(r):
            bar_x = zero + v * scale if v < 0 else zero
            w = max(abs(v) * scale, 0.5)
            body.append(f'<rect x="{bar_x:.1f}" y="{y + k * bar}" width="{w:.1f}" height="{bar - 2}" '
                        f'fill="{AGE_COLOURS[k]}"/>\n')
            if v:
                body.append(f'<text x="{zero + max(v, 0) * scale + 4:.1f}" y="{y + k * bar + bar - 3}" '
                            f'font-size="10" fill="#1d1d1f">{v}</text>\n')
    body.append(f'<line x1="{zero:.1f}" x2="{zero:.1f}" y1="48" y2="{height - 6}" stroke="#777"/>\n')
    return _svg(width, height, heading, body)


def picture_title(record: Record, replay: Replay) -> str:
    """The title line a shared picture carries: the winner (or the shared victory) once the game is scored, the
    event (if any), date and players on a line of their own: ``"Winner: Grace\\nSeven-player marathon, 2026.11.07:
    Elif, …"`` (:func:`sheet_svg` draws the second line under the first; :func:`chart_svg` joins them with ``·``)."""
    from .data import game_title

    title = game_title(record)
    if replay.scores is not None:  # the winner first: a long line is shortened at its end, the list of players
        winners = score_data(record, replay.scores)["winners"]
        title = ("Shared victory: " if len(winners) > 1 else "Winner: ") + " and ".join(winners) + "\n" + title
    return title


def to_png(svg: str, *, zoom: float = 2.0) -> bytes:
    """``svg`` (one of this module's pictures) rasterised to PNG bytes at ``zoom`` times its size, by resvg (the
    ``png`` extra: ``pip install 'wnotation[png]'``), with the system's fonts and no network: the pictures
    reference nothing outside themselves. Raises ``ImportError`` when resvg-py is not installed."""
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom, background="#fbfaf7"))
