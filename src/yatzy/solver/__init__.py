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

from yatzy.core.errors import BadInput, YatzyError
from yatzy.core.rulesets import Ruleset, check_ruleset
from yatzy.solver.codes import SolverCode

if TYPE_CHECKING:
    from yatzy.solver.analysis import Analysis, Decision, analyse
    from yatzy.solver.distribution import (
        DistributionError,
        DistributionTooLarge,
        ScoreDistribution,
    )
    from yatzy.solver.model import UnreachableCard
    from yatzy.solver.policy import Option, Strategy, strategy
    from yatzy.solver.saved_strategy import SavedStrategy


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


#: The most turn-start states (sets of filled boxes × upper sums × the extra-bonus
#: flag) a ruleset may have for the solver to play it. Maxi Yatzy without saved rolls
#: (2^20 × 85, about 89 million) is within it: its table is built in minutes, by
#: ``yatzy solve`` only (see :data:`ON_DEMAND_STATES`).
MAX_STATES = 1 << 27

#: The most turn-start states of a table built on demand, by the first caller that
#: needs it (a hint on the web, a computer player): such a table is built in seconds.
#: The rule sheets' rulesets have about 2 million (Scandinavian Yatzy: 2^15 × 64). A
#: larger table is built only when asked for explicitly (``yatzy solve``,
#: ``strategy(..., build=True)``) and is otherwise read from the disk, where it was
#: built before; without it the solver raises :class:`TableNotBuilt`.
ON_DEMAND_STATES = 1 << 23


class UnsupportedRuleset(BadInput):
    """A ruleset the solver does not play (see :func:`supports`): its hints, win
    chances, analyses and the computer levels built on the solver are not offered for
    it. ``params``: ``rules``, the ruleset's name."""

    code = SolverCode.UNSUPPORTED_RULESET

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(
            f"The solver does not play {ruleset.title or ruleset.name}: hints, win chances"
            " and the computer levels that need it are not offered for it",
            rules=ruleset.title or ruleset.name)


def state_count(ruleset: Ruleset) -> int:
    """How many turn-start states the solver's table of ``ruleset`` has at most: each
    set of filled boxes, with each upper sum that matters (up to the bonus threshold)
    and, with an extra bonus, whether the n-of-a-kind box holds its points.

    >>> from yatzy.core.rulesets import ruleset
    >>> state_count(ruleset("yatzy")), state_count(ruleset("maxi_yatzy"))
    (2097152, 89128960)
    """
    rules = check_ruleset(ruleset)
    flags = 2 if rules.extra_yahtzee_points else 1
    return (1 << len(rules.boxes)) * (rules.upper_bonus_threshold + 1) * flags


def supports(ruleset: Ruleset) -> bool:
    """Whether the solver plays ``ruleset``: advice, analyses and the computer levels
    built on it, up to :data:`MAX_STATES` states. With saved rolls (Maxi Yatzy) too:
    their table is solved by :mod:`yatzy.solver.saved` (``yatzy solve``) and read by
    :class:`~yatzy.solver.saved_strategy.SavedStrategy`, though score distributions
    and win chances are not worked out with them (:func:`offers_chances`). The one
    check of every solver feature (:func:`check_supported`), and of the front ends that
    offer them. Cheap: the solver itself is not loaded. (A large table may still have
    to be built first: see :func:`builds_on_demand`.)

    >>> from yatzy.core.rulesets import ruleset
    >>> supports(ruleset("yahtzee")), supports(ruleset("maxi_yatzy", saved_rolls=False))
    (True, True)
    >>> supports(ruleset("maxi_yatzy"))
    True
    """
    return state_count(check_ruleset(ruleset)) <= MAX_STATES


def offers_chances(ruleset: Ruleset) -> bool:
    """Whether the solver works out score distributions and win chances of ``ruleset``
    (and the ``winner`` level that plays on them): one it plays (:func:`supports`),
    without saved rolls (a player's points still to come would also depend on their
    saved rolls, a distribution per saved count that is not worked out). Cheap.

    >>> from yatzy.core.rulesets import ruleset
    >>> offers_chances(ruleset("yatzy")), offers_chances(ruleset("maxi_yatzy"))
    (True, False)
    """
    return supports(ruleset) and not ruleset.saved_rolls


class ChancesUnsupported(BadInput):
    """The solver does not work out score distributions and win chances of a ruleset it
    plays (:func:`offers_chances`: one with saved rolls); its hints and computer levels
    are offered. ``params``: ``rules``, the ruleset's name."""

    code = SolverCode.CHANCES_UNSUPPORTED

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(
            f"Win chances and score distributions are not worked out for "
            f"{ruleset.title or ruleset.name}", rules=ruleset.title or ruleset.name)


def check_chances(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` if :func:`offers_chances`, else :class:`UnsupportedRuleset` (the
    solver does not play it) or :class:`ChancesUnsupported`."""
    check_supported(ruleset)
    if not offers_chances(ruleset):
        raise ChancesUnsupported(ruleset)
    return ruleset


def builds_on_demand(ruleset: Ruleset) -> bool:
    """Whether the solver builds the table of ``ruleset`` when a caller first needs it
    (at most :data:`ON_DEMAND_STATES` states, without saved rolls); a larger one, or one
    with saved rolls, must have been built before, by ``yatzy solve``. Cheap.

    >>> from yatzy.core.rulesets import ruleset
    >>> builds_on_demand(ruleset("yatzy")), builds_on_demand(ruleset("maxi_yatzy"))
    (True, False)
    """
    return not ruleset.saved_rolls and state_count(ruleset) <= ON_DEMAND_STATES


def check_supported(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` if :func:`supports` it, else :class:`UnsupportedRuleset`."""
    if not supports(ruleset):
        raise UnsupportedRuleset(ruleset)
    return ruleset


#: The rulesets whose strategy this process holds (:func:`yatzy.solver.strategy` adds
#: each one it loads or builds).
_HELD: set[Ruleset] = set()


def table_ready(ruleset: Ruleset) -> bool:
    """Whether the solver answers for ``ruleset`` without a build of minutes: it plays
    it (:func:`supports`), and its table is built on demand (:func:`builds_on_demand`),
    held by this process, or on the disk. Cheap: at most a file is looked up.

    >>> from yatzy.core.rulesets import ruleset
    >>> table_ready(ruleset("yatzy")), table_ready(ruleset("maxi_yatzy"))
    (True, False)
    """
    if not supports(ruleset):
        return False
    if builds_on_demand(ruleset) or ruleset in _HELD:
        return True
    from yatzy.solver import artifacts  # a large table's file name; numpy comes with it

    if ruleset.saved_rolls:  # the exact table (no cap) of yatzy solve
        return artifacts.saved_table_path(ruleset, None, "lower").is_file()
    return artifacts.table_path(ruleset).is_file()


def check_ready(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` if :func:`table_ready`, else :class:`UnsupportedRuleset` or
    :class:`TableNotBuilt`: the check of a computer player that is about to play it."""
    check_supported(ruleset)
    if not table_ready(ruleset):
        raise TableNotBuilt(ruleset)
    return ruleset


class WinnerUnsupported(BadInput):
    """The ``winner`` level does not play a ruleset whose table is too large to be
    built on demand (:func:`builds_on_demand`): its table of the points still to come,
    a chance per score and state, would not fit in memory (Maxi Yatzy's: tens of
    gigabytes). ``params``: ``rules``, the ruleset's name."""

    code = SolverCode.WINNER_UNSUPPORTED

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(
            f"The winner level does not play {ruleset.title or ruleset.name}: its table "
            "of the points still to come would not fit in memory",
            rules=ruleset.title or ruleset.name)


def check_winner(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` if the ``winner`` level plays it: one the solver plays, whose win
    chances it works out (:func:`check_chances`) and whose table is built on demand
    (else :class:`WinnerUnsupported`, before any word of building a table that would not
    help), and :func:`check_ready`."""
    check_chances(ruleset)
    if not builds_on_demand(ruleset):
        raise WinnerUnsupported(ruleset)
    return check_ready(ruleset)


class TableNotBuilt(YatzyError):
    """The solver plays the ruleset, but its table is too large to be built on demand
    (:func:`builds_on_demand`) and has not been built on this machine: ``yatzy solve``
    with the ruleset's options builds it once (minutes), and every later caller reads it
    from the disk. ``params``: ``rules``, the ruleset's name. Not bad input: the same
    request works once the table is built."""

    code = SolverCode.TABLE_NOT_BUILT

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(
            f"The solver's table of {ruleset.title or ruleset.name} has not been built on "
            "this machine: build it once with the command yatzy solve",
            rules=ruleset.title or ruleset.name)


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
    "DistributionTooLarge": "yatzy.solver.distribution",
    "ScoreDistribution": "yatzy.solver.distribution",
    "UnreachableCard": "yatzy.solver.model",
    "Option": "yatzy.solver.policy",
    "SavedStrategy": "yatzy.solver.saved_strategy",
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
    "ChancesUnsupported",
    "Decision",
    "DistributionError",
    "DistributionTooLarge",
    "Option",
    "SavedStrategy",
    "ScoreDistribution",
    "SolverMissing",
    "Strategy",
    "TableNotBuilt",
    "UnreachableCard",
    "UnsupportedRuleset",
    "WinnerUnsupported",
    "analyse",
    "available",
    "builds_on_demand",
    "check_chances",
    "check_ready",
    "check_supported",
    "check_winner",
    "offers_chances",
    "require",
    "state_count",
    "strategy",
    "supports",
    "table_ready",
]
