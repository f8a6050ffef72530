"""``wnotation generate``'s steady rate (issue 31 item 4), A/B over builds: games per CPU second that ``-n N`` adds
to ``-n 1`` (``generate -p 7 -s 0 --bot greedy``, what ``run.py`` and ``builds.py`` call the steady rate), each
build's two commands run once per round, the builds in turn, so that all meet the same background load.

A build is ``LABEL=PYTHON`` (an installed wnotation: a venv after ``pip install .``) or ``LABEL=PYTHON@TREE`` (the
sources of ``TREE`` on ``PYTHONPATH``, pure Python). The commands run from a temporary directory, outside any
tree, with their bytecode cached there (see ``builds._child_env``). CPU is user + system of the child process
(``RUSAGE_CHILDREN``); the figures are the median of the rounds, and every round is printed::

    python benchmarks/bench_generate.py --games 200 --rounds 5 \\
        main=/work/main/.venv/bin/python@/work/wt/base branch=/work/main/.venv/bin/python@. \\
        main-compiled=/tmp/cv-main/bin/python
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from builds import _child_env, child_cpu  # noqa: E402


def _build(spec: str) -> tuple[str, list[str], dict[str, str]]:
    label, _, rest = spec.partition("=")
    python, _, tree = rest.partition("@")
    if not label or not python:
        raise SystemExit(f"a build is LABEL=PYTHON or LABEL=PYTHON@TREE, not {spec!r}")
    env = {"PYTHONPATH": str(Path(tree).resolve())} if tree else {}
    return label, [python, "-m", "wnotation", "generate", "-p", "7", "-s", "0", "--bot", "greedy", "-n"], env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("builds", nargs="+", help="LABEL=PYTHON or LABEL=PYTHON@TREE")
    ap.add_argument("--games", type=int, default=200, help="games of the long command (default 200)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    args = ap.parse_args()
    builds = [_build(spec) for spec in args.builds]
    with tempfile.TemporaryDirectory(prefix="wn-bench-generate-") as tmp:
        cwd = Path(tmp)
        envs = {label: {**_child_env(cwd / "pycache" / label), **extra} for label, _, extra in builds}
        for label, cmd, _ in builds:  # warm-up: writes the bytecode
            child_cpu([*cmd, "1"], cwd, envs[label])
        steady: dict[str, list[float]] = {label: [] for label, _, _ in builds}
        whole: dict[str, list[float]] = {label: [] for label, _, _ in builds}
        for k in range(args.rounds):
            for label, cmd, _ in builds:
                one, code1 = child_cpu([*cmd, "1"], cwd, envs[label])
                many, code = child_cpu([*cmd, str(args.games)], cwd, envs[label])
                if code or code1:
                    raise SystemExit(f"{label}: generate exited with {code or code1}")
                steady[label].append((args.games - 1) / max(many - one, 1e-9))
                whole[label].append(args.games / many)
                print(f"round {k + 1} {label}: -n 1 {one:.2f} s, -n {args.games} {many:.2f} s, steady "
                      f"{steady[label][-1]:.0f} games/s", flush=True)
    print(f"\n`generate -p 7 -s 0 --bot greedy`, {args.games} games against 1, {args.rounds} rounds, load "
          f"{os.getloadavg()[0]:.1f}")
    print("| build | steady games/s, median | each round | whole process games/s, median |")
    print("| --- | --- | --- | --- |")
    for label, _, _ in builds:
        rounds = ", ".join(f"{v:.0f}" for v in steady[label])
        print(f"| {label} | {statistics.median(steady[label]):.0f} | {rounds} | {statistics.median(whole[label]):.0f} |")


if __name__ == "__main__":
    main()
