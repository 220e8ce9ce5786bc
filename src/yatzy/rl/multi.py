"""A PettingZoo AEC environment: one game of Yatzy or Yahtzee for 2 to 6 players.

Agents ``player_0`` … ``player_{n-1}`` play in seat order, ``player_0`` first; the
agent to act is always the player whose turn it is. Actions are numbered as in the
solitaire environment (:mod:`yatzy.rl.encoding`); the first roll of each turn is made
by the environment.

Each agent's observation is, as in PettingZoo's board games, a dict of two arrays:
``observation``, one int16 vector (:meth:`Layout.flat_fields
<yatzy.rl.encoding.Layout.flat_fields>` gives each field's slice), and ``action_mask``
(int8, 1 = legal; all 0 when it is not the agent's turn). The vector holds the dice on
the table and the rolls left of the player to move (``dice``, ``rolls_left``), the
agent's own card as in the solitaire observation (``filled``, ``scores``,
``upper_sum``, ``upper_bonus``, ``extra_yahtzees``), and ``totals``: every player's
total, the observing agent's first, then the others in seat order after it. Rewards are the
points each action adds to the acting agent's total, so an agent's rewards add up to
its final total; every agent terminates when the last box of the game is filled. An
illegal action raises :class:`~yatzy.core.errors.IllegalMove` and changes nothing.

>>> from yatzy.rl.multi import env
>>> game = env(num_players=3)
>>> game.reset(seed=4)
>>> totals = game.unwrapped.layout.flat_fields(3)["totals"]
>>> game.agent_selection, game.observe("player_0")["observation"][totals].tolist()
('player_0', [0, 0, 0])
>>> game.step(31 + 14)          # player_0 scores Yatzy with what it rolled
>>> game.agent_selection
'player_1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from yatzy.core.errors import ErrorCode, IllegalMove, RulesError, shown
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset
from yatzy.rl.encoding import Layout, Observation
from yatzy.rl.play import advance, check_flag, check_game_seed, draw_seed, make_ruleset, start
from yatzy.rl.solitaire import RENDER_MODES, check_render_mode, text_of

if TYPE_CHECKING:
    from yatzy.solver import Strategy

MIN_PLAYERS = 2
MAX_PLAYERS = 6


class YatzyAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # untyped base
    """``YatzyAECEnv(rules="yatzy", *, num_players=2, regret=False, render_mode=None,
    **options)``: ``rules`` and ``options`` as for :class:`~yatzy.rl.solitaire.YatzyEnv`.

    ``infos[agent]`` holds ``action_mask`` and ``total`` (after a reset also ``seed``,
    the game's seed), and with ``regret=True``, for the agent that just acted,
    ``regret``: the solver's value of its best legal action minus that of the action
    taken. The solver maximises the player's own expected score, not its chance to win,
    so this is the regret of solitaire play. ``reset(seed=s)`` plays the game of
    :func:`yatzy.new_game` with seed ``s`` and the players ``player_0`` …; later resets
    draw their seeds from the generator it seeds. :attr:`game` is the core game.
    """

    # Gymnasium and PettingZoo read it from the class (an instance attribute to mypy).
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": RENDER_MODES,
        "name": "yatzy_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: str | Ruleset = "yatzy", *, num_players: int = 2,
                 regret: bool = False, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not (
            MIN_PLAYERS <= num_players <= MAX_PLAYERS
        ):
            raise RulesError(
                f"num_players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {shown(num_players)}"
                " (one player: the Gymnasium environment yatzy/Yatzy-v0)",
                code=ErrorCode.BAD_OPTION, option="num_players", value=shown(num_players),
                valid=f"{MIN_PLAYERS}-{MAX_PLAYERS}",
            )
        self.ruleset = make_ruleset(rules, options)
        self.layout = Layout(self.ruleset)
        self.regret = check_flag("regret", regret)
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = ""
        self._observation_space = spaces.Dict({
            "observation": self.layout.flat_space(num_players),
            "action_mask": spaces.MultiBinary(self.layout.action_count),
        })
        self._action_space = spaces.Discrete(self.layout.action_count)
        #: The solver's strategy, with ``regret=True`` (else ``None``).
        self.strategy: Strategy | None = None
        if self.regret:
            from yatzy.solver.policy import table_strategy

            self.strategy = table_strategy(self.ruleset)
        self._rng: np.random.Generator | None = None
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """The game being played (:class:`IllegalMove` before the first reset)."""
        if self._game is None:
            raise IllegalMove("Call reset() before playing", code=ErrorCode.ILLEGAL_MOVE,
                              detail="call reset() before playing")
        return self._game

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_game_seed(seed)
        if seed is not None:
            self._rng = seeding.np_random(seed)[0]
            game_seed = seed
        else:
            if self._rng is None:
                self._rng = seeding.np_random()[0]
            game_seed = draw_seed(self._rng)
        self._game = start(self.ruleset, self.possible_agents, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"seed": game_seed} for agent in self.agents}
        self._update_infos()
        self.agent_selection = self._game.current_player

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        played = advance(self.layout, self.game, action, self.strategy)
        self._game = game = played.game
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(played.reward)
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {a: {} for a in self.agents}
        if played.regret is not None:
            self.infos[agent]["regret"] = played.regret
        self._update_infos()
        self.agent_selection = game.current_player
        self._accumulate_rewards()

    def observe(self, agent: str) -> Observation:
        game = self.game
        seat = self._seat(agent)
        mask = (self.layout.mask(game) if agent == game.current_player and not game.is_over
                else [0] * self.layout.action_count)
        n = len(game.players)
        totals = [game.cards[(seat + k) % n].total for k in range(n)]
        return {"observation": self.layout.flatten(game, game.cards[seat], totals),
                "action_mask": np.array(mask, dtype=np.int8)}

    def render(self) -> str | None:
        """The game as text with ``render_mode="ansi"``; ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        return text_of(self.game)

    def close(self) -> None:
        """Nothing to release."""

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise IllegalMove(
                f"No agent called {shown(agent)}; the agents are"
                f" {', '.join(self.possible_agents)}",
                code=ErrorCode.UNKNOWN_PLAYER, player=shown(agent),
                players=", ".join(self.possible_agents),
            )
        return self.possible_agents.index(agent)

    def _update_infos(self) -> None:
        game = self.game
        mask = self.layout.mask(game)
        zeros = np.zeros(self.layout.action_count, dtype=np.int8)
        for agent in self.agents:
            info = self.infos[agent]
            mine = agent == game.current_player and not game.is_over
            info["action_mask"] = np.array(mask, dtype=np.int8) if mine else zeros.copy()
            info["total"] = game.cards[self._seat(agent)].total


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """A :class:`YatzyAECEnv` made with ``kwargs``, in PettingZoo's order-enforcing
    wrapper (which refuses ``step`` before ``reset``), as PettingZoo's own ``env()``
    functions give it."""
    return wrappers.OrderEnforcingWrapper(YatzyAECEnv(**kwargs))


#: The environment class without wrappers, under PettingZoo's usual name.
raw_env = YatzyAECEnv

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "YatzyAECEnv", "env", "raw_env"]
