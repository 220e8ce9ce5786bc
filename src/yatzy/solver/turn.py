"""Compiled in-turn values of one turn-start state, for advice and simulation.

``turn_tables`` gives, for state ``(mask, y, u)``: the value of filling each allowed box
with each roll, and the value of keeping each multiset of dice with ``s`` rerolls left.
Box values are stored box-major (``vals[i, r]`` for box ``abox[i]`` and roll ``r``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from yatzy.solver.kernels import NEG, fill
from yatzy.solver.model import Tables


@njit(cache=True, fastmath=True)
def box_values(
    t: Tables, V: np.ndarray, mask: int, y: int, u: int
) -> tuple[np.ndarray, np.ndarray]:
    """The allowed boxes ``abox`` and ``vals[i, r]``: the value of filling box
    ``abox[i]`` with roll ``r`` (its gain and the value of the next state, by
    :func:`~yatzy.solver.kernels.fill`; ``NEG`` where the Joker rules forbid it)."""
    nr = t.score.shape[0]
    nb = t.score.shape[1]
    allowed = t.allowed[mask]
    five_rolls = t.five_rolls
    entry_box = t.entry_box
    entry_roll = t.entry_roll
    entry_of = t.entry_of
    k = 0
    for b in range(nb):
        if (allowed >> b) & 1:
            k += 1
    abox = np.empty(k, dtype=np.int64)
    i = 0
    for b in range(nb):
        if (allowed >> b) & 1:
            abox[i] = b
            i += 1
    # The value of every entry of an allowed box; rolls that make it share it.
    value = np.empty(entry_box.shape[0])
    for e in range(entry_box.shape[0]):
        b = entry_box[e]
        if (allowed >> b) & 1:
            points, extra, bonus, m2, y2, u2 = fill(t, mask, y, u, entry_roll[e], b)
            value[e] = (points + extra + bonus) + V[m2, y2, u2]
    vals = np.empty((k, nr))
    for i in range(k):
        b = abox[i]
        row = entry_of[b]
        for r in range(nr):
            if row[r] >= 0:
                vals[i, r] = value[row[r]]
        for f in range(6):
            r = five_rolls[f]
            points, extra, bonus, m2, y2, u2 = fill(t, mask, y, u, r, b)
            vals[i, r] = NEG if points < 0 else (points + extra + bonus) + V[m2, y2, u2]
    return abox, vals


@njit(cache=True, fastmath=True)
def _expect1(level: np.ndarray, child: np.ndarray, first_roll: int, E: np.ndarray) -> None:
    """``E[k]``: the expected ``level`` of the roll after keeping ``k`` (one lane)."""
    nk = E.shape[0]
    for k in range(first_roll, nk):
        E[k] = level[k - first_roll]
    for k in range(first_roll - 1, -1, -1):
        E[k] = (
            E[child[k, 0]] + E[child[k, 1]] + E[child[k, 2]]
            + E[child[k, 3]] + E[child[k, 4]] + E[child[k, 5]]
        ) * (1.0 / 6.0)


@njit(cache=True, fastmath=True)
def _best_keep1(
    E: np.ndarray, stop: np.ndarray, parents: np.ndarray, first_roll: int, out: np.ndarray
) -> None:
    """``out[r]``: the best of stopping with roll ``r`` and keeping a proper part of it
    (one lane; ``parents`` padded with ``len(E)``)."""
    nk = E.shape[0]
    M = np.empty(nk + 1)
    M[nk] = NEG
    M[0] = E[0]
    for k in range(1, nk):
        best = max(
            max(max(M[parents[k, 0]], M[parents[k, 1]]), max(M[parents[k, 2]], M[parents[k, 3]])),
            max(M[parents[k, 4]], M[parents[k, 5]]),
        )
        if k < first_roll:
            M[k] = max(best, E[k])
        else:
            out[k - first_roll] = max(best, stop[k - first_roll])


@njit(cache=True, fastmath=True)
def turn_tables(
    t: Tables, V: np.ndarray, mask: int, y: int, u: int, rerolls: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(abox, vals, keeps)``: :func:`box_values`, and ``keeps[s, k]``, the value of
    keeping ``k`` and rolling the rest with ``s`` rerolls left after that roll, for
    ``s`` = 0 … ``rerolls - 1``."""
    abox, vals = box_values(t, V, mask, y, u)
    nr = vals.shape[1]
    nk = t.child.shape[0]
    stop = np.empty(nr)
    for r in range(nr):
        stop[r] = NEG
    for i in range(vals.shape[0]):
        for r in range(nr):
            stop[r] = max(stop[r], vals[i, r])
    keeps = np.empty((max(rerolls, 0), nk))
    level = stop
    for s in range(rerolls):
        _expect1(level, t.child, t.first_roll, keeps[s])
        if s + 1 < rerolls:
            nxt = np.empty(nr)
            _best_keep1(keeps[s], stop, t.parents, t.first_roll, nxt)
            level = nxt
    return abox, vals, keeps


@njit(cache=True)
def turn_tables_of(
    fields: tuple[Any, ...], V: np.ndarray, mask: int, y: int, u: int, rerolls: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`turn_tables` for the record given as a plain tuple, ``tuple(tables)``.

    For calls from Python, one per advice: numba reads the field types of a plain tuple
    in C but those of a ``NamedTuple`` in Python, which costs about 6 µs for
    :class:`~yatzy.solver.model.Tables`. The record is rebuilt here, for free.
    """
    return turn_tables(Tables(*fields), V, mask, y, u, rerolls)


@njit(cache=True)
def rank_options(
    dice: tuple[int, ...], abox: np.ndarray, vals: np.ndarray, keep_row: np.ndarray,
    with_keeps: bool, nb: int, code_to_keep: np.ndarray, first_roll: int,
    sub_keeps: np.ndarray, sub_count: np.ndarray, counts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The options of ``dice`` (faces in their positions), best first: codes (``b`` to
    fill box ``b``; ``nb + m`` to hold the dice of position bit mask ``m``, the first
    dice of each face, once per distinct kept multiset) and values."""
    n = len(dice)
    c = np.zeros(6, dtype=np.int64)
    for pos in range(n):
        c[dice[pos] - 1] += 1
    code = 0
    for f in range(5, -1, -1):
        code = code * (n + 1) + c[f]
    r = code_to_keep[code] - first_roll
    nbox = 0
    for i in range(abox.shape[0]):
        if vals[i, r] > NEG / 2:
            nbox += 1
    nkeep = sub_count[r] if with_keeps else 0
    idx = np.empty(nbox + nkeep, dtype=np.int64)
    neg = np.empty(nbox + nkeep)
    j = 0
    for i in range(abox.shape[0]):
        if vals[i, r] > NEG / 2:
            idx[j] = abox[i]
            neg[j] = -vals[i, r]
            j += 1
    need = np.empty(6, dtype=np.int64)
    for i in range(nkeep):
        k = sub_keeps[r, i]
        for f in range(6):
            need[f] = counts[k, f]
        mask = 0
        for pos in range(n):
            f = dice[pos] - 1
            if need[f] > 0:
                need[f] -= 1
                mask |= 1 << pos
        idx[j] = nb + mask
        neg[j] = -keep_row[k]
        j += 1
    order = np.argsort(neg, kind="mergesort")
    return idx[order], -neg[order]
