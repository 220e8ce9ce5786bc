"""The daily challenge page in Chromium on a phone (360x740): choose a name, play today's
challenge, and after it the score, the par, the ranks, the leaderboard, the text to share
and the streak, all within the screen's width."""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.web.conftest import CHROMIUM

if not Path(CHROMIUM).exists():
    if os.environ.get("YATZY_REQUIRE_BROWSER"):
        raise RuntimeError("chromium is required here (apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (CI installs it)", allow_module_level=True)

from playwright.sync_api import Browser, expect

from tests.web.test_browser import PHONE


def finish(base: str, game_id: str, token: str) -> None:
    """Play the attempt to its end over the API (each turn: roll, then the best box now)."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
        state = client.get(f"/api/games/{game_id}").json()
        while not state["is_over"]:
            state = client.post(f"/api/games/{game_id}/actions", json={"type": "roll"}).json()
            box = max(sorted(state["choices"]), key=state["choices"].get)
            state = client.post(f"/api/games/{game_id}/actions",
                                json={"type": "score", "box": box}).json()


def test_the_daily_page_on_a_phone(browser: Browser, base: str) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{base}/?lang=en")
    page.locator("#daily-link").tap()
    expect(page.locator("h1")).to_have_text("Daily challenge")
    # The first par of a server works out the solver's tables (seconds, once).
    expect(page.locator("section.daily")).to_have_count(3, timeout=60_000)
    page.fill("#my-name", "Ann")
    page.locator("#name-form button").tap()
    expect(page.locator("#name-status")).to_have_text("Saved")
    page.locator('section[data-rules="yatzy"] button[data-play]').tap()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]{32}\?lang=en#token="))
    game_id = page.url.split("/games/")[1][:32]
    token = page.url.split("#token=")[1]
    finish(base, game_id, token)
    page.goto(f"{base}/daily?lang=en")
    expect(page.locator("#my-name")).to_have_value("Ann")  # the name chosen is kept
    mine = page.locator('section[data-rules="yatzy"]')
    expect(mine.locator(".daily-score")).to_contain_text("Your score: ")
    expect(mine.locator(".daily-share")).to_contain_text(" from perfect · #1 of 1")
    expect(mine.locator(".daily-share")).to_contain_text(f"/games/{game_id}/replay")
    expect(mine).to_contain_text("Par (optimal play on these dice): ")
    expect(mine.locator("table.daily-board tbody tr")).to_have_count(1)
    expect(mine.locator("table.daily-board tbody tr")).to_contain_text("Ann")
    expect(page.locator("#streak")).to_have_text("Days in a row: 1")
    # The other challenges still offer their attempt; nothing is wider than the phone.
    expect(page.locator('section[data-rules="yahtzee"] button[data-play]')).to_be_visible()
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 360)
        .map((e) => e.tagName + '.' + e.className)""")
    assert wide == [] and page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
