"""Score distributions: the chance of every final score under optimal play.

:meth:`Strategy.distribution <yatzy.solver.policy.Strategy.distribution>` gives one for
any position; this module holds the value it returns.

>>> d = ScoreDistribution(10, [0.25, 0.0, 0.5, 0.25])
>>> dict(d.probabilities)
{10: 0.25, 12: 0.5, 13: 0.25}
>>> d.mean, d.percentile(50), d.at_least(12)
(11.75, 12, 0.75)
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from yatzy.core.errors import BadInput, YatzyError, shown
from yatzy.solver.codes import SolverCode
from yatzy.solver.keeps import FloatArray

if TYPE_CHECKING:
    from yatzy.solver.policy import Strategy


class ScoreDistribution:
    """The chance of every final score: ``chances[i]`` is the probability of scoring
    ``lowest + i`` points. Immutable; two are equal when they give every score the same
    chance."""

    __slots__ = ("_chances", "_cumulative", "_lowest")

    def __init__(self, lowest: int, chances: Iterable[float] | FloatArray) -> None:
        p = np.array(chances, dtype=np.float64).ravel()
        nonzero = np.flatnonzero(p > 0)
        if not nonzero.size or (p < 0).any() or not np.isfinite(p).all():
            raise ValueError("A score distribution needs finite chances, not all zero")
        first, last = int(nonzero[0]), int(nonzero[-1])
        p = p[first:last + 1]
        p.setflags(write=False)
        self._lowest = int(lowest) + first
        self._chances = p
        self._cumulative = np.cumsum(p)

    @classmethod
    def certain(cls, score: int) -> ScoreDistribution:
        """The distribution of a score that is already final."""
        return cls(score, [1.0])

    @property
    def lowest(self) -> int:
        """The lowest score that can happen."""
        return self._lowest

    @property
    def highest(self) -> int:
        """The highest score that can happen."""
        return self._lowest + len(self._chances) - 1

    @property
    def chances(self) -> FloatArray:
        """``chances[i]``: the probability of ``lowest + i`` points (read-only)."""
        return self._chances

    @property
    def probabilities(self) -> Mapping[int, float]:
        """Final score → probability, for the scores that can happen only."""
        lo = self._lowest
        return MappingProxyType({lo + int(i): float(self._chances[i])
                                 for i in np.flatnonzero(self._chances > 0)})

    @property
    def mean(self) -> float:
        """The expected final score."""
        scores = np.arange(self._lowest, self.highest + 1)
        return float(scores @ self._chances / self._chances.sum())

    @property
    def sd(self) -> float:
        """The standard deviation of the final score."""
        scores = np.arange(self._lowest, self.highest + 1) - self.mean
        return math.sqrt(max(0.0, float(scores**2 @ self._chances / self._chances.sum())))

    def percentile(self, q: float) -> int:
        """The lowest score reached or beaten with probability at least ``1 - q/100``:
        the smallest score ``s`` with ``P(score ≤ s) ≥ q/100`` (``q`` from 0 to 100)."""
        if isinstance(q, bool) or not isinstance(q, int | float) or not 0 <= q <= 100:
            raise DistributionError(f"A percentile is a number from 0 to 100, not {shown(q)}",
                                    code=SolverCode.BAD_PERCENTILE, value=shown(q))
        total = self._cumulative[-1]
        # A hair of slack for rounding: the chances sum to 1 up to about 1e-15.
        i = int(np.searchsorted(self._cumulative, q / 100 * total - 1e-12 * total))
        return self._lowest + min(i, len(self._chances) - 1)

    def at_least(self, points: int) -> float:
        """The probability of a final score of ``points`` or more."""
        if isinstance(points, bool) or not isinstance(points, int):
            raise DistributionError(f"A score is a whole number, not {shown(points)}",
                                    code=SolverCode.BAD_SCORE, value=shown(points))
        i = points - self._lowest
        if i <= 0:
            return float(self._cumulative[-1])
        if i >= len(self._chances):
            return 0.0
        return float(self._cumulative[-1] - self._cumulative[i - 1])

    def shifted(self, points: int) -> ScoreDistribution:
        """The distribution of ``points`` more."""
        return ScoreDistribution(self._lowest + points, self._chances)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreDistribution):
            return NotImplemented
        return self._lowest == other._lowest and np.array_equal(self._chances, other._chances)

    def __hash__(self) -> int:
        return hash((self._lowest, self._chances.tobytes()))

    def __repr__(self) -> str:
        return (f"<ScoreDistribution {self.lowest}..{self.highest} mean={self.mean:.4f} "
                f"sd={self.sd:.4f}>")


def win_curve(others: Sequence[ScoreDistribution], highest: int) -> FloatArray:
    """``curve[m]`` for ``m`` from 0 to ``highest``: the expected share of the win of a
    final score of ``m`` against players whose final scores are independent with the
    distributions ``others`` (a first place shared by ``k`` players counting ``1/k``).

    >>> win_curve([ScoreDistribution(1, [0.5, 0.5])], 3).tolist()   # 1 or 2, evenly
    [0.0, 0.25, 0.75, 1.0]
    """
    n = highest + 1
    # poly[k, m]: the chance that, of the others, exactly k score m and the rest less.
    poly = np.zeros((len(others) + 1, n))
    poly[0] = 1.0
    for d in others:
        exact = np.zeros(n + max(0, d.highest - highest))
        exact[d.lowest:d.highest + 1] = d.chances / d.chances.sum()
        below = (np.cumsum(exact) - exact)[:n]  # P(X < m)
        tied = np.zeros_like(poly)
        tied[1:] = poly[:-1] * exact[:n]
        poly = poly * below + tied
    curve: FloatArray = (1.0 / np.arange(1, len(others) + 2)) @ poly
    return curve


def win_shares(distributions: Sequence[ScoreDistribution]) -> list[float]:
    """Each player's expected share of the win when their final scores are independent
    with these distributions: the chance of the highest score, a first place shared by
    ``k`` players counting ``1/k`` to each (so the shares sum to 1).

    >>> a, b = ScoreDistribution(10, [0.5, 0.5]), ScoreDistribution(11, [1.0])
    >>> win_shares([a, b])     # a wins a quarter of the time: 10 loses, 11 ties
    [0.25, 0.75]
    """
    highest = max((d.highest for d in distributions), default=0)
    shares = []
    for i, d in enumerate(distributions):
        curve = win_curve([o for j, o in enumerate(distributions) if j != i], highest)
        mine = d.chances / d.chances.sum()
        shares.append(float(mine @ curve[d.lowest:d.highest + 1]))
    return shares


class DistributionError(BadInput):
    """A question a score distribution cannot answer (a percentile outside 0-100, a
    score that is no whole number)."""

    code = SolverCode.BAD_SCORE


#: The most turn-start states a score distribution may reach (open boxes × upper sums ×
#: the extra-bonus flag): as many as the start of Scandinavian Yatzy's (2^15 × 64), whose
#: distribution takes seconds. The layers of a distribution hold every state's chance of
#: every score, so past this they grow to gigabytes: in Maxi Yatzy (upper sums to 84) a
#: distribution is worked out with 14 open boxes or fewer.
MAX_DISTRIBUTION_STATES = 1 << 21


class DistributionTooLarge(YatzyError):
    """A score distribution asked for a position with too many open boxes for its
    ruleset (see :data:`MAX_DISTRIBUTION_STATES`). ``params``: ``rules``, ``most`` (the
    most open boxes) and ``open``. Not bad input: the position is fine; it is too early
    in the game to work the distribution out."""

    code = SolverCode.DISTRIBUTION_TOO_LARGE

    def __init__(self, rules: str, most: int, open_boxes: int) -> None:
        super().__init__(
            f"The score distribution of {rules} is worked out with at most {most} open "
            f"boxes, not {open_boxes}", rules=rules, most=most, open=open_boxes)


def most_open_boxes(upper_sums: int, flags: int) -> int:
    """The most open boxes a distribution may have (see
    :data:`MAX_DISTRIBUTION_STATES`), with ``upper_sums`` upper sums and ``flags`` values
    of the extra-bonus flag.

    >>> most_open_boxes(64, 1), most_open_boxes(64, 2), most_open_boxes(85, 1)
    (15, 14, 14)
    """
    return (MAX_DISTRIBUTION_STATES // (upper_sums * flags)).bit_length() - 1


# --- Exact layers: the first turns' distributions, looked up ---------------------------

#: The open boxes a distribution is worked out forward with, at most, when the ruleset
#: has exact layers (see :class:`ExactLayers`) and one value of the extra-bonus flag:
#: with 9 open boxes, under 0.1 s on the project's machine (Scandinavian Yatzy); with
#: 11, up to a second. A flag of two values (Yahtzee) doubles the states of each set of
#: open boxes, so one box fewer is worked out forward there.
FORWARD_OPEN_BOXES = 9


def layers_upto(boxes: int, flags: int = 1) -> int:
    """The last layer (filled boxes) of a ruleset's exact layers with ``boxes`` boxes and
    ``flags`` values of the extra-bonus flag: the positions with more open boxes than
    :data:`FORWARD_OPEN_BOXES` (one fewer per doubling of the flag's values) look their
    next states up there; 0 when none is needed.

    >>> layers_upto(15), layers_upto(13, 2), layers_upto(13), layers_upto(9)
    (6, 5, 4, 0)
    """
    return max(0, boxes - FORWARD_OPEN_BOXES + (flags.bit_length() - 1))


class LayersDamaged(Exception):
    """A row of the exact layers' file that cannot be right (negative, not finite, or not
    summing to 1): the file is not used again."""


class ExactLayers:
    """The exact distribution (float64, nothing cut) of the points still to come from
    every turn-start state with at most ``upto`` filled boxes that a game reaches, read in
    place from a file (``artifacts.layers_path``): a position with fewer filled boxes
    than ``upto`` has its distribution from its turn's outcomes (``Kernels.outcomes``),
    each followed by its next state's row, in about a millisecond, where the forward
    computation takes seconds early in a game. ``arrays``: those of
    :data:`~yatzy.solver.artifacts.LAYERS_ARRAYS`."""

    def __init__(self, strategy: Strategy, arrays: dict[str, npt.NDArray[Any]],
                 upto: int) -> None:
        self.strategy = strategy
        self.upto = upto
        self._lowest = arrays["lowest"]
        self._length = arrays["length"]
        self._offset = arrays["offset"]
        self._chances = arrays["chances"]
        model = strategy.model
        self._per_mask = model.y_count * (model.tables.threshold + 1)
        self._full = (1 << model.boxes) - 1
        self._keys = arrays["keys"]
        n = len(self._keys)
        if not (len(self._lowest) == len(self._length) == len(self._offset) == n):
            raise LayersDamaged("rows of different lengths")
        if n and ((self._keys[1:] <= self._keys[:-1]).any() or (self._length < 1).any()
                  or (self._offset < 0).any()
                  or (self._offset + self._length > len(self._chances)).any()):
            raise LayersDamaged("a row out of range, or the states out of order")

    def covers(self, mask: int) -> bool:
        """Whether a position with filled boxes ``mask`` is looked up here."""
        return bin(mask).count("1") < self.upto

    def distribution(self, mask: int, y: int, u: int, roll: int, rerolls: int
                     ) -> tuple[int, FloatArray]:
        """``(lowest, chances)`` of the points still to come from state ``(mask, y, u)``
        with roll ``roll`` on the table (-1: before the turn's first roll) and ``rerolls``
        rerolls left (:class:`LayersDamaged` when a row read cannot be right)."""
        raw_gains, raw_keys, raw_probs = self.strategy.kernels.outcomes(mask, y, u, roll,
                                                                        rerolls)
        gains = np.frombuffer(raw_gains, dtype=np.int32).tolist()
        found = np.frombuffer(raw_keys, dtype=np.int32)
        probs = np.frombuffer(raw_probs, dtype=np.float64).tolist()
        rows = np.minimum(np.searchsorted(self._keys, found), max(len(self._keys) - 1, 0))
        parts: list[tuple[int, float, FloatArray | None]] = []
        lo, hi = 1 << 30, -1
        for g, k, p, r in zip(gains, found.tolist(), probs, rows.tolist(), strict=True):
            if k // self._per_mask == self._full:
                parts.append((g, p, None))
                lo, hi = min(lo, g), max(hi, g)
                continue
            if not len(self._keys) or int(self._keys[r]) != k:
                raise LayersDamaged(f"no row for state {k}")
            a, n = int(self._offset[r]), int(self._length[r])
            row = self._chances[a:a + n]
            if not (np.isfinite(row).all() and (row >= 0).all()
                    and abs(float(row.sum()) - 1.0) < 1e-9):
                raise LayersDamaged(f"row {r} does not sum to 1")
            at = g + int(self._lowest[r])
            parts.append((at, p, row))
            lo, hi = min(lo, at), max(hi, at + n - 1)
        mixed = np.zeros(hi - lo + 1)
        for at, p, part in parts:
            if part is None:
                mixed[at - lo] += p
            else:
                mixed[at - lo:at - lo + len(part)] += p * part
        return lo, mixed


def build_layers(strategy: Strategy, upto: int, threads: int) -> dict[str, npt.NDArray[Any]]:
    """The arrays of the exact layers of ``strategy`` up to layer ``upto`` (see
    :class:`ExactLayers`): worked out from the full card back, as the table of the points
    still to come (seconds; bench/solve_memory.py says what it costs a process)."""
    raw_keys, lows, lengths, chances = strategy.kernels.remaining(0.0, threads, upto)
    keys = np.frombuffer(raw_keys, dtype=np.int32)
    length = np.frombuffer(lengths, dtype=np.int32)
    offset = np.zeros(len(length), dtype=np.int64)
    offset[1:] = np.cumsum(length[:-1], dtype=np.int64)
    order = np.argsort(keys, kind="stable")  # by state, for lookups
    return {"keys": keys[order], "lowest": np.frombuffer(lows, np.int32)[order],
            "length": length[order], "offset": offset[order],
            "chances": np.frombuffer(chances, dtype=np.float64)}


_LAYERS: dict[object, ExactLayers | None] = {}
_LAYERS_LOCK = threading.Lock()


def exact_layers(strategy: Strategy, *, build: bool = False) -> ExactLayers | None:
    """The exact layers of ``strategy``'s ruleset, once per process: mapped from their
    file beside the value table, else, with ``build`` (``yatzy solve``), built and saved
    there (minutes, once per machine: never on a player's or a request's path, which
    work the distribution out forward meanwhile); ``None`` when the ruleset needs none
    (:func:`layers_upto`) or is too large to build them on demand, when they are not
    built, or the file cannot be used and not written."""
    from yatzy.solver import artifacts, builds_on_demand, kernels

    upto = layers_upto(strategy.model.boxes, strategy.model.y_count)
    if upto == 0 or not builds_on_demand(strategy.ruleset):
        return None
    with _LAYERS_LOCK:
        if strategy.ruleset in _LAYERS:
            found = _LAYERS[strategy.ruleset]
            if found is None or found.strategy is strategy:
                return found
        folder = strategy.path.parent if strategy.path is not None else None
        layers = None
        opened = None
        if folder is not None:
            try:
                opened = artifacts.open_layers(strategy.ruleset, folder)
            except artifacts.RemainingDamaged:
                opened = None
            if opened is not None and opened[1].get("upto") != upto:
                opened = None
        if opened is not None:
            with contextlib.suppress(LayersDamaged):
                layers = ExactLayers(strategy, opened[0], upto)
        if layers is None and not build:
            return None  # not cached: asked again next time, once yatzy solve built them
        if layers is None:
            arrays = build_layers(strategy, upto, kernels.threads())
            if folder is not None:
                with contextlib.suppress(OSError):
                    artifacts.save_layers(strategy.ruleset, arrays, {"upto": upto}, folder)
                    opened = artifacts.open_layers(strategy.ruleset, folder)
                    if opened is not None:
                        arrays = opened[0]
            layers = ExactLayers(strategy, arrays, upto)
        _LAYERS[strategy.ruleset] = layers
        return layers


def forget_layers(strategy: Strategy) -> None:
    """Stop using the exact layers of ``strategy``'s ruleset (a row read was damaged): the
    distributions are worked out forward in this process from now on."""
    with _LAYERS_LOCK:
        _LAYERS[strategy.ruleset] = None
