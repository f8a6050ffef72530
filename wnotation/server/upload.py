"""An uploaded ``.7wn`` file checked game by game: what can be stored, and what each game's check found.

The file's bytes are bounded before anything reads them (:data:`MAX_UPLOAD_BYTES`), then its lines
(:data:`MAX_LINE_CHARS`) and its games (:data:`MAX_GAMES`), each refusal a sentence for the page. Every game is
read with the library's reader and replayed by its engine (:func:`wnotation.diagnostics.check_record`); a game
that cannot be read is reported and the other games of the file are still kept. What is stored is the game's
canonical text (:func:`wnotation.write`), not the uploaded bytes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..errors import InputError
from ..diagnostics import Diagnostic, check_text
from ..diagnostics.inputs import source_lines
from ..notation import read_games
from ..notation.reader.split import normalise
from ..model.record import Record
from .store import NewGame

#: The largest upload (bytes): a club's season of games in one file, far from a memory risk.
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
#: The most games one file may hold.
MAX_GAMES = 500
#: The longest line (characters): a turn of seven seats with comments fits many times over.
MAX_LINE_CHARS = 4000


class UploadRefused(InputError, ValueError):
    """The file as a whole is refused (too large, not UTF-8, a line too long, too many games, no game)."""


@dataclass(frozen=True, slots=True)
class GameCheck:
    """One game of the file: its number, its check's diagnostics, and what is stored (``None``: not readable)."""

    number: int
    diagnostics: tuple[Diagnostic, ...]
    game: NewGame | None
    title: str = ""

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")


@dataclass(slots=True)
class UploadCheck:
    """Every game of one file, in file order."""

    file: str
    games: list[GameCheck] = field(default_factory=list)


def decode(raw: bytes) -> str:
    """The upload as text, or :class:`UploadRefused` when it is too large or not UTF-8."""
    if len(raw) > MAX_UPLOAD_BYTES:
        raise UploadRefused(f"the file is larger than the {MAX_UPLOAD_BYTES // (1024 * 1024)} MiB an upload may be")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UploadRefused(f"the file is not UTF-8 text (byte {exc.start + 1} is not)") from None


def check_upload(text: str, file: str) -> UploadCheck:
    """Check every game of ``text`` (the file named ``file``, a name shown only). Raises :class:`UploadRefused`
    for a file refused as a whole. Cost: one parse and one replay per game."""
    from .. import write
    from ..viewer.data import game_title

    text = normalise(text)
    lines = source_lines(text)
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            raise UploadRefused(f"line {number} has {len(line)} characters; a line may have at most {MAX_LINE_CHARS}")
    marks = sum(1 for line in lines if line.lstrip().startswith("[Format"))
    if marks > MAX_GAMES:
        raise UploadRefused(f"the file holds {marks} games; one upload may hold at most {MAX_GAMES}")
    games = list(read_games(text, source=file))
    if not games or marks == 0:
        raise UploadRefused("the file holds no game (a game starts with its [Format \"7WN ...\"] line)")
    reports = check_text(text, file).games  # the same reader: one report per game, in order
    out = UploadCheck(file)
    for number, (item, report) in enumerate(zip(games, reports), 1):
        if not isinstance(item, Record):
            out.games.append(GameCheck(number, report.diagnostics, None))
            continue
        canonical = write(item)
        totals = tuple(int(s["total"]) for s in report.scores) if report.scores is not None else ()
        winners = tuple(item.seats[int(s["seat"]) - 1].name for s in report.scores or () if s["rank"] == 1)
        stored = NewGame(
            text=canonical, digest=hashlib.sha256(canonical.encode("utf-8")).hexdigest(), title=game_title(item),
            date=item.date or "", event=item.tag("Event") or "",
            seats=tuple((s.name, s.wonder, s.side) for s in item.seats), totals=totals, winners=winners,
            errors=report.count("error"), file=file)
        out.games.append(GameCheck(number, report.diagnostics, stored, stored.title))
    return out
