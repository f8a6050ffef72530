"""``wnotation bgstats`` and wnotation.formats.bgstats: a finished game as BG Stats' documented push-play link."""

from __future__ import annotations

import json
import urllib.parse

import pytest

from cli_helpers import run
from wnotation import parse, replay, write
from wnotation.formats.bgstats import GAME_NAME, PUSH_URL, BGStatsError, play_data, push_url
from wnotation.engine.bot import play_game
from wnotation.model.record import Tag


def dated(players: int = 4, seed: int = 7, **tags: str):
    record = play_game(players, seed, "greedy").model_copy(update={"date": "2026.11.29"})
    return record.model_copy(update={"tags": tuple(Tag(name=k, value=v) for k, v in tags.items())})


def test_the_play_holds_every_seat_with_its_total_rank_and_the_winners_R_WIN():
    record = dated(7, 3, Site="Lyon", Event="Club night")
    sheet = replay(record).scores
    data = play_data(record, sheet)
    assert data["game"] == {"name": GAME_NAME, "highestWins": True, "noPoints": False, "sourceGameId": "7wonders-2e"}
    assert data["playDate"] == "2026-11-29 12:00:00" and data["location"] == "Lyon"
    assert data["comments"] == "Club night" and data["sourceName"] == "wnotation"
    assert [p["name"] for p in data["players"]] == [s.name for s in record.seats]
    assert [p["score"] for p in data["players"]] == [ln.total for ln in sheet.lines]
    assert [p["rank"] for p in data["players"]] == [ln.rank for ln in sheet.lines]
    assert [p["name"] for p in data["players"] if p["winner"]] == [record.seats[s - 1].name for s in sheet.winners()]
    assert [p["role"] for p in data["players"]] == [f"{s.wonder} {s.side}" for s in record.seats]
    assert not any(p["startPlayer"] for p in data["players"])


def test_the_link_carries_the_json_url_encoded_and_the_same_game_gives_the_same_id():
    record = dated(Time="20:15:00")
    data = play_data(record, replay(record).scores)
    url = push_url(data)
    assert url.startswith(PUSH_URL) and " " not in url and "{" not in url
    assert json.loads(urllib.parse.unquote(url[len(PUSH_URL):])) == data
    assert data["playDate"] == "2026-11-29 20:15:00"
    again = parse(write(record))
    assert play_data(again, replay(again).scores)["sourcePlayId"] == data["sourcePlayId"]
    other = dated(4, 8)
    assert play_data(other, replay(other).scores)["sourcePlayId"] != data["sourcePlayId"]


@pytest.mark.parametrize("date, time, message", [
    (None, None, "date is unknown"), ("2026.??.??", None, "2026.??.??"), ("2026.11.29", "8pm", "HH:MM:SS")])
def test_a_play_needs_its_day_and_a_valid_time(date, time, message):
    record = dated(**({"Time": time} if time else {})).model_copy(update={"date": date})
    with pytest.raises(BGStatsError, match=message):
        play_data(record, replay(record).scores)


def test_the_command_prints_the_link_or_the_json_and_refuses_an_unfinished_game(tmp_path):
    path = tmp_path / "g.7wn"
    record = dated()
    path.write_text(write(record), encoding="utf-8")
    link = run("bgstats", str(path)).stdout.strip()
    assert json.loads(urllib.parse.unquote(link[len(PUSH_URL):])) == json.loads(run("bgstats", str(path),
                                                                                        "--json").stdout)
    short = tmp_path / "short.7wn"
    short.write_text(write(record.model_copy(update={"turns": record.turns[:5], "results": ()})), encoding="utf-8")
    assert "not finished" in run("bgstats", str(short), code=2).stderr
