"""Card names as a reader meets them: the words a player may write for the kind of an action (so that a
suggestion keeps the action's kind), and the spellings already matched. Nothing here knows a game or its text.
"""

from __future__ import annotations

from ...model import catalog as _catalog
from ...support.memo import Memo, memo

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


_CARD_NAMES: Memo[str, str] = memo("reader: card names as written", 1 << 12)


def card_names() -> Memo[str, str]:
    """Spelling → printed card name, filled as names are met (the catalogue's matching is the reference, and
    ``put`` bounds what odd spellings add); the printed names come back whenever it is empty."""
    if not _CARD_NAMES:
        _CARD_NAMES.update({card.name: card.name for card in _catalog.load().cards})
    return _CARD_NAMES


#: Cards of the first edition's base game that the second edition (2020) does not have, by their matching key
#: (catalog.normalise): a name a player of the first edition writes; no second-edition card stands for it.
FIRST_EDITION_ONLY = {_catalog.normalise(name): name for name in ("Strategists Guild", "Pawnshop")}


def split_meant(text: str) -> tuple[str, str] | None:
    """``(left, right)`` when an unknown card name is two card names written without the ``|`` between them
    (``Apothecary Lumber Yard``), as printed; ``None`` otherwise."""
    words = text.split()
    cat = _catalog.load()
    for i in range(1, len(words)):
        try:
            return cat.card_name(" ".join(words[:i])), cat.card_name(" ".join(words[i:]))
        except _catalog.CatalogError:
            continue
    return None


def clause_meant(text: str) -> tuple[str, str, str] | None:
    """``(card, keyword, rest)`` when an unknown card name is a card name, ``discard`` or ``pick`` and more, a
    clause written without its comma (``Marketplace discard Barracks``); ``None`` otherwise."""
    words = text.split()
    cat = _catalog.load()
    for i in range(1, len(words) - 1):
        keyword = words[i].casefold()
        if keyword in ("discard", "pick"):
            try:
                card = cat.card_name(" ".join(words[:i]))
            except _catalog.CatalogError:
                continue
            return card, keyword, " ".join(words[i + 1 :])
    return None
