"""The solitaire Gymnasium environment: one player, one game an episode.

>>> import gymnasium, yatzy.rl
>>> env = gymnasium.make("yatzy/Yahtzee-v0", joker="gated")
>>> obs, info = env.reset(seed=7)
>>> obs["rolls_left"], len(obs["action_mask"]), info["seed"]
(np.int64(2), 44, 7)
>>> obs, reward, terminated, truncated, info = env.step(31 + 5)   # score Sixes
>>> int(reward) == info["total"], terminated
(True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium import spaces

from yatzy.core.errors import ErrorCode, IllegalMove, RulesError, shown
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset
from yatzy.rl.encoding import Layout, Observation
from yatzy.rl.play import advance, check_flag, check_game_seed, draw_seed, make_ruleset, start

if TYPE_CHECKING:
    from yatzy.solver import Strategy

#: The name of the one player of a solitaire game.
PLAYER = "player_0"

RENDER_MODES = ["ansi"]


def check_render_mode(mode: object) -> str | None:
    """``mode`` if it is ``None`` or ``"ansi"``, else :class:`RulesError`."""
    if mode is not None and mode not in RENDER_MODES:
        raise RulesError(
            f"render_mode must be None or 'ansi', not {shown(mode)}",
            code=ErrorCode.BAD_OPTION, option="render_mode", value=shown(mode), valid="ansi",
        )
    return mode if mode is None else str(mode)


def text_of(game: Game) -> str:
    """A short text of ``game`` for ``render_mode="ansi"``: the round, the dice and each
    player's card."""
    if game.is_over:
        head = "Game over"
    else:
        dice = " ".join(map(str, game.dice)) if game.dice is not None else "-"
        head = (f"Round {game.round} of {len(game.ruleset.boxes)}, {game.current_player}"
                f" to play: dice {dice}, {game.rolls_left} rolls left")
    lines = [head, *(f"{p}: {c} (total {c.total})"
                     for p, c in zip(game.players, game.cards, strict=True))]
    return "\n".join(lines) + "\n"


class YatzyEnv(gymnasium.Env[Observation, np.int64]):
    """Solitaire Yatzy or Yahtzee as a Gymnasium environment.

    ``YatzyEnv(rules="yatzy", *, regret=False, render_mode=None, **options)``: ``rules``
    is a ruleset's name (``"yatzy"`` or ``"yahtzee"``) with ``options`` passed to
    :func:`yatzy.ruleset`, or a :class:`~yatzy.core.rulesets.Ruleset`. Registered as
    ``yatzy/Yatzy-v0`` and ``yatzy/Yahtzee-v0`` (``import yatzy.rl``).

    - Actions: ``Discrete(31 + boxes)``, numbered as in :mod:`yatzy.rl.encoding`: 0-30
      reroll keeping the dice of the mask's bits, then one action per box to score it.
      The first roll of every turn is made by the environment.
    - Observation: a ``Dict`` of ``dice``, ``rolls_left``, ``filled``, ``scores``,
      ``upper_sum``, ``upper_bonus``, ``extra_yahtzees`` and ``action_mask`` (int8, 1 =
      legal); see :meth:`Layout.observation_space <yatzy.rl.encoding.Layout.observation_space>`.
    - Reward: the points the action added to the total (0 for a reroll; a score's points
      with any upper or extra-Yahtzee bonus it earns), so an episode's rewards add up to
      the final total. The episode terminates when the card is full; it is never truncated.
    - An illegal action raises :class:`~yatzy.core.errors.IllegalMove` and changes nothing.
    - ``info``: ``action_mask`` (as in the observation), ``total`` (the total so far),
      ``seed`` (after a reset: the game's seed) and, with ``regret=True``, ``regret``
      after each step: the solver's value of the best legal action minus that of the
      action taken (0 when it was optimal; the strategy's table is built or loaded when
      the environment is made).
    - ``reset(options=...)``: there are no reset options; any given are ignored (as
      PettingZoo's API test expects of every environment).
    - ``reset(seed=s)`` plays the game of :func:`yatzy.new_game` with seed ``s`` (0 to
      2**53 - 1; another seed raises :class:`~yatzy.core.errors.IllegalMove`) and
      seeds the environment's generator, from which the seeds of the following resets
      are drawn: the same seed gives the same games.

    :attr:`game` is the core :class:`~yatzy.core.game.Game` being played (its record
    replays it).
    """

    # Gymnasium and PettingZoo read it from the class (an instance attribute to mypy).
    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 4}  # noqa: RUF012

    def __init__(self, rules: str | Ruleset = "yatzy", *, regret: bool = False,
                 render_mode: str | None = None, **options: Any) -> None:
        self.ruleset = make_ruleset(rules, options)
        self.layout = Layout(self.ruleset)
        self.regret = check_flag("regret", regret)
        self.render_mode = check_render_mode(render_mode)
        self.action_space = spaces.Discrete(self.layout.action_count)
        self.observation_space = self.layout.observation_space()
        #: The solver's strategy, with ``regret=True`` (else ``None``).
        self.strategy: Strategy | None = None
        if self.regret:
            from yatzy.solver.policy import table_strategy

            self.strategy = table_strategy(self.ruleset)
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """The game being played (:class:`IllegalMove` before the first reset)."""
        if self._game is None:
            raise IllegalMove("Call reset() before playing", code=ErrorCode.ILLEGAL_MOVE,
                              detail="call reset() before playing")
        return self._game

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        seed = check_game_seed(seed)
        super().reset(seed=seed)
        game_seed = seed if seed is not None else draw_seed(self.np_random)
        self._game = start(self.ruleset, [PLAYER], game_seed)
        obs, info = self._observe()
        info["seed"] = game_seed
        return obs, info

    def step(self, action: np.int64 | int
             ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        played = advance(self.layout, self.game, action, self.strategy)
        self._game = played.game
        obs, info = self._observe()
        if played.regret is not None:
            info["regret"] = played.regret
        return obs, float(played.reward), played.game.is_over, False, info

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        game = self.game
        mask = self.layout.mask(game)
        card = game.cards[0]
        obs = self.layout.observe(game, card, mask)
        return obs, {"action_mask": obs["action_mask"].copy(), "total": card.total}

    def render(self) -> str | None:
        """The game as text with ``render_mode="ansi"``; ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        return text_of(self.game)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (the ``action_masks()`` method that
        masked-action learners look for)."""
        return np.array(self.layout.mask(self.game), dtype=bool)
