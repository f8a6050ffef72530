"""One self-contained HTML page per game: the viewer's CSS and script inline, the game's data as JSON.

The page makes no request: its Content-Security-Policy allows only its own inline style and script (by SHA-256
hash) and ``data:`` images, and it references nothing outside itself. Record text reaches the page only as JSON
(escaped so it cannot end its ``<script>`` element) or as escaped element text. Same input, same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from importlib import resources
from typing import Any

from ..engine import Replay
from ..model.record import Record
from .data import game_data
from .lexer import tokens

#: Characters that could end or change a ``<script>`` element, or a JavaScript string, if left as they are.
_JSON_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_JSON_UNSAFE_RE = re.compile("[<>&\u2028\u2029]")
_FILE_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def asset(name: str) -> str:
    """The text of one of the viewer's assets (``viewer.css``, ``viewer.js``, ``index.css``), shipped in the
    package."""
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """``data`` as JSON safe inside ``<script type="application/json">``: ASCII only (so lone surrogates and
    U+2028/U+2029 are escapes), and ``<``, ``>``, ``&`` written as ``\\u`` escapes, so neither ``</script>`` nor
    ``<!--`` can appear. ``JSON.parse`` reads back the same value."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return _JSON_UNSAFE_RE.sub(lambda m: _JSON_UNSAFE[m.group()], text)


_DATA_RE = re.compile(r'<script type="application/json" id="wn-data">([^<]*)</script>')


def page_data(document_text: str) -> dict[str, Any]:
    """The game data embedded in a viewer page (what :func:`wnotation.viewer.game_data` gave, plus the
    ``download`` name and the source's ``tokens``): to read a shared page back, e.g. its ``source``. Raises
    ``ValueError`` for a text that is not a viewer page."""
    m = _DATA_RE.search(document_text)
    if m is None:
        raise ValueError("not a wnotation viewer page: no embedded game data")
    data: dict[str, Any] = json.loads(m.group(1))
    if "source" not in data:
        data["source"] = "".join(value for _, value in data["tokens"])
    return data


def text(value: str) -> str:
    """``value`` as HTML element text or a double-quoted attribute value: ``& < > " '`` escaped, and what HTML
    text may not hold (C0 controls but white space, DEL) or UTF-8 cannot encode (a lone surrogate of a hand-built
    Record) replaced by U+FFFD, as a browser would show it."""
    return html.escape(_NOT_TEXT.sub("\ufffd", value), quote=True)


def csp_hash(block: str) -> str:
    """The CSP source expression allowing exactly this inline ``<script>`` or ``<style>`` text."""
    digest = hashlib.sha256(block.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def csp(scripts: tuple[str, ...], styles: tuple[str, ...]) -> str:
    """A policy under which the page can make no request: nothing by default, its own blocks by hash, ``data:``
    images at most, no base URL, no form target."""
    script_src = " ".join(csp_hash(s) for s in scripts) or "'none'"
    style_src = " ".join(csp_hash(s) for s in styles) or "'none'"
    return (f"default-src 'none'; script-src {script_src}; style-src {style_src}; img-src data:; "
            "base-uri 'none'; form-action 'none'")


def file_name(name: str, default: str = "game") -> str:
    """A safe file name from ``name`` (letters, digits, ``.``, ``_``, ``-``; no leading dot), or ``default``."""
    cleaned = _FILE_NAME_UNSAFE.sub("-", name).strip(".-")[:120]
    return cleaned or default


def document(title: str, body: str, *, script: str | None = None, style: str, lang: str = "en") -> str:
    """A whole HTML document around ``body`` (already escaped markup) with its policy, style and script."""
    policy = csp((script,) if script is not None else (), (style,))
    tail = f"<script>{script}</script>\n" if script is not None else ""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{text(policy)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{text(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n{body}{tail}</body>\n</html>\n"
    )


def _without_script(data: dict[str, Any], source: str) -> str:
    """What the page shows before (or without) its script: the players with their Wonders, the final score sheet
    and the record's 7WN text, all escaped element text. The script hides the first part and redraws the text
    as coloured tokens."""
    seats = "".join(f"<li>{text(s['name'])}: {text(s['wonder'])} {text(s['side'])}</li>" for s in data["seats"])
    parts = [f'<section id="static" class="static" aria-labelledby="static-h"><h2 id="static-h">Players</h2>'
             f"<ol>{seats}</ol>"]
    final = data["final"]
    if final is not None:
        head = "".join(f'<th scope="col">{text(s["name"])}</th>' for s in data["seats"])
        rows = "".join(f'<tr><th scope="row">{text(row)}</th>'
                       + "".join(f"<td>{text(str(line[row]))}</td>" for line in final["seats"]) + "</tr>"
                       for row in data["rows"])
        winners = " and ".join(text(w) for w in final["winners"])
        label = "Shared victory" if len(final["winners"]) > 1 else "Winner"
        parts.append(f'<h2>Final score sheet</h2><p>{label}: {winners}</p>'
                     f'<table class="sheet"><thead><tr><td></td>{head}</tr></thead><tbody>{rows}</tbody></table>')
        parts.extend(f"<p>{text(x)}</p>" for x in final["tie_break"])
    parts.append("<noscript><p>Stepping through the positions needs JavaScript; the players, the final sheet and "
                 "the 7WN text below are the page's own.</p></noscript></section>\n")
    parts.append('<section class="source" aria-labelledby="source-h"><details open><summary id="source-h">7WN source'
                 f'</summary><pre id="source" class="src">{text(source)}</pre></details></section>\n')
    return "".join(parts)


def page(record: Record, replay: Replay, *, view_seat: int | None = None, source: str | None = None,
         line0: int = 0, download_name: str = "game.7wn", keep_comments: bool = False,
         back: str | None = None) -> str:
    """The viewer page of one game: a fresh string, the same for the same input. ``replay`` must be the replay of
    ``record``; ``view_seat`` (1-based) shows only what that seat could see; ``source`` is the 7WN text the
    "download" button saves and the source pane shows, coloured by the 7WN lexer (default: the record's canonical
    text; ``line0``: the lines of the file before it, so findings name lines of ``source``; with ``view_seat``
    always the canonical text of what the seat saw, since the file would tell the hidden cards); ``download_name``
    its file name (made safe; a seat's view adds ``-seen-by-NAME``, so the file says whose view it is). A seat's
    view leaves out the annotator's comments and glyphs unless ``keep_comments`` (then the page says they may
    reveal what the seat did not see). ``back``: a club site's name, for a link back to its ``index.html``.
    Cost: :func:`wnotation.viewer.game_data`'s, one score sheet per position. Raises ``ValueError`` for a
    ``view_seat`` not at the table."""
    data = game_data(record, replay, view_seat=view_seat, source=source, line0=line0, keep_comments=keep_comments)
    stem = download_name.removesuffix(".7wn")
    if data["view"]:
        stem += "-seen-by-" + data["view"]["name"]
    data["download"] = file_name(stem) + ".7wn"
    source_text = data.pop("source")
    data["tokens"] = tokens(source_text)  # the tokens' texts joined are the source
    skeleton = asset("viewer.html")
    if back is not None:
        skeleton = f'<p class="back"><a href="index.html">\u2190 {text(back)}</a></p>\n' + skeleton
    body = (skeleton + _without_script(data, source_text)
            + f'<script type="application/json" id="wn-data">{script_json(data)}</script>\n')
    title = data["title"] + (f" (as seen by {data['view']['name']})" if data["view"] else "")
    script, style = asset("viewer.js"), asset("viewer.css")
    if "wins" in data:  # the record's computed analysis (wins.py): its graph's script and style, after the viewer's
        script, style = script + asset("wins.js"), style + asset("wins.css")
    return document(title, body, script=script, style=style)
