"""The archive's rows as named types, one per table of :data:`.schema.TABLES`, fields in its column order.

A row is still a tuple (what the writers and DuckDB take), but it is built by column name, so the row builder
cannot drift out of step with the schema; tests/test_archive_schema.py checks each type's fields against
:data:`~.schema.TABLES`. Types are the Python values the DuckDB column receives; ``None`` is NULL.
"""

from __future__ import annotations

from datetime import date
from typing import Any, NamedTuple

__all__ = ["CardRow", "FindingRow", "GameRow", "HandRow", "MilitaryRow", "PlayRow", "SeatRow", "ROW_TYPES"]

class GameRow(NamedTuple):
    """A row of ``games``."""
    game_id: int
    kind: str | None
    file: str | None
    game_number: int | None
    start_line: int | None
    readable: bool | None
    complete: bool | None
    players: int | None
    date_text: str | None
    played_on: date | None
    event_name: str | None
    site: str | None
    tags: str | None
    seed_algorithm: str | None
    seed: int | None
    guild_list: list[str] | None
    turns: int | None
    actions: int | None
    results_stated: bool | None
    results_match: bool | None
    error_count: int | None
    warning_count: int | None
    note_count: int | None

class SeatRow(NamedTuple):
    """A row of ``seats``."""
    game_id: int
    seat: int | None
    player: str | None
    wonder: str | None
    side: str | None
    military_points: int | None
    treasury_points: int | None
    wonder_points: int | None
    civilian_points: int | None
    commercial_points: int | None
    guild_points: int | None
    science_points: int | None
    total_points: int | None
    final_coins: int | None
    place: int | None
    winner: bool | None
    stages_built: int | None
    cities_points: int | None
    leaders_points: int | None
    armada_points: int | None
    edifice_points: int | None
    tablets: int | None
    compasses: int | None
    gears: int | None
    science_wildcards: int | None
    coins_by_age: list[int | None] | None
    shields_by_age: list[int | None] | None
    tokens_by_age: list[int | None] | None
    city: list[str] | None

class PlayRow(NamedTuple):
    """A row of ``plays``."""
    game_id: int
    age: int | None
    turn: int | None
    seat: int | None
    address: str | None
    play_action: str | None
    card: str | None
    card_key: str | None
    colour: str | None
    stage: int | None
    outcome: str | None
    free_by: str | None
    bank_coins: int | None
    left_coins: int | None
    right_coins: int | None
    left_units: list[str] | None
    right_units: list[str] | None
    purchase_stated: bool | None
    income: int | None
    extra_turn: bool | None
    kept_last: bool | None
    discarded_card: str | None
    picked_card: str | None
    picked_key: str | None
    pick_declined: bool | None
    play_errors: int | None
    annotated: bool | None
    glyph: str | None
    play_line: int | None
    play_column: int | None

class MilitaryRow(NamedTuple):
    """A row of ``military``."""
    game_id: int
    age: int | None
    seat: int | None
    opponent: int | None
    token: int | None
    conflict_result: str | None

class FindingRow(NamedTuple):
    """A row of ``findings``."""
    game_id: int
    finding_address: str | None
    seat: int | None
    rule_id: str | None
    severity: str | None
    finding_kind: str | None
    message: str | None
    finding_line: int | None
    finding_column: int | None

class HandRow(NamedTuple):
    """A row of ``hands``."""
    game_id: int
    age: int | None
    turn: int | None
    seat: int | None
    held: list[str | None] | None

class CardRow(NamedTuple):
    """A row of ``cards``."""
    card_key: str | None
    card_name: str | None
    card_age: int | None
    card_colour: str | None
    coin_cost: int | None
    resource_cost: list[str] | None
    card_points: int | None
    card_shields: int | None
    science_symbol: str | None
    effects: list[str] | None
    chain_from: list[str] | None
    chain_to: list[str] | None
    copies: list[int | None] | None


#: table -> its row type.
ROW_TYPES: dict[str, type[tuple[Any, ...]]] = {
    "games": GameRow,
    "seats": SeatRow,
    "plays": PlayRow,
    "military": MilitaryRow,
    "findings": FindingRow,
    "hands": HandRow,
    "cards": CardRow,
}
