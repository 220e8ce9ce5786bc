/* Saved rolls (Maxi Yatzy): the rolls a player does not use in a turn are kept for the
 * player's later turns. A turn that starts with s saved rolls has rolls + s rolls; after
 * a roll with m rolls still to use, the future depends only on the filled boxes, the
 * upper sum and m, not on s: stopping there (filling a box) leaves m saved rolls. So a
 * set of filled boxes and an upper sum have one turn of *levels* m = 0 .. M:
 *
 *   W_0(r) = best box of roll r, with 0 rolls saved after it;
 *   W_m(r) = the best of: the best box with m saved, and every keep's mean of W_{m-1};
 *   V(mask, u, s) = mean over the first roll r of W_{rolls - 1 + s}(r).
 *
 * The best box, keeps and rolls are turn.h's passes (expect_pass, best_keep_pass,
 * best_boxes), one pass per level; the rows (what a fill leads to) read the next
 * layer's values (one more box filled, float32) at s' = m. The next layer may hold
 * fewer saved rolls (ns_next: a cap): a level past it stops with the most the next
 * layer holds (rolls beyond it are lost: a lower bound), or, with `optimistic`, with
 * that table's value of the next state (an upper bound when it is at least the true
 * value). */
#include <stdlib.h>

#include "turn.h"

/* The rows of the plan (sc->plan) for the upper sums lane_u, stopping with s' = key saved
 * rolls (key == ns_next: the optimistic values). A row whose mask has no row in the
 * next layer is worth NEG. */
static inline void level_rows(const Kernels *t, Scratch *sc, const SavedLayer *L,
                              const int *lane_u, int key) {
    const Plan *p = &sc->plan;
    const int use_opt = key >= L->ns_next;
    for (int g = 0; g < p->nrow; g++) {
        const int64_t rank = L->rank[p->row_mask[g]];
        vd v;
        if (rank < 0 || rank >= L->next_masks) {
            v = splat(NEG);
        } else {
            for (int q = 0; q < LANES; q++) {
                int u2;
                const int bonus = add_upper(t, lane_u[q], p->row_up[g], &u2);
                const size_t cell = (size_t)rank * t->stride + u2;
                const float after = use_opt ? L->optimistic[cell]
                                            : L->next[cell * L->ns_next + key];
                v[q] = bonus + (double)after;
            }
        }
        sc->rows[g] = v;
    }
}

/* What stopping at level m leaves: m saved rolls, capped by the next layer (ns_next: the
 * optimistic values when there are any). */
static inline int level_key(const SavedLayer *L, int m) {
    if (m < L->ns_next) return m;
    return L->optimistic ? L->ns_next : L->ns_next - 1;
}

HOT int saved_jobs(const Kernels *t, Scratch *s, const SavedLayer *L, const int32_t *jobs,
                   ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step) {
    const int ns = L->ns, fr = t->first_roll, top = t->rolls - 1 + ns - 1;
    double *result = malloc(sizeof(double) * (LANES_MAX + LANES) * ns);
    if (!result) return -1;
    vd *restrict A = s->A;
    for (ptrdiff_t j = start; j < stop; j += step) {
        const int mask = jobs[j];
        const int um = upper_mask(t, mask);
        const int nl = t->lane_count[um];
        const int32_t *lanes = t->lanes + (size_t)um * t->stride;
        make_plan(t, mask, 0, &s->plan);
        for (int q0 = 0; q0 < nl; q0 += LANES) {
            int lu[LANES];
            for (int q = 0; q < LANES; q++) lu[q] = lanes[q0 + q < nl ? q0 + q : nl - 1];
            int prev = -1;
            for (int m = 0; m <= top; m++) {
                const int key = level_key(L, m);
                if (key != prev) {
                    level_rows(t, s, L, lu, key);
                    best_boxes(t, s, NULL);
                    prev = key;
                }
                if (m == 0) {
                    for (int r = 0; r < t->nr; r++) A[fr + r] = s->S[r];
                } else {
                    expect_pass(t, A);
                    best_keep_pass(t, A, s->S);
                }
                const int sv = m - (t->rolls - 1);
                if (sv < 0) continue;
                vd sum = splat(0.0);
                for (int r = 0; r < t->nr; r++) sum += t->roll_prob[r] * A[fr + r];
                for (int q = 0; q < LANES; q++) result[(size_t)(q0 + q) * ns + sv] = sum[q];
            }
        }
        float *out = L->out + (size_t)j * t->stride * ns;
        const int32_t *lane_of = t->lane_of + (size_t)um * t->stride;
        for (int u = 0; u <= t->threshold; u++)
            for (int sv = 0; sv < ns; sv++)
                out[(size_t)u * ns + sv] =
                    lane_of[u] >= 0 ? (float)result[(size_t)lane_of[u] * ns + sv] : (float)NEG;
    }
    free(result);
    return 0;
}

int saved_turn(const Kernels *t, Scratch *s, const SavedLayer *L, int mask, int u, int levels,
               double *bv, double *keeps, int64_t *abox, int *nallowed) {
    const int fr = t->first_roll, nk = t->nk;
    const size_t nbv = (size_t)t->ne + FACES * t->nb;
    int lu[LANES];
    for (int q = 0; q < LANES; q++) lu[q] = u;
    make_plan(t, mask, 0, &s->plan);
    vd *restrict A = s->A;
    int prev = -1;
    for (int m = 0; m < levels; m++) {
        const int key = level_key(L, m);
        if (key != prev) {
            level_rows(t, s, L, lu, key);
            prev = key;
        }
        best_boxes(t, s, bv + (size_t)m * nbv);
        double *kv = keeps + (size_t)m * nk;
        if (m == 0) {
            for (int r = 0; r < t->nr; r++) A[fr + r] = s->S[r];
            for (int k = 0; k < nk; k++) kv[k] = NEG;
        } else {
            expect_pass(t, A);
            for (int k = 0; k < nk; k++) kv[k] = A[k][0];
            best_keep_pass(t, A, s->S);
        }
    }
    *nallowed = s->plan.nallowed;
    for (int i = 0; i < s->plan.nallowed; i++) abox[i] = s->plan.abox[i];
    return 0;
}
