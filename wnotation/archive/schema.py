"""The archive's tables: every column's name and DuckDB type, in order. spec/archive.md documents each column;
tests/test_archive_schema.py pins this very list, so a change here is a change of the published schema (and of
:data:`SCHEMA_VERSION`, which every archive's manifest records).

Plain data only (no DuckDB import): the row builder, the writers and the queries all read these names, and table
and column names in SQL text come from here and from the package's .sql files, never from input.

Naming (schema 2): apart from the join keys :data:`KEYS`, no column name occurs in two tables, none is a table's
name and none is a DuckDB keyword, so ``JOIN … USING (game_id)`` and ``SELECT *`` over joins never collide and no
name needs quoting.
"""

from __future__ import annotations

import hashlib

#: The schema's version: 2 since the renames, lists and content-derived game ids (spec/archive.md, "Versions").
SCHEMA_VERSION = 2

#: The columns that mean the same thing in every table they occur in, and join tables.
KEYS = ("game_id", "seat", "age", "turn", "card_key")

#: table -> ((column, DuckDB type), ...) in column order. Rows are tuples in this order.
TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "games": (
        ("game_id", "BIGINT"),  # digest of the game's canonical text (game_id()): the key of every table
        ("kind", "VARCHAR"),  # played, position, scorepad, partial; NULL when the text could not be read
        ("file", "VARCHAR"),
        ("game_number", "INTEGER"),  # 1-based place of the game in its file (0: text before the first game)
        ("start_line", "INTEGER"),
        ("readable", "BOOLEAN"),  # false: the text is not a valid 7WN game (its notation error is in findings)
        ("complete", "BOOLEAN"),
        ("players", "INTEGER"),
        ("date_text", "VARCHAR"),  # as written, YYYY.MM.DD, NULL when unknown
        ("played_on", "DATE"),  # the date when every digit is known
        ("event_name", "VARCHAR"),
        ("site", "VARCHAR"),
        ("tags", "VARCHAR"),  # every free header tag, as a JSON object
        ("seed_algorithm", "VARCHAR"),
        ("seed", "UBIGINT"),
        ("guild_list", "VARCHAR[]"),  # as the [Guilds tag lists them
        ("turns", "INTEGER"),
        ("actions", "INTEGER"),
        ("results_stated", "BOOLEAN"),
        ("results_match", "BOOLEAN"),  # NULL when no result is stated
        ("error_count", "INTEGER"),
        ("warning_count", "INTEGER"),
        ("note_count", "INTEGER"),
    ),
    "seats": (
        ("game_id", "BIGINT"),
        ("seat", "INTEGER"),
        ("player", "VARCHAR"),
        ("wonder", "VARCHAR"),
        ("side", "VARCHAR"),
        ("military_points", "INTEGER"),
        ("treasury_points", "INTEGER"),
        ("wonder_points", "INTEGER"),
        ("civilian_points", "INTEGER"),
        ("commercial_points", "INTEGER"),
        ("guild_points", "INTEGER"),
        ("science_points", "INTEGER"),
        ("total_points", "INTEGER"),
        ("final_coins", "INTEGER"),
        ("place", "INTEGER"),
        ("winner", "BOOLEAN"),
        ("stages_built", "INTEGER"),
        # a score-pad record's expansion rows (R-SCORE-EXP), NULL when the game was not played with that expansion
        ("cities_points", "INTEGER"),
        ("leaders_points", "INTEGER"),
        ("armada_points", "INTEGER"),
        ("edifice_points", "INTEGER"),
        # the city at the end of the record (NULL for a score pad, or where the replay stops before the end)
        ("tablets", "INTEGER"),  # science symbols of each kind built (cards, stages)
        ("compasses", "INTEGER"),
        ("gears", "INTEGER"),
        ("science_wildcards", "INTEGER"),  # symbols of the seat's choice (Scientists Guild, Babylon day stage 2)
        ("coins_by_age", "INTEGER[]"),  # coins at the end of Age I, II, III (NULL items: an Age not replayed)
        ("shields_by_age", "INTEGER[]"),  # shields at the end of each Age, as the conflicts compared them
        ("tokens_by_age", "INTEGER[]"),  # the sum of the military tokens the seat took at the end of each Age
        ("city", "VARCHAR[]"),  # the catalogue keys of its buildings, in build order (I:Loom, III:Senate)
    ),
    "plays": (
        ("game_id", "BIGINT"),
        ("age", "INTEGER"),
        ("turn", "INTEGER"),  # 1..6, 7 for Babylon's extra turn
        ("seat", "INTEGER"),
        ("address", "VARCHAR"),  # I.3, II.7
        ("play_action", "VARCHAR"),  # build, stage, sell (as written)
        ("card", "VARCHAR"),  # NULL for an unseen card
        ("card_key", "VARCHAR"),  # I:Loom, II:Loom: the card design (catalogue key), NULL when unseen
        ("colour", "VARCHAR"),
        ("stage", "INTEGER"),  # the stage built, for a stage
        ("outcome", "VARCHAR"),  # built, staged, sold, discarded, ignored, not-replayed
        ("free_by", "VARCHAR"),  # chain or power for a free build, else NULL
        ("bank_coins", "INTEGER"),
        ("left_coins", "INTEGER"),
        ("right_coins", "INTEGER"),
        ("left_units", "VARCHAR[]"),  # resources bought from the left neighbour, [] for none
        ("right_units", "VARCHAR[]"),
        ("purchase_stated", "BOOLEAN"),
        ("income", "INTEGER"),  # coins this play earned (sale, card, stage)
        ("extra_turn", "BOOLEAN"),
        ("kept_last", "BOOLEAN"),  # turn 6: the seat kept its last card for the extra turn
        ("discarded_card", "VARCHAR"),  # turn 6: the last card discarded
        ("picked_card", "VARCHAR"),  # Halikarnassos: the card built from the discard pile this play earned
        ("picked_key", "VARCHAR"),  # its catalogue key (the pile may hold an earlier Age's card)
        ("pick_declined", "BOOLEAN"),
        ("play_errors", "INTEGER"),  # error findings at this action
        ("annotated", "BOOLEAN"),
        ("glyph", "VARCHAR"),
        ("play_line", "INTEGER"),
        ("play_column", "INTEGER"),
    ),
    "military": (
        ("game_id", "BIGINT"),
        ("age", "INTEGER"),
        ("seat", "INTEGER"),
        ("opponent", "INTEGER"),
        ("token", "INTEGER"),  # 1, 3, 5 for a victory, -1 for a defeat, 0 for a tie
        ("conflict_result", "VARCHAR"),  # victory, defeat, tie
    ),
    "findings": (
        ("game_id", "BIGINT"),
        ("finding_address", "VARCHAR"),
        ("seat", "INTEGER"),
        ("rule_id", "VARCHAR"),
        ("severity", "VARCHAR"),
        ("finding_kind", "VARCHAR"),  # notation (the game could not be read), finding (the engine's), file
        ("message", "VARCHAR"),
        ("finding_line", "INTEGER"),
        ("finding_column", "INTEGER"),
    ),
    "hands": (  # what each seat held at the start of each turn, where the record knows it
        ("game_id", "BIGINT"),
        ("age", "INTEGER"),
        ("turn", "INTEGER"),
        ("seat", "INTEGER"),
        ("held", "VARCHAR[]"),  # the catalogue keys of the cards in hand, NULL items for cards the record hides
    ),
    "cards": (  # the catalogue's card designs (the same in every archive of a wnotation version)
        ("card_key", "VARCHAR"),  # I:Loom: joins plays.card_key and plays.picked_key
        ("card_name", "VARCHAR"),
        ("card_age", "INTEGER"),
        ("card_colour", "VARCHAR"),
        ("coin_cost", "INTEGER"),
        ("resource_cost", "VARCHAR[]"),  # one item per unit: [stone, stone, ore]
        ("card_points", "INTEGER"),  # victory points printed (blue, some green-free cards), 0 for none
        ("card_shields", "INTEGER"),
        ("science_symbol", "VARCHAR"),  # tablet, compass, gear, any; NULL for a card without one
        ("effects", "VARCHAR[]"),  # each effect in words, as `wnotation cards` shows it
        ("chain_from", "VARCHAR[]"),  # owning one of these makes it free (R-CHAIN)
        ("chain_to", "VARCHAR[]"),
        ("copies", "INTEGER[]"),  # the minimum player count printed on each copy ([] for a guild: drawn)
    ),
}

#: The tables of a game's rows (every table but the catalogue's ``cards``, written once per archive).
PIECE_TABLES = tuple(t for t in TABLES if t != "cards")

#: The order rows of each table are written and read back in (a part's rows, and :func:`read_table`'s).
ORDER: dict[str, tuple[str, ...]] = {
    "games": ("file", "start_line"),
    "seats": ("game_id", "seat"),
    "plays": ("game_id", "age", "turn", "seat", "play_line", "play_column"),
    "military": ("game_id", "age", "seat", "opponent"),
    "findings": ("game_id", "finding_line", "finding_column", "rule_id", "message"),
    "hands": ("game_id", "age", "turn", "seat"),
    "cards": ("card_age", "card_name"),
}

#: Schema 1's names of the columns schema 2 renamed (spec/archive.md lists them), by table.
RENAMED: dict[str, dict[str, str]] = {
    "games": {"game": "game_number", "line": "start_line", "read": "readable", "date": "date_text",
              "event": "event_name", "guilds": "guild_list", "errors": "error_count", "warnings": "warning_count",
              "notes": "note_count"},
    "seats": {"name": "player", "military": "military_points", "treasury": "treasury_points",
              "civilian": "civilian_points", "commercial": "commercial_points", "guilds": "guild_points",
              "science": "science_points", "total": "total_points", "coins": "final_coins", "rank": "place",
              "stages": "stages_built", "cities": "cities_points", "leaders": "leaders_points",
              "armada": "armada_points", "edifice": "edifice_points"},
    "plays": {"action": "play_action", "free": "free_by", "discard": "discarded_card", "pick": "picked_card",
              "errors": "play_errors", "line": "play_line", "column": "play_column"},
    "military": {"result": "conflict_result"},
    "findings": {"address": "finding_address", "rule": "rule_id", "kind": "finding_kind", "line": "finding_line",
                 "column": "finding_column"},
}


def columns(table: str) -> tuple[str, ...]:
    """The column names of ``table``, in order. Raises ``KeyError`` for a table the archive does not have."""
    return tuple(name for name, _ in TABLES[table])


def game_id(text: str) -> int:
    """The key of a game: the first 63 bits of the SHA-256 digest of ``text`` (UTF-8), a non-negative BIGINT.
    For a game that reads, ``text`` is its canonical text (``wnotation.write``), so the same game has the same
    key in every export, however it was formatted, wherever it stood; see :func:`unread_id` for the others."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def unread_id(source: str, line: int, text: str) -> int:
    """The key of a text that gives no game (not valid 7WN, or an input that cannot be read or holds no game):
    its input's name, its line and its text, so that it stays apart from any other such text."""
    return game_id(f"\x00unread\x00{source}\x00{line}\x00{text}")
