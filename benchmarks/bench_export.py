"""Archive benchmarks (issue 16): export throughput against check's on the same corpus, flat memory on 10x the
corpus, stats on a million plays, and export of the 10x corpus on a Dask LocalCluster of 1 and 2 worker
processes (wall time, best of 2 on a warm cluster).

Usage: ``python benchmarks/bench_export.py [--games 400] [--repeat 2]``. Reported, never asserted. Each command
runs as its own process (``wnotation check FILE`` and ``wnotation export FILE -o DIR``, one job each); times are
the child's CPU seconds (user + system: the machine is shared) and its peak RSS, best of ``--repeat``. The million
plays are the corpus's plays copied (new game_ids) in DuckDB until there are a million.
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


def _corpus(root: Path, games: int, start: int = 0) -> tuple[Path, int]:
    from wnotation import write
    from wnotation.engine.bot import play_game

    path = root / f"corpus-{games}.7wn"
    actions = 0
    with open(path, "w", encoding="utf-8") as out:
        for k in range(start, start + games):
            record = play_game(3 + k % 5, 7000 + k, "random" if k % 2 else "greedy")
            actions += sum(len(t.actions) for t in record.turns)
            out.write(("\n" if k > start else "") + write(record))
    return path, actions


def _repeat(path: Path, times: int, root: Path) -> Path:
    big = root / f"{path.stem}-x{times}.7wn"
    text = path.read_text(encoding="utf-8")
    with open(big, "w", encoding="utf-8") as out:
        for k in range(times):
            out.write(("\n" if k else "") + text)
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
    opts = parser.parse_args()
    cli = [sys.executable, "-m", "wnotation"]
    root = Path(tempfile.mkdtemp(prefix="bench-export-"))
    try:
        corpus, actions = _corpus(root, opts.games)
        out = root / "out"
        clear = lambda: shutil.rmtree(out, ignore_errors=True)  # noqa: E731
        check = _best(cli + ["check", str(corpus)], opts.repeat)
        export = _best(cli + ["export", str(corpus), "-o", str(out)], opts.repeat, clear)
        print(f"corpus: {opts.games} games, {actions:,} actions")
        print(f"check : {check[0]:.2f} CPU s, {actions / check[0]:,.0f} actions/s, peak RSS {check[2]:.1f} MiB")
        print(f"export: {export[0]:.2f} CPU s, {actions / export[0]:,.0f} actions/s, peak RSS {export[2]:.1f} MiB")
        print(f"export / check throughput: {check[0] / export[0]:.0%} (target >= 80%)")
        big = _repeat(corpus, 10, root)
        check10 = _best(cli + ["check", str(big)], 1)
        export10 = _best(cli + ["export", str(big), "-o", str(out)], 1, clear)
        print(f"10x ({10 * opts.games} games): check {10 * actions / check10[0]:,.0f} actions/s, export "
              f"{10 * actions / export10[0]:,.0f} actions/s: {check10[0] / export10[0]:.0%} (start-up spread "
              f"over 10x the games); export peak RSS {export10[2]:.1f} MiB vs {export[2]:.1f} MiB at 1x "
              f"(+{export10[2] - export[2]:.1f})")
        _stats_million(out, root)
        _dask(big, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _stats_million(out: Path, root: Path) -> None:
    import duckdb

    from wnotation.archive.schema import TABLES
    from wnotation.archive.stats import run_stats
    from wnotation.archive.store import load_parquet

    db = root / "million.duckdb"
    con = duckdb.connect(str(db))
    load_parquet(con, out)
    plays = con.execute("SELECT count(*) FROM plays").fetchone()[0]
    copies = -(-1_000_000 // plays)
    for table in TABLES:
        cols = ", ".join(f'"{c}"' for c, _ in TABLES[table] if c != "game_id")
        con.execute(f'CREATE TABLE copy AS SELECT game_id + k * 4294967296 * 4096 AS game_id, {cols} '
                    f'FROM "{table}", range(1, {copies}) AS r(k)')
        con.execute(f'INSERT INTO "{table}" SELECT * FROM copy')
        con.execute("DROP TABLE copy")
    total = con.execute("SELECT count(*) FROM plays").fetchone()[0]
    con.close()
    best = cpu = float("inf")
    for _ in range(3):
        started, used = time.perf_counter(), time.process_time()
        run_stats([str(db)])
        best = min(best, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - used)
    print(f"stats (the 7 standard reports) on {total:,} plays: {best:.2f} s wall, {cpu:.2f} CPU s (DuckDB's threads "
          "included; target < 1 s)")


def _worker_cpu() -> float:
    return time.process_time()


def _dask(corpus: Path, root: Path) -> None:
    from distributed import Client, LocalCluster

    from wnotation.archive.export import export

    times, cpus = {}, {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=50) as cluster, Client(cluster) as client:
            best = cpu = float("inf")
            for _ in range(2):
                target = root / f"dask-{workers}"
                shutil.rmtree(target, ignore_errors=True)
                before = sum(client.run(_worker_cpu).values())
                started = time.perf_counter()
                export([corpus], target, scheduler=cluster.scheduler_address)
                best = min(best, time.perf_counter() - started)
                cpu = min(cpu, sum(client.run(_worker_cpu).values()) - before)
            times[workers], cpus[workers] = best, cpu
    load = os.getloadavg()[0]
    print(f"dask export of {corpus.name}: 1 worker {times[1]:.2f} s wall ({cpus[1]:.2f} CPU s in the worker), "
          f"2 workers {times[2]:.2f} s wall ({cpus[2]:.2f} CPU s in the workers): speed-up "
          f"{times[1] / times[2]:.2f}x (target >= 1.7x); load average {load:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
