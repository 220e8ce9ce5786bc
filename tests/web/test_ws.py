"""The websocket: two seats and a watcher see every change at once; it only sends
(actions go over HTTP); a wrong token or an unknown game is refused; a connection that
falls behind is dropped without holding anyone up."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import yatzy
from tests.web.conftest import act, new_game
from yatzy.app import Seat
from yatzy.bootstrap import open_service
from yatzy.web.rooms import QUEUE, Listener, Rooms

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
        act(client, game_id, ann, type="score", box="chance", expected_version=2)
        for ws in (ws_ann, ws_bo, ws_watch):
            state = next_state(ws)
            while state["version"] < 3:
                state = next_state(ws)
            assert state["current_player"] == "Bo"
        # An action over the websocket: refused for that socket only, in its language;
        # the one write path is HTTP.
        ws_bo.send_json({"type": "roll"})
        reply = ws_bo.receive_json()
        assert reply["type"] == "error" and reply["error"]["code"] == "read_only"
        assert reply["error"]["message"].startswith("Den här anslutningen skickar bara")
        # A watcher cannot act; nonsense is refused; a ping is answered.
        ws_watch.send_json({"type": "roll"})
        assert ws_watch.receive_json()["error"]["code"] == "forbidden"
        ws_bo.send_text("{nonsense")
        assert ws_bo.receive_json()["error"]["code"] == "read_only"
        ws_bo.send_text("[" * 3000)  # deep, under the size limit: an answer, not a drop
        assert ws_bo.receive_json()["error"]["code"] == "read_only"
        ws_bo.send_json({"type": "ping"})
        assert ws_bo.receive_json() == {"type": "pong"}
    assert client.get(f"/api/games/{game_id}").json()["version"] == 3


def test_a_binary_frame_gets_an_error_and_a_close(client: TestClient) -> None:
    created = new_game(client)
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        assert ws.receive_json()["type"] == "welcome"
        next_state(ws)
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["error"]["code"] == "invalid_request"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


@pytest.mark.asyncio
async def test_a_connection_that_never_reads_holds_up_nobody(db: Path) -> None:
    """A watcher whose messages never go out (a phone asleep with its socket open) is
    dropped once its queue is full; actions and the other connections go on."""
    service = open_service(db)
    rooms = Rooms(service, pace=0)
    rooms.start()
    try:
        saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann"), Seat("Bo")], seed=1)
        room = await rooms.get(saved.id)
        stuck, heard = asyncio.Event(), []

        async def never(text: str) -> None:
            await stuck.wait()  # never set: the send never finishes

        async def reads(text: str) -> None:
            heard.append(text)

        sleeper = Listener(never, None, "en")
        sleeper.writer = asyncio.create_task(sleeper.pump())
        reader = Listener(reads, None, "en")
        reader.writer = asyncio.create_task(reader.pump())
        release = [await rooms.join(room, sleeper), await rooms.join(room, reader)]
        for _ in range(QUEUE + 5):  # more changes than a queue holds
            game = room.session.game
            action = (yatzy.Roll() if game.dice is None
                      else yatzy.Reroll((0,)) if game.rolls_left
                      else yatzy.Score(next(iter(game.choices()))))
            await asyncio.wait_for(room.session.act(action), 5)
        await asyncio.sleep(0.05)
        assert sleeper.dropped and sleeper not in room.listeners
        assert reader in room.listeners and not reader.dropped
        assert json.loads(heard[-1])["state"]["version"] == room.saved.version
        for done in release:
            done()
        reader.drop()
    finally:
        await rooms.close()
        service.close()


@pytest.mark.asyncio
async def test_a_connection_leaving_while_a_game_is_opened_does_not_drop_its_session(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page reloaded: its old socket leaves while the new one's opening asks the store
    for the game's version. The session is in use meanwhile, so the old socket's leaving
    does not drop it, and the new socket joins the session the moves reach (before the
    fix it joined a dropped one, whose moves nobody heard)."""
    service = open_service(db)
    rooms = Rooms(service, pace=0)
    rooms.start()
    try:
        saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann"), Seat("Bo")], seed=1)
        room = await rooms.get(saved.id)
        old = Listener(lambda text: asyncio.sleep(0), None, "en")
        leave = await rooms.join(room, old)
        asking, answer = asyncio.Event(), asyncio.Event()
        session = room.session
        refresh = session.refresh

        async def slow_refresh(*args: Any, **kwargs: Any) -> bool:
            asking.set()
            await answer.wait()  # the store's answer comes after the old socket left
            return await refresh(*args, **kwargs)

        monkeypatch.setattr(session, "refresh", slow_refresh)
        opening = asyncio.create_task(rooms.current(saved.id))
        await asyncio.wait_for(asking.wait(), 5)
        leave()  # the old socket leaves in the window
        old.drop()
        answer.set()
        reopened = await asyncio.wait_for(opening, 5)
        assert reopened.session is session
        assert saved.id in rooms.sessions
        assert (await rooms.get(saved.id)).session is session
    finally:
        await rooms.close()
        service.close()


def test_a_wrong_token_or_an_unknown_game_is_refused(client: TestClient) -> None:
    created = new_game(client)
    with client.websocket_connect(f"/ws/games/{created['id']}?token=not-a-seat") as ws:
        assert ws.receive_json()["error"]["code"] == "forbidden"
    with client.websocket_connect("/ws/games/nope") as ws:
        assert ws.receive_json()["error"]["code"] == "game_not_found"


def test_a_database_gone_closes_a_new_socket_to_try_again(client: TestClient,
                                                          db: Path) -> None:
    created = new_game(client)
    db.unlink()
    for path in (f"/ws/games/{created['id']}x", "/ws/games/nope"):
        with client.websocket_connect(path) as ws:
            assert ws.receive_json()["error"]["code"] == "storage"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1013


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


def test_a_new_connection_while_a_request_acts_sees_the_computer_play(
        client: TestClient, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann scores over HTTP while her only websocket closes and a new one opens: the game
    keeps one session (one player of the computer), and the new socket sees the
    computer's whole turn, every time."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from yatzy.app.service import GameService

    real_apply = GameService.apply

    def slow_score(self: GameService, game_id: str, action: Any, **kwargs: Any) -> Any:
        if isinstance(action, yatzy.Score) and kwargs.get("player") == "Ann":
            time.sleep(0.3)  # the sockets change while Ann's score is stored
        return real_apply(self, game_id, action, **kwargs)

    monkeypatch.setattr(GameService, "apply", slow_score)

    created = new_game(client, seats=[{"name": "Ann"}, {"bot": "greedy"}])
    game_id, ann = created["id"], created["seats"][0]["token"]
    url = f"/ws/games/{game_id}?token={ann}"
    boxes = iter(["chance", "ones", "twos", "threes", "fours", "fives", "sixes", "yatzy"])
    with ThreadPoolExecutor(2) as pool:
        for box in boxes:
            version = act(client, game_id, ann, type="roll").json()["version"]
            with client.websocket_connect(url) as old:
                assert old.receive_json()["type"] == "welcome"
                scoring = pool.submit(act, client, game_id, ann, type="score", box=box,
                                      expected_version=version)
            with client.websocket_connect(url) as new:  # at once, while it may act
                assert scoring.result(timeout=10).status_code == 200
                assert new.receive_json()["type"] == "welcome"
                state = next_state(new)
                for _ in range(60):  # the computer's steps, then Ann's turn
                    if state["current_player"] == "Ann" and state["version"] > version + 1:
                        break
                    state = next_state(new)
                assert state["current_player"] == "Ann", state["phase"]
    assert "A computer's turn failed" not in caplog.text
    final = client.get(f"/api/games/{game_id}").json()
    cpu = next(name for name in final["players"] if name != "Ann")
    assert sum(v is not None for k, v in final["scorecards"][cpu].items()
               if k in final["boxes"]) == 8
