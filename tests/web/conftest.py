"""A web app on a fresh SQLite file, driven in-process (TestClient) with computers that
move at once; and for the browser tests, a real server and Debian's chromium."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from fastapi.testclient import TestClient

from tests.services import fresh_sqlite
from tests.web.server import free_port, start
from yatzy.bootstrap import open_service
from yatzy.web.app import Settings, create_app
from yatzy.web.rooms import Rooms

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return fresh_sqlite(tmp_path / "web.sqlite3")


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(open_service(db), Settings(pace=0.0, rate=0.0))
    with TestClient(app) as test_client:
        yield test_client


@pytest_asyncio.fixture
async def rooms(tmp_path: Path) -> AsyncIterator[Rooms]:
    """The rooms of one process on a fresh SQLite file (``rooms.service``), started on
    the test's loop, with computers that move at once; closed after the test."""
    service = open_service(tmp_path / "rooms.sqlite3")
    started = Rooms(service, pace=0)
    started.start()
    try:
        yield started
    finally:
        await started.close()
        service.close()


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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright (a module's tests share it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    """A real `yatzy serve` on a fresh database: its address."""
    port = free_port()
    process = start(tmp_path / "games.sqlite3", port)
    yield f"http://127.0.0.1:{port}"
    process.kill()
    process.wait(timeout=10)
