"""Whole games played as a person plays them, in Debian's Chromium, against a real server.

    python bench/play_through.py [--phone 1] [--desktop 1] [--shots FOLDER]

Starts ``yatzy serve`` (a fresh SQLite file, no rate limit, computers without a pause)
and plays, in headless Chromium driven by Playwright:

- ``--phone`` games on a 360x740 touch phone against the hard computer, by tapping only:
  roll once, then the box worth most (confirming a zero). After every turn the page's
  scroll offset is read: the table must not jump away from the dice.
- ``--desktop`` solo games on a 1366x768 screen by the keyboard only: ``r`` to roll,
  ``1`` ``2`` and ``r`` to reroll in the fourth round, Tab to the box worth most and
  Enter, ``y`` to confirm a zero.

For each game it prints the totals, the page errors seen (uncaught errors and console
errors), the largest scroll offset after a turn (phone) and whether the card's total
is the sum of its boxes and bonuses as the server stores them. ``--shots`` keeps a
screenshot of the first roll, of the middle of the game and of the end of each game.
Not part of ``make test`` (the browser tests are); a look at the table as a player has
it, with figures.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx2 as httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from tests.web.conftest import ARGS, CHROMIUM  # noqa: E402

from web import HOST, free_port, server_command, stop, wait_healthy  # noqa: E402

TIMEOUT = 30_000  # milliseconds a step of the page may take


def card_adds_up(card: dict[str, Any], boxes: list[str]) -> bool:
    """Whether a stored card's total is its boxes plus its bonuses."""
    return card["total"] == sum(card[b] or 0 for b in boxes) + card["upper_bonus"] \
        + card.get("yahtzee_bonus", 0)


def open_page(browser: Any, **device: Any) -> tuple[Any, Any, list[str]]:
    """A new page on ``device``, its uncaught and console errors collected."""
    context = browser.new_context(**device)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return context, page, errors


def finish(context: Any, page: Any, shot: Path | None) -> str:
    """Wait for the game's end on ``page`` (its screenshot in ``shot``), close it, and
    return the game's id."""
    from playwright.sync_api import expect

    expect(page.locator("#verdict")).to_be_visible(timeout=TIMEOUT)
    if shot:
        page.screenshot(path=str(shot))
    game_id: str = page.url.split("/games/")[1].split("?")[0].split("#")[0]
    context.close()
    return game_id


def phone_game(browser: Any, base: str, shots: Path | None, n: int) -> dict[str, Any]:
    from playwright.sync_api import expect

    context, page, errors = open_page(browser, viewport={"width": 360, "height": 740},
                                      is_mobile=True, has_touch=True)
    page.goto(f"{base}/?lang=en")
    page.fill("#seats input[name=name]", "Ann")
    page.click("#add-computer")
    page.tap("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))
    scrolled = 0
    boxes = page.locator("#turn-card button.box")
    for turn in range(15):
        expect(page.locator("#status")).to_contain_text("Ann's turn", timeout=TIMEOUT)
        roll = page.locator("#roll")
        expect(roll).to_be_enabled(timeout=TIMEOUT)
        roll.tap()
        expect(boxes.first).to_be_visible(timeout=TIMEOUT)
        if shots and turn == 0:
            page.screenshot(path=str(shots / f"phone-{n}-roll.png"))
        points = [int(text) for text in boxes.all_inner_texts()]
        boxes.nth(points.index(max(points))).tap()
        if max(points) == 0:
            page.locator("#confirm button[value=yes]").tap()
        expect(boxes).to_have_count(0, timeout=TIMEOUT)
        scrolled = max(scrolled, page.evaluate("window.scrollY"))
        if shots and turn == 7:
            page.screenshot(path=str(shots / f"phone-{n}-middle.png"))
    game_id = finish(context, page, shots and shots / f"phone-{n}-end.png")
    return {"game": game_id, "turns": 15, "errors": errors, "largest_scroll": scrolled}


def desktop_game(browser: Any, base: str, shots: Path | None, n: int) -> dict[str, Any]:
    from playwright.sync_api import expect

    context, page, errors = open_page(browser, viewport={"width": 1366, "height": 768})
    page.goto(f"{base}/?lang=en")
    page.fill("#seats input[name=name]", "Kim")
    page.locator("#seats input[name=name]").press("Enter")
    page.wait_for_url(re.compile(r"/games/\w+"), timeout=TIMEOUT)
    boxes = page.locator("#cards button.box")
    focused_box = ("[...document.querySelectorAll('#cards button.box')]"
                   ".indexOf(document.activeElement)")
    for turn in range(15):
        expect(page.locator("#roll")).to_be_enabled(timeout=TIMEOUT)
        page.keyboard.press("r")
        expect(boxes.first).to_be_visible(timeout=TIMEOUT)
        if turn == 3:
            for key in ("1", "2", "r"):
                page.keyboard.press(key)
            expect(page.locator("#status")).to_contain_text("1 roll left", timeout=TIMEOUT)
        points = [int(text) for text in boxes.all_inner_texts()]
        target = points.index(max(points))
        for _ in range(100):  # Tab to the box worth most
            if page.evaluate(focused_box) == target:
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        if max(points) == 0:
            expect(page.locator("#confirm[open]")).to_be_visible(timeout=TIMEOUT)
            page.keyboard.press("y")
        expect(boxes).to_have_count(0, timeout=TIMEOUT)
        if shots and turn == 5:
            page.screenshot(path=str(shots / f"desktop-{n}-middle.png"))
    game_id = finish(context, page, shots and shots / f"desktop-{n}-end.png")
    return {"game": game_id, "turns": 15, "errors": errors}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phone", type=int, default=1, help="games on the phone (1)")
    parser.add_argument("--desktop", type=int, default=1, help="games by keyboard (1)")
    parser.add_argument("--shots", type=Path, help="keep screenshots in this folder")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"bench/play_through.py: no browser at {CHROMIUM} (apt-get install chromium)",
              file=sys.stderr)
        return 1
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        base = f"http://{HOST}:{port}"
        log = (Path(folder) / "server.log").open("wb")
        server = subprocess.Popen(server_command(port, Path(folder) / "games.sqlite3"),
                                  stdout=log, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, cwd=folder)
        try:
            wait_healthy(base, server, 60)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                played = [("phone", phone_game(browser, base, args.shots, n))
                          for n in range(args.phone)]
                played += [("desktop", desktop_game(browser, base, args.shots, n))
                           for n in range(args.desktop)]
                browser.close()
            for kind, game in played:
                state = httpx.get(f"{base}/api/games/{game['game']}", trust_env=False).json()
                boxes = [b for b in next(iter(state["scorecards"].values()))
                         if b not in ("upper_sum", "upper_bonus", "yahtzee_bonus", "total")]
                totals = {p: c["total"] for p, c in state["scorecards"].items()}
                adds_up = all(card_adds_up(c, boxes) for c in state["scorecards"].values())
                line = (f"{kind}: {game['turns']} turns, totals {totals}, over "
                        f"{state['is_over']}, cards add up {adds_up}, page errors "
                        f"{len(game['errors'])}")
                if kind == "phone":
                    line += f", largest scroll after a turn {game['largest_scroll']} px"
                print(line)
                for error in game["errors"]:
                    print(f"  page error: {error}")
        finally:
            stop(server)
            log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
