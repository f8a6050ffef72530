"""The club site's writer: page names from the input path and game number only, unique, never the index nor a
device name; writes inside the folder, atomic, refusing anything but a plain name; an index of every game."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wnotation.viewer import build_site, page_data
from wnotation.viewer.site import page_name, record_files, write_inside

ROOT = Path(__file__).resolve().parent.parent
SAFE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*\.html")


@given(st.lists(st.tuples(st.text(max_size=40), st.integers(1, 5), st.booleans()), max_size=25))
def test_page_names_are_plain_unique_and_never_the_index(items) -> None:
    taken = {"index.html"}
    names = [page_name(stem, number, many, taken) for stem, number, many in items]
    assert len({n.casefold() for n in names}) == len(names)
    for name in names:
        assert SAFE.fullmatch(name), name
        assert name.casefold() != "index.html"
        assert not re.match(r"(?i)(con|prn|aux|nul|com\d|lpt\d)(\.|$)", name)


@pytest.mark.parametrize("name", ["", ".", "..", "../x.html", "a/b.html", "a\\b.html", "/etc/x.html", "x\x00.html"])
def test_write_inside_refuses_anything_but_a_plain_name(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="not a plain file name"):
        write_inside(tmp_path, name, "x")
    assert os.listdir(tmp_path) == []


def test_write_inside_replaces_atomically_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    write_inside(tmp_path, "a.html", "one")
    write_inside(tmp_path, "a.html", "two")
    assert (tmp_path / "a.html").read_text(encoding="utf-8") == "two"
    assert os.listdir(tmp_path) == ["a.html"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    write_inside(tmp_path, "a.html", "old")
    with pytest.raises(UnicodeEncodeError):
        write_inside(tmp_path, "a.html", "half \ud800 a page")  # fails while writing the temporary file
    assert (tmp_path / "a.html").read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["a.html"]


def test_record_files_names_pages_after_the_path_below_the_folder(tmp_path: Path) -> None:
    (tmp_path / "2026" / "march").mkdir(parents=True)
    for name in ("2026/march/night.7wn", "2026/b.7wn", "a.7wn", ".hidden.7wn", "notes.txt"):
        (tmp_path / name).write_text("", encoding="utf-8")
    found = [(p.relative_to(tmp_path).as_posix(), stem) for p, stem in record_files([tmp_path])]
    assert found == [("2026/b.7wn", "2026--b"), ("2026/march/night.7wn", "2026--march--night"), ("a.7wn", "a")]


def test_a_file_of_several_games_gives_numbered_pages_and_one_index_row_each(tmp_path: Path) -> None:
    text = "".join((ROOT / "replays" / n).read_text(encoding="utf-8")
                   for n in ("3p-babylon-halikarnassos-olympia.7wn", "partial-4p-niamh.7wn"))
    (tmp_path / "club.7wn").write_text(text, encoding="utf-8")
    report = build_site([tmp_path / "club.7wn"], tmp_path / "site")
    assert [g.page for g in report.games] == ["club-1.html", "club-2.html"]
    assert [g.winners for g in report.games] == [("Jonas",), report.games[1].winners]
    second = page_data((tmp_path / "site" / "club-2.html").read_text(encoding="utf-8"))
    assert second["source"] == (ROOT / "replays" / "partial-4p-niamh.7wn").read_text(encoding="utf-8")
    assert second["download"] == "club-2.7wn"
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert index.count("<tr>") == 1 + 2 and "Thursday board-game night" in index and "2026.11.14" in index


def test_an_unreadable_file_is_listed_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "latin1.7wn").write_bytes(b"[Event \"caf\xe9\"]\n")
    report = build_site([tmp_path], tmp_path / "site")
    assert report.pages == 0 and [Path(s).name for s, _ in report.unreadable] == ["latin1.7wn"]
    assert "not UTF-8" in report.unreadable[0][1]
    assert "latin1.7wn" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_the_club_site_lists_games_newest_first_by_event_and_winner_with_player_pages(tmp_path: Path) -> None:
    report = build_site([ROOT / "replays"], tmp_path / "site", club="Leeds <Wonders> Club")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "<h1 class=\"rt\">Leeds &lt;Wonders&gt; Club</h1>" in index  # the club's name, as text
    links = re.findall(r'<td data-h="game"><a href="([^"]+)" class="rt">([^<]+)</a>', index)
    dates = re.findall(r'<td data-h="date">([^<]+)</td>', index)
    assert [d for d in dates if d != "unknown"] == sorted((d for d in dates if d != "unknown"), reverse=True)
    assert ("7p-all-wonders.html", "Seven-player marathon: Grace wins") in links
    assert len(links) == report.pages
    seven = (tmp_path / "site" / "7p-all-wonders.html").read_text(encoding="utf-8")
    assert '<p class="back"><a href="index.html">\u2190 Leeds &lt;Wonders&gt; Club</a></p>' in seven
    grace = (tmp_path / "site" / "player-Grace.html").read_text(encoding="utf-8")
    assert 'href="player-Grace.html"' in index and 'href="index.html"' in grace
    stats = dict(re.findall(r"<div><dt>([^<]+)</dt><dd>([^<]+)</dd></div>", grace))
    assert stats == {"games": "1", "wins": "1", "average score": "50.0",
                     "favourite Wonder": "Halikarnassos (1 of 1)"}
    assert '<a href="7p-all-wonders.html">Seven-player marathon: Grace wins</a>' in grace
