"""A web app on a fresh SQLite file, driven in-process (TestClient) with computers that
move at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yatzy.bootstrap import open_service
from yatzy.web.app import Settings, create_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(open_service(db), Settings(pace=0.0, rate=0.0))
    with TestClient(app) as test_client:
        yield test_client


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    """Create a game (Ann and Bo by default) and return the creation answer."""
    body.setdefault("rules", "yatzy")
    body.setdefault("seats", [{"name": "Ann"}, {"name": "Bo"}])
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def act(client: TestClient, game_id: str, token: str | None, **action: Any) -> Any:
    """Post an action; returns the response."""
    headers = bearer(token) if token else {}
    return client.post(f"/api/games/{game_id}/actions", json=action, headers=headers)
