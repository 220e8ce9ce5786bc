/* The transition — filling a box — and the dice: inline, for every loop that needs them.
 * The indices the tables hold were checked when the record was built (tables.c); the
 * states, rolls and boxes passed here are the callers' to check. */
#ifndef YATZY_TRANSITION_H
#define YATZY_TRANSITION_H

#include "kernels.h"

/* 1 when (mask, y, u) is a state of the tables (any numbers may be asked), else 0. */
INLINE int state_ok(const Kernels *t, int64_t mask, int64_t y, int64_t u) {
    return mask >= 0 && mask < ((int64_t)1 << t->nb) && y >= 0 && y < t->y_count && u >= 0
           && u <= t->threshold;
}

/* Fill `box` with `roll` when `mask` is filled and `y` holds, all but the upper sum:
 * returns the box's points (the Joker rules' points for five of a kind; -1 when the play
 * order or the Joker rules forbid the box) and sets the extra-Yahtzee bonus, the next
 * mask and y, and the points added to the upper sum. */
INLINE int fill_box(const Kernels *t, int mask, int y, int roll, int box, int *extra,
                    int *mask2, int *y2, int *upper) {
    int f = t->five_of[roll];
    int points = -1;
    *extra = 0;
    if (f >= 0) {
        points = t->five_points[((size_t)mask * FACES + f) * t->nb + box];
        *extra = t->extra[y * FACES + f];
    } else if ((t->allowed[mask] >> box) & 1) {
        points = t->score[roll * t->nb + box];
    }
    if (points < 0) {
        *extra = 0;
        *mask2 = mask;
        *y2 = y;
        *upper = 0;
        return -1;
    }
    *y2 = (box == t->yahtzee_box && points == t->y_points) ? 1 : y;
    *mask2 = mask | (1 << box);
    *upper = t->is_upper[box] ? points : 0;
    return points;
}

/* `upper` points added to the upper sum `u` (capped at the threshold): the upper bonus
 * earned now, and the new sum in *u2. */
INLINE int add_upper(const Kernels *t, int u, int upper, int *u2) {
    int v = u + upper;
    if (v > t->threshold) v = t->threshold;
    *u2 = v;
    return (u < t->threshold && v >= t->threshold) ? t->bonus : 0;
}

/* The upper boxes filled in `mask`, as bits of the upper section (see Tables.lanes). */
INLINE int upper_mask(const Kernels *t, int mask) {
    int um = 0;
    for (int b = 0; b < t->nb; b++)
        if ((mask >> b) & 1) um |= t->upper_bit[b];
    return um;
}

/* A state's number, as in V: (mask * y_count + y) * stride + u, with u replaced by the
 * first upper sum of its lane (upper sums that share a lane have one future). */
INLINE int state_key(const Kernels *t, int mask, int y, int u) {
    const int um = upper_mask(t, mask);
    const int32_t lane = t->lane_of[(size_t)um * t->stride + u];
    const int ur = lane >= 0 ? t->lanes[(size_t)um * t->stride + lane] : u;
    return (mask * t->y_count + y) * t->stride + ur;
}

/* The roll of face counts c[0 .. 5] (each 0 .. dice, `dice` in all). */
INLINE int roll_of_counts(const Kernels *t, const int *c) {
    int code = 0;
    for (int f = FACES - 1; f >= 0; f--) code = code * (t->dice + 1) + c[f];
    return t->code_to_keep[code] - t->first_roll;
}

/* Columns of a game's row: see G_MASK. Fill `box` of the game in `row` (in state mask,
 * y, u) with `roll`, a box the rules allow: the row's state, total and counts move on
 * (the total and counts wrap round rather than overflow, whatever the caller put there).
 * Returns the points gained (the box's, in *points when asked, and the bonuses). */
INLINE int fill_row(const Kernels *t, int64_t *row, int m, int y, int u, int roll, int box,
                    int *points) {
    int extra, m2, y2, up, u2;
    int p = fill_box(t, m, y, roll, box, &extra, &m2, &y2, &up);
    int bonus = add_upper(t, u, up, &u2);
    row[G_TOTAL] = (int64_t)((uint64_t)row[G_TOTAL] + (uint64_t)(int64_t)(p + extra + bonus));
    if (extra > 0) row[G_EXTRAS] = (int64_t)((uint64_t)row[G_EXTRAS] + 1);
    if (box == t->yahtzee_box) row[G_FIVE_BOX] = p;
    row[G_MASK] = m2;
    row[G_Y] = y2;
    row[G_U] = u2;
    if (points) *points = p;
    return p + extra + bonus;
}

/* splitmix64: one stream per game, seeded from (seed, game). */
INLINE uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
INLINE uint64_t next64(uint64_t *s) {
    *s += 0x9e3779b97f4a7c15ULL;
    return mix64(*s);
}
/* A fair die (Lemire's method, rejecting the 4 low values that would bias it). */
INLINE int die(uint64_t *s) {
    for (;;) {
        uint64_t m = (next64(s) >> 32) * 6u;
        if ((uint32_t)m >= 4u) return (int)(m >> 32) + 1;
    }
}
INLINE double uniform(uint64_t *s) { return (double)(next64(s) >> 11) * 0x1.0p-53; }

#endif
