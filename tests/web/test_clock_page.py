"""A rated game's clock in Chromium: two players paired by quick match (over the API),
each on their own page; the one to move sees their seconds count down, the other sees
whose clock runs; when it runs out both pages say that the computer plays on and the
game counts as lost for the idle player, and the computer's turn is played."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.web.conftest import CHROMIUM
from tests.web.server import free_port, start

if not Path(CHROMIUM).exists():
    if os.environ.get("YATZY_REQUIRE_BROWSER"):
        raise RuntimeError("chromium is required here (apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (CI installs it)", allow_module_level=True)

from playwright.sync_api import Browser, expect

from tests.web.test_browser import DESKTOP, PHONE

KEYS = {"Ann": "ann-player-key-0123456789abcdef", "Bo": "bo-player-key-0123456789abcdefgh"}


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[str]:
    """A real server whose rated games give eight seconds a decision."""
    port = free_port()
    process = start(tmp_path / "games.sqlite3", port, "--move-clock", "8")
    yield f"http://127.0.0.1:{port}"
    process.kill()
    process.wait(timeout=10)


def paired(base: str) -> dict[str, Any]:
    """Ann and Bo paired: each one's seat link, by name."""
    links = {}
    tickets = {}
    for name, key in KEYS.items():
        headers = {"X-Player-Key": key}
        assert httpx.put(f"{base}/api/me", json={"name": name}, headers=headers).status_code == 200
        asked = httpx.post(f"{base}/api/quick-match", json={"rules": "yatzy"}, headers=headers)
        tickets[name] = asked.json()["ticket"]
    for name, key in KEYS.items():
        status = httpx.get(f"{base}/api/quick-match/{tickets[name]}",
                           headers={"X-Player-Key": key}).json()
        assert status["status"] == "matched"
        links[name] = status["seat_url"].replace("#", "?lang=en#")
    return links


def test_the_clock_counts_down_and_the_computer_takes_the_idle_seat(
        browser: Browser, quick: str) -> None:
    links = paired(quick)
    contexts = {"Ann": browser.new_context(**DESKTOP), "Bo": browser.new_context(**PHONE)}
    pages = {name: context.new_page() for name, context in contexts.items()}
    for name, page in pages.items():
        page.goto(links[name])
    first = httpx.get(links["Ann"].split("?")[0].replace("/games/", "/api/games/")).json()[
        "current_player"]
    other = "Bo" if first == "Ann" else "Ann"
    mover, watcher = pages[first], pages[other]
    expect(mover.locator("#clock")).to_have_text(re.compile(r"^Your move: [1-8] s left$"),
                                                 timeout=15_000)
    expect(watcher.locator("#clock")).to_have_text(
        re.compile(rf"^{first} has [1-8] s left to move$"))
    shown = int(mover.locator("#clock").inner_text().split()[2])
    mover.wait_for_timeout(2_100)
    assert int(mover.locator("#clock").inner_text().split()[2]) < shown  # it counts down
    # Nobody moves: the computer takes the seat, and both pages say so.
    expect(mover.locator("#notes")).to_contain_text(
        f"Your clock ran out: the computer plays on for you, and the rated game counts as "
        f"lost for you ({first}).", timeout=25_000)
    expect(watcher.locator("#notes")).to_contain_text(
        f"{first} let the clock run out: the computer plays on for them")
    expect(mover.locator("#roll")).to_be_disabled()
    # The computer played the turn: now it is the other's, with a clock of their own.
    expect(watcher.locator("#clock")).to_have_text(re.compile(r"^Your move: [1-8] s left$"),
                                                   timeout=25_000)
    for context in contexts.values():
        context.close()
