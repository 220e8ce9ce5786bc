"""The defects of the web table found in play (each seen in a real browser first): keys
and focus on the dice, a lost connection, links and seats, real dice, the pages' errors,
and the API's documentation page."""

from __future__ import annotations

import re
from typing import Any

import httpx2 as httpx
from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import DESKTOP, record_errors


def game_id(page: Page) -> str:
    return page.url.split("/games/")[1].split("?")[0].split("#")[0]


def state(base: str, page: Page) -> dict[str, Any]:
    """The game's state as the server has it."""
    answer: dict[str, Any] = httpx.get(f"{base}/api/games/{game_id(page)}").json()
    return answer


def first_roll(page: Page) -> None:
    """Roll the dice with the key and wait for the boxes to offer their points."""
    expect(page.locator("#roll")).to_be_enabled(timeout=15_000)
    page.keyboard.press("r")
    expect(page.locator("#cards button.box").first).to_be_visible(timeout=15_000)


# --- 1. The API's documentation page draws the operations (OpenAPI 3.1). ---------------

def test_the_api_page_draws_the_operations(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    errors: list[str] = []
    record_errors(page, errors)
    page.goto(f"{base}/?lang=en")
    page.get_by_role("link", name="API").click()
    page.wait_for_url(re.compile(r"/docs$"))
    create = page.locator('.opblock-post .opblock-summary-path[data-path="/api/games"]')
    expect(create).to_be_visible(timeout=15_000)
    expect(create).to_have_text(re.compile(r"^\s*/api/games\s*$"))
    expect(page.get_by_text("Unable to render")).to_have_count(0)
    assert errors == []
    page.close()
