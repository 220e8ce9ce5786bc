"""History over the API: a browser claims its seat with its player key; "my games", "my
best", the leaderboards and a game's replay step by step."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import act, bearer, new_game

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
KEY = "browser-key-0123456789abc"


def finish(client: TestClient, game_id: str, token: str) -> dict[str, object]:
    state = client.get(f"/api/games/{game_id}").json()
    while not state["is_over"]:
        act(client, game_id, token, type="roll")
        state = act(client, game_id, token, type="score",
                    box=next(iter(client.get(f"/api/games/{game_id}").json()["choices"]))).json()
    return state


def test_my_games_my_best_and_the_leaderboard(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ann"}], options={"rolls": 1})
    game_id, token = created["id"], created["seats"][0]["token"]
    headers = {**bearer(token), "X-Player-Key": KEY}
    assert client.post(f"/api/games/{game_id}/claim", headers=headers).status_code == 204
    assert client.post(f"/api/games/{game_id}/claim",
                       headers=bearer(token)).status_code == 403  # no key
    assert client.post(f"/api/games/{game_id}/claim",
                       headers={"X-Player-Key": KEY}).status_code == 403  # no seat
    bad = client.post(f"/api/games/{game_id}/claim", headers={**bearer(token),
                                                               "X-Player-Key": "short"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_player_key"
    mine = client.get("/api/me", headers={"X-Player-Key": KEY}).json()
    assert [g["id"] for g in mine["games"]] == [game_id] and not mine["games"][0]["is_over"]
    state = finish(client, game_id, token)
    total = state["scorecards"]["Ann"]["total"]  # type: ignore[index]
    mine = client.get("/api/me?lang=da", headers={"X-Player-Key": KEY}).json()
    assert mine["games"][0]["is_over"] and mine["games"][0]["total"] == total
    assert mine["bests"] == [{"rules": {"name": "yatzy", "options": {"order": "free",
                                                                     "rolls": 1}},
                              "title": mine["bests"][0]["title"], "best": total, "games": 1}]
    assert client.get("/api/me", headers={"X-Player-Key": "k" * 40}).json() == {
        "name": None, "games": [], "bests": []}
    boards = client.get("/api/leaderboards").json()
    assert boards[0]["entries"][0]["player"] == "Ann"
    assert boards[0]["entries"][0]["total"] == total


def test_replay_step_by_step(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ann"}, {"name": "Bo"}])
    game_id = created["id"]
    ann, bo = (s["token"] for s in created["seats"])
    act(client, game_id, ann, type="roll")
    act(client, game_id, ann, type="reroll", hold=[0])
    act(client, game_id, ann, type="score", box="chance")
    act(client, game_id, bo, type="roll")
    start = client.get(f"/api/games/{game_id}/replay").json()
    assert start["replay"] == {"step": 0, "steps": 4} and start["dice"] is None
    second = client.get(f"/api/games/{game_id}/replay?step=2").json()
    now = client.get(f"/api/games/{game_id}").json()
    assert second["rolls_left"] == 1 and second["current_player"] == "Ann"
    third = client.get(f"/api/games/{game_id}/replay?step=3").json()
    assert third["scorecards"]["Ann"]["chance"] == now["scorecards"]["Ann"]["chance"]
    end = client.get(f"/api/games/{game_id}/replay?step=99").json()
    assert end["replay"]["step"] == 4 and end["dice"] == now["dice"]
    assert client.get(f"/api/games/{game_id}/replay?step=-1").status_code == 422
    page = client.get(f"/games/{game_id}/replay")
    assert page.status_code == 200 and 'data-replay="1"' in page.text
    assert client.get("/history").status_code == 200
