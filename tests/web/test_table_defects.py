"""The defects of the web table found in play (each seen in a real browser first): keys
and focus on the dice, a lost connection, links and seats, real dice, the pages' errors,
and the API's documentation page."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.web.conftest import ARGS, CHROMIUM
from tests.web.test_browser import DESKTOP, PHONE, record_errors, start_game


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


# --- 2. Space and Enter press the focused control; Space rolls only with none. ----------

def test_space_presses_the_focused_die_and_box(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    start_game(page, base, ["Ann"])
    first_roll(page)
    before = state(base, page)
    die = page.locator("#dice .die").first
    die.focus()
    page.keyboard.press(" ")
    expect(die).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(300)  # a roll would have come back by now
    assert state(base, page)["version"] == before["version"]  # nothing rolled
    box = page.locator("#cards button.box:not(.zero)").first
    box.focus()
    page.keyboard.press(" ")
    expect(page.locator("#cards button.box")).to_have_count(0, timeout=15_000)
    assert state(base, page)["last"]["type"] == "score"
    # With no control in focus, Space rolls.
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press(" ")
    expect(page.locator("#cards button.box").first).to_be_visible(timeout=15_000)
    page.close()


# --- 3. Holding a die by keyboard keeps the focus on it. --------------------------------

def test_holding_a_die_with_enter_keeps_the_focus(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    start_game(page, base, ["Ann"])
    first_roll(page)
    page.locator("#dice .die").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#dice .die").first).to_have_attribute("aria-pressed", "true")
    focused = "document.activeElement.getAttribute('aria-label') || document.activeElement.tagName"
    assert re.match(r"1: \d \(held\)$", page.evaluate(focused))
    page.keyboard.press("Tab")
    assert page.evaluate(focused).startswith("2: ")
    page.keyboard.press("Enter")
    expect(page.locator("#dice .die").nth(1)).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(focused).startswith("2: ")
    page.close()


# --- 4. A failed request leaves the page usable, and says so. ---------------------------

def test_a_failed_request_is_said_and_the_next_one_goes(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    start_game(page, base, ["Ann"])
    expect(page.locator("#roll")).to_be_enabled(timeout=15_000)
    actions = re.compile(r"/actions\?")
    page.route(actions, lambda route: route.abort())
    page.click("#roll")
    expect(page.locator("#message")).to_have_text("The server cannot be reached: try again")
    page.unroute(actions)
    page.click("#roll")
    expect(page.locator("#cards button.box").first).to_be_visible(timeout=15_000)
    expect(page.locator("#message")).to_have_text("")
    page.close()


# --- 5. Only the dice on the table can be held. -----------------------------------------

def test_keys_past_the_dice_hold_nothing(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    start_game(page, base, ["Ann"])
    first_roll(page)
    dice_count = state(base, page)["dice_count"]
    for key in "6789":
        page.keyboard.press(key)
    expect(page.locator("#dice .die")).to_have_count(dice_count)
    expect(page.locator('#dice .die[aria-pressed="true"]')).to_have_count(0)
    page.keyboard.press("r")
    expect(page.locator("#status")).to_contain_text("1 roll left", timeout=15_000)
    expect(page.locator("#message")).to_have_text("")
    page.close()


# --- 6. Copying a link: said only when copied; no complaint on a plain-HTTP address. ----

@pytest.fixture(scope="module")
def lan_browser(browser: Browser) -> Iterator[Browser]:
    """A browser that reaches the test server by a name, as a phone reaches a computer on
    the same network: over plain HTTP that is no secure origin (no clipboard API)."""
    lan = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*ARGS, "--host-resolver-rules=MAP yatzy.lan 127.0.0.1"])
    yield lan
    lan.close()


def test_copy_on_a_plain_http_address_selects_the_link(lan_browser: Browser,
                                                         base: str) -> None:
    lan = base.replace("127.0.0.1", "yatzy.lan")
    page = lan_browser.new_page(**DESKTOP)
    errors: list[str] = []
    record_errors(page, errors)
    start_game(page, lan, ["Ann", "Bo"])
    assert page.evaluate("window.isSecureContext") is False
    row = page.locator("#links li", has_text="Bo")
    link = row.locator("a").get_attribute("href")
    copy = row.get_by_role("button", name="Copy")
    copy.click()
    expect(row).to_contain_text("Copy it by hand")
    expect(copy).not_to_have_text("Copied")
    selected = page.evaluate("(() => { const e = document.activeElement;"
                             " return e.value.slice(e.selectionStart, e.selectionEnd); })()")
    assert selected == link
    assert errors == []  # no complaint about a header the address cannot use
    page.close()


def test_copy_puts_the_link_on_the_clipboard(browser: Browser, base: str) -> None:
    context = browser.new_context(**DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    start_game(page, base, ["Ann", "Bo"])
    row = page.locator("#links li", has_text="Bo")
    row.get_by_role("button", name="Copy").click()
    expect(row.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == row.locator("a").get_attribute("href")
    context.close()


def test_the_opener_policy_goes_only_to_secure_origins(base: str) -> None:
    port = base.rsplit(":", 1)[1]
    assert "cross-origin-opener-policy" in httpx.get(f"{base}/").headers
    lan = httpx.get(f"{base}/", headers={"Host": f"yatzy.lan:{port}"})
    assert lan.status_code == 200 and "cross-origin-opener-policy" not in lan.headers
    assert "content-security-policy" in lan.headers


# --- 7. One browser, several seats of a game: it says which it plays, and switches. -----

def test_a_browser_with_two_seats_plays_one_and_switches(browser: Browser,
                                                          base: str) -> None:
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    record_errors(page, errors)
    start_game(page, base, ["Ann", "Bo"])
    notes = page.locator("#notes")
    expect(notes).to_contain_text("You play Ann.")
    bo_link = page.locator("#links a", has_text="Bo").get_attribute("href")
    assert bo_link
    page.goto(bo_link)
    expect(notes).to_contain_text("You play Bo.")
    switch = page.locator("#seat-switch")
    expect(switch.get_by_role("button", name="Play as Bo")).to_have_count(0)
    switch.get_by_role("button", name="Play as Ann").click()
    expect(notes).to_contain_text("You play Ann.")
    # The game's plain address plays the seat chosen last.
    page.goto(f"{base}/games/{game_id(page)}?lang=en")
    expect(notes).to_contain_text("You play Ann.")
    expect(switch.get_by_role("button", name="Play as Bo")).to_be_visible()
    # The history lists the game once, with a way into each seat.
    page.goto(f"{base}/history?lang=en")
    expect(page.locator("#my-games > li")).to_have_count(1)
    expect(page.get_by_role("link", name="Play as Ann")).to_be_visible()
    page.get_by_role("link", name="Play as Bo").click()
    expect(notes).to_contain_text("You play Bo.")
    assert errors == []
    context.close()


# --- 8. The history on a phone keeps numbers whole. -------------------------------------

def test_the_history_on_a_phone_breaks_no_number(browser: Browser, base: str) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    names = ["Kim", "Alexandra", "Bo", "Christoffer", "Eva-Lotta", "Jo", "Maximilian"]
    games = [{"id": f"g{i}", "title": "Scandinavian Yatzy", "player": "Kim",
              "players": ["Kim", *names[:i % len(names)], "x" * i], "is_over": True,
              "round": 16, "rounds": 15, "total": 100 + i * 7, "winners": ["Kim"],
              "updated_at": "2026-01-01T00:00:00+00:00",
              "rules": {"name": "yatzy"}} for i in range(24)]

    def me(route: Route) -> None:
        route.fulfill(json={"games": games, "bests": []})

    page.route(re.compile(r"/api/me\?"), me)
    page.goto(f"{base}/history?lang=en")
    scores = page.locator("#my-games li .small")
    expect(scores).to_have_count(len(games))
    # Each score is on one line (a number split over two lines shows as two boxes).
    lines = page.evaluate("[...document.querySelectorAll('#my-games li .small')]"
                          ".map((e) => e.getClientRects().length)")
    assert lines == [1] * len(games)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


# --- 9. No invitation where there is no other person to invite. -------------------------

def test_no_invitation_against_computers_only(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    start_game(page, base, ["Ann"], computers=2)
    expect(page.locator("#notes")).to_contain_text("You play Ann.")
    expect(page.locator("#cards thead th")).to_have_count(3)  # a column for each seat
    expect(page.locator("#invite")).to_be_hidden()
    start_game(page, base, ["Ann", "Bo"], computers=1)
    expect(page.locator("#invite")).to_be_visible()
    page.close()


# --- 10. Real dice: the field asks for as many dice as are rerolled. --------------------

def test_real_dice_field_asks_for_the_rerolled_dice(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    page.goto(f"{base}/?lang=en")
    page.fill("#seats input[name=name]", "Ann")
    page.check("input[name=dice][value=manual]")
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))
    field, label = page.locator("#dice-input"), page.locator("#dice-label")
    expect(field).to_be_visible()
    expect(field).to_have_attribute("placeholder", "? ? ? ? ?")
    expect(label).to_have_text("Ann: type the 5 dice you rolled")
    field.fill("1 2 3 4 5")
    field.press("Enter")
    expect(page.locator("#dice .die").first).to_have_attribute("aria-label", "1: 1")
    page.locator("#dice .die").nth(0).click()
    page.locator("#dice .die").nth(1).click()
    expect(field).to_have_attribute("placeholder", "? ? ?")
    expect(label).to_have_text("Ann: type the 3 dice you rolled")
    field.fill("666")
    field.press("Enter")
    expect(page.locator("#status")).to_contain_text("1 roll left", timeout=15_000)
    expect(page.locator("#message")).to_have_text("")
    assert state(base, page)["dice"] == [1, 2, 6, 6, 6]
    page.close()


# --- 11. Pages that are not there: a page saying so, in the page's language. ------------

@pytest.mark.parametrize("path", ["/games/doesnotexist?lang=sv", "/nonexistent?lang=sv",
                                  "/games/doesnotexist/replay?lang=sv"])
def test_a_missing_page_is_a_404_page(browser: Browser, base: str, path: str) -> None:
    page = browser.new_page(**PHONE)
    errors: list[str] = []
    record_errors(page, errors)
    response = page.goto(f"{base}{path}")
    assert response is not None and response.status == 404
    assert response.headers["content-type"].startswith("text/html")
    assert page.evaluate("document.documentElement.lang") == "sv"
    expect(page.locator("h1")).to_have_text("Här finns ingenting")
    expect(page.locator("#roll")).to_have_count(0)
    page.get_by_role("link", name="Starta ett spel").click()
    page.wait_for_url(re.compile(r"/\?lang=sv$"))
    assert [e for e in errors if "404" not in e] == []
    page.close()


def test_the_api_keeps_answering_json(base: str) -> None:
    for path in ("/api/games/doesnotexist", "/api/nowhere", "/nonexistent"):
        response = httpx.get(f"{base}{path}", headers={"Accept": "application/json"})
        assert response.status_code == 404
        assert set(json.loads(response.text)) == {"error"}


# --- 12. A game needs a seat: the form says so, and is not sent without one. ------------

def test_the_form_needs_a_seat(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    page.goto(f"{base}/?lang=sv")
    page.locator("#seats .remove").click()
    error = page.locator("#form-error")
    expect(error).to_have_text("Ange minst en spelare")
    expect(page.locator("#start")).to_be_disabled()
    page.evaluate("document.getElementById('new-game').requestSubmit()")
    assert sent == []
    expect(error).not_to_contain_text("List should")
    page.click("#add-computer")
    expect(error).to_have_text("")
    expect(page.locator("#start")).to_be_enabled()
    page.close()
