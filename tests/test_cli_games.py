"""The single-game commands on a file of several games (``--game N``, and a note naming the count without it),
and the one seat lookup (the reader's seat key) of ``show --seat`` and ``html --view``."""

from __future__ import annotations

import unicodedata

import pytest
from click.testing import CliRunner

from cli_helpers import game_text, run
from wnotation import cli
from wnotation.cli.inputs import games_in_text, seat_in
from wnotation.cli.errors import UserError
from wnotation.notation import parse, write

#: The single-game commands, each with what it needs besides the file (a finished game with a known date).
SINGLE = {
    "score": ["score"],
    "show": ["show"],
    "sheet": ["sheet", "-o", "{out}.svg"],
    "html": ["html", "-o", "{out}.html"],
    "bgstats": ["bgstats"],
}


def _named(name: str, seed: int = 7) -> str:
    record = parse(game_text(3, seed).replace('[Date "????.??.??"]', '[Date "2026.11.29"]'))
    seats = list(record.seats)
    seats[0] = seats[0].model_copy(update={"name": name})
    return write(record.model_copy(update={"seats": tuple(seats)}))


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """A file of three games (seeds 7, 8, 9), the first seat named Ann, Bea, Cat."""
    path = tmp_path_factory.mktemp("club") / "club.7wn"
    path.write_text("\n".join(_named(n, s) for n, s in (("Ann", 7), ("Bea", 8), ("Cat", 9))), encoding="utf-8")
    return path


def _run(name, path, tmp_path, *more):
    args = [a.format(out=tmp_path / "out") for a in SINGLE[name]]
    return CliRunner().invoke(cli.main, [args[0], str(path), *args[1:], *more])


@pytest.mark.parametrize("name", SINGLE)
def test_a_file_of_several_games_without_game_shows_the_first_and_says_how_many(name, club, tmp_path):
    result = _run(name, club, tmp_path)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"note: 3 games in {club}; showing game 1, --game N for another\n"


@pytest.mark.parametrize("name", SINGLE)
def test_game_n_chooses_the_game_and_needs_no_note(name, club, tmp_path):
    result = _run(name, club, tmp_path, "--game", "3")
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    shown = result.stdout or (tmp_path / ("out.html" if name == "html" else "out.svg")).read_text(encoding="utf-8")
    assert "Cat" in shown and "Ann" not in shown


@pytest.mark.parametrize("name", SINGLE)
def test_a_game_past_the_last_is_one_error_naming_the_count(name, club, tmp_path):
    result = _run(name, club, tmp_path, "--game", "4")
    assert result.exit_code == 2
    assert result.stderr == f"error: {club} has 3 games; there is no game 4\n"


@pytest.mark.parametrize("name", SINGLE)
def test_a_file_of_one_game_gets_no_note(name, tmp_path):
    path = tmp_path / "one.7wn"
    path.write_text(_named("Ann"), encoding="utf-8")
    result = _run(name, path, tmp_path)
    assert result.exit_code == 0 and result.stderr == "", result.stderr


def test_games_are_counted_as_the_reader_cuts_them():
    text = _named("Ann")
    assert games_in_text(text) == 1
    assert games_in_text("\r\n".join([text, text, "  " + text]).replace("\n", "\r\n")) == 3
    assert games_in_text("{ a comment [Format } \n") == 0  # only a line start begins a game


# --- the one seat lookup -------------------------------------------------------------------------------------

JOSE_NFC = unicodedata.normalize("NFC", "José")
JOSE_NFD = unicodedata.normalize("NFD", "José")


@pytest.mark.parametrize("typed", [JOSE_NFD, JOSE_NFC, "JOSÉ", unicodedata.normalize("NFD", "  josé "), "1", "#1"])
def test_show_seat_finds_a_name_by_the_readers_seat_key(typed, tmp_path):
    path = tmp_path / "jose.7wn"
    path.write_text(_named(JOSE_NFC), encoding="utf-8")
    out = run("show", str(path), "--seat", typed).stdout
    assert out.splitlines()[2].startswith(f"{JOSE_NFC}: Rhodos night") and "Bob:" not in out


@pytest.mark.parametrize("typed", [JOSE_NFD, "jose\u0301"])
def test_html_view_finds_a_name_written_decomposed(typed, tmp_path):
    path = tmp_path / "jose.7wn"
    path.write_text(_named(JOSE_NFC), encoding="utf-8")
    run("html", str(path), "--view", typed, "-o", str(tmp_path / "page.html"))
    assert (tmp_path / "page.html").read_text(encoding="utf-8").count("José") >= 1


def test_a_name_written_decomposed_in_the_record_is_found_by_its_composed_spelling(tmp_path):
    path = tmp_path / "jose.7wn"
    path.write_text(_named(JOSE_NFD), encoding="utf-8")
    assert seat_in([JOSE_NFD, "Bob"], JOSE_NFC) == 1
    out = run("show", str(path), "--seat", JOSE_NFC).stdout
    assert ": Rhodos night" in out and "Bob:" not in out


def test_an_unknown_seat_names_the_closest_seat_as_the_roster_spells_it():
    with pytest.raises(UserError, match="did you mean José"):
        seat_in([JOSE_NFC, "Bob", "Cyd"], "Jos")
    with pytest.raises(UserError, match=r"\(seats: José, Bob, Cyd, or 1-3\)"):
        seat_in([JOSE_NFC, "Bob", "Cyd"], "Zed")
    with pytest.raises(UserError):
        seat_in([JOSE_NFC, "Bob", "Cyd"], "4")
