"""Maxi Yatzy on the web: the form offers the computers that play it, and a person plays a
whole game against one on a phone, the saved rolls shown; and a whole game with real dice
on a Swedish phone, the scorepad's names and its total as worked out by hand."""

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

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.web.test_browser import PHONE, record_errors, score_best


def phone(browser: Browser) -> tuple[BrowserContext, Page, list[str]]:
    """A 360 px touch phone's page, its uncaught and console errors collected."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    record_errors(page, errors)
    return context, page, errors


def test_a_whole_maxi_game_against_a_computer_on_a_phone(browser: Browser, base: str) -> None:
    context, page, errors = phone(browser)
    page.goto(f"{base}/?lang=en")
    page.click("#add-computer")
    level = page.locator("#seats select[name=bot]")
    offered = level.evaluate("s => [...s.options].filter(o => !o.disabled).map(o => o.value)")
    assert "hard" in offered and level.input_value() == "hard"  # Yatzy: the solver plays
    page.check("input[name=rules][value=maxi_yatzy]")
    offered = level.evaluate("s => [...s.options].filter(o => !o.disabled).map(o => o.value)")
    assert offered == ["greedy"] and level.input_value() == "greedy"  # not the solver's
    page.fill("#seats input[name=name]", "Ann")
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))
    expect(page.locator("#dice .die")).to_have_count(6, timeout=15_000)
    expect(page.locator("#chances")).to_be_hidden()  # the solver does not play Maxi
    for turn in range(20):
        expect(page.locator("#status")).to_contain_text("Ann's turn", timeout=15_000)
        if turn:  # one roll a turn: two more saved each time
            expect(page.locator("#status")).to_contain_text(f"{2 * turn} saved rolls")
        roll = page.locator("#roll")
        expect(roll).to_be_enabled(timeout=15_000)
        roll.tap()
        score_best(page)
    expect(page.locator("#verdict")).to_be_visible(timeout=15_000)
    rows = page.locator("#ranking tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator("#analysis")).to_be_hidden()  # nor analyses it
    expect(page.locator("#analysis-title")).to_be_hidden()
    assert errors == []
    context.close()


#: A whole Maxi Yatzy game with real dice: what Ann types for each box, in the order she
#: fills them, and what it scores there (worked out by hand from the rules).
REAL_GAME: list[tuple[str, str, int]] = [
    ("Ettor", "111111", 6), ("Tvåor", "222222", 12), ("Treor", "333333", 18),
    ("Fyror", "444444", 24), ("Femmor", "555555", 30), ("Sexor", "666666", 36),
    ("Ett par", "665431", 12), ("Två par", "665512", 22), ("Tre par", "665544", 30),
    ("Tretal", "666123", 18), ("Fyrtal", "666612", 24), ("Femtal", "666661", 30),
    ("Liten straight", "123451", 15), ("Stor straight", "234566", 20),
    ("Kåk", "666551", 28), ("Hus", "666555", 33), ("Torn", "666655", 34),
    ("Chans", "666665", 35), ("Maxi Yatzy", "666666", 100),
]


def test_a_whole_maxi_game_with_real_dice_on_a_swedish_phone(browser: Browser,
                                                              base: str) -> None:
    """The scorepad for real dice: six dice typed, four held and two typed again, the
    saved rolls counted, the Swedish pad's names (Kåk, Hus, Torn), and the total of a
    whole game as worked out by hand: upper 126 + bonus 100 + lower 422 = 648."""
    context, page, errors = phone(browser)
    page.goto(f"{base}/?lang=sv")
    page.check("input[name=rules][value=maxi_yatzy]")
    page.check("input[name=dice][value=manual]")
    page.fill("#seats input[name=name]", "Ann")
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))
    field = page.locator("#dice-input")
    expect(field).to_have_attribute("placeholder", "? ? ? ? ? ?")
    expect(page.locator("#keys")).to_be_hidden()  # a touch screen: no key hints

    def fill(box: str, points: int) -> None:
        button = page.locator(f"#cards button.box[aria-label^='{box}:']")
        expect(button).to_have_text(str(points), timeout=15_000)
        button.click()
        expect(page.locator("#cards button.box")).to_have_count(0, timeout=15_000)

    # The first turn: two rolls, the first four dice held for the full straight.
    field.fill("1 2 3 4 1 1")
    field.press("Enter")
    expect(page.locator("#dice .die")).to_have_count(6)
    for i in range(4):
        page.locator("#dice .die").nth(i).click()
    expect(field).to_have_attribute("placeholder", "? ?")
    field.fill("56")
    field.press("Enter")
    fill("Full straight", 21)
    expect(page.locator("#status")).to_contain_text("1 sparat slag", timeout=15_000)
    # The other nineteen: one roll each, so two more rolls saved every turn.
    for turn, (box, dice, points) in enumerate(REAL_GAME, start=1):
        expect(page.locator("#status")).to_contain_text(
            f"{1 + 2 * (turn - 1)} sparade slag" if turn > 1 else "1 sparat slag",
            timeout=15_000)
        expect(field).to_have_attribute("placeholder", "? ? ? ? ? ?")
        field.fill(dice)
        field.press("Enter")
        fill(box, points)
    expect(page.locator("#verdict")).to_be_visible(timeout=15_000)
    total = page.locator("#cards tr.sum").filter(has_text="Totalt").locator("td").last
    expect(total).to_have_text("648")
    bonus = page.locator("#cards tr.sum").filter(has_text="Bonus").locator("td").last
    expect(bonus).to_have_text("100")
    expect(page.locator("#keys")).to_be_hidden()
    expect(page.locator("#analysis")).to_be_hidden()  # the solver's table is not built
    expect(page.locator("#analysis-title")).to_be_hidden()  # nor its heading
    if os.environ.get("YATZY_SCREENSHOTS"):
        page.screenshot(path=os.environ["YATZY_SCREENSHOTS"], full_page=True)
    assert errors == []
    context.close()
