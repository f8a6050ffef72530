"""The two builds in the benchmark (issue 11): the pure-Python install and the compiled one (mypyc, hatch_build.py),
each measured on the library phases that run the engine (replay, the full check, the bot) and as whole processes
(``wnotation generate``, a one-game ``wnotation check``), with ``python -c "import chess.pgn"`` as the start-up
yardstick. Whole processes are timed in CPU time (user + system, ``RUSAGE_CHILDREN``) and run outside the
repository, so that ``python -m wnotation`` imports the installed package, not the source tree.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from corpus import Corpus

REPO = Path(__file__).resolve().parent.parent

#: The library phases measured on both builds (the reader is pure Python in both: only the engine is compiled), and
#: python-chess's ``read_game``, measured in the same rounds for the check's ratio.
BUILD_PHASES = ("replay", "check", "bot")
_CHILD = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
          "stderr=subprocess.DEVNULL).returncode; u = resource.getrusage(resource.RUSAGE_CHILDREN); "
          "print(code, u.ru_utime + u.ru_stime)")


def _child_env(cache: Path) -> dict[str, str]:
    """The environment of a whole-process run: bytecode written to and read from ``cache``. An installed package
    has its bytecode compiled at install time (pip does so, and python-chess's is there); an environment that
    sets ``PYTHONDONTWRITEBYTECODE`` would otherwise make every start-up of the source tree (the pure build, an
    editable install) compile the sources again, which is no cost of the package."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def child_cpu(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, int]:
    """CPU seconds (user + system) of one whole process ``cmd``, start-up included, and its exit code. Run from
    ``cwd``, outside the repository, so that ``python -m wnotation`` imports the installed package."""
    done = subprocess.run([sys.executable, "-c", _CHILD, *cmd], capture_output=True, text=True, cwd=cwd, check=True,
                          env=env)
    code, cpu = done.stdout.split()
    return float(cpu), int(code)


def rounds(jobs: dict[str, list[str]], cwd: Path, runs: int, log: Callable[[str], None]) -> dict[str, dict]:
    """Each whole-process command of ``jobs`` (label -> command) run ``runs`` times, in rounds (every command once
    per round, so that all meet the same background load), after one warm-up run each that also writes the
    bytecode (:func:`_child_env`); the least CPU of each is kept."""
    envs = {label: _child_env(cwd / "pycache" / label.split()[-1].strip("()")) for label in jobs}
    for label, cmd in jobs.items():
        child_cpu(cmd, cwd, envs[label])
    cpus: dict[str, list[float]] = {label: [] for label in jobs}
    codes: dict[str, int] = {}
    for k in range(runs):
        for label, cmd in jobs.items():
            cpu, codes[label] = child_cpu(cmd, cwd, envs[label])
            cpus[label].append(cpu)
            log(f"  {label} run {k + 1}/{runs}: {cpu:.3f} s CPU, exit {codes[label]}")
    return {label: {"cpu": min(v), "all": [round(x, 4) for x in v], "exit": codes[label]} for label, v in cpus.items()}


def is_compiled(python: str) -> bool:
    code = "import wnotation.engine as e; print(e.COMPILED)"
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=tempfile.gettempdir())
    return done.returncode == 0 and done.stdout.strip() == "True"


def build_compiled(root: Path, log: Callable[[str], None]) -> str | None:
    """An interpreter with the compiled build: a venv in ``root`` seeing this interpreter's packages (lark,
    pydantic, python-chess ...) with the wheel installed over them (``pip install --no-deps .``, which compiles the
    engine when a C compiler is present); reused when it is there already. ``None`` if the build is pure."""
    venv = root / "compiled-venv"
    python = str(venv / "bin" / "python")
    if not (venv / "bin" / "python").exists():
        log(f"building the compiled wheel into {venv} (a few minutes) ...")
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(REPO)],
                       check=True, env={k: v for k, v in os.environ.items() if k != "WNOTATION_PURE"})
    return python if is_compiled(python) else None


def build_figures(c: Corpus, root: Path, runs: int, compiled: str | None, bot_games: int, gen_games: int, *,
                  phase: Callable[..., dict], log: Callable[[str], None]) -> dict:
    """The figures of each build, measured in rounds so that the builds (and python-chess, the check's yardstick)
    meet the same load: the library phases (replay, check, the bot; ``phase`` runs one in a fresh process, as
    run.py does) and python-chess's ``read_game``, then as whole processes ``wnotation generate`` (``gen_games``
    games, and 1 game: the difference is its steady rate), the one-game ``check`` and ``import chess.pgn``."""
    pythons = {"pure": sys.executable}
    if compiled:
        pythons["compiled"] = compiled
    first = sorted(c.wn_dir.glob("*.7wn"))[0]
    out: dict = {build: {} for build in pythons}
    runs_of: dict[tuple[str, str], list[dict]] = {}
    for name in (*BUILD_PHASES, "chess"):
        for k in range(runs):
            for build, python in pythons.items():
                if name == "chess" and build != "pure":
                    continue  # python-chess is the same library whichever wnotation build is installed
                r = phase(name, root, *((str(bot_games),) if name == "bot" else ()), python=python)
                runs_of.setdefault((build, name), []).append(r)
                log(f"  {name} ({build}) run {k + 1}/{runs}: {r['cpu']:.3f} s cpu")
    for (build, name), results in runs_of.items():
        top = dict(min(results, key=lambda r: r["cpu"]))
        top["all"] = [round(r["cpu"], 4) for r in results]
        if name == "chess":
            out["chess"] = top
        else:
            out[build][name] = top
    jobs: dict[str, list[str]] = {}
    for build, python in pythons.items():
        gen = [python, "-m", "wnotation", "generate", "-p", "7", "-s", "0", "--bot", "greedy", "-n"]
        jobs[f"generate -n {gen_games} ({build})"] = [*gen, str(gen_games)]
        jobs[f"generate -n 1 ({build})"] = [*gen, "1"]
        jobs[f"check {first.name} ({build})"] = [python, "-m", "wnotation", "check", str(first)]
    jobs["import chess.pgn (chess)"] = [sys.executable, "-c", "import chess.pgn"]
    timed = rounds(jobs, root, max(runs, 5), log)
    for build in pythons:
        out[build]["generate"] = timed[f"generate -n {gen_games} ({build})"]
        out[build]["generate_one"] = timed[f"generate -n 1 ({build})"]
        out[build]["startup"] = timed[f"check {first.name} ({build})"]
    out["import_chess"] = timed["import chess.pgn (chess)"]
    out["gen_games"] = gen_games
    return out


def builds_report(c: Corpus, res: dict, _num: Callable[..., str], _mark: Callable[[bool], str]) -> list[str]:
    """The section comparing the pure and the compiled build, with issue 11's targets (``_num`` and ``_mark`` format
    as the rest of the report does)."""
    b = res["builds"]
    chess_rate = c.chess_plies / b["chess"]["cpu"]  # measured in the same rounds as the builds' checks
    builds = [k for k in ("pure", "compiled") if k in b]
    lines = ["## Builds: pure Python and compiled (mypyc), with issue 11's targets", ""]
    if "compiled" not in b:
        lines += ["No compiled build was measured (pass `--compiled PYTHON` or `--build-compiled`; the build needs a "
                  "C compiler).", ""]

    def figures(build: str) -> dict:
        f = b[build]
        gen = b["gen_games"]
        return {
            "replay": c.actions / f["replay"]["cpu"],
            "check": c.actions / f["check"]["cpu"] / chess_rate,
            "bot": f["bot"]["games"] / f["bot"]["cpu"],
            "generate": gen / f["generate"]["cpu"],
            # games beyond the first, over the CPU they add: the rate once the process has started
            "generate_steady": (gen - 1) / max(f["generate"]["cpu"] - f["generate_one"]["cpu"], 1e-9),
            "startup": f["startup"]["cpu"],
        }

    got = {k: figures(k) for k in builds}
    chess_start = b["import_chess"]["cpu"]
    head = ["figure", *builds, *(["compiled / pure"] if len(builds) == 2 else []), "target"]
    rows = [head, ["---"] * len(head)]
    specs = [
        ("replay only (c), actions/s", "replay", lambda x: _num(x), "≥ 150,000 pure; ≥ 250,000 compiled"),
        ("full check (d) / python-chess (f), per action", "check", lambda x: f"{x:.2f}", "≥ 1.0 pure; ≥ 2.0 compiled"),
        ("greedy bot, 7 players, `play_game` games/s", "bot", lambda x: _num(x, 1), ""),
        (f"`wnotation generate -p 7 --bot greedy -n {b['gen_games']}`, games/s (whole process, CPU)", "generate",
         lambda x: _num(x, 1), ""),
        (f"the same, steady rate: {b['gen_games'] - 1} games over the CPU they add to `-n 1`", "generate_steady",
         lambda x: _num(x, 1), "≥ 300 pure; ≥ 910 compiled"),
        ("`wnotation check` on a one-game file, CPU s", "startup", lambda x: f"{x:.3f}", ""),
    ]
    for label, key, fmt, target in specs:
        row = [label, *(fmt(got[k][key]) for k in builds)]
        if len(builds) == 2:
            row.append(f"{got['compiled'][key] / got['pure'][key]:.2f}×")
        rows.append([*row, target])
    row = ["one-game `check` / `python -c 'import chess.pgn'` (CPU)",
           *(f"{got[k]['startup'] / chess_start:.2f}× (chess {chess_start:.3f} s)" for k in builds)]
    if len(builds) == 2:
        row.append("")
    rows.append([*row, "≤ 1.5×"])
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines.append("")
    marks = []
    for build in builds:
        g = got[build]
        aims = {"pure": (150_000, 1.0, 300.0), "compiled": (250_000, 2.0, 910.0)}[build]
        marks.append(f"{build}: replay {_mark(g['replay'] >= aims[0])}, check/chess {_mark(g['check'] >= aims[1])}"
                     + (f", generate {_mark(g['generate_steady'] >= aims[2])}" if aims[2] else "")
                     + f", start-up {_mark(g['startup'] / chess_start <= 1.5)}")
    lines.append("Targets: " + "; ".join(marks) + ". The compiled build compiles the engine, the reader's fast route, "
                 "builder, header and splitter, and the canonical writer (pyproject.toml's compile list); the Lark "
                 "route, the Record and the other front ends are pure Python in both. Each figure is the least CPU of its runs, the builds (and "
                 "python-chess, for the check's ratio) measured in rounds, one run of each per round, so that they "
                 "meet the same load. Whole processes run with their bytecode written once and reused (as an "
                 "installed package has it). Every run: " + "; ".join(
                     f"{k} {name} {b[k][name]['all']}" for k in builds for name in (*BUILD_PHASES, "generate",
                                                                                      "generate_one", "startup"))
                 + f"; python-chess read_game {b['chess']['all']}; import chess.pgn {b['import_chess']['all']}.")
    lines.append("")
    return lines
