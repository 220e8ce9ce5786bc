"""The vector environment gives what Gymnasium's SyncVectorEnv over single envs gives."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

from yatzy.core.errors import ErrorCode, IllegalMove, RulesError
from yatzy.rl import YatzyEnv, YatzyVectorEnv


def assert_same(a: Any, b: Any, where: str) -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), (where, set(a) ^ set(b))
        for key in a:
            assert_same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{k}]")
    else:
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, (where, a.dtype, b.dtype)
        assert np.array_equal(a, b), (where, a, b)


@pytest.mark.parametrize(("rules", "options"), [
    ("yatzy", {}),
    ("yahtzee", {"joker": "gated"}),
    ("yatzy", {"regret": True}),
])
def test_it_equals_single_envs_across_autoresets(rules: str, options: dict[str, Any]) -> None:
    n = 3
    ours = YatzyVectorEnv(n, rules, **options)
    theirs = SyncVectorEnv([lambda: YatzyEnv(rules, **options) for _ in range(n)])
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert_same(ours.reset(seed=10), theirs.reset(seed=10), "reset")
    rng = np.random.default_rng(2)
    games_ended = 0
    obs, _ = ours.reset(seed=10)
    theirs.reset(seed=10)
    for step in range(150):
        # Random legal actions, rerolls rarer, so that games end (and restart) often.
        actions = []
        for mask in obs["action_mask"]:
            legal = np.flatnonzero(mask)
            scores = legal[legal >= ours.layout.keep_count]
            pick = scores if len(scores) and rng.random() < 0.7 else legal
            actions.append(int(rng.choice(pick)) if len(pick) else 0)
        result = ours.step(np.array(actions))
        assert_same(result, theirs.step(np.array(actions)), f"step {step}")
        obs = result[0]
        games_ended += int(result[2].sum())
    assert games_ended >= 6  # every slot ended and restarted more than once


def test_make_vec_makes_it() -> None:
    envs = gymnasium.make_vec("yatzy/Yahtzee-v0", num_envs=2, joker="free")
    assert isinstance(envs, YatzyVectorEnv)
    assert envs.ruleset.options["joker"] == "free"
    obs, info = envs.reset(seed=[5, None])
    assert info["seed"][0] == 5 and obs["dice"].shape == (2, 5)


def test_bad_calls_raise_typed_errors_and_change_nothing() -> None:
    envs = YatzyVectorEnv(2, "yatzy")
    with pytest.raises(IllegalMove, match="reset"):
        envs.step([0, 0])
    envs.reset(seed=1)
    with pytest.raises(RulesError, match="Give 2 actions"):
        envs.step([0])
    ones = envs.layout.keep_count
    envs.step([0, ones])
    games = list(envs.games)
    with pytest.raises(IllegalMove) as filled:  # the first game's action is legal
        envs.step([0, ones])
    assert filled.value.code is ErrorCode.BOX_FILLED
    assert envs.games == games  # the second game did not move either
    with pytest.raises(RulesError, match="num_envs"):
        YatzyVectorEnv(0)
    with pytest.raises(RulesError, match="seed must be"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(IllegalMove) as bad_seed:
        envs.reset(seed=2**53 - 1)  # the second game's seed would be too big
    assert bad_seed.value.code is ErrorCode.BAD_SEED
    assert envs.games == games


def test_render_gives_every_game() -> None:
    envs = YatzyVectorEnv(2, "yatzy", render_mode="ansi")
    envs.reset(seed=0)
    texts = envs.render()
    assert texts is not None and len(texts) == 2
    assert all(t.startswith("Round 1 of 15") for t in texts)
