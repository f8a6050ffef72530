"""The viewer's budgets (issue 32 item 12), measured in the real headless Chromium and reported beside them, never
asserted: the bytes of a 7-player page (raw and gzipped), its generation time, the time to open it (navigation
start to the end of its load event, which runs its script and draws the first position) and the time of a step
(the arrow key's handler, then style and layout forced; best of ``--runs`` passes per step, the median over the
steps).

Run: ``python benchmarks/bench_viewer.py [--runs 3] [--replay replays/7p-all-wonders.7wn]`` (about twenty seconds;
needs /usr/bin/chromium and Playwright, as tests/test_viewer_browser.py). On a busy machine (``uptime``: load
average above the number of cores) the browser figures are inflated: run it on a quiet one.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from wnotation.engine import replay
from wnotation.notation import read_games
from wnotation.viewer import page

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
BUDGETS = {"page_kb": 400, "gzip_kb": 60, "open_ms": 200, "step_ms": 16}

STEPS = """(runs) => {
  const key = k => document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
  const n = document.querySelectorAll('#turnlist button').length, best = [];
  for (let pass = 0; pass < runs; pass++) {
    key('Home'); void document.body.offsetHeight;
    for (let k = 1; k < n; k++) {
      const t = performance.now();
      key('ArrowRight');
      void document.body.offsetHeight;
      const dt = performance.now() - t;
      best[k - 1] = pass ? Math.min(best[k - 1], dt) : dt;
    }
  }
  return best;
}"""

OPENED = """() => { const t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd - t.startTime; }"""


def measure(path: Path, runs: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    record = next(iter(read_games(path)))
    played = replay(record)
    start = time.perf_counter()
    document = page(record, played, source=path.read_text(encoding="utf-8"))
    generated = time.perf_counter() - start
    raw = document.encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "game.html"
        html.write_bytes(raw)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                tab = browser.new_page(viewport={"width": 1366, "height": 900})
                opens = []
                for _ in range(runs):
                    tab.goto(html.as_uri())
                    opens.append(tab.evaluate(OPENED))
                    tab.goto("about:blank")
                tab.goto(html.as_uri())
                steps = tab.evaluate(STEPS, runs)
            finally:
                browser.close()
    return {"players": record.players, "positions": len(played.addresses),
            "page_kb": round(len(raw) / 1024, 1), "gzip_kb": round(len(gzip.compress(raw, 9)) / 1024, 1),
            "generation_ms": round(generated * 1000, 1), "open_ms": round(min(opens), 1),
            "step_ms": round(statistics.median(steps), 2), "step_max_ms": round(max(steps), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="passes per figure, the best kept (default 3)")
    parser.add_argument("--replay", type=Path, default=ROOT / "replays" / "7p-all-wonders.7wn")
    args = parser.parse_args(argv)
    if not os.access(CHROMIUM, os.X_OK):
        print(f"{CHROMIUM} is missing: the browser figures need Chromium", file=sys.stderr)
        return 2
    figures = measure(args.replay, args.runs)
    figures["load_average"] = round(os.getloadavg()[0], 2)
    print(json.dumps(figures, indent=2))
    for name, budget in BUDGETS.items():
        verdict = "within" if figures[name] <= budget else "OVER"
        print(f"{name:>8}: {figures[name]:>8} (budget {budget}) {verdict}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
