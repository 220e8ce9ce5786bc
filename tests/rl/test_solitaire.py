"""The solitaire Gymnasium environment."""

from __future__ import annotations

import statistics
import warnings
from itertools import product

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import yatzy
import yatzy.rl
from yatzy.core.actions import Reroll, Score
from yatzy.core.errors import ErrorCode, IllegalMove, RulesError
from yatzy.core.game import Game
from yatzy.rl import YatzyEnv, optimal_action


@pytest.mark.parametrize(("env_id", "options"), [
    ("yatzy/Yatzy-v0", {}),
    ("yatzy/Yahtzee-v0", {}),
    ("yatzy/Yahtzee-v0", {"joker": "gated", "yahtzee_bonus": False}),
    ("yatzy/Yatzy-v0", {"regret": True, "render_mode": "ansi"}),
])
def test_gymnasiums_checker_passes(env_id: str, options: dict[str, object]) -> None:
    env = gymnasium.make(env_id, **options)
    # The checker steps with unmasked random actions, and an illegal action raises: its
    # generator is seeded so that it plays the same (legal) actions every run. With the
    # boxes in free order every action is legal at a game's first decision.
    env.unwrapped.action_space.seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_make_passes_options_to_the_ruleset() -> None:
    env = gymnasium.make("yatzy/Yahtzee-v0", joker="gated", upper_first=True)
    assert env.unwrapped.ruleset == yatzy.ruleset("yahtzee", joker="gated", upper_first=True)
    assert gymnasium.make("yatzy.rl:yatzy/Yatzy-v0").unwrapped.ruleset == yatzy.ruleset("yatzy")
    assert YatzyEnv(yatzy.ruleset("yatzy", rolls=2)).action_space.n == 31 + 15
    with pytest.raises(RulesError, match="Unknown option 'jokers'"):
        gymnasium.make("yatzy/Yahtzee-v0", jokers="gated")
    with pytest.raises(RulesError, match="go with a ruleset's name"):
        YatzyEnv(yatzy.ruleset("yatzy"), order="in_order")
    with pytest.raises(RulesError, match="regret must be True or False"):
        YatzyEnv(regret=1)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="render_mode"):
        YatzyEnv(render_mode="human")


def play_random(env: YatzyEnv, seed: int, rng: np.random.Generator
                ) -> tuple[list[float], list[int], dict[str, object]]:
    obs, info = env.reset(seed=seed)
    rewards, actions = [], []
    terminated = False
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"])
        assert (info["action_mask"] == obs["action_mask"]).all()
        action = int(rng.choice(legal))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        rewards.append(reward)
        actions.append(action)
    return rewards, actions, info


@pytest.mark.parametrize("rules", ["yatzy", "yahtzee"])
def test_a_random_game_adds_up(rules: str) -> None:
    env = YatzyEnv(rules)
    rng = np.random.default_rng(5)
    for seed in range(5):
        rewards, actions, info = play_random(env, seed, rng)
        card = env.game.card
        assert env.game.is_over and card.is_complete
        assert sum(rewards) == card.total == info["total"]
        assert 0 <= card.total <= env.layout.max_total
        scores = [a for a in actions if a >= env.layout.keep_count]
        assert len(scores) == len(env.ruleset.boxes)
        # Rerolls earn nothing; the game's record replays it.
        assert all(r == 0 for a, r in zip(actions, rewards, strict=True)
                   if a < env.layout.keep_count)
        assert Game.from_record(env.game.to_record()) == env.game


def with_dice(env: YatzyEnv, dice: list[int]) -> None:
    """Put ``dice`` on the table instead of the turn's first roll the environment made
    (the game replayed without that roll: an undo takes back no roll of the seed's)."""
    env._game = before_last(env.game).roll(dice)


def before_last(game: Game) -> Game:
    """``game`` as it was before its last action, replayed from the start."""
    back = game.at_start()
    for step in game.history[:-1]:
        back = back.apply(step.action, player=step.player)
    return back


def test_rewards_include_the_bonuses() -> None:
    env = YatzyEnv("yahtzee")
    env.reset(seed=0)
    with_dice(env, [6, 6, 6, 6, 6])
    _, reward, *_ = env.step(env.layout.to_index(Score("yahtzee")))
    assert reward == 50
    with_dice(env, [5, 5, 5, 5, 5])  # an extra Yahtzee: the forced Joker takes Fives
    _, reward, *_ = env.step(env.layout.to_index(Score("fives")))
    assert reward == 25 + 100
    # The upper bonus comes with the score that reaches 63.
    env.reset(seed=1)
    rewards = []
    for face, box in enumerate(env.ruleset.upper_boxes, start=1):
        with_dice(env, [face, face, face, face, 1 if face > 1 else 2])
        rewards.append(env.step(env.layout.to_index(Score(box)))[1])
    assert env.game.card.upper_sum == 4 * 21 and env.game.card.upper_bonus == 35
    assert rewards[-1] == 24 + 35 and sum(rewards) == env.game.card.total


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = YatzyEnv("yatzy")
    with pytest.raises(IllegalMove, match="reset"):
        env.step(0)
    env.reset(seed=3)
    ones = env.layout.to_index(Score("ones"))
    env.step(ones)
    before = env.game
    with pytest.raises(IllegalMove) as filled:
        env.step(ones)
    assert filled.value.code is ErrorCode.BOX_FILLED and env.game is before
    with pytest.raises(IllegalMove) as out_of_range:
        env.step(env.action_space.n)
    assert out_of_range.value.code is ErrorCode.UNKNOWN_ACTION
    env.step(0)
    env.step(0)
    assert env.game.rolls_left == 0
    with pytest.raises(IllegalMove) as no_rolls:
        env.step(0)
    assert no_rolls.value.code is ErrorCode.NO_ROLLS_LEFT
    while not env.game.is_over:
        env.step(int(np.flatnonzero(env.layout.mask(env.game))[0]))
    with pytest.raises(IllegalMove) as over:
        env.step(ones)
    assert over.value.code is ErrorCode.GAME_OVER


def test_seeds_reproduce_games() -> None:
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    a, b = YatzyEnv("yahtzee"), YatzyEnv("yahtzee")
    assert play_random(a, 11, rng_a)[0] == play_random(b, 11, rng_b)[0]
    assert a.game == b.game
    # reset(seed=s) plays the core's game with seed s.
    obs, info = a.reset(seed=11)
    assert info["seed"] == 11
    assert tuple(obs["dice"]) == yatzy.new_game(a.ruleset, ["x"], seed=11).roll().dice
    # Later resets draw their seeds from the generator reset(seed=...) seeded.
    seeds_a = [a.reset()[1]["seed"] for _ in range(3)]
    b.reset(seed=11)
    assert seeds_a == [b.reset()[1]["seed"] for _ in range(3)]
    assert len(set(seeds_a)) == 3
    # A seed the core cannot take is refused before anything changes.
    game = a.game
    for bad in (-1, 2**53, "ab" * 16, 1.5):
        with pytest.raises(IllegalMove) as refused:
            a.reset(seed=bad)  # type: ignore[arg-type]
        assert refused.value.code is ErrorCode.BAD_SEED and a.game is game


def test_render_shows_the_game() -> None:
    env = YatzyEnv("yatzy", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and text.startswith("Round 1 of 15, player_0 to play: dice ")
    assert YatzyEnv("yatzy").render() is None
    assert env.action_masks().dtype == bool


@pytest.fixture(scope="module")
def yatzy_strategy() -> yatzy.solver.Strategy:  # type: ignore[name-defined]
    return yatzy.strategy(yatzy.ruleset("yatzy"))


def test_regret_is_the_solvers_loss(yatzy_strategy: object) -> None:
    env = YatzyEnv("yatzy", regret=True)
    strategy = env.strategy
    assert strategy is not None
    env.reset(seed=8)
    with_dice(env, [1, 1, 2, 5, 6])
    g = env.game
    best = strategy.best(g).value
    # A score: the value of the card it leaves.
    _, reward, _, _, info = env.step(env.layout.to_index(Score("yatzy")))
    assert reward == 0
    assert info["regret"] == pytest.approx(best - strategy.value(g.score("yatzy").card))
    assert info["regret"] > 5
    # A reroll: the mean of the best value over every outcome of the rerolled dice.
    env._game = g
    hold = (0, 1, 4)
    outcomes = [strategy.best(g.reroll(hold, dice=d)).value for d in product(range(1, 7),
                                                                             repeat=2)]
    _, reward, _, _, info = env.step(env.layout.to_index(Reroll(hold)))
    assert reward == 0
    assert info["regret"] == pytest.approx(best - statistics.fmean(outcomes))
    # Another position keeping the same faces is the same action to the solver.
    env._game = g
    assert env.step(env.layout.to_index(Reroll((1, 0, 4))))[4]["regret"] == info["regret"]


def test_the_optimal_agent_has_no_regret_and_scores_the_expected_score(
    yatzy_strategy: object,
) -> None:
    env = YatzyEnv("yatzy", regret=True)
    assert env.strategy is not None
    scores = []
    for seed in range(40):
        env.reset(seed=seed)
        terminated, total = False, 0.0
        while not terminated:
            _, reward, terminated, _, info = env.step(optimal_action(env.game, env.layout))
            assert info["regret"] == 0.0
            total += reward
        scores.append(total)
    expected = env.strategy.expected_score
    mean, sd = statistics.fmean(scores), statistics.stdev(scores)
    # Within four standard errors (a test that fails about once in 15,000 runs).
    assert abs(mean - expected) < 4 * sd / len(scores) ** 0.5
    assert mean > 200  # random play scores under 60


def test_maxi_yatzy_with_saved_rolls_stays_in_its_observation_space() -> None:
    """Saved rolls add to the rolls left (here a box filled after each first roll saves
    two rolls a turn): every observation lies in the space, up to the most rolls left
    the core allows."""
    env = YatzyEnv(rules=yatzy.ruleset("maxi_yatzy"))
    assert env.observation_space["rolls_left"].n == 41  # type: ignore[index]
    observation, _ = env.reset(seed=1)
    seen = []
    done = False
    while not done:
        assert env.observation_space.contains(observation), observation["rolls_left"]
        seen.append(int(observation["rolls_left"]))
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, done, _, _ = env.step(int(legal[-1]))  # a box, at once
    assert max(seen) == 2 + 2 * (len(env.ruleset.boxes) - 1)  # 40: every roll saved
    assert seen == sorted(seen)


def test_gymnasiums_checker_passes_maxi_yatzy_with_saved_rolls() -> None:
    env = YatzyEnv(rules=yatzy.ruleset("maxi_yatzy"))
    env.action_space.seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Made directly, not by gymnasium.make (no id plays Maxi Yatzy): no spec.
        warnings.filterwarnings("ignore", message=".*alternative render modes")
        check_env(env)
