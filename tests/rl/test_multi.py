"""The PettingZoo environment for several players."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

import yatzy
from tests.rl.test_solitaire import before_last
from yatzy.core.actions import Reroll, Roll
from yatzy.core.errors import ErrorCode, IllegalMove, RulesError
from yatzy.core.game import Game
from yatzy.rl import optimal_action
from yatzy.rl.multi import YatzyAECEnv, env


@pytest.mark.parametrize(("players", "rules"), [(2, "yatzy"), (6, "yahtzee")])
def test_pettingzoos_api_test_passes(players: int, rules: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Two warnings the API test gives every environment outside PettingZoo whose
        # observation is PettingZoo's own {"observation", "action_mask"} dict.
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        api_test(env(num_players=players, rules=rules), num_cycles=100)


def play(game: YatzyAECEnv, seed: int, rng: np.random.Generator | None
         ) -> tuple[dict[str, float], list[str]]:
    """Play a whole game with random legal actions (the optimal ones without ``rng``):
    each agent's rewards added up, and the agents in the order they acted."""
    game.reset(seed=seed)
    rewards = dict.fromkeys(game.possible_agents, 0.0)
    order = []
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        rewards[agent] += reward
        assert not truncated
        if terminated:
            assert not obs["action_mask"].any()
            game.step(None)
            continue
        assert game.observation_space(agent).contains(obs)
        assert (info["action_mask"] == obs["action_mask"]).all()
        order.append(agent)
        if rng is None:
            action = optimal_action(game.game, game.layout)
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        game.step(action)
    return rewards, order


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_random_game_gives_each_player_its_total(players: int) -> None:
    game = YatzyAECEnv("yahtzee", num_players=players)
    rewards, order = play(game, seed=players, rng=np.random.default_rng(players))
    core = game.game
    assert core.is_over and game.agents == []
    assert rewards == {p: float(core.scorecard(p).total) for p in core.players}
    # Turns go round the table in seat order, each agent's actions together.
    turns = [a for k, a in enumerate(order) if k == 0 or order[k - 1] != a]
    assert turns == [f"player_{k % players}" for k in range(players * 13)]
    assert Game.from_record(core.to_record()) == core


def test_observations_are_each_agents_own() -> None:
    game = YatzyAECEnv("yatzy", num_players=3)
    game.reset(seed=1)
    fields = game.layout.flat_fields(3)
    sixes = game.layout.keep_count + 5
    game._game = before_last(game.game).roll([6, 6, 6, 6, 1])
    game.step(sixes)                                     # player_0: 24 in Sixes
    mine = game.observe("player_0")
    theirs = game.observe("player_1")
    assert mine["observation"][fields["scores"]][5] == 24
    assert theirs["observation"][fields["scores"]][5] == 0
    assert mine["observation"][fields["totals"]].tolist() == [24, 0, 0]
    assert theirs["observation"][fields["totals"]].tolist() == [0, 0, 24]
    assert not mine["action_mask"].any() and theirs["action_mask"].any()
    assert game.rewards == {"player_0": 24.0, "player_1": 0.0, "player_2": 0.0}
    # The dice are the table's: those of the player to move.
    assert tuple(mine["observation"][fields["dice"]]) == game.game.dice
    with pytest.raises(IllegalMove) as bad:
        game.observe("player_9")
    assert bad.value.code is ErrorCode.UNKNOWN_PLAYER


def test_illegal_actions_raise_and_change_nothing() -> None:
    game = YatzyAECEnv("yatzy", num_players=2)
    with pytest.raises(IllegalMove, match="reset"):
        game.observe("player_0")
    game.reset(seed=2)
    ones = game.layout.keep_count
    game.step(ones)
    game.step(ones)
    before = game.game
    with pytest.raises(IllegalMove) as filled:
        game.step(ones)
    assert filled.value.code is ErrorCode.BOX_FILLED
    assert game.game is before and game.agent_selection == "player_0"
    for bad in (1, 7, True):
        with pytest.raises(RulesError, match="num_players"):
            YatzyAECEnv(num_players=bad)


def test_seeds_reproduce_games_and_the_optimal_players_have_no_regret() -> None:
    a = YatzyAECEnv("yatzy", num_players=2, regret=True)
    b = YatzyAECEnv("yatzy", num_players=2)
    assert play(a, 3, None) == play(b, 3, None)
    assert a.game == b.game
    assert a.game.seed == 3 and a.game == _replay(yatzy.new_game(a.ruleset, a.possible_agents,
                                                                 seed=3), a.game)
    a.reset(seed=3)
    for agent in a.agent_iter(40):
        a.step(optimal_action(a.game, a.layout))
        assert a.infos[agent]["regret"] == 0.0
    # Later resets draw their seeds from the generator reset(seed=...) seeded.
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    assert a.game == b.game and a.game.seed != 3


def _replay(start: Game, finished: Game) -> Game:
    """``finished``'s decisions applied to ``start``, every die from ``start``'s seed."""
    game = start
    for step in finished.history:
        action = step.action
        if isinstance(action, Roll):
            action = Roll()
        elif isinstance(action, Reroll):
            action = Reroll(action.hold)
        game = game.apply(action, player=step.player)
    return game


def test_render_shows_every_card() -> None:
    game = YatzyAECEnv("yatzy", num_players=2, render_mode="ansi")
    game.reset(seed=0)
    text = game.render()
    assert text is not None and "player_0: - (total 0)" in text
    assert YatzyAECEnv().render() is None
