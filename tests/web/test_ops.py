"""What an operator's tools ask: ``/healthz`` (alive, asks nothing), ``/readyz`` (the
database answers; 503 with ``Retry-After`` when it does not, and ready again when it
comes back; ready but ``degraded`` while Redis does not answer), ``/metrics``
(Prometheus), and the JSON log lines with request ids that never hold a seat token or a
secret."""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from tests.services import postgres_admin_sql, postgres_database
from tests.web.conftest import act, bearer, new_game
from tests.web.server import free_port, start
from yatzy.app.access import token_hash
from yatzy.bootstrap import open_service
from yatzy.web.app import Settings, create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_healthz_answers_get_and_head_and_asks_nothing_of_the_database(
        client: TestClient, db: Path) -> None:
    for method in ("GET", "HEAD"):
        response = client.request(method, "/healthz")
        assert response.status_code == 200
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ok", "checks": {"database": "ok"}}
    assert client.head("/readyz").status_code == 200
    # The games table goes away (another program renames it): not ready, but alive.
    with sqlite3.connect(db) as other:
        other.execute("ALTER TABLE games RENAME TO games_away")
    try:
        assert client.get("/healthz").status_code == 200
        response = client.get("/readyz?lang=sv")
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "5"
        assert response.json() == {"error": {
            "code": "not_ready", "message": "Inte redo: speldatabasen svarar inte"}}
        assert client.head("/readyz").status_code == 503
    finally:
        with sqlite3.connect(db) as other:
            other.execute("ALTER TABLE games_away RENAME TO games")
    assert client.get("/readyz").status_code == 200


def test_readyz_says_503_while_postgresql_refuses_and_ready_when_it_is_back(
        tmp_path: Path) -> None:
    with postgres_database() as url:
        name = url.rsplit("/", 1)[1]
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        process = start(url, port, log=tmp_path / "server.log")
        try:
            assert httpx.get(f"{base}/readyz").json()["checks"] == {"database": "ok"}
            postgres_admin_sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            postgres_admin_sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               f"WHERE datname = '{name}'")
            response = httpx.get(f"{base}/readyz", timeout=10)
            assert response.status_code == 503, response.text
            assert response.headers["Retry-After"] == "5"
            assert response.json()["error"]["code"] == "not_ready"
            assert httpx.get(f"{base}/healthz").status_code == 200  # alive all the same
            postgres_admin_sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            deadline = time.monotonic() + 10
            while httpx.get(f"{base}/readyz", timeout=10).status_code != 200:
                assert time.monotonic() < deadline, "not ready again within 10 s"
                time.sleep(0.1)
        finally:
            process.kill()
            process.wait(timeout=10)


def test_readyz_gives_the_database_and_redis_a_budget_each(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Redis answering too slowly must not make the database look down: each check has
    its own budget, asked at the same time (one budget for both said 503, not ready)."""
    from yatzy.web import ops

    monkeypatch.setattr(ops, "READY_TIMEOUT", 0.5)
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        url = f"redis://127.0.0.1:{bound.getsockname()[1]}/0"
        service = open_service(tmp_path / "g.sqlite3", follow=True, redis=url)
        slow_database = threading.Event()

        def database_ready() -> bool:
            if slow_database.is_set():
                time.sleep(2)
            return True

        def feed_reachable() -> dict[str, bool]:
            time.sleep(2)  # past the budget
            return {"redis": True}

        monkeypatch.setattr(service, "database_ready", database_ready)
        monkeypatch.setattr(service, "feed_reachable", feed_reachable)
        with TestClient(create_app(service, Settings(pace=0, prepare=()))) as client:
            began = time.monotonic()
            ready = client.get("/readyz")
            assert ready.status_code == 200, ready.text
            assert ready.json() == {"status": "degraded",
                                    "checks": {"database": "ok", "redis": "down"}}
            assert time.monotonic() - began < 1.5  # both within the one budget of 0.5 s
            slow_database.set()
            assert client.get("/readyz").status_code == 503  # the database too slow


def test_readyz_is_ready_but_degraded_while_redis_does_not_answer(tmp_path: Path) -> None:
    """Redis away, the database there: the server serves (changes through the database,
    limits in memory), so it stays ready (200) and says Redis is down in the body."""
    with socket.socket() as bound:  # a port nobody listens on
        bound.bind(("127.0.0.1", 0))
        url = f"redis://127.0.0.1:{bound.getsockname()[1]}/0"
        service = open_service(tmp_path / "g.sqlite3", follow=True, redis=url)
        with TestClient(create_app(service, Settings(pace=0, prepare=()))) as client:
            ready = client.get("/readyz")
            assert ready.status_code == 200, ready.text
            assert ready.json() == {"status": "degraded",
                                    "checks": {"database": "ok", "redis": "down"}}
            assert client.head("/readyz").status_code == 200
            created = client.post("/api/games", json={
                "rules": "yatzy", "seats": [{"name": "Ann"}, {"name": "Bo"}]})
            assert created.status_code == 201  # it serves indeed


def samples(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, labels) -> value."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    found = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_metrics_count_actions_websockets_games_computers_and_errors(
        client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ann"}, {"bot": "greedy"}])
    game_id, token = created["id"], created["seats"][0]["token"]
    with client.websocket_connect(f"/ws/games/{game_id}") as watcher:
        watcher.receive_json()
        found = samples(client)
        assert found[("yatzy_websockets_open", ())] == 1
        assert found[("yatzy_games_held", ())] == 1
        assert act(client, game_id, token, type="roll").status_code == 200
        assert act(client, game_id, token, type="score", box="chance").status_code == 200
        assert act(client, game_id, "not-a-token", type="roll").status_code == 403
        deadline = time.monotonic() + 10  # the computer's turn, played at once
        while client.get(f"/api/games/{game_id}").json()["current_player"] != "Ann":
            assert time.monotonic() < deadline
            time.sleep(0.01)
    found = samples(client)
    assert found[("yatzy_actions_total", (("kind", "roll"),))] == 1
    assert found[("yatzy_actions_total", (("kind", "score"),))] == 1
    assert found[("yatzy_action_seconds_count", (("kind", "roll"),))] == 1
    assert found[("yatzy_action_seconds_bucket", (("kind", "roll"), ("le", "+Inf")))] == 1
    assert found[("yatzy_errors_total", (("code", "forbidden"),))] == 1
    assert found[("yatzy_computer_steps_total", (("kind", "score"),))] == 1  # one turn
    assert found[("yatzy_computer_steps_total", (("kind", "roll"),))] == 1
    assert found[("yatzy_websockets_open", ())] == 0


def test_log_lines_are_json_with_request_ids_and_no_token_or_secret(
        tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start(tmp_path / "games.sqlite3", port, "--log-format", "json",
                    "--access-log", log=log)
    try:
        created = httpx.post(f"{base}/api/games", json={
            "rules": "yatzy", "seats": [{"name": "Ann"}]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}?token={token}") as socket:
            assert json.loads(socket.recv(timeout=5))["seat"] == "Ann"
        answer = httpx.post(f"{base}/api/games/{game_id}/actions", json={"type": "roll"},
                            headers={**bearer(token), "X-Request-ID": "play-1"})
        assert answer.status_code == 200 and answer.headers["X-Request-ID"] == "play-1"
        for box in ("ones", "twos", "threes", "fours", "fives", "sixes", "one_pair",
                    "two_pairs", "three_of_a_kind", "four_of_a_kind", "small_straight",
                    "large_straight", "full_house", "chance", "yatzy"):
            if box != "ones":
                httpx.post(f"{base}/api/games/{game_id}/actions", json={"type": "roll"},
                           headers=bearer(token))
            httpx.post(f"{base}/api/games/{game_id}/actions",
                       json={"type": "score", "box": box}, headers=bearer(token))
        record = httpx.get(f"{base}/api/games/{game_id}/record").json()
        assert record["seed"]  # revealed now that the game is over
        wrong = httpx.post(f"{base}/api/games/{game_id}/actions", json={"type": "roll"},
                           headers={**bearer(token[::-1]), "X-Request-ID": "bad id!"})
        assert wrong.status_code == 403
        assert wrong.headers["X-Request-ID"] != "bad id!"  # not taken: a new one
        # A quick-match ticket is a secret in its address.
        key = {"X-Player-Key": "k" * 32}
        assert httpx.put(f"{base}/api/me", json={"name": "Ann"}, headers=key).status_code == 200
        ticket = httpx.post(f"{base}/api/quick-match", json={"rules": "yatzy"},
                            headers=key).json()["ticket"]
        assert httpx.get(f"{base}/api/quick-match/{ticket}").status_code == 200
        assert httpx.delete(f"{base}/api/quick-match/{ticket}").status_code == 204
    finally:
        process.terminate()
        process.wait(timeout=10)
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines()
             if line.startswith("{")]  # the start-up banner is for a person
    assert len(lines) > 20
    assert all({"time", "level", "logger", "message", "request_id"} <= set(line)
               for line in lines)
    played = [line for line in lines if line.get("request_id") == "play-1"]
    assert played and played[0]["path"] == f"/api/games/{game_id}/actions"
    assert played[0]["status"] == 200 and played[0]["method"] == "POST"
    assert any(line.get("path") == f"/ws/games/{game_id}" for line in lines)
    assert any(line.get("status") == 403 for line in lines)
    assert any(line.get("path") == "/api/quick-match/…" for line in lines)
    for secret in (token, token[::-1], token_hash(token), str(record["seed"]), ticket):
        assert secret not in text


def test_a_request_id_given_is_answered_on_every_route(client: TestClient) -> None:
    for path in ("/healthz", "/readyz", "/metrics", "/api/games/nope", "/nowhere"):
        response: Any = client.get(path, headers={"X-Request-ID": "abc.DEF-1:2"})
        assert response.headers["X-Request-ID"] == "abc.DEF-1:2", path
    assert len(client.get("/healthz").headers["X-Request-ID"]) == 32
