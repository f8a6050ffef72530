"""What the played turns owe before the game goes on: the builds from the discard pile a stage earns (R-HALI),
asked once the rules call for them or declined when nothing can be built; an Age's military once the Age is over;
at the end the game's guilds (when not all N+2 were seen) and the score sheet."""

from __future__ import annotations

from ..engine import pick_options
from ..engine.findings import about_the_deck
from ..model.catalog import load
from ..model.record import UNKNOWN
from . import choices, report
from .choices import Choice, EntryError
from .journal import Journal
from .progress import Confirm, Progress, subtract
from .questions import DECLINE, Question, Reply

__all__ = ["Owed"]


class Owed:
    """The pick and guilds questions of ``progress`` and what follows a turn, saved through ``journal``."""

    def __init__(self, progress: Progress, journal: Journal) -> None:
        self.progress = progress
        self.journal = journal

    # --- questions ---------------------------------------------------------------------------------------------

    def question(self) -> Question | None:
        """The pick owed, else the guilds when owed, else ``None``."""
        p = self.progress
        pending = p.pending_pick()
        if pending is not None:
            k, seat, game = pending
            cards = pick_options(game, seat)
            opts = tuple(Choice(c.name) for c in cards) + (Choice(DECLINE, "declines the pick"),)
            label = p.turns[k].label
            return Question("pick", seat, label, f"{label} {p.name(seat)} builds from the discard pile", opts)
        if p.guilds_owed():
            seen = p.seen_guilds()
            n = p.header.players + 2
            unseen = tuple(Choice(g.name) for g in load().guilds if g.name not in seen)
            shown = ", ".join(seen) if seen else "none"
            left = n - len(seen)
            return Question("guilds", 0, "III.end", f"III.end name the {left} other guild{'s' if left != 1 else ''} "
                            "(commas between; - if not known)", unseen + (Choice(DECLINE, "not known: no [Guilds] tag"),),
                            intro=(f"the game's {n} guilds: {len(seen)} seen ({shown})",))
        return None

    # --- picks -------------------------------------------------------------------------------------------------

    def answer_pick(self, q: Question, typed: str) -> Reply:
        p = self.progress
        pending = p.pending_pick()
        assert pending is not None
        k, seat, game = pending
        card = None
        if choices.words(typed) != [] and typed != DECLINE:
            card = choices.parse_card(typed, pick_options(game, seat), p.turns[k].age, earlier=True)
            if card == UNKNOWN:
                raise EntryError("a pick is built face up: name the card, or - to decline")
        before = p.replay()
        old = list(p.turns)
        p.set_pick(k, seat, card)
        found = subtract(p.replay().findings, before.findings)
        p.turns = old
        p.changed()
        errors = [f for f in found if f.severity == "error"]
        if errors:
            what = f"the pick {card}" if card else "the pick declined"
            return Reply(False, p.hold(Confirm("pick", seat, q.label, what, tuple(errors), index=k, card=card)))
        return self.record_pick(k, seat, card)

    def record_pick(self, k: int, seat: int, card: str | None) -> Reply:
        p = self.progress
        before = p.replay()
        p.set_pick(k, seat, card)
        found = subtract(p.replay().findings, before.findings)
        p.picks_done.append((k, seat, len(p.turns)))
        self.journal.save()
        lines = [report.finding(f) for f in found]
        marked = [f for f in found if f.severity != "note"]
        lines.append(f"{p.seat_name(seat)} " + (f"builds {card} from the discard pile" if card else
                                                "declines the pick")
                     + (f", recorded with {report.counted(marked)}" if marked else ""))
        lines += report.standings(p.header, p.replay(), p.turns[-1].label)
        lines += self.after_turn()
        return Reply(True, tuple(lines))

    def settle_picks(self) -> list[str]:
        """Decline, without asking, a pick owed when the discard pile holds nothing the seat may build (every card
        known and already in its city, or none at all): the rules leave no choice (R-HALI, R-UNIQUE)."""
        p = self.progress
        lines = []
        while (pending := p.pending_pick()) is not None:
            k, seat, game = pending
            if pick_options(game, seat) or None in game.discard:
                break
            p.set_pick(k, seat, None)
            self.journal.save()
            lines.append(f"{p.seat_name(seat)} has nothing to build from the discard pile")
        return lines

    # --- guilds ------------------------------------------------------------------------------------------------

    def answer_guilds(self, typed: str) -> Reply:
        p = self.progress
        seen = p.seen_guilds()
        n = p.header.players + 2
        if typed.strip() == DECLINE:
            p.guilds_answer = ()
            p.changed()
            self.journal.save()
            return Reply(True, ("the guilds are not known: the record has no [Guilds] tag", *self.game_over()))
        catalog = load()
        named: list[str] = []
        for item in (part for part in typed.split(",") if part.strip()):
            card = choices.parse_card(item, tuple(g for g in catalog.guilds if g.name not in seen), 3)
            if card not in {g.name for g in catalog.guilds}:
                raise EntryError(f"{card} is not a guild")
            if card in named:
                raise EntryError(f"{card} is named twice")
            if card not in seen:
                named.append(card)
        if len(seen) + len(named) != n:
            left = n - len(seen)
            raise EntryError(f"a {p.header.players}-player game has {n} guilds: {len(seen)} seen, so name "
                             f"{left} other{'s' if left != 1 else ''} (you named {len(named)}), or - if not known")
        chosen = set(seen) | set(named)
        p.guilds_answer = tuple(g.name for g in catalog.guilds if g.name in chosen)
        p.changed()
        self.journal.save()
        lines = [f"[Guilds] {', '.join(p.guilds_answer)}"]
        lines += [report.finding(f) for f in p.replay().findings if about_the_deck(f)]
        return Reply(True, tuple(lines + self.game_over()))

    # --- after a turn ------------------------------------------------------------------------------------------

    def after_turn(self) -> list[str]:
        """The military of an Age that is over (its picks answered) and, at the end, the score sheet."""
        p = self.progress
        if p.pending_pick() is not None or not p.turns:
            return []
        last = p.turns[-1]
        nxt = p.current()
        if nxt is not None and nxt[0] == last.age:
            return []
        lines = report.military(p.header, p.replay(), last.age)
        return lines + self.game_over() if nxt is None else lines

    def game_over(self) -> list[str]:
        """Once the game is played out and its guilds answered: the file saved with its results, the score sheet."""
        p = self.progress
        if p.guilds_owed() or p.pending_pick() is not None or p.replay().scores is None:
            return []
        self.journal.save()  # with the results
        return ["the game is over: score sheet", *report.sheet(p.header, p.replay())]
