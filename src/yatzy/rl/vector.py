"""A Gymnasium vector environment of solitaire games, stepped together in compiled code.

``YatzyVectorEnv(num_envs, rules, ...)`` plays ``num_envs`` independent solitaire games
and returns their observations, rewards, terminations and infos as batched arrays, with
the action and observation encoding of :class:`~yatzy.rl.solitaire.YatzyEnv`. It is what
``gymnasium.make_vec("yatzy/Yatzy-v0", num_envs=N)`` makes.

What it is: the games live in a few numpy arrays (one row each), and one compiled call
(``Kernels.step_games`` of :mod:`yatzy.solver.kernels`) steps them all: it checks every
action, rolls the dice and fills boxes by the solver's transition (``fill_box`` and
``add_upper``, which read the rules off :mod:`yatzy.core` through the solver's tables:
no rule is written again here), and writes the next legal actions. There is no
:class:`~yatzy.core.game.Game` per step; :meth:`YatzyVectorEnv.game` rebuilds one
(the core replaying the slot's game, its dice given), and the tests check every step of
random games against the core that way. With ``regret=True`` one more compiled call
(``Kernels.regrets``) works out every game's regret before the step, on every core: the
turns of four games at a time share one pass of vector arithmetic, a game that rerolls
keeps what its turn's later decisions read (a row of memo per game), and each game's
regret is, to the last bit, what the solver's advice on that game gives.

Dice come from each slot's own stream, drawn in the compiled code from the reset's
seed and the slot's number (the simulation's generator, not the core's seeded dice: a
slot's games are not those of :func:`yatzy.new_game` with a seed, and the single
environment's games differ). The same seed gives the same games. Autoreset is
next-step: the step after a game ends starts a new game in that slot (its action is
ignored, reward 0); the slot's stream goes on.

>>> import gymnasium, yatzy.rl
>>> envs = gymnasium.make_vec("yatzy/Yatzy-v0", num_envs=4)
>>> obs, info = envs.reset(seed=1)
>>> obs["dice"].shape, obs["action_mask"].shape, info["total"].tolist()
((4, 5), (4, 46), [0, 0, 0, 0])
>>> obs, rewards, terminated, truncated, info = envs.step([31, 32, 33, 44])
>>> rewards.shape, terminated.tolist()
((4,), [False, False, False, False])
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from yatzy.core.actions import Reroll
from yatzy.core.errors import ErrorCode, IllegalMove, RulesError, shown
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset
from yatzy.rl.encoding import Layout, Observation
from yatzy.rl.play import advance, check_flag, check_game_seed, make_ruleset
from yatzy.rl.solitaire import PLAYER, check_render_mode, text_of
from yatzy.solver import kernels
from yatzy.solver.model import build_model

if TYPE_CHECKING:
    from yatzy.solver import Strategy

#: The most games one vector environment plays (about 700 bytes each).
MAX_ENVS = 1_000_000

#: The most memory the regrets keep of the games' turns between steps (``regret=True``:
#: about 2 KB a game for Yatzy and Yahtzee, so the first 33,000 games have a row; the
#: games past them work a turn out again at each decision).
MEMO_BYTES = 64 << 20

# Columns of a game's row in the compiled code's state (see kernels.COLUMNS).
_MASK, _Y, _U, _TOTAL, _FIVE_BOX, _EXTRAS = range(6)


class YatzyVectorEnv(VectorEnv[Observation, np.ndarray, np.ndarray]):
    """``num_envs`` solitaire games with batched arrays; the arguments after
    ``num_envs`` are those of :class:`~yatzy.rl.solitaire.YatzyEnv`.

    Observations are the single environment's ``Dict`` batched (``obs["dice"]`` has
    shape ``(num_envs, 5)``, ``obs["rolls_left"]`` ``(num_envs,)``…), actions a sequence
    of ``num_envs`` action numbers. ``info`` holds ``action_mask`` ``(num_envs,
    actions)``, ``total`` and, with ``regret=True``, ``regret`` for the games that took
    an action this step, each with its ``_key`` boolean mask, as Gymnasium's vector
    environments do.

    ``reset(seed=s)`` seeds slot ``i``'s dice from ``(s, i)``; ``seed`` may also be one
    seed per slot (``None`` for one drawn at random), or ``None``. Seeds are whole
    numbers from 0 to 2**53 - 1.
    """

    # Gymnasium and PettingZoo read it from the class (an instance attribute to mypy).
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(self, num_envs: int = 1, rules: str | Ruleset = "yatzy", *,
                 regret: bool = False, render_mode: str | None = None,
                 **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not (
                1 <= num_envs <= MAX_ENVS):
            raise RulesError(
                f"num_envs must be a whole number from 1 to {MAX_ENVS:,}, not "
                f"{shown(num_envs)}",
                code=ErrorCode.BAD_OPTION, option="num_envs", value=shown(num_envs),
                valid=f"1 to {MAX_ENVS}",
            )
        self.num_envs = num_envs
        self.ruleset = make_ruleset(rules, options)
        if self.ruleset.saved_rolls:
            # Its compiled step plays every turn with the turn's own rolls only.
            raise RulesError(
                f"The vector environment plays no saved rolls: use YatzyEnv for "
                f"{self.ruleset.title or self.ruleset.name} with saved rolls, or "
                f"saved_rolls=False",
                code=ErrorCode.BAD_OPTION, option="saved_rolls", value="True",
                valid="False",
            )
        self.layout = Layout(self.ruleset)
        self.regret = check_flag("regret", regret)
        self.render_mode = check_render_mode(render_mode)
        self.single_action_space = spaces.Discrete(self.layout.action_count)
        self.single_observation_space = self.layout.observation_space()
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space: spaces.Dict = batch_space(  # type: ignore[assignment]
            self.single_observation_space, num_envs)
        #: The solver's strategy, with ``regret=True`` (else ``None``).
        self.strategy: Strategy | None = None
        if self.regret:
            from yatzy.solver.policy import table_strategy

            self.strategy = table_strategy(self.ruleset)
            model = self.strategy.model
            self._kernels = self.strategy.kernels
        else:
            model = build_model(self.ruleset)
            self._kernels = kernels.transition_kernels(model.tables)
        n, dice, boxes = num_envs, self.ruleset.dice_count, len(self.ruleset.boxes)
        self._full = (1 << boxes) - 1
        self._upper = np.array(model.upper, dtype=np.int64)
        self._threshold = model.threshold
        self._has_bonus = self.ruleset.upper_bonus_points > 0
        self._state = np.zeros((n, kernels.COLUMNS), dtype=np.int64)
        self._dice = np.zeros((n, dice), dtype=np.int8)
        self._left = np.zeros(n, dtype=np.int8)
        self._scores = np.zeros((n, boxes), dtype=np.int16)
        self._history = np.zeros((n, boxes * self.ruleset.rolls + 1, 1 + dice), dtype=np.int16)
        self._count = np.zeros(n, dtype=np.int64)
        self._reward = np.zeros(n, dtype=np.int64)
        self._legal = np.zeros((n, self.layout.action_count), dtype=np.int8)
        self._bits = 1 << np.arange(boxes, dtype=np.int64)
        #: Threads of the regrets' compiled call.
        self._threads = kernels.threads()
        # The regrets' memo of each game's turn (see _regrets), for the first games.
        width = self._kernels.memo_width() if self.regret else 0
        rows = min(n, MEMO_BYTES // (8 * width)) if self.regret else 0
        self._memo_keys = np.full(rows, -1, dtype=np.int64)
        self._memo = np.zeros((rows, width), dtype=np.float64)
        self._started = False
        self._autoreset = np.zeros(n, dtype=np.bool_)

    # --- Gymnasium's API --------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start a game in every slot. ``seed``: one number (slot ``i``'s dice come from
        it and ``i``), one per slot (``None`` for one drawn at random), or ``None``."""
        seeds = self._seeds(seed)
        if isinstance(seeds, int):
            self._kernels.seed_games(self._state, seeds, 0)  # row i: from (seed, i)
        else:
            for i, s in enumerate(seeds):
                self._kernels.seed_games(self._state[i:i + 1], s, 0)
        everyone = np.ones(self.num_envs, dtype=np.uint8)
        self._step_all(np.zeros(self.num_envs, dtype=np.int64), everyone)
        self._started = True
        self._autoreset[:] = False
        return self._observation(), self._info()

    def step(self, actions: Any) -> tuple[Observation, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One action per game (ignored in a slot whose game ended last step: a new
        game starts there). An illegal action raises the core's
        :class:`~yatzy.core.errors.IllegalMove` and no game changes."""
        n = self.num_envs
        chosen = np.asarray(actions)
        if chosen.shape != (n,):
            raise RulesError(
                f"Give {n} actions, one per game, not {shown(actions)}",
                code=ErrorCode.BAD_OPTION, option="actions", value=shown(actions),
                valid=f"{n} action numbers",
            )
        if not self._started:
            raise IllegalMove("Call reset() before playing", code=ErrorCode.ILLEGAL_MOVE,
                              detail="call reset() before playing")
        restarted = self._autoreset.copy()
        stepped = ~restarted
        picked = self._numbers(chosen, stepped)
        restart = restarted.view(np.uint8)
        regrets = self._regrets(picked, restart) if self.strategy is not None else None
        bad = self._step_all(picked, restart)
        if bad >= 0:
            # The first refused action, with the layout's or the core's own error.
            self.layout.to_action(chosen[bad])
            advance(self.layout, self.game(bad), int(picked[bad]), None)
            raise IllegalMove(f"Action {int(picked[bad])} is not legal now",
                              code=ErrorCode.UNKNOWN_ACTION, action=str(int(picked[bad])))
        terminated = (self._state[:, _MASK] == self._full) & stepped
        info = self._info()
        if regrets is not None and stepped.any():
            info["regret"], info["_regret"] = regrets, stepped
        self._autoreset = terminated.copy()
        rewards = self._reward.astype(np.float64)
        return (self._observation(), rewards, terminated, np.zeros(n, dtype=np.bool_), info)

    def render(self) -> tuple[str, ...] | None:
        """Each game as text with ``render_mode="ansi"``; ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        return tuple(text_of(self.game(i)) for i in range(self.num_envs))

    # --- The core's view ----------------------------------------------------------------

    def game(self, i: int) -> Game:
        """Slot ``i``'s game as a core :class:`~yatzy.core.game.Game`: the core replays
        its actions with the dice the slot rolled (physical dice in the record, so it
        replays exactly). The core checks every move again as it replays them."""
        if not self._started:
            raise IllegalMove("Call reset() before playing", code=ErrorCode.ILLEGAL_MOVE,
                              detail="call reset() before playing")
        if isinstance(i, bool) or not isinstance(i, int | np.integer) or not (
                0 <= i < self.num_envs):
            raise RulesError(
                f"Slots are numbered 0 to {self.num_envs - 1}, not {shown(i)}",
                code=ErrorCode.BAD_OPTION, option="slot", value=shown(i),
                valid=f"0 to {self.num_envs - 1}",
            )
        rows = self._history[i, : self._count[i]].tolist()
        game = Game.start(self.ruleset, [PLAYER]).roll(rows[0][1:])
        for action, *faces in rows[1:]:
            move = self.layout.to_action(action)
            if isinstance(move, Reroll):
                rerolled = [faces[p] for p in range(len(faces)) if p not in move.hold]
                game = game.reroll(move.hold, rerolled)
            else:
                game = game.apply(move)
                if not game.is_over:
                    game = game.roll(faces)
        return game

    # --- Inside -----------------------------------------------------------------------

    def _step_all(self, actions: np.ndarray, restart: np.ndarray) -> int:
        bad: int = self._kernels.step_games(
            self._state, self._dice, self._left, self._scores, self._history, self._count,
            actions, restart, self._reward, self._legal)
        return bad

    def _numbers(self, chosen: np.ndarray, stepped: np.ndarray) -> np.ndarray:
        """The actions as int64: -1 where one is no action number (the compiled code
        refuses it with the others, in the order of the slots), 0 in the slots that
        restart (they ignore theirs)."""
        if chosen.dtype.kind in "iu":  # a uint64 too big for int64 turns negative: refused
            numbers = chosen.astype(np.int64)
        else:
            numbers = np.full(self.num_envs, -1, dtype=np.int64)
            for i in np.flatnonzero(stepped).tolist():
                with contextlib.suppress(IllegalMove):
                    self.layout.to_action(chosen[i])
                    numbers[i] = int(chosen[i])
        return np.where(stepped, numbers, 0)

    def _regrets(self, picked: np.ndarray, restarted: np.ndarray) -> np.ndarray:
        """Each stepping game's regret of its action (see ``YatzyEnv``), from the
        solver's values on its position before the step, worked out for every game in
        one compiled call (``Kernels.regrets``, on :func:`~yatzy.solver.kernels.threads`
        threads): the value of the best option minus that of the action, as
        :meth:`Strategy.advise_card <yatzy.solver.policy.Strategy.advise_card>` lists
        them (0 where the game restarts or the action is not legal: the step refuses
        it). A game's turn is worked out at its first decision in a state, and what its
        later rerolls and last roll read is kept in its row of the memo."""
        regrets = np.empty(self.num_envs, dtype=np.float64)
        self._kernels.regrets(self._state, self._dice, self._left, picked, restarted,
                              regrets, self._threads, self._memo_keys, self._memo)
        return regrets

    def _seeds(self, seed: int | Sequence[int | None] | None) -> int | list[int]:
        """One seed for every slot (each slot's dice from it and the slot's number), or
        a seed per slot; ``None`` ones drawn at random."""
        n = self.num_envs
        if seed is None:
            drawn = np.random.SeedSequence().generate_state(n, np.uint64)
            return [int(s) for s in drawn]
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            checked = check_game_seed(int(seed))
            assert checked is not None
            return checked
        if isinstance(seed, Sequence) and not isinstance(seed, str) and len(seed) == n:
            checked_each = [check_game_seed(s) for s in seed]
            drawn = np.random.SeedSequence().generate_state(n, np.uint64)
            return [int(d) if s is None else s for s, d in zip(checked_each, drawn,
                                                                strict=True)]
        raise RulesError(
            f"seed must be a number, {n} seeds or None, not {shown(seed)}",
            code=ErrorCode.BAD_SEED, most=n, seed=shown(seed),
        )

    def _filled(self) -> np.ndarray:
        """Which boxes each game has filled (booleans, ``(num_envs, boxes)``)."""
        filled: np.ndarray = (self._state[:, _MASK, None] & self._bits) != 0
        return filled

    def _observation(self) -> Observation:
        state = self._state
        return {
            "dice": self._dice.copy(),
            "rolls_left": self._left.astype(np.int64),
            "filled": self._filled().astype(np.int8),
            "scores": self._scores.copy(),
            "upper_sum": self._scores[:, self._upper].sum(axis=1, dtype=np.int64),
            "upper_bonus": ((state[:, _U] >= self._threshold) & self._has_bonus).astype(
                np.int64),
            "extra_yahtzees": state[:, _EXTRAS].copy(),
            "action_mask": self._legal.copy(),
        }

    def _info(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=np.bool_)
        return {"action_mask": self._legal.copy(), "_action_mask": every,
                "total": self._state[:, _TOTAL].copy(), "_total": every.copy()}
