"""Glicko-2 (yatzy.app.ratings) against the worked example of Glickman's paper."""

from __future__ import annotations

import pytest

from yatzy.app.ratings import (
    PROVISIONAL_GAMES,
    Rating,
    Result,
    game_scores,
    level_for,
    provisional,
    rate_pair,
    update,
)


def test_the_papers_example() -> None:
    new = update(Rating(1500, 200, 0.06),
                 [Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)])
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)  # 0.059996


def test_defaults() -> None:
    assert Rating() == Rating(1500, 350, 0.06)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    new = update(Rating(1600, 100, 0.06), [])
    assert new.rating == 1600 and new.volatility == 0.06
    assert new.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_win_against_an_equal_raises_and_a_loss_lowers_by_as_much() -> None:
    won, lost = rate_pair(Rating(), Rating(), (1.0, 0.0))
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert won.deviation < 350 and lost.deviation < 350
    drawn, _ = rate_pair(Rating(), Rating(), (0.5, 0.5))
    assert drawn.rating == pytest.approx(1500)


def test_beating_a_stronger_player_gains_more() -> None:
    against_strong = update(Rating(), [Result(1800, 50, 1)]).rating
    against_weak = update(Rating(), [Result(1200, 50, 1)]).rating
    assert against_strong > against_weak > 1500


def test_scores_of_a_game() -> None:
    assert game_scores([10, 20]) == (0.0, 1.0)
    assert game_scores([20, 10]) == (1.0, 0.0)
    assert game_scores([7, 7]) == (0.5, 0.5)


def test_provisional_until_ten_games() -> None:
    assert PROVISIONAL_GAMES == 10
    assert provisional(9) and not provisional(10)


def test_levels_by_strength() -> None:
    every = ["random", "greedy", "easy", "medium", "hard", "optimal"]
    assert level_for(900, every) == "random"
    assert level_for(1350, every) == "easy"
    assert level_for(1700, every) == "hard"
    assert level_for(2100, every) == "optimal"
    assert level_for(2100, ["random", "greedy"]) == "greedy"
    assert level_for(900, ["greedy"]) == "greedy"
    assert level_for(1500, []) is None
