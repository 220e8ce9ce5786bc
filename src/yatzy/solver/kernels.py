"""The compiled inner loops of the solver (numba, cached on disk after the first call).

Values are arrays over *lanes*: the upper sums of one mask that need their own value.
Every loop over lanes is innermost so that it vectorises.

Names: ``R`` rolls (multisets of all dice), ``K`` keeps (multisets of 0 … all dice,
rolls last), ``L`` lanes, ``nb`` boxes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

NEG = -1.0e18


@njit(cache=True, fastmath=True)
def score_stage(
    mask: int, y: int, lane_u: np.ndarray, V: np.ndarray, allowed: int,
    score: np.ndarray, is_upper: np.ndarray, upper_slot: np.ndarray,
    upper_points: np.ndarray, upper_index: np.ndarray, five_rolls: np.ndarray,
    five_points: np.ndarray, extra: np.ndarray, ybox: int, y_points: int,
    threshold: int, bonus: int, out: np.ndarray,
) -> None:
    """``out[r, q]``: the best value of filling a box with roll ``r`` in lane ``q``.

    A box's value is its points, plus the upper bonus when this box reaches the
    threshold, plus an extra-Yahtzee bonus, plus the value of the state it leads to.
    """
    nr = score.shape[0]
    nb = score.shape[1]
    nl = lane_u.shape[0]
    npts = upper_points.shape[1]
    # Value of each upper box per possible points, and of each lower box, per lane.
    up = np.empty((6, npts, nl))
    low = np.empty((nb, nl))
    low_y = np.empty(nl)
    for b in range(nb):
        if not (allowed >> b) & 1:
            continue
        m2 = mask | (1 << b)
        if is_upper[b]:
            i = upper_slot[b]
            for j in range(npts):
                p = upper_points[i, j]
                if p < 0:
                    continue
                y2 = 1 if (b == ybox and p == y_points) else y
                for q in range(nl):
                    u = lane_u[q]
                    u2 = min(threshold, u + p)
                    gain = bonus if (u < threshold and u2 >= threshold) else 0
                    up[i, j, q] = p + gain + V[m2, y2, u2]
        else:
            for q in range(nl):
                low[b, q] = V[m2, y, lane_u[q]]
            if b == ybox and y_points >= 0:
                for q in range(nl):
                    low_y[q] = V[m2, 1, lane_u[q]]
    five_of = np.full(nr, -1)
    for f in range(6):
        five_of[five_rolls[f]] = f
    for r in range(nr):
        for q in range(nl):
            out[r, q] = NEG
        f = five_of[r]
        add = 0.0
        if f >= 0:
            add = extra[y, f]
        for b in range(nb):
            if f >= 0:
                p = five_points[mask, f, b]
                if p < 0:
                    continue
            elif (allowed >> b) & 1:
                p = score[r, b]
            else:
                continue
            if is_upper[b]:
                i = upper_slot[b]
                j = upper_index[r, i]
                if f >= 0:
                    j = 0
                    while upper_points[i, j] != p:
                        j += 1
                for q in range(nl):
                    out[r, q] = max(out[r, q], up[i, j, q] + add)
            elif b == ybox and p == y_points:
                for q in range(nl):
                    out[r, q] = max(out[r, q], low_y[q] + (p + add))
            else:
                for q in range(nl):
                    out[r, q] = max(out[r, q], low[b, q] + (p + add))


@njit(cache=True, fastmath=True)
def expect(level: np.ndarray, child: np.ndarray, first_roll: int, E: np.ndarray) -> None:
    """``E[k, q]``: the expected ``level`` value of the roll that keeping ``k`` and
    rolling the other dice gives (``level`` indexed by roll)."""
    nk = E.shape[0]
    nl = E.shape[1]
    for k in range(first_roll, nk):
        for q in range(nl):
            E[k, q] = level[k - first_roll, q]
    for k in range(first_roll - 1, -1, -1):
        c0 = child[k, 0]
        c1 = child[k, 1]
        c2 = child[k, 2]
        c3 = child[k, 3]
        c4 = child[k, 4]
        c5 = child[k, 5]
        for q in range(nl):
            E[k, q] = (E[c0, q] + E[c1, q] + E[c2, q] + E[c3, q] + E[c4, q] + E[c5, q]) * (
                1.0 / 6.0
            )


@njit(cache=True, fastmath=True)
def best_keep(
    E: np.ndarray, stop: np.ndarray, parents: np.ndarray, first_roll: int, out: np.ndarray
) -> None:
    """``out[r, q]``: the value of roll ``r`` with a reroll left: the best of stopping
    (``stop[r, q]``) and every proper sub-multiset ``k`` kept (``E[k, q]``).

    ``parents[k]`` lists the keeps with one die less, padded with ``len(E)`` (a row of
    -inf)."""
    nk = E.shape[0]
    nl = E.shape[1]
    M = np.empty((nk + 1, nl))
    for q in range(nl):
        M[nk, q] = NEG
    for q in range(nl):
        M[0, q] = E[0, q]
    for k in range(1, nk):
        p0 = parents[k, 0]
        p1 = parents[k, 1]
        p2 = parents[k, 2]
        p3 = parents[k, 3]
        p4 = parents[k, 4]
        p5 = parents[k, 5]
        if k < first_roll:
            for q in range(nl):
                M[k, q] = max(
                    max(max(E[k, q], M[p0, q]), max(M[p1, q], M[p2, q])),
                    max(max(M[p3, q], M[p4, q]), M[p5, q]),
                )
        else:
            r = k - first_roll
            for q in range(nl):
                out[r, q] = max(
                    max(max(stop[r, q], M[p0, q]), max(M[p1, q], M[p2, q])),
                    max(max(M[p3, q], M[p4, q]), M[p5, q]),
                )


@njit(cache=True, fastmath=True)
def turn_start_values(
    mask: int, y: int, lane_u: np.ndarray, V: np.ndarray, allowed: int,
    score: np.ndarray, is_upper: np.ndarray, upper_slot: np.ndarray,
    upper_points: np.ndarray, upper_index: np.ndarray, five_rolls: np.ndarray,
    five_points: np.ndarray, extra: np.ndarray, ybox: int, y_points: int,
    threshold: int, bonus: int, child: np.ndarray, parents: np.ndarray,
    first_roll: int, roll_prob: np.ndarray, rolls: int,
) -> np.ndarray:
    """The expected future points at the start of a turn, per lane."""
    nr = score.shape[0]
    nl = lane_u.shape[0]
    nk = child.shape[0]
    stop = np.empty((nr, nl))
    score_stage(mask, y, lane_u, V, allowed, score, is_upper, upper_slot, upper_points,
                upper_index, five_rolls, five_points, extra, ybox, y_points, threshold,
                bonus, stop)
    level = stop
    E = np.empty((nk, nl))
    for _ in range(rolls - 1):
        expect(level, child, first_roll, E)
        nxt = np.empty((nr, nl))
        best_keep(E, stop, parents, first_roll, nxt)
        level = nxt
    result = np.zeros(nl)
    for r in range(nr):
        p = roll_prob[r]
        for q in range(nl):
            result[q] += p * level[r, q]
    return result


@njit(cache=True, parallel=True, fastmath=True)
def solve_layer(
    jobs_mask: np.ndarray, jobs_y: np.ndarray, jobs_um: np.ndarray, lanes: np.ndarray,
    lane_count: np.ndarray, lane_of: np.ndarray, V: np.ndarray, allowed: np.ndarray,
    score: np.ndarray, is_upper: np.ndarray, upper_slot: np.ndarray,
    upper_points: np.ndarray, upper_index: np.ndarray, five_rolls: np.ndarray,
    five_points: np.ndarray, extra: np.ndarray, ybox: int, y_points: int,
    threshold: int, bonus: int, child: np.ndarray, parents: np.ndarray,
    first_roll: int, roll_prob: np.ndarray, rolls: int,
) -> None:
    """Fill ``V[mask, y, :]`` for every job (all masks of one size), in parallel."""
    for j in prange(jobs_mask.shape[0]):
        mask = jobs_mask[j]
        y = jobs_y[j]
        um = jobs_um[j]
        lane_u = lanes[um, : lane_count[um]]
        vals = turn_start_values(
            mask, y, lane_u, V, allowed[mask], score, is_upper, upper_slot,
            upper_points, upper_index, five_rolls, five_points, extra, ybox, y_points,
            threshold, bonus, child, parents, first_roll, roll_prob, rolls,
        )
        for u in range(threshold + 1):
            lane = lane_of[um, u]
            if lane >= 0:
                V[mask, y, u] = vals[lane]
