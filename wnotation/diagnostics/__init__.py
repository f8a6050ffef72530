"""Checking records: each game read, replayed and verified, every problem turned into a compiler-style diagnostic.

The package, in the order a check runs:

- :mod:`.inputs`: files and standard input read as strict UTF-8, normalised as the reader sees them, and cut into
  pieces of whole games (so that worker processes check pieces with the file's own line numbers);
- :mod:`.pipeline`: each game read, replayed and its findings placed at their source spans (:func:`check`,
  :func:`check_text`, :func:`check_piece`, :func:`iter_check`);
- :mod:`.report`: the report types (:class:`Diagnostic`, :class:`GameReport`, :class:`FileReport`,
  :class:`CheckReport`, :class:`CheckTally`), their plain data for JSON, and :func:`render`, the one
  compiler-style rendering of every diagnostic (``file:12:5: error[R-TRADE]: …`` plus the line and a caret);
  :mod:`.jsonreport` streams a check's JSON report without holding it;
- :mod:`.formatting`: the canonical text of a file, verified (:func:`canonical_text`, :class:`FormatBug`).

Checking many inputs in worker processes is :func:`wnotation.diagnostics.batch.check_many`. Non-goals: nothing here decides
legality (the engine does) or prints (the CLI does).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below load on first use: batch workers and the CLI's shell import this package
    from .formatting import FormatBug, canonical_text
    from .inputs import (
        BLOCK, file_lines, game_pieces, iter_lines, iter_pieces, normalise, read_text, scan_file, source_lines, stdin_text,
        unreadable_reason,
    )
    from .pipeline import (
        check, check_file, check_piece, check_pieces, check_record, check_text, diagnostics_of, is_check_only, iter_check,
    )
    from .report import (
        NO_GAME_RULE, SEVERITIES, CheckReport, CheckTally, Diagnostic, FileReport, GameReport, Severity, no_game_remark,
        render,
    )

__all__ = ["BLOCK", "NO_GAME_RULE", "SEVERITIES", "CheckReport", "CheckTally", "Diagnostic", "FileReport",
           "FormatBug", "GameReport", "Severity", "canonical_text", "check", "check_file", "check_piece",
           "check_pieces", "check_record", "check_text", "diagnostics_of", "file_lines", "game_pieces", "is_check_only",
           "iter_check", "iter_lines", "iter_pieces", "no_game_remark", "normalise", "read_text", "render",
           "scan_file", "source_lines", "stdin_text", "unreadable_reason"]

#: Where each name of ``__all__`` lives: a module is imported when one of its names is first asked for (:pep:`562`),
#: so that ``diagnostics.batch`` (which the CLI imports for every command) does not load the reader and the engine.
_HOME = {
    "FormatBug": "formatting", "canonical_text": "formatting", "BLOCK": "inputs", "file_lines": "inputs",
    "game_pieces": "inputs", "iter_lines": "inputs", "iter_pieces": "inputs", "normalise": "inputs", "read_text":
    "inputs", "scan_file": "inputs", "source_lines": "inputs", "stdin_text": "inputs", "unreadable_reason":
    "inputs", "check": "pipeline", "check_file": "pipeline", "check_piece": "pipeline", "check_pieces":
    "pipeline", "check_record": "pipeline", "check_text": "pipeline", "diagnostics_of": "pipeline",
    "is_check_only": "pipeline", "iter_check": "pipeline", "NO_GAME_RULE": "report", "SEVERITIES": "report",
    "CheckReport": "report", "CheckTally": "report", "Diagnostic": "report", "FileReport": "report", "GameReport":
    "report", "Severity": "report", "no_game_remark": "report", "render": "report",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))
