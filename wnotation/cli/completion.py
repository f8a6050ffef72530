"""Shell completion of argument values: card and Wonder names, position addresses, the seats of a record. Each
function is a click ``shell_complete`` callback; none prints anything or fails (an unreadable file completes
nothing)."""

from __future__ import annotations

from collections.abc import Sequence

import click

from .. import catalog
from ..catalog import AGE_NUMERALS
from .inputs import STDIN


def _starting(names: Sequence[str], incomplete: str) -> list[str]:
    """``names`` whose spelling starts like ``incomplete`` (any case and spacing), in order, each once."""
    wanted = catalog.normalise(incomplete)
    return list(dict.fromkeys(n for n in names if catalog.normalise(n).startswith(wanted)))


def card(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return _starting([c.name for c in catalog.load().cards], incomplete)


def wonder(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return _starting([w.name for w in catalog.load().wonders], incomplete)


#: Every position address a game can have (``I.7``: after Babylon's extra turn), for completing ``--at``.
ADDRESSES = tuple(f"{AGE_NUMERALS[a]}.{t}" for a in (1, 2, 3) for t in (*range(8), "end"))


def address(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return [a for a in ADDRESSES if a.casefold().startswith(incomplete.casefold())]


def seat(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The seat names of the game that ``FILE`` and ``--game`` name, read from its tags only; nothing when the file
    cannot be read (completion never prints an error)."""
    from ..notation import read_headers

    path, game = ctx.params.get("file"), ctx.params.get("game") or 1
    if path is None:  # click stops parsing at the option being completed and leaves the words it read in ctx.args
        words = list(ctx.args)
        if "--game" in words[:-1]:
            k = words.index("--game")
            game = int(words[k + 1]) if words[k + 1].isdigit() else 1
            del words[k : k + 2]
        path = next((w for w in words if not w.startswith("-") or w == STDIN), None)
    if not path or path == STDIN:
        return []
    try:
        for k, header in enumerate(read_headers(path), start=1):
            if k == game:
                return [] if isinstance(header, Exception) else _starting([s.name for s in header.seats], incomplete)
    except Exception:  # an unreadable file completes nothing
        return []
    return []
