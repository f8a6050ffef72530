"""Peak memory and CPU time of reading one oversized game: a long turn line, a long comment, an unclosed one.

Each case runs ``read_games`` on one generated text in a fresh subprocess and reports the peak of the memory
allocated while reading it (tracemalloc, which sees the regular expression engine's stacks), per input byte, and
the CPU time of the read (a separate pass, without tracemalloc). The reader's limit (spec
section 11: a line holds at most 10,000 characters outside its comments and ``[%tags]``) makes the long lines
errors; comments and tags of any length are read in memory proportional to them (``--inside``: cases just inside
the limit, and 1 MB comments).
Run: ``python benchmarks/bench_memory_limits.py [--mb 12.5]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=2.0, help="size of each oversized input in MB (default 2)")
    parser.add_argument("--inside", action="store_true", help="also the cases just inside the limits")
    args = parser.parse_args()
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
