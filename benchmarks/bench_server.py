"""The club server under a bounded load on localhost (issue 36 item 5): viewers reading and recorders answering at
once, with latency percentiles and the errors (there must be none).

``wnotation serve`` runs as its own process on a free 127.0.0.1 port (uvicorn, one worker, as a club runs it),
over a fresh data folder holding the bundled replays (and ``--extra-games`` bot games; deriving their archive
tables and the Parquet archive is timed first, in this process). Then, concurrently, in one asyncio loop with httpx:

* ``--viewers`` viewers (default 50), each making ``--requests`` GET requests (default 200) in turn through the
  list, a game's viewer page, its 7WN download, the filtered list and a player's page, a stats page, the
  recordings' index and a game being recorded (each viewer starts at its own place in that cycle and game list);
* ``--recorders`` recorders (default 5), each logging in with the club key, starting a game and posting every
  answer of the 3-player bot game of the recorder's tests (``tests/test_recorder_session.py``'s script), each
  answer a POST and the GET of the page it redirects to, recording games again until ``--answers`` answers
  (default 150, so about 300 requests each) are posted.

A request is an error when it raises, or its status is not the one expected (200 for a page, 303 for an
answer). Printed: requests, errors, wall time, requests per second, p50/p90/p99/max latency of the viewers' GETs,
the recorders' POSTs and their redirected GETs, and the server's CPU seconds. Bounded: the counts above, and
``--max-seconds`` (default 300) for the whole run, past which it stops and reports the run as failed.

Run: ``python benchmarks/bench_server.py`` (needs the ``[server]`` extra and httpx; DuckDB for the stats pages,
without which those pages are the short page saying so). Exit status 1 when any request failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

KEY = "a club key for the load test"
CSRF_RE = re.compile(r'name="csrf" value="([^"]+)"')
#: The viewers' pages, in the order each viewer goes through them.
PAGES = ("list", "game page", "game 7WN", "find by player", "player", "stats", "recordings", "watch a recording")


@dataclass
class Timings:
    """Latencies (seconds) per kind of request, and the errors met."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, kind: str, elapsed: float) -> None:
        self.seconds.setdefault(kind, []).append(elapsed)


def _seed(data: Path, extra: int) -> list[tuple[int, list[str]]]:
    """Fill ``data`` with the bundled replays and ``extra`` bot games (greedy, seeds 0 ..., 3 to 7 players), then
    derive the archive's tables (timed, printed): ``(game id, its players)`` per stored game."""
    from wnotation.engine.bot import play_game
    from wnotation.notation import write
    from wnotation.server.browse import analytics_available
    from wnotation.server.derived import Derived
    from wnotation.server.store import Store
    from wnotation.server.upload import check_upload

    store = Store(data)
    store.set_key(KEY)
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "replays").glob("*.7wn"))]
    texts += [(f"bot-{k}.7wn", write(play_game(3 + k % 5, k, "greedy"))) for k in range(extra)]
    for name, text in texts:
        for game in check_upload(text, name).games:
            if game.game is not None:
                store.add_game(game.game)
    derived = Derived(store)
    started = time.process_time()
    count = derived.refresh()
    print(f"derived tables (SQLite): {count} games in {time.process_time() - started:.2f} CPU s")
    if analytics_available():
        started = time.process_time()
        derived.parquet()
        print(f"Parquet archive and its zip: {time.process_time() - started:.2f} CPU s")
    return [(g.id, [s[0] for s in g.seats]) for g in store.games()]


def _start(data: Path) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, WNOTATION_CLUB_KEY=KEY, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "wnotation", "serve", "--data", str(data), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if found is None:
        proc.kill()
        raise SystemExit(f"the server did not start: {line}{proc.stdout.read()}")
    return proc, f"http://127.0.0.1:{found.group(1)}"


def _cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _get(client: object, path: str, kind: str, timings: Timings, expect: int = 200) -> str:
    started = time.perf_counter()
    try:
        response = await client.get(path)  # type: ignore[attr-defined]
    except Exception as exc:  # every failure is counted, none stops the run
        timings.errors.append(f"GET {path}: {exc!r}")
        return ""
    timings.add(kind, time.perf_counter() - started)
    if response.status_code != expect:
        timings.errors.append(f"GET {path}: {response.status_code}")
    return str(response.text)


async def viewer(base: str, number: int, games: list[tuple[int, list[str]]], requests: int,
                 recordings: list[int], timings: Timings) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for k in range(requests):
            game_id, players = games[(number + k // 8) % len(games)]
            player = players[(number + k) % len(players)]
            step = (number + k) % 8
            if step == 7 and not recordings:
                step = 0
            path = ["/", f"/games/{game_id}", f"/games/{game_id}.7wn", f"/browse?player={player}",
                    f"/player?name={player}", "/stats/wonders", "/record",
                    f"/record/{recordings[-1] if recordings else 0}"][step]
            await _get(client, path, f"GET {PAGES[step]}", timings)


async def recorder(base: str, answers: int, recordings: list[int], timings: Timings) -> None:
    import httpx
    from test_recorder_session import THREE, bot_game, script

    target = bot_game(*THREE)
    typed = script(target)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        page = await _get(client, "/login", "recorder GET", timings)
        token = CSRF_RE.search(page)
        if token is None:
            timings.errors.append("no login form")
            return
        started = time.perf_counter()
        done = await client.post("/login", data={"key": KEY, "csrf": token.group(1)})
        timings.add("login POST", time.perf_counter() - started)
        if done.status_code != 303:
            timings.errors.append(f"login: {done.status_code}")
            return
        posted = 0
        while posted < answers:
            page = await _get(client, "/record", "recorder GET", timings)
            csrf = CSRF_RE.search(page)
            if csrf is None:
                timings.errors.append("no recording form")
                return
            fields = {"csrf": csrf.group(1), "date": "2026.12.03", "event": "Load test"}
            for k, seat in enumerate(target.seats, 1):
                fields.update({f"name{k}": seat.name, f"wonder{k}": seat.wonder, f"side{k}": seat.side})
            started = time.perf_counter()
            new = await client.post("/record", data=fields)
            timings.add("recorder POST", time.perf_counter() - started)
            if new.status_code != 303:
                timings.errors.append(f"POST /record: {new.status_code}")
                return
            rid = int(new.headers["location"].rsplit("/", 1)[1])
            recordings.append(rid)
            for answer in typed:
                if posted >= answers:
                    break
                started = time.perf_counter()
                try:
                    sent = await client.post(f"/record/{rid}", data={"csrf": csrf.group(1), "answer": answer})
                except Exception as exc:
                    timings.errors.append(f"POST /record/{rid}: {exc!r}")
                    continue
                timings.add("recorder POST", time.perf_counter() - started)
                posted += 1
                if sent.status_code != 303:
                    timings.errors.append(f"POST /record/{rid} {answer!r}: {sent.status_code}")
                    continue
                await _get(client, sent.headers["location"], "recorder GET", timings)


def _percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    cuts = statistics.quantiles(ordered, n=100, method="inclusive") if len(ordered) > 1 else ordered * 99
    return (f"p50 {cuts[49] * 1000:7.1f} ms  p90 {cuts[89] * 1000:7.1f} ms  p99 {cuts[98] * 1000:7.1f} ms  "
            f"max {ordered[-1] * 1000:7.1f} ms")


async def _run(base: str, games: list[tuple[int, list[str]]], args: argparse.Namespace, timings: Timings) -> None:
    recordings: list[int] = []
    tasks = [viewer(base, k, games, args.requests, recordings, timings) for k in range(args.viewers)]
    tasks += [recorder(base, args.answers, recordings, timings) for _ in range(args.recorders)]
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.max_seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--requests", type=int, default=200, help="GET requests per viewer")
    parser.add_argument("--recorders", type=int, default=5)
    parser.add_argument("--answers", type=int, default=150, help="answers posted per recorder")
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--extra-games", type=int, default=0,
                        help="bot games stored beside the bundled replays (the viewers read them all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wn-bench-server-") as folder:
        data = Path(folder) / "data"
        games = _seed(data, args.extra_games)
        proc, base = _start(data)
        timings = Timings()
        try:
            started = time.perf_counter()
            try:
                asyncio.run(_run(base, games, args, timings))
            except (TimeoutError, asyncio.TimeoutError):
                timings.errors.append(f"the run passed --max-seconds {args.max_seconds}")
            wall = time.perf_counter() - started
            cpu = _cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    total = sum(len(v) for v in timings.seconds.values())
    viewers = [t for kind, v in timings.seconds.items() if kind.startswith("GET ") for t in v]
    print(f"server: {base} (one uvicorn worker), {len(games)} games stored; {args.viewers} viewers x "
          f"{args.requests} GETs, {args.recorders} recorders x {args.answers} answers")
    print(f"requests: {total:,} in {wall:.1f} s wall ({total / wall:,.0f}/s); errors: {len(timings.errors)}"
          + (f"; server CPU {cpu:.1f} s" if cpu is not None else ""))
    if viewers:
        print(f"  {'viewers, every GET':<21} {len(viewers):>6,}  {_percentiles(viewers)}")
    for kind, values in sorted(timings.seconds.items()):
        print(f"  {kind:<21} {len(values):>6,}  {_percentiles(values)}")
    for error in timings.errors[:20]:
        print(f"  error: {error}")
    return 1 if timings.errors else 0


if __name__ == "__main__":
    sys.exit(main())
