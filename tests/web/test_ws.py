"""The websocket: two seats and a watcher see every change at once; a seat may act over
it; a watcher may not; a wrong token or an unknown game is refused."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import act, new_game

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def next_state(ws: Any) -> dict[str, Any]:
    """The next state message, skipping presence and computer messages."""
    for _ in range(20):
        message = ws.receive_json()
        if message["type"] == "state":
            state: dict[str, Any] = message["state"]
            return state
    raise AssertionError("no state message")


def test_two_seats_and_a_watcher(client: TestClient) -> None:
    created = new_game(client)
    game_id = created["id"]
    ann, bo = (s["token"] for s in created["seats"])
    with client.websocket_connect(f"/ws/games/{game_id}?token={ann}") as ws_ann, \
            client.websocket_connect(f"/ws/games/{game_id}?token={bo}&lang=sv") as ws_bo, \
            client.websocket_connect(f"/ws/games/{game_id}") as ws_watch:
        assert ws_ann.receive_json() == {"type": "welcome", "seat": "Ann"}
        assert next_state(ws_ann)["version"] == 1
        assert ws_bo.receive_json() == {"type": "welcome", "seat": "Bo"}
        assert next_state(ws_bo)["seats"][0]["connected"] is True
        assert ws_watch.receive_json() == {"type": "welcome", "seat": None}
        assert next_state(ws_watch)["current_player"] == "Ann"
        # Ann acts over HTTP: everyone hears of it.
        act(client, game_id, ann, type="roll")
        for ws in (ws_ann, ws_bo, ws_watch):
            state = next_state(ws)
            while state["version"] < 2:
                state = next_state(ws)
            assert state["version"] == 2 and state["dice"] is not None
        # Ann acts over the websocket.
        ws_ann.send_json({"type": "score", "box": "chance", "expected_version": 2})
        for ws in (ws_ann, ws_bo, ws_watch):
            state = next_state(ws)
            while state["version"] < 3:
                state = next_state(ws)
            assert state["current_player"] == "Bo"
        # Out of turn, over the websocket: an error for that socket only, in its language.
        ws_ann.send_json({"type": "roll"})
        assert ws_ann.receive_json()["error"]["code"] == "not_your_turn"
        ws_bo.send_json({"type": "score", "box": "chance"})
        reply = ws_bo.receive_json()
        assert reply["type"] == "error" and reply["error"]["code"] == "no_roll"
        assert reply["error"]["message"] == "Slå tärningarna först"
        # A watcher cannot act; nonsense is refused; a ping is answered.
        ws_watch.send_json({"type": "roll"})
        assert ws_watch.receive_json()["error"]["code"] == "forbidden"
        ws_bo.send_text("{nonsense")
        assert ws_bo.receive_json()["error"]["code"] == "invalid_request"
        ws_bo.send_json({"type": "ping"})
        assert ws_bo.receive_json() == {"type": "pong"}
    assert client.get(f"/api/games/{game_id}").json()["version"] == 3


def test_a_wrong_token_or_an_unknown_game_is_refused(client: TestClient) -> None:
    created = new_game(client)
    with client.websocket_connect(f"/ws/games/{created['id']}?token=not-a-seat") as ws:
        assert ws.receive_json()["error"]["code"] == "forbidden"
    with client.websocket_connect("/ws/games/nope") as ws:
        assert ws.receive_json()["error"]["code"] == "game_not_found"


def test_a_computer_shows_its_steps(client: TestClient) -> None:
    created = new_game(client, seats=[{"bot": "greedy"}, {"name": "Ann"}], options={"rolls": 2})
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        seen: list[str] = []
        for _ in range(40):
            message = ws.receive_json()
            if message["type"] == "state":
                seen.append((message["state"]["last"] or {}).get("type", "start"))
                if message["state"]["current_player"] == "Ann":
                    break
        assert seen[-1] == "score" and "roll" in seen
