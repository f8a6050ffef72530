"""One exception base: a caller catches every wnotation error with ``except WnotationError`` (issue 30 item 7),
while each class keeps its name, import path and other bases, so no existing ``except ValueError`` breaks."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

import wnotation
from wnotation.archive.store import ArchiveError
from wnotation.formats.bgstats import BGStatsError
from wnotation.model.catalog import CatalogError
from wnotation.engine.errors import IntegrityError
from wnotation.engine.rulebook import UnknownRule
from wnotation.conformance.answer import RequestError
from wnotation.conformance.runner import AdapterBroken
from wnotation.diagnostics.formatting import FormatBug
from wnotation.errors import InputError, WnotationError
from wnotation.notation.errors import NotationError, NotationSyntaxError
from wnotation.model.position_values import PositionError
from wnotation.recorder.choices import EntryError
from wnotation.recorder.header import HeaderError
from wnotation.server.recording import RecordingError
from wnotation.server.upload import UploadRefused

#: class → the base it had before the common base, which it must keep.
OLD_BASES: dict[type[Exception], type[Exception]] = {
    ArchiveError: Exception, BGStatsError: ValueError, CatalogError: ValueError, RequestError: ValueError,
    AdapterBroken: RuntimeError, FormatBug: RuntimeError, NotationError: ValueError, PositionError: ValueError,
    EntryError: ValueError, HeaderError: ValueError, IntegrityError: RuntimeError, UnknownRule: KeyError,
    UploadRefused: ValueError, RecordingError: ValueError,
}


@pytest.mark.parametrize("cls", list(OLD_BASES), ids=lambda cls: cls.__name__)
def test_every_error_has_the_base_and_keeps_its_old_one(cls: type[Exception]) -> None:
    assert issubclass(cls, WnotationError)
    assert issubclass(cls, OLD_BASES[cls])


def test_the_base_is_exported_from_the_package() -> None:
    assert wnotation.WnotationError is WnotationError
    assert "WnotationError" in wnotation.__all__


def test_only_input_errors_are_user_errors() -> None:
    """The CLI's exit 2 covers bad input, never a bug of wnotation (FormatBug stays an internal error)."""
    from wnotation.cli.errors import user_errors

    assert issubclass(NotationSyntaxError, user_errors()) and issubclass(CatalogError, user_errors())
    assert not issubclass(FormatBug, user_errors()) and not issubclass(PositionError, InputError)


def test_a_notation_error_still_pickles_with_its_fields() -> None:
    with pytest.raises(NotationError) as caught:
        wnotation.parse("[Players \"A\"\n")
    error = caught.value
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and isinstance(copy, WnotationError)
    assert (copy.message, copy.line, copy.column, copy.rule) == (error.message, error.line, error.column, error.rule)


def test_the_base_loads_without_the_notation() -> None:
    """``wnotation.errors`` imports nothing, so the CLI can name the base without loading Lark."""
    code = "import wnotation.cli.errors, sys; print('wnotation.notation' in sys.modules, 'lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
