"""A rated game's clock over the web: the state says when the person to move must have
decided; when the clock runs out the server gives the seat to a computer (it plays on,
the seat's own moves are refused) and every page is told."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import act
from tests.web.test_quickmatch import paired, token_of
from yatzy.bootstrap import open_service
from yatzy.web.app import Settings, create_app


@pytest.fixture
def quick(db: Path) -> Iterator[TestClient]:
    """A server whose rated games give two seconds a decision."""
    service = open_service(db, move_clock=timedelta(seconds=2))
    with TestClient(create_app(service, Settings(pace=0.0, rate=0.0))) as client:
        yield client


def seats_of(a: dict[str, Any], b: dict[str, Any], first: str) -> tuple[str, str]:
    """The tokens of the player to move and of the other."""
    return ((token_of(a["seat_url"]), token_of(b["seat_url"])) if first == "Ann"
            else (token_of(b["seat_url"]), token_of(a["seat_url"])))


def test_the_state_has_the_deadline_and_an_idle_seat_goes_to_the_computer(
        quick: TestClient) -> None:
    a, b = paired(quick)
    game = a["game"]
    state = quick.get(f"/api/games/{game}").json()
    first = state["current_player"]
    mover, other = seats_of(a, b, first)
    assert state["move_clock"] == 2.0
    deadline = datetime.fromisoformat(state["deadline"])
    assert timedelta(0) < deadline - datetime.now(deadline.tzinfo) <= timedelta(seconds=2)
    # A decision starts the clock again.
    state = act(quick, game, mover, type="roll", expected_version=state["version"]).json()
    assert datetime.fromisoformat(state["deadline"]) > deadline
    with quick.websocket_connect(f"/ws/games/{game}?token={other}") as socket:
        assert socket.receive_json()["type"] == "welcome"
        assert socket.receive_json()["state"]["deadline"] == state["deadline"]
        # No move: within the clock (and the server's look every few seconds at most)
        # the seat is the computer's, and the watcher is told.
        ended = time.monotonic() + 15
        while True:
            message = socket.receive_json()
            if message["type"] == "state" and message["state"]["seats"][
                    state["players"].index(first)]["idle"]:
                break
            assert time.monotonic() < ended, "the clock did not run out"
        idle = message["state"]["seats"][state["players"].index(first)]
        assert idle["bot"] == "medium" and idle["name"] == first
    refused = act(quick, game, mover, type="roll")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "seat_idle"
    # The computer played the idle seat's turn; the other person is to move, on a clock.
    ended = time.monotonic() + 15
    while (state := quick.get(f"/api/games/{game}").json())["current_player"] == first:
        assert time.monotonic() < ended
        time.sleep(0.05)
    assert state["deadline"] is not None and state["phase"] == "person"


def test_an_unrated_game_has_no_clock(quick: TestClient) -> None:
    created = quick.post("/api/games", json={"rules": "yatzy", "seats": [{"name": "Ann"}]})
    state = quick.get(f"/api/games/{created.json()['id']}").json()
    assert state["deadline"] is None and state["move_clock"] is None


def test_a_rated_table_has_the_clock_and_an_idle_seat_counts_last(db: Path) -> None:
    """A public table of three named players becomes rated when its last seat is taken:
    from then on its persons play on the move clock, and one who lets it run out has
    their seat played by a computer and ranks last for the ratings."""
    from tests.web.test_profiles import rated_table

    service = open_service(db, move_clock=timedelta(seconds=4))
    with TestClient(create_app(service, Settings(pace=0.0, rate=0.0))) as client:
        game_id, tokens = rated_table(client)
        state = client.get(f"/api/games/{game_id}").json()
        assert state["move_clock"] == 4.0 and state["deadline"] is not None
        # The lobby marks it rated.
        live = client.get("/api/lobby").json()["live"]
        assert [g["rated"] for g in live if g["id"] == game_id] == [True]
        first = state["current_player"]
        # The first player lets the clock run out: a computer takes their seat.
        ended = time.monotonic() + 20
        while not (state := client.get(f"/api/games/{game_id}").json())["seats"][
                state["players"].index(first)]["idle"]:
            assert time.monotonic() < ended, "the clock did not run out"
            time.sleep(0.1)
        refused = act(client, game_id, tokens[first], type="roll")
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "seat_idle"
        # The other two play on (quickly, within their clock); the computer plays the
        # idle seat's turns by itself.
        ended = time.monotonic() + 120
        while not state["is_over"]:
            assert time.monotonic() < ended, "the game did not end"
            if state["current_player"] == first or state["phase"] != "person":
                time.sleep(0.05)
                state = client.get(f"/api/games/{game_id}").json()
                continue
            token = tokens[state["current_player"]]
            state = act(client, game_id, token, type="roll").json()
            box = max(state["choices"], key=lambda b: (state["choices"][b], b))
            state = act(client, game_id, token, type="score", box=box).json()
        profile = client.get(f"/api/players/{first}/history").json()
        [point] = profile["history"]
        # Last among three, whatever the computer scored for them: their rating fell.
        assert point["kind"] == "openskill" and point["rating_after"] < point["rating_before"]


def test_a_public_table_of_unnamed_players_has_no_clock(quick: TestClient) -> None:
    created = quick.post("/api/games", json={
        "rules": "yatzy", "public": True,
        "seats": [{"name": "Ann"}, {"open": True}, {"open": True}]}).json()
    for name in ("Bo", "Cy"):
        assert quick.post(f"/api/games/{created['id']}/join",
                          json={"name": name}).status_code == 201
    state = quick.get(f"/api/games/{created['id']}").json()
    assert state["phase"] == "person" and state["deadline"] is None and state["move_clock"] is None
    live = quick.get("/api/lobby").json()["live"]
    assert [g["rated"] for g in live if g["id"] == created["id"]] == [False]
