"""The root of the library's exception classes, so a caller can catch every wnotation error with one clause.

Imports nothing, so every module (and ``wnotation --version``) can use it without loading the notation.
"""

from __future__ import annotations


class WnotationError(Exception):
    """Any error wnotation raises on purpose. Subclasses keep their other bases (``ValueError``, ...)."""


class InputError(WnotationError):
    """The input was wrong, not wnotation: the CLI shows it as one error and exits 2."""
