"""``wnotation cards``: the card and Wonder catalogue, listed, filtered or one entry in full."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from ..model import catalog
from ..model.catalog import AGE_NUMERALS, COLOURS, MAX_PLAYERS, MIN_PLAYERS, Card, CatalogError, WonderSide, describe
from ..model.deck import check_players, guild_count
from . import completion
from .errors import UserError
from .output import echo, emit_json, err, print_fields, print_table

class AgeType(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2 on
    name = "AGE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip().upper()
        ages = {numeral: age for age, numeral in AGE_NUMERALS.items()} | {str(a): a for a in AGE_NUMERALS}
        if text not in ages:
            self.fail(f"{value!r} is not an Age: use I, II, III (or 1, 2, 3)", param, ctx)
        return ages[text]


class ColourType(click.ParamType):  # type: ignore[type-arg]
    name = "COLOUR"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value).strip().lower()
        text = {"gray": "grey", "guild": "purple"}.get(text, text)
        if text not in COLOURS:
            self.fail(f"{value!r} is not a card colour: use one of {', '.join(COLOURS)}", param, ctx)
        return text


def _age(card: Card) -> str:
    return AGE_NUMERALS[card.age]


def _effects(effects: Sequence[catalog.Effect]) -> str:
    return "; ".join(describe(e) for e in effects)


def _names(names: Sequence[str]) -> str:
    return ", ".join(names) if names else "-"


def _copies_row(card: Card) -> str:
    return "/".join(str(card.copies_for(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))


def _card_fields(card: Card, players: int | None) -> list[tuple[str, str]]:
    fields = [("age", _age(card)), ("colour", card.colour), ("cost", str(card.cost))]
    fields += [("effect" if i == 0 else "", describe(e)) for i, e in enumerate(card.effects)]
    fields += [("free if you own", _names(card.chain_from)), ("makes free", _names(card.chain_to))]
    if card.is_guild:
        fields.append(("copies", "1; N+2 of the 10 guilds are drawn into the Age III deck"))
    else:
        printed = ", ".join(f"{m}+" for m in card.copies)
        fields.append(("copies", f"{len(card.copies)} (printed {printed}); in the deck for 3/4/5/6/7 players: "
                                 f"{_copies_row(card)}"))
    if players is not None:
        count = f"{guild_count(players)} of the 10 guilds are drawn" if card.is_guild else card.copies_for(players)
        fields.append((f"{players}-player deck", str(count)))
    fields.append(("key", card.key))
    return fields


def _wonder_rows(side: WonderSide) -> list[list[str]]:
    return [[str(s.index), str(s.cost), _effects(s.effects)] for s in side.stages]


CARDS_EPILOG = """\b
Examples:
  wnotation cards --age I --colour brown
  wnotation cards "lumber yard"
  wnotation cards --players 3 --age III
  wnotation cards --wonder gizah --side night
  wnotation cards --json > catalogue.json"""


@click.command(epilog=CARDS_EPILOG, short_help="List the cards and Wonder boards, or show one in full.")
@click.argument("name", required=False, shell_complete=completion.card)
@click.option("--age", type=AgeType(), help="Only this Age: I, II or III (1, 2, 3 work too).")
@click.option("--colour", "--color", "colour", type=ColourType(), help=f"Only this colour: {', '.join(COLOURS)}.")
@click.option("--players", type=int, metavar="N", help="Show the copies in an N-player deck (3-7), leaving out "
              "cards that are not in it.")
@click.option("--name", "substring", metavar="TEXT", help="Only cards whose name contains TEXT (any case).")
@click.option("--guilds", is_flag=True, help="Only the 10 guilds.")
@click.option("--wonder", metavar="WONDER", shell_complete=completion.wonder, help="Show a Wonder board (both sides, or the one given by --side).")
@click.option("--wonders", "all_wonders", is_flag=True, help="Show every Wonder board.")
@click.option("--side", type=click.Choice(["day", "night", "A", "B"], case_sensitive=False),
              help="With --wonder/--wonders: only this side (A = day, B = night).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for other tools: the whole catalogue, or the "
              "selection.")
def cards(name: str | None, age: int | None, colour: str | None, players: int | None, substring: str | None,
          guilds: bool, wonder: str | None, all_wonders: bool, side: str | None, as_json: bool) -> None:
    """List and filter the cards, or show one card or Wonder board in full.

    Without NAME, lists the cards that pass every filter, in catalogue order. With NAME (a printed card name,
    any case and spacing), shows that card: Age, colour, cost, effects, chains both ways and its copies per
    player count; a name printed in two Ages (Glassworks, Press, Loom) shows both designs unless --age picks one.
    """
    cat = catalog.load()
    if players is not None:
        check_players(players)
    if side is not None and not (wonder or all_wonders):
        raise click.UsageError("--side needs --wonder or --wonders")
    if wonder or all_wonders:
        card_options = [o for o, v in (("NAME", name), ("--age", age), ("--colour", colour), ("--players", players),
                                       ("--name", substring), ("--guilds", guilds)) if v]
        if wonder and all_wonders:
            raise click.UsageError("give --wonder WONDER or --wonders, not both")
        if card_options:
            raise click.UsageError(f"{', '.join(card_options)} cannot be combined with --wonder/--wonders")
        _show_wonders(cat, wonder, side, as_json)
    elif name is not None:
        filters = [o for o, v in (("--colour", colour), ("--name", substring), ("--guilds", guilds)) if v]
        if filters:
            raise click.UsageError(f"NAME shows one card; {', '.join(filters)} only filter the list (drop NAME)")
        _show_card(cat, name, age, players, as_json)
    else:
        _list_cards(cat, age, colour, players, substring, guilds, as_json)


def _show_card(cat: catalog.Catalog, name: str, age: int | None, players: int | None, as_json: bool) -> None:
    try:
        printed = cat.card_name(name)
    except CatalogError:
        if catalog.normalise(name) in {catalog.normalise(w.name) for w in cat.wonders}:
            wonder = cat.wonder_name(name)
            raise UserError(f"{name!r} is a Wonder, not a card: try 'wnotation cards --wonder {wonder}'") from None
        raise
    designs = [cat.card(printed, age)] if age is not None else [c for c in cat.cards if c.name == printed]
    if as_json:
        emit_json({"edition": cat.edition, "cards": [catalog.card_data(c) for c in designs]})
        return
    for i, card in enumerate(designs):
        if i:
            echo()
        print_fields(card.name, _card_fields(card, players))


def _list_cards(cat: catalog.Catalog, age: int | None, colour: str | None, players: int | None,
                substring: str | None, guilds: bool, as_json: bool) -> None:
    needle = catalog.normalise(substring) if substring is not None else None
    selection = [
        c for c in cat.cards
        if (age is None or c.age == age)
        and (colour is None or c.colour == colour)
        and (not guilds or c.is_guild)
        and (needle is None or needle in catalog.normalise(c.name))
        and (players is None or c.is_guild or c.copies_for(players) > 0)
    ]
    unfiltered = age is None and colour is None and needle is None and not guilds and players is None
    if as_json:
        data: dict[str, Any] = {"edition": cat.edition}
        if unfiltered:
            data["disputed"] = list(cat.disputed)
        if players is not None:
            data["players"] = players
        data["cards"] = [
            catalog.card_data(c) | ({} if players is None else {"copies_in_deck": c.copies_for(players)})
            for c in selection
        ]
        if unfiltered:
            data["wonders"] = [catalog.wonder_data(w) for w in cat.wonders]
        emit_json(data)
        return
    if not selection:
        err("no card matches these filters")
        return
    copies = "copies 3/4/5/6/7" if players is None else f"copies ({players}p)"
    header = ["age", "name", "colour", "cost", "effects", "free if you own", "makes free", copies]
    rows = [
        [_age(c), c.name, c.colour, str(c.cost), _effects(c.effects), _names(c.chain_from), _names(c.chain_to),
         ("drawn" if c.is_guild else str(c.copies_for(players))) if players is not None
         else ("drawn" if c.is_guild else _copies_row(c))]
        for c in selection
    ]
    print_table(header, rows, colour_column=2)
    if players is not None and colour is None and needle is None and not guilds:
        for a in catalog.AGES if age is None else (age,):
            in_deck = sum(c.copies_for(players) for c in cat.age_cards(a))
            drawn = f" + {guild_count(players)} guilds drawn = {7 * players}" if a == 3 else ""
            echo(f"Age {AGE_NUMERALS[a]} deck for {players} players: {in_deck} cards{drawn}")


def _show_wonders(cat: catalog.Catalog, wonder: str | None, side: str | None, as_json: bool) -> None:
    sides = list(cat.wonders)
    if wonder is not None:
        printed = cat.wonder_name(wonder)
        sides = [w for w in sides if w.name == printed]
    if side is not None:
        wanted = {"a": "day", "b": "night"}.get(side.lower(), side.lower())
        sides = [w for w in sides if w.side == wanted]
    if as_json:
        emit_json({"edition": cat.edition, "wonders": [catalog.wonder_data(w) for w in sides]})
        return
    for i, w in enumerate(sides):
        if i:
            echo()
        title = f"{w.name} {w.side} ({w.full_name}): starting resource {w.resource}, {len(w.stages)} stages"
        print_table(["stage", "cost", "effects"], _wonder_rows(w), title=title)


COMMANDS = (cards,)
