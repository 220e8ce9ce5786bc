"""Playing to win: shares of the win, exact within the turn."""

from __future__ import annotations

import random
from itertools import product

import pytest

import yatzy
from yatzy.bots import make_bot, play_turn
from yatzy.core.actions import Reroll, Score
from yatzy.solver import Strategy
from yatzy.solver.winning import WinPlanner


@pytest.fixture(scope="module")
def strategy() -> Strategy:
    return yatzy.strategy(yatzy.ruleset("yatzy", order="upper_first"))


@pytest.fixture(scope="module")
def planner(strategy: Strategy) -> WinPlanner:
    return WinPlanner(strategy)


def _midgame(s: Strategy, seed: int, players: int, turns: int) -> yatzy.Game:
    rng = random.Random(seed)
    game = yatzy.new_game(s.ruleset, ["Ann", "Bo", "Cy"][:players], seed=seed)
    for _ in range(turns):
        game = game.roll()
        game = game.score(rng.choice(sorted(game.choices())))
    return game


def test_solitaire_it_ranks_as_the_expected_score(strategy: Strategy,
                                                  planner: WinPlanner) -> None:
    game = _midgame(strategy, 1, 1, 5).roll()
    assert planner.advise(game) == strategy.advise(game)


@pytest.mark.parametrize("seed, players, turns", [(1, 2, 10), (2, 3, 20), (3, 2, 25)])
def test_a_box_is_worth_the_win_chance_after_filling_it(
        strategy: Strategy, planner: WinPlanner, seed: int, players: int, turns: int) -> None:
    """On the last roll, a box's share is the player's win chance in the game after
    filling it (everyone playing for expected score from there)."""
    game = _midgame(strategy, seed, players, turns).roll()
    while game.rolls_left:
        game = game.reroll([])
    me = game.current_player
    options = planner.advise(game)
    assert {o.action.box for o in options if isinstance(o.action, Score)} == set(game.choices())
    for option in options:
        after = game.apply(option.action)
        assert option.value == pytest.approx(strategy.win_chances(after)[me], abs=2e-6)


def test_a_reroll_is_worth_the_mean_of_the_best_shares_after_it(
        strategy: Strategy, planner: WinPlanner) -> None:
    game = _midgame(strategy, 4, 2, 13).roll([2, 6, 6, 3, 5])
    options = planner.advise(game)
    values = [o.value for o in options]
    assert values == sorted(values, reverse=True)
    rerolls = [o for o in options if isinstance(o.action, Reroll)][:3]
    assert rerolls
    for option in rerolls:
        assert isinstance(option.action, Reroll)
        held = option.action.hold
        outcomes = []
        for new in product(range(1, 7), repeat=5 - len(held)):
            after = game.reroll(held, dice=list(new))
            outcomes.append(planner.advise(after)[0].value)
        assert sum(outcomes) / len(outcomes) == pytest.approx(option.value, abs=1e-12)


def test_the_winner_bot_plays_whole_games(strategy: Strategy) -> None:
    game = yatzy.new_game(strategy.ruleset, ["Ann", "Bo", "Cy"], seed=9)
    bots = [make_bot("winner"), make_bot("optimal"), make_bot("winner")]
    while not game.is_over:
        game = play_turn(game, bots[game.current_seat])
    assert all(card.is_complete for card in game.cards)
    assert make_bot("winner").name == "winner"


@pytest.mark.parametrize("seed, players, turns", [(5, 2, 0), (6, 2, 7), (7, 3, 16), (8, 4, 30),
                                                  (9, 2, 29)])
def test_the_compiled_turn_is_the_numpy_one(strategy: Strategy, planner: WinPlanner,
                                            seed: int, players: int, turns: int) -> None:
    """``Kernels.win_turn`` (what the bot and the match play with) gives every box and
    keep the share the numpy turn gives, and so ranks the options alike."""
    reference = WinPlanner(strategy, planner.table, compiled=False)
    game = _midgame(strategy, seed, players, turns).roll()
    box_values, keeps, boxes = planner._turn(game)
    want_values, want_keeps, want_boxes = reference._turn(game)
    assert boxes == want_boxes
    assert box_values == pytest.approx(want_values, abs=1e-12)
    for got, want in zip(keeps, want_keeps, strict=True):
        subs = [k for r in range(len(planner._sub)) for k in planner._sub[r].tolist()]
        assert got[subs] == pytest.approx(want[subs], abs=1e-12)
    while True:
        assert [o.action for o in planner.advise(game)] == [
            o.action for o in reference.advise(game)]
        if not game.rolls_left:
            break
        game = game.reroll([])
