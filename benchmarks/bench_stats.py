"""``wnotation stats`` on a million plays (issue 16): where the wall time goes, for both kinds of archive.

Usage: ``python benchmarks/bench_stats.py [--games 300] [--plays 1000000] [--repeat 3]``. Reported, never asserted.
An export of ``--games`` generated games is copied (new game ids, one copy per input number, so the parts are
those of an export of that many inputs: 250 games a part) until the plays table holds ``--plays`` rows, as a
Parquet archive directory and as a DuckDB file. For each, best of ``--repeat``:

- ``run_stats`` in this process (DuckDB imported already): wall and CPU seconds (DuckDB's threads included), and
  each phase's CPU (connect, picked_games, each of the 7 reports);
- the ``wnotation stats SRC --json`` command as a child process: wall, CPU, and the CPU of its imports;
- the machine's share: a pure-Python loop's wall/CPU at that moment. On a shared machine a process gets a share of
  a core, and wall time is CPU time divided by that share; the loop shows what share there was.
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


def share() -> float:
    """Wall seconds per CPU second of a pure-Python loop of about 0.1 CPU s, now (1.0 on an idle machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    x = 0
    for i in range(2_000_000):
        x += i
    return (time.perf_counter() - wall) / max(time.process_time() - cpu, 1e-9)


def million(export_dir: Path, root: Path, plays: int) -> tuple[Path, Path, int]:
    """A Parquet archive directory and a DuckDB file with the rows of ``export_dir`` copied until the plays table
    holds at least ``plays`` rows; returns both and the number of plays."""
    import duckdb

    from wnotation.archive.manifest import write_manifest
    from wnotation.archive.schema import PIECE_TABLES
    from wnotation.archive.schema import TABLES as TABLES_OF
    from wnotation.archive.store import CARDS_PART, COMPRESSION, load_parquet, part_files

    con = duckdb.connect()
    have = con.execute("SELECT count(*) FROM read_parquet(?)", [part_files(export_dir, "plays")]).fetchone()[0]
    copies = -(-plays // have)
    parquet = root / "million"
    shutil.rmtree(parquet, ignore_errors=True)
    rows: dict[str, dict[str, int]] = {}
    for table in PIECE_TABLES:
        (parquet / table).mkdir(parents=True)
        rows[table] = {}
        cols = ", ".join(c for c, _ in TABLES_OF[table] if c != "game_id")
        for f in part_files(export_dir, table):
            piece = Path(f).name.split("-", 2)[2]
            for k in range(copies):  # copy k: game ids xor k << 32 (distinct games, as distinct records give)
                rel = con.sql(f"SELECT xor(game_id, {k} * 4294967296) AS game_id, {cols} FROM read_parquet(?)",
                              params=[f])
                name = f"part-{k:05d}-{piece}"
                rel.write_parquet(str(parquet / table / name), compression=COMPRESSION)
                rows[table][name] = rel.count("*").fetchone()[0]
    (parquet / "cards").mkdir()
    shutil.copy(export_dir / CARDS_PART, parquet / CARDS_PART)
    rows["cards"] = {Path(CARDS_PART).name: con.execute("SELECT count(*) FROM read_parquet(?)",
                                                        [str(parquet / CARDS_PART)]).fetchone()[0]}
    write_manifest(parquet, sum(rows["games"].values()), rows, [])
    con.close()
    db = root / "million.duckdb"
    db.unlink(missing_ok=True)
    con = duckdb.connect(str(db))
    load_parquet(con, parquet)
    total = con.execute("SELECT count(*) FROM plays").fetchone()[0]
    con.close()
    return parquet, db, total


def in_process(source: Path, repeat: int) -> dict[str, float]:
    """run_stats on ``source``, best of ``repeat``: wall, cpu, and the CPU of each phase (the best run's)."""
    from wnotation.archive import stats as S

    best: dict[str, float] = {}
    for _ in range(repeat):
        phases: dict[str, float] = {}
        wall, cpu = time.perf_counter(), time.process_time()
        t = time.process_time()
        con = S.connect([str(source)])
        phases["connect"] = time.process_time() - t
        try:
            t = time.process_time()
            S.prepare(con, S.Filters())
            phases["picked_games"] = time.process_time() - t
            for name in S.QUERIES:
                t = time.process_time()
                S.run_query(con, name, S.Filters())
                phases[name] = time.process_time() - t
        finally:
            con.close()
        phases["wall"], phases["cpu"] = time.perf_counter() - wall, time.process_time() - cpu
        phases["share"] = share()
        if not best or phases["cpu"] < best["cpu"]:
            best = phases
    return best


def command(source: Path, repeat: int) -> tuple[float, float, float]:
    """``wnotation stats SRC --json`` as a child process, best of ``repeat``: (wall, CPU, CPU of the imports)."""
    wrapper = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
               "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); w = time.perf_counter() - t; "
               "u = resource.getrusage(resource.RUSAGE_CHILDREN); print(u.ru_utime + u.ru_stime, w)")
    imports = ("import resource, time; import duckdb, wnotation.cli, wnotation.archive.stats; "
               "u = resource.getrusage(resource.RUSAGE_SELF); print(u.ru_utime + u.ru_stime)")
    runs, loaded = [], []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m", "wnotation", "stats", str(source),
                              "--json"], capture_output=True, text=True, check=True).stdout.split()
        runs.append((float(out[1]), float(out[0])))
        loaded.append(float(subprocess.run([sys.executable, "-c", imports], capture_output=True, text=True,
                                           check=True).stdout))
    wall, cpu = min(runs, key=lambda r: r[1])
    return wall, cpu, min(loaded)


def report(kind: str, plays: int, got: dict[str, float], cli: tuple[float, float, float]) -> None:
    steps = ", ".join(f"{k} {v:.3f}" for k, v in got.items() if k not in ("wall", "cpu", "share"))
    print(f"{kind}, {plays:,} plays: run_stats {got['wall']:.2f} s wall, {got['cpu']:.2f} CPU s (wall/CPU of a "
          f"Python loop then: {got['share']:.2f}); CPU by phase: {steps}")
    print(f"  wnotation stats {kind} --json (a process): {cli[0]:.2f} s wall, {cli[1]:.2f} CPU s, of which "
          f"{cli[2]:.2f} s interpreter start-up and imports")


def run(export_dir: Path, root: Path, plays: int = 1_000_000, repeat: int = 3) -> None:
    """The stats figures on an export already made at ``export_dir`` (bench_export.py calls this)."""
    parquet, db, total = million(export_dir, root, plays)
    parts = len(list((parquet / "plays").glob("*.parquet")))
    for kind, source in ((f"Parquet directory ({parts} parts a table)", parquet), ("DuckDB file", db)):
        report(kind, total, in_process(source, repeat), command(source, repeat))
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--plays", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()
    from corpus import game_file

    from wnotation.archive.export import export

    root = Path(tempfile.mkdtemp(prefix="bench-stats-"))
    try:
        corpus, _ = game_file(root, opts.games)
        export([corpus], root / "out")
        run(root / "out", root, opts.plays, opts.repeat)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
