"""Compiled in-turn values of one turn-start state, for advice and simulation.

``turn_tables`` gives, for state ``(mask, y, u)``: the value of filling each allowed box
with each roll, and the value of keeping each multiset of dice with ``s`` rerolls left.
Box values are stored box-major (``vals[i, r]`` for box ``abox[i]`` and roll ``r``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from yatzy.solver.kernels import NEG


@njit(cache=True, fastmath=True)
def box_values(
    mask: int, y: int, u: int, V: np.ndarray, allowed: int, score_t: np.ndarray,
    is_upper: np.ndarray, upper_slot: np.ndarray, upper_points: np.ndarray,
    upper_index_t: np.ndarray, five_rolls: np.ndarray, five_points: np.ndarray,
    extra: np.ndarray, ybox: int, y_points: int, threshold: int, bonus: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The allowed boxes ``abox`` and ``vals[i, r]``: the value of filling box
    ``abox[i]`` with roll ``r`` (points, bonuses and the value of the next state;
    ``NEG`` where the Joker rules forbid it)."""
    nb = score_t.shape[0]
    nr = score_t.shape[1]
    k = 0
    for b in range(nb):
        if (allowed >> b) & 1:
            k += 1
    abox = np.empty(k, dtype=np.int64)
    vals = np.empty((k, nr))
    upv = np.empty(upper_points.shape[1])
    i = 0
    for b in range(nb):
        if not (allowed >> b) & 1:
            continue
        abox[i] = b
        m2 = mask | (1 << b)
        if is_upper[b]:
            slot = upper_slot[b]
            for j in range(upper_points.shape[1]):
                p = upper_points[slot, j]
                if p < 0:
                    continue
                y2 = 1 if (b == ybox and p == y_points) else y
                u2 = min(threshold, u + p)
                gain = bonus if (u < threshold and u2 >= threshold) else 0
                upv[j] = p + gain + V[m2, y2, u2]
            for r in range(nr):
                vals[i, r] = upv[upper_index_t[slot, r]]
        else:
            base = V[m2, y, u]
            if b == ybox and y_points >= 0:
                base_y = V[m2, 1, u]
                for r in range(nr):
                    p = score_t[b, r]
                    vals[i, r] = p + (base_y if p == y_points else base)
            else:
                for r in range(nr):
                    vals[i, r] = score_t[b, r] + base
        i += 1
    # Five of a kind: Joker points, restrictions and the extra-Yahtzee bonus.
    for f in range(6):
        r = five_rolls[f]
        add = extra[y, f]
        for i in range(k):
            b = abox[i]
            p = five_points[mask, f, b]
            if p < 0:
                vals[i, r] = NEG
                continue
            m2 = mask | (1 << b)
            y2 = 1 if (b == ybox and p == y_points) else y
            if is_upper[b]:
                u2 = min(threshold, u + p)
                gain = bonus if (u < threshold and u2 >= threshold) else 0
                vals[i, r] = p + add + gain + V[m2, y2, u2]
            else:
                vals[i, r] = p + add + V[m2, y2, u]
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
    mask: int, y: int, u: int, V: np.ndarray, allowed: int, score_t: np.ndarray,
    is_upper: np.ndarray, upper_slot: np.ndarray, upper_points: np.ndarray,
    upper_index_t: np.ndarray, five_rolls: np.ndarray, five_points: np.ndarray,
    extra: np.ndarray, ybox: int, y_points: int, threshold: int, bonus: int,
    rerolls: int, child: np.ndarray, parents: np.ndarray, first_roll: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(abox, vals, keeps)``: :func:`box_values`, and ``keeps[s, k]``, the value of
    keeping ``k`` and rolling the rest with ``s`` rerolls left after that roll, for
    ``s`` = 0 … ``rerolls - 1``."""
    abox, vals = box_values(mask, y, u, V, allowed, score_t, is_upper, upper_slot,
                            upper_points, upper_index_t, five_rolls, five_points, extra,
                            ybox, y_points, threshold, bonus)
    nr = vals.shape[1]
    nk = child.shape[0]
    stop = np.empty(nr)
    for r in range(nr):
        stop[r] = NEG
    for i in range(vals.shape[0]):
        for r in range(nr):
            stop[r] = max(stop[r], vals[i, r])
    keeps = np.empty((max(rerolls, 0), nk))
    level = stop
    for s in range(rerolls):
        _expect1(level, child, first_roll, keeps[s])
        if s + 1 < rerolls:
            nxt = np.empty(nr)
            _best_keep1(keeps[s], stop, parents, first_roll, nxt)
            level = nxt
    return abox, vals, keeps


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
