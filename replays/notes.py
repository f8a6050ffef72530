"""Hand-written annotations of the sample games (read by make_replays.py).

Per game: file, seed, Wonder sides in seat order, seat names, header tags, and notes keyed by turn label: the
turn's ``before``/``after`` comments, ``glyph`` and ``tags``, and per seat number the action's ``after`` comments,
``glyph``, ``tags`` and ``pick`` (a comment after a Halikarnassos pick). Every statement was checked against the
replayed position (coins, discard pile, legal actions).
"""

G1 = {
    "file": "3p-babylon-halikarnassos-olympia.7wn",
    "seed": 234,
    "sides": [("Babylon", "night"), ("Halikarnassos", "night"), ("Olympia", "day")],
    "names": ["Marta", "Jonas", "Priya"],
    "date": "2026.10.03",
    "tags": [("Event", "Thursday board-game night"), ("Site", "Kraków, Poland"), ("Round", "1"),
             ("Annotator", "wnotation sample games")],
    "game_tags": [("players", "3")],
    "intro": "Three powers at one table: Babylon Night keeps its seventh card, Halikarnassos Night builds from "
             "the discard pile, Olympia Day builds the first card of each colour for free. The game ends 52-52 "
             "and is decided on coins.",
    "notes": {
        "I.1": {1: {"after": "The Apothecary costs a loom: Marta buys it from Jonas' starting loom for 2 of her "
                             "3 coins."}},
        "I.2": {3: {"glyph": "?!", "after": "Three coins now, but the Scriptorium lands in the discard pile, "
                                            "where Jonas' Halikarnassos will find it."}},
        "I.6": {"before": "Last cards of Age I: Marta discards the Workshop, Jonas the East Trading Post, "
                          "Priya the Timber Yard. Eight cards now lie in the pile."},
        "II.1": {2: {"glyph": "!", "after": "Halikarnassos Night, stage 1 (2 clay, bought from Priya for 4).",
                     "pick": "The Scriptorium that Priya sold in I.2 comes back for free."}},
        "II.2": {1: {"after": "Free: chained from the Apothecary."},
                 2: {"after": "Stage 2: his Glassworks and a papyrus bought from Marta's Press.",
                     "pick": "Marta's discarded Workshop, a gear, for nothing.", "tags": [("science", "2 cards, both picked")]}},
        "II.3": {"after": "Three chains in one turn. Jonas' Archery Range is chained from the Workshop he picked "
                          "for free a turn ago."},
        "II.5": {"before": "Jonas owns the only stone (Stone Pit, Quarry) and both neighbours want 2 stone for "
                           "a stage: he is paid 4 coins by each and goes from 3 to 11 coins.",
                 1: {"after": "Babylon Night, stage 1: from now on Marta keeps her seventh card."},
                 3: {"after": "Olympia Day, stage 1: 3 points."}},
        "II.6": {1: {"after": "Stage 2: 'any science' symbol, for 3 clay and a glass (4 coins to her "
                              "neighbours)."},
                 3: {"glyph": "!", "after": "Olympia Day, stage 2: the first Building of each colour Priya "
                                            "does not hold yet is now free."}},
        "II.7": {1: {"after": "Babylon's extra turn: she kept the Press, but already owns one (R-UNIQUE) and has "
                              "no stage left to build, so it is sold for 3 coins."}},
        "III.1": {2: {"after": "Stage 3 (3 wood: his Sawmill and one wood from Marta).",
                      "pick": "The School Priya discarded at II.6: his third free science card.",
                      "pick_glyph": "!"},
                  3: {"after": "Olympia Day, stage 3: 7 points, the Wonder is complete."}},
        "III.4": {1: {"glyph": "?!", "after": "Town Hall costs Marta 8 coins of trade (6 to Jonas, 2 to "
                                              "Priya) for 6 points."},
                  3: {"after": "Free: Priya's first green card (Olympia Day)."}},
        "III.5": {3: {"glyph": "!", "after": "Free again: her first purple card. Philosophers Guild counts "
                                             "the neighbours' green cards: 9 points."}},
        "III.6": {2: {"after": "Chained from the School he picked in III.1."}},
        "III.7": {1: {"after": "Babylon's extra turn again: Builders Guild counts the stages of three boards "
                               "(2 + 3 + 3 = 8 points). The only way to pay is 3 stone and a glass from Jonas: "
                               "8 coins, taking his treasury from 3 to 6 points.",
                      "tags": [("eval", "52-52")]}},
    },
    "outro": ["Marta and Jonas tie on 52 points. Jonas wins on coins, 18 to 6 (R-WIN): 8 of his coins came "
              "from Marta's last purchase. Selling the Builders Guild would have left Marta at 47."],
}


G2 = {
    "file": "4p-alexandria-ephesos-gizah-rhodos.7wn",
    "seed": 47,
    "sides": [("Alexandria", "day"), ("Ephesos", "night"), ("Gizah", "day"), ("Rhodos", "night")],
    "names": ["Sofia", "Tomás", "Kenji", "Amara"],
    "date": "2026.10.10",
    "tags": [("Event", "Club league, week 6"), ("Site", "Lyon, France"), ("Round", "2"),
             ("Annotator", "wnotation sample games")],
    "game_tags": [("players", "4")],
    "intro": "Four day-and-night boards without discard-pile powers: a game of stages that pay (Ephesos Night), "
             "shields (Rhodos Night) and completed Wonders. Two players finish on 50.",
    "notes": {
        "I.1": {4: {"after": "The Tavern's 5 coins make Amara the richest seat (8 coins) after one turn."}},
        "I.5": {2: {"glyph": "!", "after": "Ephesos Night, stage 1: 2 stone bought from Kenji for 4 coins, "
                                           "and 2 points and 4 coins back at once."}},
        "II.1": {"after": "Age I's science pays: Sofia's and Tomás' Scriptoriums chain into Courthouse and "
                          "Library for free, and Amara's Statue is chained too."},
        "II.5": {2: {"after": "Stage 2 (2 wood from Sofia, 4 coins): 3 points and 4 coins."}},
        "II.6": {2: {"after": "Stage 3 already: Tomás' Wonder is complete in Age II, 10 points and 12 coins "
                              "from the board."},
                 1: {"after": "Alexandria Day, stage 1 (2 stone from Tomás): 3 points."}},
        "III.1": {1: {"after": "Stage 2: from now on Sofia's board produces one raw material of her choice "
                               "(for her own use only)."},
                  3: {"after": "Gizah Day's third stage: 4 stone, 4 coins to Tomás, 7 points: 15 points of "
                               "Wonder for Kenji."},
                  4: {"after": "Rhodos Night, stage 1: a shield, 3 coins and 3 points."}},
        "III.2": {1: {"after": "Papyrus and loom from her own Press and Loom: Alexandria complete."},
                  4: {"after": "Stage 2: another shield, 4 coins and 4 points. Amara now has 7 shields."}},
        "III.3": {2: {"glyph": "!", "after": "Decorators Guild: 7 points, because his Wonder is already "
                                             "complete."}},
        "III.6": {1: {"glyph": "??", "after": "The Arena was free (chained from her Dispensary) and worth 3 "
                                              "points and 9 coins with three stages built; the sale gives 3 "
                                              "coins. Building it was worth 5 more points.",
                      "tags": [("eval", "-5")]}},
    },
    "outro": ["Amara's shields won every battle of Ages II and III against both neighbours (military 17). "
              "Tomás and Amara tie on 50; Tomás has 12 coins to Amara's 4 and wins (R-WIN)."],
}

G3 = {
    "file": "5p-olympia-night-halikarnassos-day.7wn",
    "seed": 1,
    "sides": [("Olympia", "night"), ("Halikarnassos", "day"), ("Babylon", "day"), ("Alexandria", "night"),
              ("Rhodos", "day")],
    "names": ["Hannah", "Diego", "Wei", "Olu", "Ingrid"],
    "date": "2026.10.17",
    "tags": [("Event", "Open table, Spielcafé"), ("Site", "Berlin, Germany"), ("Annotator", "wnotation sample games")],
    "game_tags": [("players", "5")],
    "intro": "Five players, and all five complete their Wonders. Hannah's Olympia Night gets four free Buildings "
             "from its first and last cards of each Age; Diego wins on science.",
    "notes": {
        "I.5": {1: {"glyph": "!", "after": "Olympia Night, stage 1 in Age I: the first card of Ages II and III "
                                          "will be free."}},
        "II.1": {1: {"after": "Free: Olympia Night's first card of the Age."},
                 2: {"after": "Halikarnassos Day, stage 1: 3 points."}},
        "II.2": {2: {"after": "Stage 2: glass and papyrus, and a build from the discard pile.",
                     "pick": "The Baths Wei sold in I.3: 3 points for nothing."}},
        "II.4": {1: {"after": "Olympia Night's third stage; the 6 coins of trade go to Diego."}},
        "II.6": {1: {"glyph": "!", "after": "Free: the last card of the Age (stage 2 was built at II.3)."},
                 2: {"after": "Halikarnassos Day complete, 10 points of Wonder."}},
        "III.1": {1: {"after": "Free Town Hall, 6 points, on the first turn of Age III."}},
        "III.6": {1: {"after": "And a free Arsenal with the last card: four free Buildings from Olympia Night "
                               "in this game."}},
    },
    "outro": ["Diego's 31 science points win the game: more than Hannah's "
              "free Buildings and guilds (58 to 53)."],
}

G4 = {
    "file": "6p-gizah-night-babylon-halikarnassos.7wn",
    "seed": 180,
    "sides": [("Gizah", "night"), ("Ephesos", "day"), ("Babylon", "night"), ("Halikarnassos", "night"),
              ("Olympia", "day"), ("Alexandria", "day")],
    "names": ["Mateus", "Chloé", "Ravi", "Freya", "Yusuf", "Noor"],
    "date": "2026.10.24",
    "tags": [("Event", "Autumn open, semi-final table"), ("Site", "Utrecht, Netherlands"), ("Round", "3"),
             ("Annotator", "wnotation sample games")],
    "game_tags": [("players", "6")],
    "intro": "Six players. Halikarnassos Night picks at the very end of Ages I and III, where the order of the "
             "end of an Age matters (R-HALI-LAST); Babylon Night starts its extra turns in Age II; Olympia Day "
             "builds three Buildings for free.",
    "notes": {
        "I.3": {6: {"after": "Alexandria Day, stage 1 on the third turn: 3 points."}},
        "I.6": {4: {"glyph": "!?", "after": "Halikarnassos Night, stage 1 on the last turn (2 clay, 4 coins to "
                                            "Yusuf).",
                    "pick": "The pick comes after the last cards are discarded (R-HALI-LAST): Freya discards "
                            "the Barracks and builds it back from the pile for free."}},
        "II.2": {5: {"after": "Olympia Day, stage 2: her first Building of each new colour is now free."}},
        "II.3": {5: {"after": "Free: her first green card."}},
        "II.4": {2: {"after": "Ephesos Day, stage 2: 9 coins from the bank (after paying Mateus 4 for the "
                              "wood)."}},
        "II.5": {5: {"after": "Free again: her first yellow card."}},
        "II.6": {3: {"glyph": "!", "after": "Babylon Night, stage 1 on turn 6: Ravi keeps his seventh card "
                                            "and plays it this very Age (R-BABYLON-N1)."}},
        "II.7": {3: {"after": "Nothing worth building: the kept Brickyard is sold."}},
        "III.1": {4: {"after": "Stage 2 (1 point).", "pick": "The Library Chloé discarded at II.6."}},
        "III.3": {3: {"after": "Stage 2: the 'any' science symbol."}},
        "III.4": {5: {"glyph": "!", "after": "Free: her first purple card."}},
        "III.6": {4: {"after": "Stage 3 on the last turn of the game, with 2 coins to Yusuf and 4 to Ravi.",
                      "pick": "The pick waits for Ravi's extra turn; Freya takes the Craftsmens Guild that "
                              "Chloé discarded this turn.", "pick_glyph": "!"}},
        "III.7": {3: {"after": "Ravi's last extra turn: a sale, before Freya's pick."}},
    },
    "outro": ["Mateus wins with 51 (24 civilian points). Chloé and Yusuf both finish on 37: Yusuf's 6 coins "
              "against Chloé's 0 put him fifth (R-WIN)."],
}

G5 = {
    "file": "7p-all-wonders.7wn",
    "seed": 61,
    "sides": [("Rhodos", "night"), ("Alexandria", "night"), ("Olympia", "night"), ("Ephesos", "day"),
              ("Halikarnassos", "day"), ("Babylon", "night"), ("Gizah", "night")],
    "names": ["Elif", "Pierre", "Aiko", "Lukas", "Grace", "Mateo", "Zanele"],
    "date": "2026.11.07",
    "tags": [("Event", "Seven-player marathon"), ("Site", "Leeds, United Kingdom"),
             ("Annotator", "wnotation sample games")],
    "game_tags": [("players", "7")],
    "intro": "Every Wonder at one table. Babylon Night builds its first stage on the last turn of Age I and "
             "plays three extra turns; Olympia Night loses one free build by staging; the game ends in a 50-50 "
             "tie.",
    "notes": {
        "I.1": {2: {"after": "Tavern: 5 coins."}, 7: {"after": "Tavern: 5 coins."}},
        "I.6": {6: {"glyph": "!", "after": "Babylon Night, stage 1 on turn 6: no discard, Mateo keeps his "
                                           "seventh card for an extra turn in this same Age."},
                3: {"after": "Olympia Night, stage 1: the first card of Ages II and III may be built for free."}},
        "I.7": {6: {"after": "The extra turn: the kept Workshop is built."}},
        "II.1": {3: {"glyph": "?!", "after": "Aiko uses her first card of Age II for stage 2, so this Age's "
                                             "free first build is lost (R-OLYMPIA-N1)."}},
        "II.2": {4: {"after": "Ephesos Day, stage 2: 9 coins."}},
        "II.6": {3: {"after": "Free: the last card of the Age (Olympia Night, stage 2)."},
                 5: {"after": "Halikarnassos Day, stage 1: 3 points."}},
        "II.7": {6: {"after": "Extra turn: the kept Caravansery is sold."}},
        "III.1": {3: {"after": "Free: the first card of Age III."},
                  5: {"after": "Stage 2, and a build from the discard pile.",
                      "pick": "One of the Training Grounds sold in Age II: 2 shields for nothing."}},
        "III.2": {5: {"after": "Halikarnassos Day complete: 7 points."}},
        "III.6": {3: {"after": "Free again, and a guild: Olympia Night's last-card build."}},
        "III.7": {6: {"after": "Mateo's third extra turn: the Haven is sold."}},
    },
    "outro": ["Grace and Mateo tie on 50. Grace, paid for her resources by both neighbours, has 30 coins to "
              "Mateo's 17 and wins (R-WIN)."],
}

G6 = {
    "file": "partial-4p-niamh.7wn",
    "seed": 177,
    "sides": [("Gizah", "night"), ("Babylon", "night"), ("Halikarnassos", "night"), ("Olympia", "night")],
    "names": ["Niamh", "Bao", "Carmen", "Dmitri"],
    "date": "2026.11.14",
    "tags": [("Event", "Kitchen-table game"), ("Site", "Galway, Ireland"), ("Recorder", "Niamh"),
             ("Annotator", "Niamh")],
    "game_tags": [("players", "4"), ("view", "Niamh")],
    "partial_of": 1,
    "results_of": (1,),
    "intro": "Recorded by Niamh (seat 1) at the table: what the others sold, staged or discarded is '?', "
             "because she never saw those cards. No seed and no guild list: the engine rebuilds what the known "
             "cards decide and still scores every city, since built cards are visible.",
    "notes": {
        "I.3": {2: {"after": "Bao stages a card: Babylon Night, stage 1, so he will keep his seventh card "
                             "in every Age."}},
        "I.4": {1: {"after": "Gizah Night, stage 1: 3 points."}},
        "I.6": {4: {"after": "Dmitri's Olympia Night, stage 1: his first card of Ages II and III will be "
                             "free."}},
        "I.7": {2: {"after": "Bao's extra turn: a Glassworks."}},
        "II.1": {4: {"after": "The free first card."}},
        "II.3": {3: {"after": "Halikarnassos Night, stage 1.", "pick": "My own discarded Scriptorium."}},
        "II.4": {3: {"pick": "A Workshop: I never saw it go into the pile, so it was one of the hidden "
                             "cards.", "pick_glyph": "!?"},
                 1: {"after": "Gizah Night, stage 2: 5 points."}},
        "II.5": {1: {"after": "Stage 3: 3 clay; my last 4 coins go to Dmitri for his clay."},
                 3: {"pick": "The Timber Yard I sold in Age I."}},
        "III.6": {4: {"after": "Builders Guild for free with his last card (Olympia Night, stage 2)."}},
    },
    "outro": ["Final score pad: Bao and Dmitri tie on 46 and Dmitri wins on coins. My 16 military points "
              "(two victories in Ages II and III against both neighbours) were not enough."],
}

GAMES = [G1, G2, G3, G4, G5, G6]
