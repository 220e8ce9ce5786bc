"""The points still to come from every state, as a table: fast win chances for many games.

:meth:`Strategy.distribution <yatzy.solver.policy.Strategy.distribution>` works a
distribution out from one position, in time that grows with the open boxes (seconds at
the start of a game). A :class:`RemainingTable` works out, once, the distribution of the
points still to come from *every* turn-start state a game reaches, from the full card
back; after that a position's distribution is a lookup. It is big: about 740 MB of
float32 for Scandinavian Yatzy (960,000 states, 184 million chances) and 750 MB for
Yahtzee, built in 7 to 14 s on two cores, and kept in memory only. Its chances are
float32, and each row's tails of less than ``tail`` (1e-9 by default) are cut off:
means agree with the expected score to about 1e-5.

>>> import yatzy
>>> s = yatzy.strategy(yatzy.ruleset("yatzy", order="in_order"))
>>> table = RemainingTable(s)
>>> d = table.distribution(yatzy.Scorecard.empty(s.ruleset))
>>> round(d.mean, 4), round(s.expected_score, 4)
(122.5585, 122.5585)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from yatzy.core.scorecard import Scorecard
from yatzy.solver import kernels
from yatzy.solver.distribution import ScoreDistribution

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
        t = model.tables
        self._stride = t.threshold + 1
        self._y_count = model.y_count
        self._row = np.full((1 << model.boxes) * model.y_count * self._stride, -1,
                            dtype=np.int32)
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
        model = self.strategy.model
        t = model.tables
        um = model.upper_mask(mask)
        lane = int(t.lane_of[um, u])
        rep = int(t.lanes[um, lane]) if lane >= 0 else u
        r = int(self._row[(mask * self._y_count + y) * self._stride + rep])
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
