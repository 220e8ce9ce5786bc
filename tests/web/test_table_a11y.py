"""What a screen reader hears and what axe-core finds: the page's polite live region
says each roll's dice, each score, a computer's keep and whose turn it is; the language
links and the remove buttons have names; and axe-core (the npm package, read from
node_modules into the page, never from a CDN) finds no serious or critical violation on
the home page, a game in play, the end screen, the replay, the history and a 404 page,
on a desktop and on a phone."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import DESKTOP, PHONE, start_game
from tests.web.test_table_defects import first_roll

AXE = Path(__file__).parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not AXE.exists():
        if os.environ.get("YATZY_REQUIRE_BROWSER"):
            raise RuntimeError("axe-core is required here (npm ci)")
        pytest.skip("axe-core is not installed (npm ci installs it)")
    page.evaluate(AXE.read_text())
    found: list[dict[str, Any]] = page.evaluate(
        "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations"
        ".filter((v) => v.impact === 'serious' || v.impact === 'critical')"
        ".map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target) })))")
    return found


def finished_game(base: str, people: list[str]) -> dict[str, Any]:
    """A game of Yatzy played to its end over the API (each turn: roll, then the box worth
    most); its creation answer."""
    created: dict[str, Any] = httpx.post(
        f"{base}/api/games", json={"rules": "yatzy", "seats": [{"name": p} for p in people]}).json()
    tokens = {seat["name"]: seat["token"] for seat in created["seats"]}
    game = f"{base}/api/games/{created['id']}"
    while True:
        state = httpx.get(game).json()
        if state["is_over"]:
            return created
        auth = {"Authorization": f"Bearer {tokens[state['current_player']]}"}
        if state["can_roll"] and state["dice"] is None:
            state = httpx.post(f"{game}/actions", json={"type": "roll"}, headers=auth).json()
        box = max(state["choices"], key=state["choices"].get)
        httpx.post(f"{game}/actions", json={"type": "score", "box": box}, headers=auth)


def seat_url(created: dict[str, Any], seat: int = 0) -> str:
    url: str = created["seats"][seat]["url"]
    return url.replace("#", "?lang=en#")


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious(browser: Browser, base: str, screen: dict[str, Any]) -> None:
    context = browser.new_context(**screen)
    page = context.new_page()
    found: dict[str, list[dict[str, Any]]] = {}
    page.goto(f"{base}/?lang=en")
    expect(page.locator("#seats li")).to_have_count(1)
    found["home"] = axe_violations(page)
    start_game(page, base, ["Ann", "Bo"], computers=1)
    first_roll(page)
    page.keyboard.press("1")
    found["game"] = axe_violations(page)
    over = finished_game(base, ["Ann", "Bo"])
    page.goto(seat_url(over))
    expect(page.locator("#verdict")).to_be_visible(timeout=15_000)
    expect(page.locator("#analysis")).to_contain_text("Ann", timeout=60_000)
    found["end"] = axe_violations(page)
    page.goto(f"{base}/games/{over['id']}/replay?lang=en&step=3")
    expect(page.locator("#replay-step")).to_contain_text("Step 3 of")
    found["replay"] = axe_violations(page)
    page.goto(f"{base}/history?lang=en")
    expect(page.locator("#my-games > li")).to_have_count(2)
    found["history"] = axe_violations(page)
    page.goto(f"{base}/nowhere?lang=en")
    found["404"] = axe_violations(page)
    assert found == {name: [] for name in found}
    context.close()


def test_the_live_region_says_what_happens(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    start_game(page, base, ["Ann"], computers=1)
    expect(page.locator("#roll")).to_be_enabled(timeout=15_000)
    region = page.locator("#announce")
    expect(region).to_have_attribute("aria-live", "polite")
    # Everything the region says, in order (the computer's turn passes quickly).
    page.evaluate("""() => { window.said = [];
      const region = document.getElementById('announce');
      new MutationObserver(() => window.said.push(region.textContent))
        .observe(region, { childList: true, characterData: true, subtree: true }); }""")
    first_roll(page)
    labels = page.locator("#dice .die").evaluate_all("(d) => d.map((e) => e.ariaLabel)")
    dice = " ".join(label.split(": ")[1] for label in labels)
    expect(region).to_have_text(f"Ann rolled {dice}.")
    page.locator("#cards button.box").last.click()
    if page.locator("#confirm").is_visible():
        page.locator("#confirm button[value=yes]").click()
    expect(page.locator("#roll")).to_be_enabled(timeout=15_000)  # the computer has played
    expect(region).to_contain_text("Your turn")
    said = page.evaluate("window.said")
    assert any(s.startswith("Ann put ") and s.endswith("Computer (hard)'s turn")
               for s in said), said
    assert any(s.startswith("Computer (hard) rolled ") for s in said), said
    assert any(s.startswith("Computer (hard) put ") for s in said), said
    page.close()


def test_controls_are_named(browser: Browser, base: str) -> None:
    page = browser.new_page(**PHONE)
    page.goto(f"{base}/?lang=en")
    expect(page.get_by_role("link", name="Svenska")).to_have_attribute("lang", "sv")
    expect(page.get_by_role("link", name="Suomi")).to_be_visible()
    page.click("#add-computer")
    page.click("#add-person")
    expect(page.get_by_role("button", name="Remove player 3")).to_be_visible()
    page.get_by_role("button", name="Remove player 1").click()
    expect(page.get_by_role("button", name="Remove player 2")).to_be_visible()
    expect(page.get_by_role("button", name="Remove player 3")).to_have_count(0)
    page.close()
