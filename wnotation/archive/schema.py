"""The archive's tables: every column's name and DuckDB type, in order. spec/archive.md documents each column;
tests/test_archive_schema.py pins this very list, so a change here is a change of the published schema.

Plain data only (no DuckDB import): the row builder, the writers and the queries all read these names, and table
and column names in SQL text come from here and from the package's .sql files, never from input.
"""

from __future__ import annotations

#: table -> ((column, DuckDB type), ...) in column order. Rows are tuples in this order.
TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "games": (
        ("game_id", "BIGINT"),  # input number << 32 | line of the game's [Format tag: the key of every table
        ("file", "VARCHAR"),
        ("game", "INTEGER"),  # 1-based place of the game in its file (0: text before the first game)
        ("line", "INTEGER"),
        ("read", "BOOLEAN"),  # false: the text is not a valid 7WN game (its notation error is in findings)
        ("complete", "BOOLEAN"),
        ("players", "INTEGER"),
        ("date", "VARCHAR"),  # as written, YYYY.MM.DD, NULL when unknown
        ("played_on", "DATE"),  # the date when every digit is known
        ("event", "VARCHAR"),
        ("site", "VARCHAR"),
        ("tags", "VARCHAR"),  # every free header tag, as a JSON object
        ("seed_algorithm", "VARCHAR"),
        ("seed", "UBIGINT"),
        ("guilds", "VARCHAR"),  # comma-separated, as the [Guilds tag lists them
        ("turns", "INTEGER"),
        ("actions", "INTEGER"),
        ("results_stated", "BOOLEAN"),
        ("results_match", "BOOLEAN"),  # NULL when no result is stated
        ("errors", "INTEGER"),
        ("warnings", "INTEGER"),
        ("notes", "INTEGER"),
    ),
    "seats": (
        ("game_id", "BIGINT"),
        ("seat", "INTEGER"),
        ("name", "VARCHAR"),
        ("wonder", "VARCHAR"),
        ("side", "VARCHAR"),
        ("players", "INTEGER"),
        ("military", "INTEGER"),
        ("treasury", "INTEGER"),
        ("wonder_points", "INTEGER"),
        ("civilian", "INTEGER"),
        ("commercial", "INTEGER"),
        ("guilds", "INTEGER"),
        ("science", "INTEGER"),
        ("total", "INTEGER"),
        ("coins", "INTEGER"),
        ("rank", "INTEGER"),
        ("winner", "BOOLEAN"),
        ("stages", "INTEGER"),
        # added after the first release, so appended (spec/archive.md): a score-pad record's expansion rows
        # (R-SCORE-EXP), NULL when the game was not played with that expansion
        ("cities", "INTEGER"),
        ("leaders", "INTEGER"),
        ("armada", "INTEGER"),
        ("edifice", "INTEGER"),
    ),
    "plays": (
        ("game_id", "BIGINT"),
        ("age", "INTEGER"),
        ("turn", "INTEGER"),  # 1..6, 7 for Babylon's extra turn
        ("seat", "INTEGER"),
        ("action", "VARCHAR"),  # build, stage, sell (as written)
        ("card", "VARCHAR"),  # NULL for an unseen card
        ("colour", "VARCHAR"),
        ("stage", "INTEGER"),  # the stage built, for a stage
        ("outcome", "VARCHAR"),  # built, staged, sold, discarded, ignored, not-replayed
        ("free", "VARCHAR"),  # chain or power for a free build, else NULL
        ("bank_coins", "INTEGER"),
        ("left_coins", "INTEGER"),
        ("right_coins", "INTEGER"),
        ("left_units", "VARCHAR"),  # resources bought from the left neighbour, space-separated, '' for none
        ("right_units", "VARCHAR"),
        ("purchase_stated", "BOOLEAN"),
        ("income", "INTEGER"),  # coins this play earned (sale, card, stage)
        ("extra_turn", "BOOLEAN"),
        ("kept_last", "BOOLEAN"),  # turn 6: the seat kept its last card for the extra turn
        ("discard", "VARCHAR"),  # turn 6: the last card discarded
        ("pick", "VARCHAR"),  # Halikarnassos: the card built from the discard pile this play earned
        ("pick_declined", "BOOLEAN"),
        ("errors", "INTEGER"),  # error findings at this action
        ("annotated", "BOOLEAN"),
        ("glyph", "VARCHAR"),
        ("line", "INTEGER"),
        ("column", "INTEGER"),
    ),
    "military": (
        ("game_id", "BIGINT"),
        ("age", "INTEGER"),
        ("seat", "INTEGER"),
        ("opponent", "INTEGER"),
        ("token", "INTEGER"),  # 1, 3, 5 for a victory, -1 for a defeat, 0 for a tie
        ("result", "VARCHAR"),  # victory, defeat, tie
    ),
    "findings": (
        ("game_id", "BIGINT"),
        ("address", "VARCHAR"),
        ("seat", "INTEGER"),
        ("rule", "VARCHAR"),
        ("severity", "VARCHAR"),
        ("kind", "VARCHAR"),  # notation (the game could not be read), finding (the engine's), file (unreadable)
        ("message", "VARCHAR"),
        ("line", "INTEGER"),
        ("column", "INTEGER"),
    ),
}

#: The order rows of each table are written and read back in (a part's rows, and :func:`read_table`'s).
ORDER: dict[str, tuple[str, ...]] = {
    "games": ("game_id",),
    "seats": ("game_id", "seat"),
    "plays": ("game_id", "age", "turn", "seat", "line", "column"),
    "military": ("game_id", "age", "seat", "opponent"),
    "findings": ("game_id", "line", "column", "rule", "message"),
}


def columns(table: str) -> tuple[str, ...]:
    """The column names of ``table``, in order. Raises ``KeyError`` for a table the archive does not have."""
    return tuple(name for name, _ in TABLES[table])


def game_id(input_number: int, line: int) -> int:
    """The key of a game: its input's number (0-based, in command-line order) and the line its text starts on.
    The same whichever way the input is cut into pieces, so local and cluster runs give equal keys."""
    return (input_number << 32) | line
