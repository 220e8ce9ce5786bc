"""The lobby's contract: a public table with open seats, listed while it waits; joining
it (by name or by the browser's display name), one person a seat; a full table leaves
"waiting" for "live"; private games are never listed; and nobody plays until every
seat is taken."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import act, new_game
from yatzy.web.schemas import GameState, Joined, LobbyOut

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

KEY_ANN = "a" * 22
KEY_BO = "b" * 22


def public_table(client: TestClient, open_seats: int = 1, **body: Any) -> dict[str, Any]:
    body.setdefault("seats", [{"name": "Ann"}] + [{"open": True}] * open_seats)
    return new_game(client, public=True, **body)


def lobby(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/lobby")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    assert LobbyOut.model_validate(answer).model_dump(mode="json") == answer
    return answer


def join(client: TestClient, game_id: str, name: str | None = None,
         key: str | None = None) -> Any:
    headers = {"X-Player-Key": key} if key else {}
    return client.post(f"/api/games/{game_id}/join", headers=headers,
                       json={} if name is None else {"name": name})


def test_a_public_table_is_listed_with_its_free_seats(client: TestClient) -> None:
    created = public_table(client, 2, rules="yahtzee", options={"joker": "free"})
    assert [s["name"] for s in created["seats"]] == ["Ann"]  # open seats have no token
    waiting = lobby(client)["waiting"]
    assert [t["id"] for t in waiting] == [created["id"]]
    table = waiting[0]
    assert table["rules"]["name"] == "yahtzee" and table["rules"]["options"]["joker"] == "free"
    assert (table["taken"], table["free"]) == (1, 2)
    assert table["seats"] == [{"name": "Ann", "bot": None, "open": False},
                              {"name": None, "bot": None, "open": True},
                              {"name": None, "bot": None, "open": True}]
    assert table["watch_url"].endswith(f"/games/{created['id']}")
    assert lobby(client)["live"] == []


def test_a_private_game_is_never_listed_nor_joined(client: TestClient) -> None:
    private = new_game(client)
    answer = lobby(client)
    assert answer == {"waiting": [], "live": [], "wait_minutes": 30}
    refused = join(client, private["id"], "Cy")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_public"
    assert client.get(f"/api/games/{private['id']}").json()["players"] == ["Ann", "Bo"]
    missing = join(client, "0" * 32, "Cy")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "game_not_found"


def test_open_seats_need_a_public_table_with_the_programs_dice(client: TestClient) -> None:
    for body, code in [
        ({"seats": [{"name": "Ann"}, {"open": True}]}, "open_seats_private"),
        ({"public": True, "seats": [{"name": "Ann"}, {"open": True, "name": "Bo"}]},
         "open_seat"),
        ({"public": True, "seats": [{"name": "Ann"}, {"open": True, "bot": "greedy"}]},
         "open_seat"),
        ({"public": True, "dice": "manual", "seats": [{"name": "Ann"}, {"open": True}]},
         "public_dice"),
    ]:
        response = client.post("/api/games", json={"rules": "yatzy", **body})
        assert response.status_code == 422, body
        assert response.json()["error"]["code"] == code
    assert lobby(client)["waiting"] == []


def test_joining_takes_the_seats_in_order_and_the_last_one_once(client: TestClient) -> None:
    created = public_table(client, 2)
    game_id = created["id"]
    first = join(client, game_id, "Bo")
    assert first.status_code == 201, first.text
    answer = first.json()
    assert Joined.model_validate(answer).model_dump(mode="json") == answer
    assert answer["seat"]["name"] == "Bo" and answer["open_seats"] == 1
    assert answer["seat"]["url"].endswith(f"/games/{game_id}#token={answer['seat']['token']}")
    assert lobby(client)["waiting"][0]["free"] == 1

    last = join(client, game_id, "Cy")
    assert last.status_code == 201 and last.json()["open_seats"] == 0
    again = join(client, game_id, "Di")
    assert again.status_code == 409 and again.json()["error"]["code"] == "table_full"

    state = client.get(f"/api/games/{game_id}").json()
    assert state["players"] == ["Ann", "Bo", "Cy"]
    assert state["phase"] == "person" and state["can_roll"] is True
    assert [s["open"] for s in state["seats"]] == [False, False, False]
    # The table left "waiting" for "live", with who plays and the round.
    listed = lobby(client)
    assert listed["waiting"] == []
    assert [(g["id"], g["players"], g["round"]) for g in listed["live"]] == [
        (game_id, ["Ann", "Bo", "Cy"], 1)]
    # Each seat's token plays that seat, the creator's too.
    assert act(client, game_id, created["seats"][0]["token"], type="roll").status_code == 200
    bo = answer["seat"]["token"]
    assert act(client, game_id, bo, type="roll").status_code == 422  # not Bo's turn


def test_nobody_plays_while_a_seat_is_open(client: TestClient) -> None:
    created = public_table(client, 1, seats=[{"bot": "greedy"}, {"name": "Ann"},
                                             {"open": True}])
    game_id = created["id"]
    state = client.get(f"/api/games/{game_id}").json()
    assert GameState.model_validate(state).model_dump(mode="json") == state
    assert state["phase"] == "waiting" and state["can_roll"] is False
    assert state["steps"] == 0  # the computer to start waits too
    assert state["names"][state["players"][2]] == "Open seat"
    ann = created["seats"][0]["token"]
    client.post(f"/api/games/{game_id}/actions", json={"type": "roll"})
    refused = act(client, game_id, ann, type="roll")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "table_waiting"
    time.sleep(0.3)  # a computer at pace 0 would have played by now
    after = client.get(f"/api/games/{game_id}").json()
    assert after["version"] == state["version"] and after["steps"] == 0
    assert join(client, game_id, "Bo").status_code == 201
    # Full: the computer, first in seat order, plays its turn, and then it is Ann's.
    deadline = time.monotonic() + 30
    while state["current_player"] != "Ann" and time.monotonic() < deadline:
        time.sleep(0.01)
        state = client.get(f"/api/games/{game_id}").json()
    assert state["current_player"] == "Ann" and state["steps"] > 0


def test_a_name_at_the_table_is_refused_and_changes_nothing(client: TestClient) -> None:
    created = public_table(client, 2)
    game_id = created["id"]
    version = client.get(f"/api/games/{game_id}").json()["version"]
    for name in ["Ann", "ANN", "Ａnn"]:
        refused = join(client, game_id, name)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "name_at_table"
    bad = join(client, game_id, " Bo")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "name_spaces"
    after = client.get(f"/api/games/{game_id}").json()
    assert after["version"] == version and lobby(client)["waiting"][0]["free"] == 2
    # A joiner may take the stand-in name of another open seat: it moves aside.
    assert join(client, game_id, "Open seat 3").status_code == 201
    state = client.get(f"/api/games/{game_id}").json()
    assert state["players"][1] == "Open seat 3" and state["seats"][2]["open"] is True
    assert state["names"][state["players"][2]] == "Open seat"


def test_joining_by_the_browsers_display_name(client: TestClient) -> None:
    game_id = public_table(client, 1)["id"]
    nameless = join(client, game_id, key=KEY_BO)
    assert nameless.status_code == 422 and nameless.json()["error"]["code"] == "name_needed"
    assert client.put("/api/me", json={"name": "Bo"}, headers={"X-Player-Key": KEY_BO}
                      ).status_code == 200
    assert client.put("/api/me", json={"name": "Cy"}, headers={"X-Player-Key": KEY_ANN}
                      ).status_code == 200
    # Another player's display name is not for the taking.
    taken = join(client, game_id, "cy", key=KEY_BO)
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
    joined = join(client, game_id, key=KEY_BO)
    assert joined.status_code == 201 and joined.json()["seat"]["name"] == "Bo"
    mine = client.get("/api/me", headers={"X-Player-Key": KEY_BO}).json()
    assert [g["id"] for g in mine["games"]] == [game_id]  # claimed for "my games"
    assert mine["games"][0]["names"] == ["Ann", "Bo"]


def test_my_games_show_an_open_seat_as_one(client: TestClient) -> None:
    created = public_table(client, 1)
    seat = created["seats"][0]
    client.post(f"/api/games/{created['id']}/claim", headers={
        "X-Player-Key": KEY_ANN, "Authorization": f"Bearer {seat['token']}"})
    mine = client.get("/api/me", headers={"X-Player-Key": KEY_ANN}).json()
    assert mine["games"][0]["names"] == ["Ann", "Open seat"]


def test_finished_games_leave_the_lobby(client: TestClient) -> None:
    created = public_table(client, 1, rules="yatzy", options={"rolls": 1})
    game_id = created["id"]
    bo = join(client, game_id, "Bo").json()["seat"]["token"]
    tokens = [created["seats"][0]["token"], bo]
    boxes = client.get(f"/api/games/{game_id}").json()["boxes"]
    for box in boxes:
        for token in tokens:
            assert act(client, game_id, token, type="roll").status_code == 200
            assert act(client, game_id, token, type="score", box=box).status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["is_over"] is True
    assert lobby(client) == {"waiting": [], "live": [], "wait_minutes": 30}


def test_a_table_nobody_joins_for_half_an_hour_closes(client: TestClient) -> None:
    from yatzy.app import service as service_module

    game_id = public_table(client, 1)["id"]
    service = client.app.state.rooms.service  # type: ignore[attr-defined]
    later = service._clock() + service_module.TABLE_WAIT + timedelta(seconds=1)
    service._clock = lambda: later
    assert lobby(client)["waiting"] == []
    closed = join(client, game_id, "Bo")
    assert closed.status_code == 409 and closed.json()["error"]["code"] == "table_expired"


def test_the_newest_tables_first_and_no_more_than_the_bound(client: TestClient) -> None:
    from yatzy.app import service as service_module

    ids = [public_table(client, 1)["id"] for _ in range(3)]
    assert [t["id"] for t in lobby(client)["waiting"]] == ids[::-1]
    service = client.app.state.rooms.service  # type: ignore[attr-defined]
    waiting, live = service.lobby(2)
    assert [g.id for g in waiting] == ids[:0:-1] and live == []
    assert service_module.LOBBY_SIZE == 20


def test_a_seat_taken_counts_toward_the_clients_games(db: object) -> None:
    from yatzy.app.policy import TablePolicy
    from yatzy.bootstrap import open_service
    from yatzy.web.app import Settings, create_app

    settings = Settings(pace=0.0, rate=1000.0, policy=TablePolicy(games_per_window=2))
    with TestClient(create_app(open_service(db), settings)) as limited:  # type: ignore[arg-type]
        game_id = public_table(limited, 2)["id"]  # one game
        assert join(limited, game_id, "Bo").status_code == 201  # two
        refused = join(limited, game_id, "Cy")
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_games"
        assert limited.get(f"/api/games/{game_id}").json()["seats"][2]["open"] is True
