"""Export and check on a real Dask cluster: a LocalCluster with two worker processes (a real scheduler and real
workers, no mocks). Output read back equals the local run's, also when a worker is killed mid-run."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("duckdb")
distributed = pytest.importorskip("distributed")

from wnotation import write  # noqa: E402
from wnotation.archive.cluster import check_on_cluster  # noqa: E402
from wnotation.archive.export import export  # noqa: E402
from wnotation.archive.schema import TABLES  # noqa: E402
from wnotation.archive.store import ArchiveError, part_files, read_table  # noqa: E402
from wnotation.diagnostics.batch import check_many  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402

from cli_helpers import run  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as c:
        yield c


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    games = [write(play_game(3 + k % 5, 500 + k, "random")) for k in range(24)]
    (root / "a.7wn").write_text("\n".join(games[:20]), encoding="utf-8")
    (root / "b.7wn").write_text(games[20].replace("\nI.3 ", "\nI.3 Nonsense ", 1) + "\n" + "\n".join(games[21:]),
                                encoding="utf-8")
    (root / "c.7wn").write_bytes(b"\xff not utf-8")
    return [root / "a.7wn", root / "b.7wn", root / "c.7wn"]


def same_archive(a: Path, b: Path) -> None:
    for table in TABLES:
        assert read_table(a, table) == read_table(b, table), table
        assert [Path(f).name for f in part_files(a, table)] == [Path(f).name for f in part_files(b, table)]


def staged_parts(parent: Path, name: str) -> int:
    """The plays parts written so far by an export to ``parent/name`` (into its staging directory)."""
    return sum(len(part_files(stage, "plays")) for stage in parent.glob(f".{name}.wnotation-export-*"))


def test_export_on_the_cluster_equals_the_local_run(cluster, corpus, tmp_path):
    local = export(corpus, tmp_path / "local", piece_games=3)
    remote = export(corpus, tmp_path / "remote", piece_games=3, scheduler=cluster.scheduler_address)
    ignore = {"seconds": 0, "cpu_seconds": None, "targets": []}  # a cluster's CPU is not this process's
    assert remote.cpu_seconds is None and local.cpu_seconds is not None
    assert remote.to_dict() | ignore == local.to_dict() | ignore
    same_archive(tmp_path / "local", tmp_path / "remote")


def test_a_worker_killed_mid_run_loses_and_duplicates_no_game(cluster, corpus, tmp_path):
    export(corpus, tmp_path / "local", piece_games=1)
    client = distributed.Client(cluster.scheduler_address)
    try:
        pids = client.run(os.getpid)
        done: dict = {}

        def run() -> None:
            done["summary"] = export(corpus, tmp_path / "remote", piece_games=1, scheduler=cluster.scheduler_address)

        worker = threading.Thread(target=run)
        worker.start()
        deadline = time.monotonic() + 60
        while staged_parts(tmp_path, "remote") < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        victim = sorted(pids.values())[0]
        os.kill(victim, signal.SIGKILL)
        written_at_kill = staged_parts(tmp_path, "remote")
        worker.join(120)
        assert not worker.is_alive()
        assert written_at_kill < done["summary"].pieces  # the kill came while pieces were left
    finally:
        client.close()
    same_archive(tmp_path / "local", tmp_path / "remote")
    games = read_table(tmp_path / "remote", "games")
    assert len({g[0] for g in games}) == len(games)  # no game twice
    assert not list((tmp_path / "remote").rglob("*.tmp"))


def test_check_on_the_cluster_gives_the_local_reports_in_order(cluster, corpus):
    paths = [str(p) for p in corpus]
    local = [(r.source, r.error, tuple(r.games()), r.remarks) for r in check_many(paths, 1)]
    remote = [(r.source, r.error, tuple(r.games()), r.remarks) for r in check_on_cluster(paths,
                                                                                          cluster.scheduler_address)]
    assert remote == local


def test_an_unreachable_scheduler_is_one_clear_error(corpus, tmp_path, monkeypatch):
    from wnotation.archive import cluster as module

    monkeypatch.setattr(module, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(ArchiveError, match="cannot reach the Dask scheduler"):
        export(corpus[:1], tmp_path / "x", scheduler="tcp://127.0.0.1:9")


def test_the_check_command_on_the_cluster_prints_what_the_local_check_prints(cluster, corpus):
    """`wnotation check --scheduler ADDRESS`: the same diagnostics, summary and exit code as a local check (a good
    file, one with a broken game, one not UTF-8), and the same JSON report."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from cli_helpers import run

    paths = [str(p) for p in corpus]
    local = run("check", *paths, code=2)
    remote = run("check", *paths, "--scheduler", cluster.scheduler_address, code=2)
    assert (remote.stdout, remote.stderr) == (local.stdout, local.stderr)
    assert "error" in local.stderr and local.stdout.strip()
    local_json = run("check", *paths, "--json", code=2)
    remote_json = run("check", *paths, "--json", "--scheduler", cluster.scheduler_address, code=2)
    assert remote_json.stdout == local_json.stdout


def test_check_scheduler_refuses_jobs_and_stdin_and_names_an_unreachable_scheduler(corpus, monkeypatch):
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from cli_helpers import run

    from wnotation.archive import cluster as module

    assert "exclude each other" in run("check", str(corpus[0]), "--jobs", "2", "--scheduler", "tcp://x:1",
                                       code=2).stderr
    assert "not standard input" in run("check", "-", "--scheduler", "tcp://x:1", code=2, input="").stderr
    monkeypatch.setattr(module, "CONNECT_TIMEOUT", "1s")
    unreachable = run("check", str(corpus[0]), "--scheduler", "tcp://127.0.0.1:9", code=2)
    assert "cannot reach the Dask scheduler" in unreachable.stderr and "Traceback" not in unreachable.stderr


def test_losing_the_scheduler_mid_export_is_a_clear_error_exit_2_and_leaves_nothing(corpus, tmp_path):
    """Issue 29 item 3: the scheduler going away while pieces are left is one sentence (no traceback, exit 2 from
    the command), and the export leaves nothing behind: no staging directory, no ``.plays-*.json`` and the
    earlier archive at the target untouched (item 1)."""
    from wnotation.archive.manifest import verified_parts

    earlier = tmp_path / "archive"
    export(corpus[:1], earlier)
    before = {t: read_table(earlier, t) for t in TABLES}
    many = tmp_path / "many.7wn"
    many.write_text("\n".join(write(play_game(3 + k % 5, 900 + k, "random")) for k in range(60)), encoding="utf-8")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=50)
    address = cluster.scheduler_address
    done: dict = {}

    def run() -> None:
        try:
            export([many], earlier, piece_games=1, scheduler=address)
        except ArchiveError as exc:
            done["error"] = str(exc)

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 60
    while staged_parts(tmp_path, "archive") < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert staged_parts(tmp_path, "archive") >= 2  # the export is under way
    cluster.close()
    thread.join(120)
    assert not thread.is_alive()
    assert done["error"].startswith(f"lost the Dask scheduler at {address}")
    time.sleep(0.5)  # what a worker still running would write, it would have written by now
    assert not list(tmp_path.glob(".archive.wnotation-export-*")) and not list(earlier.rglob(".*.json"))
    verified_parts(earlier)
    assert {t: read_table(earlier, t) for t in TABLES} == before


def test_the_export_command_says_the_scheduler_was_lost_and_exits_2(monkeypatch, corpus, tmp_path):
    from wnotation.archive import cluster as module

    def gone(*args, **kwargs):
        raise module._lost("tcp://10.0.0.5:8786")

    monkeypatch.setattr(module, "run_export", gone)
    result = run("export", str(corpus[0]), "-o", str(tmp_path / "x"), "--scheduler", "tcp://10.0.0.5:8786", code=2)
    assert result.stderr.startswith("error: lost the Dask scheduler at tcp://10.0.0.5:8786")
    assert "Traceback" not in result.stderr and not (tmp_path / "x").exists()
    assert not list(tmp_path.glob(".x.wnotation-export-*"))
