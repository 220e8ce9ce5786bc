"""Computers are named in the page's language: a computer named after its level when
the game was set up (stored as "CPU hard", the same in every language) shows as
"Dator (svår)" on a Swedish page — home, game and history — while the stored name,
which identifies the seat, stays as it is."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.web.test_browser import PHONE

WIDE: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}


@pytest.mark.parametrize("device", [WIDE, PHONE], ids=["1366", "360"])
def test_a_swedish_page_names_the_computer_in_swedish(browser: Browser, base: str,
                                                      device: dict[str, Any],
                                                      tmp_path: Path) -> None:
    context = browser.new_context(**device)
    page = context.new_page()
    page.goto(f"{base}/?lang=sv")
    page.fill("#seats input[name=name]", "Ann")
    page.click("#add-computer")
    level = page.locator("#seats select[name=bot]")
    expect(level.locator("option:checked")).to_have_text("Svår")
    assert "Girig" in level.locator("option").all_inner_texts()
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))
    game_id = page.url.split("/games/")[1].split("?")[0].split("#")[0]
    expect(page.locator("#cards thead th").nth(1)).to_have_text("Dator (svår)")
    # The computer's turn, said in Swedish.
    roll = page.locator("#roll")
    expect(roll).to_be_enabled(timeout=15_000)
    page.keyboard.press("r")
    boxes = page.locator("#cards button.box" if device is WIDE else "#turn-card button.box")
    expect(boxes.first).to_be_visible(timeout=15_000)
    # Every status line the page shows from now on.
    page.evaluate("""() => {
        window.seenStatus = [];
        const status = document.getElementById("status");
        new MutationObserver(() => window.seenStatus.push(status.textContent))
            .observe(status, { childList: true, characterData: true, subtree: true });
    }""")
    boxes.first.click()
    if page.locator("#confirm").is_visible():
        page.locator("#confirm button[value=yes]").click()
    expect(page.locator("#notes")).to_contain_text("Dator (svår)", timeout=15_000)
    expect(page.locator("#status")).to_contain_text("Ann", timeout=15_000)
    seen = page.evaluate("window.seenStatus")
    # Its name says it is a computer: not "Dator (svår) (dator) spelar".
    assert any(line.startswith("Dator (svår) spelar") for line in seen), seen
    assert not any("(dator)" in line for line in seen), seen
    page.screenshot(path=str(tmp_path / "names.png"))
    # The stored name is untouched: the API still names the seat as it was set up.
    state = page.request.get(f"{base}/api/games/{game_id}?lang=sv").json()
    assert state["players"] == ["Ann", "CPU hard"]
    assert state["names"] == {"Ann": "Ann", "CPU hard": "Dator (svår)"}
    page.goto(f"{base}/history?lang=sv")
    expect(page.locator("#my-games li").first).to_contain_text("Ann, Dator (svår)")
    context.close()
