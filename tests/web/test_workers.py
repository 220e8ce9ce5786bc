"""``yatzy serve --workers 2`` as a real process: two worker processes answer on the one
port (``/metrics`` names its process by pid), a game is played through it, each seat
on connections of its own; a worker killed is started again; and it stops cleanly on
SIGTERM (every worker with it).

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
from websockets.sync.client import connect

from tests.web.server import free_port, start
from tests.web.test_scale_out import Player, new_game

_PID = re.compile(r'yatzy_process_info\{pid="([0-9]+)"\}')


def worker_pids(base: str, *, want: int, seconds: float = 20) -> set[int]:
    """The pids ``/metrics`` names, asking on a new connection each time, until
    ``want`` are seen (or ``seconds`` pass)."""
    seen: set[int] = set()
    deadline = time.monotonic() + seconds
    while len(seen) < want and time.monotonic() < deadline:
        found = _PID.search(httpx.get(f"{base}/metrics", timeout=5).text)
        assert found is not None
        seen.add(int(found.group(1)))
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
