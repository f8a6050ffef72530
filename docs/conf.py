"""Sphinx configuration of wnotation's documentation site (docs/, MyST Markdown, the furo theme).

Build it as CI does, warnings as errors (``pip install -e '.[docs]'`` first):
``python3 -m sphinx -W --keep-going -b html -d docs/_build/doctrees docs docs/_build/html``. The result is a
plain directory of HTML, CSS and JavaScript that makes no network request: a club can publish it as it is. The
specs and the casebook README are included, not copied (docs/spec/, written at build time); the rules page and
the casebook are generated from the rule registry and spec/cases/ (_ext/wnotation_docs.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))  # the source tree's wnotation, whatever is installed

import wnotation  # noqa: E402
from wnotation.viewer.lexer import SevenWNLexer  # noqa: E402

project = "wnotation"
author = "the wnotation authors"
copyright = "2026, the wnotation authors"  # noqa: A001 (Sphinx's name)
release = version = wnotation.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "wnotation_docs"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]  # the spec's sections start at level 2 inside an included page

html_theme = "furo"
html_title = "wnotation"
html_static_path = ["_static"]
html_css_files = ["print.css"]  # the cheat sheet on one sheet of paper, the navigation left out
html_show_sourcelink = False
html_copy_source = False

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}

highlight_language = "none"
pygments_style = "wnotation.viewer.style.ContrastStyle"  # 4.5:1 for every token (tests/test_viewer_lexer.py)


def write_samples(app, exception):
    """What the docs show of sharing, built with the code it documents into the site's ``samples/``: a live
    viewer page of the 3-player sample game, the club site of ``replays/`` and its SVG score sheet
    (howto/share.md links them)."""
    if exception is not None or app.builder.format != "html":
        return
    from wnotation.engine import replay
    from wnotation.notation import read_games
    from wnotation.viewer import build_site, page, sheet_svg

    out = Path(app.outdir) / "samples"
    out.mkdir(parents=True, exist_ok=True)
    source = DOCS.parent / "replays" / "3p-babylon-halikarnassos-olympia.7wn"
    record = next(iter(read_games(source)))
    played = replay(record)
    text = source.read_text(encoding="utf-8")
    (out / "game.html").write_text(page(record, played, source=text, download_name=source.stem), encoding="utf-8")
    (out / "sheet.svg").write_text(sheet_svg(played), encoding="utf-8")
    build_site([DOCS.parent / "replays"], out / "club", club="Sample club")


def setup(app):
    """The project's own Pygments lexer for 7WN blocks (the package also registers it as an entry point), and
    the samples of howto/share.md written after the build."""
    app.add_lexer("7wn", SevenWNLexer)
    app.connect("build-finished", write_samples)
