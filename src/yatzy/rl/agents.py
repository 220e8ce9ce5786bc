"""Reference agents for the environments: the exact solver's optimal play.

>>> import yatzy.rl
>>> env = yatzy.rl.YatzyEnv("yatzy")
>>> _ = env.reset(seed=1)
>>> action = optimal_action(env.game)
>>> env.layout.to_action(action)
Reroll(hold=(0, 4), dice=None)
"""

from __future__ import annotations

from yatzy.core.game import Game
from yatzy.rl.encoding import Layout, layout_of


def optimal_action(game: Game, layout: Layout | None = None) -> int:
    """The action number of the solver's best option for ``game``'s current player
    (:meth:`Strategy.best <yatzy.solver.policy.Strategy.best>`: the highest expected
    final score of that player). ``layout`` defaults to one for ``game``'s ruleset; the
    strategy's table is built or loaded on first use (about a second)."""
    from yatzy.solver import strategy

    best = strategy(game.ruleset).best(game)
    return (layout or layout_of(game.ruleset)).to_index(best.action)


__all__ = ["optimal_action"]
