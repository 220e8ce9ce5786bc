"""The review of a finished game: every decision priced against optimal play."""

from __future__ import annotations

import pytest

import yatzy
from tests.tui.helpers import play_best_box, shown
from yatzy.app import GameService, Seat
from yatzy.app.hints import format_points
from yatzy.app.review import review_text
from yatzy.i18n import translator
from yatzy.solver.analysis import analyse
from yatzy.tui.app import YatzyApp
from yatzy.tui.screens.end import EndScreen
from yatzy.tui.screens.review import ReviewScreen
from yatzy.tui.screens.setup import GameSetup

RULES = yatzy.ruleset("yatzy", rolls=1)


def finished_game() -> yatzy.Game:
    g = yatzy.new_game(RULES, ["Ann", "Bo"], seed=4)
    while not g.is_over:
        g = g.roll()
        options = g.choices()
        # Ann takes the most points, Bo always the first box allowed
        if g.current_player == "Ann":
            g = g.score(max(options, key=lambda b: options[b]))
        else:
            g = g.score(next(iter(options)))
    return g


def test_review_text_lists_each_players_loss_and_worst_decisions() -> None:
    game = finished_game()
    analysis = analyse(game)
    t = translator("en")
    text = review_text(t, analysis)
    for summary in analysis.players:
        assert (f"{summary.player}: {format_points(t, summary.total_loss)} points lost · "
                f"decisions 15 · mistakes {summary.mistakes}") in text
    worst = max(analysis.decisions, key=lambda d: d.loss)
    assert f"· −{format_points(t, worst.loss)}" in text
    assert text.count("Round ") <= 3 * len(game.players)
    sv = review_text(translator("sv"), analysis)
    assert "Ann:" in sv and "points lost" not in sv


@pytest.mark.asyncio
async def test_the_end_screen_opens_the_review(service: GameService) -> None:
    app = YatzyApp(service, setup=GameSetup(RULES, (Seat("Ann"),), seed=11), fast=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(20):
            if isinstance(app.screen, EndScreen):
                break
            await play_best_box(pilot, app)
        assert isinstance(app.screen, EndScreen)
        game = app.screen.table.game
        await pilot.press("a")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = shown(review.query_one("#review-text"))
        expected = analyse(game).players[0]
        assert f"Ann: {format_points(app.t, expected.total_loss)} points lost" in text
        await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)
