"""The solver's computer players: easy, medium, hard and optimal."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest

import yatzy
from yatzy.bots import bot_names, make_bot, play_turn
from yatzy.bots.solver_bots import LEVELS, SolverBot, simulate_level
from yatzy.core.actions import Reroll, Roll, Score
from yatzy.solver import artifacts


@pytest.fixture(scope="module", autouse=True)
def solver_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    old = os.environ.get(artifacts.ENV_VAR)
    os.environ[artifacts.ENV_VAR] = str(tmp_path_factory.mktemp("yatzy-cache"))
    yield
    if old is None:
        os.environ.pop(artifacts.ENV_VAR, None)
    else:
        os.environ[artifacts.ENV_VAR] = old


def test_levels_are_registered_weakest_first() -> None:
    names = bot_names()
    assert [n for n in names if n in LEVELS] == ["easy", "medium", "hard", "optimal"]
    bot = make_bot("hard", random.Random(1))
    assert isinstance(bot, SolverBot) and bot.name == "hard" and bot.temperature == 0.5


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_plays_a_whole_game_without_rolling_dice(level: str) -> None:
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["cpu"], seed=3)
    bot = make_bot(level, random.Random(5))
    while not game.is_over:
        action = bot.choose(game)
        if isinstance(action, Roll | Reroll):
            assert action.dice is None  # the game rolls, not the bot
        game = game.apply(action)
    assert game.card.is_complete


def test_optimal_takes_the_best_option() -> None:
    r = yatzy.ruleset("yahtzee")
    game = yatzy.new_game(r, ["cpu"], seed=1).roll(dice=[2, 3, 4, 5, 6])
    bot = make_bot("optimal")
    assert bot.choose(game) == yatzy.strategy(r).advise(game)[0].action
    assert bot.choose(game) == Score("large_straight")


def test_softmax_levels_sometimes_pick_other_options() -> None:
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["cpu"], seed=1).roll(dice=[1, 3, 4, 5, 6])
    easy = make_bot("easy", random.Random(7))
    picks = {easy.choose(game) for _ in range(200)}
    assert len(picks) > 3
    first, second = make_bot("easy", random.Random(9)), make_bot("easy", random.Random(9))
    assert [first.choose(game) for _ in range(20)] == [second.choose(game) for _ in range(20)]


def test_real_games_agree_with_the_fast_path() -> None:
    r = yatzy.ruleset("yatzy")
    fast = simulate_level("medium", r, 20_000, seed=1)
    bot = make_bot("medium", random.Random(3))
    totals = []
    for seed in range(60):
        game = yatzy.new_game(r, ["cpu"], seed=seed)
        while not game.is_over:
            game = play_turn(game, bot)
        totals.append(game.card.total)
    mean = sum(totals) / len(totals)
    se = fast.sd / len(totals) ** 0.5
    assert abs(mean - fast.mean) < 4 * se


def test_other_bots_are_simulated_in_real_games() -> None:
    result = simulate_level("random", yatzy.ruleset("yatzy", order="in_order"), 5, seed=2)
    assert result.player == "random" and result.games == 5
    assert result.scores.min() >= 0


def test_the_compiled_match_plays_only_value_tables_without_saved_rolls() -> None:
    """Maxi Yatzy with saved rolls is played by the solver's levels (from its own table),
    but never by the compiled loops of value tables per turn-start state."""
    from yatzy.bots.solver_bots import plays_compiled
    from yatzy.core.rulesets import ruleset

    assert plays_compiled(ruleset("yatzy"), ["optimal", "optimal"])
    assert not plays_compiled(ruleset("maxi_yatzy"), ["optimal", "optimal"])
    assert not plays_compiled(ruleset("yatzy"), ["optimal", "greedy"])
