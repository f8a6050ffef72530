"""Card names as a reader meets them: the words a player may write for the kind of an action (so that a
suggestion keeps the action's kind), and the spellings already matched. Nothing here knows a game or its text.
"""

from __future__ import annotations

from functools import cache

from ... import catalog as _catalog

# Words a player may write for the kind of an action, by the notation's way to write that kind ("" builds).
VERB_WORDS = {
    "sell": ("sell", "sells", "sold", "sale", "discard", "discards", "discarded", "burn", "burns", "burned", "burnt",
             "trash"),
    "stage": ("stage", "stages", "staged", "wonder", "bury", "buries", "buried"),
    "": ("build", "builds", "built", "play", "plays", "played"),
}
VERB_OF_WORD = {word: verb for verb, words in VERB_WORDS.items() for word in words}
USE_OF_VERB = {"sell": "sell a card", "stage": "build a Wonder stage with a card", "": "build a card"}


def verb_meant(text: str) -> tuple[str, str] | None:
    """``(fix, what it does)`` when an unknown card name is a verb word and a card name (either order):
    ``discard Marketplace`` → ``sell Marketplace``, never a fix that plays the card another way. The card part
    may itself be misspelt (its nearest name is used). ``None`` otherwise."""
    words = text.split()
    if len(words) < 2:
        return None
    cat = _catalog.load()
    for verb_word, rest in ((words[0], words[1:]), (words[-1], words[:-1])):
        verb = VERB_OF_WORD.get(verb_word.casefold())
        if verb is None:
            continue
        try:
            card = cat.card_name(" ".join(rest))
        except _catalog.CatalogError as exc:
            if exc.suggestion is None:
                continue
            card = exc.suggestion
        return (f"{verb} {card}" if verb else card), USE_OF_VERB[verb]
    return None


@cache
def card_names() -> dict[str, str]:
    """Spelling → printed card name, filled as names are met (the catalogue's matching is the reference)."""
    return {card.name: card.name for card in _catalog.load().cards}
