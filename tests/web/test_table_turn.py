"""Whose turn, outside the page: the tab's title and icon say "your turn" while it is
this seat's, and a system notification comes while the page is hidden, once the person
has asked for it with a click."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.web.test_browser import DESKTOP, score_best, start_game

#: A stand-in for the Notification API (headless Chromium shows none) and for a hidden
#: page: what the page would show is kept in window.shown.
FAKE_NOTIFICATIONS = """
window.shown = [];
window.hide = false;
Object.defineProperty(document, "hidden", { get: () => window.hide });
class FakeNotification {
  static permission = "default";
  static async requestPermission() { FakeNotification.permission = "granted"; return "granted"; }
  constructor(title, options) { window.shown.push({ title, body: options.body }); }
  addEventListener() {}
  close() {}
}
window.Notification = FakeNotification;
"""


def test_the_title_and_icon_say_whose_turn(browser: Browser, base: str) -> None:
    ann_context = browser.new_context(**DESKTOP)
    bo_context = browser.new_context(**DESKTOP)
    bo_context.add_init_script(FAKE_NOTIFICATIONS)
    ann = ann_context.new_page()
    start_game(ann, base, ["Ann", "Bo"])
    bo_link = ann.locator("#links a", has_text="Bo").get_attribute("href")
    assert bo_link
    bo = bo_context.new_page()
    bo.goto(bo_link)
    icon = "document.getElementById('favicon').getAttribute('href')"
    expect(ann).to_have_title("● Your turn — Yatzy")
    assert ann.evaluate(icon) == "/static/favicon-turn.svg"
    expect(bo.locator("#notes")).to_contain_text("You play Bo.")
    expect(bo).to_have_title("Yatzy")
    assert bo.evaluate(icon) == "/static/favicon.svg"
    # Bo asks to be told (a click asks the browser's permission), then leaves the tab.
    notify = bo.get_by_role("button", name="Tell me when it is my turn")
    notify.click()
    expect(notify).to_have_attribute("aria-pressed", "true")
    bo.evaluate("window.hide = true")
    expect(ann.locator("#roll")).to_be_enabled(timeout=15_000)
    ann.keyboard.press("r")
    # Bo sees Ann's dice at full contrast, though he cannot touch them.
    expect(bo.locator("#dice .die.blank")).to_have_count(0)
    expect(bo.locator("#dice .die").first).to_be_disabled()
    assert bo.locator("#dice .die").first.evaluate("(d) => getComputedStyle(d).opacity") == "1"
    score_best(ann)
    expect(ann).to_have_title("Yatzy")
    assert ann.evaluate(icon) == "/static/favicon.svg"
    expect(bo).to_have_title("● Your turn — Yatzy")
    assert bo.evaluate(icon) == "/static/favicon-turn.svg"
    shown = bo.evaluate("window.shown")
    assert len(shown) == 1 and shown[0]["title"] == "Your turn — Yatzy"
    assert re.fullmatch(r"Ann put \d+ in .+\. Your turn", shown[0]["body"]), shown
    # A page in view gets no notification; one turned off neither.
    bo.evaluate("window.hide = false")
    bo.keyboard.press("r")
    score_best(bo)
    expect(bo).to_have_title("Yatzy")
    notify.click()
    expect(notify).to_have_attribute("aria-pressed", "false")
    bo.evaluate("window.hide = true")
    expect(ann.locator("#roll")).to_be_enabled(timeout=15_000)  # Ann has heard of it
    ann.keyboard.press("r")
    score_best(ann)
    expect(bo).to_have_title("● Your turn — Yatzy")
    assert len(bo.evaluate("window.shown")) == 1
    ann_context.close()
    bo_context.close()
