"""A Gymnasium vector environment of solitaire games, with batched numpy arrays.

``YatzyVectorEnv(num_envs, rules, ...)`` plays ``num_envs`` independent games of
:class:`~yatzy.rl.solitaire.YatzyEnv` and returns their observations, rewards,
terminations and infos as batched arrays. It is what ``gymnasium.make_vec(
"yatzy/Yatzy-v0", num_envs=N)`` makes.

What it is: a :class:`gymnasium.vector.VectorEnv` over ``num_envs`` core games, stepped
in a Python loop through the same :func:`yatzy.rl.play.advance` as the single
environment, writing into preallocated arrays. It saves the per-environment wrappers,
the dictionaries and the stacking of :class:`gymnasium.vector.SyncVectorEnv`; the
rules are not reimplemented in numpy, so each game still costs one core transition per
step (``bench/rl.py`` measures both).

Given the same seed it returns exactly what ``SyncVectorEnv`` over ``num_envs``
:class:`YatzyEnv` gives (``reset(seed=s)`` seeds game ``i`` with ``s + i``), with
next-step autoreset: the step after a game ends starts a new game in that slot (its
action is ignored, reward 0, ``info["seed"]`` set).

>>> import gymnasium, yatzy.rl
>>> envs = gymnasium.make_vec("yatzy/Yatzy-v0", num_envs=4)
>>> obs, info = envs.reset(seed=1)
>>> obs["dice"].shape, obs["action_mask"].shape, info["seed"].tolist()
((4, 5), (4, 46), [1, 2, 3, 4])
>>> obs, rewards, terminated, truncated, info = envs.step([31, 32, 33, 44])
>>> rewards.shape, terminated.tolist()
((4,), [False, False, False, False])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from yatzy.core.errors import ErrorCode, RulesError, shown
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset
from yatzy.rl.encoding import FIELDS, Layout, Observation
from yatzy.rl.play import advance, check_flag, check_game_seed, draw_seed, make_ruleset, start
from yatzy.rl.solitaire import PLAYER, check_render_mode, text_of

if TYPE_CHECKING:
    from yatzy.solver import Strategy


class YatzyVectorEnv(VectorEnv[Observation, np.ndarray, np.ndarray]):
    """``num_envs`` solitaire games with batched arrays; the arguments after
    ``num_envs`` are those of :class:`~yatzy.rl.solitaire.YatzyEnv`.

    Observations are the single environment's ``Dict`` batched (``obs["dice"]`` has
    shape ``(num_envs, 5)``, ``obs["rolls_left"]`` ``(num_envs,)``…), actions a sequence
    of ``num_envs`` action numbers. ``info`` holds ``action_mask`` ``(num_envs,
    actions)``, ``total``, and, for the games that have them this step, ``seed`` and
    ``regret``, each with its ``_key`` boolean mask, as Gymnasium's vector environments do.
    """

    # Gymnasium and PettingZoo read it from the class (an instance attribute to mypy).
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(self, num_envs: int = 1, rules: str | Ruleset = "yatzy", *,
                 regret: bool = False, render_mode: str | None = None,
                 **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise RulesError(
                f"num_envs must be a whole number of at least 1, not {shown(num_envs)}",
                code=ErrorCode.BAD_OPTION, option="num_envs", value=shown(num_envs),
                valid="1, 2, 3, ...",
            )
        self.num_envs = num_envs
        self.ruleset = make_ruleset(rules, options)
        self.layout = Layout(self.ruleset)
        self.regret = check_flag("regret", regret)
        self.render_mode = check_render_mode(render_mode)
        from gymnasium import spaces

        self.single_action_space = spaces.Discrete(self.layout.action_count)
        self.single_observation_space = self.layout.observation_space()
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space: spaces.Dict = batch_space(  # type: ignore[assignment]
            self.single_observation_space, num_envs)
        #: The solver's strategy, with ``regret=True`` (else ``None``).
        self.strategy: Strategy | None = None
        if self.regret:
            from yatzy.solver import strategy

            self.strategy = strategy(self.ruleset)
        self.games: list[Game | None] = [None] * num_envs
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._buffers = {key: np.zeros(cast(tuple[int, ...], space.shape), dtype=space.dtype)
                         for key, space in self.observation_space.items()}

    # --- Gymnasium's API --------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start a game in every slot. ``seed``: one number (game ``i`` gets ``seed +
        i``), one per game (``None`` for a seed drawn from that slot's generator), or
        ``None``."""
        seeds = self._seeds(seed)
        n = self.num_envs
        info_seed = np.zeros(n, dtype=np.int64)
        for i, s in enumerate(seeds):
            info_seed[i] = self._restart(i, s)
        self._autoreset[:] = False
        self._write()
        info = self._info()
        info["seed"], info["_seed"] = info_seed, np.ones(n, dtype=np.bool_)
        return self._observation(), info

    def step(self, actions: Any) -> tuple[Observation, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One action per game (ignored in a slot whose game ended last step: a new
        game starts there). An illegal action raises
        :class:`~yatzy.core.errors.IllegalMove` and no game changes."""
        n = self.num_envs
        chosen = np.asarray(actions)
        if chosen.shape != (n,):
            raise RulesError(
                f"Give {n} actions, one per game, not {shown(actions)}",
                code=ErrorCode.BAD_OPTION, option="actions", value=shown(actions),
                valid=f"{n} action numbers",
            )
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=np.bool_)
        regrets = np.zeros(n, dtype=np.float64)
        seeds = np.zeros(n, dtype=np.int64)
        restarted = self._autoreset.copy()
        # Every game's action is applied (to immutable games) before any slot changes:
        # an illegal action raises with every game as it was.
        played = [None if restarted[i] else
                  advance(self.layout, self._game(i), chosen[i], self.strategy)
                  for i in range(n)]
        for i, result in enumerate(played):
            if result is None:
                seeds[i] = self._restart(i, None)
            else:
                self.games[i] = result.game
                rewards[i] = result.reward
                terminated[i] = result.game.is_over
                if result.regret is not None:
                    regrets[i] = result.regret
        self._write()
        info = self._info()
        if restarted.any():
            info["seed"], info["_seed"] = seeds, restarted
        stepped = ~restarted
        if self.strategy is not None and stepped.any():
            info["regret"], info["_regret"] = regrets, stepped
        self._autoreset = terminated.copy()
        truncated = np.zeros(n, dtype=np.bool_)
        return self._observation(), rewards, terminated, truncated, info

    def render(self) -> tuple[str, ...] | None:
        """Each game as text with ``render_mode="ansi"``; ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        return tuple(text_of(self._game(i)) for i in range(self.num_envs))

    # --- Inside -----------------------------------------------------------------------

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        n = self.num_envs
        if seed is None:
            return [None] * n
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            return [check_game_seed(int(seed) + i) for i in range(n)]
        if isinstance(seed, Sequence) and not isinstance(seed, str) and len(seed) == n:
            return [check_game_seed(s) for s in seed]
        raise RulesError(
            f"seed must be a number, {n} seeds or None, not {shown(seed)}",
            code=ErrorCode.BAD_SEED, most=n, seed=shown(seed),
        )

    def _restart(self, i: int, seed: int | None) -> int:
        """A new game in slot ``i``, as ``YatzyEnv.reset(seed=seed)`` would start it."""
        if seed is not None:
            self._rngs[i] = seeding.np_random(seed)[0]
            game_seed = seed
        else:
            rng = self._rngs[i]
            if rng is None:
                rng = self._rngs[i] = seeding.np_random()[0]
            game_seed = draw_seed(rng)
        self.games[i] = start(self.ruleset, [PLAYER], game_seed)
        return game_seed

    def _game(self, i: int) -> Game:
        game = self.games[i]
        if game is None:
            from yatzy.core.errors import IllegalMove

            raise IllegalMove("Call reset() before playing", code=ErrorCode.ILLEGAL_MOVE,
                              detail="call reset() before playing")
        return game

    def _write(self) -> None:
        """Every game's observation into the arrays, one numpy conversion per field."""
        layout = self.layout
        rows = []
        for i in range(self.num_envs):
            game = self._game(i)
            rows.append(layout.features(game, game.cards[0], layout.mask(game)))
        for key, column in zip(FIELDS, zip(*rows, strict=True), strict=True):
            buf = self._buffers[key]
            buf[...] = np.array(column, dtype=buf.dtype)

    def _observation(self) -> Observation:
        return {key: buf.copy() for key, buf in self._buffers.items()}

    def _info(self) -> dict[str, Any]:
        n = self.num_envs
        totals = np.array([self._game(i).cards[0].total for i in range(n)], dtype=np.int64)
        every = np.ones(n, dtype=np.bool_)
        return {"action_mask": self._buffers["action_mask"].copy(), "_action_mask": every,
                "total": totals, "_total": every.copy()}
