"""``yatzy serve --workers 2`` as a real process: two worker processes answer on the one
port (``/metrics`` names them by pid), a game is played through it, each seat on
connections of its own; a worker killed is started again; and it stops cleanly on
SIGTERM (every worker with it). ``/metrics`` says the whole server's numbers, whichever
worker answers, and the folder of their numbers is removed when the server stops.

On SQLite the workers share the database file and hear each other's moves through its
change log; on PostgreSQL and Redis (``tests/web/test_nginx.py``) through Redis.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path

import httpx2 as httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from tests.web.server import free_port, start
from tests.web.test_scale_out import BOXES, Player, new_game
from yatzy.web.metrics import SHARED_ENV
from yatzy.web.workers import shared_metrics

_PID = re.compile(r'yatzy_process_info\{pid="([0-9]+)"\}')


def worker_pids(base: str, *, want: int, seconds: float = 20) -> set[int]:
    """The pids of the workers alive as ``/metrics`` names them (every worker's, in
    one answer), asking again until ``want`` are seen (or ``seconds`` pass)."""
    seen: set[int] = set()
    deadline = time.monotonic() + seconds
    while len(seen) < want and time.monotonic() < deadline:
        found = {int(pid) for pid in _PID.findall(
            httpx.get(f"{base}/metrics", timeout=5).text)}
        assert found
        seen = found
        if len(seen) < want:
            time.sleep(0.2)
    return seen


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_two_workers_answer_on_one_port_and_play_a_game(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start(tmp_path / "games.sqlite3", port, "--workers", "2", "--rate", "0",
                    log=tmp_path / "server.log")
    pids: set[int] = set()
    try:
        pids = worker_pids(base, want=2)
        assert len(pids) == 2, pids
        assert process.pid not in pids  # the workers are the supervisor's children
        created = new_game(base)
        game_id = created["id"]
        ann, bo = (seat["token"] for seat in created["seats"])
        # A seat's websocket and the moves on connections of their own: the moves
        # reach the seat whichever worker serves each.
        with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}?token={ann}",
                     open_timeout=10) as seat_socket:
            player = Player(base, created)
            made = [player.move()[0] for _ in range(8)]
            seen: set[int] = set()
            deadline = time.monotonic() + 10
            while made[-1] not in seen and time.monotonic() < deadline:
                message = json.loads(seat_socket.recv(timeout=10))
                if message["type"] == "state":
                    seen.add(message["state"]["version"])
            # Through the change log a websocket may be told a later state at once.
            assert made[-1] in seen and seen <= set(range(1, made[-1] + 1))
        assert bo  # both seats were dealt a token
        state = httpx.get(f"{base}/api/games/{game_id}", timeout=5).json()
        assert state["version"] == made[-1]
        # A worker killed: the supervisor starts another in its place.
        dead = min(pids)
        os.kill(dead, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while dead in pids or len(pids) < 2:
            assert time.monotonic() < deadline, f"no worker came in place of {dead}"
            pids = worker_pids(base, want=2, seconds=5) - {dead}
            time.sleep(0.2)
        assert httpx.get(f"{base}/api/games/{game_id}", timeout=5).json()["version"] == made[-1]
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=30)
    assert code == 0
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in pids)
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def samples(text: str) -> dict[str, float]:
    """Each sample name of a ``/metrics`` answer with its values added up."""
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name] = found.get(sample.name, 0.0) + sample.value
    return found


def test_metrics_of_two_workers_are_the_whole_server_s(tmp_path: Path) -> None:
    """Moves through both workers (each on a new connection; the JSON access log says
    which worker served it): every ``/metrics`` answer, whichever worker gives it,
    counts all of them, and lists both workers alive."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    scratch = tmp_path / "tmp"  # where the server makes its metrics folder
    scratch.mkdir()
    process = start(tmp_path / "games.sqlite3", port, "--workers", "2", "--rate", "0",
                    "--log-format", "json", "--access-log", log=log,
                    env={"TMPDIR": str(scratch)})
    try:
        pids = worker_pids(base, want=2)
        assert len(pids) == 2, pids
        assert next(f.name for f in scratch.iterdir()).startswith("yatzy-metrics-")
        created = new_game(base)
        game_id = created["id"]
        tokens = {seat["name"]: seat["token"] for seat in created["seats"]}
        path = f"/api/games/{game_id}/actions"
        stored = refused = 0
        served: set[int] = set()
        deadline = time.monotonic() + 60
        while (stored < 24 or served != pids) and stored < 200:
            assert time.monotonic() < deadline, f"moves served by {served} of {pids}"
            state = httpx.get(f"{base}/api/games/{game_id}", timeout=10).json()
            action = ({"type": "roll"} if state["dice"] is None else
                      {"type": "score", "box": next(b for b in BOXES if b in state["choices"])})
            answer = httpx.post(  # a new connection: either worker takes it
                f"{base}{path}", json={**action, "expected_version": state["version"]},
                headers={"Authorization": f"Bearer {tokens[state['current_player']]}"},
                timeout=10)
            if answer.status_code == 409:  # the other worker had not heard of it yet
                refused += 1
                continue
            assert answer.status_code == 200, answer.text
            stored += 1
            served = {line["pid"] for line in map(json.loads, (
                text for text in log.read_text().splitlines() if text.startswith("{")))
                if line.get("path") == path and line.get("status") == 200}
        assert served == pids
        for _ in range(6):  # each a new connection: both workers answer some
            numbers = samples(httpx.get(f"{base}/metrics", timeout=10).text)
            assert numbers["yatzy_actions_total"] == stored, numbers
            assert numbers["yatzy_action_seconds_count"] == stored
            assert numbers["yatzy_process_info"] == 2  # one line a worker alive
            assert numbers["yatzy_worker_resident_memory_bytes"] > 0
            assert numbers.get("yatzy_errors_total", 0) >= refused
        print(f"\n{stored} moves through workers {sorted(served)} ({refused} refused 409 "
              f"while the other had not heard): /metrics counted {stored} each time")
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=30)
    assert code == 0
    assert list(scratch.iterdir()) == []  # the metrics folder removed


def test_the_metrics_folder_is_made_for_the_workers_and_removed_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SHARED_ENV, "/somewhere/else")
    with shared_metrics() as folder:
        assert os.environ[SHARED_ENV] == folder and Path(folder).is_dir()
        (Path(folder) / "counter_123.db").write_bytes(b"\0" * 8)
    assert not Path(folder).exists()
    assert os.environ[SHARED_ENV] == "/somewhere/else"  # as it was
    monkeypatch.delenv(SHARED_ENV)
    with shared_metrics():
        pass
    assert SHARED_ENV not in os.environ
