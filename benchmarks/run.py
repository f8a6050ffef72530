"""wnotation benchmarks, one command: throughput against python-chess and the lexer floor, memory when streaming,
and ``--jobs`` scaling. A benchmark, not a test: targets are reported, never asserted.

    python benchmarks/run.py                  # 2,000 games, 3 runs per figure (about 10-15 minutes on 2 cores)
    python benchmarks/run.py --quick          # smoke run, about a minute
    python benchmarks/run.py --profile        # also cProfile the full check (top functions to a file)
    python benchmarks/run.py --build-compiled # also the compiled build (mypyc), built into a venv in the workdir

One run generates a seeded corpus (bot-played games, 3-7 players, alternating random and greedy bots) into a
temporary directory: one .7wn file, one JSON file per game, and a PGN file of random legal chess games with exactly
as many plies as the 7WN games have actions. Each figure is measured in a fresh interpreter (see phases.py) and the
best of ``--runs`` runs is kept. The Markdown table is printed and written to benchmarks/RESULTS.md (its "What was
found" section, written by people, is kept). Needs the ``bench`` extra (python-chess): pip install -e '.[bench]'.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from builds import build_compiled, build_figures, builds_report, is_compiled  # noqa: E402
from corpus import Corpus, generate, repeat_file  # noqa: E402

RESULTS = HERE / "RESULTS.md"
#: The single-process phases, timed in CPU time (phases.py), in report order.
CPU_PHASES = ("lexer", "lalr", "parse", "parse_lark", "parse_file", "replay", "check", "json", "chess")
FOUND = "## What was found"

TARGETS = {
    "check_vs_chess": 1.0,  # aim 2.0
    "parse_vs_lexer": 0.5,
    "replay": 150_000,
    "jobs": 1.7,
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --- running phases ------------------------------------------------------------------------------------------------


def phase(name: str, root: Path, *extra: str, python: str = sys.executable) -> dict:
    """One phase in a fresh ``python`` (the running interpreter, or one with the compiled build)."""
    cmd = [python, str(HERE / "phases.py"), name, str(root), *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        raise RuntimeError(f"phase {name} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def best(name: str, root: Path, runs: int, *extra: str, key: str = "cpu", python: str = sys.executable) -> dict:
    """The run with the smallest ``key`` among ``runs`` fresh-process runs; ``all`` lists every run's figure."""
    results = []
    for k in range(runs):
        r = phase(name, root, *extra, python=python)
        results.append(r)
        log(f"  {name}{' ' + ' '.join(extra) if extra else ''}{' (compiled)' if r.get('compiled') else ''} run "
            f"{k + 1}/{runs}: {r[key]:.3f} s {key}, {r['wall']:.3f} s wall")
    top = min(results, key=lambda r: r[key])
    top["all"] = [round(r[key], 4) for r in results]
    return top


def cli_check_available() -> bool:
    try:
        done = subprocess.run([sys.executable, "-m", "wnotation", "check", "--help"], capture_output=True, text=True,
                              cwd=REPO, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and "--jobs" in done.stdout


def cli_rss(path: Path) -> dict:
    """Peak RSS of ``wnotation check PATH`` (run under a small wrapper whose only child it is)."""
    wrapper = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
               "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
               "print(code, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m", "wnotation", "check", str(path)],
                          capture_output=True, text=True, cwd=REPO, check=True)
    code, wall, rss = done.stdout.split()
    return {"exit": int(code), "wall": float(wall), "peak_rss_kib": int(rss), "file_bytes": path.stat().st_size}


def _cli_once(path: Path, jobs: int) -> tuple[float, int, str]:
    cmd = [sys.executable, "-m", "wnotation", "check", str(path), "--jobs", str(jobs)]
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    return time.perf_counter() - t, done.returncode, (done.stdout + done.stderr)[-400:]


def cli_check(path: Path, jobs: int, runs: int) -> dict:
    """Wall time of ``wnotation check PATH --jobs N`` (interpreter start-up included), best of ``runs``."""
    walls, code, tail = [], None, ""
    for k in range(runs):
        wall, code, tail = _cli_once(path, jobs)
        walls.append(wall)
        log(f"  wnotation check --jobs {jobs} run {k + 1}/{runs}: {wall:.3f} s wall, exit {code}")
    return {"wall": min(walls), "all": [round(w, 4) for w in walls], "exit": code, "tail": tail}


def cli_pair(path: Path, runs: int) -> tuple[dict, dict]:
    """``--jobs 1`` and ``--jobs 2`` run alternately (1, 2, 1, 2, ...), so that both meet the same background load;
    the best of each is kept."""
    out: dict[int, dict] = {n: {"all": [], "exit": None, "tail": ""} for n in (1, 2)}
    for k in range(runs):
        for n in (1, 2):
            wall, code, tail = _cli_once(path, n)
            out[n]["all"].append(round(wall, 4))
            out[n]["exit"], out[n]["tail"] = code, tail
            log(f"  wnotation check --jobs {n} run {k + 1}/{runs}: {wall:.3f} s wall, exit {code}")
    for n in (1, 2):
        out[n]["wall"] = min(out[n]["all"])
    return out[1], out[2]


def pool_pair(root: Path, runs: int) -> tuple[dict, dict]:
    """phases.pool with 1 and 2 workers, run alternately; the best wall time of each is kept."""
    results: dict[int, list] = {1: [], 2: []}
    for k in range(runs):
        for n in (1, 2):
            r = phase("pool", root, str(n))
            results[n].append(r)
            log(f"  pool {n} run {k + 1}/{runs}: {r['wall']:.3f} s wall")
    out = []
    for n in (1, 2):
        top = min(results[n], key=lambda r: r["wall"])
        top["all"] = [round(r["wall"], 4) for r in results[n]]
        out.append(top)
    return out[0], out[1]


# --- the machine ---------------------------------------------------------------------------------------------------


def machine() -> dict:
    import lark

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "unknown"
    try:
        import chess

        chess_version = chess.__version__
    except ImportError:
        chess_version = "not installed"
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
                              ).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "wnotation", "grammar"],
                               capture_output=True, text=True, cwd=REPO).stdout.strip()
        commit = head + (" + uncommitted changes to wnotation/ or grammar/" if dirty else "")
    except OSError:
        commit = "unknown"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version() + " (" + platform.python_implementation() + ")",
        "lark": lark.__version__,
        "chess": chess_version,
        "os": platform.platform(),
        "date": dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "commit": commit,
        "load": " / ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


# --- the report ----------------------------------------------------------------------------------------------------


def _num(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


def _row(what: str, r: dict, actions: int, size: int, note: str = "") -> list[str]:
    t = r["cpu"]
    return [what, _num(actions / t), _num(r["games"] / t), _num(size / t / 1e6, 2), f"{t:.3f}", note]


def _mark(ok: bool) -> str:
    return "met" if ok else "**missed**"


def report(c: Corpus, m: dict, res: dict, args) -> str:
    a, g = c.actions, c.games
    lines = ["# wnotation benchmark results", ""]
    lines.append(f"Latest run of `python benchmarks/run.py{' ' + ' '.join(args.argv) if args.argv else ''}` "
                 f"(benchmarks/README.md explains every row).")
    lines.append("")
    lines.append(f"- Machine: {m['cpu']}, {m['cores']} cores; {m['os']}")
    lines.append(f"- Python {m['python']}, lark {m['lark']}, python-chess {m['chess']}; wnotation at {m['commit']}")
    lines.append(f"- Date: {m['date']}; load average (1/5/15 min) at start {m['load']}, at end {res['load_end']}")
    players = ", ".join(f"{n}p: {k}" for n, k in sorted(c.players.items()))
    lines.append(f"- Corpus: {g:,} bot-played games ({players}), {a:,} actions "
                 f"({a / g:.1f} per game, plus {c.picks:,} pick clauses), .7wn {c.wn_bytes / 1e6:.2f} MB, "
                 f"JSON {c.json_bytes / 1e6:.2f} MB; PGN {c.chess_games:,} random legal chess games, "
                 f"{c.chess_plies:,} plies, {c.pgn_bytes / 1e6:.2f} MB")
    lines.append(f"- Each figure: best of {args.runs} runs, each in a fresh interpreter after a warm-up on "
                 f"{8} other games; single-process rows are timed in process CPU time (the machine is shared)")
    lines.append("")
    lines.append("## Throughput (one process)")
    lines.append("")
    head = ["what", "actions/s", "games/s", "MB/s", "CPU s", "note"]
    rows = [head, ["---"] * len(head)]
    lx = res["lexer"]
    rows.append(_row("(a) lexer floor: Lark contextual lexer alone", lx, a, c.wn_bytes,
                     f"{lx['tokens'] / a:.2f} tokens/action, {lx['tokens'] / lx['games']:.0f} tokens/game"))
    rows.append(_row("(a') Lark lexer + LALR parser, no-op callbacks", res["lalr"], a, c.wn_bytes,
                     "the reader's grammar and configuration; what Lark costs"))
    rows.append(_row("(b) parse: `parse(text)` per game", res["parse"], a, c.wn_bytes,
                     "same texts as (a); the reader picks its route (plain games: the fast route)"))
    rows.append(_row("(b'') parse, Lark route only: `reader._lark_game`", res["parse_lark"], a, c.wn_bytes,
                     "Lark + inline transformer: the reference route (annotated games, errors)"))
    rows.append(_row("(b') parse: `read_games(path)` streaming", res["parse_file"], a, c.wn_bytes,
                     "file reading and game splitting included"))
    rows.append(_row("(c) replay only: `replay(record)`", res["replay"], a, c.wn_bytes, "Records ready in memory"))
    rows.append(_row("(d) full check: `read_games` + `replay` + score", res["check"], a, c.wn_bytes,
                     f"stated results verified; {res['check']['scored']:,} games scored, "
                     f"{res['check']['errors']} notation errors, {res['check']['findings']} findings"))
    rows.append(_row("(e) load JSON: `from_json` per game file", res["json"], a, c.json_bytes,
                     "MB/s of JSON"))
    ch = res["chess"]
    rows.append(["(f) python-chess `chess.pgn.read_game`", _num(c.chess_plies / ch["cpu"]),
                 _num(ch["games"] / ch["cpu"]), _num(c.pgn_bytes / ch["cpu"] / 1e6, 2), f"{ch['cpu']:.3f}",
                 f"plies as actions; python-chess {ch['version']}"])
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines.append("")

    def rate(key: str) -> float:
        return a / res[key]["cpu"]

    chess_rate = c.chess_plies / ch["cpu"]
    ratio_check = rate("check") / chess_rate
    ratio_parse_chess = rate("parse_file") / chess_rate
    ratio_lex = rate("parse") / rate("lexer")
    replay_rate = rate("replay")
    lines.append("## Ratios and targets (reported, never asserted)")
    lines.append("")
    rows = [["figure", "value", "target", ""], ["---"] * 4]
    rows.append(["full check (d) / python-chess (f), per action", f"{ratio_check:.2f}", "≥ 1.0 (aim 2.0)",
                 _mark(ratio_check >= 1.0)])
    rows.append(["parse (b') / python-chess (f), per action", f"{ratio_parse_chess:.2f}", "", ""])
    rows.append(["parse (b) / lexer floor (a)", f"{ratio_lex:.0%}", "≥ 50%", _mark(ratio_lex >= 0.5)])
    rows.append(["parse, Lark route (b'') / lexer floor (a)", f"{rate('parse_lark') / rate('lexer'):.0%}", "", ""])
    rows.append(["Lark lexer + LALR (a') / lexer floor (a)", f"{rate('lalr') / rate('lexer'):.0%}",
                 "the ceiling of (b) / (a) while Lark parses", ""])
    t_check = res["check"]["cpu"]
    parse_s, replay_s = res["parse_file"]["cpu"], res["replay"]["cpu"]
    rest = (t_check - parse_s - replay_s) / t_check
    rows.append(["where the full check's time goes (separate runs)",
                 f"reading {parse_s / t_check:.0%}, replay {replay_s / t_check:.0%}, the rest {rest:.0%} (both in "
                 "one process: garbage collection over a heap holding both, cache interference, run-to-run noise)",
                 "", ""])
    rows.append(["replay only (c), actions/s", _num(replay_rate), "≥ 150,000", _mark(replay_rate >= 150_000)])
    mem = res["memory"]
    growth = (mem["large"]["peak_rss_kib"] - mem["small"]["peak_rss_kib"]) / 1024
    flat = growth < 16
    rows.append([f"peak RSS streaming {mem['large']['games']:,} games vs {mem['small']['games']:,}",
                 f"{growth:+.1f} MiB", "flat (< 16 MiB growth)", _mark(flat)])
    jobs = res["jobs"]
    t = jobs["target"]
    speedup = t["1"]["wall"] / t["2"]["wall"]
    rows.append([f"{t['how']}: --jobs 2 speed-up over --jobs 1", f"{speedup:.2f}×", "≥ 1.7×",
                 _mark(speedup >= 1.7)])
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines.append("")
    lines += builds_report(c, res, _num, _mark)
    lines.append("## Memory when streaming (`read_games(path)`, parse only, peak RSS of a fresh process)")
    lines.append("")
    rows = [["file", "games", "size", "peak RSS", "after imports", "RSS at 1% / 10% / 50% / 100% of the games",
             "games/s"], ["---"] * 7]
    for label in ("small", "large"):
        r = mem[label]
        s = r["samples"]
        rows.append([label, _num(r["games"]), f"{r['file_bytes'] / 1e6:.1f} MB", f"{r['peak_rss_kib'] / 1024:.1f} MiB",
                     f"{r['import_rss_kib'] / 1024:.1f} MiB",
                     " / ".join(f"{s[k] / 1024:.1f}" if k in s else "-" for k in ("1%", "10%", "50%", "100%")),
                     _num(r["games"] / r["cpu"])])
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines.append("")
    if "cli" in mem:
        lines.append("`wnotation check PATH` (the whole command: streams pieces of whole games, keeps counts and the reports with diagnostics):")
        lines.append("")
        rows = [["file", "games", "size", "peak RSS", "wall s", "exit"], ["---"] * 6]
        for label in ("small", "large"):
            r = mem["cli"][label]
            rows.append([label, _num(r["games"]), f"{r['file_bytes'] / 1e6:.1f} MB",
                         f"{r['peak_rss_kib'] / 1024:.1f} MiB", f"{r['wall']:.1f}", str(r["exit"])])
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        lines.append("")
    lines.append("## Parallel check (wall time on the corpus, best of the runs; --jobs 1 and 2 run alternately)")
    lines.append("")
    rows = [["how", "--jobs 1 s", "--jobs 2 s", "speed-up", "games/s at 2", "all runs (1; 2)", "exit codes"],
            ["---"] * 7]
    for r in jobs["rows"]:
        rows.append([r["how"], f"{r['1']['wall']:.2f}", f"{r['2']['wall']:.2f}",
                     f"{r['1']['wall'] / r['2']['wall']:.2f}×",
                     _num(g / r["2"]["wall"]), ", ".join(f"{x:.2f}" for x in r["1"]["all"]) + "; "
                     + ", ".join(f"{x:.2f}" for x in r["2"]["all"]), r["exit"]])
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines.append("")
    if jobs["cli"]:
        lines.append(f"CLI rows are the wall time of the whole command, interpreter start-up included: "
                     f"`wnotation check` on a one-game file takes {jobs['startup']['wall']:.2f} s. The pool row "
                     "(benchmarks/phases.py: pool) sends batches of 16 games of the one file to N workers with the "
                     "same library calls, pool start-up included.")
    else:
        lines.append("`wnotation check --jobs` was not available when this ran, so the same library calls "
                     "(read_games + replay) run in a multiprocessing pool of N workers, batches of 16 games, pool "
                     "start-up included (benchmarks/phases.py: pool).")
    lines.append("")
    lines.append("Every run of each figure (CPU s unless marked): " + "; ".join(
        f"{k} {res[k]['all']}" for k in CPU_PHASES) + ".")
    lines.append("")
    return "\n".join(lines)


def write_results(table: str) -> None:
    kept = ""
    if RESULTS.exists():
        old = RESULTS.read_text(encoding="utf-8")
        at = old.find(FOUND)
        if at >= 0:
            kept = old[at:]
    if not kept:
        kept = FOUND + "\n\n(not yet written: profile with `python benchmarks/run.py --profile`)\n"
    RESULTS.write_text(table + "\n" + kept, encoding="utf-8")


# --- profiling -----------------------------------------------------------------------------------------------------


def profile(c: Corpus, out: Path, top: int = 30) -> str:
    """cProfile of the full check's timed pass (phases.check) in a fresh process; the top functions by own time
    and by cumulative time, as text (also written to ``out``)."""
    code = (
        "import cProfile, pstats, sys, io; sys.path.insert(0, %r); import phases; from corpus import Corpus; "
        "c = Corpus.load(%r); pr = cProfile.Profile(); phases.check(c, pr); "
        "s = io.StringIO(); st = pstats.Stats(pr, stream=s); st.sort_stats('tottime').print_stats(%d); "
        "st.sort_stats('cumulative').print_stats(%d); print(s.getvalue())" % (str(HERE), c.root, top, top)
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    out.write_text(done.stdout, encoding="utf-8")
    return done.stdout


def jobs_figures(c: Corpus, root: Path, runs: int) -> dict:
    """``--jobs 1`` against ``--jobs 2``, run alternately: the CLI on the one big file and on the directory of
    one-game files, and the same library calls in a game-level process pool (phases.pool) on the big file."""
    rows = []
    cli = cli_check_available()
    if cli:
        first = sorted(c.wn_dir.glob("*.7wn"))[0]
        startup = cli_check(first, 1, runs)
        for what, path in (("one file", c.wn), (f"{c.games:,} one-game files", c.wn_dir)):
            one, two = cli_pair(path, runs)
            rows.append({"how": f"`wnotation check --jobs N`, {what}", "1": one, "2": two,
                         "exit": f"{one['exit']}/{two['exit']}"})
    else:
        startup = None
    one, two = pool_pair(root, runs)
    rows.append({"how": "process pool of N over games, one file (library calls)", "1": one, "2": two,
                 "exit": "-"})
    target = rows[0]  # the corpus as one file (the CLI cuts a file into pieces of whole games)
    return {"rows": rows, "target": target, "cli": cli, "startup": startup}


# --- main ----------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python benchmarks/run.py", description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=None, help="games in the corpus (default 2000; 120 with --quick)")
    ap.add_argument("--runs", type=int, default=None, help="fresh-process runs per figure, best kept (default 3; "
                    "1 with --quick)")
    ap.add_argument("--stream-games", type=int, default=None,
                    help="games in the large file of the memory test (default 50000; 3000 with --quick)")
    ap.add_argument("--cli-games", type=int, default=None,
                    help="games in the large file of the CLI memory test (default 5 × --games)")
    ap.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    ap.add_argument("--quick", action="store_true", help="a smoke run of about a minute; figures are rough")
    ap.add_argument("--profile", action="store_true", help="also cProfile the full check; top functions printed "
                    "and written to wnotation-profile-check.txt in the temporary directory")
    ap.add_argument("--workdir", help="keep the corpus here and reuse it when its manifest matches (default: a "
                    "temporary directory, removed afterwards)")
    ap.add_argument("--no-write", action="store_true", help="print the table without updating RESULTS.md")
    ap.add_argument("--compiled", metavar="PYTHON", help="an interpreter whose wnotation is the compiled build (e.g. "
                    "a venv after 'pip install .'): replay, check, the bot, generate and start-up are measured with it "
                    "too")
    ap.add_argument("--build-compiled", action="store_true", help="build that interpreter: a venv in the work "
                    "directory with the wheel installed (compiles the engine with mypyc when a C compiler is present; "
                    "reused with --workdir)")
    ap.add_argument("--bot-games", type=int, default=None, help="7-player greedy games the bot plays for its figure "
                    "(default 200; 30 with --quick), and twice that for `wnotation generate` (enough games for its "
                    "steady rate, the CPU they add to a one-game run, to stand above run-to-run noise)")
    args = ap.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else argv
    args.games = args.games or (120 if args.quick else 2000)
    args.runs = args.runs or (1 if args.quick else 3)
    args.stream_games = args.stream_games or (3000 if args.quick else 50_000)
    args.cli_games = args.cli_games or 5 * args.games
    args.bot_games = args.bot_games or (30 if args.quick else 200)

    m = machine()
    log(f"machine: {m['cpu']}, {m['cores']} cores, load {m['load']}")
    tmp = None
    if args.workdir:
        root = Path(args.workdir)
    else:
        tmp = tempfile.mkdtemp(prefix="wnotation-bench-")
        root = Path(tmp)
    try:
        c = None
        if (root / "manifest.json").exists():
            old = Corpus.load(root)
            if old.games == args.games and old.seed == args.seed:
                c = old
                log(f"reusing the corpus in {root}")
        if c is None:
            log(f"generating {args.games} games and the chess corpus in {root} ...")
            t = time.perf_counter()
            c = generate(root, args.games, args.seed, log=log)
            log(f"  done in {time.perf_counter() - t:.1f} s: {c.actions} actions, {c.chess_plies} plies")
        res: dict = {}
        for name in CPU_PHASES:
            log(f"{name} ...")
            res[name] = best(name, root, args.runs)
        log("memory ...")
        large = root / "stream.7wn"
        n_large = repeat_file(c.wn, large, args.stream_games, c.games)
        res["memory"] = {"small": phase("stream", root, str(c.wn), str(c.games)),
                         "large": phase("stream", root, str(large), str(n_large))}
        if cli_check_available():
            cli_large = root / "cli.7wn"
            n_cli = repeat_file(c.wn, cli_large, args.cli_games, c.games)
            log(f"  wnotation check on {c.games} and {n_cli} games ...")
            res["memory"]["cli"] = {"small": dict(cli_rss(c.wn), games=c.games),
                                    "large": dict(cli_rss(cli_large), games=n_cli)}
            cli_large.unlink()
        large.unlink()
        log("jobs ...")
        res["jobs"] = jobs_figures(c, root, args.runs)
        compiled = args.compiled
        if compiled and not is_compiled(compiled):
            log(f"  {compiled}: its wnotation.engine is not compiled; measuring the pure build only")
            compiled = None
        if args.build_compiled and not compiled:
            compiled = build_compiled(root, log)
            if compiled is None:
                log("  the wheel was built pure (no C compiler?): measuring the pure build only")
        res["builds"] = build_figures(c, root, args.runs, compiled, args.bot_games, max(30, 2 * args.bot_games),
                                      phase=phase, log=log)
        m2 = os.getloadavg()
        res["load_end"] = " / ".join(f"{x:.2f}" for x in m2)
        table = report(c, m, res, args)
        print(table)
        if not args.no_write:
            write_results(table)
            log(f"wrote {RESULTS}")
        if args.profile:
            log("profiling the full check ...")
            text = profile(c, Path(tempfile.gettempdir()) / "wnotation-profile-check.txt")
            print("\n".join(text.splitlines()[:70]))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
