"""The recorder's figures (issue 28): keystrokes per turn at 3, 5 and 7 players, and the latency after Enter.

**Keystrokes.** Bot games (greedy, seeds ``0 .. --games - 1`` for each player count) are typed into a
:class:`~wnotation.recorder.session.Session` the way a quick typist does: each answer is the shortest beginning of
the play that the recorder takes as that play (``lo`` for Loom, ``se alt`` for sell Altar, Enter alone for a
default), plus one Enter. A turn's keystrokes are all the answers it took (actions, purchases, Babylon's keep, the
turn-6 discards, Halikarnassos' picks, the guilds when asked), over the turns of the record (a Babylon extra turn
``.7`` counts as a turn). The same turn typed by hand in an editor is its canonical line (``write``), newline
included. The recorded record must be the game played: the script checks it.

**Latency after Enter** at the busiest 7-player position (the action question with the most completions over the
7-player games): ``Session.answer`` on the typed answer, then ``Session.question`` (the next prompt, with its
completions), the file rewritten as the command does, in process CPU time; each repetition on a fresh session
opened at that position (no cache of an earlier repetition helps), for the first seat of the turn and for its
last seat (whose Enter ends the turn: the turn replayed, the file written, the standings). Also the median and
worst over every answer of the 7-player games.

Run: ``python benchmarks/bench_recorder.py`` (about a minute; ``--games``, ``--runs``, ``--write`` appends nothing:
the figures go to RECORDER.md beside this file with ``--write``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from wnotation.model.catalog import load
from wnotation.engine.bot import play_game
from wnotation.notation import write
from wnotation.model.record import Record
from wnotation.recorder import choices
from wnotation.recorder.session import Question, Session
from wnotation.model.vocabulary import age_of_numeral

HERE = Path(__file__).resolve().parent
_TURN = re.compile(r"I{1,3}\.[1-7] ")


def _header(record: Record) -> Record:
    """The game as the table knows it: no seed, no guilds, no turns."""
    return record.model_copy(update={"seed": None, "guilds": None, "turns": (), "results": ()})


def _shortest(full: str, ok: Callable[[str], bool]) -> str:
    for k in range(1, len(full) + 1):
        try:
            if ok(full[:k]):
                return full[:k]
        except choices.EntryError:
            pass
    return full


def answer_for(session: Session, target: Record, q: Question) -> str:
    """What a quick typist answers to ``q`` for the game ``target`` (the tests' script, tests/test_recorder_*.py)."""
    age = age_of_numeral(q.label.split(".")[0]) if q.label != "III.end" else 3
    if q.kind == "guilds":
        seen = set(session.seen_guilds())
        return ", ".join(g for g in (target.guilds or ()) if g not in seen)
    acts = {(t.label, a.seat): a for t in target.turns for a in t.actions}
    a = acts[(q.label, q.seat)]
    if q.kind == "action":
        want = (a.use, a.card)
        offered = session.offered(q.seat)
        full = a.card if a.use == "build" else f"{a.use} {a.card}"
        return _shortest(full, lambda p: choices.parse_play(p, offered, age) == want)
    if q.kind == "purchase":
        assert session.draft is not None and session.draft.play is not None
        options = session.draft.play.purchases
        k = next(i for i, o in enumerate(options) if a.purchase is None or o.purchase == a.purchase)
        return "" if k == 0 else str(k + 1)
    if q.kind == "keep":
        return "" if a.discard is None else "n"
    if q.kind == "discard":
        assert session.draft is not None and a.discard is not None
        cards = session._left_in_hand(session.draft)
        discard = a.discard
        return _shortest(discard, lambda p: choices.parse_card(p, cards, age) == discard)
    assert q.kind == "pick" and a.pick is not None
    if not a.pick.card:
        return "-"
    card = a.pick.card
    options = tuple(c for c in load().cards if c.name in {o.text for o in q.choices})
    return _shortest(card, lambda p: choices.parse_card(p, options, age, earlier=True) == card)


def type_game(target: Record, path: str | None = None) -> tuple[Session, list[tuple[Question, str]]]:
    """Record ``target`` whole; the session and each (question, answer)."""
    session = Session(_header(target), path=path)
    log = []
    while (q := session.question()) is not None:
        typed = answer_for(session, target, q)
        reply = session.answer(typed)
        if not reply.accepted:
            raise RuntimeError(f"{q.label} {q.kind} {typed!r}: {reply.lines}")
        log.append((q, typed))
    return session, log


def keystrokes(players: int, games: int) -> dict[str, float]:
    typed = turns = by_hand = answers = 0
    for seed in range(games):
        target = play_game(players, seed, "greedy")
        session, log = type_game(target)
        want = target.model_copy(update={"seed": None, "guilds": session.record.guilds})
        if session.record.turns != want.turns:
            raise RuntimeError(f"{players}p seed {seed}: the recorded game is not the game played")
        typed += sum(len(a) + 1 for _, a in log)
        answers += len(log)
        turns += len(target.turns)
        by_hand += sum(len(line) + 1 for line in write(session.record).splitlines() if _TURN.match(line))
    return {"per_turn": typed / turns, "by_hand": by_hand / turns, "answers_per_turn": answers / turns,
            "turns": turns, "games": games}


def _busiest(games: int) -> tuple[Record, int, int]:
    """(game, answers before, choices) of the 7-player action question with the most completions."""
    best: tuple[int, Record, int] | None = None
    for seed in range(games):
        target = play_game(7, seed, "greedy")
        _, log = type_game(target)
        for k, (q, _) in enumerate(log):
            if q.kind == "action" and (best is None or len(q.choices) > best[0]):
                best = (len(q.choices), target, k)
    assert best is not None
    return best[1], best[2], best[0]


def _at(target: Record, upto: int, path: str) -> tuple[Session, str]:
    """A fresh session (file ``path``) on ``target`` after its first ``upto`` answers; the next answer."""
    session = Session(_header(target), path=path)
    for _ in range(upto):
        q = session.question()
        assert q is not None
        session.answer(answer_for(session, target, q))
    q = session.question()
    assert q is not None
    return session, answer_for(session, target, q)


def latency(games: int, runs: int) -> dict[str, object]:
    target, k, width = _busiest(games)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "g.7wn")
        session, _ = _at(target, k, path)
        q = session.question()
        assert q is not None
        first = k - len(session.entered)  # the turn's first answer (no purchase question before it in the turn)
        probe, _ = _at(target, first, path)
        done, last = len(probe.turns), first
        while len(probe.turns) == done:
            pq = probe.question()
            assert pq is not None
            probe.answer(answer_for(probe, target, pq))
            last += 1
        last -= 1  # the answer whose Enter ended the turn
        out: dict[str, object] = {"label": q.label, "choices": width}
        for name, at in (("first seat", first), ("last seat (ends the turn)", last)):
            times = []
            for _ in range(runs):
                s, typed = _at(target, at, path)
                start = time.process_time()
                s.answer(typed)
                s.question()
                times.append(time.process_time() - start)
            out[name] = (statistics.median(times), max(times))
        every = []
        for seed in range(games):
            game = play_game(7, seed, "greedy")
            s = Session(_header(game), path=path)
            while (gq := s.question()) is not None:
                typed = answer_for(s, game, gq)
                start = time.process_time()
                s.answer(typed)
                s.question()
                every.append(time.process_time() - start)
        out["every answer"] = (statistics.median(every), max(every), len(every))
    return out


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def report(keys: dict[int, dict[str, float]], lat: dict[str, object], games: int, runs: int) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    load_avg = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [
        "# The recorder's figures",
        "",
        f"Latest run of `python benchmarks/bench_recorder.py --games {games} --runs {runs} --write` "
        "(the script's docstring says what is counted and timed).",
        "",
        f"- Machine: {_cpu()}, {os.cpu_count()} cores; Python "
        f"{platform.python_version()}; wnotation at {commit}; "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; load average {load_avg}",
        "",
        "## Keystrokes per turn (Enter counted)",
        "",
        "| players | games | turns | keystrokes per turn | answers per turn | the turn's canonical line, typed |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for players, k in keys.items():
        lines.append(f"| {players} | {k['games']:.0f} | {k['turns']:.0f} | {k['per_turn']:.1f} | "
                     f"{k['answers_per_turn']:.2f} | {k['by_hand']:.1f} |")
    lines += [
        "",
        f"## Latency after Enter (process CPU time, {runs} fresh sessions each)",
        "",
        f"The busiest 7-player position: {lat['label']}, {lat['choices']} completions.",
        "",
        "| answer | median ms | worst ms |",
        "| --- | --- | --- |",
    ]
    for name in ("first seat", "last seat (ends the turn)"):
        med, worst = lat[name]  # type: ignore[misc]
        lines.append(f"| {name} | {med * 1000:.1f} | {worst * 1000:.1f} |")
    med, worst, n = lat["every answer"]  # type: ignore[misc]
    lines.append(f"| every answer of the {games} 7-player games ({n}) | {med * 1000:.1f} | {worst * 1000:.1f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="bot games per player count (default 5)")
    parser.add_argument("--runs", type=int, default=15, help="fresh sessions per latency figure (default 15)")
    parser.add_argument("--write", action="store_true", help="write the figures to benchmarks/RECORDER.md")
    args = parser.parse_args()
    keys = {p: keystrokes(p, args.games) for p in (3, 5, 7)}
    lat = latency(args.games, args.runs)
    text = report(keys, lat, args.games, args.runs)
    print(text)
    if args.write:
        (HERE / "RECORDER.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
