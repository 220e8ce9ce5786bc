"""The "your turn" chime: off at first, turned on by a button on the game page and
remembered by the browser; it sounds when the turn comes to this seat, not while it
stays there, and not once turned off. Made with the Web Audio API (no audio file)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import PHONE, score_best, start_game

WIDE: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}

#: A stand-in for the Web Audio API (headless Chromium plays nothing): each note the
#: page starts is written down in window.chimes, with its frequencies.
FAKE_AUDIO = """
window.chimes = [];
class FakeAudioContext {
  constructor() { this.state = "suspended"; this.currentTime = 0; this.destination = {}; }
  resume() { this.state = "running"; return Promise.resolve(); }
  createOscillator() {
    const heard = [];
    return {
      frequency: { setValueAtTime: (v) => heard.push(v) },
      connect: (to) => to, start: () => window.chimes.push(heard), stop() {},
    };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
             connect: (to) => to };
  }
}
window.AudioContext = FakeAudioContext;
"""


def chimes(page: Page) -> int:
    return int(page.evaluate("window.chimes.length"))


def wait_for_chimes(page: Page, count: int, timeout: float = 15.0) -> None:
    """Wait until ``count`` chimes have rung (polled from here: the page's security
    policy forbids the evaluated predicates of ``wait_for_function``)."""
    deadline = time.monotonic() + timeout
    while chimes(page) < count:
        assert time.monotonic() < deadline, f"{chimes(page)} chimes, not {count}"
        page.wait_for_timeout(50)
    assert chimes(page) == count


def play_turn_on_phone(page: Page) -> None:
    """Roll and fill a box on the phone's card of the player to move."""
    expect(page.locator("#roll")).to_be_enabled(timeout=15_000)
    page.locator("#roll").tap()
    boxes = page.locator("#turn-card button.box")
    expect(boxes.first).to_be_visible(timeout=15_000)
    boxes.first.tap()
    if page.locator("#confirm").is_visible():
        page.locator("#confirm button[value=yes]").tap()
    expect(boxes).to_have_count(0, timeout=15_000)


def test_the_chime_is_chosen_remembered_and_rings_when_the_turn_comes(
        browser: Browser, base: str, tmp_path: Path) -> None:
    ann_context = browser.new_context(**WIDE)
    bo_context = browser.new_context(**PHONE)
    bo_context.add_init_script(FAKE_AUDIO)
    ann = ann_context.new_page()
    start_game(ann, base, ["Ann", "Bo"])
    bo_link = ann.locator("#links a", has_text="Bo").get_attribute("href")
    assert bo_link
    bo = bo_context.new_page()
    bo.goto(bo_link)
    expect(bo.locator("#notes")).to_contain_text("You play Bo.")
    sound = bo.get_by_role("button", name="Play a sound when it is my turn")
    expect(sound).to_have_attribute("aria-pressed", "false")  # off by default
    sound.tap()
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert bo.evaluate("window.chimes") == [[660, 990]]  # a taste of it, on the tap
    sound.scroll_into_view_if_needed()
    bo.screenshot(path=str(tmp_path / "sound-360.png"))
    bo.reload()
    expect(sound).to_have_attribute("aria-pressed", "true")  # remembered
    assert chimes(bo) == 0
    # Ann plays: the turn comes to Bo, and the chime rings once.
    expect(ann.locator("#roll")).to_be_enabled(timeout=15_000)
    ann.keyboard.press("r")
    score_best(ann)
    expect(bo).to_have_title("● Your turn — Yatzy")
    wait_for_chimes(bo, 1)
    # Bo's own roll keeps the turn his: no chime; his box passes it on.
    play_turn_on_phone(bo)
    assert chimes(bo) == 1
    expect(ann.locator("#roll")).to_be_enabled(timeout=15_000)  # Ann has heard of it
    ann.keyboard.press("r")
    score_best(ann)
    wait_for_chimes(bo, 2)
    # Turned off, it rings no more.
    sound.tap()
    expect(sound).to_have_attribute("aria-pressed", "false")
    play_turn_on_phone(bo)
    expect(ann.locator("#roll")).to_be_enabled(timeout=15_000)
    ann.keyboard.press("r")
    score_best(ann)
    expect(bo).to_have_title("● Your turn — Yatzy")
    assert chimes(bo) == 2
    bo.reload()
    expect(sound).to_have_attribute("aria-pressed", "false")
    ann_context.close()
    bo_context.close()
