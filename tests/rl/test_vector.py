"""The vector environment steps its games in compiled code: every step of random games,
under every ruleset option, is checked against the core playing the same dice."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yatzy
from yatzy.core.actions import Reroll, Score
from yatzy.core.errors import ErrorCode, IllegalMove, RulesError
from yatzy.core.game import Game
from yatzy.core.scorecard import Scorecard
from yatzy.rl import YatzyVectorEnv
from yatzy.rl.encoding import regret
from yatzy.rl.solitaire import PLAYER


def choose(obs: dict[str, Any], layout: Any, rng: np.random.Generator) -> np.ndarray:
    """A legal action per game: often keeping the most common face (so that five of a
    kind, and with it the Joker rules and the extra bonus, comes up), else at random."""
    actions = []
    for dice, mask in zip(obs["dice"], obs["action_mask"], strict=True):
        legal = np.flatnonzero(mask)
        if not len(legal):
            actions.append(int(rng.integers(layout.action_count)))  # ignored: a restart
            continue
        if mask[0] and rng.random() < 0.6:
            face = np.bincount(dice).argmax()
            keep = sum(1 << i for i, d in enumerate(dice) if d == face)
            if keep < layout.keep_count:
                actions.append(keep)
                continue
        actions.append(int(rng.choice(legal)))
    return np.array(actions)


def assert_observed(obs: dict[str, Any], i: int, game: Game, layout: Any) -> None:
    expected = layout.observe(game, game.cards[0], layout.mask(game))
    for key, value in expected.items():
        assert np.array_equal(obs[key][i], value), (key, i, obs[key][i], value, game.card)


def core_step(game: Game, layout: Any, action: int, dice: np.ndarray) -> Game:
    """``game`` after ``action`` with the dice the environment rolled."""
    move = layout.to_action(action)
    if isinstance(move, Reroll):
        return game.reroll(move.hold, [int(dice[p]) for p in range(len(dice))
                                       if p not in move.hold])
    after = game.apply(move)
    return after if after.is_over else after.roll(dice.tolist())


@pytest.mark.parametrize(("rules", "options"), [
    ("yatzy", {}),
    ("yatzy", {"order": "in_order"}),
    ("yatzy", {"order": "upper_first", "rolls": 2}),
    ("yahtzee", {}),
    ("yahtzee", {"joker": "gated", "upper_first": True}),
    ("yahtzee", {"joker": "free"}),
    ("yahtzee", {"joker": "none", "yahtzee_bonus": False, "rolls": 4}),
    ("yatzy", {"regret": True}),
])
def test_every_step_agrees_with_the_core(rules: str, options: dict[str, Any]) -> None:
    n, steps = 6, 900
    envs = YatzyVectorEnv(n, rules, **options)
    layout, strategy = envs.layout, envs.strategy
    rng = np.random.default_rng(len(str(options)))
    obs, info = envs.reset(seed=3)
    games = [Game.start(envs.ruleset, [PLAYER]).roll(obs["dice"][i].tolist()) for i in range(n)]
    ended = fives = 0
    for step in range(steps):
        for i, game in enumerate(games):
            if not game.is_over:
                assert_observed(obs, i, game, layout)
        actions = choose(obs, layout, rng)
        before = [g.cards[0].total for g in games]
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any() and np.array_equal(info["action_mask"], obs["action_mask"])
        for i in range(n):
            if games[i].is_over:  # the slot restarted: a new game, its action ignored
                games[i] = Game.start(envs.ruleset, [PLAYER]).roll(obs["dice"][i].tolist())
                assert rewards[i] == 0 and not terminated[i]
                continue
            if strategy is not None:
                move = layout.to_action(int(actions[i]))
                lost = regret(strategy.advise(games[i]), games[i].dice, move)
                assert info["_regret"][i] and info["regret"][i] == lost
            dice = games[i].dice
            if isinstance(layout.to_action(int(actions[i])), Score) and dice.is_n_of_a_kind:
                fives += 1
            games[i] = core_step(games[i], layout, int(actions[i]), obs["dice"][i])
            card = games[i].cards[0]
            assert rewards[i] == card.total - before[i], (step, i)
            assert info["total"][i] == card.total
            assert terminated[i] == games[i].is_over
            ended += int(terminated[i])
            assert_observed(obs, i, games[i], layout)
    assert ended >= n  # every slot finished a game (and started another)
    assert fives > 0  # five of a kind was scored
    for i in range(n):  # the core's replay of each slot is the game played
        replayed = envs.game(i)
        assert replayed.cards == games[i].cards and replayed.dice == games[i].dice


def test_the_same_seed_gives_the_same_games() -> None:
    def play(seed: Any, n: int = 3) -> list[np.ndarray]:
        envs = YatzyVectorEnv(n, "yahtzee")
        obs, _ = envs.reset(seed=seed)
        seen = [obs["dice"].copy()]
        for _ in range(60):  # past the end of a game: a restart goes on with the stream
            # Reroll everything while rolls are left, then the first open box.
            obs, *_ = envs.step(np.array([0 if m[0] else int(np.argmax(m)) for m in
                                          obs["action_mask"]]))
            seen.append(obs["dice"].copy())
        return seen

    first, again = play(7), play(7)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0][0], first[0][1])  # slots have their own dice
    other = play(8)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
    # One seed per slot: slot 0 seeded 7 plays what a one-game vector seeded 7 plays.
    mixed = play([7, None, None])
    single = play(7, n=1)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(mixed, single, strict=True))


def test_make_vec_makes_it() -> None:
    envs = gymnasium.make_vec("yatzy/Yahtzee-v0", num_envs=2, joker="free")
    assert isinstance(envs, YatzyVectorEnv)
    assert envs.ruleset.options["joker"] == "free"
    assert envs.single_observation_space == gymnasium.make("yatzy/Yahtzee-v0").observation_space
    obs, info = envs.reset(seed=[5, None])
    assert obs["dice"].shape == (2, 5) and obs in envs.observation_space
    assert info["total"].tolist() == [0, 0]


def test_bad_calls_raise_typed_errors_and_change_nothing() -> None:
    envs = YatzyVectorEnv(2, "yatzy")
    with pytest.raises(IllegalMove, match="reset"):
        envs.step([0, 0])
    with pytest.raises(IllegalMove, match="reset"):
        envs.game(0)
    envs.reset(seed=1)
    with pytest.raises(RulesError, match="Give 2 actions"):
        envs.step([0])
    ones = envs.layout.keep_count
    envs.step([0, ones])
    games = [envs.game(0), envs.game(1)]
    with pytest.raises(IllegalMove) as filled:  # the first game's action is legal
        envs.step([0, ones])
    assert filled.value.code is ErrorCode.BOX_FILLED
    for bad in ([0, 46], [0, -1], [0.5, 0], ["a", 0], np.array([True, False])):
        with pytest.raises(IllegalMove) as unknown:
            envs.step(np.array(bad, dtype=object) if isinstance(bad[0], str) else bad)
        assert unknown.value.code is ErrorCode.UNKNOWN_ACTION
    assert [envs.game(0), envs.game(1)] == games  # neither game moved
    again, *_ = envs.step([ones + 1, ones + 1])  # and they go on from where they were
    assert np.array_equal(again["filled"][1][:2], [1, 1])
    for bad_count in (0, 10**10, 2.0, True):
        with pytest.raises(RulesError, match="num_envs"):
            YatzyVectorEnv(bad_count)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="seed must be"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(IllegalMove) as bad_seed:
        envs.reset(seed=2**53)
    assert bad_seed.value.code is ErrorCode.BAD_SEED
    with pytest.raises(RulesError, match="Slots are numbered"):
        envs.game(2)


def test_render_gives_every_game() -> None:
    envs = YatzyVectorEnv(2, "yatzy", render_mode="ansi")
    envs.reset(seed=0)
    texts = envs.render()
    assert texts is not None and len(texts) == 2
    assert all(t.startswith("Round 1 of 15") for t in texts)
    assert YatzyVectorEnv(1, yatzy.ruleset("yatzy")).render() is None


#: One vector environment per ruleset for the examples below (each resets it).
ENVS: dict[str, YatzyVectorEnv] = {}


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from([("yatzy", {"order": "in_order"}), ("yahtzee", {})]),
       seed=st.integers(0, 2**53 - 1), data=st.data())
def test_any_action_is_taken_as_the_core_takes_it_or_refused_with_nothing_changed(
    rules: tuple[str, dict[str, Any]], seed: int, data: st.DataObject
) -> None:
    """Any action numbers, legal or not, in any slot: the step either agrees with the
    core in every slot, or raises the core's error and leaves every slot as it was."""
    n = 3
    envs = ENVS.get(rules[0]) or ENVS.setdefault(rules[0], YatzyVectorEnv(n, rules[0], **rules[1]))
    layout = envs.layout
    obs, _ = envs.reset(seed=seed)
    games = [envs.game(i) for i in range(n)]
    for _ in range(data.draw(st.integers(1, 40))):
        actions = data.draw(st.lists(st.integers(-2, layout.action_count + 1), min_size=n,
                                     max_size=n))
        live = [i for i in range(n) if not games[i].is_over]
        legal = all(0 <= actions[i] < layout.action_count
                    and obs["action_mask"][i][actions[i]] for i in live)
        before = {k: v.copy() for k, v in obs.items()}
        try:
            obs, rewards, terminated, _, _ = envs.step(actions)
        except IllegalMove as refused:
            assert not legal
            first = next(i for i in live if not (0 <= actions[i] < layout.action_count
                                                 and before["action_mask"][i][actions[i]]))
            with pytest.raises(IllegalMove) as core:  # the core's own refusal
                core_step(games[first], layout, actions[first], before["dice"][first])
            assert refused.code is core.value.code
            assert [envs.game(i) for i in range(n)] == games  # nothing moved
            obs = before
            continue
        assert legal
        for i in range(n):
            if games[i].is_over:
                games[i] = envs.game(i)  # a new game in the slot
                continue
            after = core_step(games[i], layout, actions[i], obs["dice"][i])
            assert rewards[i] == after.cards[0].total - games[i].cards[0].total
            assert terminated[i] == after.is_over
            games[i] = after
            assert_observed(obs, i, after, layout)


def per_game_regrets(envs: YatzyVectorEnv, actions: np.ndarray) -> np.ndarray:
    """The regrets of ``actions`` worked out game by game, as the environment once did:
    each game's scorecard, :meth:`Strategy.advise_card` on it and
    :func:`~yatzy.rl.encoding.regret` (0 for a game that restarts or an illegal action)."""
    assert envs.strategy is not None
    regrets = np.zeros(envs.num_envs)
    filled = envs._filled()
    for i in range(envs.num_envs):
        if envs._autoreset[i]:
            continue
        entries = tuple(int(p) if f else None
                        for p, f in zip(envs._scores[i].tolist(), filled[i], strict=True))
        card = Scorecard(envs.ruleset, entries, int(envs._state[i, 5]))
        dice = tuple(envs._dice[i].tolist())
        try:
            action = envs.layout.to_action(int(actions[i]))
            options = envs.strategy.advise_card(card, dice, int(envs._left[i]))
            regrets[i] = regret(options, dice, action)
        except IllegalMove:
            continue
    return regrets


#: The rulesets of the regrets' tests: both games, the Joker rules, a play order, and
#: other numbers of rolls (the memo keeps one level of keeps fewer, or more).
REGRET_RULES = [("yatzy", ()), ("yahtzee", ()), ("yahtzee", (("joker", "free"),)),
                ("yatzy", (("order", "in_order"),)), ("yatzy", (("rolls", 4),)),
                ("yahtzee", (("rolls", 2),))]
REGRET_ENVS: dict[tuple[str, tuple[tuple[str, Any], ...]], YatzyVectorEnv] = {}


def regret_envs(rules: tuple[str, tuple[tuple[str, Any], ...]]) -> YatzyVectorEnv:
    name, options = rules
    envs = REGRET_ENVS.get(rules)
    return envs or REGRET_ENVS.setdefault(
        rules, YatzyVectorEnv(24, name, regret=True, **dict(options)))


def assert_regrets(envs: YatzyVectorEnv, actions: np.ndarray) -> dict[str, Any]:
    """Step ``actions`` and check the regrets against :func:`per_game_regrets`."""
    expected = per_game_regrets(envs, actions)
    stepped = ~envs._autoreset
    *_, info = envs.step(actions)
    if not stepped.any():
        assert "regret" not in info
        return info
    assert np.array_equal(info["_regret"], stepped)
    assert np.array_equal(info["regret"][stepped], expected[stepped])
    assert (info["regret"] >= 0).all()
    return info


@settings(max_examples=25, deadline=None)
@given(rules=st.sampled_from(REGRET_RULES), seed=st.integers(0, 2**53 - 1), data=st.data())
def test_the_regrets_worked_out_together_are_those_of_each_game(
    rules: tuple[str, tuple[tuple[str, Any], ...]], seed: int, data: st.DataObject
) -> None:
    """``regret=True``: the compiled call's regrets, bit for bit, are those the solver's
    advice gives game by game, over random play (the most common face kept often, so
    that five of a kind and the Joker rules come up)."""
    envs = regret_envs(rules)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    obs, _ = envs.reset(seed=seed)
    for _ in range(data.draw(st.integers(1, 60))):
        assert_regrets(envs, choose(obs, envs.layout, rng))
        obs = envs._observation()


@pytest.mark.parametrize("rules", REGRET_RULES)
def test_the_regrets_of_whole_games_are_those_of_each_game(
        rules: tuple[str, tuple[tuple[str, Any], ...]]) -> None:
    """Many steps: 64 games played through several games each, every step's regrets
    compared with the solver's advice on each game."""
    name, options = rules
    envs = YatzyVectorEnv(64, name, regret=True, **dict(options))
    rng = np.random.default_rng(7)
    obs, _ = envs.reset(seed=11)
    for _ in range(len(envs.ruleset.boxes) * envs.ruleset.rolls * 2 + 5):
        assert_regrets(envs, choose(obs, envs.layout, rng))
        obs = envs._observation()
    assert (envs._memo_keys >= 0).all()  # every game rerolled and kept its turn


def test_a_turn_is_worked_out_once_and_read_at_its_later_decisions() -> None:
    """After a reroll, the game's next decision in the same turn is answered from its
    row of the memo, not worked out again: values put there show in its regret (and
    only there)."""
    envs = YatzyVectorEnv(8, "yatzy", regret=True)
    envs.reset(seed=5)
    envs.step(np.zeros(8, dtype=np.int64))  # every game rerolls all its dice
    assert (envs._left == 1).all() and (envs._memo_keys >= 0).all()
    envs._memo[3] += 1.0e6  # game 3's row; a box is chosen at its next decision
    actions = np.argmax(envs._legal[:, envs.layout.keep_count:], axis=1) + \
        envs.layout.keep_count
    expected = per_game_regrets(envs, actions)
    *_, info = envs.step(actions)
    assert info["regret"][3] != expected[3]
    assert np.array_equal(np.delete(info["regret"], 3), np.delete(expected, 3))


def test_a_memo_row_of_another_state_is_not_read() -> None:
    """A game's row holding another state's turn (its keys name that state) is worked
    out again: the rows of the games shuffled, every regret is still the advice's."""
    envs = YatzyVectorEnv(16, "yahtzee", regret=True)
    rng = np.random.default_rng(3)
    obs, _ = envs.reset(seed=9)
    for step in range(40):
        if step % 3 == 1:
            order = rng.permutation(16)
            envs._memo_keys[:] = envs._memo_keys[order]
            envs._memo[:] = envs._memo[order]
        assert_regrets(envs, choose(obs, envs.layout, rng))
        obs = envs._observation()


def test_games_past_the_memo_rows_work_their_turns_out(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """The memo has rows for the first games only when they would take more than
    MEMO_BYTES; the others' regrets are the same."""
    from yatzy.rl import vector

    width = YatzyVectorEnv(1, "yatzy", regret=True)._memo.shape[1]
    monkeypatch.setattr(vector, "MEMO_BYTES", 5 * 8 * width)
    envs = YatzyVectorEnv(12, "yatzy", regret=True)
    assert envs._memo.shape == (5, width)
    rng = np.random.default_rng(4)
    obs, _ = envs.reset(seed=2)
    for _ in range(50):
        assert_regrets(envs, choose(obs, envs.layout, rng))
        obs = envs._observation()


def test_saved_rolls_are_refused_with_a_clear_error_and_maxi_without_them_plays() -> None:
    with pytest.raises(RulesError) as refused:
        YatzyVectorEnv(2, yatzy.ruleset("maxi_yatzy"))
    assert refused.value.code is ErrorCode.BAD_OPTION
    assert "saved rolls" in str(refused.value) and "YatzyEnv" in str(refused.value)
    envs = YatzyVectorEnv(2, "maxi_yatzy", saved_rolls=False)
    observation, _ = envs.reset(seed=1)
    assert observation["dice"].shape == (2, 6)
