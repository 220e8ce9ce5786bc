"""A real `yatzy serve` process, killed with SIGKILL mid-game and started again: every
acknowledged action is there, and the game goes on (the computer's too)."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.web.server import free_port, start


@pytest.fixture
def server_db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def test_kill_9_loses_no_acknowledged_action(server_db: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start(server_db, port)
    try:
        created = httpx.post(f"{base}/api/games", json={
            "rules": "yahtzee", "seats": [{"name": "Ann"}, {"bot": "greedy"}]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        headers = {"Authorization": f"Bearer {token}"}

        def act(**action: Any) -> dict[str, Any]:
            response = httpx.post(f"{base}/api/games/{game_id}/actions", json=action,
                                  headers=headers, timeout=10)
            assert response.status_code == 200, response.text
            state: dict[str, Any] = response.json()
            return state

        act(type="roll")
        act(type="reroll", hold=[0])
        before = act(type="score", box="chance")  # acknowledged: must survive
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        process = start(server_db, port)
        state = httpx.get(f"{base}/api/games/{game_id}").json()
        assert state["scorecards"]["Ann"]["chance"] == before["scorecards"]["Ann"]["chance"]
        assert state["version"] >= before["version"]
        # The computer's turn goes on after the restart, then Ann plays again.
        deadline = time.monotonic() + 30
        while state["current_player"] != "Ann" and time.monotonic() < deadline:
            time.sleep(0.05)
            state = httpx.get(f"{base}/api/games/{game_id}").json()
        assert state["current_player"] == "Ann" and state["round"] == 2
        assert act(type="roll")["rolls_left"] == 2
    finally:
        process.kill()
        process.wait(timeout=10)
