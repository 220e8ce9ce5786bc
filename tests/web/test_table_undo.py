"""Undo on the web table: a person takes back the box just chosen (with real dice, the
dice just typed too), and the game's record keeps both the move and the undo, so that it
replays as played."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

import yatzy
from tests.web.test_browser import PHONE

WIDE: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}


@pytest.mark.parametrize("device", [WIDE, PHONE], ids=["1366", "360"])
def test_real_dice_and_a_box_are_taken_back_and_recorded(
        browser: Browser, base: str, device: dict[str, Any], tmp_path: Path) -> None:
    context = browser.new_context(**device)
    page = context.new_page()
    page.goto(f"{base}/?lang=en")
    page.fill("#seats input[name=name]", "Ann")
    page.check("input[name=dice][value=manual]")
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))
    game_id = page.url.split("/games/")[1].split("?")[0].split("#")[0]
    field, undo = page.locator("#dice-input"), page.locator("#undo")
    expect(undo).to_be_hidden()
    field.fill("1 2 3 4 4")
    field.press("Enter")
    expect(page.locator("#dice .die").first).to_have_attribute("aria-label", "1: 1")
    # A typing slip: the dice typed are taken back, and the field asks for them again.
    expect(undo).to_be_visible()
    undo.click()
    expect(page.locator("#announce")).to_have_text("Ann took back the dice just typed in.")
    expect(field).to_be_visible()
    expect(field).to_have_attribute("placeholder", "? ? ? ? ?")
    page.screenshot(path=str(tmp_path / "undo.png"))
    field.fill("6 6 6 6 6")
    field.press("Enter")
    boxes = page.locator("#cards button.box" if device is WIDE else "#turn-card button.box")
    expect(boxes.first).to_be_visible(timeout=15_000)
    undo.click()  # nothing chosen yet: the dice go back again
    expect(page.locator("#dice .die.blank")).to_have_count(5)
    field.fill("6 6 6 6 6")
    field.press("Enter")
    chance = page.get_by_role("button", name=re.compile("^Chance"))
    chance.first.click()
    # The box is in before Undo is pressed (a click while a move is on its way is
    # dropped, as a double click is).
    expect(page.locator("#announce")).to_have_text("Ann put 30 in Chance.")
    expect(undo).to_be_visible()
    undo.click()
    expect(page.locator("#announce")).to_have_text("Ann took back the box just chosen.")
    page.get_by_role("button", name=re.compile("^Yatzy")).first.click()
    expect(page.locator("#title")).to_contain_text("2", timeout=15_000)
    expect(page.locator("#status")).to_contain_text("3 rolls left")
    record = page.request.get(f"{base}/api/games/{game_id}/record").json()
    assert [a["type"] for a in record["actions"]] == [
        "roll", "undo", "roll", "undo", "roll", "score", "undo", "score"]
    assert record["version"] == 3
    game = yatzy.Game.from_record(record)
    assert game.scorecard("Ann")["yatzy"] == 50 and game.scorecard("Ann")["chance"] is None
    context.close()
