"""The 7WN language server (``wnotation lsp``): diagnostics as you type, completion from the rules, hover, code
actions, formatting, the outline and folding, for every editor that speaks the Language Server Protocol.

Two parts: :mod:`.analysis` (a package, one module per question: the document and its checks, outline, cursor,
completion, hover, code actions, formatting) answers each question on a document's text with plain values and never
imports pygls (the benchmark and the unit tests use it directly); :mod:`.server` wires those answers to the protocol
with pygls (the optional ``[lsp]`` extra). Non-goals: no rule is decided here (the engine and the diagnostics layer
decide; this package only places their answers in the editor), and nothing is written to disk.
"""

from __future__ import annotations

__all__ = ["PYGLS_MISSING", "pygls_available"]

#: What ``wnotation lsp`` says when pygls is not installed.
PYGLS_MISSING = ("the language server needs pygls, which the core install leaves out: "
                 "pip install 'wnotation[lsp]' (or pip install 'pygls>=2,<3')")


def pygls_available() -> bool:
    """True when pygls 2 (and so lsprotocol) can be imported."""
    try:
        import pygls.lsp.server  # noqa: F401
    except ImportError:
        return False
    return True
