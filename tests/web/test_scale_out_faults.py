"""Faults in a real site of `yatzy serve` processes on one PostgreSQL database and one
Redis (the fixtures of ``test_scale_out``):

- the process that holds a game's computer turn is killed (SIGKILL), or told to stop
  (SIGTERM): the other process that holds the game plays the turn, after the lease
  runs out or at once, each computer step stored once, and the game goes on through it
  to a valid end;
- a process with open seats is killed: the seats' clients go on through the other,
  and every action a client was answered for is in the game;
- PostgreSQL's connections are dropped: requests are answered 503 with Retry-After,
  nothing is half written, and the server serves again once connections are back.

Each prints what it measured. Needs ``$YATZY_TEST_REDIS`` and PostgreSQL
(``tests/services.py``).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import sqlalchemy as sa
from prometheus_client.parser import text_string_to_metric_families

from tests.services import postgres_admin_sql, postgres_database, redis_url
from tests.web.server import free_port, launch, start, wait_ready
from tests.web.test_scale_out import BOXES, Server, Watcher, servers


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Server]]:
    """The database, Redis and server B that outlive the tests' servers A (each test
    starts an A, and kills it or stops it): a server less to start a test."""
    url = redis_url()
    logs = tmp_path_factory.mktemp("site")
    with postgres_database() as db, servers(db, url, logs, ()) as (b,):
        yield db, url, b


def server_a(site: tuple[str, str, Server], logs: Path, *extra: str,
             env: dict[str, str] | None = None) -> Server:
    """A server A of one test on the site's database and Redis (killed by the test)."""
    db, url, _ = site
    port = free_port()
    log = logs / "server-A.log"
    process = launch(db, port, "--redis", url, "--rate", "0", *extra, log=log, env=env)
    return Server(f"http://127.0.0.1:{port}", wait_ready(process, port, log), log)


def lease_holder(db: str, game_id: str) -> str | None:
    """Who holds the lease on ``game_id``'s computer turns (as the database says)."""
    engine = sa.create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            holder = connection.execute(sa.text("SELECT holder FROM leases WHERE name = :n"),
                                        {"n": game_id}).scalar()
            return None if holder is None else str(holder)
    finally:
        engine.dispose()


def computer_steps(server: Server) -> float:
    """The computer steps ``server`` has played and stored (its ``/metrics``)."""
    text = httpx.get(f"{server.base}/metrics", timeout=10).text
    return sum(sample.value for family in text_string_to_metric_families(text)
               for sample in family.samples
               if sample.name == "yatzy_computer_steps_total")


def next_action(state: dict[str, Any]) -> dict[str, Any]:
    """A roll, or the first open box of :data:`BOXES`."""
    if state["dice"] is None:
        return {"type": "roll"}
    return {"type": "score", "box": next(b for b in BOXES if b in state["choices"])}


def play_person(client: httpx.Client, game_id: str, token: str, person: str,
                timeout: float = 30) -> dict[str, Any]:
    """Play ``person``'s moves through ``client`` until the game is over, waiting for
    the computer's turns in between; the final state."""
    deadline = time.monotonic() + timeout
    state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    while not state["is_over"]:
        assert time.monotonic() < deadline, "the game did not end"
        if state["current_player"] != person:
            time.sleep(0.02)
            state = client.get(f"/api/games/{game_id}").json()
            continue
        answer = client.post(f"/api/games/{game_id}/actions",
                             json={**next_action(state), "expected_version": state["version"]},
                             headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


@pytest.mark.parametrize(("stop", "lease"), [
    (signal.SIGKILL, None), (signal.SIGKILL, 8), (signal.SIGTERM, None)],
    ids=["kill-9", "kill-9-lease-8", "sigterm"])
def test_the_process_holding_a_computer_turn_stops_and_the_other_plays_it(
        site: tuple[str, str, Server], tmp_path: Path, stop: signal.Signals,
        lease: int | None) -> None:
    """Ann plays a computer through A (its pace one second: the turn is under way when
    A stops); a watcher on B holds the game there. B plays the computer's turn: after
    A's lease runs out (killed: 3 s, or the 8 s of ``YATZY_LEASE_SECONDS``), or at once
    (told to stop: it hands the turn over)."""
    db, _, b = site
    began = time.monotonic()
    a = server_a(site, tmp_path, "--pace", "1",
                 env=None if lease is None else {"YATZY_LEASE_SECONDS": str(lease)})
    before = computer_steps(b)
    try:
        print(f"\nA up in {time.monotonic() - began:.1f} s")
        created = httpx.post(f"{a.base}/api/games", json={
            "rules": "yatzy", "seats": [{"name": "Ann"}, {"bot": "greedy"}]}, timeout=10).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        computer = httpx.get(f"{a.base}/api/games/{game_id}").json()["players"][1]
        watcher = Watcher(f"{b.ws}/ws/games/{game_id}")
        try:
            watcher.wait_for(1, 10)
            with httpx.Client(base_url=a.base, timeout=10) as through_a:
                for action in ({"type": "roll"}, {"type": "score", "box": "chance"}):
                    answer = through_a.post(f"/api/games/{game_id}/actions", json=action,
                                            headers={"Authorization": f"Bearer {token}"})
                    assert answer.status_code == 200, answer.text
            scored = answer.json()["version"]
            deadline = time.monotonic() + 5
            while lease_holder(db, game_id) is None:  # A took the computer's turn
                assert time.monotonic() < deadline, "A did not take the computer's turn"
                time.sleep(0.01)
            stopped = time.monotonic()
            os.kill(a.process.pid, stop)
            took = watcher.wait_for(scored + 1, 10) - stopped  # B's first step
            assert took > 0, took  # A held the turn, and played none of it
            if stop == signal.SIGTERM:
                # Stopped cleanly (uvicorn ends by the signal once it has shut down).
                assert a.process.wait(timeout=15) in (0, -signal.SIGTERM)
                assert took < 1.5, took  # handed over: no wait for the lease to run out
            elif lease is None:
                assert 1.0 < took < 5.0, took  # the lease (3 s) ran out first
            else:
                # A renewed its lease every third of it: it ran out 2/3 to 3/3 of the
                # lease after the kill.
                assert 2 / 3 * lease - 0.5 < took < lease + 2.5, took
            with httpx.Client(base_url=b.base, timeout=10) as through_b:
                final = play_person(through_b, game_id, token, "Ann")
                record = through_b.get(f"/api/games/{game_id}/record").json()
            print(f"{stop.name} (lease {lease or 3} s): B played the computer's turn "
                  f"{took:.2f} s after; the game "
                  f"ended {time.monotonic() - stopped:.1f} s after")
        finally:
            watcher.close()
    finally:
        a.process.kill()
        a.process.wait(timeout=10)
    actions = record["actions"]
    assert final["is_over"] and final["version"] == len(actions) + 1  # none twice
    played = [entry for entry in actions if entry["player"] == computer]
    assert len([e for e in played if e["type"] == "score"]) == 15
    assert computer_steps(b) - before == len(played)  # every one of them by B, once
    # In order (a computer showing its keep sends the state again before it rolls).
    assert watcher.versions == sorted(watcher.versions)


def test_a_process_with_open_seats_killed_its_clients_go_on_through_the_other(
        site: tuple[str, str, Server], tmp_path: Path) -> None:
    """Ann and Bo have their websockets on A and move through it, one move under way
    when A is killed; they go on through B: B's state is what A acknowledged (or that
    move more), and the finished game holds every acknowledged move where it was."""
    b = site[2]
    a = server_a(site, tmp_path)
    try:
        created = httpx.post(f"{a.base}/api/games", json={
            "rules": "yatzy", "seats": [{"name": "Ann"}, {"name": "Bo"}]}, timeout=10).json()
        game_id = created["id"]
        tokens = {seat["name"]: seat["token"] for seat in created["seats"]}
        seats = [Watcher(f"{a.ws}/ws/games/{game_id}?token={tokens[name]}")
                 for name in tokens]
        acknowledged: dict[int, dict[str, Any]] = {}  # version made -> the move
        state: dict[str, Any] = httpx.get(f"{a.base}/api/games/{game_id}").json()
        failed: list[Exception] = []

        def play_through_a() -> None:
            nonlocal state
            with httpx.Client(base_url=a.base, timeout=5) as client:
                while not state["is_over"]:
                    action = next_action(state)
                    try:
                        answer = client.post(
                            f"/api/games/{game_id}/actions",
                            json={**action, "expected_version": state["version"]},
                            headers={"Authorization":
                                     f"Bearer {tokens[state['current_player']]}"})
                    except httpx.HTTPError as exc:  # A is gone, the move under way
                        failed.append(exc)
                        return
                    assert answer.status_code == 200, answer.text
                    state = answer.json()
                    acknowledged[state["version"]] = action

        try:
            player = threading.Thread(target=play_through_a)
            player.start()
            while len(acknowledged) < 20:
                time.sleep(0.005)
            killed = time.monotonic()
            a.process.kill()
            player.join(timeout=10)
            assert failed, "a move was under way when A was killed"
            last = max(acknowledged)
            # The clients go to B: the state as A acknowledged it, or with the move
            # that was under way (stored, its answer lost).
            with httpx.Client(base_url=b.base, timeout=10) as client:
                resumed = client.get(f"/api/games/{game_id}").json()
                assert resumed["version"] in (last, last + 1), (resumed["version"], last)
                socket = Watcher(f"{b.ws}/ws/games/{game_id}?token={tokens['Ann']}")
                seats.append(socket)
                socket.wait_for(resumed["version"], 5)
                back = time.monotonic() - killed
                state = resumed
                while not state["is_over"]:
                    answer = client.post(
                        f"/api/games/{game_id}/actions",
                        json={**next_action(state), "expected_version": state["version"]},
                        headers={"Authorization": f"Bearer {tokens[state['current_player']]}"})
                    assert answer.status_code == 200, answer.text
                    state = answer.json()
                record = client.get(f"/api/games/{game_id}/record").json()
                socket.wait_for(state["version"], 5)  # B's seat saw the end
            print(f"\nkill -9 of A after {len(acknowledged)} moves: the seats went on "
                  f"through B {back * 1000:.0f} ms after")
        finally:
            for seat in seats:
                seat.close()
    finally:
        a.process.kill()
        a.process.wait(timeout=10)
    actions = record["actions"]
    assert state["version"] == len(actions) + 1
    for version, action in acknowledged.items():
        entry = actions[version - 2]  # the move that made ``version``
        assert entry["type"] == action["type"] and entry.get("box") == action.get("box")


def test_postgresql_connections_dropped_answer_503_and_nothing_is_half_written(
        tmp_path: Path) -> None:
    with postgres_database() as db:
        name = db.rsplit("/", 1)[1]
        port = free_port()
        process = start(db, port, "--rate", "0", log=tmp_path / "server.log")
        base = f"http://127.0.0.1:{port}"
        try:
            with httpx.Client(base_url=base, timeout=20) as client:
                created = client.post("/api/games", json={
                    "rules": "yatzy", "seats": [{"name": "Ann"}]}).json()
                game_id = created["id"]
                ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
                rolled = client.post(f"/api/games/{game_id}/actions", json={"type": "roll"},
                                     headers=ann)
                assert rolled.status_code == 200
                # 1. Every connection dropped, and none taken while the database is
                #    closed to connections.
                postgres_admin_sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
                postgres_admin_sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   f"WHERE datname = '{name}'")
                try:
                    refused = [
                        client.post(f"/api/games/{game_id}/actions",
                                    json={"type": "score", "box": "chance"}, headers=ann),
                        client.post("/api/games", json={
                            "rules": "yatzy", "seats": [{"name": "Bo"}]}),
                    ]
                    for answer in refused:
                        assert answer.status_code == 503, answer.text
                        assert answer.json()["error"]["code"] == "storage", answer.text
                        assert int(answer.headers["Retry-After"]) > 0
                finally:
                    postgres_admin_sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
                back = time.monotonic()
                state = client.get(f"/api/games/{game_id}")
                assert state.status_code == 200, state.text  # served again at once
                assert state.json()["version"] == rolled.json()["version"]  # nothing half
                assert state.json()["scorecards"]["Ann"]["chance"] is None
                recovered = time.monotonic() - back
                # 2. Connections dropped again and again while moves go on: each move is
                #    stored whole or not at all (a 503 is tried again, a 409 read again).
                stop = threading.Event()

                def drop() -> None:
                    while not stop.wait(0.05):
                        postgres_admin_sql(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            f"WHERE datname = '{name}'")

                dropper = threading.Thread(target=drop)
                dropper.start()
                acknowledged: dict[int, dict[str, Any]] = {}
                codes: dict[int, int] = {}
                current = state.json()
                deadline = time.monotonic() + 60
                try:
                    while not current["is_over"]:
                        assert time.monotonic() < deadline, f"no end: {codes}"
                        action = next_action(current)
                        answer = client.post(
                            f"/api/games/{game_id}/actions",
                            json={**action, "expected_version": current["version"]},
                            headers=ann)
                        codes[answer.status_code] = codes.get(answer.status_code, 0) + 1
                        if answer.status_code == 200:
                            current = answer.json()
                            acknowledged[current["version"]] = action
                            continue
                        assert answer.status_code in (503, 409), answer.text
                        if answer.status_code == 503:
                            assert int(answer.headers["Retry-After"]) > 0
                        fresh = client.get(f"/api/games/{game_id}")
                        if fresh.status_code == 200:
                            current = fresh.json()
                finally:
                    stop.set()
                    dropper.join()
                record = client.get(f"/api/games/{game_id}/record").json()
            print(f"\nPostgreSQL back: served again in {recovered * 1000:.0f} ms; "
                  f"moves while connections were dropped every 50 ms: {codes}")
        finally:
            process.kill()
            process.wait(timeout=10)
        actions = record["actions"]
        assert current["version"] == len(actions) + 1 == 31
        for version, action in acknowledged.items():
            entry = actions[version - 2]
            assert entry["type"] == action["type"] and entry.get("box") == action.get("box")
