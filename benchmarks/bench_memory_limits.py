"""Peak memory and CPU time of reading one oversized game: a long turn line, a long comment, an unclosed one.

Each case runs ``read_games`` on one generated text in a fresh subprocess and reports the peak of the memory
allocated while reading it (tracemalloc, which sees the regular expression engine's stacks), per input byte, and
the CPU time of the read (a separate pass, without tracemalloc). The reader's limit (spec
section 11: a line holds at most 10,000 characters outside its comments and ``[%tags]``) makes the long lines
errors; comments and tags of any length are read in memory proportional to them (``--inside``: cases just inside
the limit, and 1 MB comments).

``--huge-mb MB`` measures one huge game instead (issue 31 item 5: a huge game held once), a comment of ``MB`` MB on
one line and over many short lines, written to a file: the resident memory ``read_games(path)`` adds, held after
reading and at its peak (``/proc/self/statm`` and ``VmHWM``, a fresh process each), the same by tracemalloc (what
Python holds, which the C allocator may keep resident after it is freed), and the peak RSS and CPU of
``python -m wnotation check FILE`` (``/usr/bin/time``) less that of a one-game file, per input byte, and of the
same file with a broken turn line at its end (the error, and the search for further ones); and "replay held", the
resident memory a check (``check_many`` in process, one job) adds by the time it replays the game (its text and
Record, or the Record alone), per input byte.
Run: ``python benchmarks/bench_memory_limits.py [--mb 12.5] [--huge-mb 20]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from proc_memory import PROC_MEMORY

HEADER = ('[Format "7WN 1"]\n[Edition "2e"]\n[Date "2026.11.29"]\n[Seat1 "Alice" "Gizah" "day"]\n'
          '[Seat2 "Bob" "Babylon" "night"]\n[Seat3 "Carol" "Halikarnassos" "night"]\n\n')

CHILD = r"""
import json, sys, time, tracemalloc
from wnotation.notation import read_games
text = sys.stdin.read()
list(read_games(sys.argv[1]))  # caches warm
t = time.process_time()
items = list(read_games(text))
cpu = time.process_time() - t
del items
tracemalloc.start()
items = list(read_games(text))
peak = tracemalloc.get_traced_memory()[1]
first = items[0] if items else None
what = "error: " + str(first).splitlines()[0][-90:] if isinstance(first, ValueError) else "read"
print(json.dumps({"peak": peak, "cpu": cpu, "what": what}))
"""


def cases(size: int) -> dict[str, str]:
    """Texts of about ``size`` characters, by name."""
    action = " | Lumber Yard"
    long_name = "Lumber " * (size // 7)
    comment = ("lorem ipsum " * (size // 12))[:size]
    return {
        "turn line of many actions": HEADER + "I.1 Lumber Yard" + action * (size // len(action)) + "\n",
        "turn line of one long name": HEADER + "I.1 " + long_name + "| sell ? | stage ?\n",
        "comment on one line": HEADER + "{ " + comment + " }\nI.1 Lumber Yard | sell ? | stage ?\n",
        "comment over many lines": HEADER + "{ " + comment.replace("m ", "m\n") + " }\n",
        "unclosed comment": HEADER + "I.1 Lumber Yard | sell ? | stage ? { " + comment + "\n",
        "[%tag] value": HEADER + "[%note " + comment + "]\nI.1 Lumber Yard | sell ? | stage ?\n",
        "tag value": HEADER.replace('[Date', '[Event "' + comment + '"]\n[Date') + "I.1 Lumber Yard | sell ? | stage ?\n",
        "many short comment lines": HEADER + "{ x }\n" * (size // 6),
    }


def measure(text: str) -> dict:
    small = HEADER + "I.1 Lumber Yard | sell ? | stage ?\n"
    out = subprocess.run([sys.executable, "-c", CHILD, small], input=text, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


HUGE_CHILD = r"""
import json, os, sys, tracemalloc
""" + PROC_MEMORY + r"""
from wnotation.notation import read_games
list(read_games(sys.argv[2]))  # imports and caches warm
if sys.argv[3] == "trace":
    tracemalloc.start()
    games = list(read_games(sys.argv[1]))
    held, peak = tracemalloc.get_traced_memory()
else:
    before = rss()
    games = list(read_games(sys.argv[1]))
    held, peak = rss() - before, hwm() - before
print(json.dumps({"held": held, "peak": peak, "read": type(games[0]).__name__}))
"""
CHECK_CHILD = r"""
import json, os, sys
""" + PROC_MEMORY + r"""
import wnotation.engine as engine
from wnotation.diagnostics.batch import check_many
[g for run in check_many([sys.argv[2]]) for g in run.games()]  # imports and caches warm
held = []
real = engine.replay
def replay(record, *args, **kwargs):
    held.append(rss())
    return real(record, *args, **kwargs)
engine.replay = replay
before = rss()
games = [g for run in check_many([sys.argv[1]]) for g in run.games()]
print(json.dumps({"held": max(held) - before if held else 0}))
"""
TAIL = "I.1 Lumber Yard | sell ? | stage ?\n"
BROKEN = "I.2 Lumbr Yard | sell ? | stage ?\n"  # a misspelt card: the check finds it, then seeks further errors


def check_rss(path: str) -> tuple[int, float]:
    """Peak RSS (bytes) and CPU seconds of ``python -m wnotation check path`` in a fresh process, by
    ``/usr/bin/time`` (a child forked from this process, which holds the texts, would count their pages)."""
    with tempfile.NamedTemporaryFile("r") as out:
        subprocess.run(["/usr/bin/time", "-q", "-f", "%M %U %S", "-o", out.name, sys.executable, "-m", "wnotation",
                        "check", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kib, user, system = out.read().split()
    return int(kib) * 1024, float(user) + float(system)


def huge(mb: float) -> None:
    size = int(mb * 1_000_000)
    comment = ("lorem ipsum " * (size // 12 + 1))[:size]
    games = {"one comment on one line": HEADER + "{ " + comment + " }\n" + TAIL,
             "one comment over many lines": HEADER + "{ " + comment.replace("m ", "m\n") + " }\n" + TAIL}
    print(f"one huge game from a file, bytes per input byte ({mb:g} MB comment):")
    print(f"{'game':30} {'size':>12} {'read RSS held/peak':>19} {'tracemalloc held/peak':>22} {'check peak':>11}"
          f" {'check MiB':>10} {'cpu s':>6} {'replay held':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "small.7wn")
        with open(small, "w") as f:
            f.write(HEADER + TAIL)
        base, _ = check_rss(small)
        for name, text in games.items():
            path = os.path.join(tmp, "huge.7wn")
            with open(path, "w") as f:
                f.write(text)
            n = len(text)
            r = {mode: json.loads(subprocess.run([sys.executable, "-c", HUGE_CHILD, path, small, mode],
                                                 capture_output=True, text=True, check=True).stdout)
                 for mode in ("rss", "trace")}
            peak, cpu = check_rss(path)
            held = json.loads(subprocess.run([sys.executable, "-c", CHECK_CHILD, path, small], capture_output=True,
                                             text=True, check=True).stdout)["held"]
            print(f"{name:30} {n:>12,} {r['rss']['held'] / n:>9.2f} / {r['rss']['peak'] / n:<7.2f}"
                  f" {r['trace']['held'] / n:>11.2f} / {r['trace']['peak'] / n:<8.2f} {(peak - base) / n:>11.2f}"
                  f" {peak / 2**20:>10.1f} {cpu:>6.2f} {held / n:>12.2f}")
            with open(path, "a") as f:
                f.write(BROKEN)
            peak, cpu = check_rss(path)
            print(f"{'  ... and a broken last line':30} {n + len(BROKEN):>12,} {'':>42} {(peak - base) / n:>11.2f}"
                  f" {peak / 2**20:>10.1f} {cpu:>6.2f}")
        print(f"(a one-game check: {base / 2**20:.1f} MiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=2.0, help="size of each oversized input in MB (default 2)")
    parser.add_argument("--inside", action="store_true", help="also the cases just inside the limits")
    parser.add_argument("--huge-mb", type=float, help="instead, one huge game of this many MB, read and checked")
    args = parser.parse_args()
    if args.huge_mb:
        huge(args.huge_mb)
        return
    sizes = [("oversized", int(args.mb * 1_000_000))]
    if args.inside:
        sizes += [("line at limit", 9_900), ("1 MB", 1_000_000)]
    print(f"{'case':32} {'size':>10} {'peak MiB':>14} {'B/byte':>8} {'cpu s':>7}  result")
    for label, size in sizes:
        for name, text in cases(size).items():
            r = measure(text)
            extra = r["peak"]
            print(f"{name:32} {len(text):>10,} {extra / 2**20:>14.1f} {extra / len(text):>8.1f} {r['cpu']:>7.2f}  "
                  f"{label}: {r['what']}")


if __name__ == "__main__":
    main()
