"""A Pygments style whose every token class reaches 4.5:1 contrast on its background (WCAG AA for text): the
colours of the viewer's source pane, for the documentation site's code blocks (``pygments_style =
"wnotation.viewer.style.ContrastStyle"``) or any page that shows 7WN, Python or a console session.

Every token inherits a colour from ``Token`` unless it names its own, so no class falls back to a light default.
"""

from __future__ import annotations

# Pygments ships no type information (the lexer module has the same ignores, narrowed to their error codes)
from pygments.style import Style  # type: ignore[import-untyped]
from pygments.token import (  # type: ignore[import-untyped]
    Comment, Error, Generic, Keyword, Name, Number, Operator, Punctuation, String, Text, Token, Whitespace)


class ContrastStyle(Style):  # type: ignore[misc]
    """Light background, dark and saturated inks; each pair checked by tests/test_viewer_lexer.py."""

    name = "wnotation-contrast"
    background_color = "#f8f8f8"
    highlight_color = "#fdf1c7"
    line_number_color = "#5f6368"
    line_number_background_color = "#f8f8f8"

    styles = {
        Token: "#1d1d1f",
        Text: "#1d1d1f",
        Whitespace: "#1d1d1f",
        Comment: "italic #5f6368",
        Comment.Preproc: "noitalic #7a4e12",
        Keyword: "bold #8f3f71",
        Keyword.Constant: "bold #8f3f71",
        Keyword.Type: "bold #31608f",
        Name: "#1d1d1f",
        Name.Label: "bold #7a4e12",
        Name.Entity: "#1b5e20",  # card names in 7WN
        Name.Tag: "#1b5e20",
        Name.Builtin: "#0b6e4f",
        Name.Function: "#0b5394",
        Name.Class: "bold #0b5394",
        Name.Namespace: "#0b5394",
        Name.Decorator: "#31608f",
        Name.Attribute: "#31608f",
        Name.Variable: "#6a3d9a",
        Name.Exception: "bold #b3261e",
        String: "#a33c00",
        String.Doc: "italic #5f6368",
        String.Escape: "bold #7a4e12",
        Number: "#0b5394",
        Operator: "#b3261e",
        Operator.Word: "bold #8f3f71",
        Punctuation: "#1d1d1f",
        Generic.Heading: "bold #1d1d1f",
        Generic.Subheading: "bold #5c3d0c",
        Generic.Deleted: "#b3261e",
        Generic.Inserted: "#1b5e20",
        Generic.Error: "#b3261e",
        Generic.Emph: "italic",
        Generic.Strong: "bold",
        Generic.Prompt: "bold #5c3d0c",
        Generic.Output: "#3c4043",
        Generic.Traceback: "#b3261e",
        Error: "#8c1d18 bg:#fde7e5",
    }
