"""The turn being entered, seat by seat: each seat's action asked and judged at once (findings with their rule IDs;
a play with an error held for an explicit yes), then its purchase among the cheapest ones, whether to keep the last
card, turn 6's discard; once every seat has played, the turn is recorded, saved and summed up."""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Finding
from ..engine.findings import asks_for_a_pick, blocks_the_play
from ..model.catalog import Card
from ..model.record import UNKNOWN, Action, Turn
from ..model.vocabulary import turn_label
from . import choices, report
from .choices import Choice, EntryError, Play
from .journal import Journal
from .owed import Owed
from .progress import Confirm, Draft, Progress, finding_key, same, subtract
from .questions import Question, Reply

__all__ = ["TurnEntry"]


class TurnEntry:
    """The questions and answers of the current turn of ``progress``; what follows a turn is ``owed``'s. ``ask`` is
    the session's next question (whatever comes first: a confirmation, a pick, the guilds, this turn's)."""

    def __init__(self, progress: Progress, owed: Owed, journal: Journal, ask: Callable[[], Question | None]) -> None:
        self.progress = progress
        self.owed = owed
        self.journal = journal
        self.ask = ask
        self._plays: tuple[tuple[object, ...], tuple[Action, ...], tuple[Play, ...]] | None = None

    # --- questions ---------------------------------------------------------------------------------------------

    def question(self) -> Question | None:
        """The draft's next question, else the next seat's action; ``None`` once the game is over."""
        p = self.progress
        where = p.current()
        if where is None:
            return None
        label = turn_label(*where)
        d = p.draft
        if d is not None:
            if d.play is not None and len(d.play.purchases) > 1 and not d.purchase_asked:
                opts = tuple(Choice(str(k), f"{o.text} {report.coins(o.coins)}" + (" (default)" if o.default else ""))
                             for k, o in enumerate(d.play.purchases, 1))
                intro = tuple(f"  {c.text}  {c.note}" for c in opts)
                return Question("purchase", d.seat, label, f"{label} {p.name(d.seat)} {self.what(d)}: purchase",
                                opts, "1", intro)
            if where[1] == 6 and d.keep is None and d.play is not None and d.play.keeps:
                return Question("keep", d.seat, label, f"{label} {p.name(d.seat)} keeps the last card for the "
                                "extra turn (R-BABYLON-N1)?", (Choice("y", "keep it"), Choice("n", "discard it")), "y")
            if where[1] == 6 and not d.keep and d.discard is None:
                cards = self.left_in_hand(d)
                opts = choices.card_choices(cards)
                return Question("discard", d.seat, label, f"{label} {p.name(d.seat)} discards the last card",
                                opts, UNKNOWN)
        seat = self._next_seat()
        offered = self.offered(seat)
        state = p.start()
        coins = state.cities[seat - 1].coins
        return Question("action", seat, label, f"{label} {p.name(seat)} [{report.coins(coins)}]",
                        tuple(Choice(o.text, o.note) for o in offered))

    def what(self, d: Draft) -> str:
        """The play of a draft as the questions name it: the card, ``stage 2 (Loom)``, ``sell ?``."""
        if d.use == "stage":
            stage = self.progress.start().cities[d.seat - 1].stages + 1
            return f"stage {stage}" + (f" ({d.card})" if d.card != UNKNOWN else "")
        return d.card if d.use == "build" else f"{d.use} {d.card}"

    def offered(self, seat: int) -> tuple[Play, ...]:
        """What ``seat`` may be recorded as playing in the current turn (:func:`.choices.plays`, through the seat
        view if any), kept until the record or the current turn changes."""
        p = self.progress
        key = (p.version, seat, p.view)
        held = tuple(p.entered)
        if self._plays is None or self._plays[0] != key or not same(self._plays[1], held):
            self._plays = (key, held, choices.plays(p.seen(p.start()), seat, hidden=p.hidden(seat)))
        return self._plays[2]

    def _next_seat(self) -> int:
        done = {a.seat for a in self.progress.entered}
        return next(s for s in self.progress.acting() if s not in done)

    def left_in_hand(self, d: Draft) -> tuple[Card, ...]:
        """The cards the seat may have left after its turn-6 play (its hand known: the one card)."""
        state = self.progress.seen(self.progress.start())
        cards = list(choices.possible_cards(state, d.seat))
        known, complete = choices.hand(state, d.seat)
        if complete:
            rest = list(known)
            for c in rest:
                if c.name == d.card:
                    rest.remove(c)
                    break
            return tuple(rest)
        return tuple(cards)

    # --- answers -----------------------------------------------------------------------------------------------

    def answer(self, q: Question, typed: str) -> Reply:
        """Take ``typed`` as the answer to ``q``, a question of :meth:`question`. Raises :class:`EntryError`."""
        if q.kind == "action":
            return self._answer_action(q, typed)
        if q.kind == "purchase":
            return self._answer_purchase(typed)
        if q.kind == "keep":
            return self._answer_keep(typed)
        return self._answer_discard(typed)

    def confirmed(self, c: Confirm) -> Reply:
        """Go on with the draft of ``c``, its errors confirmed as played."""
        d = c.draft
        assert d is not None
        d.accepted = d.accepted | frozenset(finding_key(f) for f in c.errors)
        self.progress.draft = d
        return self._advance()

    def _answer_action(self, q: Question, typed: str) -> Reply:
        p = self.progress
        where = p.current()
        assert where is not None
        state = p.seen(p.start())
        offered = self.offered(q.seat)
        use, card = choices.parse_play(typed, offered, where[0])
        play = next((o for o in offered if o.use == use and o.card == card), None)
        d = Draft(q.seat, play, use, card, typed=typed)
        if play is None or len(play.purchases) <= 1:
            d.purchase_asked = True
        if where[1] != 6:
            d.keep = False
        elif play is None or not play.keeps:
            d.keep = False
            if p.hidden(q.seat):
                d.discard = UNKNOWN  # a seat view does not see another seat's discard
            else:
                left = self.left_in_hand(d)
                if choices.hand(state, q.seat)[1] and len(left) == 1:
                    d.discard = left[0].name  # the hand is known: its last card is the discard
        # Judge the play now (the discard, not known yet, as unseen), so that a mistake is fixed before the rest.
        probe = self._action(d, discard=d.discard if d.discard is not None else (None if d.keep is None else UNKNOWN))
        found = self._new_findings(probe)
        errors = [f for f in found if blocks_the_play(f)]
        if errors:
            return Reply(False, p.hold(Confirm("action", q.seat, q.label, self.what(d), tuple(errors), d)))
        p.draft = d
        return self._advance()

    def _answer_purchase(self, typed: str) -> Reply:
        d = self.progress.draft
        assert d is not None and d.play is not None
        options = d.play.purchases
        pick = None
        if typed.isdigit() and 1 <= int(typed) <= len(options):
            pick = options[int(typed) - 1]
        else:
            pick = next((o for o in options if choices.words(o.text) == choices.words(typed)), None)
        if pick is None:
            raise EntryError(f"type 1 to {len(options)} (Enter: 1, the engine's default)")
        d.purchase = pick.purchase
        d.purchase_asked = True
        return self._advance()

    def _answer_keep(self, typed: str) -> Reply:
        d = self.progress.draft
        assert d is not None
        word = typed.casefold()
        if word not in ("y", "yes", "n", "no", "k", "keep", "d", "discard"):
            raise EntryError("type y (keep the last card for the extra turn) or n (discard it)")
        d.keep = word in ("y", "yes", "k", "keep")
        if not d.keep and self.progress.hidden(d.seat):
            d.discard = UNKNOWN
        return self._advance()

    def _answer_discard(self, typed: str) -> Reply:
        d = self.progress.draft
        assert d is not None
        where = self.progress.current()
        assert where is not None
        d.discard = choices.parse_card(typed, self.left_in_hand(d), where[0])
        return self._advance()

    # --- finishing an action and a turn ------------------------------------------------------------------------

    def _action(self, d: Draft, *, discard: str | None) -> Action:
        where = self.progress.current()
        assert where is not None
        purchase = d.purchase
        if purchase is None and d.play is not None and len(d.play.purchases) > 1:
            purchase = d.play.purchases[0].purchase  # the default, stated as the canonical form does
        return Action(seat=d.seat, use=d.use, card=d.card, purchase=purchase,
                      discard=discard if where[1] == 6 else None)

    def _new_findings(self, action: Action) -> list[Finding]:
        """The findings that the record gains when ``action`` is added to the current turn, but the warning that a
        pick the stage earns is not stated: the session asks it once the turn is played."""
        p = self.progress
        before = p.with_actions(p.entered)
        after = p.with_actions(p.entered + [action])
        return [f for f in subtract(after.findings, before.findings)
                if not asks_for_a_pick(f, action.seat)]

    def _advance(self) -> Reply:
        """Finish the draft once no question about it is left; finish the turn once every seat has played."""
        p = self.progress
        q = self.ask()
        d = p.draft
        if d is None or (q is not None and q.kind != "action" and q.seat == d.seat):
            return Reply(True)
        action = self._action(d, discard=None if d.keep else d.discard)
        found = self._new_findings(action)
        errors = [f for f in found if f.severity == "error" and finding_key(f) not in d.accepted]
        if errors:
            where = p.current()
            assert where is not None
            what = self.what(d) + (f", discard {d.discard}" if d.discard is not None and not d.keep else "")
            return Reply(False, p.hold(Confirm("last", d.seat, turn_label(*where), what, tuple(errors), d)))
        p.draft = None
        p.entered.append(action)
        lines = [report.finding(f) for f in found]
        if len(p.entered) == len(p.acting()):
            lines += self._commit()
        return Reply(True, tuple(lines))

    def _commit(self) -> list[str]:
        p = self.progress
        where = p.current()
        assert where is not None
        before = p.replay().findings
        turn = Turn(age=where[0], number=where[1], actions=tuple(sorted(p.entered, key=lambda a: a.seat)))
        p.turns.append(turn)
        p.changed()
        p.entered = []
        self.journal.save()
        found = subtract(p.replay().findings, before)
        lines = [report.finding(f) for f in found if f.address == turn.label and f.seat is None]
        marked = [f for f in p.replay().findings if f.address == turn.label and f.severity != "note"]
        counted = report.counted(marked)
        path = self.journal.path
        lines.append(f"{turn.label} recorded" + (f" in {path}" if path else "")
                     + (f", with {counted}:" if marked else ""))
        lines += [f"  ! {report.finding(f)}" for f in marked]
        lines += report.standings(p.header, p.replay(), turn.label)
        lines += self.owed.settle_picks()
        lines += self.owed.after_turn()
        return lines
