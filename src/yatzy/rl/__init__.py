"""Reinforcement-learning environments: Gymnasium solitaire and vector environments, a
PettingZoo environment for several players (``pip install yatzy[rl]``; see docs/rl.md).

Importing this package registers ``yatzy/Yatzy-v0`` (Scandinavian Yatzy) and
``yatzy/Yahtzee-v0`` with Gymnasium, for :func:`gymnasium.make` (a
:class:`~yatzy.rl.solitaire.YatzyEnv`) and :func:`gymnasium.make_vec` (a
:class:`~yatzy.rl.vector.YatzyVectorEnv`). Gymnasium 1.x has no plugin entry points,
so the import is needed; ``gymnasium.make("yatzy.rl:yatzy/Yatzy-v0")`` does it too.
Keyword arguments go to the environment, ruleset options included:

>>> import gymnasium, yatzy.rl
>>> env = gymnasium.make("yatzy/Yahtzee-v0", joker="free", upper_first=True)
>>> env.unwrapped.ruleset
ruleset('yahtzee', joker='free', upper_first=True)

The multi-player environment is :func:`yatzy.rl.multi.env` (it needs ``pettingzoo``).
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from yatzy.rl.agents import optimal_action
from yatzy.rl.encoding import Layout
from yatzy.rl.solitaire import YatzyEnv
from yatzy.rl.vector import YatzyVectorEnv

#: The registered environment ids and the ruleset each plays.
ENV_IDS = {"yatzy/Yatzy-v0": "yatzy", "yatzy/Yahtzee-v0": "yahtzee"}

for _id, _rules in ENV_IDS.items():
    if _id not in registry:
        register(
            id=_id,
            entry_point="yatzy.rl.solitaire:YatzyEnv",
            vector_entry_point="yatzy.rl.vector:YatzyVectorEnv",
            kwargs={"rules": _rules},
        )

__all__ = ["ENV_IDS", "Layout", "YatzyEnv", "YatzyVectorEnv", "optimal_action"]
