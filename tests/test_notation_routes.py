"""The reader's routes and modes: the fast route against Lark, the header-only skim, the error policy."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import HEADER, records
from helpers.layouts import relayout
from wnotation.notation import Header, NotationError, parse, read_games, read_headers, write
from wnotation.notation import reader
from wnotation.notation.reader import RouteDeclined
from wnotation.model.record import Record

REPLAYS = sorted((Path(__file__).resolve().parents[1] / "replays").glob("*.7wn"))
I1 = "I.1 Lumber Yard | sell ? | stage ?\n"


@cache
def bot_texts() -> list[str]:
    from wnotation.engine.bot import play_game

    return [write(play_game(players, seed, bot=bot))
            for players in (3, 5, 7) for seed in range(3) for bot in ("random", "greedy")]


def spans(r: Record | Header) -> list:
    """Every span of a Record (or the header part of it), in a fixed order."""
    out = [r.span, *(s.span for s in r.seats), *(t.span for t in r.tags), *(d.span for d in r.deals)]
    for turn in getattr(r, "turns", ()):
        out.append(turn.span)
        for a in turn.actions:
            out.extend([a.span, a.pick.span if a.pick else None])
    out.extend(res.span for res in getattr(r, "results", ()))
    return out


def placed(text: str, line0: int, off0: int) -> str:
    """``text`` after ``line0`` lines and ``off0`` characters of blank text, so that its game starts there."""
    assert off0 >= line0
    return " " * (off0 - line0) + "\n" * line0 + text


def lark_route(text: str, line0: int = 0, off0: int = 0) -> Record:
    """The game of ``text`` read by Lark alone, placed ``line0`` lines and ``off0`` characters into its input."""
    [record] = read_games(placed(text, line0, off0), source="<t>", errors="raise", route="lark")
    return record


def fast_route(text: str, line0: int = 0, off0: int = 0) -> Record | None:
    """The game of ``text`` read by the fast route alone, or ``None`` when it declines the game."""
    try:
        [record] = read_games(placed(text, line0, off0), source="<t>", errors="raise", route="fast")
    except RouteDeclined:
        return None
    return record


def both_routes(text: str, line0: int = 0, off0: int = 0) -> tuple[Record | None, Record]:
    return fast_route(text, line0, off0), lark_route(text, line0, off0)


def assert_same(fast: Record | None, lark: Record) -> None:
    assert fast is not None
    assert fast == lark and hash(fast) == hash(lark)
    assert spans(fast) == spans(lark)
    assert Record.model_validate(fast.model_dump()) == fast


def assert_routes_agree(text: str, line0: int, off0: int) -> None:
    """The fast route reads ``text`` as Lark does, and declines it wherever Lark refuses it."""
    try:
        lark = lark_route(text, line0, off0)
    except NotationError:
        assert fast_route(text, line0, off0) is None
        return
    assert_same(fast_route(text, line0, off0), lark)


# --- the fast route ------------------------------------------------------------------------------------------


def test_fast_route_reads_generated_games_as_lark_does():
    for text in bot_texts():
        assert_same(*both_routes(text, line0=10, off0=500))


def test_fast_route_reads_plain_lines_of_every_kind():
    text = (HEADER.replace("[Date", '[Event "x \\" y"]\n[Date') + '[Seed "sm64-fy 12"]\n'
            '[DealI "Altar, ?, Baths, Loom, Press, Well, Theater"\n\n  "?, ?, ?, ?, ?, ?, ?" "?, ?, ?, ?, ?, ?, ?"]\n\n'
            "I.1  lumber   yard (left 2 clay, R wood)!| SELL ? ?|stage ? (L glass) !?  \n"
            "I.2 Alice: Baths , discard ? |#2:Altar, pick Press ! , discard Loom| stage Temple, pick -\n"
            "I.3 Temple ()?! | sell Altar, pick ? ? | stage ?, pick Loom\n"
            "I.4 Baths | Altar | Loom\nI.5 Baths | Altar | Loom\n"
            "I.6 Baths, discard ? | Altar | Loom\nI.7 Bob: Altar | Carol: sell ?\n"
            "result Alice : total 3 coins -2\nRESULT #3: rank 1\n\n  \n")
    fast, lark = both_routes(text)
    assert_same(fast, lark)
    assert [a.seat for a in fast.turns[-1].actions] == [2, 3]


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_routes_agree_on_the_replays(path):
    text = path.read_text(encoding="utf-8")
    fast, lark = both_routes(text)
    if fast is not None:
        assert_same(fast, lark)
    assert parse(text) == lark and spans(parse(text)) == spans(lark)


@pytest.mark.parametrize("line", [
    "game !", "I.1 Lumber Yard { c } | sell ? | stage ?", "I.1 Lumber Yard | sell ? | stage ? // !",
    "I.1 Lumber Yard | sell ?, pick { c } Altar | stage ?",
])
def test_fast_route_leaves_annotations_to_lark(line):
    fast, lark = both_routes(HEADER + line)
    assert fast is None and lark == parse(HEADER + line)


_NOTE_TEXT = st.text(st.sampled_from("ab }{]\\\n\t["), max_size=12)
_NOTE = st.one_of(_NOTE_TEXT.map(lambda t: "{" + t.replace("\\", "\\\\").replace("}", "\\}") + "}"),
                  st.tuples(st.sampled_from(["k", "note", "a-b_1"]), _NOTE_TEXT).map(
                      lambda kv: f"[%{kv[0]} " + kv[1].replace("\\", "\\\\").replace("]", "\\]") + "]"),
                  _NOTE_TEXT.map(lambda t: "{" + t + "}"))  # escapes or none: some are broken, or end early


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.lists(_NOTE, min_size=1, max_size=3), st.sampled_from(["", " ", "\t  "]),
                          st.sampled_from(["\n", "\n\n", "\n \n", "\r\n", "\r\n\r\n"]),
                          st.booleans()), max_size=5),
       st.sampled_from(["\n", "\r\n"]))
def test_comment_lines_are_read_by_the_fast_route_as_lark_reads_them(lines, end):
    """Comment lines (comments with escapes, braces and line ends inside, ``[%tags]``, blanks, blank lines, CRLF)
    before turns and after the last: the fast route reads them (it declines a game only where Lark fails), and its
    Record, spans included, is Lark's."""
    body = "".join(" ".join(notes) + blanks + ends + (I1.replace("\n", end) if turn else "")
                   for notes, blanks, ends, turn in lines)
    text = HEADER.replace("\n", end) + body + I1.replace("\n", end)
    assert_routes_agree(text, 3, 40)


def test_a_huge_comment_line_is_read_by_the_fast_route():
    comment = "{ " + "lorem \\} ipsum\n" * 2000 + " }  [%note " + "x" * 30_000 + "] { y }"
    text = HEADER + comment + "\n" + I1 + comment + "\n\n"
    fast, lark = both_routes(text)
    assert_same(fast, lark)
    assert fast.turns[0].annotation.before[0] == "lorem } ipsum\n" * 2000
    assert fast.annotation.tags == (("note", "x" * 30_000),)


@pytest.mark.parametrize("lines", [
    ["I.1 Lumbr Yard | sell ? | stage ?"], ["I.2 Lumber Yard | sell ? | stage ?"], [I1, I1],
    ["I.1 Lumber Yard | sell ? | stage ? | sell ?"], ["I.1 Lumber Yard | sell ?"], ["I.1 Bob: Altar | Altar | Altar"],
    [I1, "result Bob: total 1", "I.2 Altar | Altar | Altar"], ["result Zed: total 1"], ["result Bob: total 1 total 2"],
    ["I.1 Altar, discard ?, discard ? | Altar | Altar"], ["I.1 Altar, pick -, pick - | Altar | Altar"],
    ["I.1 Altar | Altar | Altar", "I.2 Altar | Altar | Altar", "I.3 Altar | Altar | Altar", "I.4 Altar | Altar | Altar",
     "I.5 Altar | Altar | Altar", "I.6 Altar | Altar | Altar", "I.7 Carol: Altar | Bob: Altar"],
    ["I.1 Lumber Yard | sell ? | stage ?", "I.2 sell | Baths | Altar", "IV.1 x"], ["I.1 Lumber Yard | sell ??| stage ?"],
    # a piece only another decoding reads whole (the card "sell", glyph ??): cut as the atomic RUN cuts it
    ["I.1 Lumber Yard | sell ?? | stage ?"], ["I.1 sell ?? | sell ? | stage ?"],
])
def test_errors_are_lark_errors(lines):
    text = HEADER + "\n".join(lines) + "\n"
    assert fast_route(text) is None
    with pytest.raises(NotationError) as via_parse:
        parse(text)
    with pytest.raises(NotationError) as via_lark:
        parse(text, route="lark")
    assert via_parse.value.to_dict() == via_lark.value.to_dict()


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(records())
def test_routes_agree_on_any_record(record):
    fast, lark = both_routes(write(record))
    assert lark == record
    if fast is not None:
        assert_same(fast, lark)


GUILDS5 = "Workers Guild, Craftsmens Guild, Traders Guild, Philosophers Guild, Spies Guild"
PLAIN = HEADER.replace("\n\n", f'\n[Guilds "{GUILDS5}"]\n[Seed "SM64-FY 7"]\n\n') + I1


@pytest.mark.parametrize("old, new", [
    ("", ""), ('[Seed "SM64-FY 7"]', '[Seed "sm64-fy  7"]'), ('[Seed "SM64-FY 7"]', ""), (f'"{GUILDS5}"', '"?"'),
    ('"Alice" "Gizah" "day"', '"Al\\"ice"\n  "gizah"\t"A"'), ('"Bob"', '"  Bob  "'), ("[Edition", '[Event ""]\n[Edition'),
    ('[Date "2026.11.29"]', '[Date "????.??.??"]'), ('[Date "2026.11.29"]', '[Date "2026.11.2x"]'),
    ("[Seat3", '[Site "a" "b"]\n[Seat3'), ("[Seat3", "[seat3"), ('[Seat3 "Carol"', '[Seat3 "alice"'),
    ('"Halikarnassos"', '"Gizah"'), ('"Halikarnassos" "night"', '"Halikarnassos" "dusk"'), (f"{GUILDS5}", f"{GUILDS5}, Spies Guild"),
    ("Spies Guild", "Altar"), ("[Seat3", "[Seat4"), ('[Seed "SM64-FY 7"]', '[Seed "SM64-FY 18446744073709551616"]'),
    ('"SM64-FY 7"', '"SM64-FY 7" "8"'), ("[Edition", '[Seats "x"]\n[Edition'), ('[Seed "SM64-FY 7"]', '[Expansions "x"]'),
])
def test_plain_headers_read_as_lark_reads_them(old, new):
    """The token-free header (with its value caches warm from the line before) against Lark, on the writer's
    header and small departures from it, valid or not; read_headers reports what Lark reports."""
    parse(PLAIN)  # warm the caches with the plain values
    text = PLAIN.replace(old, new, 1)
    assert text != PLAIN or not old
    try:
        lark = lark_route(text, 3, 40)
    except NotationError as exc:
        assert fast_route(text, 3, 40) is None
        [error] = read_headers(text)
        with pytest.raises(NotationError) as via_parse:
            parse(text)
        assert isinstance(error, NotationError) and error.to_dict() == via_parse.value.to_dict()
        assert exc.to_dict()["rule"] == error.to_dict()["rule"]
        return
    assert_same(fast_route(text, 3, 40), lark)
    [h] = read_headers(text)
    assert (h.seats, h.tags, h.guilds, h.seed, h.date) == (lark.seats, lark.tags, lark.guilds, lark.seed, lark.date)


def test_generated_games_take_the_fast_route_with_the_writers_result_lines():
    """The writer's games, headers and result lines are the fast route's: it reads each of them (and Lark's
    equal Record comes from the same builder)."""
    for text in bot_texts():
        fast = parse(text, route="fast")
        assert fast.results and fast == parse(text, route="lark")
        [h] = read_headers(text)
        assert h.seats == fast.seats


@pytest.mark.parametrize("line", [
    "result Bob: military 1 treasury 2 wonder 3 civilian 4 commercial 5 guilds 6 science 7 total 8 coins 9 rank 1",
    "RESULT Bob : military 1 treasury 2 wonder 3 civilian 4 commercial 5 guilds 6 science 7 total 8 coins 9 rank 1",
    "result #2: military -1 treasury 2 wonder 3 civilian 4 commercial 5 guilds 6 science 7 total 8 coins 9 rank 1  ",
    "result Bob: military 1 treasury 2 wonder 3 civilian 4 commercial 5 guilds 6 science 7 total 8 coins 9",
    "result Bob: military 1 treasury 2 wonder 3 civilian 4 commercial 5 guilds 6 science 7 total 8 coins 9 rank 1 rank 2",
    "result Bob: military 1  treasury 2 wonder 3 civilian 4 commercial 5 guilds 6 science 7 total 8 coins 9 rank 1",
    "result Bob: military 1 treasury 2 wonder 3 civilian 4 commercial 5 guilds 6 science 7 total 8 coins 9 rank "
    + "1" * 19,
])
def test_result_lines_read_as_lark_reads_them(line):
    text = HEADER + I1 + line + "\nresult Alice: total 1\n"
    assert_routes_agree(text, 2, 9)


# --- the header-only skim ------------------------------------------------------------------------------------


def test_headers_equal_the_full_read_on_replays_and_generated_games():
    texts = [p.read_text(encoding="utf-8") for p in REPLAYS] + bot_texts()
    joined = "\n".join(texts)
    headers = list(read_headers(joined, errors="raise"))
    records = list(read_games(joined, errors="raise"))
    assert len(headers) == len(records) == len(texts)
    for k, (h, r) in enumerate(zip(headers, records), 1):
        assert isinstance(h, Header) and h.index == k and h.source == "<string>"
        for name in Header.HEADER_FIELDS:
            assert getattr(h, name) == getattr(r, name), name
        assert spans(h) == spans(r)[: len(spans(h))]
        assert (h.line, h.offset) == (r.span.line, r.span.offset) and h.players == r.players
        assert h.event == r.tag("Event")


def test_headers_from_path_and_stream(tmp_path):
    text = HEADER.replace("[Date", '[Event "Club"]\n[Date') + I1 + "\n" + HEADER
    path = tmp_path / "g.7wn"
    path.write_text(text, encoding="utf-8")
    for source in (path, str(path), io.StringIO(text)):
        first, second = read_headers(source)
        assert (first.event, second.event, second.index, second.line) == ("Club", None, 2, 11)


def test_headers_skip_bodies_but_report_broken_tags():
    text = (HEADER + "I.1 Lumbr Yard | broken ( body\n\n"  # a broken body: its header is still read
            + HEADER.replace('"2e"', '"1e"') + "\n"  # a broken header: the full reader's error
            + HEADER.replace('[Seat3 "Carol"', '[Seat3 "Carol\n"') + "\n"  # a syntax error in the tags
            + HEADER)
    items = list(read_headers(text))
    full = list(read_games(text))
    assert [type(i).__name__ for i in items] == ["Header", "TagError", "NotationSyntaxError", "Header"]
    assert items[1].to_dict() == full[1].to_dict() and items[2].to_dict() == full[2].to_dict()
    assert [i.index for i in items if isinstance(i, Header)] == [1, 4]
    with pytest.raises(NotationError) as info:
        list(read_headers(text, errors="raise"))
    assert info.value.to_dict() == full[1].to_dict()


def test_headers_of_many_games_are_the_full_reads_headers():
    """That the skim is faster is measured in benchmarks/bench_timings.py, not asserted here."""
    text = "\n".join(bot_texts()[-6:] * 4)
    headers, games = list(read_headers(text)), list(read_games(text))
    assert len(headers) == len(games) == 24
    assert [(h.seats, h.seed, h.guilds) for h in headers] == [(g.seats, g.seed, g.guilds) for g in games]


# --- the error policy ----------------------------------------------------------------------------------------


def test_error_policy_collect_and_raise():
    broken = HEADER + "I.1 Lumbr Yard | sell ? | stage ?\n"
    text = HEADER + I1 + "\n" + broken + "\n" + HEADER
    collected = list(read_games(text, errors="collect"))
    assert [type(i).__name__ for i in collected] == ["Record", "UnknownNameError", "Record"]
    assert [type(i).__name__ for i in read_games(text)] == ["Record", "UnknownNameError", "Record"]
    seen = []
    with pytest.raises(NotationError) as info:
        for item in read_games(text, errors="raise"):
            seen.append(item)
    assert len(seen) == 1 and info.value.to_dict() == collected[1].to_dict()
    assert len(list(read_games(HEADER + I1 + "\n" + HEADER, errors="raise"))) == 2
    with pytest.raises(NotationError) as info:
        list(read_games("hello\n" + HEADER, errors="raise"))
    assert (info.value.line, info.value.column) == (1, 1)


def test_error_policy_is_checked_at_once():
    with pytest.raises(ValueError, match="errors='ignore'"):
        read_games(HEADER, errors="ignore")
    with pytest.raises(ValueError):
        read_headers(HEADER, errors="strict")
    assert reader.ERROR_POLICIES == ("collect", "raise")


# --- the stream route against the string route ----------------------------------------------------------------

ANNOTATED = HEADER + "{ a\ncomment }\n" + I1 + "I.2 Loom { x\ny } | sell ? | stage ?\n"


def _both_ways(text: str, handle: io.TextIOBase) -> None:
    def seen(items: list) -> list:
        return [(str(r), r.to_dict()) if isinstance(r, NotationError) else (r, spans(r)) for r in items]

    assert seen(list(read_games(handle, source="g"))) == seen(list(read_games(text, source="g")))


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"], ids=["CR", "CRLF", "LF"])
@pytest.mark.parametrize("newline", ["\n", "", None, "\r", "\r\n"], ids=["nl-LF", "nl-any", "nl-universal", "nl-CR",
                                                                         "nl-CRLF"])
def test_the_stream_route_reads_every_game_whatever_the_line_ends_and_newline_mode(tmp_path, end, newline):
    """``read_games(io.StringIO(text))`` and ``open(p, newline="\\n")`` read only the first game of a file with
    lone-CR line ends (the whole file was one line to the splitter)."""
    text = "\ufeff" + "\n".join([ANNOTATED, ANNOTATED.replace("Alice", "Ann"), "[Format \"7WN 2\"]\n", ANNOTATED])
    text = text.replace("\n", end)
    path = tmp_path / "games.7wn"
    path.write_text(text, encoding="utf-8", newline="")
    assert len(list(read_games(text))) == 4
    with open(path, encoding="utf-8", newline=newline) as handle:
        _both_ways(text, handle)
    if newline in ("\n", ""):  # other modes translate what is written into a StringIO
        _both_ways(text, io.StringIO(text, newline=newline))


def test_the_stream_route_keeps_a_crlf_cut_between_two_reads_as_one_line_end():
    text = ANNOTATED.replace("\n", "\r\n")
    pieces = [text[k : k + 7] for k in range(0, len(text), 7)]
    _both_ways(text, iter(pieces))  # type: ignore[arg-type]
    assert any(p.endswith("\r") for p in pieces)


# --- the two routes on any layout -----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 17), st.randoms(use_true_random=False), st.booleans(), st.booleans())
def test_routes_agree_on_non_canonical_layouts(which, rnd, comments, labels):
    """The same games laid out anew (blanks, case, seat prefixes, purchases in any order, result pairs in any
    order, comments): Lark and the default route give equal Records with equal spans, placed anywhere in a file;
    a layout without comments is the same game as the canonical text, and without comments or lower-case labels
    the fast route reads it itself."""
    canonical = bot_texts()[which]
    text = relayout(canonical, rnd, comments=comments, labels=labels)
    [lark] = read_games(placed(text, 4, 30), errors="raise", route="lark")
    [auto] = read_games(placed(text, 4, 30), errors="raise")
    assert auto == lark and spans(auto) == spans(lark)
    if not comments:
        assert lark == parse(canonical)
    if not (comments or labels):
        assert_same(fast_route(text, 4, 30), lark)


def test_a_declined_game_holds_nothing_read_before_lark_reads_it():
    """The fast route drops the turns and notes it read of a game it then declines (Lark reads it again): a huge
    comment already taken from the text is not held twice while Lark reads it."""
    from wnotation.notation.errors import Origin
    from wnotation.notation.reader import build, fast_route as fast
    from wnotation.notation.reader.header import read_header

    text = HEADER + "{ c }\n" + I1 + "{ d }\nI.2 Lumbr Yard | sell ? | stage ?\n"
    g = build.Game(text, Origin("<t>"))
    entries, pos, line = fast.lex_header(text)
    read_header(g, entries)
    assert fast.read_body(g, pos, line) is None
    assert g.turns == [] and g.pending == []
