"""Shared helpers of the CLI tests: run a command in-process, and generated games (cached) to run it on."""

from __future__ import annotations

from functools import cache

from click.testing import CliRunner, Result

from wnotation import cli
from wnotation.engine.bot import play_game
from wnotation.notation import write


def run(*args: str, code: int = 0, input: str | bytes | None = None) -> Result:
    """Invoke ``wnotation *args`` and check its exit code, showing both streams if it is not ``code``."""
    result = CliRunner().invoke(cli.main, list(args), prog_name="wnotation", input=input)
    assert result.exit_code == code, (
        f"wnotation {' '.join(args)} exited {result.exit_code}, expected {code}\n"
        f"--- stdout ---\n{result.stdout}\n--- stderr ---\n{result.stderr}\n--- exception ---\n{result.exception!r}"
    )
    return result


@cache
def game_text(players: int = 4, seed: int = 7, bot: str = "greedy") -> str:
    """The canonical text of a complete bot game, with its expected results."""
    return write(play_game(players, seed, bot))


def with_action(text: str, label: str, seat: int, action: str) -> tuple[str, int, int]:
    """``text`` with seat ``seat``'s action in turn ``label`` replaced by ``action``; also returns the line and
    column (1-based) where the new action starts."""
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith(label + " "))
    parts = lines[k][len(label) + 1 :].split(" | ")
    parts[seat - 1] = action
    lines[k] = f"{label} " + " | ".join(parts)
    column = len(label) + 2 + sum(len(p) + 3 for p in parts[: seat - 1])
    return "\n".join(lines), k + 1, column
