"""The archive (wnotation.archive): rows equal the engine's figures, bad input is rows too, stats equal figures
computed in Python from score sheets and events, and hostile values are only ever data (issue 16, issue 21 item 3)."""

from __future__ import annotations

from collections import Counter, defaultdict
from functools import cache
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")

from wnotation import read_games, write  # noqa: E402
from wnotation.archive import rows as R  # noqa: E402
from wnotation.archive.export import export  # noqa: E402
from wnotation.archive.stats import Filters, prepare, run_query, run_stats  # noqa: E402
from wnotation.archive.store import create_tables, insert_all, read_table  # noqa: E402
from wnotation.engine import events as ev  # noqa: E402
from wnotation.engine import replay  # noqa: E402
from wnotation.engine.bot import play_game  # noqa: E402

from cli_helpers import run  # noqa: E402

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


@cache
def corpus() -> tuple:
    """Generated games of every player count, both bots (Records, as `wnotation generate` writes them)."""
    return tuple(play_game(3 + k % 5, 100 + k, "random" if k % 2 else "greedy") for k in range(30))


def corpus_file(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.7wn"
    path.write_text("\n".join(write(r) for r in corpus()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("archive")
    src = corpus_file(tmp)
    summary = export([src], tmp / "out", piece_games=7)
    return tmp / "out", summary


def named(table: str, rows) -> list[dict]:
    """Rows of ``table`` as dicts by column name: tests read columns by name, so a column added to the schema
    (spec/archive.md allows that) does not move what they read."""
    names = [name for name, _ in R.TABLES[table]]
    return [dict(zip(names, row)) for row in rows]


def records_in_order():
    return [r for r in read_games("\n".join(write(r) for r in corpus()))]


def test_plays_are_the_actions_and_seats_the_score_sheets(exported):
    out, summary = exported
    games = named("games", read_table(out, "games"))
    seats = named("seats", read_table(out, "seats"))
    plays = read_table(out, "plays")
    records = records_in_order()
    assert summary.games == len(games) == len(records) and summary.complete == len(records)
    assert len(plays) == sum(len(t.actions) for r in records for t in r.turns) == summary.actions
    by_game = defaultdict(list)
    for row in seats:
        by_game[row["game_id"]].append(row)
    categories = ("military_points", "treasury_points", "wonder_points", "civilian_points", "commercial_points",
                  "guild_points", "science_points")
    for g, record in zip(games, records):
        sheet = replay(record).scores
        lines = by_game[g["game_id"]]
        assert [row["player"] for row in lines] == [s.name for s in record.seats]
        for row, line in zip(lines, sheet.lines):
            cats = tuple(row[c] for c in categories)
            assert sum(cats) == row["total_points"] == line.total  # R-SCORE: the categories add up to the total
            assert cats == tuple(v for _, v in line.categories)[:7]
            assert (row["final_coins"], row["place"]) == (line.coins, line.rank)
            assert row["winner"] == (line.seat in sheet.winners())  # R-WIN


def test_purchases_equal_the_trades_of_the_replay(exported):
    """R-TRADE: each seat's coins paid to each neighbour and to the bank, summed over the plays, are the replay's
    CoinsPaid events; every purchase with coins names its units (stated or as the engine chose them)."""
    out, _ = exported
    plays = read_table(out, "plays")
    games = read_table(out, "games")
    cols = R.TABLES["plays"]
    at = {name: k for k, (name, _) in enumerate(cols)}
    got: Counter = Counter()
    for p in plays:
        got[(p[0], p[at["seat"]], "bank")] += p[at["bank_coins"]]
        got[(p[0], p[at["seat"]], "left")] += p[at["left_coins"]]
        got[(p[0], p[at["seat"]], "right")] += p[at["right_coins"]]
        for side in ("left", "right"):
            units = p[at[f"{side}_units"]]
            assert units is not None
            assert (units == []) == (p[at[f"{side}_coins"]] == 0)
    want: Counter = Counter()
    for g, record in zip(games, records_in_order()):
        n = record.players
        for e in replay(record).events:
            if type(e) is ev.CoinsPaid:
                side = "bank" if e.to is None else "left" if e.to == e.seat % n + 1 else "right"
                want[(g[0], e.seat, side)] += e.amount
    assert +got == +want


def test_plays_name_free_builds_extra_turns_and_picks(exported):
    out, _ = exported
    at = {name: k for k, (name, _) in enumerate(R.TABLES["plays"])}
    plays = read_table(out, "plays")
    records = records_in_order()
    want_picks = sum(1 for r in records for e in replay(r).events if type(e) is ev.PickedFromDiscard)
    assert sum(1 for p in plays if p[at["picked_card"]] is not None) == want_picks
    want_chain = sum(1 for r in records for e in replay(r).events if type(e) is ev.CardBuilt and e.how == "chain")
    assert sum(1 for p in plays if p[at["free_by"]] == "chain") == want_chain
    extra = sum(1 for r in records for t in r.turns if t.number == 7 for _ in t.actions)
    assert sum(1 for p in plays if p[at["extra_turn"]]) == extra
    assert all(p[at["outcome"]] in ("built", "staged", "sold") for p in plays)


def test_military_rows_are_the_conflicts(exported):
    """R-MILITARY: each seat meets both neighbours every Age; the tokens are the score sheet's military."""
    out, _ = exported
    military = read_table(out, "military")
    seats = {(row["game_id"], row["seat"]): row for row in named("seats", read_table(out, "seats"))}
    total: Counter = Counter()
    for gid, _age, seat, _opponent, token, result in military:
        total[(gid, seat)] += token
        assert result == ("victory" if token > 0 else "defeat" if token < 0 else "tie")
    assert len(military) == 2 * 3 * len(seats)
    for key, row in seats.items():
        assert total[key] == row["military_points"]


def test_every_run_gives_the_same_parts(tmp_path, exported):
    out, _ = exported
    again = export([corpus_file(tmp_path)], tmp_path / "again", piece_games=7, jobs=2)
    for table in R.TABLES:
        if table != "games":
            assert read_table(out, table) == read_table(tmp_path / "again", table), table
    # the games table differs only in the file column (another path)
    strip = [row[:2] + row[3:] for row in read_table(out, "games")]
    assert strip == [row[:2] + row[3:] for row in read_table(tmp_path / "again", "games")]
    assert again.pieces == -(-len(corpus()) // 7)


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_is_told_the_games_of_each_piece_once_written(tmp_path, jobs):
    """export(progress=...) drives the CLI's progress bar: one call a piece once its parts are written, with its
    number of games, so the calls add up to the games exported; an input read whole (no game in it) is one call."""
    src = corpus_file(tmp_path)
    (tmp_path / "empty.7wn").write_text("", encoding="utf-8")
    steps: list[int] = []
    summary = export([src, tmp_path / "empty.7wn", src], tmp_path / "out", piece_games=7, jobs=jobs,
                     progress=steps.append)
    per_file = [7] * (len(corpus()) // 7) + ([len(corpus()) % 7] if len(corpus()) % 7 else [])
    if jobs == 1:
        assert steps == per_file + [0] + per_file  # in input order
    else:  # an input read whole is told at once, while earlier pieces are still with the workers
        assert sorted(steps) == sorted(per_file + [0] + per_file)
    assert sum(steps) == 2 * len(corpus())
    # the second input repeats the first: its games are left out (issue 29 item 6), each counted as a repeat
    assert summary.games == summary.repeats == len(corpus())


def test_stats_of_7wn_files_tell_progress_the_games_read(tmp_path):
    steps: list[int] = []
    reports = run_stats([str(corpus_file(tmp_path))], progress=steps.append)
    assert sum(steps) == len(corpus()) and steps and reports


def test_bad_input_is_rows_and_counted_while_the_rest_exports(tmp_path):
    good = write(corpus()[0])
    broken = good.replace("\nI.2 ", "\nI.2 Nonsense Card ", 1)
    (tmp_path / "good.7wn").write_text(good, encoding="utf-8")
    (tmp_path / "mixed.7wn").write_text(broken + "\n" + good, encoding="utf-8")
    (tmp_path / "latin1.7wn").write_bytes(good.encode("utf-8") + b"\xe9\n")
    (tmp_path / "empty.7wn").write_text("", encoding="utf-8")
    stated = corpus()[1]
    line = stated.results[0]
    stated = stated.model_copy(update={"results": (line.model_copy(update={"total": line.total + 1}),)
                                       + stated.results[1:]})
    (tmp_path / "wrong.7wn").write_text(write(stated), encoding="utf-8")
    names = ["good.7wn", "mixed.7wn", "latin1.7wn", "empty.7wn", "wrong.7wn", "missing.7wn"]
    summary = export([tmp_path / n for n in names], tmp_path / "out", jobs=2)
    assert (summary.unreadable, summary.no_game, summary.broken, summary.wrong_results) == (2, 1, 1, 1)
    # good.7wn's game again in mixed.7wn and latin1.7wn's unread: exported once, counted as a repeat
    assert summary.complete == 2 and summary.repeats == 1 and summary.problems == 5
    games = named("games", read_table(tmp_path / "out", "games"))
    findings = named("findings", read_table(tmp_path / "out", "findings"))
    by_file = defaultdict(list)
    for g in games:
        by_file[Path(g["file"]).name].append(g)
    assert [g["readable"] for g in by_file["mixed.7wn"]] == [False]  # the broken game; the good one is good.7wn's
    assert by_file["mixed.7wn"][0]["players"] == corpus()[0].players  # what its tag section says is kept
    assert [g["readable"] for g in by_file["latin1.7wn"]] == [False]
    file_of = {g["game_id"]: Path(g["file"]).name for g in games}
    rules = {(file_of[f["game_id"]], f["rule_id"]) for f in findings}
    assert ("latin1.7wn", "unreadable") in rules and ("missing.7wn", "unreadable") in rules
    assert ("empty.7wn", "games") in rules and ("wrong.7wn", "R-SCORE") in rules
    assert any(name == "mixed.7wn" and rule not in ("R-SCORE",) for name, rule in rules)
    wrong_row = by_file["wrong.7wn"][0]
    assert wrong_row["results_stated"] is True and wrong_row["results_match"] is False  # stated, and wrong
    result = run("export", *[str(tmp_path / n) for n in names[:-1]], "-o", str(tmp_path / "cli"), code=1)
    assert "1 broken" in result.stdout and "2 unreadable" not in result.stdout


# --- stats against Python ----------------------------------------------------------------------------------------


def _python_figures():
    wins, seats, score = Counter(), Counter(), Counter()
    cats = defaultdict(list)
    built = Counter()
    trade = Counter()
    ada = []
    for record in corpus():
        played = replay(record)
        sheet = played.scores
        for s, line in zip(record.seats, sheet.lines):
            key = (s.wonder, s.side)
            seats[key] += 1
            wins[key] += line.rank == 1
            score[key] += line.total
            for name, value in line.categories:
                cats[name].append(value)
            if s.name == "Ada":
                ada.append(line)
        for e in played.events:
            if type(e) is ev.CardBuilt or type(e) is ev.PickedFromDiscard:
                built[e.card.key] += 1
            if type(e) is ev.CoinsPaid and e.to is not None:
                trade[(record.seats[e.seat - 1].wonder, record.seats[e.to - 1].wonder)] += e.amount
    return wins, seats, score, cats, built, trade, ada


def test_stats_equal_figures_computed_from_score_sheets(exported):
    out, _ = exported
    wins, seats, score, cats, built, trade, ada = _python_figures()
    reports = {r.name: r for r in run_stats([out])}
    wonders = {(row[0], row[1]): row for row in reports["wonders"].rows}
    assert set(wonders) == set(seats)
    for key, row in wonders.items():
        assert row[2] == seats[key] and row[3] == wins[key]
        assert row[4] == pytest.approx(wins[key] / seats[key], abs=1e-4)
        assert row[5] == pytest.approx(score[key] / seats[key], abs=0.01)
    categories = {row[0]: row for row in reports["categories"].rows}
    assert [row[0] for row in reports["categories"].rows] == ["military", "treasury", "wonder", "civilian",
                                                              "commercial", "guilds", "science"]
    for name, values in cats.items():
        assert categories[name][1] == pytest.approx(sum(values) / len(values), abs=0.01)
    cards = {f"{row[1]}:{row[0]}": row[3] for row in reports["cards"].rows}  # an Age's card apart from another's
    # the plays table holds the outcome of a build; a build applied as a discard is not a built card
    assert cards == {name: count for name, count in built.items()}
    flows = {(row[0], row[1]): row[3] for row in reports["trades"].rows}
    assert flows == dict(trade)
    by_count = defaultdict(list)
    for record in corpus():
        by_count[record.players].append(replay(record).scores)
    counts = {row[0]: row for row in reports["player_counts"].rows}
    assert sorted(counts) == sorted(by_count)
    for players, sheets in by_count.items():
        row = counts[players]
        assert row[1] == len(sheets)
        assert row[2] == pytest.approx(sum(ln.total for s in sheets for ln in s.lines) / (players * len(sheets)),
                                       abs=0.01)
        assert row[4] == sum(1 for s in sheets if len(s.winners()) > 1)  # R-WIN: shared victories
    player = {r.name: r for r in run_stats([out], Filters(player="Ada"))}["player"]
    overall = player.rows[0]
    assert overall[0] == "(all)" and overall[2] == len(ada)
    assert overall[3] == sum(1 for line in ada if line.rank == 1)
    assert overall[5] == pytest.approx(sum(line.total for line in ada) / len(ada), abs=0.01)


def test_stats_filters_by_player_count_event_and_date(exported, tmp_path):
    out, _ = exported
    three = [r for r in corpus() if r.players == 3]
    overview = run_stats([out], Filters(players=3), ["overview"])[0]
    assert overview.rows[0][0] == len(three)
    assert run_stats([out], Filters(event="no such event"), ["overview"])[0].rows[0][0] == 0
    from datetime import date

    assert run_stats([out], Filters(date_from=date(2000, 1, 1)), ["overview"])[0].rows[0][0] == 0  # dates unknown


def test_stats_read_7wn_parquet_and_duckdb_alike(tmp_path):
    src = corpus_file(tmp_path)
    export([src], tmp_path / "out", duckdb_file=tmp_path / "a.duckdb")
    a = run_stats([src])
    b = run_stats([tmp_path / "out"])
    c = run_stats([str(tmp_path / "a.duckdb")])
    assert [r.rows for r in a] == [r.rows for r in b] == [r.rows for r in c]


# --- SQL safety (issue 21 item 3) -----------------------------------------------------------------------------------

HOSTILE = ["'; DROP TABLE plays; --", 'Bo"b\' OR 1=1 --', "Zoë \u2028 $player ?", "名前", "x" * (1 << 20),
           "); DELETE FROM seats; SELECT ('"]


def test_hostile_names_and_events_are_data(tmp_path):
    """Player names and events that look like SQL, quotes, unicode and a 1 MB string: stored as written, and a
    filter on each returns exactly its rows (the tables survive)."""
    con = duckdb.connect()
    create_tables(con)
    games = []
    for k, name in enumerate(HOSTILE):
        base = corpus()[k]
        seats = (base.seats[0].model_copy(update={"name": name}),) + base.seats[1:]
        tags = tuple(t.model_copy(update={"value": name}) if t.name == "Event" else t for t in base.tags)
        record = base.model_copy(update={"seats": seats, "tags": tags})
        rows = R.game_rows(record, replay(record), gid=k + 1, source=name, index=1)
        insert_all(con, rows.tables, str(tmp_path))
        games.append((record, replay(record).scores))
    for k, (name, (record, sheet)) in enumerate(zip(HOSTILE, games)):
        filters = Filters(player=name, event=name)
        prepare(con, filters)
        overview = run_query(con, "overview", filters)
        assert overview.rows[0][0] == 1 and overview.rows[0][2] == sum(len(t.actions) for t in record.turns)
        player = run_query(con, "player", filters)
        assert player.rows[0][2] == 1 and player.rows[0][5] == sheet.lines[0].total
        stored = con.execute("SELECT player, file FROM seats JOIN games USING (game_id) WHERE seat = 1 AND "
                             "game_id = ?", [k + 1]).fetchall()
        assert stored == [(name, name)]
    assert con.execute("SELECT count(*) FROM plays").fetchone()[0] > 0


def test_export_and_stats_commands(tmp_path):
    run("export", str(REPLAYS), "-o", str(tmp_path / "arch"))
    out = run("stats", str(tmp_path / "arch"), "--json").stdout
    import json

    data = json.loads(out)
    names = [r["name"] for r in data["reports"]]
    bundled = sum(1 for path in sorted(REPLAYS.rglob("*.7wn")) for _ in read_games(path))
    assert names[0] == "overview" and data["reports"][0]["rows"][0]["games"] == bundled
    csv_out = run("stats", str(REPLAYS), "--csv", "--players", "4").stdout
    four = sum(1 for path in sorted(REPLAYS.rglob("*.7wn")) for r in read_games(path) if r.players == 4)
    assert csv_out.startswith(f"# overview\ngames,complete,plays,errors,wrong_results\n{four},")
    run("stats", str(REPLAYS), "--from", "not a date", code=2)
    run("export", str(REPLAYS), code=2)
    (tmp_path / "notes.txt").write_text("not a database", encoding="utf-8")
    bad = run("export", str(REPLAYS), "--duckdb", str(tmp_path / "notes.txt"), code=2)
    assert "not a valid DuckDB database" in bad.stderr
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "not a database"
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("x", encoding="utf-8")
    assert "is not empty" in run("export", str(REPLAYS), "-o", str(tmp_path / "full"), code=2).stderr


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=1, max_size=40), event=st.text(max_size=40))
def test_any_name_and_event_round_trip_and_filter_exactly(tmp_path, name, event):
    """Whatever text a seat name or an event holds (control characters, quotes, surrogate-free unicode), it is
    stored as the Record holds it and a filter on it finds exactly its game."""
    import unicodedata

    con = duckdb.connect()
    create_tables(con)
    base, other = corpus()[0], corpus()[2]
    seats = (base.seats[0].model_copy(update={"name": unicodedata.normalize("NFC", name)}),) + base.seats[1:]
    tags = tuple(t.model_copy(update={"value": event}) if t.name == "Event" else t for t in base.tags)
    record = base.model_copy(update={"seats": seats, "tags": tags})
    for gid, r in ((1, record), (2, other)):
        insert_all(con, R.game_rows(r, replay(r), gid=gid, source="s", index=gid).tables, str(tmp_path))
    assert con.execute("SELECT player FROM seats WHERE game_id = 1 AND seat = 1").fetchone()[0] == seats[0].name
    assert con.execute("SELECT event_name FROM games WHERE game_id = 1").fetchone()[0] == event
    filters = Filters(player=name, event=event)
    prepare(con, filters)
    assert run_query(con, "overview", filters).rows[0][0] == 1 + (other.tag("Event") == event)
    assert run_query(con, "player", filters).rows[0][2] == 1 + sum(s.name == seats[0].name for s in other.seats
                                                                   if other.tag("Event") == event)


def test_the_report_option_names_every_query():
    from wnotation.archive.stats import PLAYER_QUERIES, QUERIES
    from wnotation.cli.archive import REPORTS

    assert set(REPORTS) == set(QUERIES) | set(PLAYER_QUERIES)
    out = run("stats", str(REPLAYS), "--report", "wonders", "--csv").stdout
    assert out.startswith("# wonders\nwonder,side,seats,wins,win_rate,avg_score\n") and "# cards" not in out
    run("stats", str(REPLAYS), "--report", "player", code=2)


def test_plays_the_replay_never_reaches_are_rows_too_R_TURN():
    """A record missing turn I.3: the replay stops there (R-TURN), every later action is still a row, marked
    not-replayed, and the game is incomplete with NULL scores."""
    base = corpus()[3]
    record = base.model_copy(update={"turns": tuple(t for t in base.turns if (t.age, t.number) != (1, 3)),
                                      "results": ()})
    played = replay(record)
    rows = R.game_rows(record, played, gid=7, source="s", index=1)
    at = {name: k for k, (name, _) in enumerate(R.TABLES["plays"])}
    plays = rows.tables["plays"]
    assert len(plays) == sum(len(t.actions) for t in record.turns)
    outcomes = Counter(p[at["outcome"]] for p in plays)
    assert outcomes["not-replayed"] == sum(len(t.actions) for t in record.turns if (t.age, t.number) > (1, 3))
    assert named("games", rows.tables["games"])[0]["complete"] is False
    assert named("seats", rows.tables["seats"])[0]["total_points"] is None
    assert any(f["rule_id"] == "R-TURN" for f in named("findings", rows.tables["findings"]))


def test_rows_do_not_depend_on_how_a_file_is_cut_into_pieces(tmp_path):
    """Game ids, places and lines, broken games and text before the first game give the same rows whatever the
    piece size (the parts differ, their rows together do not)."""
    texts = [write(r) for r in corpus()[:9]]
    texts[4] = texts[4].replace("\nI.2 ", "\nI.2 Nonsense Card ", 1)
    path = tmp_path / "cut.7wn"
    path.write_text("stray words before any game\n\n" + "\n".join(texts), encoding="utf-8")
    tables = []
    for size in (1, 4, 100):
        summary = export([path], tmp_path / f"p{size}", piece_games=size)
        assert (summary.games, summary.broken) == (10, 2)  # the stray text is game 0, read as broken
        tables.append({t: read_table(tmp_path / f"p{size}", t) for t in R.TABLES})
    assert tables[0] == tables[1] == tables[2]
    games = named("games", tables[0]["games"])
    assert [g["game_number"] for g in games] == list(range(10)) and [g["readable"] for g in games].count(False) == 2


def test_a_purchase_stated_in_coins_is_a_plays_row_with_its_coins_and_units_R_TRADE_MINIMAL():
    """Case 160 (7WN 2) pays Ben 2 coins for his wood: the plays row says a stated purchase, 2 coins to the left,
    and the unit it bought, found as the replay paid it (an AttributeError on a CoinsPaid before)."""
    path = Path(__file__).resolve().parents[1] / "spec" / "cases" / "160-coins-buy-dearer-purchase.7wn"
    (record,) = read_games(path)
    played = replay(record)
    rows = named("plays", R.game_rows(record, played, gid=1, source=str(path), index=0).tables["plays"])
    (stockade,) = [p for p in rows if p["card"] == "Stockade"]
    assert stockade["purchase_stated"] is True and (stockade["left_coins"], stockade["right_coins"]) == (2, 0)
    assert (stockade["left_units"], stockade["right_units"]) == (["wood"], [])


def _priced_again(record) -> dict:
    """What each paid play of ``record`` pays, asked of the engine's trade questions again on the turn-start
    position (the route rows.py took before the events carried the units): ``(age, turn, seat)`` ->
    ``(bank, left coins, right coins, left units, right units)``, the units as the rows state them."""
    from wnotation.engine.coins import Coins, purchase_for
    from wnotation.engine.payment import Payment, pay
    from wnotation.engine.state import Game, info, stage_info
    from wnotation.engine.trade import Purchase
    from wnotation.model.record import CoinsPaid, StatedPurchase

    played = replay(record)
    keys = list(played.marks)
    before = dict(zip(keys[1:], keys))
    out = {}
    for turn in record.turns:
        start, end = played.marks[before[turn.label]], played.marks[turn.label]
        placed = {}
        for e in played.events[start:end]:
            if type(e) in (ev.CardBuilt, ev.StageBuilt, ev.CardSold, ev.CardDiscarded):
                placed.setdefault(e.seat, e)
        game = Game(played.position(before[turn.label]))
        for a in turn.actions:
            e = placed.get(a.seat)
            if type(e) is ev.CardBuilt and e.how == "paid":
                cost, coins = info(e.card).cost, e.card.cost.coins
            elif type(e) is ev.StageBuilt:
                wonder = game.cities[a.seat - 1].wonder
                cost, coins = stage_info(wonder, e.stage).cost, wonder.stages[e.stage - 1].cost.coins
            else:
                continue
            stated = a.purchase
            if isinstance(stated, CoinsPaid):
                bought = purchase_for(game, a.seat, a.use, e.card if type(e) is ev.CardBuilt else None,
                                      Coins(stated.left_coins, stated.right_coins))
                found = Payment(bought, coins) if isinstance(bought, Purchase) else bought
            else:
                found = pay(game, a.seat, cost, coins, None if stated is None else (stated.left, stated.right))
            if isinstance(found, Payment):
                units = (stated.left, stated.right) if isinstance(stated, StatedPurchase) else \
                    (found.purchase.left, found.purchase.right)
                out[(turn.age, turn.number, a.seat)] = (found.bank, found.purchase.left_coins,
                                                        found.purchase.right_coins, list(units[0]),
                                                        list(units[1]))
    return out


def _in_coins(record):
    """``record`` as a 7WN 2 record with every paid play's purchase stated as the coins it paid each neighbour."""
    from wnotation.model.record import CoinsPaid

    played = replay(record)
    keys = list(played.marks)
    before = dict(zip(keys[1:], keys))
    n = record.players
    turns = []
    for turn in record.turns:
        happened = played.events[played.marks[before[turn.label]]:played.marks[turn.label]]
        paid = {e.seat for e in happened if type(e) is ev.StageBuilt or type(e) is ev.CardBuilt and e.how == "paid"}
        actions = []
        for a in turn.actions:
            if a.seat in paid:
                side = {e.to: e.amount for e in happened if type(e) is ev.CoinsPaid and e.seat == a.seat}
                a = a.model_copy(update={"purchase": CoinsPaid(left_coins=side.get(a.seat % n + 1, 0),
                                                               right_coins=side.get((a.seat - 2) % n + 1, 0))})
            actions.append(a)
        turns.append(turn.model_copy(update={"actions": tuple(actions)}))
    return record.model_copy(update={"format": "7WN 2", "turns": tuple(turns)})


def test_every_purchase_s_coins_and_units_are_the_ones_the_engine_prices_R_TRADE_R_TRADE_MINIMAL():
    """Two routes, one answer: each paid play's bank coins, coins to each neighbour and the units they bought,
    read from the replay's payment events, equal the purchase the trade questions give again on the turn-start
    position, whether the record states the units, leaves the purchase out (the engine's choice) or states the
    coins (7WN 2); and a coin-stated game's rows carry the units of the same game stated otherwise."""
    at = {name: k for k, (name, _) in enumerate(R.TABLES["plays"])}
    fields = ("bank_coins", "left_coins", "right_coins", "left_units", "right_units")
    checked = {"stated": 0, "left out": 0, "coins": 0}
    for record in corpus()[:12]:
        forms = {"as written": record, "in coins": _in_coins(record)}
        got = {}
        left_out = {(t.age, t.number, a.seat) for t in record.turns for a in t.actions if a.purchase is None}
        for form, rec in forms.items():
            rows = R.game_rows(rec, replay(rec), gid=1, source="s", index=1).tables["plays"]
            want = _priced_again(rec)
            got[form] = {}
            for p in rows:
                key = (p[at["age"]], p[at["turn"]], p[at["seat"]])
                values = tuple(p[at[f]] for f in fields)
                got[form][key] = values
                if key in want:
                    assert values == want[key], (form, key)
                    kind = "coins" if form == "in coins" else "stated" if p[at["purchase_stated"]] else "left out"
                    checked[kind] += bool(values[1] or values[2])
                else:  # a sale, a free build: nothing paid, nothing bought
                    assert values == (0, 0, 0, [], []), (form, key)
        # the same coins, and where the record left the purchase to the engine, the same units
        for key, values in got["as written"].items():
            coined = got["in coins"][key]
            assert coined[:3] == values[:3], key
            if key in left_out:
                assert coined[3:] == values[3:], key
    assert min(checked.values()) > 20, checked  # every way of stating a purchase was exercised
