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
