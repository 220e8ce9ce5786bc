"""Pass and play: several people at one device in one game. The device holds every
person's seat, says whose turn it is, waits for that person to take it, and plays their
seat; no link changes hands."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import PHONE, add_seats, record_errors, score_best


def start_on_one_device(page: Page, base: str, people: list[str], computers: int = 0) -> None:
    page.goto(f"{base}/?lang=en")
    box = page.get_by_label("Pass and play: everyone plays on this device")
    expect(box).to_be_hidden()  # one person: nobody to pass to
    add_seats(page, people, computers)
    box.check()
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))


def take_the_device(page: Page, name: str) -> None:
    handover = page.locator("#handover")
    expect(handover).to_be_visible(timeout=15_000)
    expect(handover.locator("h2")).to_have_text(f"{name}'s turn: hand the device over")
    expect(page.locator("#roll")).to_be_disabled()  # nobody plays Bo's turn by mistake
    page.get_by_role("button", name=f"I am {name}: play").tap()
    expect(handover).to_be_hidden()
    expect(page.locator("#notes")).to_contain_text(f"You play {name}.")


def test_two_people_and_a_computer_share_a_phone(browser: Browser, base: str) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    record_errors(page, errors)
    start_on_one_device(page, base, ["Ann", "Bo"], computers=1)
    expect(page.locator("#notes")).to_contain_text("You play Ann.")
    expect(page.locator("#handover")).to_be_hidden()
    expect(page.locator("#invite")).to_be_hidden()  # no links to hand out
    expect(page.locator("#seat-switch")).to_be_hidden()
    game_url = page.url.split("#")[0]
    for turn in range(2):
        expect(page.locator("#roll")).to_be_enabled(timeout=15_000)
        page.locator("#roll").tap()
        score_best(page)
        take_the_device(page, "Bo")
        page.locator("#roll").tap()
        score_best(page)
        # The computer plays, then it is Ann's turn again: hand the device back.
        take_the_device(page, "Ann")
        if turn == 0:
            page.goto(game_url)  # a reload: the page plays the seat that has the device
            expect(page.locator("#notes")).to_contain_text("You play Ann.")
            expect(page.locator("#handover")).to_be_hidden()
    # Both seats are this device's: its history has the game once, each seat in it.
    page.goto(f"{base}/history?lang=en")
    expect(page.locator("#my-games > li")).to_have_count(1)
    expect(page.get_by_role("link", name="Play as Bo")).to_be_visible()
    assert errors == []
    context.close()


def test_links_opened_on_one_device_are_not_pass_and_play(browser: Browser, base: str) -> None:
    """Two seats' links opened in one browser (not set up as pass and play) still play
    the seat chosen, with no handover."""
    from tests.web.test_browser import start_game

    context = browser.new_context(**PHONE)
    page = context.new_page()
    start_game(page, base, ["Ann", "Bo"])
    bo_link = page.locator("#links a", has_text="Bo").get_attribute("href")
    assert bo_link
    page.goto(bo_link)
    expect(page.locator("#notes")).to_contain_text("You play Bo.")
    page.wait_for_timeout(300)
    expect(page.locator("#handover")).to_be_hidden()
    context.close()
