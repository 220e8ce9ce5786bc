"""The points still to come from every state, as a table: fast win chances for many games.

:meth:`Strategy.distribution <yatzy.solver.policy.Strategy.distribution>` works a
distribution out from one position, in time that grows with the open boxes (seconds at
the start of a game). A :class:`RemainingTable` works out, once, the distribution of the
points still to come from *every* turn-start state a game reaches, from the full card
back; after that a position's distribution is a lookup. It is big: about 740 MB of
float32 for Scandinavian Yatzy (960,000 states, 184 million chances) and 750 MB for
Yahtzee, built in 7 to 14 s on two cores. Its chances are float32, and each row's
tails of less than ``tail`` (1e-9 by default) are cut off: means agree with the expected
score to about 1e-5. A :class:`SharedTable` holds the same rows in under 256 MB
(cumulative chances rounded to ``1/QUANTUM``), read in place from a file that every
process maps (see :func:`yatzy.solver.winning.remaining_table` and docs/solver.md).

>>> import yatzy
>>> s = yatzy.strategy(yatzy.ruleset("yatzy", order="in_order"))
>>> table = RemainingTable(s)
>>> d = table.distribution(yatzy.Scorecard.empty(s.ruleset))
>>> round(d.mean, 4), round(s.expected_score, 4)
(122.5585, 122.5585)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from yatzy.core.scorecard import Scorecard
from yatzy.solver import kernels
from yatzy.solver.distribution import ScoreDistribution
from yatzy.solver.keeps import FloatArray

if TYPE_CHECKING:
    from yatzy.solver.policy import Strategy


class RemainingTable:
    """For every turn-start state a game of ``strategy``'s ruleset reaches, the chance of
    every number of points still to come under optimal play (see the module)."""

    def __init__(self, strategy: Strategy, tail: float = 1e-9) -> None:
        keys, lows, lengths, chances = strategy.kernels.remaining(tail, kernels.threads())
        model = strategy.model
        self.strategy = strategy
        #: The chance each row's tails may lose, at most, on each side.
        self.tail = tail
        self._keys = np.frombuffer(keys, dtype=np.int32)
        self._lows = np.frombuffer(lows, dtype=np.int32)
        self._lengths = np.frombuffer(lengths, dtype=np.int32)
        self._chances = np.frombuffer(chances, dtype=np.float32)
        self._starts = np.concatenate([[0], np.cumsum(self._lengths, dtype=np.int64)])
        self._row = np.full((1 << model.boxes) * model.y_count * (model.tables.threshold + 1),
                            -1, dtype=np.int32)
        self._row[self._keys] = np.arange(len(self._keys), dtype=np.int32)

    @property
    def rows(self) -> int:
        """How many states the table holds."""
        return len(self._keys)

    @property
    def nbytes(self) -> int:
        """The memory the chances take."""
        return int(self._chances.nbytes)

    def row(self, mask: int, y: int, u: int) -> int:
        """The row of state ``(mask, y, u)`` (upper sums that share a value share a row);
        ``KeyError`` for a state no game reaches."""
        r = int(self._row[self.strategy.model.state_key(mask, y, u)])
        if r < 0:
            raise KeyError((mask, y, u))
        return r

    def chances(self, row: int) -> tuple[int, npt.NDArray[np.float32]]:
        """``(lowest, chances)`` of a row: the chance of ``lowest + i`` more points."""
        a, b = self._starts[row], self._starts[row + 1]
        return int(self._lows[row]), self._chances[a:b]

    def distribution(self, card: Scorecard) -> ScoreDistribution:
        """The distribution of ``card``'s final score under optimal play from the start
        of its next turn (as :meth:`Strategy.distribution` gives it, up to float32 and the
        cut tails)."""
        if card.is_complete:
            return self.strategy.distribution_card(card)
        mask, y, u = self.strategy.state_of(card)
        lowest, chances = self.chances(self.row(mask, y, u))
        return ScoreDistribution(card.total + lowest, chances.astype(np.float64))


#: The grid of a :class:`SharedTable`'s cumulative chances: multiples of ``1/QUANTUM``.
QUANTUM = 1 << 13


def quantise(table: RemainingTable) -> dict[str, npt.NDArray[Any]]:
    """The arrays of a :class:`SharedTable` (see there) from ``table``: each row's
    cumulative chances, ``F(i)`` (summed in order, in doubles), divided by the row's total
    and rounded to the nearest multiple of ``1/QUANTUM``, ``Q(i) = round(QUANTUM F(i))``
    (half to even); a row keeps the steps ``Q(i) - Q(i - 1)`` (whole numbers from 0 to
    ``QUANTUM``, summing to ``QUANTUM``) from its first step that is not 0 to its last, as
    bytes when every step is below 256, else as 16-bit numbers.

    Worked out by the compiled code row by row (``kernels.quantise``), with no memory
    besides the table and the result."""
    n = table.rows
    first = np.empty(n, dtype=np.int32)
    length = np.empty(n, dtype=np.int32)
    wide = np.empty(n, dtype=np.uint8)
    # Room for every chance, of which only the pages written take memory.
    pool8 = np.empty(len(table._chances), dtype=np.uint8)
    pool16 = np.empty(len(table._chances), dtype=np.uint16)
    used8, used16 = kernels.quantise(table._chances, table._starts, QUANTUM, first, length,
                                     wide, pool8, pool16)
    lowest = table._lows + first
    offset = np.zeros(n, dtype=np.int64)
    for flag in (0, 1):
        which = np.flatnonzero(wide == flag)
        sizes = length[which].astype(np.int64)
        offset[which] = np.cumsum(sizes) - sizes
    model = table.strategy.model
    row_of = np.full((1 << model.boxes) * model.y_count * (model.tables.threshold + 1), -1,
                     dtype=np.int32)
    row_of[table._keys] = np.arange(n, dtype=np.int32)
    return {
        "row_of": row_of, "lowest": lowest, "length": length, "offset": offset, "wide": wide,
        "pool8": pool8[:used8], "pool16": pool16[:used16],
    }


class SharedTable:
    """A :class:`RemainingTable` in about a third of the room, read in place from a file
    that every process maps (see :func:`yatzy.solver.winning.remaining_table`): each
    row's cumulative chances rounded to multiples of ``1/QUANTUM`` (see
    :func:`quantise`), so that a final score's cumulative chance is off by at most
    ``1/(2 QUANTUM)`` (about 6.1e-5) plus the build's float32 rounding and cut tails
    (under 2e-6), and a win chance by at most that times the number of players (see
    docs/solver.md). ``arrays``: those of :func:`quantise`, in memory or mapped."""

    def __init__(self, strategy: Strategy, arrays: dict[str, npt.NDArray[Any]],
                 path: Path | None = None) -> None:
        self.strategy = strategy
        #: The file the arrays are mapped from (``None``: in memory).
        self.path = path
        self.arrays = arrays
        self._row_of = arrays["row_of"]
        self._lowest = arrays["lowest"]
        self._length = arrays["length"]
        self._offset = arrays["offset"]
        self._wide = arrays["wide"]
        self._pools = (arrays["pool8"], arrays["pool16"])
        model = strategy.model
        self._stride = model.tables.threshold + 1
        self._y_count = model.y_count
        self._full = (1 << model.boxes) - 1
        if len(self._row_of) != (1 << model.boxes) * self._y_count * self._stride:
            raise ValueError("The table is not of this strategy's ruleset")

    @property
    def rows(self) -> int:
        """How many states the table holds."""
        return len(self._lowest)

    @property
    def nbytes(self) -> int:
        """The bytes the arrays take (on the disk, or in memory)."""
        return sum(int(a.nbytes) for a in self.arrays.values())

    def row(self, mask: int, y: int, u: int) -> int:
        """The row of state ``(mask, y, u)``; ``KeyError`` for a state no game reaches."""
        r = int(self._row_of[self.strategy.model.state_key(mask, y, u)])
        if r < 0:
            raise KeyError((mask, y, u))
        return r

    def chances(self, row: int) -> tuple[int, FloatArray]:
        """``(lowest, chances)`` of a row: the chance of ``lowest + i`` more points (they
        sum to 1)."""
        a = int(self._offset[row])
        pool = self._pools[int(self._wide[row])]
        steps = pool[a:a + int(self._length[row])]
        return int(self._lowest[row]), steps * (1.0 / QUANTUM)

    def distribution(self, card: Scorecard) -> ScoreDistribution:
        """The distribution of ``card``'s final score under optimal play from the start
        of its next turn (see the class for how close to :meth:`Strategy.distribution
        <yatzy.solver.policy.Strategy.distribution>` it is)."""
        if card.is_complete:
            return ScoreDistribution.certain(card.total)
        (mask, y, u) = self.strategy.state_of(card)
        lowest, chances = self.chances(self.row(mask, y, u))
        return ScoreDistribution(card.total + lowest, chances)

    def turn_distribution(self, card: Scorecard, roll: int, rerolls: int) -> ScoreDistribution:
        """The distribution of ``card``'s final score mid-turn, with roll number ``roll``
        (of ``strategy.model.keeps``) on the table and ``rerolls`` rerolls left: the
        turn's outcomes under optimal play, exactly, each followed by its next state's
        row."""
        (mask, y, u) = self.strategy.state_of(card)
        raw_gains, raw_keys, raw_probs = self.strategy.kernels.outcomes(mask, y, u, roll,
                                                                        rerolls)
        gains = np.frombuffer(raw_gains, dtype=np.int32)
        keys = np.frombuffer(raw_keys, dtype=np.int32)
        probs = np.frombuffer(raw_probs, dtype=np.float64)
        per_key = self._y_count * self._stride
        rows = [-1 if k // per_key == self._full else int(self._row_of[k])
                for k in keys.tolist()]
        parts: list[tuple[int, float, FloatArray | None]] = []
        lo, hi = 1 << 30, -1
        for g, p, r in zip(gains.tolist(), probs.tolist(), rows, strict=True):
            if r < 0:
                parts.append((g, p, None))
                lo, hi = min(lo, g), max(hi, g)
                continue
            lowest, chances = self.chances(r)
            parts.append((g + lowest, p, chances))
            lo, hi = min(lo, g + lowest), max(hi, g + lowest + len(chances) - 1)
        mixed = np.zeros(hi - lo + 1)
        for at, p, part in parts:
            if part is None:
                mixed[at - lo] += p
            else:
                mixed[at - lo:at - lo + len(part)] += p * part
        return ScoreDistribution(card.total + lo, mixed)
