"""Maxi Yatzy on the web: the form offers the computers that play it, and a person plays a
whole game against one on a phone, the saved rolls shown."""

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

from playwright.sync_api import Browser, expect

from tests.web.test_browser import PHONE, record_errors, score_best


def test_a_whole_maxi_game_against_a_computer_on_a_phone(browser: Browser, base: str) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    record_errors(page, errors)
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
    assert errors == []
    context.close()
