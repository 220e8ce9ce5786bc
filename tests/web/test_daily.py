"""The daily challenge and players over the API, on a clock the tests move (no sleeping):
the committed seed, one ranked attempt a day, the same dice for the same choices, the
seed revealed after the day and auditing every attempt, names and profiles."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import yatzy
from tests.web.conftest import act
from yatzy.bootstrap import open_service
from yatzy.web.app import Settings, create_app

ANN, BO, CY = "a" * 22, "b" * 22, "c" * 30
DAY = "2026-12-02"


class Clock:
    """A clock that stands still until a test moves it."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def move(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 12, 2, 9, 30, tzinfo=UTC))


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    app = create_app(open_service(tmp_path / "daily.sqlite3", clock=clock),
                     Settings(pace=0.0, rate=0.0))
    with TestClient(app) as test_client:
        yield test_client


def key(player: str) -> dict[str, str]:
    return {"X-Player-Key": player}


def start(client: TestClient, player: str, rules: str = "yatzy",
          day: str | None = None) -> dict[str, Any]:
    path = f"/api/daily/{rules}/play" if day is None else f"/api/daily/{rules}/{day}/play"
    response = client.post(path, headers=key(player))
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def play_out(client: TestClient, created: dict[str, Any], *, hold: list[int] | None = None,
             box_rank: int = 0) -> list[list[int]]:
    """Play a whole attempt by one fixed way (reroll once keeping ``hold`` when given,
    then the ``box_rank``-th best box now); returns the dice of every roll."""
    game_id, token = created["id"], created["seats"][0]["token"]
    state = client.get(f"/api/games/{game_id}").json()
    seen = []
    while not state["is_over"]:
        state = act(client, game_id, token, type="roll").json()
        seen.append(state["dice"])
        if hold is not None:
            state = act(client, game_id, token, type="reroll", hold=hold).json()
            seen.append(state["dice"])
        boxes = sorted(state["choices"], key=lambda b: (-state["choices"][b], b))
        box = boxes[min(box_rank, len(boxes) - 1)]
        state = act(client, game_id, token, type="score", box=box).json()
    return seen


def test_today_s_challenges_commit_to_their_seeds(client: TestClient) -> None:
    today = client.get("/api/daily").json()
    assert {c["rules"] for c in today} == {"yatzy", "yahtzee", "maxi_yatzy"}
    assert all(c["date"] == DAY and c["players"] == 0 and len(c["seed_hash"]) == 64
               for c in today)
    assert len({c["seed_hash"] for c in today}) == 3
    created = start(client, ANN)
    hashes = {c["rules"]: c["seed_hash"] for c in client.get("/api/daily").json()}
    assert created["seed_hash"] == hashes["yatzy"]
    assert {c["rules"]: c["players"] for c in client.get("/api/daily").json()}["yatzy"] == 1


def test_one_ranked_attempt_a_day(client: TestClient, clock: Clock) -> None:
    start(client, ANN)
    again = client.post("/api/daily/yatzy/play", headers=key(ANN))
    assert again.status_code == 409 and again.json()["error"]["code"] == "daily_played"
    assert client.get("/api/daily").json()[0]["players"] == 1  # nothing changed
    start(client, ANN, rules="yahtzee")  # another ruleset's challenge is another
    start(client, BO)
    clock.move(days=1)
    start(client, ANN)  # a new day
    unranked = start(client, ANN, day=DAY)  # an earlier day: as often as one likes
    start(client, ANN, day=DAY)
    assert unranked["seed_hash"] == client.get(f"/api/daily/yatzy/{DAY}").json()["seed_hash"]
    assert client.get(f"/api/daily/yatzy/{DAY}").json()["players"] == 2


@pytest.mark.parametrize(("path", "headers", "status", "code"), [
    ("/api/daily/nope/play", key(ANN), 422, "unknown_ruleset"),
    ("/api/daily/yatzy/play", {}, 403, "forbidden"),
    ("/api/daily/yatzy/play", key("short"), 422, "bad_player_key"),
    ("/api/daily/yatzy/2026-12-03/play", key(ANN), 404, "day_not_open"),
    ("/api/daily/yatzy/2026-02-30/play", key(ANN), 422, "bad_day"),
])
def test_bad_attempts(client: TestClient, path: str, headers: dict[str, str], status: int,
                      code: str) -> None:
    response = client.post(path, headers=headers)
    assert response.status_code == status and response.json()["error"]["code"] == code
    assert client.get("/api/daily").json()[0]["players"] == 0


@pytest.mark.parametrize(("day", "status", "code"), [
    ("2026-12-03", 404, "day_not_open"), ("2027-01-01", 404, "day_not_open"),
    ("2026-13-01", 422, "bad_day"), ("2026-12-2", 422, "bad_day"), ("yesterday", 422, "bad_day"),
    ("２０２６-12-02", 422, "bad_day"), ("2026-12-02T00:00", 422, "bad_day"),
])
def test_bad_days(client: TestClient, day: str, status: int, code: str) -> None:
    response = client.get(f"/api/daily/yatzy/{day}")
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code and response.json()["error"]["message"]


def test_the_same_choices_get_the_same_dice(client: TestClient) -> None:
    ann = play_out(client, start(client, ANN), hold=[0, 1])
    bo = play_out(client, start(client, BO), hold=[0, 1])
    assert ann == bo
    # The same choices on another ruleset's challenge: other dice.
    assert play_out(client, start(client, ANN, rules="yahtzee"), hold=[0, 1]) != ann


def test_the_seed_is_revealed_after_the_day_and_audits_every_attempt(
        client: TestClient, clock: Clock) -> None:
    published = client.get("/api/daily").json()[0]["seed_hash"]
    attempts = [start(client, ANN), start(client, BO)]
    play_out(client, attempts[0], hold=[0])
    play_out(client, attempts[1], box_rank=1)
    # Over, but the day is not: the results do not show the seed, and neither the
    # records nor the replays show the day's dice.
    assert client.get(f"/api/daily/yatzy/{DAY}").json()["seed"] is None
    for created in attempts:
        for shown in ("record", "replay?step=3"):
            refused = client.get(f"/api/games/{created['id']}/{shown}")
            assert refused.status_code == 403, refused.text
            assert "day is over" in refused.json()["error"]["message"]
    clock.move(hours=14, minutes=29, seconds=59)  # 23:59:59
    assert client.get(f"/api/daily/yatzy/{DAY}").json()["seed"] is None
    clock.move(seconds=1)
    results = client.get(f"/api/daily/yatzy/{DAY}").json()
    seed = results["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == published == results["seed_hash"]
    for created in attempts:
        record = client.get(f"/api/games/{created['id']}/record").json()
        assert record["seed"] == seed
        game = yatzy.audit_record(record)  # every die from the revealed seed
        assert game.is_over
    assert {e["game_id"] for e in results["entries"]} == {a["id"] for a in attempts}


def test_results_ranks_par_and_share_text(client: TestClient, clock: Clock) -> None:
    play_out(client, start(client, ANN), box_rank=0)
    play_out(client, start(client, BO), box_rank=2)
    unfinished = start(client, CY)
    client.put("/api/me", json={"name": "Ann"}, headers=key(ANN))
    results = client.get(f"/api/daily/yatzy/{DAY}?lang=en", headers=key(ANN)).json()
    assert results["players"] == 3
    entries = results["entries"]
    assert len(entries) == 2  # an attempt not over does not count
    assert [e["rank"] for e in entries] == [1, 2] or entries[0]["total"] == entries[1]["total"]
    assert entries[0]["total"] >= entries[1]["total"]
    assert all(e["game_id"] is None for e in entries)  # not while the day is open
    assert all(e["points_lost"] >= 0 for e in entries)
    assert isinstance(results["par"], int) and results["par"] > 0
    me = results["me"]
    mine = next(e for e in entries if e["player"] == "Ann")
    assert me["total"] == mine["total"] and me["rank"] == mine["rank"] and me["of"] == 2
    assert me["share"].startswith(f"Yatzy {DAY}: {me['total']} · ")
    assert me["share"].endswith(f" from perfect · #{me['rank']} of 2")
    assert me["replay_url"].endswith(f"/games/{me['game_id']}/replay?lang=en")
    assert results["streak"] == 1
    swedish = client.get(f"/api/daily/yatzy/{DAY}?lang=sv", headers=key(ANN)).json()
    assert "från perfekt" in swedish["me"]["share"]
    waiting = client.get(f"/api/daily/yatzy/{DAY}", headers=key(CY)).json()["me"]
    assert waiting["game_id"] == unfinished["id"] and waiting["rank"] is None
    assert waiting["share"] is None and waiting["play_url"]
    # Finished after the day closed: the seed was known by then, so it does not count.
    clock.move(days=1)
    play_out(client, unfinished)
    assert len(client.get(f"/api/daily/yatzy/{DAY}").json()["entries"]) == 2


def test_optimal_play_scores_par(client: TestClient) -> None:
    """Par is what the optimal computer scores on the day's dice: an attempt that plays
    its every move loses nothing and scores par."""
    from yatzy.bots import make_bot

    created = start(client, ANN)
    game_id, token = created["id"], created["seats"][0]["token"]
    bot = make_bot("optimal")
    service = client.app.state.rooms.service  # type: ignore[attr-defined]
    while not service.load(game_id).game.is_over:
        action = bot.choose(service.load(game_id).game).to_dict()
        assert act(client, game_id, token, **action).status_code == 200
    results = client.get(f"/api/daily/yatzy/{DAY}").json()
    assert results["entries"][0]["total"] == results["par"]
    assert results["entries"][0]["points_lost"] == pytest.approx(0, abs=1e-6)


def test_names_and_profiles(client: TestClient, clock: Clock) -> None:
    assert client.get("/api/me", headers=key(ANN)).json()["name"] is None
    assert client.put("/api/me", json={"name": "Ann"}, headers=key(ANN)).json() == {"name": "Ann"}
    for taken in ("ann", "ANN", "Ａｎｎ"):
        response = client.put("/api/me", json={"name": taken}, headers=key(BO))
        assert response.status_code == 409 and response.json()["error"]["code"] == "name_taken"
    assert client.put("/api/me", json={"name": "ann"}, headers=key(ANN)).status_code == 200
    assert client.get("/api/players/ANN").json()["name"] == "ann"
    assert client.get("/api/me", headers=key(ANN)).json()["name"] == "ann"
    profile = client.get("/api/players/ann").json()
    assert profile == {"name": "ann", "rating": None, "rating_deviation": None, "games": 0,
                       "rated_games": 0, "provisional": True,
                       "points_lost_per_game": None, "streak": 0, "multi_rating": None,
                       "multi_rating_deviation": None, "multi_rated_games": 0,
                       "multi_provisional": True}
    for _ in range(3):
        play_out(client, start(client, ANN))
        clock.move(days=1)
    profile = client.get("/api/players/ann").json()
    assert profile["streak"] == 3 and profile["games"] == 3
    assert profile["points_lost_per_game"] >= 0
    clock.move(days=1)  # a day missed: the streak is over
    assert client.get("/api/players/ann").json()["streak"] == 0


@pytest.mark.parametrize(("name", "code"), [
    ("", "name_empty"), ("   ", "name_empty"), ("x" * 41, "name_too_long"),
    ("Ann\nBo", "name_control"), ("A\u0000", "name_control"), ("\u2028", "name_empty"),
    (" Ann", "name_spaces"),
])
def test_bad_names_change_nothing(client: TestClient, name: str, code: str) -> None:
    client.put("/api/me", json={"name": "Bo"}, headers=key(BO))
    response = client.put("/api/me", json={"name": name}, headers=key(BO))
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == code
    assert client.get("/api/players/Bo").json()["name"] == "Bo"


def test_bad_profile_requests(client: TestClient) -> None:
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/%0A").status_code == 404
    assert client.put("/api/me", json={"name": "Ann"}).status_code == 403
    assert client.put("/api/me", json={"name": 3}, headers=key(ANN)).status_code == 422
    assert client.put("/api/me", json={}, headers=key(ANN)).status_code == 422


def test_a_refused_second_attempt_uses_none_of_the_games_a_client_may_start(
        tmp_path: Path, clock: Clock) -> None:
    from yatzy.app.policy import TablePolicy

    app = create_app(open_service(tmp_path / "quota.sqlite3", clock=clock),
                     Settings(pace=0.0, rate=1000.0, burst=1000,
                              policy=TablePolicy(games_per_window=2)))
    with TestClient(app) as quota:
        start(quota, ANN)
        for _ in range(3):  # refused: the day's attempt is made
            assert quota.post("/api/daily/yatzy/play", headers=key(ANN)).status_code == 409
        start(quota, BO)  # the second game of the window, still allowed
        refused = quota.post("/api/daily/yahtzee/play", headers=key(ANN))
        assert refused.status_code == 429, refused.text  # the third is not
