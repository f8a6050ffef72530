"""Archive benchmarks (issue 16): export throughput against check's on the same corpus, flat memory on 10x the
corpus, stats on a million plays, and export of the 10x corpus on a Dask LocalCluster of 1 and 2 worker
processes (wall time, best of 2 on a warm cluster).

Usage: ``python benchmarks/bench_export.py [--games 400] [--repeat 2] [--parts export,stats,dask]``. Reported,
never asserted. Each command runs as its own process (``wnotation check FILE`` and ``wnotation export FILE -o
DIR``, one job each); times are the child's CPU seconds (user + system: the machine is shared) and its peak RSS,
best of ``--repeat``; at 10x, check and export alternate ``--repeat`` times. The stats figures are
bench_stats.py's, on the corpus's export copied (new game ids) until there are a million plays.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from corpus import game_file  # noqa: E402


def _repeat(path: Path, times: int, root: Path) -> Path:
    """``times`` copies of the corpus, each game made another by a ``[Round]`` tag naming its copy (an export
    writes a game that comes again once: the same canonical text is the same game_id)."""
    big = root / f"{path.stem}-x{times}.7wn"
    text = path.read_text(encoding="utf-8")
    with open(big, "w", encoding="utf-8") as out:
        for k in range(times):
            out.write(("\n" if k else "") + text.replace('[Edition "2e"]\n', f'[Edition "2e"]\n[Round "{k}"]\n'))
    return big


def _child(args: list[str]) -> tuple[float, float, float]:
    """(CPU s, wall s, peak RSS MiB) of one child process running ``args``."""
    wrapper = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
               "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); w = time.perf_counter() - t; "
               "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
               "print(u.ru_utime + u.ru_stime, w, u.ru_maxrss / 1024, r.returncode)")
    out = subprocess.run([sys.executable, "-c", wrapper, *args], capture_output=True, text=True, check=True)
    cpu, wall, rss, code = out.stdout.split()
    if int(code) not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} exited {code}")
    return float(cpu), float(wall), float(rss)


def _best(args: list[str], repeat: int, before=None) -> tuple[float, float, float]:
    runs = []
    for _ in range(repeat):
        if before:
            before()
        runs.append(_child(args))
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--parts", default="export,stats,dask", help="which figures, comma-separated: export "
                        "(throughput and memory; always run, the others need its archive), stats, dask")
    opts = parser.parse_args()
    opts.parts = set(opts.parts.split(","))
    cli = [sys.executable, "-m", "wnotation"]
    root = Path(tempfile.mkdtemp(prefix="bench-export-"))
    try:
        corpus, actions = game_file(root, opts.games)
        out = root / "out"
        clear = lambda: shutil.rmtree(out, ignore_errors=True)  # noqa: E731
        check = _best(cli + ["check", str(corpus)], opts.repeat)
        export = _best(cli + ["export", str(corpus), "-o", str(out)], opts.repeat, clear)
        print(f"corpus: {opts.games} games, {actions:,} actions")
        print(f"check : {check[0]:.2f} CPU s, {actions / check[0]:,.0f} actions/s, peak RSS {check[2]:.1f} MiB")
        print(f"export: {export[0]:.2f} CPU s, {actions / export[0]:,.0f} actions/s, peak RSS {export[2]:.1f} MiB")
        print(f"export / check throughput: {check[0] / export[0]:.0%} (target >= 80%)")
        db = root / "out.duckdb"
        drop = lambda: (clear(), db.unlink(missing_ok=True))  # noqa: E731
        duck = _best(cli + ["export", str(corpus), "-o", str(out), "--duckdb", str(db)], opts.repeat, drop)
        print(f"export --duckdb: {duck[0]:.2f} CPU s, peak RSS {duck[2]:.1f} MiB")
        big = _repeat(corpus, 10, root)
        pairs = []
        for _ in range(opts.repeat):  # alternating, so that both see the same load
            pairs.append((_child(cli + ["check", str(big)]), (clear(), _child(cli + ["export", str(big), "-o",
                                                                                     str(out)]))[1]))
        check10, export10 = min(p[0] for p in pairs), min(p[1] for p in pairs)
        drop()
        duck10 = _child(cli + ["export", str(big), "-o", str(out), "--duckdb", str(db)])
        print(f"export --duckdb at 10x: peak RSS {duck10[2]:.1f} MiB vs {duck[2]:.1f} MiB at 1x "
              f"(+{duck10[2] - duck[2]:.1f})")
        each = ", ".join(f"{c[0] / e[0]:.0%}" for c, e in pairs)
        print(f"10x ({10 * opts.games} games): check {10 * actions / check10[0]:,.0f} actions/s, export "
              f"{10 * actions / export10[0]:,.0f} actions/s: {check10[0] / export10[0]:.0%} (best of each; pair by "
              f"pair {each}; start-up spread over 10x the games); export peak RSS {export10[2]:.1f} MiB vs "
              f"{export[2]:.1f} MiB at 1x (+{export10[2] - export[2]:.1f})")
        if "stats" in opts.parts:
            import bench_stats

            bench_stats.run(out, root, repeat=opts.repeat)
        if "dask" in opts.parts:
            _dask(big, root, opts.repeat)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _worker_cpu() -> float:
    return time.process_time()


def _dask(corpus: Path, root: Path, repeat: int = 2) -> None:
    """Export ``corpus`` on a LocalCluster of 1 and one of 2 worker processes (one thread each), both started
    first, the runs alternating so that both see the same load; best wall time of each. Also the CPU seconds of
    each worker and of this process (the client, which also hosts the scheduler), and a Python loop's wall/CPU
    (the share of a core a process got then: the speed-up cannot exceed the cores free)."""
    from contextlib import ExitStack

    from bench_stats import share
    from distributed import Client, LocalCluster

    from wnotation.archive.export import export

    runs: dict[int, list[tuple[float, list[float], float]]] = {1: [], 2: []}
    with ExitStack() as stack:
        clusters = {}
        for workers in (1, 2):
            cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                       dashboard_address=":0", silence_logs=50))
            clusters[workers] = (cluster, stack.enter_context(Client(cluster)))
        shares = []
        for _ in range(repeat):
            for workers, (cluster, client) in clusters.items():
                target = root / f"dask-{workers}"
                shutil.rmtree(target, ignore_errors=True)
                before = client.run(_worker_cpu)
                started, here = time.perf_counter(), time.process_time()
                export([corpus], target, scheduler=cluster.scheduler_address)
                wall, here = time.perf_counter() - started, time.process_time() - here
                after = client.run(_worker_cpu)
                runs[workers].append((wall, sorted(after[w] - before[w] for w in after), here))
            shares.append(share())
    best = {w: min(r) for w, r in runs.items()}
    for workers, (wall, cpus, here) in best.items():
        print(f"dask export of {corpus.name}, {workers} worker{'s' if workers > 1 else ''}: {wall:.2f} s wall "
              f"(runs: {', '.join(f'{r[0]:.1f}' for r in runs[workers])}), CPU s by worker "
              f"{', '.join(f'{c:.2f}' for c in cpus)}, client and scheduler {here:.2f}")
    print(f"  speed-up {best[1][0] / best[2][0]:.2f}x (target >= 1.7x); a Python loop's wall/CPU between runs: "
          f"{', '.join(f'{x:.2f}' for x in shares)}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
