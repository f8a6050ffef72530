"""Output that cannot be delivered, in real processes: a closed stdout or a full disk is an error (exit 2, one line
on stderr); a reader that closes the pipe early ends the command the way it ends coreutils' writers (SIGPIPE)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = str(ROOT / "replays" / "4p-alexandria-ephesos-gizah-rhodos.7wn")
WNOTATION = [sys.executable, "-m", "wnotation"]

#: Every command that writes a result to stdout.
WRITERS = [["score", GAME], ["score", GAME, "--json"], ["show", GAME], ["cards"], ["cards", "--json"],
           ["generate", "-p", "3", "-s", "1"], ["json", GAME], ["fmt", GAME], ["check", GAME],
           ["check", GAME, "--json"], ["schema"]]


def _closed_stdout() -> None:
    os.close(1)


@pytest.mark.parametrize("args", WRITERS, ids=lambda a: " ".join(a[:1] + a[2:]))
def test_a_closed_stdout_is_an_error_exit_2_with_one_line(args):
    done = subprocess.run([*WNOTATION, *args], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          preexec_fn=_closed_stdout, cwd=ROOT, timeout=120)
    assert (done.returncode, done.stderr) == (2, "error: cannot write to standard output: bad file descriptor\n")


def test_a_command_that_writes_nothing_to_stdout_does_not_mind_it_closed():
    done = subprocess.run([*WNOTATION, "fmt", "--check", GAME], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, preexec_fn=_closed_stdout, cwd=ROOT, timeout=120)
    assert (done.returncode, done.stderr) == (0, "1 file would be left unchanged\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("count", ["1", "40"])
def test_a_full_disk_is_an_error_exit_2_with_one_line(count):
    with open("/dev/full", "w") as full:
        done = subprocess.run([*WNOTATION, "generate", "-p", "3", "-s", "1", "--count", count], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)
    assert (done.returncode, done.stderr) == (2, "error: cannot write to standard output: no space left on device\n")


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("archive") / "archive.7wn"
    done = subprocess.run([*WNOTATION, "generate", "-p", "3", "-s", "5", "--count", "40"], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    path.write_text(done.stdout, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("args", [["generate", "-p", "3", "-s", "1", "--count", "10000"], ["check", "{archive}",
                                  "--json"], ["check", "{archive}", "--json", "--jobs", "2"], ["show", GAME],
                                  ["score", GAME]], ids=lambda a: " ".join(x for x in a if "/" not in x))
def test_a_pipe_closed_by_its_reader_ends_the_command_by_sigpipe_without_a_message(args, archive):
    """No reader at all from the start: the first write fails, whatever the timing."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([*WNOTATION, *(a.format(archive=archive) for a in args)], stdout=write,
                              stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=300)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (-signal.SIGPIPE, "")


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("head") is None, reason="needs bash and head")
def test_generate_piped_into_head_dies_of_sigpipe_like_coreutils():
    script = '"$@" | head -1; echo "status ${PIPESTATUS[0]}"'
    done = subprocess.run(["bash", "-c", script, "bash", *WNOTATION, "generate", "-p", "3", "-s", "1", "--count",
                           "10000"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.stdout == '[Format "7WN 1"]\nstatus 141\n' and done.stderr == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_unreadable_file_and_the_summary_each_end_their_line(tmp_path, jobs):
    """Both streams into one pipe, as a terminal shows them: the error line and the summary line each end with a
    newline (a report once read '…1 file unreadableerror: …', which was two captures pasted together)."""
    bad = tmp_path / "latin1.7wn"
    bad.write_bytes('[Event "Café"]\n'.encode("latin-1"))
    done = subprocess.run([sys.executable, "-m", "wnotation", "check", str(bad), "--jobs", jobs], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == (f"error: cannot read {bad}: not UTF-8 text (invalid continuation byte at byte 11)\n"
                           "checked 0 games in 1 file: 1 file unreadable\n")
