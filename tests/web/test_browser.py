"""A real browser (Debian's chromium, driven by Playwright): two people play a whole game
in two browser contexts, one of them on a phone-sized screen, with a reload mid-game; and
a person against a computer turns the win chances on and off."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.web.conftest import CHROMIUM

if not Path(CHROMIUM).exists():
    if os.environ.get("YATZY_REQUIRE_BROWSER"):
        raise RuntimeError("chromium is required here (apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (CI installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, Route, expect

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True,
                         "has_touch": True}


def record_errors(page: Page, errors: list[str]) -> None:
    """Collect the page's uncaught errors and console errors into ``errors``."""
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)


def start_game(page: Page, base: str, people: list[str], computers: int = 0,
               rules: str = "yatzy") -> None:
    """Set up a game (Yatzy unless ``rules`` says) on the home page (computers at the
    level it offers) and start it: the page goes to the first person's seat."""
    page.goto(f"{base}/?lang=en")
    page.check(f"input[name=rules][value={rules}]")
    add_seats(page, people, computers)
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))


def add_seats(page: Page, people: list[str], computers: int = 0) -> None:
    """Name the home form's seats: ``people``, then ``computers`` at the level offered."""
    page.fill("#seats input[name=name]", people[0])
    for i, name in enumerate(people[1:], start=1):
        page.click("#add-person")
        page.locator("#seats input[name=name]").nth(i).fill(name)
    for _ in range(computers):
        page.click("#add-computer")


def score_best(page: Page) -> None:
    """Fill the box worth most with the dice rolled (confirming a zero)."""
    boxes = page.locator("#cards button.box")
    expect(boxes.first).to_be_visible(timeout=15_000)
    points = [int(text) for text in boxes.all_inner_texts()]
    boxes.nth(points.index(max(points))).click()
    if max(points) == 0:
        page.locator("#confirm button[value=yes]").click()
    expect(page.locator("#cards button.box")).to_have_count(0, timeout=15_000)


def play_turn(page: Page, name: str) -> None:
    """Roll once and fill the box worth most."""
    expect(page.locator("#status")).to_contain_text(name, timeout=15_000)
    roll = page.locator("#roll")
    expect(roll).to_be_enabled(timeout=15_000)
    page.keyboard.press("r")
    score_best(page)


def test_two_people_play_a_whole_game(browser: Browser, base: str) -> None:
    desktop = browser.new_context(**DESKTOP)
    phone = browser.new_context(**PHONE)
    ann = desktop.new_page()
    errors: list[str] = []
    record_errors(ann, errors)
    start_game(ann, base, ["Ann", "Bo"])
    expect(ann.locator("#invite")).to_be_visible()
    bo_link = ann.locator("#links a", has_text="Bo").get_attribute("href")
    assert bo_link and "#token=" in bo_link
    bo = phone.new_page()
    record_errors(bo, errors)
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
            score_best(ann)
        # Bo's page hears of Ann's move at once.
        expect(bo.locator("#status")).to_contain_text("Bo", timeout=15_000)
        if turn == 6:
            bo.reload()  # a refresh rejoins the game where it stands
            expect(bo.locator("#notes")).to_contain_text("You play Bo.")
        play_turn(bo, "Bo")

    expect(ann.locator("#verdict")).to_be_visible(timeout=15_000)
    expect(bo.locator("#verdict")).to_contain_text("win")
    expect(ann.locator("#analysis")).to_contain_text("Ann", timeout=60_000)
    totals = ann.locator("#ranking tbody tr").all_inner_texts()
    assert len(totals) == 2 and all(re.fullmatch(r"[12]\.\s+(Ann|Bo)\s+\d+", t) for t in totals)
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
    expect(ann.locator("#chances")).to_be_hidden()  # the live game's would spoil a step
    ann.keyboard.press("ArrowRight")
    expect(ann.locator("#replay-step")).to_contain_text("Step 1 of")
    expect(ann.locator("#dice .die.blank")).to_have_count(0)
    assert errors == []
    desktop.close()
    phone.close()


def shown_chances(page: Page, players: list[str]) -> list[float]:
    """The percentages the chances box shows, in the players' order, once it has them
    (the page says it is working them out first)."""
    pattern = "Win chances: " + " · ".join(f"{re.escape(p)} (\\d+\\.\\d)%" for p in players)
    box = page.locator("#chances-box")
    expect(box).to_have_text(re.compile(pattern), timeout=15_000)
    match = re.fullmatch(pattern, box.inner_text())
    assert match, box.inner_text()
    return [float(group) for group in match.groups()]


def add_up_to_100(percents: list[float]) -> bool:
    """True when percentages shown to a tenth sum to 100 within their rounding."""
    return abs(sum(percents) - 100) <= 0.05 * len(percents) + 1e-6


def test_win_chances_are_off_at_first_and_follow_the_game(browser: Browser,
                                                          base: str) -> None:
    phone = browser.new_context(**PHONE)
    page = phone.new_page()
    errors: list[str] = []
    record_errors(page, errors)
    asked: list[str] = []  # the page's requests for the chances
    page.on("request", lambda r: asked.append(r.url) if "/chances" in r.url else None)
    start_game(page, base, ["Ann"], computers=1)
    players = ["Ann", "CPU hard"]
    named = ["Ann", "Computer (hard)"]  # as the page shows them
    game_id = page.url.split("/games/")[1].split("?")[0].split("#")[0]
    api = f"{base}/api/games/{game_id}"
    button, box = page.locator("#chances"), page.locator("#chances-box")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(box).to_be_hidden()  # off by default, not to spoil the game

    # Later in the game (the first rounds take the solver seconds, these milliseconds).
    for _ in range(5):
        play_turn(page, "Ann")
    expect(page.locator("#title")).to_have_text("Round 6 of 15", timeout=15_000)
    expect(page.locator("#roll")).to_be_enabled(timeout=15_000)
    assert asked == [] and box.is_hidden()  # never worked out while off

    with page.expect_response(lambda r: "/chances" in r.url) as answer:
        page.keyboard.press("w")
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(box).to_be_visible()
    first = answer.value.json()
    assert first["version"] == httpx.get(api).json()["version"]
    expect(box).to_have_text(first["text"], timeout=15_000)
    shown = shown_chances(page, named)
    assert add_up_to_100(shown)
    for name, percent in zip(players, shown, strict=True):  # the answer's, to a tenth
        assert abs(percent - 100 * first["chances"][name]) <= 0.05 + 1e-3
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # fits the phone

    # A move is a new version of the game: the chances are asked for again and shown.
    with page.expect_response(lambda r: "/chances" in r.url) as answer:
        page.keyboard.press("r")
    rolled = answer.value.json()
    assert rolled["version"] == first["version"] + 1
    expect(box).to_have_text(rolled["text"], timeout=15_000)
    assert add_up_to_100(shown_chances(page, named))

    # Ann scores and the computer plays its turn at once. The answer to Ann's move is
    # held back until the computer has finished, so it comes after the newer states:
    # the page must still end on the game as it stands, and its chances.
    def late(route: Route) -> None:
        response = route.fetch()
        deadline = time.monotonic() + 15
        while (httpx.get(api).json()["current_player"] != "Ann"
               and time.monotonic() < deadline):
            time.sleep(0.05)
        time.sleep(0.3)
        route.fulfill(response=response)

    page.route(re.compile(r"/actions\?"), late)
    score_best(page)
    expect(page.locator("#status")).to_have_text("Ann's turn · 3 rolls left", timeout=15_000)
    page.unroute(re.compile(r"/actions\?"))
    now = httpx.get(f"{api}/chances?lang=en").json()
    assert now["version"] == httpx.get(api).json()["version"] > rolled["version"] + 1
    expect(box).to_have_text(now["text"], timeout=15_000)

    # Off again: the box hides, and a move asks for nothing.
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(box).to_be_hidden()
    count = len(asked)
    page.keyboard.press("r")
    expect(page.locator("#cards button.box").first).to_be_visible(timeout=15_000)
    assert len(asked) == count and box.is_hidden()

    # Alone, there is no one to win against: no button, and the key does nothing.
    start_game(page, base, ["Ann"])
    expect(page.locator("#status")).to_contain_text("Ann's turn")
    expect(button).to_be_hidden()
    page.keyboard.press("w")
    expect(box).to_be_hidden()
    assert len(asked) == count
    assert errors == []
    phone.close()


def test_win_chances_busy_elsewhere_are_asked_again(browser: Browser, base: str) -> None:
    """A server process answers 503 ``advice_busy`` while another works the game's
    chances out: the page keeps saying it is working, and asks again a second later."""
    page = browser.new_context(**DESKTOP).new_page()
    errors: list[str] = []
    record_errors(page, errors)
    answered: list[int] = []

    def busy_once(route: Route) -> None:
        if not answered:
            answered.append(503)
            route.fulfill(status=503, headers={"Retry-After": "1"},
                          content_type="application/json", body=json.dumps({"error": {
                              "code": "advice_busy",
                              "message": "The computer is busy working things out: ask "
                                         "again in a moment"}}))
        else:
            answered.append(200)
            route.continue_()

    start_game(page, base, ["Ann"], computers=1)
    for _ in range(5):  # the first rounds take the solver seconds, these milliseconds
        play_turn(page, "Ann")
    expect(page.locator("#title")).to_have_text("Round 6 of 15", timeout=15_000)
    expect(page.locator("#roll")).to_be_enabled(timeout=15_000)
    page.route("**/chances*", busy_once)
    box = page.locator("#chances-box")
    with page.expect_response(lambda r: "/chances" in r.url and r.status == 200,
                              timeout=15_000):
        page.keyboard.press("w")
        expect(box).to_have_text("Win chances: working them out…")
    shown = shown_chances(page, ["Ann", "Computer (hard)"])
    assert add_up_to_100(shown)
    assert answered == [503, 200]
    assert "busy" not in box.inner_text()
    assert [e for e in errors if "503" not in e] == []
