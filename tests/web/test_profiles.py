"""Profiles and leaderboards over HTTP: a public table of three named players becomes
rated and counts for their OpenSkill ratings once it is over, the profile's history
(ratings, games, bests, accuracy worked out in the background), the leaderboards by
rating, accuracy and daily challenge, bad parameters answered in the JSON error shape,
the contract in /openapi.json, and the pages."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import act, bearer
from yatzy.bootstrap import open_service
from yatzy.web.app import Settings, create_app

KEYS = {name: f"{name.lower()}-player-key-0123456789" for name in ("Ann", "Bo", "Cy")}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(open_service(tmp_path / "games.sqlite3"), Settings(pace=0.0, rate=0.0))
    with TestClient(app) as test_client:
        yield test_client


def rated_table(client: TestClient) -> tuple[str, dict[str, str]]:
    """Ann opens a public table of three; Bo and Cy join from the lobby under their
    display names. The game's id and each seat's token."""
    for name, key in KEYS.items():
        assert client.put("/api/me", json={"name": name},
                          headers={"X-Player-Key": key}).status_code == 200
    created = client.post("/api/games", json={
        "rules": "yatzy", "public": True,
        "seats": [{"name": "Ann"}, {"open": True}, {"open": True}]}).json()
    game_id = created["id"]
    tokens = {"Ann": created["seats"][0]["token"]}
    claimed = client.post(f"/api/games/{game_id}/claim",
                          headers=bearer(tokens["Ann"]) | {"X-Player-Key": KEYS["Ann"]})
    assert claimed.status_code == 204
    for name in ("Bo", "Cy"):
        joined = client.post(f"/api/games/{game_id}/join", headers={"X-Player-Key": KEYS[name]})
        assert joined.status_code == 201, joined.text
        tokens[name] = joined.json()["seat"]["token"]
    return game_id, tokens


def play_out(client: TestClient, game_id: str, tokens: dict[str, str]) -> dict[str, Any]:
    state = client.get(f"/api/games/{game_id}").json()
    while not state["is_over"]:
        token = tokens[state["current_player"]]
        state = act(client, game_id, token, type="roll").json()
        box = max(state["choices"], key=lambda b: (state["choices"][b], b))
        state = act(client, game_id, token, type="score", box=box).json()
    return state


def wait_for_accuracy(client: TestClient, name: str) -> dict[str, Any]:
    """The profile once the background has analysed the game (a few seconds at most)."""
    deadline = time.monotonic() + 60
    while True:
        found: dict[str, Any] = client.get(f"/api/players/{name}/history").json()
        if found["accuracy"] or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def test_a_rated_table_on_the_profiles_and_leaderboards(client: TestClient) -> None:
    game_id, tokens = rated_table(client)
    state = play_out(client, game_id, tokens)
    totals = {p["player"]: p["total"] for p in state["ranking"]}
    for name in KEYS:
        profile = client.get(f"/api/players/{name}").json()
        assert profile["multi_rated_games"] == 1 and profile["multi_provisional"]
        assert profile["rated_games"] == 0 and profile["rating"] is None
    best = max(totals, key=lambda n: totals[n])
    if sorted(totals.values())[-1] > sorted(totals.values())[-2]:
        assert client.get(f"/api/players/{best}").json()["multi_rating"] > 25

    found = wait_for_accuracy(client, "Ann")
    assert found["name"] == "Ann"
    assert [r["kind"] for r in found["ratings"]] == ["glicko", "openskill"]
    multi = found["ratings"][1]
    assert multi["games"] == 1 and multi["provisional"] and multi["deviation"] < 25 / 3
    [point] = found["history"]
    assert point["game_id"] == game_id and point["kind"] == "openskill"
    assert point["rating_before"] == 25 and point["rating_after"] == pytest.approx(
        multi["rating"], abs=0.01)
    [game] = found["games"]
    assert game["game_id"] == game_id and game["players"] == 3
    assert game["total"] == totals["Ann"] and game["replay_url"].endswith(
        f"/games/{game_id}/replay?lang=en")
    assert found["bests"][0]["best"] == totals["Ann"]
    [accuracy] = found["accuracy"]
    assert accuracy["game_id"] == game_id and accuracy["points_lost"] >= 0
    assert found["points_lost_recent"] == accuracy["points_lost"]
    assert found["daily"] == {"streak": 0, "days": []}

    board = client.get("/api/leaderboards?by=rating&kind=openskill").json()
    assert board["by"] == "rating" and board["kind"] == "openskill"
    assert sorted(r["name"] for r in board["rows"]) == ["Ann", "Bo", "Cy"]
    assert [r["rank"] for r in board["rows"]] == [1, 2, 3]
    assert board["rows"][0]["profile_url"].endswith(f"/players/{board['rows'][0]['name']}?lang=en")
    assert client.get("/api/leaderboards?by=rating").json()["rows"] == []
    accuracy_board = client.get("/api/leaderboards?by=accuracy&rules=yatzy").json()
    assert accuracy_board["rows"] == [] and accuracy_board["min_games"] == 5
    daily = client.get("/api/leaderboards?by=daily&rules=yatzy").json()
    assert daily["rows"] == [] and daily["date"] is not None
    # The best totals, as before, without ``by``.
    boards = client.get("/api/leaderboards").json()
    assert isinstance(boards, list) and boards[0]["entries"][0]["total"] == max(totals.values())


@pytest.mark.parametrize("query", [
    "by=speed", "by=rating&kind=elo", "by=rating&rules=yatzy", "by=accuracy&rules=chess",
    "by=daily&date=2026-13-01", "by=daily&date=2999-01-01", "by=rating&limit=0",
    "by=rating&limit=x", "by=" + "x" * 40, "kind=glicko",
])
def test_bad_leaderboards_are_refused_in_the_json_error_shape(client: TestClient,
                                                              query: str) -> None:
    response = client.get(f"/api/leaderboards?{query}")
    assert response.status_code in (400, 404, 422), response.text
    error = response.json()["error"]
    assert set(error) == {"code", "message"} and error["message"]


def test_unknown_players(client: TestClient) -> None:
    for name in ("Nobody", "x" * 41, "%20"):
        response = client.get(f"/api/players/{name}/history")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "player_not_found"


def test_the_contract_and_the_pages(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert {"HistoryOut", "LeaderboardOut", "BestBoardOut"} <= set(schema["components"]["schemas"])
    assert "/api/players/{name}/history" in schema["paths"]
    params = {p["name"] for p in schema["paths"]["/api/leaderboards"]["get"]["parameters"]}
    assert {"by", "kind", "rules", "date", "limit"} <= params
    page = client.get("/players/Ann?lang=sv")
    assert page.status_code == 200 and "/static/profile.js" in page.text
    assert "Ratinghistorik" in page.text and "Precision" in page.text  # in Swedish
    boards = client.get("/leaderboards?lang=en")
    assert boards.status_code == 200 and "/static/leaderboards.js" in boards.text
    assert 'href="/leaderboards?lang=en"' in boards.text  # in the header of every page


def test_a_profile_link_holds_any_name(client: TestClient) -> None:
    key = {"X-Player-Key": "odd-name-player-key-0123456789"}
    assert client.put("/api/me", json={"name": "Ann & Bo?#"}, headers=key).status_code == 200
    for _ in range(3):
        created = client.post("/api/games", json={"rules": "yatzy", "seats": [
            {"name": "Ann & Bo?#"}]}).json()
        token = created["seats"][0]["token"]
        client.post(f"/api/games/{created['id']}/claim", headers=bearer(token) | key)
        play_out(client, created["id"], {"Ann & Bo?#": token})
    daily = client.post("/api/daily/yatzy/play", headers=key).json()
    play_out(client, daily["id"], {"Ann & Bo?#": daily["seats"][0]["token"]})
    [row] = client.get("/api/leaderboards?by=daily").json()["rows"]
    assert row["profile_url"].endswith("/players/Ann%20%26%20Bo%3F%23?lang=en")
    page = client.get(row["profile_url"])
    assert page.status_code == 200 and "Ann &amp; Bo?#" in page.text
    found = client.get("/api/players/Ann%20%26%20Bo%3F%23/history").json()
    assert found["name"] == "Ann & Bo?#" and len(found["games"]) == 4
