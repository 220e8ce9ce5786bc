"""Game analysis: every decision priced against optimal play."""

from __future__ import annotations

import random

import pytest

import yatzy
from yatzy.bots import make_bot, play_turn
from yatzy.core.actions import Reroll, Score
from yatzy.solver.analysis import analyse


def _play(game: yatzy.Game, bots: dict[str, object]) -> yatzy.Game:
    while not game.is_over:
        game = play_turn(game, bots[game.current_player])  # type: ignore[arg-type]
    return game


def test_optimal_play_loses_nothing() -> None:
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann"], seed=8)
    game = _play(game, {"Ann": make_bot("optimal")})
    result = analyse(game)
    steps = [s for s in game.history if isinstance(s.action, Reroll | Score)]
    assert len(result.decisions) == len(steps)
    assert all(d.loss < 1e-9 and d.chosen == d.best for d in result.decisions)
    [summary] = result.players
    assert summary.total_loss < 1e-9 and summary.mistakes == 0
    assert result.expected_score == pytest.approx(248.4399894, abs=1e-6)


def test_a_mistake_costs_the_difference() -> None:
    r = yatzy.ruleset("yatzy")
    game = yatzy.new_game(r, ["Ann"], seed=1).roll(dice=[6, 6, 6, 6, 6]).score("chance")
    [decision] = analyse(game).decisions
    assert decision.best == Score("yatzy")
    assert decision.chosen == Score("chance")
    options = {o.action: o.value for o in yatzy.strategy(r).advise_card(decision.card,
                                                                       decision.dice, 2)}
    assert decision.loss == pytest.approx(options[Score("yatzy")] - options[Score("chance")])
    assert decision.loss > 10
    assert (decision.round, decision.roll, decision.rolls_left) == (1, 1, 2)


def test_rerolls_match_by_kept_faces_and_players_are_apart() -> None:
    r = yatzy.ruleset("yahtzee")
    game = yatzy.new_game(r, ["Ann", "Bo"], seed=4, first_player="roll")
    game = _play(game, {"Ann": make_bot("easy", random.Random(1)),
                        "Bo": make_bot("optimal")})
    result = analyse(game)
    by_player = {p.player: p for p in result.players}
    assert by_player["Bo"].total_loss < 1e-9
    assert by_player["Ann"].total_loss > 1
    assert by_player["Ann"].mean_loss == pytest.approx(
        by_player["Ann"].total_loss / by_player["Ann"].decisions)
    rerolls = [d for d in result.decisions if isinstance(d.chosen, Reroll)]
    assert rerolls and all(d.rolls_left > 0 for d in rerolls)


def test_an_unfinished_game_is_analysed_so_far() -> None:
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann"], seed=2).roll()
    assert analyse(game).decisions == ()
    game = game.reroll([0, 1])
    assert len(analyse(game).decisions) == 1
