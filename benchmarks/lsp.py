"""Re-check time of the language server after a keystroke, on the bundled 7-player replay (figures printed, never
asserted).

A keystroke is simulated as the server sees it: the document's new text, analysed with the server's game cache
(:func:`wnotation.lsp.analysis.analyse`) and all its diagnostics placed (what one ``publishDiagnostics`` costs).
The keystrokes retype a card name on a turn line letter by letter (each intermediate text a new game: a cache
miss for the edited game, a hit for every other game of the file), on a file of ``--games`` copies of the game,
the edit in the middle one. Printed: the median and the 90th percentile in milliseconds (wall time), and the
same for a cold cache (no game of the file seen before). Run: ``python benchmarks/lsp.py [--games 20]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from wnotation.lsp.analysis import GameCache, analyse

REPLAY = Path(__file__).resolve().parents[1] / "replays" / "7p-all-wonders.7wn"


def keystrokes(text: str, games: int) -> list[str]:
    """The texts a user produces retyping every card name of turn II.3 of the middle game, letter by letter."""
    copies = [text.replace("Seven-player marathon", f"Seven-player marathon {k}") for k in range(games)]
    middle = games // 2
    lines = copies[middle].split("\n")
    row = next(k for k, line in enumerate(lines) if line.startswith("II.3 "))
    out = []
    original = lines[row]
    for name in ("Statue", "Forum", "Press", "Stables", "Temple"):
        at = original.index(name)
        for k in range(len(name) + 1):
            lines[row] = original[:at] + name[:k] + original[at + len(name):]
            copies[middle] = "\n".join(lines)
            out.append("\n".join(copies))
    return out


def measure(texts: list[str], warm: bool) -> list[float]:
    """Milliseconds per keystroke: analysis and every diagnostic placed."""
    cache = GameCache()
    if warm:
        analyse(texts[-1], cache).diagnostics()
    times = []
    for text in texts:
        if not warm:
            cache = GameCache()
        start = time.perf_counter()
        analyse(text, cache).diagnostics()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="copies of the 7-player game in the file (default 20)")
    args = parser.parse_args()
    texts = keystrokes(REPLAY.read_text(encoding="utf-8"), args.games)
    measure(texts[:3], warm=True)  # the engine's and the reader's first-use costs, outside the figures
    for label, warm in (("keystroke, other games cached", True), ("cold: no game cached", False)):
        times = measure(texts, warm)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(f"{label:32} {len(texts)} keystrokes, {args.games} games: median {statistics.median(times):.1f} ms, "
              f"p90 {p90:.1f} ms")


if __name__ == "__main__":
    main()
