"""The exact solver: optimal play for every ruleset, advice, simulation and analysis.

It sees the game only through :mod:`yatzy.core`. Tables are built by backward induction
(:mod:`yatzy.solver.dp`) with compiled kernels (:mod:`yatzy.solver.kernels`,
:mod:`yatzy.solver.turn`) and kept on disk (:mod:`yatzy.solver.artifacts`); see
``docs/solver.md``.
"""

from yatzy.solver.analysis import Analysis, Decision, analyse
from yatzy.solver.distribution import DistributionError, ScoreDistribution
from yatzy.solver.model import UnreachableCard
from yatzy.solver.policy import Option, Strategy, strategy

__all__ = [
    "Analysis",
    "Decision",
    "DistributionError",
    "Option",
    "ScoreDistribution",
    "Strategy",
    "UnreachableCard",
    "analyse",
    "strategy",
]
