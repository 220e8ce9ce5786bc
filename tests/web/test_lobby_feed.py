"""The lobby pushed (``/ws/lobby``): the lobby as it stands when the socket opens, then
again at each change (a table opened, a seat taken and the game begun, a game over),
the same as ``GET /api/lobby`` answers; from another process too (through the store's
change log); typed in the OpenAPI document."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from tests.web.test_lobby import join, lobby, public_table
from yatzy.app import Seat
from yatzy.bootstrap import open_service
from yatzy.core.rulesets import ruleset
from yatzy.web.app import Settings, create_app
from yatzy.web.schemas import LobbyServerMessage

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MESSAGES: TypeAdapter[Any] = TypeAdapter(LobbyServerMessage)


def received(socket: Any) -> dict[str, Any]:
    message: dict[str, Any] = socket.receive_json()
    assert MESSAGES.validate_python(message).model_dump(mode="json") == message
    return message


def test_the_lobby_is_sent_at_once_and_again_at_each_change(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby?lang=en") as socket:
        first = received(socket)
        assert first == {"type": "lobby", "lobby": lobby(client)}
        assert first["lobby"]["waiting"] == first["lobby"]["live"] == []
        # A table opened: listed as waiting, as the HTTP lobby lists it.
        table = public_table(client)
        opened = received(socket)["lobby"]
        assert [t["id"] for t in opened["waiting"]] == [table["id"]]
        assert opened == lobby(client)
        # A private game changes nothing: nothing is sent (the next message is a pong).
        client.post("/api/games", json={"rules": "yatzy", "seats": [{"name": "Cy"}]})
        socket.send_json({"type": "ping"})
        assert received(socket) == {"type": "pong"}
        # The last seat taken: the game begins, a game to watch.
        assert join(client, table["id"], "Bo").status_code == 201
        begun = received(socket)["lobby"]
        assert begun["waiting"] == [] and [g["id"] for g in begun["live"]] == [table["id"]]
        # The socket only sends.
        socket.send_text("roll")
        assert received(socket)["error"]["code"] == "read_only"
        # As a game's socket answers: a message past the size limit is too large, not a
        # rate limit; a binary frame is no message of this protocol and ends the socket.
        socket.send_text("x" * 5000)
        assert received(socket)["error"]["code"] == "too_large"
        socket.send_bytes(b"ping")
        assert received(socket)["error"]["code"] == "invalid_request"


def test_the_lobby_comes_in_the_socket_s_language(client: TestClient) -> None:
    public_table(client, rules="yahtzee")
    with client.websocket_connect("/ws/lobby?lang=sv") as socket:
        table = received(socket)["lobby"]["waiting"][0]
        assert table == client.get("/api/lobby?lang=sv").json()["waiting"][0]


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[tuple[TestClient, Any]]:
    """A server (following the store's change log) and another process's service."""
    db = tmp_path / "games.sqlite3"
    app = create_app(open_service(db, follow=True), Settings(pace=0.0, rate=0.0))
    with TestClient(app) as client, open_service(db, follow=True) as other:
        yield client, other


def test_a_table_opened_in_another_process_is_pushed_within_seconds(
        two_processes: tuple[TestClient, Any]) -> None:
    client, other = two_processes
    with client.websocket_connect("/ws/lobby") as socket:
        assert received(socket)["lobby"]["waiting"] == []
        started = time.monotonic()
        saved = other.create(ruleset("yatzy"), [Seat("Ann"), Seat("", open=True)],
                             public=True)
        pushed = received(socket)["lobby"]
        took = time.monotonic() - started
        assert [t["id"] for t in pushed["waiting"]] == [saved.id]
        # The change log is read every quarter of a second; the bound leaves room for a
        # busy machine (1.06 s was seen with three test workers on two cores) and still
        # fails a feed that only catches up now and then.
        assert took < 3.0, f"{took:.2f} s"
        # Finished or deleted elsewhere: gone.
        other.delete(saved.id)
        assert received(socket)["lobby"]["waiting"] == []


def test_the_openapi_document_types_the_lobby_socket(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"LobbyServerMessage", "LobbyMessage", "ServerMessage"} <= schemas.keys()
    kinds = {ref["$ref"].rsplit("/", 1)[1]
             for ref in schemas["LobbyServerMessage"]["oneOf"]}
    assert kinds == {"LobbyMessage", "ErrorMessage", "PongMessage"}


def test_pings_beyond_the_rate_limit_are_refused(db: Path) -> None:
    """The lobby socket's messages count against the client's rate limit (as the game
    socket's do): past the burst, a ping is answered with ``rate_limited``."""
    app = create_app(open_service(db), Settings(pace=0.0, rate=0.01, burst=3, prepare=()))
    with TestClient(app) as client, client.websocket_connect("/ws/lobby") as socket:
        assert received(socket)["type"] == "lobby"
        answers = []
        for _ in range(5):
            socket.send_json({"type": "ping"})
            answers.append(received(socket))
        assert answers[0] == {"type": "pong"}
        assert answers[-1]["type"] == "error"
        assert answers[-1]["error"]["code"] == "rate_limited"
