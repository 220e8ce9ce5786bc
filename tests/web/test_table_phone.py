"""The table on a phone (360x740): the dice, the roll button and the whole card of the
player to move on one screen, touch targets of a finger's size, no key hints on a touch
screen, and a page that stays where it is while the game goes on."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import DESKTOP, PHONE, start_game
from tests.web.test_table_defects import first_roll

#: The boxes (left, top, right, bottom) of what must be on the screen at once.
BOXES = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const all = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent).map(box);
  return { dice: all('#dice .die'), roll: all('#roll'), card: all('#turn-card tr'),
           boxes: all('#turn-card button.box'), buttons: all('.buttons button:not([hidden])'),
           scroll: [scrollX, scrollY], width: document.documentElement.scrollWidth };
}"""


def on_screen(page: Page) -> dict[str, Any]:
    boxes: dict[str, Any] = page.evaluate(BOXES)
    return boxes


def inside(box: list[float], width: int = 360, height: int = 740) -> bool:
    left, top, right, bottom = box
    return left >= 0 and top >= 0 and right <= width and bottom <= height


@pytest.mark.parametrize(("rules", "computers"), [("yatzy", 1), ("yatzy", 3), ("yahtzee", 1)])
def test_the_turn_fits_on_a_phone_screen(browser: Browser, base: str, rules: str,
                                         computers: int) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    start_game(page, base, ["Ann"], computers=computers, rules=rules)
    first_roll(page)
    seen = on_screen(page)
    assert seen["scroll"] == [0, 0] and seen["width"] <= 360
    rows = 18 if rules == "yatzy" else 17  # every box, the sums, the bonuses and the total
    assert len(seen["dice"]) == 5 and len(seen["roll"]) == 1 and len(seen["card"]) == rows
    for part in ("dice", "roll", "card"):
        assert all(inside(box) for box in seen[part]), (part, seen[part])
    # Touch targets: dice and buttons 44 px tall at least, score boxes 40 px.
    assert all(bottom - top >= 44 for _, top, _, bottom in seen["dice"] + seen["buttons"])
    assert seen["boxes"] and all(bottom - top >= 40 for _, top, _, bottom in seen["boxes"])
    # No key hints on a touch screen.
    expect(page.locator("#roll")).to_have_accessible_name("Reroll")
    expect(page.locator("#keys")).to_be_hidden()
    # Scoring from the phone's card keeps the page where it is, the dice in view.
    worth = page.locator("#turn-card button.box:not(.zero)")
    if worth.count():
        worth.first.tap()
    else:
        page.locator("#turn-card button.box").first.tap()
        page.locator("#confirm button[value=yes]").tap()
    expect(page.locator("#turn-card button.box")).to_have_count(0, timeout=15_000)
    expect(page.locator("#status")).to_contain_text("Ann's turn", timeout=15_000)
    assert on_screen(page)["scroll"] == [0, 0]
    context.close()


def test_the_desktop_shows_every_card_once(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    start_game(page, base, ["Ann"], computers=1)
    first_roll(page)
    expect(page.locator("#turn-card")).to_be_hidden()
    expect(page.locator("#cards thead th")).to_have_count(2)  # Ann and the computer
    expect(page.locator("#roll")).to_have_accessible_name("Reroll (r)")
    expect(page.locator("#keys")).to_be_visible()
    page.close()
