"""The Lark route alone (the reference route: annotated games and every error take it) and the annotated-game check.

Times ``reader._lark_game`` over bot games (CPU, best of the passes), and ``wnotation check`` in process over an
annotated file (comments, tags, glyphs and variations: ``replays/variations-3p-rhodos-babylon-olympia.7wn`` and the
other annotated replays, repeated), which the fast route declines. Run: ``python benchmarks/bench_lark_route.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
from pathlib import Path

from bench_parse import _best  # the same best-of-N CPU timing as the parse benchmark

from wnotation.notation import reader, write
from wnotation.support.gcpolicy import batch_collection

ANNOTATED = sorted((Path(__file__).resolve().parents[1] / "replays").glob("*.7wn"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100, help="bot games read by the Lark route (default 100)")
    ap.add_argument("--copies", type=int, default=20, help="copies of the annotated replays checked (default 20)")
    ap.add_argument("--repeat", type=int, default=5, help="passes; the best is reported (default 5)")
    args = ap.parse_args()
    from wnotation.engine.bot import play_game

    records = [play_game(7, seed) for seed in range(args.games)]
    texts = [write(r) + ("" if write(r).endswith("\n") else "\n") for r in records]
    actions = sum(len(t.actions) for r in records for t in r.turns)
    del records
    annotated = "\n".join(p.read_text(encoding="utf-8") for p in ANNOTATED if "{" in p.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp, batch_collection():
        reader._lark_game(texts[0], "<bench>", 0, 0)

        def lark_all() -> None:
            for text in texts:
                reader._lark_game(text, "<bench>", 0, 0)

        best = _best(lark_all, args.repeat)
        print(f"Lark route: {len(texts)} bot 7-player games, {actions / best:,.0f} actions/s "
              f"({len(texts) / best:,.0f} games/s)")
        path = Path(tmp) / "annotated.7wn"
        path.write_text("\n".join([annotated] * args.copies), encoding="utf-8")
        from click.testing import CliRunner

        from wnotation.cli import main as cli

        def check() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                result = CliRunner().invoke(cli, ["check", str(path)])
            assert result.exit_code == 0, result.output

        check()
        games = sum(1 for _ in reader.read_games(str(path)))
        t = _best(check, args.repeat)
        print(f"check of an annotated file: {games} games in {t:.3f} s CPU ({games / t:,.1f} games/s)")


if __name__ == "__main__":
    main()
