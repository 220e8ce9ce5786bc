/* One turn's values: the plan of a state's fills, the scratch memory of a thread, and
 * turn_block, which computes a turn for LANES upper sums of one set of filled boxes at a
 * time, one per lane of a vector (the table build and the simulation fill every lane,
 * advice one). Inline here for the loops of turn.c, simulate.c, outcomes.c and
 * remaining.c. */
#ifndef YATZY_TURN_H
#define YATZY_TURN_H

#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "transition.h"

/* What filling each allowed box is worth in state (mask, y), before the upper sum is
 * known: fills that lead to the same next mask and y with the same upper points share a
 * row. Entry e of the i-th allowed box is worth entry_gain[e] + row box_row[i] +
 * entry_key[e]; five of a kind of face f in box b is worth gain5[f * nb + b] + row
 * group5[f * nb + b] (group -1: forbidden). */
typedef struct {
    int nrow, nallowed;
    int *row_mask, *row_y, *row_up; /* [ne + 6 nb] */
    double *gain5;                  /* [6 nb] */
    int *group5;                    /* [6 nb] */
    int abox[32];                   /* the allowed boxes */
    int box_row[32];                /* the first row of each */
} Plan;

/* LANES doubles, one per upper sum, handled as one value (GCC's vector extension: one
 * AVX2 register, or two SSE2 registers). Single-state work uses lane 0. */
typedef double vd __attribute__((vector_size(LANES * sizeof(double))));

typedef long long vl __attribute__((vector_size(LANES * sizeof(long long))));

/* The larger of a and b, lane by lane (no NaN here: see NEG); b when they are equal. */
#if LANES == 8
#include <immintrin.h>
/* AVX-512's MAXPD makes the same choice in one instruction (turn_wide.c). */
INLINE vd vmax(vd a, vd b) { return (vd)_mm512_max_pd((__m512d)a, (__m512d)b); }
#else
INLINE vd vmax(vd a, vd b) {
    vl more = a > b;
    return (vd)((more & (vl)a) | (~more & (vl)b));
}
#endif
INLINE vd splat(double x) {
    vd v;
    for (int q = 0; q < LANES; q++) v[q] = x;
    return v;
}

/* Scratch memory of one thread. */
typedef struct {
    Plan plan;
    vd *rows; /* [ne + 6 nb]: a row's value */
    vd *ev;   /* [ne]: an entry's value */
    vd *ev5;  /* [6 nb]: five of a kind's value in each box */
    vd *S;    /* [nr]: the best box per roll */
    vd *A;    /* [nk]: keeps, then the rolls' values */
    vd *snap; /* [rolls - 1][nk]: the keeps of each number of rerolls left (simulation; the
               * first first_roll of each, the keeps smaller than a roll) */
    int32_t *picks; /* [rolls][nr][LANES]: the first best option (block_picks) */
    void *block;
} Scratch;

/* The scratch memory of one thread, zeroed (free s->block): scratch_init, and the wide
 * table build's own (turn_wide.c). Returns 0, or -1 when out of memory. */
INLINE int scratch_alloc(const Kernels *t, Scratch *s) {
    size_t nrows = (size_t)t->ne + FACES * t->nb;
    /* ev has one entry more: rolls that make no entry (five of a kind) read entry 0 (see
     * Kernels.entry_by_roll), which exists even when no roll makes an entry. */
    size_t vecs = nrows + (t->ne + 1) + FACES * t->nb + t->nr + (size_t)t->rolls * t->nk;
    size_t doubles = t->ne + FACES * t->nb;
    size_t ints = 3 * nrows + t->ne + FACES * t->nb + (size_t)t->rolls * t->nr * LANES;
    size_t bytes = vecs * sizeof(vd) + doubles * sizeof(double) + ints * sizeof(int);
    bytes = (bytes + 63) / 64 * 64;
    char *p = aligned_alloc(64, bytes);
    if (!p) return -1;
    memset(p, 0, bytes);
    s->block = p;
    vd *v = (vd *)p;
    s->rows = v; v += nrows;
    s->ev = v; v += t->ne + 1;
    s->ev5 = v; v += FACES * t->nb;
    s->S = v; v += t->nr;
    s->A = v; v += t->nk;
    s->snap = v; v += (size_t)(t->rolls - 1) * t->nk;
    double *d = (double *)v;
    s->plan.gain5 = d; d += FACES * t->nb;
    int *i = (int *)d;
    s->plan.row_mask = i; i += nrows;
    s->plan.row_y = i; i += nrows;
    s->plan.row_up = i; i += nrows;
    s->plan.group5 = i; i += t->ne + FACES * t->nb;
    s->picks = i;
    return 0;
}

/* The scratch memory of one thread, zeroed; scratch_free frees it. Returns 0, or -1 when
 * out of memory. */
int scratch_init(const Kernels *t, Scratch *s);
void scratch_free(Scratch *s);
/* The plan of state (mask, y), a state of the tables, into *p. */
void make_plan(const Kernels *t, int mask, int y, Plan *p);
/* The table build: V of jobs start, start + step, ... before stop (states of the tables,
 * with their successors' values in V). */
void solve_jobs(const Kernels *t, Scratch *s, const int32_t *jobs_mask, const int32_t *jobs_y,
                ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step);
/* The layers of a ruleset with saved rolls (see saved.c): the values of a layer of sets
 * of filled boxes from those of the next one, per state (mask, u, s) with s saved rolls
 * at the turn's start. */
typedef struct {
    const float *next;       /* [next_masks][stride][ns_next]: the next layer's values */
    const int32_t *rank;     /* [1 << nb]: a mask's row in next (checked where read) */
    const float *optimistic; /* [next_masks][stride] or NULL: see saved.c */
    int64_t next_masks;
    int ns_next, ns;
    float *out; /* [jobs][stride][ns] */
} SavedLayer;
/* The states of jobs start, start + step, ... before stop into L->out (row j for job j).
 * Returns 0, or -1 when out of memory. */
int saved_jobs(const Kernels *t, Scratch *s, const SavedLayer *L, const int32_t *jobs,
               ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step);
/* One state's turn with saved rolls, for advice and the simulation: for each level m =
 * 0 .. levels - 1 (m rerolls still to use after the roll), the box values bv[m][ne + 6
 * nb] (see box_value) of stopping there (s' = m saved, or as the layer caps them) and
 * keeps[m][nk], the value of keeping k with m rerolls left before the reroll (level 0:
 * NEG). Returns 0, or -1 when out of memory. */
int saved_turn(const Kernels *t, Scratch *s, const SavedLayer *L, int mask, int u, int levels,
               double *bv, double *keeps, int64_t *abox, int *nallowed);

/* One turn of the games idx[0 .. n - 1] of `rows` in state (mask, 0, u) with saved
 * rolls, from saved_turn's tables: see saved.c. Returns 0, -1 or -3. */
int saved_play(const Kernels *t, const SavedLayer *L, int mask, int u, int levels,
               const double *bv, const double *keeps, const int64_t *abox, int nallowed,
               int64_t *rows, int64_t *saved, const int64_t *idx, ptrdiff_t n);

/* Advice's turn tables of state (mask, y, u): the box values bv (see box_value) and the
 * keeps of each number of rerolls (see turn_block). */
void turn_tables(const Kernels *t, Scratch *s, int mask, int y, int u, int rerolls,
                 double *bv, double *keeps);

/* turn_tables on plain doubles, for one state (advice): the same values to the last bit,
 * in less time. The plan goes in *p; `work` holds ne + 6 nb + nr doubles. With 0
 * rerolls only the box values bv are made (keeps is not read or written). */
void turn_single(const Kernels *t, Plan *p, double *work, int mask, int y, int u, int rerolls,
                 double *bv, double *keeps);

/* Expect: keep k is worth the mean over the die added to it (A's rolls hold the values
 * after the roll). */
INLINE void expect_pass(const Kernels *t, vd *restrict A) {
    for (int k = t->first_roll - 1; k >= 0; k--) {
        const int32_t *c = t->child + k * FACES;
        A[k] = (A[c[0]] + A[c[1]] + A[c[2]] + A[c[3]] + A[c[4]] + A[c[5]]) * (1.0 / 6.0);
    }
}

/* Best keep, in place: a keep is worth the best of itself and its parts; a roll the best
 * of stopping (S, the best box of each roll) and its proper parts. Parts come first. */
INLINE void best_keep_pass(const Kernels *t, vd *restrict A, const vd *restrict S) {
    const int fr = t->first_roll;
    const int32_t *kp = t->best_keep, *pp = t->best_par;
    for (int g = 0; g < t->ngroups; g++) {
        const int n = t->group_len[g], roll = t->group_roll[g];
        switch (t->group_par[g]) {
#define BEST_RUN(C)                                                                     \
    case C:                                                                             \
        for (int q = 0; q < n; q++, pp += C) {                                          \
            const int k = kp[q];                                                        \
            vd out = roll ? S[k - fr] : A[k];                                           \
            for (int j = 0; j < C; j++) out = vmax(out, A[pp[j]]);                      \
            A[k] = out;                                                                 \
        }                                                                               \
        break;
            /* best_keep_order makes runs of 1 to FACES parents only. */
            BEST_RUN(1) BEST_RUN(2) BEST_RUN(3) BEST_RUN(4) BEST_RUN(5) BEST_RUN(6)
#undef BEST_RUN
        }
        kp += n;
    }
}

/* The passes of a turn after the best box of every roll (sc->S): A[first_roll + r] ends
 * as the value of roll r with `rerolls` rerolls left, unless the keeps are asked for (see
 * turn_block), which need one pass less. */
INLINE void turn_passes(const Kernels *t, Scratch *sc, int rerolls, double *restrict keeps,
                        int snap) {
    const int nr = t->nr, nk = t->nk, fr = t->first_roll;
    vd *restrict S = sc->S, *restrict A = sc->A;
    for (int r = 0; r < nr; r++) A[fr + r] = S[r];
    for (int s = 0; s < rerolls; s++) {
        expect_pass(t, A);
        /* The keeps smaller than a roll: the options after a roll (sub_keeps). */
        if (snap) memcpy(sc->snap + (size_t)s * nk, A, sizeof(vd) * (size_t)t->first_roll);
        if (keeps)
            for (int k = 0; k < nk; k++) keeps[(size_t)s * nk + k] = A[k][0];
        /* The table build needs the rolls' values after every step; advice and the
         * simulation only the keeps of the last. */
        if (s + 1 < rerolls || !(keeps || snap)) best_keep_pass(t, A, S);
    }
}

/* The entries' values (sc->ev, sc->ev5) and the best box of every roll (sc->S) from the
 * rows (sc->rows: a row's value, the plan made); lane 0's box values into bv when asked
 * (see box_value). */
INLINE void best_boxes(const Kernels *t, Scratch *sc, double *restrict bv) {
    const Plan *p = &sc->plan;
    const int nr = t->nr, nb = t->nb;
    vd *restrict rows = sc->rows, *restrict ev = sc->ev, *restrict ev5 = sc->ev5,
       *restrict S = sc->S;
    const vd neg = splat(NEG);
    /* Entries: a row and a gain. */
    for (int i = 0; i < p->nallowed; i++) {
        int b = p->abox[i];
        const vd *box_rows = rows + p->box_row[i];
        for (int e = t->box_start[b]; e < t->box_start[b + 1]; e++)
            ev[e] = box_rows[t->entry_key[e]] + t->entry_gain[e];
        for (int f = 0; f < FACES; f++) {
            int j = f * nb + b;
            ev5[j] = p->group5[j] >= 0 ? rows[p->group5[j]] + p->gain5[j] : neg;
        }
    }
    if (bv) {
        for (int e = 0; e < t->ne + FACES * nb; e++) bv[e] = NEG;
        for (int i = 0; i < p->nallowed; i++) {
            int b = p->abox[i];
            for (int e = t->box_start[b]; e < t->box_start[b + 1]; e++) bv[e] = ev[e][0];
            for (int f = 0; f < FACES; f++) bv[t->ne + f * nb + b] = ev5[f * nb + b][0];
        }
    }
    /* The best box for every roll, two maxima at a time (the same maximum, in whatever
     * order it is taken). */
    const int na = p->nallowed;
    for (int r = 0; r < nr; r++) {
        const int32_t *row = t->entry_by_roll + (size_t)r * nb;
        vd out = neg, out2 = neg;
        int i = 0;
        for (; i + 1 < na; i += 2) {
            out = vmax(out, ev[row[p->abox[i]]]);
            out2 = vmax(out2, ev[row[p->abox[i + 1]]]);
        }
        if (i < na) out = vmax(out, ev[row[p->abox[i]]]);
        S[r] = vmax(out, out2);
    }
    for (int f = 0; f < FACES; f++) {
        vd out = neg;
        for (int i = 0; i < p->nallowed; i++) out = vmax(out, ev5[f * nb + p->abox[i]]);
        S[t->five_rolls[f]] = out;
    }
}

/* The values of a turn in state (mask, y) for the upper sums lane_u[0 .. LANES - 1], the
 * plan made: A[first_roll + r] ends as the value of roll r with `rerolls` rerolls left
 * (the first roll's), unless the keeps are asked for, which need one pass less. Keeps
 * are asked for as lane 0's box values bv (see box_value) and keeps[s * nk + k] (the
 * value of keeping k with s rerolls left after the roll), or, with `snap`, as every
 * lane's in sc->snap[s * nk + k] (sc->ev and sc->ev5 then hold the box values). */
INLINE void turn_block(const Kernels *t, Scratch *sc, const int *lane_u, int rerolls,
                       double *restrict bv, double *restrict keeps, int snap) {
    const Plan *p = &sc->plan;
    vd *restrict rows = sc->rows;
    /* Rows: the upper bonus and the next state's value. */
    for (int g = 0; g < p->nrow; g++) {
        const double *after = t->V + ((size_t)p->row_mask[g] * t->y_count + p->row_y[g])
                                         * t->stride;
        vd v;
        for (int q = 0; q < LANES; q++) {
            int u2;
            int bonus = add_upper(t, lane_u[q], p->row_up[g], &u2);
            v[q] = bonus + after[u2];
        }
        rows[g] = v;
    }
    best_boxes(t, sc, bv);
    turn_passes(t, sc, rerolls, keeps, snap);
}

/* The table build's loop (solve_jobs): each job's state for all its upper sums, LANES
 * at a time, into V. */
INLINE void solve_range(const Kernels *t, Scratch *s, const int32_t *jobs_mask,
                        const int32_t *jobs_y, ptrdiff_t start, ptrdiff_t stop,
                        ptrdiff_t step) {
    double result[LANES_MAX + LANES];
    for (ptrdiff_t j = start; j < stop; j += step) {
        int mask = jobs_mask[j], y = jobs_y[j];
        int um = upper_mask(t, mask);
        int nl = t->lane_count[um];
        const int32_t *lanes = t->lanes + (size_t)um * t->stride;
        make_plan(t, mask, y, &s->plan);
        for (int q0 = 0; q0 < nl; q0 += LANES) {
            int lu[LANES];
            for (int q = 0; q < LANES; q++) lu[q] = lanes[q0 + q < nl ? q0 + q : nl - 1];
            turn_block(t, s, lu, t->rolls - 1, NULL, NULL, 0);
            vd sum = splat(0.0);
            const vd *rolls = s->A + t->first_roll;
            for (int r = 0; r < t->nr; r++) sum += t->roll_prob[r] * rolls[r];
            for (int q = 0; q < LANES; q++) result[q0 + q] = sum[q];
        }
        double *out = t->V + ((size_t)mask * t->y_count + y) * t->stride;
        const int32_t *lane_of = t->lane_of + (size_t)um * t->stride;
        for (int u = 0; u <= t->threshold; u++)
            if (lane_of[u] >= 0) out[u] = result[lane_of[u]];
    }
}

/* What a fill leading to state (mask2, y2) with `up` upper points is worth from upper sum
 * u, before its gain: the upper bonus and the next state's value (a row of a plan, as
 * turn_block adds them). */
INLINE double after_value(const Kernels *t, int mask2, int y2, int u, int up) {
    int u2;
    const int bonus = add_upper(t, u, up, &u2);
    return bonus + t->V[((size_t)mask2 * t->y_count + y2) * t->stride + u2];
}

/* The value of filling box b with roll r in state (mask, y, u), as turn_block's entries
 * give it (the same sums in the same order), or NEG when the rules forbid it: without a
 * plan, for one roll. */
INLINE double fill_value(const Kernels *t, int mask, int y, int u, int r, int b) {
    if (!((t->allowed[mask] >> b) & 1)) return NEG;
    if (t->five_of[r] >= 0) {
        int extra, m2, y2, up;
        const int points = fill_box(t, mask, y, r, b, &extra, &m2, &y2, &up);
        return points >= 0 ? after_value(t, m2, y2, u, up) + (double)(points + extra) : NEG;
    }
    const int e = t->entry_of[(size_t)b * t->nr + r], k = t->key_start[b] + t->entry_key[e];
    return after_value(t, mask | (1 << b), t->key_y[k] ? 1 : y, u, t->key_up[k])
           + t->entry_gain[e];
}

/* Ask the memory for what a turn in state (mask, y, u) reads first (the values after its
 * fills, and five of a kind's points), without waiting for it. */
INLINE void prefetch_turn(const Kernels *t, int mask, int y, int u) {
    const int allowed = t->allowed[mask];
    const int8_t *five = t->five_points + (size_t)mask * FACES * t->nb;
    __builtin_prefetch(five);
    __builtin_prefetch(five + FACES * t->nb - 1);
    for (int b = 0; b < t->nb; b++) {
        if (!((allowed >> b) & 1)) continue;
        const size_t m2 = (size_t)(mask | (1 << b)) * t->y_count;
        for (int k = t->key_start[b]; k < t->key_start[b + 1]; k++) {
            const int y2 = t->key_y[k] ? 1 : y, up = u + t->key_up[k];
            __builtin_prefetch(t->V + (m2 + y2) * t->stride
                               + (up < t->threshold ? up : t->threshold));
        }
    }
}

/* Like turn_block with snap, for LANES games in any states: lane q's state is
 * (lane_mask[q], lane_y[q], lane_u[q]), a state of the tables. The entries are worked out
 * lane by lane without a plan (NEG where a lane's state does not allow a box), and the
 * passes are shared: every lane's values are those turn_block gives its state, to the
 * last bit (the same sums in the same order, and maxima over the same values, NEG
 * aside). The keys' values go in sc->rows (lane q of row key_start[b] + key). */
INLINE void turn_mixed(const Kernels *t, Scratch *sc, const int *lane_mask,
                       const int *lane_y, const int *lane_u, int rerolls) {
    const int nr = t->nr, nb = t->nb;
    vd *restrict rows = sc->rows, *restrict ev = sc->ev, *restrict ev5 = sc->ev5,
       *restrict S = sc->S;
    const vd neg = splat(NEG);
    int any = 0; /* the boxes some lane allows */
    for (int q = 0; q < LANES; q++) any |= t->allowed[lane_mask[q]];
    int ub[32], nu = 0;
    for (int b = 0; b < nb; b++)
        if ((any >> b) & 1) ub[nu++] = b;
    for (int q = 0; q < LANES; q++) {
        const int mask = lane_mask[q], y = lane_y[q], u = lane_u[q];
        const int allowed = t->allowed[mask];
        for (int i = 0; i < nu; i++) {
            const int b = ub[i];
            if (!((allowed >> b) & 1)) {
                for (int e = t->box_start[b]; e < t->box_start[b + 1]; e++) ev[e][q] = NEG;
                for (int f = 0; f < FACES; f++) ev5[f * nb + b][q] = NEG;
                continue;
            }
            const int k0 = t->key_start[b];
            for (int k = k0; k < t->key_start[b + 1]; k++)
                rows[k][q] = after_value(t, mask | (1 << b), t->key_y[k] ? 1 : y, u,
                                         t->key_up[k]);
            for (int e = t->box_start[b]; e < t->box_start[b + 1]; e++)
                ev[e][q] = rows[k0 + t->entry_key[e]][q] + t->entry_gain[e];
            for (int f = 0; f < FACES; f++) {
                int extra, m2, y2, up;
                const int points = fill_box(t, mask, y, t->five_rolls[f], b, &extra, &m2, &y2,
                                            &up);
                ev5[f * nb + b][q] = points >= 0 ? after_value(t, m2, y2, u, up)
                                                       + (double)(points + extra)
                                                 : NEG;
            }
        }
    }
    if (rerolls <= 0) return;
    for (int r = 0; r < nr; r++) {
        /* Two maxima at a time (the same maximum, in whatever order it is taken). */
        const int32_t *row = t->entry_by_roll + (size_t)r * nb;
        vd out = neg, out2 = neg;
        int i = 0;
        for (; i + 1 < nu; i += 2) {
            out = vmax(out, ev[row[ub[i]]]);
            out2 = vmax(out2, ev[row[ub[i + 1]]]);
        }
        if (i < nu) out = vmax(out, ev[row[ub[i]]]);
        S[r] = vmax(out, out2);
    }
    for (int f = 0; f < FACES; f++) {
        vd out = neg;
        for (int i = 0; i < nu; i++) out = vmax(out, ev5[f * nb + ub[i]]);
        S[t->five_rolls[f]] = out;
    }
    turn_passes(t, sc, rerolls, NULL, 1);
}

/* The value of filling box b with roll r, from a turn's box values bv: ne entries, then
 * five of a kind of each face in each box. */
INLINE double box_value(const Kernels *t, const double *bv, int r, int b) {
    int f = t->five_of[r];
    return f >= 0 ? bv[t->ne + f * t->nb + b] : bv[t->entry_of[(size_t)b * t->nr + r]];
}

/* The options of roll r with `left` rerolls left, from lane q of a turn's values in the
 * scratch memory (entries ev and ev5, keeps snap: see turn_block), in the order advice
 * lists them before sorting: the allowed boxes (what[i] = b), then the keeps (what[i] =
 * nb + k). Their values in opt; returns how many. The first best is the optimal play. */
INLINE int turn_options(const Kernels *t, const Scratch *sc, int r, int left, int q,
                        double *opt, int *what) {
    const Plan *p = &sc->plan;
    const int nb = t->nb, nr = t->nr;
    int no = 0;
    const int f = t->five_of[r];
    for (int i = 0; i < p->nallowed; i++) {
        const int b = p->abox[i];
        double v = f >= 0 ? sc->ev5[f * nb + b][q] : sc->ev[t->entry_of[(size_t)b * nr + r]][q];
        if (v > NEG / 2) {
            opt[no] = v;
            what[no++] = b;
        }
    }
    if (left > 0) {
        const vd *kv = sc->snap + (size_t)(left - 1) * t->nk;
        for (int i = 0; i < t->sub_count[r]; i++) {
            int k = t->sub_keeps[r * t->sub_width + i];
            opt[no] = kv[k][q];
            what[no++] = nb + k;
        }
    }
    return no;
}

/* best_option of every roll with each number of rerolls left (0 .. rolls - 1), for every
 * lane at once, into sc->picks[(left * nr + r) * LANES + q], from turn_block's values with
 * snap: the same choices, the same values compared in the same order, without a branch
 * on them. (A box worth at most NEG / 2 is no option: starting from NEG / 2, a box is
 * taken only when it is worth more; a keep also when nothing is taken yet.) */
INLINE void block_picks(const Kernels *t, Scratch *sc) {
    const Plan *p = &sc->plan;
    const int nb = t->nb, nr = t->nr;
    for (int left = 0; left < t->rolls; left++) {
        const vd *kv = left > 0 ? sc->snap + (size_t)(left - 1) * t->nk : NULL;
        for (int r = 0; r < nr; r++) {
            vd best = splat(NEG / 2);
            vl pick = (vl)(best != best) - 1; /* -1 in every lane */
            const int f = t->five_of[r];
            for (int i = 0; i < p->nallowed; i++) {
                const int b = p->abox[i];
                const vd v = f >= 0 ? sc->ev5[f * nb + b] : sc->ev[t->entry_of[(size_t)b * nr + r]];
                const vl take = (vl)(v > best);
                best = vmax(v, best);
                pick = (take & b) | (~take & pick);
            }
            if (kv) {
                const int32_t *sub = t->sub_keeps + (size_t)r * t->sub_width;
                for (int i = 0; i < t->sub_count[r]; i++) {
                    const vd v = kv[sub[i]];
                    const vl take = (vl)(v > best) | (pick < 0);
                    best = (vd)((take & (vl)v) | (~take & (vl)best));
                    pick = (take & (nb + sub[i])) | (~take & pick);
                }
            }
            int32_t *out = sc->picks + ((size_t)left * nr + r) * LANES;
            for (int q = 0; q < LANES; q++) out[q] = (int32_t)pick[q];
        }
    }
}

/* The first best of turn_options(t, sc, r, left, q), without listing them: the optimal
 * play (-1 when there is no option), for the simulation and the score distributions. */
INLINE int best_option(const Kernels *t, const Scratch *sc, int r, int left, int q) {
    const Plan *p = &sc->plan;
    const int nb = t->nb, nr = t->nr;
    int pick = -1;
    double best = NEG;
    const int f = t->five_of[r];
    for (int i = 0; i < p->nallowed; i++) {
        const int b = p->abox[i];
        double v = f >= 0 ? sc->ev5[f * nb + b][q] : sc->ev[t->entry_of[(size_t)b * nr + r]][q];
        if (v > NEG / 2 && (pick < 0 || v > best)) {
            best = v;
            pick = b;
        }
    }
    if (left > 0) {
        const vd *kv = sc->snap + (size_t)(left - 1) * t->nk;
        const int32_t *sub = t->sub_keeps + r * t->sub_width;
        for (int i = 0; i < t->sub_count[r]; i++) {
            double v = kv[sub[i]][q];
            if (pick < 0 || v > best) {
                best = v;
                pick = nb + sub[i];
            }
        }
    }
    return pick;
}

#endif
