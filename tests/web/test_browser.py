"""A real browser (Debian's chromium, driven by Playwright): two people play a whole game
in two browser contexts, one of them on a phone-sized screen, with a reload mid-game."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.server import free_port, start

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists():
    if os.environ.get("YATZY_REQUIRE_BROWSER"):
        raise RuntimeError("chromium is required here (apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (CI installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    process = start(tmp_path / "games.sqlite3", port)
    yield f"http://127.0.0.1:{port}"
    process.kill()
    process.wait(timeout=10)


def play_turn(page: Page, name: str) -> None:
    """Roll once and fill the box worth most (confirming a zero)."""
    expect(page.locator("#status")).to_contain_text(name, timeout=15_000)
    roll = page.locator("#roll")
    expect(roll).to_be_enabled(timeout=15_000)
    page.keyboard.press("r")
    boxes = page.locator("#cards button.box")
    expect(boxes.first).to_be_visible(timeout=15_000)
    points = [int(text) for text in boxes.all_inner_texts()]
    boxes.nth(points.index(max(points))).click()
    if max(points) == 0:
        page.locator("#confirm button[value=yes]").click()
    expect(page.locator("#cards button.box")).to_have_count(0, timeout=15_000)


def test_two_people_play_a_whole_game(browser: Browser, base: str) -> None:
    desktop = browser.new_context(viewport={"width": 1280, "height": 900})
    phone = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                has_touch=True)
    ann = desktop.new_page()
    errors: list[str] = []
    ann.on("pageerror", lambda error: errors.append(str(error)))
    ann.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    ann.goto(f"{base}/?lang=en")
    ann.fill("#seats input[name=name]", "Ann")
    ann.click("#add-person")
    ann.locator("#seats input[name=name]").nth(1).fill("Bo")
    ann.click("#start")
    ann.wait_for_url(re.compile(r"/games/\w+"))
    expect(ann.locator("#invite")).to_be_visible()
    bo_link = ann.locator("#links a", has_text="Bo").get_attribute("href")
    assert bo_link and "#token=" in bo_link
    bo = phone.new_page()
    bo.on("pageerror", lambda error: errors.append(str(error)))
    bo.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    bo.goto(bo_link)
    expect(bo.locator("#notes")).to_contain_text("You play Bo.")
    assert bo.evaluate("document.documentElement.scrollWidth") <= 360  # fits the phone

    # Holding dice by key shows on the die.
    expect(ann.locator("#roll")).to_be_enabled()
    ann.keyboard.press("r")
    expect(ann.locator("#cards button.box").first).to_be_visible()
    ann.keyboard.press("1")
    expect(ann.locator("#dice .die").first).to_have_attribute("aria-pressed", "true")
    ann.keyboard.press("1")

    for turn in range(15):
        if turn:
            play_turn(ann, "Ann")
        else:  # Ann has rolled already
            boxes = ann.locator("#cards button.box")
            points = [int(t) for t in boxes.all_inner_texts()]
            boxes.nth(points.index(max(points))).click()
            if max(points) == 0:
                ann.locator("#confirm button[value=yes]").click()
        # Bo's page hears of Ann's move at once.
        expect(bo.locator("#status")).to_contain_text("Bo", timeout=15_000)
        if turn == 6:
            bo.reload()  # a refresh rejoins the game where it stands
            expect(bo.locator("#notes")).to_contain_text("You play Bo.")
        play_turn(bo, "Bo")

    expect(ann.locator("#verdict")).to_be_visible(timeout=15_000)
    expect(bo.locator("#verdict")).to_contain_text("win")
    expect(ann.locator("#analysis")).to_contain_text("Ann", timeout=60_000)
    totals = ann.locator("#ranking li").all_inner_texts()
    assert len(totals) == 2 and all(re.fullmatch(r"(Ann|Bo): \d+", t) for t in totals)
    # The history: Ann's browser sat in this game; its replay steps with the arrow keys.
    game_url = ann.url.split("#")[0].split("?")[0]
    ann.goto(f"{base}/history?lang=en")
    expect(ann.locator("#my-games li")).to_have_count(1)
    expect(ann.locator("#my-bests tr")).to_have_count(1)
    expect(ann.locator("#my-bests")).not_to_contain_text("No games")
    expect(ann.locator("#leaderboards li")).to_have_count(2)
    ann.locator("#my-games a").click()
    ann.wait_for_url(re.compile(r"/replay"))
    assert ann.url.startswith(game_url)
    expect(ann.locator("#replay-step")).to_contain_text("Step 0 of")
    ann.keyboard.press("ArrowRight")
    expect(ann.locator("#replay-step")).to_contain_text("Step 1 of")
    expect(ann.locator("#dice .die.blank")).to_have_count(0)
    assert errors == []
    desktop.close()
    phone.close()
