"""Shell completion of argument values: card and Wonder names, position addresses, the seats of a record. Each
function is a click ``shell_complete`` callback; none prints anything or fails (an unreadable file completes
nothing)."""

from __future__ import annotations

from collections.abc import Sequence

import click

from ..model import catalog
from ..model.catalog import AGE_NUMERALS
from .inputs import STDIN


def _starting(names: Sequence[str], incomplete: str) -> list[str]:
    """``names`` whose spelling starts like ``incomplete`` (any case and spacing), in order, each once."""
    wanted = catalog.normalise(incomplete)
    return list(dict.fromkeys(n for n in names if catalog.normalise(n).startswith(wanted)))


def card(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return _starting([c.name for c in catalog.load().cards], incomplete)


def wonder(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return _starting([w.name for w in catalog.load().wonders], incomplete)


#: Every position address a game can have (``I.7``: after Babylon's extra turn), for completing ``--at`` when the
#: record cannot be read.
ADDRESSES = tuple(f"{AGE_NUMERALS[a]}.{t}" for a in (1, 2, 3) for t in (*range(8), "end"))


def address(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The positions of the game that ``FILE`` and ``--game`` name, as its replay has them (no ``II.7`` without
    Babylon's extra turn, nothing past the end of a partial record); when the game does not replay, the addresses
    its roster allows (``.7`` only with a Babylon night seat); without a readable file, every address."""
    path, game = _target(ctx)
    return [a for a in _addresses(path, game) if a.casefold().startswith(incomplete.casefold())]


def _addresses(path: str | None, game: int) -> tuple[str, ...]:
    from ..notation import NotationError, read_games, read_headers

    if not path or path == STDIN:
        return ADDRESSES
    try:
        for k, item in enumerate(read_games(path), start=1):
            if k == game and not isinstance(item, NotationError):
                from ..engine import replay

                return tuple(replay(item).addresses)
            if k >= game:
                break
    except Exception:  # a game that does not replay: its roster says whether a .7 can exist
        pass
    try:
        for k, header in enumerate(read_headers(path), start=1):
            if k == game and not isinstance(header, Exception):
                babylon = any(s.wonder == "Babylon" and s.side == "night" for s in header.seats)
                return ADDRESSES if babylon else tuple(a for a in ADDRESSES if not a.endswith(".7"))
    except Exception:  # an unreadable file completes every address
        pass
    return ADDRESSES


def _target(ctx: click.Context) -> tuple[str | None, int]:
    """The record path and game number of the command line being completed. click stops parsing at the option
    being completed and leaves the words it read in ``ctx.args``."""
    path, game = ctx.params.get("file"), ctx.params.get("game") or 1
    if path is None:
        words = list(ctx.args)
        if "--game" in words[:-1]:
            k = words.index("--game")
            game = int(words[k + 1]) if words[k + 1].isdigit() else 1
            del words[k : k + 2]
        path = next((w for w in words if not w.startswith("-") or w == STDIN), None)
    return path, game


def seat(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The seat names of the game that ``FILE`` and ``--game`` name, read from its tags only; nothing when the file
    cannot be read (completion never prints an error)."""
    from ..notation import read_headers

    path, game = _target(ctx)
    if not path or path == STDIN:
        return []
    try:
        for k, header in enumerate(read_headers(path), start=1):
            if k == game:
                return [] if isinstance(header, Exception) else _starting([s.name for s in header.seats], incomplete)
    except Exception:  # an unreadable file completes nothing
        return []
    return []
