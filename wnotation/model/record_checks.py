"""What makes a Record well formed, stated once for both its forms: the native classes (:mod:`.record`) and their
pydantic twins at the JSON boundary (:mod:`.record_json`), which import this and not each other's module the wrong
way: ``record`` -> ``record_json`` -> ``record_checks``. The limits of a Record, the messages that state them, and the
reading of its ``[Position]`` tag (spec/position.md §8)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from .position_values import Written


class Header(Protocol):
    """What the checks read of a Record, native or twin."""

    @property
    def format(self) -> str: ...
    @property
    def tags(self) -> Sequence[Any]: ...
    @property
    def seats(self) -> Sequence[Any]: ...
    @property
    def guilds(self) -> Any: ...
    @property
    def seed(self) -> Any: ...
    @property
    def deals(self) -> Sequence[Any]: ...

    def tag(self, name: str, default: str | None = None) -> str | None: ...


Use = Literal["build", "stage", "sell"]
Expansion = Literal["Cities", "Leaders", "Armada", "Edifice"]  # vocabulary.EXPANSIONS (a test keeps them equal)
Glyph = Literal["!", "?", "!!", "??", "!?", "?!"]
FORMAT_VERSION = "7WN 1"
#: The format versions a reader reads (spec 7wn.md §3.1): version 2 adds coin-stated purchases (§7.4) and
#: variations (§6.1).
FORMAT_VERSIONS: tuple[str, ...] = ("7WN 1", "7WN 2")
EDITION = "2e"
#: The tag that holds a record's start position (spec/position.md §8): from format version 2 on, the record's
#: first position; in version 1 a free tag without meaning.
POSITION_TAG = "Position"

#: Variations nest at most this deep (spec 6.1): a variation inside a variation is depth 2. The reader refuses a
#: deeper ``(`` at the bracket, the validator refuses a deeper Record, so no route (text, JSON, engine) recurses
#: further than this.
MAX_VARIATION_DEPTH = 32

#: The most coins a purchase may pay one neighbour (spec 7.4): far more than any legal purchase pays (2 coins a unit,
#: R-PRICE, and no cost has more than 7 units: Palace; 14 in all) and than a seat of a game played from its start
#: ever holds. The table starts with 21 coins at most, and the bank pays a seat less than 250 in a game: 3 per sale
#: (at most 21 plays may be sales), and once per card name it builds (R-UNIQUE) or stage, the most for a coin card
#: counting cities (Vineyard: 14 brown names in 3 cities, 42) or the stages (Ephesos Night, 12 in all); so a seat
#: holds at most 7 x (3 + 250) < 2,000. A count above this is refused by the validator, so no writer spells it.
MAX_PURCHASE_COINS = 2_000

#: The most digits of a result's value (spec 13): the reader's limit, and the validator's for a JSON record.
MAX_RESULT_DIGITS = 18
#: The largest magnitude a result value may have (MAX_RESULT_DIGITS nines).
RESULT_BOUND = 10**MAX_RESULT_DIGITS - 1


def coins_problem(coins: int) -> str:
    """Why a purchase may not pay ``coins`` (more than :data:`MAX_PURCHASE_COINS`) to a side: one message for the
    validator and the writer."""
    return (f"a purchase pays at most {MAX_PURCHASE_COINS:,} coins to a side, more than any seat ever holds "
            f"(spec 7.4, R-COST-COINS); this one pays {_count(coins)}")


def _count(n: int) -> str:
    """``n`` for a message, or how many digits it has when it is too long to show."""
    return f"{n:,}" if n < 10**30 else f"a number of {len(str(n)) if n < 10**4000 else 'over 4,000'} digits"


def check_seats(turns: Sequence[Any], n: int) -> None:
    """Each action's seat in 1..``n``, once per turn, in ``turns`` and their variations, which nest at most
    :data:`MAX_VARIATION_DEPTH` deep. Iterative: a Record built in code may nest deeper than Python recurses."""
    lines: list[tuple[Sequence[Any], str, int]] = [(turns, "", 0)]  # (turns, address prefix, depth)
    while lines:
        line, prefix, depth = lines.pop()
        for turn in line:
            seen: set[int] = set()
            for action in turn.actions:
                if not 1 <= action.seat <= n:
                    raise ValueError(f"{prefix}{turn.label}: seat {action.seat} is not in 1..{n}")
                if action.seat in seen:
                    raise ValueError(f"{prefix}{turn.label}: seat {action.seat} acts twice in one turn")
                seen.add(action.seat)
            for k, variation in enumerate(turn.variations, 1):
                where = f"{prefix}{turn.label}({k})"
                if depth + 1 > MAX_VARIATION_DEPTH:
                    raise ValueError(depth_problem(where))
                lines.append((variation.turns, where + ".", depth + 1))


def depth_problem(where: str) -> str:
    """Why the variation at address ``where`` (``I.2(1).I.2(1)…``) may not be: it nests deeper than
    :data:`MAX_VARIATION_DEPTH`. One message for the validator, the writer and the engine."""
    return (f"variation {where} nests {where.count('(')} deep: variations nest at most "
            f"{MAX_VARIATION_DEPTH} deep (spec 6.1)")


def position_tag(record: Header) -> str | None:
    """The value of ``record``'s ``[Position]`` tag when it starts from a position (format version 2 and later;
    in version 1 the tag is a free tag without meaning), else ``None``."""
    if record.format == FORMAT_VERSION:
        return None
    return record.tag(POSITION_TAG)


def start_of(record: Header) -> Written | None:
    """The position ``record`` starts from (spec/position.md §8), as its ``[Position]`` tag writes it, or ``None``
    when it starts at the beginning: :attr:`Record.start`, or the tag read again when that is absent or stale. The
    one statement of §8's rules for a Record: the validator of a Record made in code or from JSON applies them, and
    the engine asks for the position here and judges it by the rules (``wnotation.engine.position_rules``). (The
    reader applies the same rules itself, to point at the offending character of the tag.)

    Raises :class:`~wnotation.model.position_values.PositionError` (a ``ValueError``) for a string whose syntax
    or names are not valid, and ``ValueError`` for a second ``[Position]`` tag, seats other than the record's or
    one owed a build from the discard pile, a ``Guilds`` or ``Seed`` of its own, or a deal of an Age the position
    has started."""
    value = position_tag(record)
    if value is None:
        return None
    if sum(1 for t in record.tags if t.name == POSITION_TAG) > 1:
        raise ValueError("[Position]: a record holds at most one [Position] tag")
    from . import position_string  # ~10 ms of imports that only a record starting from a position needs

    start = getattr(record, "start", None)
    if start is None or start.text != value:
        start = position_string.parse(value)
    seats = position_string.start_problem(start, [(s.name, s.wonder, s.side) for s in record.seats])
    problem = seats[1] if seats is not None else None
    if problem is None and (record.guilds is not None or record.seed is not None):
        problem = "a record that starts from a position states no [Guilds] or [Seed]: the position holds them"
    if problem is None and any(d.age <= start.address.age for d in record.deals):
        problem = f"a deal of an Age the position at {start.address} has started"
    if problem is not None:
        raise ValueError(f"[Position]: {problem}")
    return start
