"""Seats, saved games and results of finished games."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import yatzy
from yatzy.app import PlayerResult, SavedGame, Seat, player_results
from yatzy.core.errors import IllegalMove
from yatzy.core.game import Game

WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def finished(rules: yatzy.Ruleset, dice: dict[str, list[int]]) -> Game:
    """A game where each player rolls the same dice every turn and fills the first
    open box."""
    game = yatzy.new_game(rules, list(dice), seed=1)
    while not game.is_over:
        game = game.roll(dice[game.current_player])
        game = game.score(game.card.open_boxes[0])
    return game


def test_seat() -> None:
    assert str(Seat("Ann")) == "Ann" and not Seat("Ann").is_bot
    assert str(Seat("cpu", "greedy")) == "cpu (greedy)" and Seat("cpu", "greedy").is_bot
    with pytest.raises(AttributeError):
        Seat("Ann").name = "Bo"  # type: ignore[misc]


def test_saved_game_views() -> None:
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann", "cpu"], seed=5).roll()
    saved = SavedGame("g", game, (Seat("Ann"), Seat("cpu", "random")), "auto", WHEN, WHEN)
    assert saved.rules == yatzy.ruleset("yatzy") and saved.steps == 1
    assert saved.current_seat == Seat("Ann") and saved.seat("cpu").bot == "random"
    with pytest.raises(IllegalMove):
        saved.seat("Zed")
    with pytest.raises(IllegalMove, match="not over"):
        player_results(saved)


def test_results_with_a_shared_win() -> None:
    game = finished(yatzy.ruleset("yatzy"), {
        "Ann": [1, 1, 1, 1, 1], "Bo": [1, 2, 3, 4, 5], "Cy": [1, 1, 1, 1, 1]})
    seats = (Seat("Ann"), Seat("Bo", "greedy"), Seat("Cy"))
    results = player_results(SavedGame("g", game, seats, "auto", WHEN, WHEN))
    # 1 1 1 1 1 every turn: ones 5, pair 2, three 3, four 4, chance 5, yatzy 50 = 69.
    # 1 2 3 4 5 every turn: upper 1+2+3+4+5, small straight 15, chance 15 = 45.
    assert results == (
        PlayerResult(0, "Ann", None, 69, 0, 50, 0, 1),
        PlayerResult(1, "Bo", "greedy", 45, 0, 0, 0, 3),
        PlayerResult(2, "Cy", None, 69, 0, 50, 0, 1),
    )
    assert results[1].is_bot and not results[0].is_bot


def test_results_count_yahtzee_bonuses() -> None:
    game = finished(yatzy.ruleset("yahtzee"), {"Ann": [6, 6, 6, 6, 6]})
    (result,) = player_results(SavedGame("g", game, (Seat("Ann"),), "auto", WHEN, WHEN))
    card = game.scorecard("Ann")
    assert result.yahtzee_points == 50 and result.yahtzee_bonuses == card.yahtzee_bonus_count
    assert result.yahtzee_bonuses > 0 and result.total == card.total
    assert result.upper_bonus == 0  # only sixes score in the upper section: 30
