"""The exact solver: optimal play for every ruleset, advice, simulation and analysis.

It sees the game only through :mod:`yatzy.core`. Tables are built by backward induction
(:mod:`yatzy.solver.dp`) with compiled kernels (:mod:`yatzy.solver.kernels`,
:mod:`yatzy.solver.turn`) and kept on disk (:mod:`yatzy.solver.artifacts`); see
``docs/solver.md``.

The compiled part is optional at install (no C compiler, no wheel): :func:`available`
says whether it is here, and every solver feature raises :class:`SolverMissing` without
it. This module is light: the solver itself (numpy and the tables) loads when one of
its names is first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from yatzy.core.errors import YatzyError
from yatzy.solver.codes import SolverCode

if TYPE_CHECKING:
    from yatzy.solver.analysis import Analysis, Decision, analyse
    from yatzy.solver.distribution import DistributionError, ScoreDistribution
    from yatzy.solver.model import UnreachableCard
    from yatzy.solver.policy import Option, Strategy, strategy


class SolverMissing(YatzyError):
    """The solver's compiled part (the C extension ``yatzy.solver._kernels``) is not
    installed, so no solver feature works here: advice, the computer levels built on the
    solver, simulation, analysis and win chances. ``params``: ``reason``, why it did not
    load. Not bad input: the same request works where the solver is installed."""

    code = SolverCode.SOLVER_MISSING

    def __init__(self, reason: str = "") -> None:
        super().__init__(
            "The solver is not installed (its compiled part was not built): install yatzy "
            "from a wheel, or install a C compiler and reinstall yatzy", reason=reason)


def available() -> bool:
    """Whether the solver's compiled part is installed (cheap: numpy is not loaded)."""
    return _load_error() is None


def require() -> None:
    """:class:`SolverMissing` unless the solver's compiled part is installed."""
    reason = _load_error()
    if reason is not None:
        raise SolverMissing(reason)


_LOAD_ERROR: list[str | None] = []


def _load_error() -> str | None:
    """Why the compiled part cannot be imported, or ``None`` when it can."""
    if not _LOAD_ERROR:
        try:
            importlib.import_module("yatzy.solver._kernels")
        except ImportError as exc:
            _LOAD_ERROR.append(str(exc) or type(exc).__name__)
        else:
            _LOAD_ERROR.append(None)
    return _LOAD_ERROR[0]


#: Where each public name of the solver is defined (imported on first use).
_EXPORTS = {
    "Analysis": "yatzy.solver.analysis",
    "Decision": "yatzy.solver.analysis",
    "analyse": "yatzy.solver.analysis",
    "DistributionError": "yatzy.solver.distribution",
    "ScoreDistribution": "yatzy.solver.distribution",
    "UnreachableCard": "yatzy.solver.model",
    "Option": "yatzy.solver.policy",
    "Strategy": "yatzy.solver.policy",
    "strategy": "yatzy.solver.policy",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Analysis",
    "Decision",
    "DistributionError",
    "Option",
    "ScoreDistribution",
    "SolverMissing",
    "Strategy",
    "UnreachableCard",
    "analyse",
    "available",
    "require",
    "strategy",
]
