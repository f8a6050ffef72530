"""Regenerate the golden playthroughs under tests/golden/ from the bot, then review the change as a diff.

Usage, from the repository root::

    python tests/regen_golden.py
    git diff tests/golden/

The games and the file format are defined in ``tests/test_golden.py`` (``GAMES``, ``render``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_golden import regenerate  # noqa: E402


def main() -> int:
    for path in regenerate():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
