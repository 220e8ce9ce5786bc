"""A ruleset defined only here (four dice, six boxes, one box no other ruleset has) is
offered by every front end and plays to the end in each, with no change outside the
core: the web form, the terminal set-up, the CLI's options and `yatzy score` read the
rulesets' description, and the web app and the terminal game play any ruleset."""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import yatzy
from yatzy.core import scoring
from yatzy.core.dice import Dice

NAME = "four_dice"


def run_of_four(dice: Dice) -> int:
    """1-2-3-4 or 2-3-4-5 or 3-4-5-6: 25 points."""
    return 25 if scoring.has_run(dice, 4) else 0


DEFINITION = yatzy.RulesetDefinition(
    NAME, "Four dice", upper=("ones", "twos", "threes"),
    lower={"one_pair": scoring.one_pair, "run": run_of_four, "chance": scoring.chance},
    labels={"run": "Run of four"}, dice_count=4, upper_bonus_threshold=12,
    upper_bonus_points=10,
    options={
        "order": yatzy.Option("free", ("free", "in_order"), label="Play order",
                              choice_labels={"free": "any order", "in_order": "in order"}),
        "rolls": yatzy.Option(3, kind=int, minimum=1, maximum=4, label="Rolls per turn"),
        "short": yatzy.Option(False, kind=bool, label="Short game"),
    },
    variant=lambda values: {"order": values["order"], "rolls": values["rolls"]},
)


@pytest.fixture
def four_dice() -> Iterator[yatzy.Ruleset]:
    yatzy.define_ruleset(DEFINITION)
    try:
        yield yatzy.ruleset(NAME)
    finally:
        yatzy.forget_ruleset(NAME)


def test_the_ruleset_is_described_like_the_rule_sheets(four_dice: yatzy.Ruleset) -> None:
    assert yatzy.ruleset_names() == ("yatzy", "yahtzee", "maxi_yatzy", NAME)
    info = {i.name: i for i in yatzy.rulesets()}[NAME]
    assert info.boxes == ("ones", "twos", "threes", "one_pair", "run", "chance")
    assert info.upper_boxes == ("ones", "twos", "threes") and info.dice_count == 4
    assert dict(info.labels)["run"] == "Run of four" and info.title == "Four dice"
    assert [o.name for o in info.options] == ["order", "rolls", "short"]
    assert four_dice.score("run", "3 4 5 6") == 25 and four_dice.score("chance", "6666") == 24
    card = yatzy.Scorecard.empty(four_dice).fill("ones", 4).fill("twos", 8)
    assert (card.upper_sum, card.upper_bonus, card.lower_sum) == (12, 10, 0)
    assert yatzy.ruleset(NAME, order="in_order", rolls="2").rolls == 2
    with pytest.raises(yatzy.RulesError):
        yatzy.ruleset(NAME, rolls=5)  # its own range
    with pytest.raises(yatzy.RulesError):
        yatzy.define_ruleset(DEFINITION)  # the name is taken


def test_a_definition_that_breaks_the_rules_is_refused() -> None:
    bad = [
        {"name": "Bad Name"},
        {"name": "yatzy"},
        {"upper": ("twos", "ones")},
        {"lower": {"mystery": scoring.chance}},  # no label for a new box
        {"dice_count": 7},
        {"lower": {"ones": scoring.chance}},  # a box twice
    ]
    for change in bad:
        fields: dict[str, Any] = {"name": "odd", "title": "Odd", "upper": ("ones",),
                                  "lower": {"chance": scoring.chance}, **change}
        with pytest.raises(yatzy.RulesError) as refused:
            yatzy.define_ruleset(yatzy.RulesetDefinition(**fields))
        assert refused.value.code == "bad_ruleset_definition", change
    assert "odd" not in yatzy.ruleset_names()


def test_yatzy_score_and_the_cli_options(four_dice: yatzy.Ruleset,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from yatzy.cli import main

    assert main(["score", "--rules", NAME, "--lang", "en", "2", "3", "4", "5"]) == 0
    out = capsys.readouterr().out
    assert "Four dice" in out and re.search(r"Run of four\s+25", out)
    assert main(["score", "--rules", NAME, "--json", "--rolls", "2", "6666"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scores"] == {"ones": 0, "twos": 0, "threes": 0, "one_pair": 12, "run": 0,
                              "chance": 24}
    assert data["ruleset"]["options"]["rolls"] == 2
    # Five dice are not this ruleset's dice; Yatzy's own options still hold.
    assert main(["score", "--rules", NAME, "1", "2", "3", "4", "5"]) == 2
    assert "Dice must be 4 values" in capsys.readouterr().err
    assert main(["score", "--order", "upper_first", "1", "2", "3", "4", "5"]) == 0


@pytest.mark.asyncio
async def test_the_terminal_offers_it_and_plays_it_to_the_end(
    four_dice: yatzy.Ruleset, tmp_path: Path,
) -> None:
    from textual.widgets import Select

    from tests.tui.helpers import game_screen, play_best_box, shown
    from yatzy.bootstrap import open_service
    from yatzy.tui.app import YatzyApp
    from yatzy.tui.screens.end import EndScreen
    from yatzy.tui.screens.setup import SetupScreen

    service = open_service(tmp_path / "games.sqlite3")
    app = YatzyApp(service, fast=True, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        rules: Select[str] = setup.query_one("#rules", Select)
        assert (("Four dice", NAME) in rules._options)
        rules.value = NAME
        await pilot.pause()
        assert setup.query_one("#opt-short-field").display is True
        assert setup.query_one("#opt-joker-field").display is False
        assert "Short game" in shown(setup.query_one("#opt-short-label"))
        setup.query_one("#opt-rolls", Select).value = "2"
        setup.query_one("#opt-order", Select).value = "in_order"
        await pilot.click("#players")
        await pilot.press(*"Ann", "enter")
        screen = game_screen(app)
        assert screen.table.game.ruleset == yatzy.ruleset(NAME, rolls=2, order="in_order")
        assert "Run of four" in shown(screen.query_one("#row-run"))
        assert shown(screen.query_one("#keys")).startswith("1-4 hold")  # its four dice
        for _ in range(6):
            await play_best_box(pilot, app)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        assert "Four dice" in shown(app.screen.query_one("#title"))
    [saved] = service.recent(finished=True)
    assert saved.game.is_over and saved.game.turns_played == 6
    assert saved.game.ruleset == yatzy.ruleset(NAME, rolls=2, order="in_order")
    card = saved.game.scorecard("Ann")
    upper = sum(card[box] or 0 for box in ("ones", "twos", "threes"))
    assert card.total == sum(v or 0 for v in card.values()) + (10 if upper >= 12 else 0)
    service.close()


# --- The web app: a real server in this process (it knows the ruleset defined here). ---


@pytest.fixture
def server(four_dice: yatzy.Ruleset, tmp_path: Path) -> Iterator[str]:
    import uvicorn

    from tests.web.server import free_port
    from yatzy.bootstrap import open_service
    from yatzy.web.app import Settings, create_app

    port = free_port()
    app = create_app(open_service(tmp_path / "web.sqlite3"),
                     Settings(pace=0.0, rate=0.0, prepare=()))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            lifespan="on")
    web = uvicorn.Server(config)
    thread = threading.Thread(target=web.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not web.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    web.should_exit = True
    thread.join(timeout=10)


def test_the_api_describes_it(server: str) -> None:
    import httpx2 as httpx

    described = httpx.get(f"{server}/api/rulesets?lang=sv").json()
    [four] = [r for r in described if r["name"] == NAME]
    assert four["dice_count"] == 4 and four["box_labels"]["run"] == "Run of four"
    assert four["box_labels"]["chance"] == "Chans"  # a known box in the player's language


def test_the_web_form_offers_it_and_a_person_plays_it_to_the_end(server: str) -> None:
    from tests.web.conftest import ARGS, CHROMIUM

    if not Path(CHROMIUM).exists():
        if os.environ.get("YATZY_REQUIRE_BROWSER"):
            raise RuntimeError("chromium is required here (apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed (CI installs it)")
    from playwright.sync_api import expect, sync_playwright

    from tests.web.test_browser import record_errors, score_best

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        errors: list[str] = []
        record_errors(page, errors)
        page.goto(f"{server}/?lang=en")
        page.check(f"input[name=rules][value={NAME}]")
        options = page.locator(f".options[data-rules={NAME}]")
        expect(options).to_be_visible()
        expect(options).to_contain_text("Short game")
        options.locator("[data-option=rolls]").fill("2")
        page.fill("#seats input[name=name]", "Ann")
        page.click("#start")
        page.wait_for_url(re.compile(r"/games/\w+"))
        expect(page.locator("#dice .die")).to_have_count(4, timeout=15_000)
        expect(page.locator("#cards")).to_contain_text("Run of four")
        expect(page.locator("#keys")).to_contain_text("1-4 hold")
        for _ in range(6):
            roll = page.locator("#roll")
            expect(roll).to_be_enabled(timeout=15_000)
            page.keyboard.press("r")
            score_best(page)
        expect(page.locator("#verdict")).to_be_visible(timeout=15_000)
        [row] = page.locator("#ranking tbody tr").all()
        cells = row.locator("td, th").all_inner_texts()
        assert cells[:2] == ["1.", "Ann"] and cells[2].isdigit(), cells
        assert errors == []
        browser.close()
