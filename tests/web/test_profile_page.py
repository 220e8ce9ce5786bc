"""The profile and leaderboard pages in Chromium at 1366 px and on a 360 px phone: a
player with rated games of both kinds and analysed games sees the rating history and
accuracy charts (our own SVG), their games with replay links, bests and the daily
calendar; the leaderboards list the rated players. Nothing is wider than the screen,
and axe-core finds no serious or critical violation."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM

if not Path(CHROMIUM).exists():
    if os.environ.get("YATZY_REQUIRE_BROWSER"):
        raise RuntimeError("chromium is required here (apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (CI installs it)", allow_module_level=True)

from playwright.sync_api import Browser, expect

from tests.app.test_profiles import key, named, play_out, rated_table
from tests.web.test_browser import PHONE
from tests.web.test_lobby_page import WIDE, narrow_enough
from tests.web.test_table_a11y import axe_violations
from yatzy.bootstrap import open_service


def seed(db: Path) -> None:
    """P1 plays three rated tables of three (with P2, P3), and a quick match with P4;
    their games are analysed."""
    with open_service(db) as service:
        played = [play_out(service, rated_table(service, 3)).id for _ in range(3)]
        named(service, 4)
        first = service.matches.request(key(1), "yatzy")
        service.matches.request(key(4), "yatzy")
        game_id = service.matches.status(key(1), first).game_id
        assert game_id is not None
        played.append(play_out(service, service.load(game_id)).id)
        for game in played:
            service.profiles.note_accuracy(game)


@pytest.mark.parametrize("device", [WIDE, PHONE], ids=["1366", "360"])
def test_a_profile_and_the_leaderboards(browser: Browser, base: str, tmp_path: Path,
                                        device: dict[str, Any]) -> None:
    seed(tmp_path / "games.sqlite3")
    width = device["viewport"]["width"]
    shots = Path(os.environ.get("YATZY_SHOTS", tmp_path))
    context = browser.new_context(**device)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{base}/players/p1?lang=en")
    expect(page.locator("h1")).to_have_text("P1")
    expect(page.locator("#ratings dd[data-kind=openskill]")).to_contain_text(
        "Rated games: 3 · provisional")
    expect(page.locator("#ratings dd[data-kind=glicko]")).to_contain_text("Rated games: 1")
    charts = page.locator("#rating-charts svg.chart")
    expect(charts).to_have_count(2)
    for chart in charts.all():
        expect(chart).to_be_visible()
        assert chart.bounding_box()["height"] > 60  # type: ignore[index]
    # Four settlements of OpenSkill: the start and three games, each a point.
    expect(page.locator("figure[data-kind=openskill] circle")).to_have_count(4)
    expect(page.locator("#accuracy-chart svg.chart circle")).to_have_count(4)
    expect(page.locator("#accuracy-recent")).to_contain_text("mean of the last 4")
    expect(page.locator("#games tr")).to_have_count(4)
    replay = page.locator("#games a").first.get_attribute("href")
    assert replay is not None and "/replay?lang=en" in replay
    expect(page.locator("#bests tr")).to_have_count(1)
    expect(page.locator("#calendar .day")).not_to_have_count(0)
    expect(page.locator("#streak")).to_have_text("Days in a row: 0")
    narrow_enough(page, width)
    assert axe_violations(page) == []
    page.screenshot(path=str(shots / f"profile-{width}.png"), full_page=True)

    page.locator("a[href^='/leaderboards']").first.click()
    expect(page.locator("h1")).to_have_text("Leaderboards")
    board = page.locator("#board-openskill table")
    expect(board).to_be_visible()
    expect(board.locator("tbody tr")).to_have_count(3)
    expect(page.locator("#board-glicko tbody tr")).to_have_count(2)
    expect(page.locator("#board-accuracy")).to_contain_text("Nobody here yet.")
    expect(page.locator("#accuracy-note")).to_contain_text("at least 5 analysed games")
    narrow_enough(page, width)
    assert axe_violations(page) == []
    page.screenshot(path=str(shots / f"leaderboards-{width}.png"), full_page=True)
    board.get_by_role("link", name="P1").click()
    expect(page.locator("h1")).to_have_text("P1")
    assert errors == []
    context.close()
