"""Playing to win: the choice with the largest share of the win, exact within the turn.

The expected-score strategy ignores the other players. A player far behind must gamble
and a player far ahead play safe; :class:`WinPlanner` ranks the options of a turn by the
player's expected share of the win (a first place shared by ``k`` players counting
``1/k``), assuming that the others play for expected score and that the player does so
from the next turn on:

- the others' final scores have the distributions of their positions (their next
  turn's start, from a :class:`~yatzy.solver.remaining.RemainingTable`), independent of
  the player's, which gives the player's *win curve* ``w(m)``: the expected share of a
  final score of ``m``;
- filling a box leads to a next state whose points still to come have a distribution
  (the table again): the share of that outcome is its mean of ``w``;
- within the turn, the best of the options is taken at every roll and rolls are
  averaged over the dice, exactly as the expected-score solver does with points
  (:mod:`yatzy.solver.turn`), with shares instead of points.

Solitaire there is nobody to beat: the planner then ranks as :meth:`Strategy.advise
<yatzy.solver.policy.Strategy.advise>` does.

>>> import yatzy
>>> s = yatzy.strategy(yatzy.ruleset("yatzy", order="in_order"))
>>> planner = WinPlanner(s)
>>> g = yatzy.new_game(s.ruleset, ["Ann", "Bo"], seed=1).roll([1, 1, 1, 1, 1])
>>> best = planner.advise(g)[0]
>>> str(best.action), round(best.value, 3)
('score ones', 0.539)
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from yatzy.core.actions import Action, Reroll, Score
from yatzy.core.errors import ErrorCode, IllegalMove
from yatzy.core.game import Game, check_game
from yatzy.core.scorecard import Scorecard
from yatzy.solver import artifacts, kernels
from yatzy.solver.distribution import ScoreDistribution, win_curve, win_shares
from yatzy.solver.keeps import FACES, FloatArray, IntArray
from yatzy.solver.kernels import NEG
from yatzy.solver.remaining import QUANTUM, RemainingTable, SharedTable, quantise
from yatzy.solver.turn import box_matrix

if TYPE_CHECKING:
    from yatzy.solver.policy import Option, Strategy

log = logging.getLogger(__name__)

_TABLES: dict[object, SharedTable] = {}
_TABLES_LOCK = threading.Lock()
#: Files refused (damaged), by path, with their size and time of change: not read again
#: until they change.
_REFUSED: dict[Path, tuple[int, int]] = {}


def remaining_table(strategy: Strategy, *, rebuild: bool = False) -> SharedTable:
    """The table of the points still to come of ``strategy`` (a :class:`SharedTable`),
    once per process: mapped from its file beside the value table (read in place, shared
    by every process that maps it), else built (7 to 14 s, about 1.6 GB while it is
    built) and saved there atomically, so that it is built once per machine. A file that
    does not match (:class:`~yatzy.solver.artifacts.RemainingDamaged`) is never read: the
    table is built again and replaces it. ``rebuild``: built even when it is there."""
    found = None if rebuild else stored_remaining_table(strategy)
    if found is not None:
        return found
    with _TABLES_LOCK:
        table = _TABLES.get(strategy.ruleset)
        if not rebuild and table is not None and table.strategy is strategy:
            return table
        table = _TABLES[strategy.ruleset] = _build(strategy)
        return table


def stored_remaining_table(strategy: Strategy) -> SharedTable | None:
    """Like :func:`remaining_table`, but ``None`` where that would build the table: what
    a request that must answer quickly (win chances on the web) uses. Cheap when there
    is no file (it is looked up each call)."""
    with _TABLES_LOCK:
        table = _TABLES.get(strategy.ruleset)
        if table is not None and table.strategy is strategy:
            return table
        folder = _folder(strategy)
        if folder is None:
            return None
        path = artifacts.remaining_path(strategy.ruleset, folder)
        try:
            stat = path.stat()
        except OSError:
            return None
        if _REFUSED.get(path) == (stat.st_size, stat.st_mtime_ns):
            return None
        try:
            opened = artifacts.open_remaining(strategy.ruleset, folder)
        except artifacts.RemainingDamaged as exc:
            _REFUSED[path] = (stat.st_size, stat.st_mtime_ns)
            log.warning("%s", exc.message)
            return None
        if opened is None:
            return None
        arrays, _ = opened
        table = _TABLES[strategy.ruleset] = SharedTable(strategy, arrays, path)
        return table


def _folder(strategy: Strategy) -> Path | None:
    """Where the strategy's table lives (``None``: nowhere on the disk)."""
    return strategy.path.parent if strategy.path is not None else None


def _build(strategy: Strategy) -> SharedTable:
    """Build the table, save it beside the value table and map it from there (in memory
    only when there is no such place or it cannot be written)."""
    start = time.perf_counter()
    arrays = quantise(RemainingTable(strategy))
    log.info("The table of the points still to come of %s was built (%.1f s)",
             strategy.ruleset, time.perf_counter() - start)
    folder = _folder(strategy)
    if folder is not None:
        try:
            path = artifacts.save_remaining(
                strategy.ruleset, arrays,
                {"quantum": QUANTUM, "rows": len(arrays["lowest"])}, folder)
            _REFUSED.pop(path, None)
            opened = artifacts.open_remaining(strategy.ruleset, folder)
            if opened is not None:
                return SharedTable(strategy, opened[0], path)
        except (OSError, artifacts.RemainingDamaged) as exc:
            warnings.warn(f"The table of the points still to come was not saved: {exc}",
                          RuntimeWarning, stacklevel=3)
    return SharedTable(strategy, arrays)


def win_chances(table: SharedTable, game: Game) -> list[float]:
    """Each player's share of the win of ``game`` from the score distributions of
    ``table`` (the current player's mid-turn from the dice on the table), as
    :meth:`Strategy.win_chances <yatzy.solver.policy.Strategy.win_chances>` gives them
    up to the table's rounding (see :class:`SharedTable`)."""
    s = table.strategy
    dists = []
    for seat, card in enumerate(game.cards):
        if card.is_complete:
            dists.append(ScoreDistribution.certain(card.total))
        elif seat == game.current_seat and game.dice is not None:
            roll = s.model.keeps.roll_index(tuple(sorted(game.dice)))
            dists.append(table.turn_distribution(card, roll, game.rolls_left))
        else:
            dists.append(table.distribution(card))
    return win_shares(dists)


class WinPlanner:
    """Options ranked by the current player's expected share of the win (see the
    module). ``table`` defaults to the process's table of ``strategy``. With a
    :class:`SharedTable` a turn is worked out by the compiled loops (``compiled``; the
    same sums as :func:`play_winner`'s), else by numpy here."""

    def __init__(self, strategy: Strategy,
                 table: RemainingTable | SharedTable | None = None, *,
                 compiled: bool = True) -> None:
        self.strategy = strategy
        self._table = table
        #: Whether a turn with a :class:`SharedTable` is worked out by the compiled loop
        #: (``Kernels.win_turn``, the one :func:`play_winner` plays with), else here.
        self.compiled = compiled
        model = strategy.model
        t = model.tables
        self._nb = model.boxes
        kt = model.keeps
        self._fr = kt.first_roll
        self._child = kt.child
        sizes = kt.counts.sum(axis=1)
        #: Keeps with fewer dice than a roll, by number of dice, most first.
        self._by_size = [np.flatnonzero(sizes == n) for n in range(t.dice - 1, -1, -1)]
        self._sub = [kt.sub_keeps[r, : kt.sub_count[r]] for r in range(kt.roll_count)]
        self._counts = kt.counts
        self._ne = t.entry_box.shape[0]
        self._memo: tuple[object, tuple[FloatArray, list[FloatArray], list[int]]] | None = None

    @property
    def table(self) -> RemainingTable | SharedTable:
        if self._table is None:
            self._table = remaining_table(self.strategy)
        return self._table

    def advise(self, game: Game) -> list[Option]:
        """Every legal option of the current player of ``game``, largest share of the
        win first, as :class:`~yatzy.solver.policy.Option` with ``value`` the share
        (from 0 to 1). Solitaire, or before the turn's first roll, the options of
        :meth:`Strategy.advise <yatzy.solver.policy.Strategy.advise>`."""
        s = self.strategy
        check_game(game)
        if game.is_over:
            return []
        if len(game.players) == 1 or game.dice is None:
            return s.advise(game)
        box_values, keeps, boxes = self._turn(game)
        dice = game.dice
        roll = s.model.keeps.roll_index(tuple(sorted(dice)))
        left = game.rolls_left
        from yatzy.solver.policy import Option

        options: list[tuple[float, int, Action]] = []
        for i, b in enumerate(boxes):
            v = float(box_values[i, roll])
            if v > NEG / 2:
                options.append((v, len(options), Score(s.ruleset.boxes[b])))
        if left > 0:
            kv = keeps[left - 1]
            for k in self._sub[roll].tolist():
                options.append((float(kv[k]), len(options), Reroll(self._hold(dice, k))))
        options.sort(key=lambda o: (-o[0], o[1]))
        return [Option(action, value) for value, _, action in options]

    def best(self, game: Game) -> Option:
        """The option with the largest share of the win (the game must not be over)."""
        options = self.advise(game)
        if not options:
            raise IllegalMove("The game is over", code=ErrorCode.GAME_OVER)
        return options[0]

    def _hold(self, dice: tuple[int, ...], keep: int) -> tuple[int, ...]:
        """The positions of ``dice`` that keep multiset ``keep``: the first die of each
        face (as advice holds them)."""
        need = self._counts[keep].tolist()
        hold = []
        for pos, face in enumerate(dice):
            if need[face - 1] > 0:
                need[face - 1] -= 1
                hold.append(pos)
        return tuple(hold)

    def _turn(self, game: Game) -> tuple[FloatArray, list[FloatArray], list[int]]:
        """The current player's turn in shares: ``box_values[i, r]`` for filling
        ``boxes[i]`` with roll ``r`` (``NEG`` when forbidden), and ``keeps[s][k]`` for
        keeping ``k`` with ``s`` rerolls left after the reroll. Kept for the turn."""
        s = self.strategy
        me = game.current_seat
        key = (me, tuple((c.entries, c.yahtzee_bonus_count) for c in game.cards))
        if self._memo is not None and self._memo[0] == key:
            return self._memo[1]
        card = game.card
        mask, y, u = s.state_of(card)
        total = card.total
        table = self.table
        if self.compiled and isinstance(table, SharedTable):
            # Compiled: the same sums as the games of play_winner.
            others_states = np.array([card_state(s, c) for i, c in enumerate(game.cards)
                                      if i != me], dtype=np.int64).reshape(-1, 4)
            result = _compiled_turn(s, table, others_states, mask, y, u, total)
            self._memo = (key, result)
            return result
        others = [table.distribution(c) for i, c in enumerate(game.cards) if i != me]
        highest = total + 2000
        curve = win_curve(others, highest)
        k = s.kernels
        t = s.model.tables
        nb, nr = self._nb, t.score.shape[0]
        abox = s.turn_tables(card).abox.tolist()
        # The share of each way to fill each allowed box (by entry, then five of a kind).
        by_entry = np.full(self._ne + FACES * nb, NEG)
        full = (1 << nb) - 1
        shares: dict[tuple[int, int, int, int], float] = {}

        def share(roll: int, b: int) -> float:
            points, extra, bonus, m2, y2, u2 = k.fill(mask, y, u, roll, b)
            if points < 0:
                return NEG
            gain = total + points + extra + bonus
            if m2 == full:
                return float(curve[gain])
            found = shares.get((m2, y2, u2, gain))
            if found is None:
                lowest, chances = self.table.chances(self.table.row(m2, y2, u2))
                a = gain + lowest
                found = float(chances.astype(np.float64) @ curve[a:a + len(chances)])
                shares[(m2, y2, u2, gain)] = found
            return found

        entry_box, entry_roll = t.entry_box, t.entry_roll
        for b in abox:
            for e in np.flatnonzero(entry_box == b).tolist():
                by_entry[e] = share(int(entry_roll[e]), b)
            for f in range(FACES):
                by_entry[self._ne + f * nb + b] = share(int(t.five_rolls[f]), b)
        box_values = box_matrix(t, np.array(abox, dtype=np.int64), by_entry)
        best = box_values.max(axis=0) if len(abox) else np.full(nr, NEG)
        keeps: list[FloatArray] = []
        rolls_value = best
        for s_left in range(t.rolls - 1):
            if s_left:
                # A roll with a reroll left: the best of its boxes and its proper keeps.
                A = keeps[-1]
                rolls_value = np.array([max(best[r], float(A[self._sub[r]].max()))
                                        if len(self._sub[r]) else best[r] for r in range(nr)])
            A = np.empty(len(self._child))
            A[self._fr:] = rolls_value
            for group in self._by_size:
                A[group] = A[self._child[group]].mean(axis=1)
            keeps.append(A)
        result = (box_values, keeps, abox)
        self._memo = (key, result)
        return result


def card_state(strategy: Strategy, card: Scorecard) -> tuple[int, int, int, int]:
    """``(mask, y, u, total)`` of ``card`` as the compiled loops take a player's state (a
    finished card: the full mask, with ``y`` and ``u`` 0)."""
    if card.is_complete:
        return ((1 << strategy.model.boxes) - 1, 0, 0, card.total)
    mask, y, u = strategy.state_of(card)
    return (mask, y, u, card.total)


def table_arrays(table: SharedTable) -> tuple[npt.NDArray[Any], ...]:
    """The arrays of ``table`` in the order the compiled loops take them."""
    a = table.arrays
    return (a["row_of"], a["lowest"], a["length"], a["offset"], a["wide"], a["pool8"],
            a["pool16"])


def _compiled_turn(s: Strategy, table: SharedTable, others: IntArray, mask: int, y: int,
                   u: int, total: int) -> tuple[FloatArray, list[FloatArray], list[int]]:
    """:meth:`WinPlanner._turn` by the compiled loop (``Kernels.win_turn``)."""
    t = s.model.tables
    nb = s.model.boxes
    values = np.empty(t.entry_box.shape[0] + FACES * nb)
    keeps = np.empty((t.rolls - 1, len(s.model.keeps.child)))
    s.kernels.win_turn(table_arrays(table), others, mask, y, u, total, values, keeps)
    abox = _allowed(s, mask)
    box_values = box_matrix(t, np.array(abox, dtype=np.int64), values)
    return box_values, list(keeps), abox


def _allowed(s: Strategy, mask: int) -> list[int]:
    """The boxes the play order allows to fill next in ``mask``."""
    allowed = int(s.model.tables.allowed[mask])
    return [b for b in range(s.model.boxes) if allowed >> b & 1]


def play_winner(strategy: Strategy, table: SharedTable, faces: npt.NDArray[np.int8],
                others: IntArray, ahead: Sequence[int]) -> IntArray:
    """Play solitaire cards of the ``winner`` level against other players whose play does
    not depend on it (the ``optimal`` level's: see :func:`yatzy.solver.simulate.histories`),
    exactly as :class:`WinPlanner` plays them, and return each game's final total.

    ``faces[game, turn, roll, i]``: the player's dice (as :func:`yatzy.solver.simulate.play`
    takes them); ``others[game, j, turn]``: other player ``j``'s ``(mask, y, u, total)`` at
    the start of its turn ``turn`` (0 to the number of boxes, the last at the end); at the
    player's turn ``t``, other ``j`` has played ``t + ahead[j]`` turns (``ahead[j]`` is 1
    for a player who sits before, 0 after)."""
    from yatzy.solver.simulate import check_faces

    n = faces.shape[0]
    state = np.zeros((n, kernels.COLUMNS), dtype=np.int64)
    strategy.kernels.win_play(table_arrays(table), check_faces(strategy, faces),
                              np.ascontiguousarray(others, dtype=np.int64),
                              np.array(ahead, dtype=np.uint8), state)
    return state[:, 3].copy()


__all__ = ["WinPlanner", "card_state", "play_winner", "remaining_table",
           "stored_remaining_table", "table_arrays", "win_chances"]
