"""wnotation.diagnostics: a record joined with its replay, every problem a compiler-style diagnostic."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

import wnotation
from cli_helpers import game_text, with_action
from wnotation.diagnostics import (
    CheckReport,
    Diagnostic,
    FileReport,
    canonical_text,
    check_file,
    check_piece,
    check_text,
    diagnostics_of,
    game_pieces,
    is_check_only,
    normalise,
    render,
)
from wnotation.engine import Finding
from wnotation.notation import NotationError
from wnotation.model.record import Span


def test_a_clean_text():
    report = wnotation.check(game_text(), source="g.7wn")
    assert report.ok and report.diagnostics == () and report.source == "g.7wn"
    (game,) = report.games
    assert (game.index, game.line, game.complete, game.seats) == (1, 1, True, ("Ada", "Bob", "Cyd", "Dee"))
    assert [row["seat"] for row in game.scores] == [1, 2, 3, 4]


def test_a_path_and_an_open_file(tmp_path):
    path = tmp_path / "g.7wn"
    path.write_text(game_text(), encoding="utf-8")
    assert wnotation.check(path).source == str(path)
    assert wnotation.check(str(path)).ok
    with open(path, encoding="utf-8") as handle:
        assert wnotation.check(handle).source == str(path)


def test_an_unreadable_file_is_a_report_not_an_exception(tmp_path):
    assert check_file(tmp_path / "none.7wn").error == "no such file or directory"
    assert CheckReport((check_file(tmp_path / "none.7wn"),)).exit_code == 2


def test_a_finding_is_placed_at_its_action_and_rendered_with_the_notation_renderer():
    text, line, column = with_action(game_text(), "I.1", 1, "Apothecary")
    report = wnotation.check(text, source="g.7wn")
    d = report.diagnostics[0]
    assert (d.severity, d.rule, d.line, d.column, d.address, d.seat, d.kind) == (
        "error", "R-TRADE", line, column, "I.1", 1, "finding")
    same = NotationError(d.message, source="g.7wn", line=line, column=column, source_line=d.source_line,
                         rule="R-TRADE")
    assert str(d) == str(same)
    assert d.to_dict()["text"] == str(d).splitlines()[0]
    assert not report.ok and CheckReport((report,)).exit_code == 1


def test_a_notation_error_keeps_its_data():
    text = game_text().replace("I.2 ", "I.2 Lumbr Yard | ", 1)
    d, note = wnotation.check(text, source="g.7wn").diagnostics
    error = next(iter(wnotation.read_games(text, source="g.7wn")))
    assert str(d) == str(error)
    assert (d.kind, d.rule, d.suggestion) == ("notation", "unknown-card", "Lumber Yard")
    assert (note.severity, note.line, note.message) == ("note", 1, "this game is not replayed: its text has a "
                                                                    "notation error")


def test_warnings_and_notes_render_their_severity():
    d = Diagnostic("warning", "R-SCORE", "results not checked", "g.7wn", 3, 1, "result Ada: total 3")
    assert str(d) == "g.7wn:3:1: warning[R-SCORE]: results not checked\n    result Ada: total 3\n    ^"
    assert str(Diagnostic("note", "R-DECK", "x", "g.7wn", 1, 2)) == "g.7wn:1:2: note[R-DECK]: x"


def test_a_finding_without_a_span_goes_to_the_game_start_and_names_its_address():
    record = wnotation.parse("\n\n" + game_text())
    lines = ("\n\n" + game_text()).split("\n")
    found = [Finding("R-DECK", "a remark", "III.0", None, None, "note"),
             Finding("R-TURN", "early", "I.1", 1, Span(line=3, column=2))]
    out = diagnostics_of(record, found, lines, "g.7wn")
    assert [(d.line, d.column, d.message) for d in out] == [(3, 1, "III.0: a remark"), (3, 2, "early")]
    assert out[0].source_line == '[Format "7WN 1"]'


def test_reports_cross_process_boundaries():
    text, _, _ = with_action(game_text(), "I.1", 1, "Apothecary")
    report = wnotation.check(text, source="g.7wn")
    assert pickle.loads(pickle.dumps(report)) == report


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_pieces_of_whole_games_check_like_the_whole_text(size):
    """Cut at [Format lines (a line that only mentions it in a comment is no boundary; text before the first game
    is a finding of its own), each piece checked with its line offset: the same reports as the whole text, once
    the pieces' game numbers are counted on."""
    games = [game_text(3, 1), game_text().replace("I.2 ", "I.2 Lumbr Yard | ", 1),
             with_action(game_text(5, 2), "I.1", 1, "Apothecary")[0], game_text(4, 3)]
    text = normalise("\ufeff\r\n{ a note before the games: [Format is no boundary here }\r\n" + "\n".join(games))
    pieces = game_pieces(text, size)
    assert "".join(piece for piece, _ in pieces) == text
    assert len(pieces) == -(-len(games) // size)
    assert all(piece.startswith("[Format") for piece, _ in pieces[1:])
    assert [line0 for _, line0 in pieces] == [text[: text.index(piece)].count("\n") for piece, _ in pieces]
    joined: list = []
    for piece, line0 in pieces:
        before = len(joined)
        joined.extend(replace(g, index=g.index + before) for g in check_piece(piece, "g.7wn", line0))
    whole = check_text(text, "g.7wn").games
    assert tuple(joined) == whole
    assert [(g.read, g.line) for g in whole[:2]] == [(False, 1), (True, 3)]
    assert (whole[0].diagnostics[0].line, whole[0].diagnostics[0].rule) == (2, "syntax")
    with pytest.raises(ValueError):
        game_pieces(text, 0)


def test_a_text_without_games_is_one_piece():
    assert game_pieces("", 4) == [("", 0)]
    assert game_pieces("{ nothing }\n", 1) == [("{ nothing }\n", 0)]


def test_summary_lines():
    ok = wnotation.check(game_text(), source="a")
    bad = wnotation.check(with_action(game_text(), "I.1", 1, "Apothecary")[0], source="b")
    assert CheckReport((ok,)).summary() == "checked 1 game in 1 file: all good"
    assert CheckReport((ok, bad, FileReport("c", (), "permission denied"))).summary().startswith(
        "checked 2 games in 3 files: 1 game with errors (")
    assert CheckReport((ok, FileReport("c", (), "x"))).summary().endswith("; 1 file unreadable")


def test_canonical_text_is_verified():
    messy = game_text().replace(" | ", "|")
    assert canonical_text(messy) == game_text()
    assert canonical_text("") == ""
    with pytest.raises(NotationError):
        canonical_text(game_text().replace("I.2 ", "I.2 Lumbr Yard | ", 1))


def test_iter_check_streams_the_reports_of_check_text(tmp_path):
    from wnotation.diagnostics import file_lines, iter_check, iter_pieces, no_game_remark, scan_file

    games = [game_text(3 + k % 3, 30 + k) for k in range(4)]
    games[2], _, _ = with_action(games[2], "I.1", 1, "Apothecary")
    text = "\ufeff{ a note }\r\n" + "".join(games).replace("\n", "\r\n", 40)
    path = tmp_path / "g.7wn"
    path.write_bytes(text.encode("utf-8"))
    whole = check_text(text, "g.7wn")
    assert tuple(iter_check(file_lines(path), "g.7wn")) == whole.games
    assert scan_file(path) == 4
    for size in (1, 3, 5):
        assert list(iter_pieces(file_lines(path), size)) == game_pieces(normalise(text), size)
    assert list(iter_check(iter(["  \n", "\n"]), "e")) == [no_game_remark("e", "  ")]
    assert list(iter_check(iter([]), "e")) == list(check_text("", "e").remarks)


def test_scan_file_raises_what_reading_the_whole_file_raises(tmp_path):
    from wnotation.diagnostics import BLOCK, read_text, scan_file

    path = tmp_path / "bad.7wn"
    path.write_bytes(b"[Format" + b"x" * (BLOCK - 9) + "é".encode() + b"\xff tail")
    with pytest.raises(UnicodeDecodeError) as whole:
        read_text(path)
    with pytest.raises(UnicodeDecodeError) as scanned:
        scan_file(path)
    assert str(scanned.value) == str(whole.value)
    path.write_bytes(b"x" * (BLOCK - 3) + b"[Format\n[Format")
    assert scan_file(path) == 2


@pytest.mark.parametrize("source_line, column", [("", 1), ("I.1 Apothecary", 5), ("\tI.1\tLoom", 6), ("x", 2)])
@pytest.mark.parametrize("severity", ["error", "warning", "note"])
def test_one_renderer_for_every_severity_with_the_notation_layout(severity, source_line, column):
    d = Diagnostic(severity, "R-TRADE", "Ada cannot build Loom", "g.7wn", 4, column, source_line)
    error = NotationError("Ada cannot build Loom", source="g.7wn", line=4, column=column, source_line=source_line,
                          rule="R-TRADE")
    assert str(d) == render(severity, "R-TRADE", "Ada cannot build Loom", "g.7wn", 4, column, source_line)
    assert str(d) == str(error).replace("error[", f"{severity}[", 1)
    assert str(d).splitlines()[0] == f"g.7wn:4:{column}: {severity}[R-TRADE]: Ada cannot build Loom"
    assert not isinstance(d, Exception)


def _without_guilds_and_seed(text: str) -> str:
    return "\n".join(ln for ln in text.split("\n") if not ln.startswith(("[Guilds ", "[Seed ")))


def test_check_only_is_the_engines_mark_not_the_message_text():
    report = wnotation.check(_without_guilds_and_seed(game_text()), source="g.7wn")
    (note,) = [d for d in report.diagnostics if d.severity == "note"]
    assert note.rule == "R-DECK" and note.check_only and is_check_only(note)
    assert "names neither its guilds nor a seed" in note.message
    same_words = Finding("R-DECK", note.message, "III.0", None, None, "note")
    marked = Finding("R-DECK", "another remark", "III.0", None, None, "note", check_only=True)
    assert not is_check_only(same_words) and is_check_only(marked)
    assert all(not d.check_only for d in wnotation.check(with_action(game_text(), "I.1", 1, "Apothecary")[0])
               .diagnostics)
    assert "check_only" not in note.to_dict()  # the JSON report is unchanged


def test_check_many_without_click_gives_the_same_runs_for_any_number_of_jobs(tmp_path):
    from contextlib import closing

    from wnotation.diagnostics.batch import check_many

    bad, _, _ = with_action(game_text(), "I.1", 1, "Apothecary")
    paths = []
    for k, text in enumerate([game_text(), bad, "", game_text() + "\n" + bad]):
        path = tmp_path / f"g{k}.7wn"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    (tmp_path / "latin1.7wn").write_bytes(b'[Event "Caf\xe9"]\n')
    paths.append(str(tmp_path / "latin1.7wn"))

    def runs(jobs):
        out = []
        with closing(check_many(paths, jobs)) as each:
            for run in each:
                games = list(run.games())
                out.append((run.source, run.error, games, run.remarks))
        return out

    one = runs(1)
    assert runs(2) == one
    assert [len(games) for _, _, games, _ in one] == [1, 1, 0, 2, 0]
    assert [g.index for g in one[3][2]] == [1, 2] and [g.ok for g in one[3][2]] == [True, False]
    assert one[2][3][0].rule == "games" and one[2][3][0].severity == "error"
    assert one[4][1].startswith("not UTF-8 text")
    assert [g for _, _, games, _ in one for g in games] == [
        g for p in paths[:4] for g in wnotation.check(p).games]


def test_the_cli_shows_every_diagnostic_through_the_one_renderer(monkeypatch, tmp_path):
    """check's findings and notation errors, and score/fmt's unreadable record, all come out of report.render."""
    from cli_helpers import run
    from wnotation.diagnostics import report

    def marked(severity, rule, message, source, line, column, source_line="", colour=False):
        return f"RENDERED {severity} {rule} {source}:{line}:{column}"

    monkeypatch.setattr(report, "render", marked)
    bad, line, column = with_action(game_text(), "I.1", 1, "Apothecary")
    broken = game_text().replace("I.2 ", "I.2 Lumbr Yard | ", 1)
    for name, text in (("bad.7wn", bad), ("broken.7wn", broken)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert f"RENDERED error R-TRADE {tmp_path / 'bad.7wn'}:{line}:{column}" in run(
        "check", str(tmp_path / "bad.7wn"), code=1).stderr
    assert run("check", str(tmp_path / "broken.7wn"), code=1).stderr.startswith("RENDERED error unknown-card")
    assert run("score", str(tmp_path / "broken.7wn"), code=2).stderr.startswith("RENDERED error unknown-card")
    assert run("fmt", str(tmp_path / "broken.7wn"), code=2).stderr.startswith("RENDERED error unknown-card")


def test_a_broken_game_starts_at_its_format_line_not_at_a_formats_tag():
    """The game a notation error belongs to is found with the reader's boundary test: '[Formats' is another tag."""
    report = check_text('\n[Format "7WN 1"]\n[Formats x]\nI.1 x\n', source="g.7wn")
    (game,) = report.games
    assert (game.read, game.line, game.diagnostics[0].line) == (False, 2, 3)


@pytest.mark.parametrize("spool", [1 << 20, 64])  # in memory, and spooled to a temporary file past 64 bytes
def test_the_streamed_json_report_is_the_whole_reports_json(monkeypatch, spool):
    """diagnostics.jsonreport, without the CLI: the text streamed file by file equals json.dumps of the
    CheckReport of the same inputs, whatever the spool size."""
    import json

    from wnotation.diagnostics import CheckTally, jsonreport, no_game_remark

    monkeypatch.setattr(jsonreport, "SPOOL_BYTES", spool)
    bad, _, _ = with_action(game_text(), "I.1", 1, "Apothecary")
    files = (check_text(game_text() + "\n" + bad, "a.7wn"), FileReport("b.7wn", (), "not UTF-8 text"),
             FileReport("c.7wn", (), remarks=(no_game_remark("c.7wn", ""),)))
    out: list[str] = []
    tally = CheckTally()
    stream = jsonreport.JsonReport(tally, out.append)
    for f in files:
        stream.start(f.source)
        for g in f.games:
            tally.add_game(g)
            stream.game(g)
        tally.add_file(f.error, f.remarks)
        stream.end(f.error, f.remarks)
    stream.finish()
    assert "".join(out) == json.dumps(CheckReport(files).to_dict(), indent=2, ensure_ascii=False) + "\n"
