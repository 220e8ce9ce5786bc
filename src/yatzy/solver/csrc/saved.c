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

/* One turn of each game idx[0 .. n - 1] (rows of `rows`, G_COLS columns each, the dice
 * drawn from the row's stream G_RNG; saved[g]: game g's saved rolls), all in state
 * (mask, 0, u) or one that shares its values (an upper sum of u's lane), by the optimal play of the turn tables bv and keeps of `levels` levels
 * (saved_turn: every game's rolls - 1 + saved[g] below levels), as play_saved plays it in
 * Python: the first best box, the first best keep, a keep only when it is worth more than
 * the box. The filled box moves the row on (fill_row) and saved[g] becomes the rolls left
 * unused, capped by the next layer (ns_next). The rows and saved rolls are the caller's,
 * checked before and read again here. Returns 0, -1 when a game had no option, -3 when
 * a game's row or saved rolls are not what the tables are for. */
HOT int saved_play(const Kernels *t, const SavedLayer *L, int mask, int u, int levels,
                   const double *bv, const double *keeps, const int64_t *abox, int nallowed,
                   int64_t *rows, int64_t *saved, const int64_t *idx, ptrdiff_t n) {
    const size_t nbv = (size_t)t->ne + FACES * t->nb;
    const int rolls = t->rolls, dice = t->dice;
    const int32_t *lane_of = t->lane_of + (size_t)upper_mask(t, mask) * t->stride;
    for (ptrdiff_t j = 0; j < n; j++) {
        int64_t *row = rows + (size_t)idx[j] * G_COLS;
        const int64_t s = saved[idx[j]], gu = row[G_U];
        if (row[G_MASK] != mask || gu < 0 || gu > t->threshold || lane_of[gu] != lane_of[u]
            || s < 0 || s > levels - rolls)
            return -3;
        uint64_t rng = (uint64_t)row[G_RNG];
        int c[FACES] = {0, 0, 0, 0, 0, 0};
        for (int i = 0; i < dice; i++) c[die(&rng) - 1]++;
        int level = rolls - 1 + (int)s;
        for (;;) {
            const int r = roll_of_counts(t, c);
            const double *b = bv + (size_t)level * nbv;
            int pick = -1;
            double best = NEG;
            for (int i = 0; i < nallowed; i++) {
                const double v = box_value(t, b, r, (int)abox[i]);
                if (v > NEG / 2 && (pick < 0 || v > best)) {
                    best = v;
                    pick = (int)abox[i];
                }
            }
            if (level > 0) {
                const double *kv = keeps + (size_t)level * t->nk;
                const int32_t *sub = t->sub_keeps + (size_t)r * t->sub_width;
                int keep = -1;
                double kbest = NEG;
                for (int i = 0; i < t->sub_count[r]; i++)
                    if (keep < 0 || kv[sub[i]] > kbest) {
                        kbest = kv[sub[i]];
                        keep = sub[i];
                    }
                if (keep >= 0 && (pick < 0 || kbest > best)) {
                    int kept = 0;
                    for (int f = 0; f < FACES; f++) {
                        c[f] = t->counts[keep * FACES + f];
                        kept += c[f];
                    }
                    for (int i = kept; i < dice; i++) c[die(&rng) - 1]++;
                    level--;
                    continue;
                }
            }
            row[G_RNG] = (int64_t)rng;
            if (pick < 0) return -1;
            fill_row(t, row, mask, 0, (int)gu, r, pick, NULL);
            row[G_Y] = 0; /* no extra bonus with saved rolls: y is not followed */
            saved[idx[j]] = level < L->ns_next ? level : L->ns_next - 1;
            break;
        }
    }
    return 0;
}
