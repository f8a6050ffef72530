"""The benchmark command starts and documents itself (benchmarks are never timed tests: nothing here measures)."""

import subprocess
import sys
from pathlib import Path

RUN = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"


def test_run_help() -> None:
    done = subprocess.run([sys.executable, str(RUN), "--help"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    for option in ("--games", "--quick", "--runs", "--stream-games", "--profile"):
        assert option in done.stdout
