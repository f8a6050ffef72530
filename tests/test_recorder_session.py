"""The recorder's core (wnotation.recorder.session and .choices), driven through its questions and answers.

A bot game (known seed) is the game "at the table": :func:`script` answers each question the session asks with the
fewest letters that name the bot's play among the completions, so the tests also measure the keystrokes a turn
takes. The record built must be the bot's game, canonical, and check clean.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wnotation import check, parse, replay, write

from wnotation.model import deck
from wnotation.formats.canonical import canonical_purchases
from wnotation.model.catalog import load
from wnotation.engine import legal_actions, pick_options
from wnotation.engine.bot import play_game
from wnotation.model.record import Record
from wnotation.recorder import choices
from wnotation.recorder.header import make_header
from wnotation.recorder.session import Session
from wnotation.model.vocabulary import age_of_numeral

# 3 players, seed 4: Babylon night (Ada) keeps its last card in Ages II and III (II.7, III.7), Halikarnassos night
# (Cyd) builds Guard Tower and Barracks from the discard pile after II.3 and II.5. 7 players, seed 53: the same
# powers at seats 1 and 4 (II.7, III.7; a pick after II.3).
THREE, SEVEN = (3, 4), (7, 53)


@cache
def bot_game(players: int, seed: int) -> Record:
    return play_game(players, seed, "greedy")


def bare(record: Record) -> Record:
    """The game as recorded at the table: no seed, no guild list (the deal is not known)."""
    return record.model_copy(update={"seed": None, "guilds": None})


def header(record: Record) -> Record:
    return bare(record).model_copy(update={"turns": (), "results": ()})


def catalogue_guilds(record: Record) -> tuple[str, ...]:
    """The game's guilds as the recorder writes the [Guilds] tag: in catalogue order."""
    return tuple(g.name for g in load().guilds if g.name in set(record.guilds or ()))


def expected_text(record: Record) -> str:
    """The record the recorder makes of the game: no seed, the guilds (seen, or answered at the end of Age III)."""
    return write(canonical_purchases(bare(record).model_copy(update={"guilds": catalogue_guilds(record)})))


def _age(label: str) -> int:
    return age_of_numeral(label.split(".")[0])


def shortest(full: str, ok) -> str:
    """The shortest beginning of ``full`` that ``ok`` accepts (``full`` itself at worst)."""
    for k in range(1, len(full) + 1):
        try:
            if ok(full[:k]):
                return full[:k]
        except choices.EntryError:
            pass
    return full


def answer_for(session: Session, target: Record) -> str:
    """What a quick typist answers to the session's question for the game ``target``."""
    q = session.question()
    assert q is not None
    if q.kind == "guilds":
        seen = set(session.seen_guilds())
        unseen = [c for c in q.choices if c.text != "-"]
        names = tuple(c.text for c in unseen)
        return ", ".join(shortest(g, lambda p, g=g: choices.parse_card(p, tuple(
            c for c in load().guilds if c.name in names), 3) == g) for g in catalogue_guilds(target) if g not in seen)
    acts = {(t.label, a.seat): a for t in target.turns for a in t.actions}
    a = acts[(q.label, q.seat)]
    hidden = session.view is not None and q.seat != session.view
    if q.kind == "action":
        want = (a.use, a.card if a.use == "build" or not hidden else "?")
        offered = choices.plays(session._seen(session.start()), q.seat, hidden=hidden)
        full = want[1] if want[0] == "build" else f"{want[0]} {want[1]}"
        return shortest(full, lambda p: choices.parse_play(p, offered, _age(q.label)) == want)
    if q.kind == "purchase":
        options = session.draft.play.purchases
        k = next(i for i, o in enumerate(options) if a.purchase is None or o.purchase == a.purchase)
        return "" if k == 0 else str(k + 1)
    if q.kind == "keep":
        return "" if a.discard is None else "n"
    if q.kind == "discard":
        if hidden:
            return ""
        cards = session._left_in_hand(session.draft)
        return shortest(a.discard, lambda p: choices.parse_card(p, cards, _age(q.label)) == a.discard)
    assert q.kind == "pick"
    return a.pick.card or "-"


def drive(session: Session, target: Record, *, until: str | None = None) -> list[tuple]:
    """Answer every question (up to the first one of turn ``until``, or of kind ``until``: ``pick``) as
    :func:`answer_for`; the log of ``(question, typed, reply)``."""
    log = []
    while (q := session.question()) is not None and until not in (q.label, q.kind):
        typed = answer_for(session, target)
        reply = session.answer(typed)
        assert reply.accepted, (q, typed, reply)
        log.append((q, typed, reply))
    return log


@cache
def recorded(game: tuple[int, int], view: int | None = None) -> tuple[Session, tuple[tuple, ...]]:
    """The bot game ``game`` recorded whole (through ``view``'s seat view): the session and its log (shared by the
    tests of one process: do not change them)."""
    target = bot_game(*game)
    session = Session(header(target), view=view)
    return session, tuple(drive(session, target))


def script(target: Record, *, view: int | None = None) -> list[str]:
    """The answers typed to record ``target`` whole (a shadow session asks the questions)."""
    game = next(g for g in (THREE, SEVEN) if bot_game(*g) is target)
    return [typed for _, typed, _ in recorded(game, view)[1]]


# --- whole games ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [THREE, SEVEN], ids=["3p", "7p"])
def test_a_whole_game_typed_in_is_the_game_played_canonical_with_its_results(game):
    target = bot_game(*game)
    session, log = recorded(game)
    assert session.question() is None
    assert session.text() == expected_text(target)  # the bot's results included: the same scores
    report = check(session.text(), source="recorded.7wn")
    assert report.ok and not [d for d in report.diagnostics if not d.check_only]
    assert "the game is over: score sheet" in log[-1][2].lines
    kinds = Counter(q.kind for q, _, _ in log)
    assert kinds["keep"] and kinds["pick"] and kinds["discard"] and kinds["purchase"]


def test_R_BABYLON_N1__the_keep_question_and_the_extra_turn_come_exactly_when_the_rules_call_for_them():
    _, log = recorded(THREE)
    babylon = 1
    keeps = [(q.label, q.seat) for q, _, _ in log if q.kind == "keep"]
    # Babylon night's stage 2 grants the power: asked on each turn 6 once it is built (or built by that very play)
    assert keeps and all(seat == babylon and label.endswith(".6") for label, seat in keeps)
    extra = [(q.label, q.seat, q.kind) for q, _, _ in log if q.label.endswith(".7")]
    assert extra == [("II.7", babylon, "action"), ("III.7", babylon, "action")]
    sixth = {q.label for q, _, _ in log if q.kind == "discard" and q.seat == babylon}
    assert sixth == {"I.6"}  # before the power, Babylon discards like everyone


def test_R_HALI__the_pick_is_asked_right_after_the_turn_of_the_stage_from_the_engines_pile():
    target = bot_game(*THREE)
    session = Session(header(target))
    drive(session, target, until="pick")
    q = session.question()
    assert q.kind == "pick" and q.seat == 3 and q.label == "II.3"
    game = session._before_picks(2, 3)
    assert [c.text for c in q.choices] == [c.name for c in pick_options(game, 3)] + ["-"]
    assert "Guard Tower" in [c.text for c in q.choices]
    reply = session.answer("gu")
    assert reply.accepted and "Cyd builds Guard Tower from the discard pile" in reply.lines
    assert [a.pick.card for a in session.turns[-1].actions if a.pick] == ["Guard Tower"]
    assert session.question().label == "II.4"


def test_R_TRADE_MINIMAL__the_default_purchase_is_the_engines_and_another_cheapest_one_can_be_stated(tmp_path):
    target = bot_game(*THREE)
    session = Session(header(target), path=str(tmp_path / "g.7wn"))
    while True:
        q = session.question()
        if session.draft is not None and q.kind == "purchase":
            break
        assert session.answer(answer_for(session, target)).accepted
    play = session.draft.play
    assert q.default == "1" and len(q.choices) == len(play.purchases) >= 2
    state = session.start()
    listed = [a for a in legal_actions(state._replace(hands=tuple(
        choices.possible_cards(state, q.seat) if k == q.seat - 1 else h for k, h in enumerate(state.hands))), q.seat)
        if a.use == play.use and a.card.name == play.card]
    assert listed[0].default and str(listed[0].coins) in q.choices[0].note
    second = play.purchases[1].purchase
    assert session.answer("2").accepted
    while session.entered:  # finish the turn as the bot played it
        assert session.answer(answer_for(session, target)).accepted
    mine = next(a for a in session.turns[-1].actions if a.seat == q.seat)
    assert mine.purchase == second
    text = (tmp_path / "g.7wn").read_text(encoding="utf-8")
    assert text == session.text() and write(parse(text)) == text
    assert check(text).ok


def test_an_illegal_action_is_shown_with_its_rule_at_once_and_corrected():
    target = bot_game(*THREE)
    session = Session(header(target))
    drive(session, target, until="I.2")
    built = session.turns[0].actions[0].card  # seat 1 built it on I.1
    reply = session.answer(built)
    assert not reply.accepted
    assert any("error[R-UNIQUE]" in line and built in line for line in reply.lines), reply.lines
    q = session.question()
    assert q.kind == "confirm" and q.seat == 1 and not session.entered  # nothing recorded
    assert session.answer("n").lines == (f"not recorded: {built} for Ada; enter the action again",)
    assert session.question().kind == "action" and session.question().seat == 1
    assert session.answer(answer_for(session, target)).accepted
    drive(session, target)
    assert session.text() == expected_text(target)


def test_R_DECK__an_illegal_action_needs_an_explicit_yes_and_no_other_answer_records_it(tmp_path):
    """Issue 28 item 1, the table's sequence: Ada's illegal Loom at I.2, then an ambiguous entry, then the next
    seat's answer typed at Ada's prompt: nothing illegal is recorded without a yes, every cancel says so."""
    path = tmp_path / "club.7wn"
    session = Session(make_header(seats=["Ada:Babylon:night", "Bob:Ephesos:day", "Cyd:Halikarnassos:night"],
                                  date="2026.11.29"), path=str(path))
    for typed in ("lo", "clay po", "al"):
        assert session.answer(typed).accepted
    saved = path.read_text(encoding="utf-8")
    q = session.question()
    assert (q.kind, q.label, q.seat) == ("action", "I.2", 1)
    reply = session.answer("lo")
    assert not reply.accepted and [line.split(":")[0] for line in reply.lines] == [
        "I.2 error[R-DECK]", "I.2 error[R-UNIQUE]"]
    q = session.question()
    assert q.kind == "confirm" and q.prompt == "I.2 record Loom for Ada with 2 errors (R-DECK, R-UNIQUE)? [y/N]"
    cancelled = "not recorded: Loom for Ada; enter the action again"
    assert session.answer("lo").lines == (cancelled,)  # the same again cancels: it is not a yes
    assert "could be" in session.answer("sto").lines[0]  # ambiguous: asked again
    reply = session.answer("al")  # Bob's answer typed at Ada's prompt: Cyd built the only Altar
    assert not reply.accepted and reply.lines[0].startswith("I.2 error[R-DECK]: Altar")
    assert session.question().prompt == "I.2 record Altar for Ada with 1 error (R-DECK)? [y/N]"
    assert session.answer("").lines == ("not recorded: Altar for Ada; enter the action again",)  # Enter is no
    session.answer("lo")
    assert session.answer("undo").lines == (cancelled,)  # any other answer cancels
    assert not session.entered and session.question().kind == "action" and session.question().seat == 1
    assert path.read_text(encoding="utf-8") == saved and "\nI.2 " not in saved
    session.answer("al")
    assert session.answer("Y").accepted and [a.card for a in session.entered] == ["Altar"]
    session.answer("lu ya")
    reply = session.answer("gla")
    assert reply.lines[0] == "I.2 recorded in " + str(path) + ", with 1 error (R-DECK):"
    assert reply.lines[1].startswith("  ! I.2 error[R-DECK]: Altar")
    assert "\nI.2 Altar | Lumber Yard | Glassworks\n" in path.read_text(encoding="utf-8")


def test_R_COST_COINS__an_unaffordable_play_is_refused_then_recorded_as_played_when_confirmed():
    target = bot_game(*THREE)
    session = Session(header(target))
    drive(session, target, until="I.1")
    reply = session.answer("Caravansery")  # an Age II card is not an Age I card: the catalogue says so
    assert not reply.accepted and "Age I" in reply.lines[0]
    reply = session.answer("stage ?")  # Babylon night's first stage costs more than 3 coins' worth
    assert not reply.accepted and any("[R-" in line for line in reply.lines), reply.lines
    rule = next(line for line in reply.lines if "[R-" in line).split("[")[1].split("]")[0]
    assert f"stage 1 for Ada with 1 error ({rule})" in session.question().prompt
    again = session.answer("yes")
    assert again.accepted and session.entered[0].use == "stage"


def test_undo_the_last_action_the_turn_and_across_the_last_complete_turn(tmp_path):
    target = bot_game(*THREE)
    path = tmp_path / "g.7wn"
    session = Session(header(target), path=str(path))
    drive(session, target, until="I.3")
    saved = path.read_text(encoding="utf-8")
    assert saved.count("\nI.") == 2
    assert session.answer(answer_for(session, target)).accepted
    assert len(session.entered) == 1
    assert session.answer("undo").accepted and not session.entered
    assert session.answer("undo").accepted  # back into I.2: its last action reopened, the file without I.2
    assert [a.seat for a in session.entered] == [1, 2] and session.question().label == "I.2"
    assert path.read_text(encoding="utf-8").count("\nI.") == 1
    assert session.answer("undo turn").accepted and not session.entered
    drive(session, target, until="I.3")
    assert path.read_text(encoding="utf-8") == saved


def test_R_HALI__a_pick_the_pile_does_not_hold_is_recorded_only_when_confirmed_and_marked():
    target = bot_game(*THREE)
    session = Session(header(target))
    drive(session, target, until="pick")
    reply = session.answer("scriptorium")
    assert not reply.accepted and reply.lines[0].startswith("II.3 error[R-HALI]: Cyd cannot build Scriptorium")
    assert session.question().prompt == "II.3 record the pick Scriptorium for Cyd with 1 error (R-HALI)? [y/N]"
    assert session.answer("gu").lines == ("not recorded: the pick Scriptorium for Cyd; enter the pick again",)
    assert session.question().kind == "pick"
    session.answer("scriptorium")
    reply = session.answer("y")
    assert "Cyd builds Scriptorium from the discard pile, recorded with 1 error (R-HALI)" in reply.lines
    assert [a.pick.card for a in session.turns[-1].actions if a.pick] == ["Scriptorium"]


def test_undo_a_pick_asks_it_again():
    target = bot_game(*THREE)
    session = Session(header(target))
    drive(session, target, until="pick")
    assert session.question().kind == "pick"
    assert session.answer("-").accepted and session.question().label == "II.4"
    assert session.answer("undo").accepted
    q = session.question()
    assert q.kind == "pick" and q.label == "II.3"


def test_a_seat_view_offers_the_other_seats_hidden_cards_as_unknown_and_records_them_so():
    session, log = recorded(THREE, view=1)
    other = [q for q, _, _ in log if q.kind == "action" and q.seat != 1]
    assert all(q.choices[0].text in ("stage ?", "sell ?") for q in other)
    assert not any(q.kind == "discard" and q.seat != 1 for q, _, _ in log)  # others' discards are unseen: ?
    record = session.record
    hidden = [a for t in record.turns for a in t.actions if a.seat != 1 and a.use != "build"]
    assert hidden and all(a.card == "?" for a in hidden)
    assert all(a.discard in (None, "?") for t in record.turns for a in t.actions if a.seat != 1)
    played = replay(parse(session.text()))
    assert played.ok and played.complete


def test_without_a_deal_the_cards_offered_are_the_ages_designs_not_known_elsewhere():
    target = bot_game(*THREE)
    session = Session(header(target))
    q = session.question()
    designs = {c.name for c in deck.copies(1, 3)}
    assert {c.text for c in q.choices if c.text in designs} <= designs
    assert {c.text.removeprefix("sell ") for c in q.choices if c.text.startswith("sell ") and c.text != "sell ?"} \
        == designs
    drive(session, target, until="I.3")
    once = {c.name for c, n in deck.copies(1, 3).items() if n == 1}
    gone = {a.card for t in session.turns for a in t.actions} & once
    offered = {c.text.removeprefix("sell ") for c in session.question().choices}
    assert gone and not gone & offered


def test_with_the_deal_known_the_cards_offered_are_the_hand():
    target = bot_game(*THREE)
    session = Session(target.model_copy(update={"turns": (), "results": ()}))  # seed and guilds: the deal is known
    q = session.question()
    hand = {c.name for c in session.start().hands[0]}
    assert {c.text.removeprefix("sell ") for c in q.choices} - {"?", "stage ?"} == hand
    log = drive(session, target)
    assert not any(q.kind == "discard" for q, _, _ in log)  # the hand shows the last card
    assert session.text() == write(canonical_purchases(target))


def test_open_goes_on_after_the_last_complete_turn(tmp_path):
    target = bot_game(*THREE)
    path = tmp_path / "g.7wn"
    first = Session(header(target), path=str(path))
    drive(first, target, until="II.2")
    again = Session.open(str(path))
    assert again.question().label == "II.2" and again.question().seat == 1
    drive(again, target)
    assert path.read_text(encoding="utf-8") == expected_text(target)


def test_typing_matches_word_beginnings_and_refuses_what_names_no_card():
    target = bot_game(*THREE)
    session = Session(header(target))
    offered = choices.plays(session.start(), 1)
    assert choices.parse_play("lu ya", offered, 1) == ("build", "Lumber Yard")
    assert choices.parse_play("se lu", offered, 1) == ("sell", "Lumber Yard")
    assert choices.parse_play("sell", offered, 1) == ("sell", "?")
    assert choices.parse_play("STAGE ?", offered, 1) == ("stage", "?")
    with pytest.raises(choices.EntryError, match="did you mean Lumber Yard"):
        choices.parse_play("lumber yrd", offered, 1)
    with pytest.raises(choices.EntryError, match="type more"):
        choices.parse_play("s", offered, 1)
    with pytest.raises(choices.EntryError, match="face up"):
        choices.parse_play("?", offered, 1)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 7), seed=st.integers(0, 10_000), turns=st.integers(0, 19), view=st.booleans())
def test_every_offered_play_reads_back_as_itself_and_the_known_hand_is_legal_actions(players, seed, turns, view):
    """Typing a completion's whole text gives that play, at any position of any game, with or without the deal."""
    target = bot_game(players, seed)
    known = Session(target.model_copy(update={"turns": target.turns[:turns], "results": ()}))
    unknown = Session(header(target).model_copy(update={"turns": target.turns[:turns]}),
                      view=1 if view else None)
    for session in (known, unknown):
        if session.current() is None or session.question().kind != "action":
            continue
        for seat in session.acting():
            offered = session.offered(seat)
            for p in offered:
                assert choices.parse_play(p.text, offered, session.current()[0]) == (p.use, p.card)
    if known.current() is not None and known.question().kind == "action":
        seat = known.acting()[0]
        listed = {(a.use, a.card.name) for a in legal_actions(known.start(), seat)}
        assert {(p.use, p.card) for p in known.offered(seat) if p.card != "?"} == listed


def test_record_opened_on_a_complete_game_leaves_the_file_untouched(tmp_path):
    from cli_helpers import run

    path = tmp_path / "done.7wn"
    text = write(bot_game(*THREE))
    path.write_text(text, encoding="utf-8")
    assert "is complete: nothing to record" in run("record", str(path)).stdout
    assert path.read_text(encoding="utf-8") == text


def test_R_HALI__a_pick_from_an_empty_pile_is_not_asked_and_recorded_as_declined():
    target = bot_game(3, 94)  # Bob (Halikarnassos) builds the stage on I.2, when the discard pile is empty
    session = Session(header(target))
    log = drive(session, target, until="I.3")
    assert not any(q.kind == "pick" for q, _, _ in log)
    assert "Bob has nothing to build from the discard pile" in log[-1][2].lines
    stage = next(a for a in session.turns[1].actions if a.seat == 2)
    assert stage.use == "stage" and stage.pick is not None and stage.pick.card is None
    assert session.turns == list(target.turns[:2])


def test_open_asks_first_a_pick_the_file_leaves_unanswered(tmp_path):
    target = bot_game(*THREE)
    path = tmp_path / "g.7wn"
    first = Session(header(target), path=str(path))
    drive(first, target, until="pick")  # stopped at the question: II.3 is saved with its stage, no pick yet
    assert "\nII.3 " in path.read_text(encoding="utf-8") and ", pick" not in path.read_text(encoding="utf-8")
    again = Session.open(str(path))
    q = again.question()
    assert (q.kind, q.label, q.seat) == ("pick", "II.3", 3)
    drive(again, target)
    assert path.read_text(encoding="utf-8") == expected_text(target)


# --- undo across an Age, redo ---------------------------------------------------------------------------------


def test_undo_at_the_start_of_an_age_takes_the_last_turn_of_the_age_before_not_an_earlier_pick(tmp_path):
    """Age II of the 3-player game ends with Babylon's extra turn II.7, after Cyd's picks of II.3 and II.5: undo at
    III.1 reopens Ada's II.7 action (the last answer), as undo turn at II.1 takes the whole of I.6."""
    target = bot_game(*THREE)
    path = tmp_path / "g.7wn"
    session = Session(header(target), path=str(path))
    drive(session, target, until="III.1")
    saved = path.read_text(encoding="utf-8")
    reply = session.answer("undo")
    assert reply.lines == ("undone: Ada's action of II.7 (the file holds the turns before it)",)
    q = session.question()
    assert (q.kind, q.label, q.seat) == ("action", "II.7", 1)
    assert [t.label for t in parse(path.read_text(encoding="utf-8")).turns][-1] == "II.6"
    picks = [a.pick.card for t in session.turns for a in t.actions if a.pick is not None]
    assert picks == ["Guard Tower", "Barracks"]  # the picks of II.3 and II.5 are kept
    drive(session, target, until="III.1")
    assert path.read_text(encoding="utf-8") == saved
    fresh = Session(header(target), path=str(tmp_path / "h.7wn"))
    drive(fresh, target, until="II.1")
    assert fresh.answer("undo turn").lines == ("undone: turn I.6 (the file holds the turns before it)",)
    assert fresh.question().label == "I.6" and not fresh.entered


def test_redo_puts_back_what_undo_took_and_rewrites_the_file_at_once(tmp_path):
    target = bot_game(*THREE)
    path = tmp_path / "g.7wn"
    session = Session(header(target), path=str(path))
    drive(session, target, until="II.4")  # after Cyd's pick of II.3
    saved = path.read_text(encoding="utf-8")
    assert session.answer("redo").lines == ("nothing to redo",)
    assert session.answer("undo").lines == ("undone: Cyd's pick",)
    assert "pick Guard Tower" not in path.read_text(encoding="utf-8")
    assert session.answer("undo turn").accepted  # II.3 whole
    assert "\nII.3 " not in path.read_text(encoding="utf-8")
    assert session.answer("redo").lines == ("redone: turn II.3",)
    assert "\nII.3 " in path.read_text(encoding="utf-8") and session.question().kind == "pick"
    assert session.answer("redo").lines == ("redone: Cyd's pick",)
    assert path.read_text(encoding="utf-8") == saved and session.question().label == "II.4"
    # a new answer after an undo: what undo took cannot come back on top of it
    assert session.answer("undo").accepted and session.answer("-").accepted
    assert session.answer("redo").lines == ("nothing to redo",)
    assert ", pick" in path.read_text(encoding="utf-8") and "Guard Tower" not in session.text().split("II.3")[1][:80]


# --- the guilds ------------------------------------------------------------------------------------------------


def test_R_DECK__the_guilds_are_asked_once_at_the_end_of_age_III_when_not_all_were_seen(tmp_path):
    target = bot_game(3, 1)  # Cyd stages Builders Guild on III.2: in Ada's seat view it is a stage ?
    path = tmp_path / "g.7wn"
    session = Session(header(target), view=1, path=str(path))
    log = drive(session, target, until="guilds")
    q = session.question()
    assert q.kind == "guilds" and q.label == "III.end"
    seen = session.seen_guilds()
    assert "Builders Guild" not in seen and len(seen) == 4
    assert q.prompt == "III.end name the 1 other guild (commas between; - if not known)"
    assert q.intro == (f"the game's 5 guilds: 4 seen ({', '.join(seen)})",)
    assert "[Guilds" not in path.read_text(encoding="utf-8") and not parse(path.read_text(encoding="utf-8")).results
    assert session.answer("bui, sci").lines == (
        "a 3-player game has 5 guilds: 4 seen, so name 1 other (you named 2), or - if not known",)
    reply = session.answer("bui")
    assert reply.accepted and reply.lines[0].startswith("[Guilds] ") and "the game is over: score sheet" in reply.lines
    assert session.question() is None and log
    text = path.read_text(encoding="utf-8")
    record = parse(text)
    assert set(record.guilds) == set(target.guilds) and record.results
    report = check(text)
    assert report.ok and not report.diagnostics  # no note that the guilds are unknown


def test_the_guilds_not_known_leave_the_tag_out_and_all_seen_write_it_without_asking(tmp_path):
    target = bot_game(3, 1)
    session = Session(header(target), view=1)
    drive(session, target, until="guilds")
    assert session.answer("-").lines[0] == "the guilds are not known: the record has no [Guilds] tag"
    assert session.question() is None and session.record.guilds is None and session.record.results
    full, log = recorded(THREE)  # every guild of the game was seen: the tag comes without a question
    assert not any(q.kind == "guilds" for q, _, _ in log)
    assert full.record.guilds == catalogue_guilds(bot_game(*THREE))
    # from the turn where the fifth guild shows, before the game is over: the guilds are checked from then on
    target = bot_game(*THREE)
    k = next(k for k in range(len(full.turns)) if Session(header(target), full.turns[:k + 1]).record.guilds)
    assert full.turns[k].label == "III.6" and k == len(full.turns) - 2  # before the extra turn III.7
    assert Session(header(target), full.turns[:k]).record.guilds is None


# --- what is shown -------------------------------------------------------------------------------------------------


def test_R_HALI__the_standings_are_shown_again_after_a_pick():
    target = bot_game(*THREE)
    session = Session(header(target))
    drive(session, target, until="pick")
    reply = session.answer("gu")
    at = reply.lines.index("Cyd builds Guard Tower from the discard pile")
    assert reply.lines[at + 1].startswith("  Ada  coins") and len(reply.lines) >= at + 4
    assert "shields  1" in reply.lines[at + 3]  # Guard Tower's shield counts at once


def test_R_TRADE_MINIMAL__the_purchase_question_lists_its_purchases_and_a_stage_is_named_by_its_number():
    for game in (THREE, SEVEN):
        _, log = recorded(game)
        for q, _, _ in (entry for entry in log if entry[0].kind == "purchase"):
            assert len(q.intro) == len(q.choices) >= 2
            assert all(line == f"  {c.text}  {c.note}" for line, c in zip(q.intro, q.choices))
            assert "(default)" in q.intro[0] and " coin" in q.intro[0]
        stages = [q for q, _, _ in log if q.kind == "purchase" and " stage " in q.prompt]
        for q in stages:
            assert any(f" stage {n}" in q.prompt for n in (1, 2, 3, 4)) and "?: purchase" not in q.prompt
    prompts = [q.prompt for game in (THREE, SEVEN) for q, _, _ in recorded(game)[1]]
    assert not any("[1 coins]" in p for p in prompts) and any("[1 coin]" in p for p in prompts)
    notes = [c.note for game in (THREE, SEVEN) for q, _, _ in recorded(game)[1] for c in q.choices]
    assert "1 coin" in notes and not any(n.startswith("1 coins") for n in notes)


# --- properties ------------------------------------------------------------------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 7), seed=st.integers(0, 10_000), answers=st.integers(0, 80), undos=st.integers(1, 4))
def test_undo_then_redo_gives_back_the_same_record_file_and_question(tmp_path_factory, players, seed, answers, undos):
    target = bot_game(players, seed)
    path = tmp_path_factory.mktemp("redo") / "g.7wn"
    session = Session(header(target), path=str(path))
    session.save()  # as the command does at once
    for _ in range(answers):
        if session.question() is None:
            break
        assert session.answer(answer_for(session, target)).accepted
    before = (session.text(), path.read_text(encoding="utf-8"), session.question())
    done = sum(session.answer("undo").accepted for _ in range(undos))
    assert sum(session.answer("redo").accepted for _ in range(undos)) == done
    assert (session.text(), path.read_text(encoding="utf-8"), session.question()) == before
    drive(session, target)
    assert session.text() == expected_text(target)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), turn=st.integers(1, 5), other=st.text(max_size=12))
def test_R_UNIQUE__an_answer_with_errors_is_never_recorded_by_anything_but_a_yes(seed, turn, other):
    """At a random turn of a random game, the first seat builds again a card its city holds: whatever else is
    typed at the confirmation (a card, a command, nothing, noise), the record is unchanged and the seat asked."""
    target = bot_game(3, seed)
    session = Session(header(target))
    drive(session, target, until=f"I.{turn + 1}")
    built = next((a.card for t in session.turns for a in t.actions if a.seat == 1 and a.use == "build"), None)
    if built is None or " ".join(other.split()).casefold() in ("y", "yes"):
        return
    text = session.text()
    assert not session.answer(built).accepted and session.question().kind == "confirm"
    reply = session.answer(other)
    assert not reply.accepted and reply.lines[0].startswith(f"not recorded: {built} for Ada")
    assert session.text() == text and not session.entered and session.question().kind == "action"
