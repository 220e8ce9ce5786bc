"""The lobby in Chromium, two people in two browsers (1366 px and a 360 px phone): one
opens a public table and waits; the other finds it in the lobby and joins; the game
begins on both pages and each plays a turn; the full table is then a game to watch."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM

if not Path(CHROMIUM).exists():
    if os.environ.get("YATZY_REQUIRE_BROWSER"):
        raise RuntimeError("chromium is required here (apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (CI installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import PHONE

WIDE: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}
GAME = re.compile(r"/games/[0-9a-f]{32}\?lang=en#token=")


def play_a_turn(page: Page, wide: bool) -> None:
    """Roll, then fill the first box offered."""
    expect(page.locator("#roll")).to_be_enabled(timeout=15_000)
    page.locator("#roll").click()
    boxes = page.locator("#cards button.box" if wide else "#turn-card button.box")
    expect(boxes.first).to_be_visible(timeout=15_000)
    boxes.first.click()
    if page.locator("#confirm").is_visible():
        page.locator("#confirm button[value=yes]").click()


def narrow_enough(page: Page, width: int) -> None:
    wide = page.evaluate(f"""() => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > {width})
        .map((e) => e.tagName + '.' + e.className)""")
    assert wide == [] and page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("device", [WIDE, PHONE], ids=["1366", "360"])
def test_two_people_meet_in_the_lobby(browser: Browser, base: str, device: dict[str, Any],
                                      tmp_path: Path) -> None:
    wide = device is WIDE
    width = device["viewport"]["width"]
    shots = Path(os.environ.get("YATZY_SHOTS", tmp_path))
    ann_context, bo_context = browser.new_context(**device), browser.new_context(**device)
    ann, bo = ann_context.new_page(), bo_context.new_page()

    # Ann opens a public table of Yahtzee for two from the lobby (linked in the header).
    ann.goto(f"{base}/?lang=en")
    ann.locator("header a[href^='/lobby']").click()
    expect(ann.locator("h1")).to_have_text("Lobby")
    expect(ann.locator("#waiting")).to_contain_text("No table is waiting: open one.")
    ann.fill("#my-name", "Ann")
    ann.locator("#open-table input[name=rules][value=yahtzee]").check()
    ann.locator("#open-table").screenshot(path=str(shots / f"lobby-form-{width}.png"))
    ann.locator("#open").click()
    ann.wait_for_url(GAME)
    game_id = ann.url.split("/games/")[1][:32]
    expect(ann.locator("#status")).to_have_text(
        "Waiting for players: the game begins when every seat is taken.")
    expect(ann.locator("#roll")).to_be_disabled()
    expect(ann.locator("#notes")).to_contain_text("Your table is in the lobby")
    expect(ann.locator("#cards thead")).to_contain_text("Open seat")
    ann.screenshot(path=str(shots / f"lobby-waiting-{width}.png"))

    # Bo sees it waiting, with its free seat, and joins under his name.
    bo.goto(f"{base}/lobby?lang=en")
    table = bo.locator(f"#waiting li[data-table='{game_id}']")
    expect(table).to_contain_text("Yahtzee")
    expect(table).to_contain_text("Ann · Open seat")
    expect(table).to_contain_text("1 of 2 seats taken")
    narrow_enough(bo, width)
    bo.screenshot(path=str(shots / f"lobby-{width}.png"), full_page=True)
    bo.fill("#my-name", "Bo")
    table.get_by_role("button", name="Join").click()
    bo.wait_for_url(GAME)
    assert bo.url.split("/games/")[1][:32] == game_id

    # The table is full: Ann's page hears it and it is her turn, then Bo's.
    expect(ann.locator("#status")).to_contain_text("Ann's turn", timeout=15_000)
    play_a_turn(ann, wide)
    expect(bo.locator("#status")).to_contain_text("Bo's turn", timeout=15_000)
    play_a_turn(bo, wide)
    expect(ann.locator("#status")).to_contain_text("Ann's turn", timeout=15_000)
    expect(ann.locator("#status")).to_contain_text("rolls left")
    bo.screenshot(path=str(shots / f"lobby-game-{width}.png"))
    state = bo.request.get(f"{base}/api/games/{game_id}").json()
    assert state["players"] == ["Ann", "Bo"] and state["round"] == 2

    # In the lobby the table is now a game to watch, in its second round.
    bo.goto(f"{base}/lobby?lang=en")
    live = bo.locator(f"#live li[data-game='{game_id}']")
    expect(live).to_contain_text("Ann · Bo")
    expect(live).to_contain_text("Round 2 of 13")
    expect(bo.locator("#waiting")).to_contain_text("No table is waiting")
    narrow_enough(bo, width)
    bo.screenshot(path=str(shots / f"lobby-live-{width}.png"), full_page=True)
    watch = live.get_by_role("link", name="Watch").get_attribute("href")
    assert watch == f"{base}/games/{game_id}?lang=en"
    # Someone with no seat there watches it from the lobby.
    cy_context = browser.new_context(**device)
    cy = cy_context.new_page()
    cy.goto(f"{base}/lobby?lang=en")
    cy.locator(f"#live li[data-game='{game_id}']").get_by_role("link", name="Watch").click()
    expect(cy.locator("#notes")).to_contain_text("You are watching this game.")
    expect(cy.locator("#status")).to_contain_text("Ann's turn")
    for context in (ann_context, bo_context, cy_context):
        context.close()


def test_a_table_opened_reaches_an_open_lobby_without_reload(
        browser: Browser, base: str) -> None:
    """Bo's lobby is open (and never reads /api/lobby: the server pushes it); Ann opens a
    public table in another browser; it shows in Bo's lobby within a second or two, then
    leaves "waiting" for "live" when Cy takes its last seat."""
    ann_context, bo_context = browser.new_context(**WIDE), browser.new_context(**WIDE)
    ann, bo = ann_context.new_page(), bo_context.new_page()
    polled: list[str] = []
    bo.on("request", lambda request: polled.append(request.url)
          if "/api/lobby" in request.url else None)
    bo.goto(f"{base}/lobby?lang=en")
    expect(bo.locator("#waiting")).to_contain_text("No table is waiting: open one.")
    ann.goto(f"{base}/lobby?lang=en")
    ann.fill("#my-name", "Ann")
    ann.locator("#open").click()
    ann.wait_for_url(GAME)
    game_id = ann.url.split("/games/")[1][:32]
    table = bo.locator(f"#waiting li[data-table='{game_id}']")
    expect(table).to_contain_text("Ann · Open seat", timeout=3_000)
    # Someone takes the last seat over the API: the table becomes a game to watch.
    joined = bo.request.post(f"{base}/api/games/{game_id}/join", data={"name": "Cy"})
    assert joined.status == 201
    expect(bo.locator(f"#live li[data-game='{game_id}']")).to_contain_text(
        "Ann · Cy", timeout=3_000)
    expect(table).to_have_count(0)
    assert polled == [], polled
    for context in (ann_context, bo_context):
        context.close()
