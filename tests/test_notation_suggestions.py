"""Suggestions never change what an action does: a sale or stage written with another verb is suggested as one."""

from __future__ import annotations

import pytest

from helpers import CARDS, HEADER
from wnotation.notation import UnknownNameError, parse
from wnotation.notation.reader import VERB_WORDS

KIND_OF_FIX = {"sell": "sell", "stage": "stage", "": "build"}


def suggestion_for(action: str) -> str | None:
    with pytest.raises(UnknownNameError) as info:
        parse(HEADER + f"I.1 {action} | sell ? | stage ?\n")
    return info.value.suggestion


@pytest.mark.parametrize("verb", sorted(w for words in VERB_WORDS.values() for w in words if w not in ("sell", "stage")))
def test_a_verb_before_or_after_a_card_is_suggested_as_that_kind_of_action(verb):
    """``discard Marketplace`` got "did you mean Marketplace?", which turns a sale into a build."""
    kind = next(k for k, words in VERB_WORDS.items() if verb in words)
    for card in CARDS[::7]:
        for action in (f"{verb} {card}", f"{card} {verb}", f"{verb} {card.lower()[:-1]}"):
            fix = suggestion_for(action)
            assert fix == (f"{kind} {card}" if kind else card), action


@pytest.mark.parametrize("card", CARDS)
def test_a_misspelt_card_is_suggested_as_a_card_to_build(card):
    fix = suggestion_for(card[:-1] + "q")
    assert fix is None or fix in CARDS


@pytest.mark.parametrize("word, resource", [("cloth", "loom"), ("Cloth", "loom"), ("paper", "papyrus"),
                                            ("bricks", "clay"), ("woods", "wood"), ("iron", "ore"), ("glas", "glass")])
def test_other_words_for_a_resource_suggest_it(word, resource):
    with pytest.raises(Exception, match=f"unknown resource '{word}'; did you mean {resource}?"):
        parse(HEADER + f"I.1 Temple (R {word}) | sell ? | stage ?\n")


# --- issue 27 item 9: suggestions that would drop a card, a clause or an edition ---------------------------------

def error_for(action: str) -> UnknownNameError:
    with pytest.raises(UnknownNameError) as info:
        parse(HEADER + f"I.1 {action} | sell ? | stage ?\n")
    return info.value


@pytest.mark.parametrize("left, right", [("Apothecary", "Lumber Yard"), ("Lumber Yard", "Stone Pit"),
                                         ("Glassworks", "East Trading Post")])
def test_two_card_names_without_a_bar_say_the_bar_may_be_missing(left, right):
    """``Apothecary Lumber Yard`` got "did you mean Lumber Yard?", which drops the Apothecary."""
    error = error_for(f"{left} {right}")
    assert error.rule == "unknown-card" and error.suggestion is None
    assert f"a '|' may be missing between two card names ('{left} | {right}')" in error.message
    assert (error.line, error.column) == (HEADER.count("\n") + 1, 5)


@pytest.mark.parametrize("written", ["Strategists Guild", "strategists guild", "StrategistsGuild", "Pawnshop"])
def test_a_first_edition_card_is_said_to_be_one(written):
    """``Strategists Guild`` suggested the Magistrates Guild, another card with another effect."""
    error = error_for(written)
    assert error.suggestion is None and "did you mean" not in error.message
    assert "is a card of the first edition, not of the second (2020)" in error.message


def test_a_first_edition_guild_in_the_guilds_tag_is_said_to_be_one():
    with pytest.raises(UnknownNameError, match="first edition"):
        parse(HEADER.replace("\n\n", '\n[Guilds "Strategists Guild, Spies Guild, Traders Guild, Builders Guild, '
                                     'Decorators Guild"]\n\n', 1) + "I.1 Loom | sell ? | stage ?\n")


@pytest.mark.parametrize("action, fix", [("sell Marketplace discard Barracks", "'Marketplace, discard Barracks'"),
                                         ("Lumber Yard discard Loom", "'Lumber Yard, discard Loom'"),
                                         ("stage Altar pick Baths", "'Altar, pick Baths'")])
def test_a_clause_without_its_comma_hints_the_comma(action, fix):
    error = error_for(action)
    assert error.suggestion is None
    assert "a ',' may be missing before" in error.message and fix in error.message


def test_a_misspelt_card_keeps_its_suggestion():
    assert error_for("Lumbr Yard").suggestion == "Lumber Yard"


def test_json_on_a_json_file_names_the_option(tmp_path):
    from cli_helpers import game_text, run

    from wnotation.notation import to_json

    path = tmp_path / "game.json"
    path.write_text(to_json(parse(game_text())), encoding="utf-8")
    result = run("json", str(path), code=2)
    assert "is JSON, not 7WN text" in result.stderr and "--to-7wn" in result.stderr
    array = tmp_path / "games.json"
    array.write_text("[\n  " + to_json(parse(game_text())) + "\n]\n", encoding="utf-8")
    assert "--to-7wn" in run("json", str(array), code=2).stderr
    assert run("json", "--to-7wn", str(path)).stdout.startswith("[Format")
