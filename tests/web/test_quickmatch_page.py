"""Quick match in Chromium: two browsers (two players, each their own context) press
play on the daily page and land in the same game, each on their own seat; waiting shows
a cancel button that works; all within a phone's width."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.web.conftest import CHROMIUM

if not Path(CHROMIUM).exists():
    if os.environ.get("YATZY_REQUIRE_BROWSER"):
        raise RuntimeError("chromium is required here (apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (CI installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import DESKTOP, PHONE

GAME = re.compile(r"/games/([0-9a-f]{32})\?lang=en#token=")


def named(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/?lang=en")
    page.locator("#quick-match-link").click()
    expect(page.locator("#quick-match h2")).to_have_text("Quick match")
    page.fill("#my-name", name)
    page.locator("#name-form button").click()
    expect(page.locator("#name-status")).to_have_text("Saved")


def test_two_players_meet_in_one_game(browser: Browser, base: str) -> None:
    ann_context, bo_context = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    ann, bo = ann_context.new_page(), bo_context.new_page()
    named(ann, base, "Ann")
    named(bo, base, "Bo")
    # Ann waits, cancels, and waits again.
    ann.locator("#qm-play").click()
    expect(ann.locator("#qm-status")).to_have_text("Waiting for an opponent…")
    expect(ann.locator("#qm-play")).to_be_hidden()
    ann.screenshot(path="/tmp/qm/waiting-1280.png", full_page=True)
    ann.locator("#qm-cancel").click()
    expect(ann.locator("#qm-play")).to_be_visible()
    expect(ann.locator("#qm-waiting")).to_be_hidden()
    ann.locator("#qm-play").click()
    expect(ann.locator("#qm-status")).to_have_text("Waiting for an opponent…")
    bo.screenshot(path="/tmp/qm/daily-360.png", full_page=True)
    wide = bo.evaluate("document.documentElement.scrollWidth")
    assert wide <= 360
    # Bo asks for the same rules: both go to one game, each on their own seat; Ann was
    # waiting, so Bo's request itself says where his seat is (no question asked).
    asked: list[str] = []
    bo.on("request", lambda r: asked.append(r.method) if "/api/quick-match" in r.url else None)
    bo.locator("#qm-play").click()
    ann.wait_for_url(GAME, timeout=15_000)
    bo.wait_for_url(GAME, timeout=15_000)
    assert asked == ["POST"]
    ann_game, bo_game = GAME.search(ann.url), GAME.search(bo.url)
    assert ann_game and bo_game and ann_game.group(1) == bo_game.group(1)
    assert ann.url.split("#token=")[1] != bo.url.split("#token=")[1]
    expect(ann.locator("#notes")).to_contain_text("You play Ann.")
    expect(bo.locator("#notes")).to_contain_text("You play Bo.")
    bo.screenshot(path="/tmp/qm/game-360.png")
    # Back on the daily page, the card offers play again (the ticket is done).
    ann.goto(f"{base}/daily?lang=en")
    expect(ann.locator("#qm-play")).to_be_visible()
    ann_context.close()
    bo_context.close()
