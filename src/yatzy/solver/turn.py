"""In-turn values of one turn-start state, for advice and simulation.

For state ``(mask, y, u)``: the value of filling each allowed box with each roll, and
the value of keeping each multiset of dice with ``s`` rerolls left. Rolls that give a
box the same points fill it alike (an *entry*, see :class:`~yatzy.solver.model.Tables`),
so a box's values are kept once per entry: ``values[e]`` for entry ``e``, then
``values[E + f * nb + b]`` for five ``f + 1``s in box ``b``. The compiled code
(:mod:`yatzy.solver.kernels`) computes them in one call.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from yatzy.solver.keeps import FACES, FloatArray, IntArray
from yatzy.solver.kernels import Kernels
from yatzy.solver.model import Tables

#: A routine computing ``(abox, values, keeps)`` of state ``(mask, y, u)``.
TurnRoutine = Callable[[int, int, int], tuple[IntArray, FloatArray, FloatArray]]


def turn_routine(k: Kernels, t: Tables, rerolls: int) -> TurnRoutine:
    """:func:`turn_tables` of one ruleset and number of rerolls as a routine of the
    state, with the arrays' sizes worked out once (advice calls it per new state)."""
    nb = t.score.shape[1]
    size = t.entry_box.shape[0] + FACES * nb
    shape = (rerolls, t.child.shape[0])
    empty, int64, turn = np.empty, np.int64, k.turn

    def tables(mask: int, y: int, u: int) -> tuple[IntArray, FloatArray, FloatArray]:
        abox = empty(nb, int64)
        values = empty(size)
        keeps = empty(shape)
        return abox[: turn(mask, y, u, rerolls, abox, values, keeps)], values, keeps

    return tables


def turn_tables(k: Kernels, t: Tables, mask: int, y: int, u: int, rerolls: int
                ) -> tuple[IntArray, FloatArray, FloatArray]:
    """``(abox, values, keeps)`` of state ``(mask, y, u)``: the allowed boxes, the box
    values by entry (see above; ``NEG`` where the rules forbid the box), and ``keeps[s,
    k]``, the value of keeping ``k`` and rolling the rest with ``s`` rerolls left after
    that roll, for ``s`` = 0 … ``rerolls - 1``."""
    return turn_routine(k, t, rerolls)(mask, y, u)


def box_matrix(t: Tables, abox: IntArray, values: FloatArray) -> FloatArray:
    """``vals[i, r]``: the value of filling box ``abox[i]`` with roll ``r``, from the
    box values by entry."""
    nb = t.score.shape[1]
    ne = t.entry_box.shape[0]
    entries = t.entry_of[abox]  # (boxes, rolls); -1 for five of a kind
    five = t.five_of >= 0
    index = np.where(five[None, :], ne + t.five_of[None, :] * nb + abox[:, None], entries)
    return values[index]
