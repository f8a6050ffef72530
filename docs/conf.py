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


def setup(app):
    """The project's own Pygments lexer for 7WN blocks (the package also registers it as an entry point)."""
    app.add_lexer("7wn", SevenWNLexer)
