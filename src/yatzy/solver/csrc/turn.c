/* One turn's values (see turn.h), and the table build: V of one state at a time, from
 * the values of the states after it. */
#include <stdlib.h>
#include <string.h>

#include "turn.h"

int scratch_init(const Kernels *t, Scratch *s) { return scratch_alloc(t, s); }

void scratch_free(Scratch *s) {
    free(s->block);
    s->block = NULL;
}

void make_plan(const Kernels *t, int mask, int y, Plan *p) {
    const int nb = t->nb;
    const int allowed = t->allowed[mask];
    int n = 0;
    p->nallowed = 0;
    for (int b = 0; b < nb; b++) {
        /* The Joker rules only choose among the boxes the play order allows (a test
         * checks it on the tables), so the other boxes stay forbidden. */
        if (!((allowed >> b) & 1)) {
            for (int f = 0; f < FACES; f++) p->group5[f * nb + b] = -1;
            continue;
        }
        p->abox[p->nallowed] = b;
        /* The rows of the box's entries, one per key, from row box_row[i] on. */
        int first = n;
        p->box_row[p->nallowed++] = n;
        for (int k = t->key_start[b]; k < t->key_start[b + 1]; k++) {
            p->row_mask[n] = mask | (1 << b);
            p->row_y[n] = t->key_y[k] ? 1 : y;
            p->row_up[n] = t->key_up[k];
            n++;
        }
        /* Five of a kind: the Joker rules' points and the extra bonus depend on the
         * state. */
        for (int f = 0; f < FACES; f++) {
            int extra, m2, y2, up;
            int points = fill_box(t, mask, y, t->five_rolls[f], b, &extra, &m2, &y2, &up);
            int g = -1;
            if (points >= 0) {
                for (g = first; g < n; g++)
                    if (p->row_mask[g] == m2 && p->row_y[g] == y2 && p->row_up[g] == up) break;
                if (g == n) {
                    p->row_mask[n] = m2;
                    p->row_y[n] = y2;
                    p->row_up[n] = up;
                    n++;
                }
            }
            p->gain5[f * nb + b] = points + extra;
            p->group5[f * nb + b] = g;
        }
    }
    p->nrow = n;
}

/* --- The table build --------------------------------------------------------------- */

HOT void solve_jobs(const Kernels *t, Scratch *s, const int32_t *jobs_mask,
                    const int32_t *jobs_y, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step) {
    solve_range(t, s, jobs_mask, jobs_y, start, stop, step);
}

/* --- Advice: one state's turn -------------------------------------------------------- */

HOT void turn_tables(const Kernels *t, Scratch *s, int mask, int y, int u,
                            int rerolls, double *bv, double *keeps) {
    int lu[LANES];
    for (int q = 0; q < LANES; q++) lu[q] = u;
    make_plan(t, mask, y, &s->plan);
    turn_block(t, s, lu, rerolls, bv, keeps, 0);
}


/* --- Advice: one state's turn, one value at a time ---------------------------------- */

/* The larger of a and b (no NaN here: see NEG), as vmax takes it lane by lane. */
INLINE double dmax(double a, double b) { return a > b ? a : b; }

/* turn_block's passes for one state, on plain doubles: the same sums in the same order
 * and maxima over the same values as lane 0 of turn_tables, to the last bit, without
 * the three idle lanes (a quarter of the memory and of the work). keeps[s * nk ..] is
 * the row of s rerolls left after the roll; rows before it are read, not written. */
static void single_passes(const Kernels *t, const double *restrict S, int rerolls,
                          double *restrict keeps) {
    const int nr = t->nr, nk = t->nk, fr = t->first_roll;
    memcpy(keeps + fr, S, sizeof(double) * nr);
    for (int s = 0; s < rerolls; s++) {
        double *restrict A = keeps + (size_t)s * nk;
        if (s > 0) {
            /* The rolls' values with s rerolls left: the best of stopping and of the
             * keeps of the row before, parts first (best_keep_pass). */
            const double *restrict prev = A - nk;
            const int32_t *kp = t->best_keep, *pp = t->best_par;
            A[0] = prev[0];
            for (int g = 0; g < t->ngroups; g++) {
                const int n = t->group_len[g];
                /* A roll starts from stopping, a keep from itself. */
                const int roll = t->group_roll[g], off = roll ? fr : 0;
                const double *restrict start = roll ? S : prev;
                switch (t->group_par[g]) {
#define SINGLE_RUN(C)                                                                   \
    case C:                                                                             \
        for (int q = 0; q < n; q++, pp += C) {                                          \
            const int k = kp[q];                                                        \
            double out = start[k - off];                                                \
            for (int j = 0; j < C; j++) out = dmax(out, A[pp[j]]);                      \
            A[k] = out;                                                                 \
        }                                                                               \
        break;
                    /* best_keep_order makes runs of 1 to FACES parents only. */
                    SINGLE_RUN(1) SINGLE_RUN(2) SINGLE_RUN(3) SINGLE_RUN(4) SINGLE_RUN(5)
                    SINGLE_RUN(6)
#undef SINGLE_RUN
                }
                kp += n;
            }
        }
        /* Expect: a keep is worth the mean over the die added to it (expect_pass). */
        for (int k = fr - 1; k >= 0; k--) {
            const int32_t *c = t->child + k * FACES;
            A[k] = (A[c[0]] + A[c[1]] + A[c[2]] + A[c[3]] + A[c[4]] + A[c[5]]) * (1.0 / 6.0);
        }
    }
}

/* S[r]: the best box of roll r, from the rows and the box values bv (five of a kind reads
 * entry 0 here, which exists: bv holds ne + 6 nb values; it is set apart afterwards):
 * the same maximum as best_boxes, box by box. A box with one key adds each entry's points
 * to the same row: those sums are made again here from the points roll by roll
 * (box_gain), the same sums without looking them up in bv. */
INLINE void best_by_roll(const Kernels *t, const Plan *p, const double *rows,
                         const double *restrict bv, double *restrict S) {
    const int nr = t->nr;
    for (int r = 0; r < nr; r++) S[r] = NEG;
    for (int i = 0; i < p->nallowed; i++) {
        const int b = p->abox[i];
        if (t->key_start[b + 1] - t->key_start[b] == 1) {
            const double row = rows[p->box_row[i]];
            const double *restrict gain = t->box_gain + (size_t)b * nr;
            for (int r = 0; r < nr; r++) S[r] = dmax(S[r], row + gain[r]);
        } else {
            const int32_t *col = t->entry_by_box + (size_t)b * nr;
            for (int r = 0; r < nr; r++) S[r] = dmax(S[r], bv[col[r]]);
        }
    }
}

HOT void turn_single(const Kernels *t, Plan *p, double *restrict work, int mask, int y, int u,
                     int rerolls, double *restrict bv, double *restrict keeps) {
    const int nb = t->nb, ne = t->ne;
    double *restrict rows = work, *restrict S = work + ne + FACES * nb;
    make_plan(t, mask, y, p);
    /* Rows: the upper bonus and the next state's value (turn_block). */
    for (int g = 0; g < p->nrow; g++) {
        const double *after = t->V + ((size_t)p->row_mask[g] * t->y_count + p->row_y[g])
                                         * t->stride;
        int u2;
        const int bonus = add_upper(t, u, p->row_up[g], &u2);
        rows[g] = bonus + after[u2];
    }
    /* The box values by entry, straight into bv (best_boxes: ev and ev5). */
    for (int e = 0; e < ne + FACES * nb; e++) bv[e] = NEG;
    double *restrict ev5 = bv + ne;
    const int na = p->nallowed;
    for (int i = 0; i < na; i++) {
        const int b = p->abox[i];
        const double *box_rows = rows + p->box_row[i];
        for (int e = t->box_start[b]; e < t->box_start[b + 1]; e++)
            bv[e] = box_rows[t->entry_key[e]] + t->entry_gain[e];
        for (int f = 0; f < FACES; f++) {
            const int j = f * nb + b;
            ev5[j] = p->group5[j] >= 0 ? rows[p->group5[j]] + p->gain5[j] : NEG;
        }
    }
    if (rerolls <= 0) return;
    /* The best box for every roll; five of a kind's below. */
    best_by_roll(t, p, rows, bv, S);
    for (int f = 0; f < FACES; f++) {
        double out = NEG;
        for (int i = 0; i < na; i++) out = dmax(out, ev5[f * nb + p->abox[i]]);
        S[t->five_rolls[f]] = out;
    }
    single_passes(t, S, rerolls, keeps);
}
