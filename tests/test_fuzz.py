"""Never-crash fuzzing of the reader: any input gives Records or notation errors, and every route agrees.

Inputs: random bytes (read as a UTF-8 file), random Unicode text, and structure-aware mutations of generated games
(the bot's, written canonically: characters deleted, pieces of 7WN syntax and odd characters inserted, lines
repeated, dropped, swapped or re-cased). For each input: ``read_games`` on the text and on a stream of it give the
same games, spans and errors (never another exception); every game the fast route reads, Lark reads the same; and a
game that reads writes back to text that reads as the same Record.

The default budget is small (the unit suite stays fast). Run it long with the number of examples per strategy in
``WNOTATION_FUZZ_EXAMPLES``, e.g. ``WNOTATION_FUZZ_EXAMPLES=35000 python3 -m pytest -q -p no:cacheprovider
tests/test_fuzz.py`` (three strategies: about 100,000 inputs, some minutes on one core).
"""

from __future__ import annotations

import io
import os
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wnotation.notation import NotationError, parse, read_games, write
from wnotation.notation import lexical
from wnotation.notation.reader import RouteDeclined, normalise, split_games
from wnotation.model.record import Record

EXAMPLES = int(os.environ.get("WNOTATION_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=EXAMPLES <= 100,
                suppress_health_check=list(HealthCheck))


@cache
def games() -> tuple[str, ...]:
    """Canonical texts of generated games: 3 to 7 players, both bots, one with annotations added."""
    from wnotation.engine.bot import play_game

    texts = [write(play_game(players, seed, bot=bot)) for players, seed, bot in
             ((3, 1, "greedy"), (4, 2, "random"), (5, 3, "greedy"), (7, 4, "random"))]
    annotated = texts[0].replace("I.2 ", "{ a\ncomment }\nI.2 [%k v] ", 1).replace(" | ", " ! {c} | ", 3)
    return (*texts, annotated, texts[1] + "\n" + texts[2])


def spans(r: Record) -> list:
    out = [r.span, *(s.span for s in r.seats), *(t.span for t in r.tags), *(d.span for d in r.deals)]
    for turn in r.turns:
        out.append(turn.span)
        out.extend((a.span, a.pick.span if a.pick else None) for a in turn.actions)
    out.extend(res.span for res in r.results)
    return out


def seen(items: list) -> list:
    return [(str(x), x.to_dict()) if isinstance(x, NotationError) else (x, spans(x)) for x in items]


def check_text(text: str) -> None:
    """The properties every text has; any exception other than an assertion is a finding."""
    by_string = list(read_games(text, source="f"))
    assert all(isinstance(x, (Record, NotationError)) for x in by_string)
    assert seen(list(read_games(io.StringIO(text), source="f"))) == seen(by_string)
    # Fast route == Lark: the default route (the fast one where it reads a game) against Lark alone, games placed
    # where they are in the input; then each game the fast route reads, alone.
    assert seen(list(read_games(text, source="f", route="lark"))) == seen(by_string)
    for chunk, _, _ in split_games(normalise(text)):
        if not lexical.BOUNDARY_RE.match(chunk):
            continue
        try:
            fast = parse(chunk, source="f", route="fast")
        except (RouteDeclined, NotationError):
            continue
        lark = parse(chunk, source="f", route="lark")
        assert fast == lark and spans(fast) == spans(lark)
    for item in by_string:
        if isinstance(item, Record):
            assert parse(write(item)) == item


PIECES = ["|", " | ", ",", ", discard ", ", pick ", "{", "}", "\\", "[%", "[%k v]", "]", "[", '"', "?", " ?", "!",
          "?!", "sell ", "stage ", "(", ")", "(L clay)", "(R 2 wood, L ore)", ":", "#9:", "#2: ", "I.7 ", "III.7 ",
          "ii.3 ", "//", " // ! {t}", "\n", "\r", "\r\n", "\t", " ", "[Format", '[Format "7WN 1"]\n', "result ",
          "game ", "Lumber Yard", "lumber  yard", "Giza", "王", "José", "e\u0301", "\ufeff", "\u2028", "\x00", "ſell ",
          "-", "99", "999999999999999999999", " total ", "Seat8", "[Seat1 \"A\" \"Gizah\" \"day\"]\n"]


@st.composite
def mutated_games(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(games()))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "insert", "line", "case"]))
        at = draw(st.integers(0, len(text)))
        if kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 12)):]
        elif kind == "insert":
            piece = draw(st.sampled_from(PIECES) | st.text(max_size=3))
            text = text[:at] + piece + text[at:]
        elif kind == "case":
            end = at + draw(st.integers(1, 20))
            text = text[:at] + text[at:end].swapcase() + text[end:]
        else:
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            how = draw(st.sampled_from(["repeat", "drop", "swap"]))
            if how == "repeat":
                lines.insert(i, lines[j])
            elif how == "drop":
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes_give_games_or_notation_errors(data):
    items = list(read_games(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline=""), source="f"))
    assert all(isinstance(x, (Record, NotationError)) for x in items)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        assert any(isinstance(x, NotationError) and x.rule == "encoding" for x in items)
        return
    check_text(text)


@FUZZ
@given(st.text(max_size=300) | st.text(st.sampled_from('[]{}"|,:?!#%\\\n\r\t IVXivx.1234567FormatSeatlcRsgpk'),
                                       max_size=300).map(lambda t: '[Format "7WN 1"]\n' + t))
def test_random_text_gives_games_or_notation_errors(text):
    check_text(text)


@FUZZ
@given(mutated_games())
def test_mutated_games_give_games_or_notation_errors_and_the_routes_agree(text):
    check_text(text)
