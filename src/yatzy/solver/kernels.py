"""The compiled inner loops of the solver (numba, cached on disk after the first call).

Every kernel takes the ruleset as one record, :class:`~yatzy.solver.model.Tables`, and
the value table ``V[mask, y, u]``. Filling a box — its points (Joker rules included), the
extra-Yahtzee bonus, the upper bonus and the next state — is :func:`fill`, and only
there. It is :func:`fill_box` (all that does not depend on the upper sum) followed by
:func:`add_upper` (the upper sum and its bonus): the turn tables
(:mod:`yatzy.solver.turn`) and the simulation (:mod:`yatzy.solver.simulate`) call
``fill``; the value table (here) calls the two halves, ``fill_box`` once per entry and
``add_upper`` once per next state and lane, because it needs them that often.

Values are arrays over *lanes*: the upper sums of one mask that need their own value.
Every loop over lanes is innermost so that it vectorises.

Names: ``R`` rolls (multisets of all dice), ``K`` keeps (multisets of 0 … all dice,
rolls last), ``L`` lanes, ``nb`` boxes, ``E`` entries (see ``Tables``).

The kernels run with ``fastmath``, which lets the compiler assume that no value is NaN or
infinite; so every value is finite: :data:`NEG` stands for "no option".
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from yatzy.solver.model import Tables

#: The value of no option: a box the rules forbid now, or a state no game reaches (the
#: value table holds it there). Finite, and so low that any sum with it stays below
#: ``NEG / 2``.
NEG = -1.0e18


@njit(cache=True, inline="always")
def fill_box(
    t: Tables, mask: int, y: int, roll: int, box: int
) -> tuple[int, int, int, int, int]:
    """Fill ``box`` with ``roll`` when ``mask`` is filled and ``y`` holds, all but the
    upper sum: ``(points, extra, mask2, y2, upper)``.

    ``points``: the box's points (the Joker rules' points for five of a kind), -1 when
    the play order or the Joker rules forbid the box (the rest is then unchanged);
    ``extra``: the extra-Yahtzee bonus; ``mask2`` and ``y2``: the next state's;
    ``upper``: the points added to the upper sum (0 for a lower box), for
    :func:`add_upper`. It reads the roll only through ``five_of[roll]`` and
    ``score[roll, box]``, so every roll that makes an entry fills its box alike.
    """
    # Every read of ``t`` comes first, in straight-line code: numba then drops the
    # reference counting of the record's arrays (see docs/solver.md, "Kernels").
    f = t.five_of[roll]
    face = max(f, 0)
    joker_points = int(t.five_points[mask, face, box])
    table_points = t.score[roll, box]
    allowed = t.allowed[mask]
    extra_points = t.extra[y, face]
    upper_box = t.is_upper[box]
    yahtzee_box = t.yahtzee_box
    y_points = t.y_points
    # Numbers only from here on.
    points = -1
    extra = 0
    if f >= 0:
        points = joker_points
        extra = extra_points
    elif (allowed >> box) & 1:
        points = table_points
    if points < 0:
        return -1, 0, mask, y, 0
    y2 = 1 if (box == yahtzee_box and points == y_points) else y
    return points, extra, mask | (1 << box), y2, points if upper_box else 0


@njit(cache=True, inline="always")
def add_upper(threshold: int, bonus: int, u: int, upper: int) -> tuple[int, int]:
    """``(bonus, u2)``: ``upper`` points added to the upper sum ``u`` (capped at the
    ``threshold``), and the upper ``bonus`` when the sum reaches the threshold now."""
    u2 = min(threshold, u + upper)
    return (bonus if (u < threshold and u2 >= threshold) else 0), u2


@njit(cache=True, inline="always")
def fill(
    t: Tables, mask: int, y: int, u: int, roll: int, box: int
) -> tuple[int, int, int, int, int, int]:
    """Fill ``box`` with ``roll`` in turn-start state ``(mask, y, u)``: the transition.

    Returns ``(points, extra, bonus, mask2, y2, u2)``: the box's points (the Joker
    rules' points for five of a kind), the extra-Yahtzee bonus, the upper bonus and the
    next state; the gain is ``points + extra + bonus``. ``points`` is -1 when the play
    order or the Joker rules forbid the box (the state is then unchanged). It is
    :func:`fill_box` followed by :func:`add_upper`.
    """
    threshold = t.threshold
    bonus_points = t.bonus
    points, extra, mask2, y2, upper = fill_box(t, mask, y, roll, box)
    bonus, u2 = add_upper(threshold, bonus_points, u, upper)
    return points, extra, bonus, mask2, y2, u2


@njit(cache=True, fastmath=True)
def box_rows(
    t: Tables, V: np.ndarray, mask: int, y: int, lane_u: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What filling each box is worth in state ``(mask, y, lane_u[q])``, factored as
    :func:`fill` is: ``(rows, gain, group, gain5, group5)``.

    Entry ``e`` (box ``entry_box[e]`` with a roll other than five of a kind) is worth
    ``gain[e] + rows[group[e], q]``, and five ``f + 1``s in box ``b`` are worth
    ``gain5[f, b] + rows[group5[f, b], q]``: the gain of :func:`fill_box` (points and
    extra bonus), then the upper bonus and the next state's value. Fills that
    :func:`fill_box` sends to the same next state with the same upper points share a
    row (the boxes of the lower section need one row each). ``group`` -1: forbidden.
    """
    nb = t.score.shape[1]
    nl = lane_u.shape[0]
    entry_box = t.entry_box
    entry_roll = t.entry_roll
    five_rolls = t.five_rolls
    threshold = t.threshold
    bonus_points = t.bonus
    ne = entry_box.shape[0]
    gain = np.zeros(ne)
    group = np.full(ne, -1, dtype=np.int64)
    gain5 = np.zeros((6, nb))
    group5 = np.full((6, nb), -1, dtype=np.int64)
    # Rows: their next mask and y and their upper points.
    row_key = np.empty((ne + 6 * nb, 3), dtype=np.int64)
    allowed = t.allowed[mask]
    n = 0
    end = 0
    for b in range(nb):
        start = end  # the box's entries: start .. end - 1 (entries are numbered by box)
        while end < ne and entry_box[end] == b:
            end += 1
        # The Joker rules only choose among the boxes the play order allows (a test
        # checks it on the tables), so the other boxes stay forbidden.
        if not (allowed >> b) & 1:
            continue
        first = n  # the box's rows: first .. n - 1
        for i in range(6 + end - start):  # five of a kind of each face, then the entries
            r = five_rolls[i] if i < 6 else entry_roll[start + i - 6]
            points, extra, m2, y2, up = fill_box(t, mask, y, r, b)
            g = -1
            if points >= 0:
                g = first
                while g < n and not (
                    row_key[g, 0] == m2 and row_key[g, 1] == y2 and row_key[g, 2] == up
                ):
                    g += 1
                if g == n:
                    row_key[n, 0] = m2
                    row_key[n, 1] = y2
                    row_key[n, 2] = up
                    n += 1
            if i < 6:
                gain5[i, b] = points + extra
                group5[i, b] = g
            else:
                gain[start + i - 6] = points + extra
                group[start + i - 6] = g
    rows = np.empty((n, nl))
    for g in range(n):
        after = V[row_key[g, 0], row_key[g, 1]]
        up = row_key[g, 2]
        for q in range(nl):
            bonus, u2 = add_upper(threshold, bonus_points, lane_u[q], up)
            rows[g, q] = bonus + after[u2]
    return rows, gain, group, gain5, group5


@njit(cache=True, fastmath=True)
def score_stage(
    t: Tables, V: np.ndarray, mask: int, y: int, lane_u: np.ndarray, out: np.ndarray
) -> None:
    """``out[r, q]``: the best value of filling a box with roll ``r`` in lane ``q``."""
    nr = t.score.shape[0]
    nb = t.score.shape[1]
    nl = lane_u.shape[0]
    rows, gain, group, gain5, group5 = box_rows(t, V, mask, y, lane_u)
    five_of = t.five_of
    entry_of = t.entry_of
    for r in range(nr):
        for q in range(nl):
            out[r, q] = NEG
        f = five_of[r]
        for b in range(nb):
            if f >= 0:
                g = group5[f, b]
                add = gain5[f, b]
            else:
                e = entry_of[b, r]
                g = group[e]
                add = gain[e]
            if g >= 0:
                for q in range(nl):
                    out[r, q] = max(out[r, q], rows[g, q] + add)


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
    ``NEG``)."""
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
    t: Tables, V: np.ndarray, mask: int, y: int, lane_u: np.ndarray
) -> np.ndarray:
    """The expected future points at the start of a turn, per lane."""
    nr = t.score.shape[0]
    nl = lane_u.shape[0]
    nk = t.child.shape[0]
    stop = np.empty((nr, nl))
    score_stage(t, V, mask, y, lane_u, stop)
    level = stop
    E = np.empty((nk, nl))
    for _ in range(t.rolls - 1):
        expect(level, t.child, t.first_roll, E)
        nxt = np.empty((nr, nl))
        best_keep(E, stop, t.parents, t.first_roll, nxt)
        level = nxt
    result = np.zeros(nl)
    for r in range(nr):
        p = t.roll_prob[r]
        for q in range(nl):
            result[q] += p * level[r, q]
    return result


@njit(cache=True, parallel=True, fastmath=True)
def solve_layer(
    t: Tables, V: np.ndarray, jobs_mask: np.ndarray, jobs_y: np.ndarray, jobs_um: np.ndarray
) -> None:
    """Fill ``V[mask, y, :]`` for every job (all masks of one size), in parallel."""
    for j in prange(jobs_mask.shape[0]):
        mask = jobs_mask[j]
        y = jobs_y[j]
        um = jobs_um[j]
        lane_u = t.lanes[um, : t.lane_count[um]]
        vals = turn_start_values(t, V, mask, y, lane_u)
        for u in range(t.threshold + 1):
            lane = t.lane_of[um, u]
            if lane >= 0:
                V[mask, y, u] = vals[lane]
