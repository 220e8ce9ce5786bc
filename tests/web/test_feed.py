"""The change feed end to end: a move made in the terminal game reaches a web watcher
of that game (a real ``yatzy serve`` on the same SQLite file) within a second, and a
computer's turn started in the terminal is not played twice by the web."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

import yatzy
from tests.tui.helpers import game_screen
from tests.web.server import free_port, start
from yatzy.app import Seat
from yatzy.bootstrap import open_service
from yatzy.tui.app import YatzyApp
from yatzy.tui.screens.setup import GameSetup

pytestmark = pytest.mark.asyncio


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    process = start(db, port)
    yield db, port
    process.kill()
    process.wait(timeout=10)


async def next_state(socket: ClientConnection, timeout: float) -> dict[str, Any]:
    """The next state message the socket receives (other messages are passed over)."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout))
        if message["type"] == "state":
            state: dict[str, Any] = message["state"]
            return state


async def test_a_move_in_the_terminal_reaches_a_web_watcher_within_a_second(
        served: tuple[Path, int]) -> None:
    db, port = served
    with open_service(db) as service:  # the terminal game's own service, as `yatzy play`
        setup = GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"), Seat("Bo")), seed=7)
        app = YatzyApp(service, setup=setup, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            game_id = screen.table.saved.id
            url = f"ws://127.0.0.1:{port}/ws/games/{game_id}"
            async with connect(url) as watcher:
                assert json.loads(await watcher.recv())["type"] == "welcome"
                first = await next_state(watcher, 5)
                assert first["version"] == 1 and first["dice"] is None
                sent = time.monotonic()
                await pilot.press("r")
                seen = await next_state(watcher, 1.0)
                took = time.monotonic() - sent
                assert seen["version"] == 2
                assert seen["dice"] == list(screen.table.game.dice or ())
                assert took < 1.0
                await pilot.press("r")  # a reroll of all five: seen too
                seen = await next_state(watcher, 1.0)
                assert seen["version"] == 3 and seen["rolls_left"] == 1


async def test_a_move_on_the_web_reaches_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with open_service(db, follow=True) as terminal, open_service(db) as web:
        setup = GameSetup(yatzy.ruleset("yatzy"), (Seat("Ann"), Seat("Bo")), seed=7)
        app = YatzyApp(terminal, setup=setup, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            web.apply(screen.table.saved.id, yatzy.Roll(), player="Ann")
            start = time.monotonic()
            while "2 rolls left" not in str(screen.query_one("#turn").render()):
                assert time.monotonic() - start < 1.0, "not shown within a second"
                await pilot.pause(0.02)
            assert screen.table.game.dice == web.load(screen.table.saved.id).game.dice
