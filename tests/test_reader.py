"""Reader unit tests: one or more per construct of spec/7wn.md, spans, streaming and recovery."""

from __future__ import annotations

import io

import pytest

from helpers import HEADER
from wnotation.notation import (
    NotationError,
    NotationSyntaxError,
    RosterError,
    StructureError,
    TagError,
    UnknownNameError,
    parse,
    parse_many,
    read_games,
)
from wnotation.model.record import Purchase, Record

I1 = "I.1 Lumber Yard | sell ? | stage ?\n"


def body(*lines: str) -> Record:
    return parse(HEADER + "\n".join(lines) + "\n")


def actions(line: str):
    return body(line).turns[0].actions


# --- header --------------------------------------------------------------------------------------------------


def test_roster_and_required_tags():
    r = parse(HEADER)
    assert [(s.name, s.wonder, s.side) for s in r.seats] == [
        ("Alice", "Gizah", "day"), ("Bob", "Babylon", "night"), ("Carol", "Halikarnassos", "night")]
    assert r.format == "7WN 1" and r.edition == "2e" and r.date == "2026.11.29"
    assert r.turns == () and r.results == () and r.tags == ()


def test_free_tags_keep_order_and_escapes():
    r = parse(HEADER.replace("[Seat1", '[Event "Club \\"night\\" \\\\ 3"]\n[Site "Lyon"]\n[Event "again"]\n[Seat1'))
    assert [(t.name, t.value) for t in r.tags] == [("Event", 'Club "night" \\ 3'), ("Site", "Lyon"), ("Event", "again")]
    assert r.tag("Event") == 'Club "night" \\ 3'


def test_tag_order_is_free_after_format():
    text = HEADER.replace('[Date "2026.11.29"]\n', "") .replace("[Seat3", '[Date "2026.??.??"]\n[Seat3')
    assert parse(text).date == "2026.??.??"


def test_unknown_date_is_none():
    assert parse(HEADER.replace("2026.11.29", "????.??.??")).date is None


def test_wonder_names_and_sides_are_lenient():
    r = parse(HEADER.replace('"Gizah" "day"', '"gizah" "A"').replace('"Babylon" "night"', '"BABYLON" "Night"'))
    assert (r.seats[0].wonder, r.seats[0].side, r.seats[1].wonder, r.seats[1].side) == ("Gizah", "day", "Babylon", "night")


def test_seats_in_any_order():
    text = HEADER.replace('[Seat1 "Alice" "Gizah" "day"]\n', "").replace("\n\n", '\n[Seat1 "Alice" "Gizah" "day"]\n\n')
    assert [s.name for s in parse(text).seats] == ["Alice", "Bob", "Carol"]


def test_guilds_seed_and_deals():
    extra = ('[Guilds "workers guild, Spies Guild, Traders Guild, Builders Guild, Scientists Guild"]\n'
             '[Seed "sm64-fy 18446744073709551615"]\n'
             '[DealII "Sawmill, ?, ?, ?, ?, ?, ?"\n  "?, ?, ?, ?, ?, ?, ?"\n    "?, ?, ?, ?, ?, ?, Temple"]\n')
    r = parse(HEADER.replace("\n\n", "\n" + extra + "\n"))
    assert r.guilds[:2] == ("Workers Guild", "Spies Guild")
    assert (r.seed.algorithm, r.seed.value) == ("SM64-FY", 2**64 - 1)
    assert len(r.deals) == 1 and r.deals[0].age == 2
    assert r.deals[0].hands[0][0] == "Sawmill" and r.deals[0].hands[2][6] == "Temple"


@pytest.mark.parametrize(
    "change, kind, rule",
    [
        (('"7WN 1"', '"7WN 3"'), TagError, "format"),
        (('"2e"', '"1e"'), TagError, "edition"),
        (('[Date "2026.11.29"]', '[Date "29/11/2026"]'), TagError, "date"),
        (('[Date "2026.11.29"]\n', ""), TagError, "missing-tag"),
        (('[Edition "2e"]\n', ""), TagError, "missing-tag"),
        (("[Date", "[date"), TagError, "tag-name"),
        (("[Date", '[Seat8 "a" "b" "c"]\n[Date'), TagError, "reserved-tag"),
        (("[Date", '[DealIV "a"]\n[Date'), TagError, "reserved-tag"),
        (("[Date", '[Expansions "Citties"]\n[Date'), TagError, "expansion"),
        (("[Date", '[Expansions "Cities, cities"]\n[Date'), TagError, "expansion"),
        (("[Date", '[Event "a" "b"]\n[Date'), TagError, "tag-value"),
        (("[Date", '[Edition "2e"]\n[Date'), TagError, "duplicate-tag"),
        (('"Alice" "Gizah" "day"', '"Alice" "Gizah"'), TagError, "tag-value"),
        (('"Gizah" "day"', '"Gizah" "dawn"'), TagError, "wonder-side"),
        (('"Gizah"', '"Gizeh"'), UnknownNameError, "unknown-wonder"),
        (('"Babylon"', '"Gizah"'), RosterError, "duplicate-wonder"),
        (('"Bob"', '"alice"'), RosterError, "seat-name"),
        (('[Seat2 "Bob" "Babylon" "night"]\n', ""), RosterError, "seat-numbers"),
        (('[Seat3 "Carol" "Halikarnassos" "night"]\n', ""), RosterError, "seat-count"),
        (("[Date", '[Seed "PCG32 5"]\n[Date'), TagError, "seed"),
        (("[Date", '[Seed "SM64-FY 18446744073709551616"]\n[Date'), TagError, "seed"),
        (("[Date", '[Guilds "Workers Guild, Temple"]\n[Date'), TagError, "guild"),
        (("[Date", '[Guilds "Workers Guild, Spies Guild"]\n[Date'), TagError, "guild-count"),
        (("[Date", '[DealI "Altar, ?"\n "?" "?"]\n[Date'), TagError, "deal"),
        (("[Date", '[DealI "Altar"]\n[Date'), TagError, "deal"),
    ],
)
def test_header_refusals(change, kind, rule):
    with pytest.raises(kind) as info:
        parse(HEADER.replace(*change))
    assert info.value.rule == rule


# --- turns and actions ---------------------------------------------------------------------------------------


def test_build_sell_stage_and_unknown():
    a = actions("I.1 Lumber Yard | sell Altar | stage ?")
    assert [(x.seat, x.use, x.card) for x in a] == [(1, "build", "Lumber Yard"), (2, "sell", "Altar"), (3, "stage", "?")]


def test_card_names_any_case_and_spacing():
    a = actions("I.1 lumber   YARD | SELL craftsmen's guild | Stage east-trading post")
    assert [(x.use, x.card) for x in a] == [("build", "Lumber Yard"), ("sell", "Craftsmens Guild"),
                                            ("stage", "East Trading Post")]


def test_unknown_and_glyphs_do_not_mix():
    a = actions("I.1 Temple! | sell ? ? | stage ? ?!")
    assert [(x.card, x.annotation.glyph) for x in a] == [("Temple", "!"), ("?", "?"), ("?", "?!")]
    with pytest.raises(NotationSyntaxError):
        body("I.1 Temple | sell ?? | stage ?")


def test_purchases():
    a = actions("I.1 Temple (L clay, R 2 glass) | Baths (left stone, right Wood, l ore) | stage ? ()")
    assert a[0].purchase == Purchase(left=("clay",), right=("glass", "glass"))
    assert a[1].purchase == Purchase(left=("ore", "stone"), right=("wood",))
    assert a[2].purchase == Purchase() and a[0].annotation.glyph is None


def test_purchase_then_glyph():
    a = actions("I.1 Temple (L clay)! | stage ?(R wood) ?? | sell ?")
    assert (a[0].annotation.glyph, a[1].purchase.right, a[1].annotation.glyph) == ("!", ("wood",), "??")


def test_discard_and_pick_clauses():
    r = body(*[f"I.{i} Lumber Yard | sell ? | stage ?" for i in range(1, 6)],
             "I.6 Guard Tower, discard Altar | sell ?, discard ? | stage ?, pick Altar !, discard Baths")
    a = r.turns[5].actions
    assert (a[0].card, a[0].discard, a[1].discard) == ("Guard Tower", "Altar", "?")
    assert (a[2].pick.card, a[2].pick.annotation.glyph, a[2].discard) == ("Altar", "!", "Baths")


def test_declined_pick():
    assert actions("I.1 Lumber Yard | sell ? | stage ?, pick -")[2].pick.card is None


def test_extra_turn_names_its_seats():
    lines = [f"I.{i} Lumber Yard | sell ? | stage ?" for i in range(1, 7)]
    r = body(*lines, "I.7 bob: sell ? | #3: Altar", "II.1 Lumber Yard | sell ? | stage ?")
    t = r.turns[6]
    assert (t.number, [(x.seat, x.use, x.card) for x in t.actions]) == (7, [(2, "sell", "?"), (3, "build", "Altar")])
    with pytest.raises(StructureError) as info:
        body(*lines, "I.7 sell ?")
    assert info.value.rule == "seat-prefix"
    with pytest.raises(StructureError) as info:
        body(*lines, "I.7 Carol: sell ? | Bob: Altar")
    assert info.value.rule == "seat-order"


def test_seat_prefix_in_a_normal_turn_must_match():
    assert actions("I.1 Alice: Lumber Yard | #2: sell ? | Carol: stage ?")[1].seat == 2
    with pytest.raises(StructureError) as info:
        body("I.1 Bob: Lumber Yard | sell ? | stage ?")
    assert info.value.rule == "seat-order"


@pytest.mark.parametrize(
    "lines, rule",
    [
        (["I.2 Altar | sell ? | stage ?"], "turn-order"),
        ([I1.strip(), I1.strip()], "turn-order"),
        (["I.1 Altar | sell ? | stage ? | sell ?"], "action-count"),
        (["I.1 Altar | sell ?"], "action-count"),
        (["I.1 Altar, discard ?, discard ? | sell ? | stage ?"], "clause"),
        (["I.1 Altar | sell ? | stage ?, pick -, pick Altar"], "clause"),
        (["result Alice: total 3", "I.1 Altar | sell ? | stage ?"], "turn-order"),
        (["result Alice: total 3", "result alice: coins 3"], "result"),
        (["result Alice: total 3 total 4"], "result"),
        ([I1.strip(), "game !"], "game-line"),
        (["result Dave: total 3"], "unknown-seat"),
        (["result #4: total 3"], "unknown-seat"),
        (["I.1 Altr | sell ? | stage ?"], "unknown-card"),
    ],
)
def test_structure_refusals(lines, rule):
    with pytest.raises(NotationError) as info:
        body(*lines)
    assert info.value.rule == rule


def test_game_ends_after_age_three():
    lines = [f"{age}.{i} Lumber Yard | sell ? | stage ?" for age in ("I", "II", "III") for i in range(1, 7)]
    assert len(body(*lines).turns) == 18
    with pytest.raises(StructureError):
        body(*lines, "III.7 Bob: sell ?", "III.7 Bob: sell ?")


# --- annotations ---------------------------------------------------------------------------------------------


def test_annotation_attachment():
    r = body(
        "game !? [%opening wood] { intro }",
        "{ before turn } [%phase early]",
        "I.1 { a1 before } Lumber Yard { a1 after } [%eval +1] | { a2 before } sell ? ? | "
        "stage ? { a3 after }, pick { p before } Altar ! { p after } [%k v] // !! { turn after } [%t x]",
        "{ game after }",
    )
    t = r.turns[0]
    a1, a2, a3 = t.actions
    assert r.annotation.before == ("intro",) and r.annotation.glyph == "!?" and r.annotation.after == ("game after",)
    assert r.annotation.tags == (("opening", "wood"),)
    assert t.annotation.before == ("before turn",) and t.annotation.after == ("turn after",)
    assert t.annotation.glyph == "!!" and t.annotation.tags == (("phase", "early"), ("t", "x"))
    assert (a1.annotation.before, a1.annotation.after, a1.annotation.tags) == (("a1 before",), ("a1 after",),
                                                                              (("eval", "+1"),))
    assert (a2.annotation.before, a2.annotation.glyph) == (("a2 before",), "?")
    assert a3.annotation.after == ("a3 after",)
    assert (a3.pick.annotation.before, a3.pick.annotation.after, a3.pick.annotation.tags) == (
        ("p before",), ("p after",), (("k", "v"),))


def test_comment_escapes_padding_and_lines():
    r = body("{ a \\} b \\\\ c\nsecond line }", "{x}", "{  two spaces  }", I1.strip())
    assert r.turns[0].annotation.before == ("a } b \\ c\nsecond line", "x", " two spaces ")


def test_tag_annotation_values():
    r = body("[%empty] [%k  lead] [%b a\\]b]", I1.strip())
    assert r.turns[0].annotation.tags == (("empty", ""), ("k", " lead"), ("b", "a]b"))


def test_results():
    r = body(I1.strip(), "result Alice: military -3 total 45 coins 7 rank 1", "result #3:", "RESULT bob: Science 4")
    a, c, b = r.results
    assert (a.seat, a.military, a.total, a.coins, a.rank, a.treasury) == (1, -3, 45, 7, 1, None)
    assert (c.seat, c.total, b.seat, b.science) == (3, None, 2, 4)


# --- spans, streams, leniencies ------------------------------------------------------------------------------


def test_spans_point_at_tokens():
    r = body("", "I.1 Lumber Yard | sell ?, discard ? | stage ?, pick Altar")
    t = r.turns[0]
    assert (t.span.line, t.span.column) == (9, 1)
    assert [(a.span.line, a.span.column) for a in t.actions] == [(9, 5), (9, 19), (9, 39)]
    assert (t.actions[2].pick.span.column, r.seats[1].span.column, r.span.line) == (53, 1, 1)
    assert r.span.offset == 0 and t.span.offset == HEADER.index("\n\n") + 3


def test_fast_models_equal_validated_models():
    r = body("game { g }", "I.1 Temple (L clay) ! { x } | sell ?, pick - | stage ?", "result Bob: total 3")
    assert Record.model_validate(r.model_dump()) == r
    assert hash(Record.model_validate(r.model_dump())) == hash(r)


def test_bom_crlf_and_missing_final_newline():
    text = "\ufeff" + (HEADER + "I.1 Lumber Yard | sell ? | stage ?").replace("\n", "\r\n")
    r = parse(text)
    assert r.turns[0].actions[0].card == "Lumber Yard" and r.turns[0].span.line == 8


def test_parse_refuses_zero_or_two_games_and_prelude():
    with pytest.raises(NotationSyntaxError):
        parse("")
    with pytest.raises(StructureError) as info:
        parse(HEADER + HEADER)
    assert info.value.line == 8
    with pytest.raises(NotationSyntaxError) as info:
        parse("hello\n" + HEADER)
    assert (info.value.line, info.value.column) == (1, 1)


def test_read_games_recovers_after_a_broken_game(tmp_path):
    broken = HEADER + "I.1 Lumbr Yard | sell ? | stage ?\n"
    text = HEADER + I1 + "\n" + broken + "\n" + HEADER
    path = tmp_path / "games.7wn"
    path.write_text(text, encoding="utf-8")
    for source in (text, path, str(path), io.StringIO(text)):
        items = list(read_games(source))
        assert [type(i).__name__ for i in items] == ["Record", "UnknownNameError", "Record"]
        assert (items[1].line, items[1].column) == (17, 5)
    assert items[2].span.line == 19
    assert list(read_games(path))[1].source == str(path)
    assert len(parse_many(HEADER + HEADER)) == 2


def test_read_games_reports_bad_utf8(tmp_path):
    path = tmp_path / "bad.7wn"
    path.write_bytes(HEADER.encode() + b"{ \xff }\n")
    (error,) = list(read_games(path))
    assert isinstance(error, NotationError) and error.rule == "encoding"


def test_error_rendering():
    with pytest.raises(UnknownNameError) as info:
        parse(HEADER + "I.1 Lumbr Yard | sell ? | stage ?\n", source="g.7wn")
    e = info.value
    assert str(e).splitlines() == [
        "g.7wn:8:5: error[unknown-card]: unknown card 'Lumbr Yard'; did you mean Lumber Yard?",
        "    I.1 Lumbr Yard | sell ? | stage ?",
        "        ^",
    ]
    assert e.suggestion == "Lumber Yard" and e.to_dict()["column"] == 5 and isinstance(e, ValueError)


def test_tree_path_gives_the_same_record():
    """Two routes, one answer: Lark's tree transformed afterwards equals the tree-less inline parse."""
    from wnotation.notation import grammar
    from wnotation.notation.reader.lark_route import from_tree

    text = HEADER + "game !\n{ b }\nI.1 Temple (L clay) ! { c } | sell ? ? | stage ?, pick { p } Altar\nresult #2: total 3\n"
    tree = grammar.tree_parser().parse(text)
    via_tree = from_tree(tree, text)
    inline = parse(text)
    assert via_tree == inline
    assert [a.span for a in via_tree.turns[0].actions] == [a.span for a in inline.turns[0].actions]


def test_keywords_fold_case_as_the_grammar_matches_them():
    """Lark's ``"sell"i`` also matches ``ſell`` (Unicode case folding): it is read as sell, not kept as written."""
    r = body("I.1 ſell Altar (L ſtone, RIGHT wood) | Altar, piC\u212a - | Altar", "result #1: ſcience 3 ran\u212a 2")
    a = r.turns[0].actions
    assert (a[0].use, a[0].purchase, a[1].pick.card) == ("sell", Purchase(left=("stone",), right=("wood",)), None)
    assert (r.results[0].science, r.results[0].rank) == (3, 2)


@pytest.mark.parametrize("written, name", [("Giza", "Gizah"), ("Rhodes", "Rhodos"), ("Ephesus", "Ephesos"),
                                           ("Halicarnassus", "Halikarnassos"), ("The Pyramids of Giza", "Gizah")])
def test_standard_english_wonder_names_in_the_header_read_as_the_catalogue_name(written, name):
    from wnotation.notation import write

    text = HEADER.replace('"Gizah"', f'"{written}"').replace('"Halikarnassos"', '"Olympia"') + I1
    record = parse(text)
    assert record.seats[0].wonder == name
    assert f'"{name}"' in write(record) and f'"{written}"' not in write(record).replace(f'"{name}"', "")
    assert next(read_games(io.StringIO(text))) == record  # the stream route and the fast route's seat cache


def test_an_alias_of_a_wonder_already_at_the_table_is_a_duplicate():
    with pytest.raises(RosterError, match="Gizah is already seat 1's Wonder"):
        parse(HEADER.replace('"Babylon"', '"Giza"') + I1)


def test_a_line_past_the_length_limit_is_refused_at_the_first_character_past_it():
    """A 12.5 MB turn line took 2.7 GB and 31 s; a line is now refused past LINE_LIMIT (spec 11), in one pass."""
    from wnotation.notation.reader import LINE_LIMIT

    line = "I.1 Lumber Yard" + " | Loom" * (LINE_LIMIT // 7 + 1)
    with pytest.raises(StructureError) as info:
        parse(HEADER + line + "\n", source="g.7wn")
    e = info.value
    assert (e.rule, e.line, e.column) == ("line-length", 8, LINE_LIMIT + 1)
    assert str(e).startswith("g.7wn:8:10001: error[line-length]: this line holds more than 10,000 characters")
    assert "\n" not in str(e)  # the line itself is not shown
    assert isinstance(list(read_games(io.StringIO(HEADER + line + "\n" + HEADER + I1)))[0], StructureError)


def test_comments_and_tags_do_not_count_towards_the_line_limit():
    from wnotation.notation.reader import LINE_LIMIT

    long = "x\\} " * LINE_LIMIT
    record = parse(HEADER + f"{{ {long} }}\nI.1 Lumber Yard {{ {long} }} | sell ? [%k {long}] | stage ?\n")
    assert record.turns[0].annotation.before == (long.replace("\\}", "}"),)
    assert record.turns[0].actions[1].annotation.tags == (("k", long),)


def test_a_line_just_inside_the_limit_is_read():
    from wnotation.notation.reader import LINE_LIMIT

    name = "x" * (LINE_LIMIT - len("[Event \"\"]"))
    assert parse(HEADER.replace("[Date", f'[Event "{name}"]\n[Date') + I1).tag("Event") == name


def test_turn_labels_are_read_in_any_case_and_written_in_upper_case():
    """``show --at ii.3`` was accepted but the label ``i.3`` was a syntax error (spec 2: labels fold like keywords)."""
    from wnotation.notation import write

    upper = body(I1.rstrip(), "I.2 Loom | sell ? | stage ?")
    for label1, label2 in (("i.1", "i.2"), ("I.1", "i.2"), ("\u0131.1", "I.2")):
        text = HEADER + I1.replace("I.1", label1) + f"{label2} Loom | sell ? | stage ?\n"
        record = parse(text)
        assert record == upper and [t.label for t in record.turns] == ["I.1", "I.2"]
        assert write(record) == write(upper)
        assert next(read_games(io.StringIO(text))) == upper


def test_lower_case_labels_keep_their_ages_and_their_order_checks():
    record = parse(HEADER + "".join(f"{a}.{n} Loom | sell ? | stage ?\n" for a in ("i", "Ii", "iII")
                                    for n in range(1, 7)))
    assert [(t.age, t.number) for t in record.turns] == [(a, n) for a in (1, 2, 3) for n in range(1, 7)]
    with pytest.raises(StructureError, match="turn ii.1 after I.1: expected I.2"):
        parse(HEADER + I1 + "ii.1 Loom | sell ? | stage ?\n")


def test_seat_names_are_read_in_nfc_and_matched_however_they_were_typed():
    """A name typed decomposed (NFD: e and a combining accent) gave a caret on the combining mark."""
    import unicodedata

    nfd, nfc = unicodedata.normalize("NFD", "José"), "José"
    for header_name, body_name in ((nfd, nfd), (nfd, nfc), (nfc, nfd), (nfc, "JOSÉ")):
        text = HEADER.replace('"Bob"', f'"{header_name}"') + I1 + f"result {body_name}: coins 3\n"
        for record in (parse(text), next(read_games(io.StringIO(text)))):
            assert record.seats[1].name == nfc and record.results[0].seat == 2


def test_a_seat_name_that_cannot_be_written_in_the_body_says_write_its_number():
    text = HEADER.replace('"Carol"', '"王小明"')
    with pytest.raises(NotationSyntaxError, match="seat 3's name '王小明' cannot be written here .*: write #3"):
        parse(text + I1 + "result 王小明: coins 3\n")
    assert parse(text + I1 + "result #3: coins 3\n").results[0].seat == 3
