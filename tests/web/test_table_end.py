"""The end of a game and what game it is: the winner at the top with every player's
place and total, the same game again with the same players, the replay, the record as a
download; the variant in words during the game, and the seed line in plain words with
its hash behind a toggle."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx2 as httpx
from playwright.sync_api import Browser, expect

from tests.web.test_browser import DESKTOP, PHONE, start_game
from tests.web.test_table_a11y import finished_game, seat_url


def test_the_end_shows_the_winner_and_what_comes_next(browser: Browser, base: str) -> None:
    context = browser.new_context(**PHONE, accept_downloads=True)
    page = context.new_page()
    over = finished_game(base, ["Ann", "Bo"])
    state = httpx.get(f"{base}/api/games/{over['id']}").json()
    page.goto(seat_url(over, 1))  # Bo's seat
    verdict = page.locator("#verdict")
    expect(verdict).to_be_visible(timeout=15_000)
    # The winner moment is at the top of the screen, the dice gone.
    assert page.evaluate("document.getElementById('verdict').getBoundingClientRect().top") < 200
    expect(page.locator("#dice")).to_be_hidden()
    expect(verdict).to_have_text(re.compile(r"(Ann|Bo) wins!|Ann, Bo share the win!"))
    rows = page.locator("#ranking tbody tr")
    expect(rows).to_have_count(2)
    shown = [re.split(r"\s+", text.strip()) for text in rows.all_inner_texts()]
    assert shown == [[f"{r['place']}.", r["player"], str(r["total"])] for r in state["ranking"]]
    assert [r["total"] for r in state["ranking"]] == sorted(
        (state["scorecards"][p]["total"] for p in ("Ann", "Bo")), reverse=True)
    # The replay link, and the record as a download (a file, with the seed revealed).
    expect(page.get_by_role("link", name="Replay")).to_have_attribute(
        "href", f"/games/{over['id']}/replay?lang=en")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the game record").click()
    assert download.value.suggested_filename == f"yatzy-{over['id']}.json"
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["format"] == "yatzy-game" and record["seed"]
    assert page.url.startswith(f"{base}/games/{over['id']}")  # still the game's page
    # The same game again: the same seats, this browser in Bo's.
    page.get_by_role("button", name="Play again with the same players").click()
    page.wait_for_url(lambda url: over["id"] not in url)
    expect(page.locator("#notes")).to_contain_text("You play Bo.")
    new_id = page.url.split("/games/")[1].split("?")[0]
    again = httpx.get(f"{base}/api/games/{new_id}").json()
    assert again["players"] == ["Ann", "Bo"] and again["rules"] == state["rules"]
    assert again["steps"] == 0
    expect(page.locator("#links li", has_text="Ann")).to_be_visible()  # Ann's new link
    context.close()


def test_the_game_says_which_variant_and_how_to_check_the_dice(browser: Browser,
                                                               base: str) -> None:
    page = browser.new_page(**DESKTOP)
    page.goto(f"{base}/?lang=en")
    page.check("input[name=rules][value=yahtzee]")
    page.select_option("#option-yahtzee-joker", "free")
    page.fill("#seats input[name=name]", "Ann")
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))
    expect(page.locator("#variant")).to_have_text(
        "Yahtzee · Joker: free Joker · Yahtzee bonus: yes · Upper section first: no"
        " · Rolls per turn: 3")
    seed = page.locator("#seed")
    expect(seed.locator("summary")).to_have_text("These dice can be checked after the game: how")
    expect(page.locator("#seed-hash")).to_be_hidden()
    seed.locator("summary").click()
    state = httpx.get(f"{base}/api/games/{page.url.split('/games/')[1].split('?')[0]}").json()
    expect(page.locator("#seed-hash")).to_have_text(
        f"Dice seed, committed at the start: {state['seed_hash']}")
    expect(seed).to_contain_text("yatzy.audit_record")
    page.close()


def test_the_variant_in_another_language(browser: Browser, base: str) -> None:
    page = browser.new_page(**PHONE)
    start_game(page, base, ["Ann"])
    page.goto(page.url.replace("lang=en", "lang=sv"))
    expect(page.locator("#variant")).to_have_text(re.compile(r"Spelordning: "))
    page.close()
