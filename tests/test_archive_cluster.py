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
from wnotation.batch import check_many  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402


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


def test_export_on_the_cluster_equals_the_local_run(cluster, corpus, tmp_path):
    local = export(corpus, tmp_path / "local", piece_games=3)
    remote = export(corpus, tmp_path / "remote", piece_games=3, scheduler=cluster.scheduler_address)
    assert remote.to_dict() | {"seconds": 0, "targets": []} == local.to_dict() | {"seconds": 0, "targets": []}
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
        while len(part_files(tmp_path / "remote", "plays")) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        victim = sorted(pids.values())[0]
        os.kill(victim, signal.SIGKILL)
        written_at_kill = len(part_files(tmp_path / "remote", "plays"))
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
