"""``wnotation fmt``: black's modes (stdout, --check, --diff, --write), verified and atomic rewrites; canonical
purchases (R-TRADE-MINIMAL, spec/7wn.md section 10) and ``--keep-purchases``."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from cli_helpers import run
from wnotation.formats import canonical as canonical_module
from wnotation import notation, replay
from wnotation.formats.canonical import canonical_purchases, purchase_changes, same_replay
from wnotation.engine.bot import play_game
from wnotation.model.record import Purchase

ROOT = Path(__file__).resolve().parent.parent


@cache
def bare(players: int = 4, seed: int = 7, bot: str = "greedy"):
    """A bot game with every stated purchase left out that the engine would choose itself (the bot's own Records
    are already canonical), so that the ambiguous costs lose the purchase that canonical form states. A purchase
    the engine would not choose stays: the bot breaks ties between equal purchases with its seeded generator
    (issue 29 item 9), and leaving such a purchase out would make another game."""
    from wnotation.engine import replay
    from wnotation.engine.legal import legal_actions

    game = play_game(players, seed, bot)
    played = replay(game)
    keys = list(played.marks)
    before = dict(zip(keys[1:], keys))

    def engines(turn, a) -> bool:
        state = played.position(before[turn.label])
        for b in legal_actions(state, a.seat):
            if b.default and b.use == a.use and b.card.name == a.card:
                return (tuple(sorted(b.purchase.left)), tuple(sorted(b.purchase.right))) == (a.purchase.left,
                                                                                             a.purchase.right)
        return False

    turns = tuple(t.model_copy(update={"actions": tuple(
        a.model_copy(update={"purchase": None}) if a.purchase is None or engines(t, a) else a for a in t.actions)})
        for t in game.turns)
    return game.model_copy(update={"turns": turns})


def game_text(players: int = 4, seed: int = 7, bot: str = "greedy") -> str:
    """The text of :func:`bare`: canonical in layout, not in purchases."""
    return notation.write(bare(players, seed, bot))


@cache
def canon(players: int = 4, seed: int = 7, bot: str = "greedy") -> str:
    """The canonical text of the same game, purchases included."""
    return notation.write(canonical_purchases(bare(players, seed, bot)))


def test_the_bot_games_used_here_need_their_purchases_normalised():
    assert game_text() != canon() and game_text(3, 5) != canon(3, 5) and game_text(3, 2) != canon(3, 2)


def test_bot_games_are_canonical_in_purchases():
    """The bot states a purchase exactly where canonical form does (R-TRADE-MINIMAL)."""
    for players, seed, bot in ((3, 2, "greedy"), (4, 7, "greedy"), (5, 1, "random"), (7, 3, "greedy")):
        game = play_game(players, seed, bot)
        assert canonical_purchases(game) == game


def _messy(text: str) -> str:
    """The same games written loosely: extra blanks, lower case, CRLF line ends, blank lines."""
    out = text.replace("I.1 ", "I.1    ").replace(" | ", "|").replace("[Edition", "\n[Edition")
    return out.replace("\n", "\r\n")


@pytest.fixture
def messy(tmp_path):
    path = tmp_path / "messy.7wn"
    path.write_bytes(_messy(game_text()).encode())
    return path


@pytest.fixture
def canonical(tmp_path):
    path = tmp_path / "canonical.7wn"
    path.write_text(canon(), encoding="utf-8")
    return path


def _temp_files(directory) -> list[str]:
    return [p for p in os.listdir(directory) if ".wnotation-" in p]


def _no_temp_files(directory) -> bool:
    return not _temp_files(directory)


def test_default_prints_the_canonical_text(messy, canonical):
    assert run("fmt", str(messy)).stdout == canon()
    assert messy.read_bytes() == _messy(game_text()).encode()  # untouched
    assert run("fmt", "-", input=_messy(game_text())).stdout == canon()
    assert run("fmt", str(canonical)).stdout == canon()


def test_check(messy, canonical):
    result = run("fmt", "--check", str(messy), str(canonical), code=1)
    assert result.stdout == ""
    assert result.stderr == (f"would reformat {messy}\n"
                             "1 file would be reformatted, 1 file would be left unchanged\n")
    assert run("fmt", "--check", str(canonical)).stderr == "1 file would be left unchanged\n"


def test_diff(messy, canonical):
    result = run("fmt", "--diff", str(messy))
    assert result.stdout.startswith(f"--- {messy} (original)\n+++ {messy} (canonical)\n@@ ")
    assert "+I.1 " in result.stdout
    assert run("fmt", "--diff", str(canonical)).stdout == ""
    assert run("fmt", "--diff", "--check", str(messy), code=1).stdout == result.stdout


def test_write_is_idempotent(messy, tmp_path):
    os.chmod(messy, 0o640)
    result = run("fmt", "--write", str(messy))
    assert result.stderr == f"reformatted {messy}\n1 file reformatted\n"
    assert messy.read_text(encoding="utf-8") == canon()
    assert stat.S_IMODE(os.stat(messy).st_mode) == 0o640
    again = run("fmt", "--write", str(messy))
    assert again.stderr == "1 file left unchanged\n"
    assert messy.read_text(encoding="utf-8") == canon()
    assert _no_temp_files(tmp_path)


def test_write_goes_through_a_symlink_and_keeps_it(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "game.7wn"
    target.write_bytes(_messy(game_text()).encode())
    link = tmp_path / "link.7wn"
    link.symlink_to(target)
    result = run("fmt", "--write", str(link))
    assert result.stderr == f"reformatted {link}\n1 file reformatted\n"
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8") == canon()
    assert _no_temp_files(tmp_path) and _no_temp_files(tmp_path / "real")


def test_a_failed_write_names_the_file_and_the_other_files_are_still_written(tmp_path, monkeypatch):
    first, second = tmp_path / "a.7wn", tmp_path / "b.7wn"
    for path in (first, second):
        path.write_bytes(_messy(game_text()).encode())
    replace = os.replace

    def full_disk(src, dst):
        if os.path.basename(dst) == "a.7wn":
            raise OSError(errno.ENOSPC, "No space left on device")
        replace(src, dst)

    monkeypatch.setattr(os, "replace", full_disk)
    result = run("fmt", "--write", str(tmp_path), code=2)
    assert result.stderr == (f"error: cannot write {first}: no space left on device; the file is left untouched\n"
                             f"reformatted {second}\n1 file reformatted, 1 file failed to format\n")
    assert first.read_bytes() == _messy(game_text()).encode()
    assert second.read_text(encoding="utf-8") == canon()
    assert _no_temp_files(tmp_path)


KILLED_MID_WRITE = """
import os, signal, sys
from wnotation import cli
os.replace = lambda src, dst: os.kill(os.getpid(), signal.SIGKILL)  # dies after writing the temporary file
cli.main(["fmt", "--write", sys.argv[1]], prog_name="wnotation")
"""


def test_a_write_killed_midway_leaves_the_file_and_a_hidden_temp_that_no_run_reads_and_the_next_write_removes(
        tmp_path):
    path = tmp_path / "game.7wn"
    path.write_bytes(_messy(game_text()).encode())
    killed = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, str(path)], capture_output=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL
    assert path.read_bytes() == _messy(game_text()).encode()
    (temp,) = _temp_files(tmp_path)
    assert temp.startswith(".game.7wn.wnotation-") and temp.endswith(".tmp")
    assert (tmp_path / temp).read_text(encoding="utf-8") == canon()
    assert run("check", str(tmp_path)).stdout == "checked 1 game in 1 file: all good\n"
    assert run("fmt", "--check", str(tmp_path), code=1).stderr.endswith("1 file would be reformatted\n")
    run("fmt", "--write", str(tmp_path))
    assert path.read_text(encoding="utf-8") == canon() and _no_temp_files(tmp_path)


def test_write_to_a_directory_and_stdin(tmp_path, messy):
    (tmp_path / "sub").mkdir()
    other = tmp_path / "sub" / "b.7wn"
    other.write_text(_messy(game_text(3, 5)), encoding="utf-8")
    run("fmt", "--write", str(tmp_path))
    assert other.read_text(encoding="utf-8") == canon(3, 5)
    assert run("fmt", "--write", "-", input=_messy(game_text())).stdout == canon()


def test_several_games_keep_their_annotations(tmp_path):
    text = game_text().replace("I.2 ", "{ a note }\nI.2 { before } ", 1) + "\n" + game_text(3, 2)
    path = tmp_path / "two.7wn"
    path.write_text(text.replace("\n\n[Format", "\n\n\n\n[Format"), encoding="utf-8")
    run("fmt", "--write", str(path))
    out = path.read_text(encoding="utf-8")
    assert out == notation.write_games([canonical_purchases(r) for r in notation.parse_many(text)])
    assert "{ a note }\nI.2 { before } " in out


def _broken_writer(real):
    def write_games(records):
        text = real(records)
        return text.replace("I.1 ", "I.1 sell ? | ", 1) if "I.1 " in text else text
    return write_games


def test_a_failing_verification_leaves_the_file_untouched(monkeypatch, messy, tmp_path):
    before = messy.read_bytes()
    monkeypatch.setattr(notation, "write_games", _broken_writer(notation.write_games))
    result = run("fmt", "--write", str(messy), code=3)
    assert messy.read_bytes() == before
    assert _no_temp_files(tmp_path)
    assert result.stderr.startswith(f"internal error: {messy}: the canonical text does not read back")
    assert "this is a bug in wnotation, the file is left untouched" in result.stderr


def test_a_writer_that_does_not_reproduce_itself_is_caught(monkeypatch, messy):
    real = notation.write_games
    calls = []

    def unstable(records):
        calls.append(1)
        return real(records) + ("\n" * len(calls))

    monkeypatch.setattr(notation, "write_games", unstable)
    result = run("fmt", "--check", str(messy), code=3)
    assert "formatting the canonical text again changes it" in result.stderr


def test_a_record_that_does_not_read_is_left_alone(tmp_path, canonical):
    bad = tmp_path / "bad.7wn"
    text = canon().replace("I.3 ", "I.3 Lumbr Yard | ", 1)
    bad.write_text(text, encoding="utf-8")
    result = run("fmt", "--write", str(bad), str(canonical), code=2)
    assert bad.read_text(encoding="utf-8") == text
    assert f"{bad}:" in result.stderr and "error[unknown-card]" in result.stderr and "\n        ^\n" in result.stderr
    assert result.stderr.endswith("1 file left unchanged, 1 file failed to format\n")


def test_write_cannot_be_combined_with_check():
    result = run("fmt", "--write", "--check", "x.7wn", code=2)
    assert result.stderr == "error: --write cannot be combined with --check or --diff (see 'wnotation fmt --help')\n"


def test_a_missing_file_is_exit_2(tmp_path):
    result = run("fmt", str(tmp_path / "none.7wn"), code=2)
    assert result.stderr.count("\n") == 1 and "no such file or directory" in result.stderr


# --- canonical purchases ---------------------------------------------------------------------------------------


@pytest.fixture
def laid_out(tmp_path):
    """A bot game written as its Record holds it: canonical layout, purchases not normalised."""
    path = tmp_path / "laid-out.7wn"
    path.write_text(game_text(), encoding="utf-8")
    return path


def test_check_reports_purchases_that_are_not_canonical(laid_out):
    result = run("fmt", "--check", str(laid_out), code=1)
    assert result.stderr == f"would reformat {laid_out}\n1 file would be reformatted\n"
    assert run("fmt", "--check", "--keep-purchases", str(laid_out)).stderr == "1 file would be left unchanged\n"
    diff = run("fmt", "--diff", str(laid_out)).stdout
    changed = [line for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert changed and all(" (" in line for line in changed)  # only turn lines that gained a purchase
    assert len(changed) == len({c.address for c in purchase_changes(bare(4, 7, "greedy"))})


def test_write_normalises_purchases_and_keeps_the_meaning(laid_out):
    run("fmt", "--write", str(laid_out))
    new = notation.parse(laid_out.read_text(encoding="utf-8"))
    assert laid_out.read_text(encoding="utf-8") == canon()
    assert same_replay(replay(new), replay(notation.parse(game_text())))
    assert run("fmt", "--check", str(laid_out)).stderr == "1 file would be left unchanged\n"


def test_keep_purchases_formats_the_layout_only(messy, tmp_path):
    assert run("fmt", "--keep-purchases", str(messy)).stdout == game_text()
    run("fmt", "--write", "--keep-purchases", str(messy))
    assert messy.read_text(encoding="utf-8") == game_text()


def test_a_stated_purchase_that_is_the_only_cheapest_is_dropped():
    text = ('[Format "7WN 1"]\n[Edition "2e"]\n[Date "????.??.??"]\n[Seat1 "Ann" "Gizah" "day"]\n'
            '[Seat2 "Ben" "Babylon" "day"]\n[Seat3 "Cat" "Rhodos" "day"]\n\n')
    body = "I.1 Stockade (L wood) | Altar | Theater\nI.2 sell ? | sell ? | Lumber Yard\n"
    out = run("fmt", "-", input=text + body).stdout
    assert out == text + "I.1 Stockade | Altar | Theater\nI.2 sell ? | sell ? | Lumber Yard\n"
    assert run("fmt", "--keep-purchases", "-", input=text + body).stdout == text + body
    # an illegal action keeps what it states: the game still formats, its findings unchanged
    illegal = "I.1 Altar (L wood) | sell ? | Lumber Yard\n"
    assert run("fmt", "-", input=text + illegal).stdout == text + illegal


def test_a_normalisation_that_changes_the_replay_is_caught(monkeypatch, laid_out, tmp_path):
    before = laid_out.read_bytes()

    def meddling(record, played=None):
        first = record.turns[0]
        sold = first.actions[0].model_copy(update={"use": "sell", "purchase": None})
        turn = first.model_copy(update={"actions": (sold,) + first.actions[1:]})
        return record.model_copy(update={"turns": (turn,) + record.turns[1:]})

    monkeypatch.setattr(canonical_module, "canonical_purchases", meddling)
    result = run("fmt", "--write", str(laid_out), code=3)
    assert laid_out.read_bytes() == before and _no_temp_files(tmp_path)
    assert result.stderr.startswith(f"internal error: {laid_out}: game 1: normalising its purchases changes its "
                                    "replay; this is a bug in wnotation, the file is left untouched")


def test_a_normalisation_that_is_not_idempotent_is_caught(monkeypatch, laid_out):
    before = laid_out.read_bytes()
    monkeypatch.setattr(canonical_module, "canonical_purchases", lambda record, played=None: record)
    result = run("fmt", "--write", str(laid_out), code=3)
    assert laid_out.read_bytes() == before
    assert "game 1: normalising its purchases again changes them" in result.stderr


def test_bundled_replays_are_canonical_up_to_purchases():
    assert run("fmt", "--check", "--keep-purchases", str(ROOT / "replays")).stderr.endswith(
        "files would be left unchanged\n")


def test_bundled_replays_are_canonical():
    run("fmt", "--check", str(ROOT / "replays"))


def test_the_stated_default_of_an_ambiguous_cost_reads_back_equal():
    record = notation.parse(canon(3, 2))
    stated = [a.purchase for t in record.turns for a in t.actions if a.purchase is not None]
    assert stated and all(isinstance(p, Purchase) for p in stated)
    assert canonical_purchases(record) == record
