/* The solver's inner loops, compiled when the package is installed.
 *
 * One object, Kernels, holds a ruleset's tables (yatzy.solver.model.Tables, read once
 * through the buffer protocol) and its value table V[mask][y][u]. Everything below reads
 * the rules only through those tables; the transition (filling a box: its points with the
 * Joker rules, the extra-Yahtzee bonus, the upper bonus and the next state) is fill_box
 * and add_upper, and only there.
 *
 * A turn's values are computed by one routine, turn_block, for LANES upper sums of one
 * set of filled boxes at a time, one per lane of a vector: the table build and the
 * simulation fill every lane, advice one. Long loops release the GIL: Python threads run
 * the build in parallel, and the simulation runs its own threads (play_games).
 *
 * Names: R rolls (multisets of all dice), K keeps (multisets of 0 .. all dice, rolls last,
 * from index first_roll), nb boxes, E entries (see Tables).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

/* The value of no option (see kernels.NEG): finite, so low that a sum with it stays below
 * NEG / 2. */
#define NEG (-1.0e18)
#define FACES 6
/* Lanes per block in the table build: one AVX2 vector of doubles. */
#define LANES 4

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define HOT __attribute__((target_clones("avx2", "default")))
#else
#define HOT
#endif
#define INLINE static inline __attribute__((always_inline))

enum {
    A_SCORE, A_ALLOWED, A_FIVE_POINTS, A_FIVE_ROLLS, A_FIVE_OF, A_EXTRA, A_IS_UPPER,
    A_ENTRY_OF, A_ENTRY_BOX, A_ENTRY_ROLL, A_CHILD, A_PARENT_START, A_PARENT_LIST,
    A_ROLL_PROB, A_SUB_KEEPS, A_SUB_COUNT, A_COUNTS, A_CODE_TO_KEEP, A_LANES,
    A_LANE_COUNT, A_LANE_OF, A_UPPER_BIT, A_POSSIBLE, A_V, N_ARRAYS
};

typedef struct {
    PyObject_HEAD
    /* Sizes and numbers. */
    int nr, nb, nk, ne, first_roll, dice, rolls, threshold, bonus, yahtzee_box, y_points,
        y_count, sub_width, nu;
    int stride; /* threshold + 1 */
    /* Tables (views into the buffers below). */
    const int32_t *score;        /* [nr][nb] */
    const int32_t *allowed;      /* [1 << nb] */
    const int8_t *five_points;   /* [1 << nb][6][nb] */
    const int32_t *five_rolls;   /* [6] */
    const int32_t *five_of;      /* [nr] */
    const int32_t *extra;        /* [y_count][6] */
    const int32_t *is_upper;     /* [nb] */
    const int32_t *entry_of;     /* [nb][nr] */
    const int32_t *entry_box;    /* [ne] */
    const int32_t *entry_roll;   /* [ne] */
    const int32_t *child;        /* [nk][6] */
    const int32_t *parent_start; /* [nk + 1] */
    const int32_t *parent_list;  /* [parent_start[nk]] */
    const double *roll_prob;     /* [nr] */
    const int32_t *sub_keeps;    /* [nr][sub_width] */
    const int32_t *sub_count;    /* [nr] */
    const int32_t *counts;       /* [nk][6] */
    const int32_t *code_to_keep; /* [(dice + 1) ** 6] */
    const int32_t *lanes;        /* [1 << nu][stride] */
    const int32_t *lane_count;   /* [1 << nu] */
    const int32_t *lane_of;      /* [1 << nu][stride] */
    const int32_t *upper_bit;    /* [nb] */
    const uint64_t *possible;    /* [nb][pw]: bit p of box b's row, when it can hold p */
    int pw;                      /* words per box in possible */
    double *V;                   /* [1 << nb][y_count][stride] */
    /* Made here: entry_of roll by roll, with five of a kind reading entry 0 ([nr][nb]),
     * and each box's first entry ([nb + 1]). */
    int32_t *entry_by_roll;
    int32_t *box_start;
    /* The order of the best-keep pass: keeps 1 .. nk - 1 by number of dice (parts come
     * first), and among as many dice by number of parents, in runs (groups) of keeps
     * with as many parents, so that the inner loop has a fixed length in a run.
     * best_keep[i] is the i-th keep, best_par its parents one after the other; run g
     * has group_len[g] keeps of group_par[g] parents each, rolls when group_roll[g]. */
    int32_t *best_keep;
    int32_t *best_par;
    int32_t *group_len;
    int32_t *group_par;
    int32_t *group_roll;
    int ngroups;
    /* What fill_box gives each entry, read once (entries fill alike whatever the mask
     * that allows their box): its points, and which of its box's keys (upper points and
     * whether it makes y = 1) it has: entry_key[e], keys key_start[b] .. key_start[b + 1]
     * - 1 with key_up and key_y. */
    double *entry_gain;
    int32_t *entry_key;
    int32_t *key_start;
    int32_t *key_up;
    int32_t *key_y;
    /* Scratch memory of the calls that keep the GIL (turn, advise): one at a time. */
    void *scratch;
    /* advise's turn tables of the state it was last asked (adv_mask -1: none): the
     * allowed boxes, the box values by entry, the keeps of each number of rerolls. */
    int adv_mask, adv_y, adv_u, adv_n;
    int64_t *adv_abox;
    double *adv_values, *adv_keeps;
    Py_buffer views[N_ARRAYS];
    int nviews;
} Kernels;

/* --- The transition ---------------------------------------------------------------- */

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

/* --- One turn ---------------------------------------------------------------------- */

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

/* The larger of a and b, lane by lane (no NaN here: see NEG). */
INLINE vd vmax(vd a, vd b) {
    vl more = a > b;
    return (vd)((more & (vl)a) | (~more & (vl)b));
}
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
    vd *snap; /* [rolls - 1][nk]: the keeps of each number of rerolls left (simulation) */
    void *block;
} Scratch;

static int scratch_init(const Kernels *t, Scratch *s) {
    size_t nrows = (size_t)t->ne + FACES * t->nb;
    size_t vecs = nrows + t->ne + FACES * t->nb + t->nr + (size_t)t->rolls * t->nk;
    size_t doubles = t->ne + FACES * t->nb;
    size_t ints = 3 * nrows + t->ne + FACES * t->nb;
    size_t bytes = vecs * sizeof(vd) + doubles * sizeof(double) + ints * sizeof(int);
    bytes = (bytes + 63) / 64 * 64;
    char *p = aligned_alloc(64, bytes);
    if (!p) return -1;
    memset(p, 0, bytes);
    s->block = p;
    vd *v = (vd *)p;
    s->rows = v; v += nrows;
    s->ev = v; v += t->ne;
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
    s->plan.group5 = i;
    return 0;
}

static void make_plan(const Kernels *t, int mask, int y, Plan *p) {
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

/* The values of a turn in state (mask, y) for the upper sums lane_u[0 .. LANES - 1], the
 * plan made: A[first_roll + r] ends as the value of roll r with `rerolls` rerolls left
 * (the first roll's), unless the keeps are asked for, which need one pass less. Keeps
 * are asked for as lane 0's box values bv (see box_value) and keeps[s * nk + k] (the
 * value of keeping k with s rerolls left after the roll), or, with `snap`, as every
 * lane's in sc->snap[s * nk + k] (sc->ev and sc->ev5 then hold the box values). */
INLINE void turn_block(const Kernels *t, Scratch *sc, const int *lane_u, int rerolls,
                       double *restrict bv, double *restrict keeps, int snap) {
    const Plan *p = &sc->plan;
    const int nr = t->nr, nb = t->nb, nk = t->nk, fr = t->first_roll;
    vd *restrict rows = sc->rows, *restrict ev = sc->ev, *restrict ev5 = sc->ev5,
       *restrict S = sc->S, *restrict A = sc->A;
    const vd neg = splat(NEG);
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
    /* The best box for every roll. */
    const int na = p->nallowed;
    for (int r = 0; r < nr; r++) {
        const int32_t *row = t->entry_by_roll + (size_t)r * nb;
        vd out = neg;
        for (int i = 0; i < na; i++) out = vmax(out, ev[row[p->abox[i]]]);
        S[r] = out;
    }
    for (int f = 0; f < FACES; f++) {
        vd out = neg;
        for (int i = 0; i < p->nallowed; i++) out = vmax(out, ev5[f * nb + p->abox[i]]);
        S[t->five_rolls[f]] = out;
    }
    for (int r = 0; r < nr; r++) A[fr + r] = S[r];
    for (int s = 0; s < rerolls; s++) {
        /* Expect: keep k is worth the mean over the die added to it. */
        for (int k = fr - 1; k >= 0; k--) {
            const int32_t *c = t->child + k * FACES;
            A[k] = (A[c[0]] + A[c[1]] + A[c[2]] + A[c[3]] + A[c[4]] + A[c[5]]) * (1.0 / 6.0);
        }
        if (snap) memcpy(sc->snap + (size_t)s * nk, A, sizeof(vd) * nk);
        if (keeps)
            for (int k = 0; k < nk; k++) keeps[(size_t)s * nk + k] = A[k][0];
        /* The table build needs the rolls' values after every step; advice and the
         * simulation only the keeps of the last. */
        if (s + 1 < rerolls || !(keeps || snap)) {
            /* Best keep, in place: a keep is worth the best of itself and its parts; a
             * roll the best of stopping and its proper parts. Parts come first. */
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
    }
}

/* --- The table build --------------------------------------------------------------- */

static int upper_mask(const Kernels *t, int mask) {
    int um = 0;
    for (int b = 0; b < t->nb; b++)
        if ((mask >> b) & 1) um |= t->upper_bit[b];
    return um;
}

HOT static void solve_jobs(const Kernels *t, Scratch *s, const int32_t *jobs_mask,
                           const int32_t *jobs_y, Py_ssize_t start, Py_ssize_t stop,
                           Py_ssize_t step) {
    double result[64 + LANES];
    for (Py_ssize_t j = start; j < stop; j += step) {
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

/* --- Advice and simulation: one state's turn --------------------------------------- */

HOT static void turn_tables(const Kernels *t, Scratch *s, int mask, int y, int u,
                            int rerolls, double *bv, double *keeps) {
    int lu[LANES];
    for (int q = 0; q < LANES; q++) lu[q] = u;
    make_plan(t, mask, y, &s->plan);
    turn_block(t, s, lu, rerolls, bv, keeps, 0);
}

/* The value of filling box b with roll r, from a turn's box values bv: ne entries, then
 * five of a kind of each face in each box. */
INLINE double box_value(const Kernels *t, const double *bv, int r, int b) {
    int f = t->five_of[r];
    return f >= 0 ? bv[t->ne + f * t->nb + b] : bv[t->entry_of[(size_t)b * t->nr + r]];
}

static int roll_of_counts(const Kernels *t, const int *c) {
    int code = 0;
    for (int f = FACES - 1; f >= 0; f--) code = code * (t->dice + 1) + c[f];
    return t->code_to_keep[code] - t->first_roll;
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

/* The option chosen among vals[0 .. n - 1]: the first best at temperature 0, else drawn
 * with probability proportional to exp(value / temperature). */
static int choose(const double *vals, int n, double temperature, double draw) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (vals[i] > vals[best]) best = i;
    if (temperature <= 0.0) return best;
    double total = 0.0;
    for (int i = 0; i < n; i++) total += exp((vals[i] - vals[best]) / temperature);
    double target = draw * total, acc = 0.0;
    for (int i = 0; i < n; i++) {
        acc += exp((vals[i] - vals[best]) / temperature);
        if (acc >= target) return i;
    }
    return best;
}

/* Columns of a game's row in `state`. */
enum { G_MASK, G_Y, G_U, G_TOTAL, G_FIVE_BOX, G_EXTRAS, G_RNG, G_COLS };

/* Fill `box` of the game in `row` (in state mask, y, u) with `roll`, a box the rules
 * allow: the row's state, total and counts move on. Returns the points gained (the
 * box's, in *points when asked, and the bonuses). */
INLINE int fill_row(const Kernels *t, int64_t *row, int m, int y, int u, int roll, int box,
                    int *points) {
    int extra, m2, y2, up, u2;
    int p = fill_box(t, m, y, roll, box, &extra, &m2, &y2, &up);
    int bonus = add_upper(t, u, up, &u2);
    row[G_TOTAL] += p + extra + bonus;
    if (extra > 0) row[G_EXTRAS] += 1;
    if (box == t->yahtzee_box) row[G_FIVE_BOX] = p;
    row[G_MASK] = m2;
    row[G_Y] = y2;
    row[G_U] = u2;
    if (points) *points = p;
    return p + extra + bonus;
}

typedef struct {
    const int8_t *faces;    /* [games][nb][rolls][dice] or NULL: draw from the game's stream */
    const double *uniforms; /* [games][nb][rolls] or NULL */
    int64_t *choices;       /* [games][nb][rolls] or NULL */
    int64_t *history;       /* [games][nb + 1][4] or NULL: mask, y, u, total at each turn's
                             * start, and at the end */
    double temperature;
} PlaySource;

/* Sort idx[0 .. n - 1] by keys (below 1 << bits), stably: radix sort, 11 bits a pass. */
static void sort_by_key(int64_t *idx, int64_t *tmp, const uint32_t *keys, Py_ssize_t n,
                        int bits, Py_ssize_t *count) {
    for (int shift = 0; shift < bits; shift += 11) {
        memset(count, 0, sizeof(Py_ssize_t) * 2049);
        for (Py_ssize_t i = 0; i < n; i++) count[((keys[idx[i]] >> shift) & 2047) + 1]++;
        for (int b = 0; b < 2048; b++) count[b + 1] += count[b];
        for (Py_ssize_t i = 0; i < n; i++) tmp[count[(keys[idx[i]] >> shift) & 2047]++] = idx[i];
        memcpy(idx, tmp, sizeof(int64_t) * n);
    }
}

/* At temperature 0, the choice per lane, rolls left and roll, made once per state: valid
 * where its stamp is the current block's. */
typedef struct {
    int *pick;
    uint32_t *stamp;
    uint32_t now;
} Memo;

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

/* One turn of one game in state (m, y, u), from lane q of the turn's values in the
 * scratch memory (entries ev and ev5, keeps snap: see turn_block). Returns 0, or -1 when
 * the game had no option. */
INLINE int play_turn(const Kernels *t, const Scratch *sc, int64_t *row, Py_ssize_t game,
                     int turn, int m, int y, int u, int q, Memo *memo, double *opt,
                     int *what, const PlaySource *src) {
    const int nb = t->nb, nr = t->nr, rolls = t->rolls, dice = t->dice;
    const int rerolls = rolls - 1;
    const int greedy = src->temperature <= 0.0;
    uint64_t rng = (uint64_t)row[G_RNG];
    const int8_t *gf = src->faces ? src->faces + ((size_t)game * nb + turn) * rolls * dice : NULL;
    int64_t *chosen = src->choices ? src->choices + ((size_t)game * nb + turn) * rolls : NULL;
    int c[FACES] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < dice; i++) c[(gf ? gf[i] : die(&rng)) - 1]++;
    int left = rerolls, r = 0, pick = -1;
    for (;;) {
        r = roll_of_counts(t, c);
        const size_t slot = ((size_t)q * rolls + left) * nr + r;
        if (greedy && memo->stamp[slot] == memo->now) {
            pick = memo->pick[slot];
        } else if (greedy) {
            /* The optimal play, as the score distributions play it. */
            pick = best_option(t, sc, r, left, q);
            if (pick < 0) {
                row[G_RNG] = (int64_t)rng;
                return -1;
            }
            memo->pick[slot] = pick;
            memo->stamp[slot] = memo->now;
        } else {
            int no = turn_options(t, sc, r, left, q, opt, what);
            if (no == 0) {
                row[G_RNG] = (int64_t)rng;
                return -1;
            }
            double draw = src->uniforms
                              ? src->uniforms[((size_t)game * nb + turn) * rolls + rerolls - left]
                              : uniform(&rng);
            pick = what[choose(opt, no, src->temperature, draw)];
        }
        if (chosen) chosen[rerolls - left] = pick;
        if (pick < nb || left == 0) break;
        /* Reroll: keep pick - nb, throw the other dice. */
        int k = pick - nb, kept = 0, roll_no = rolls - left;
        for (int f = 0; f < FACES; f++) {
            c[f] = t->counts[k * FACES + f];
            kept += c[f];
        }
        const int8_t *rf = gf ? gf + roll_no * dice : NULL;
        for (int i = 0; i < dice - kept; i++) c[(rf ? rf[i] : die(&rng)) - 1]++;
        left--;
    }
    row[G_RNG] = (int64_t)rng;
    if (pick < 0 || pick >= nb) return -1;
    fill_row(t, row, m, y, u, r, pick, NULL);
    return 0;
}

/* The games of one simulation, in lockstep: each turn they are sorted by state and cut
 * into blocks, a block being the games of up to LANES upper sums of one (mask, y), whose
 * tables turn_block computes at once (one upper sum per vector lane); games in the same
 * state share their table. Threads take blocks in turn. */
typedef struct {
    const Kernels *t;
    int64_t *state;
    Py_ssize_t lo, n;
    const PlaySource *src;
    int turn;
    int64_t *idx;           /* [n]: the games, sorted by state */
    uint32_t *keys;         /* [n]: each game's state */
    Py_ssize_t *blocks;     /* [nblocks + 1]: where each block starts in idx */
    Py_ssize_t nblocks;
    Py_ssize_t next;        /* the next block to take (atomic) */
    int status;             /* -1 when a game had no option (atomic) */
} Lockstep;

/* The block that starts at sorted game a (ending before `end`): the games of up to
 * LANES upper sums of the (mask, y) of game a. Sets lane q's upper sum lu[q] and its
 * first game start[q] (start[nl] = the block's end) and returns nl. */
static int block_lanes(const Lockstep *ls, Py_ssize_t a, Py_ssize_t end, int *lu,
                       Py_ssize_t *start) {
    const uint32_t stride = (uint32_t)ls->t->stride;
    const uint32_t my = ls->keys[ls->idx[a]] / stride;
    Py_ssize_t j = a;
    int nl = 0;
    while (j < end && nl < LANES && ls->keys[ls->idx[j]] / stride == my) {
        const uint32_t key = ls->keys[ls->idx[j]];
        start[nl] = j;
        lu[nl++] = (int)(key % stride);
        while (j < end && ls->keys[ls->idx[j]] == key) j++;
    }
    start[nl] = j;
    return nl;
}

/* Blocks taken at a time by a thread; how many games ahead a row is fetched. */
#define GRAIN 8
#define PREFETCH 12

typedef struct {
    Lockstep *ls;
    Scratch scratch;
    Memo memo;
    double *opt;
    int *what;
    int ok;
} Worker;

HOT static void play_blocks(Worker *w) {
    Lockstep *ls = w->ls;
    const Kernels *t = ls->t;
    Scratch *s = &w->scratch;
    const uint32_t stride = (uint32_t)t->stride, yc = (uint32_t)t->y_count;
    const int rerolls = t->rolls - 1;
    const size_t slots = (size_t)LANES * t->rolls * t->nr;
    uint32_t planned = UINT32_MAX;
    for (;;) {
        Py_ssize_t first = __atomic_fetch_add(&ls->next, GRAIN, __ATOMIC_RELAXED);
        if (first >= ls->nblocks) break;
        Py_ssize_t last = first + GRAIN < ls->nblocks ? first + GRAIN : ls->nblocks;
        for (Py_ssize_t bk = first; bk < last; bk++) {
            const Py_ssize_t a = ls->blocks[bk];
            const uint32_t my = ls->keys[ls->idx[a]] / stride;
            int lu[LANES];
            Py_ssize_t start[LANES + 1];
            const int nl = block_lanes(ls, a, ls->blocks[bk + 1], lu, start);
            for (int q = nl; q < LANES; q++) lu[q] = lu[nl - 1];
            const int m = (int)(my / yc), y = (int)(my % yc);
            if (planned != my) {
                make_plan(t, m, y, &s->plan);
                planned = my;
            }
            turn_block(t, s, lu, rerolls, NULL, NULL, 1);
            if (++w->memo.now == 0) { /* the stamps wrapped round: forget them all */
                memset(w->memo.stamp, 0, sizeof(uint32_t) * slots);
                w->memo.now = 1;
            }
            for (int q = 0; q < nl; q++)
                for (Py_ssize_t g = start[q]; g < start[q + 1]; g++) {
                    Py_ssize_t game = ls->lo + ls->idx[g];
                    /* Rows are visited in the order of states, all over memory: ask for
                     * a row some games ahead (both cache lines it may span). */
                    if (g + PREFETCH < ls->n) {
                        const int64_t *ahead = ls->state + (ls->lo + ls->idx[g + PREFETCH]) * G_COLS;
                        __builtin_prefetch(ahead, 1);
                        __builtin_prefetch(ahead + G_COLS - 1, 1);
                    }
                    if (play_turn(t, s, ls->state + game * G_COLS, game, ls->turn, m, y, lu[q],
                                  q, &w->memo, w->opt, w->what, ls->src) < 0)
                        __atomic_store_n(&ls->status, -1, __ATOMIC_RELAXED);
                }
        }
    }
}

static void *play_thread(void *arg) {
    play_blocks(arg);
    return NULL;
}

static int worker_init(const Kernels *t, Lockstep *ls, Worker *w) {
    const size_t slots = (size_t)LANES * t->rolls * t->nr;
    memset(w, 0, sizeof(*w));
    w->ls = ls;
    w->opt = malloc(sizeof(double) * (t->nb + t->sub_width));
    w->what = malloc(sizeof(int) * (t->nb + t->sub_width));
    w->memo.pick = malloc(sizeof(int) * slots);
    w->memo.stamp = calloc(slots, sizeof(uint32_t));
    w->ok = scratch_init(t, &w->scratch) == 0;
    if (!w->ok || !w->opt || !w->what || !w->memo.pick || !w->memo.stamp) return -1;
    return 0;
}

static void worker_free(Worker *w) {
    if (w->ok) free(w->scratch.block);
    free(w->memo.pick);
    free(w->memo.stamp);
}

/* Play every turn of games lo .. hi - 1 (rows of `state`) on `threads` threads. Returns
 * 0, -1 when a game had no option, -2 when out of memory or threads. */
HOT static int play_games(const Kernels *t, int64_t *state, Py_ssize_t lo, Py_ssize_t hi,
                          const PlaySource *src, int threads) {
    const int nb = t->nb;
    Py_ssize_t n = hi - lo;
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    int bits = 1;
    while ((1LL << bits) < (1LL << nb) * t->y_count * t->stride) bits++;
    Lockstep ls = {t, state, lo, n, src, 0, NULL, NULL, NULL, 0, 0, 0};
    int64_t *tmp = malloc(sizeof(int64_t) * (n + 1));
    Py_ssize_t *count = malloc(sizeof(Py_ssize_t) * 2049);
    Worker *workers = calloc((size_t)threads, sizeof(Worker));
    pthread_t *ids = calloc((size_t)threads, sizeof(pthread_t));
    ls.idx = malloc(sizeof(int64_t) * (n + 1));
    ls.keys = malloc(sizeof(uint32_t) * (n + 1));
    ls.blocks = malloc(sizeof(Py_ssize_t) * (n + 1));
    int status = (!tmp || !count || !workers || !ids || !ls.idx || !ls.keys || !ls.blocks) ? -2 : 0;
    for (int i = 0; status == 0 && i < threads; i++)
        if (worker_init(t, &ls, &workers[i]) < 0) status = -2;
    for (int turn = 0; status == 0 && turn <= nb; turn++) {
        if (src->history)
            for (Py_ssize_t i = 0; i < n; i++) {
                const int64_t *row = state + (lo + i) * G_COLS;
                int64_t *h = src->history + ((lo + i) * (nb + 1) + turn) * 4;
                h[0] = row[G_MASK];
                h[1] = row[G_Y];
                h[2] = row[G_U];
                h[3] = row[G_TOTAL];
            }
        if (turn == nb) break;
        for (Py_ssize_t i = 0; i < n; i++) {
            const int64_t *row = state + (lo + i) * G_COLS;
            ls.idx[i] = i;
            ls.keys[i] = (uint32_t)((row[G_MASK] * t->y_count + row[G_Y]) * t->stride + row[G_U]);
        }
        sort_by_key(ls.idx, tmp, ls.keys, n, bits, count);
        /* Blocks: up to LANES upper sums of one (mask, y). */
        ls.nblocks = 0;
        for (Py_ssize_t a = 0; a < n;) {
            int lu[LANES];
            Py_ssize_t start[LANES + 1];
            const int nl = block_lanes(&ls, a, n, lu, start);
            ls.blocks[ls.nblocks++] = a;
            a = start[nl];
        }
        ls.blocks[ls.nblocks] = n;
        ls.turn = turn;
        ls.next = 0;
        int started = 0;
        for (int i = 1; i < threads && ls.nblocks > (Py_ssize_t)i * GRAIN; i++) {
            if (pthread_create(&ids[i], NULL, play_thread, &workers[i]) != 0) break;
            started = i;
        }
        play_blocks(&workers[0]);
        for (int i = 1; i <= started; i++) pthread_join(ids[i], NULL);
        if (ls.status < 0) status = -1;
    }
    for (int i = 0; workers && i < threads; i++) worker_free(&workers[i]);
    free(workers);
    free(ids);
    free(tmp);
    free(count);
    free(ls.idx);
    free(ls.keys);
    free(ls.blocks);
    return status;
}

/* --- Score distributions ----------------------------------------------------------- */

/* A state's number, as in V: (mask * y_count + y) * stride + u, with u replaced by the
 * first upper sum of its lane (upper sums that share a lane have one future). */
INLINE int state_key(const Kernels *t, int mask, int y, int u) {
    const int um = upper_mask(t, mask);
    const int32_t lane = t->lane_of[(size_t)um * t->stride + u];
    const int ur = lane >= 0 ? t->lanes[(size_t)um * t->stride + lane] : u;
    return (mask * t->y_count + y) * t->stride + ur;
}

/* Working memory of turn_outcomes. */
typedef struct {
    double *M;    /* [nr]: the chance of each roll now */
    double *K;    /* [nk]: the chance of each keep */
    double *slot; /* [ne + 6 nb]: the chance of each way to end (see box_value) */
    /* The outcomes: gain, next state (state_key) and chance. */
    int *gain, *key;
    double *prob;
    int n;
} Walk;

static int walk_init(const Kernels *t, Walk *w) {
    const size_t slots = (size_t)t->ne + FACES * t->nb;
    w->M = malloc(sizeof(double) * t->nr);
    w->K = malloc(sizeof(double) * t->nk);
    w->slot = malloc(sizeof(double) * slots);
    w->gain = malloc(sizeof(int) * slots);
    w->key = malloc(sizeof(int) * slots);
    w->prob = malloc(sizeof(double) * slots);
    return w->M && w->K && w->slot && w->gain && w->key && w->prob ? 0 : -1;
}

static void walk_free(Walk *w) {
    free(w->M);
    free(w->K);
    free(w->slot);
    free(w->gain);
    free(w->key);
    free(w->prob);
}

/* How a turn in state (mask, y, u) ends under optimal play — the simulation's choices,
 * the first best option (turn_options) — read from lane q of the turn's values in the
 * scratch memory (make_plan and turn_block done for the state's mask and y, with u in
 * lane q), from its first roll (r0 < 0) or from roll r0 with left0 rerolls left: w->n
 * outcomes, each filling a box for w->gain[i] points (its points, the extra-Yahtzee and
 * the upper bonus) into state w->key[i], with chance w->prob[i]. The chance of each roll
 * is carried forward through the keeps: a keep's chance goes to the keeps with one die
 * more, a sixth each. Returns -1 when some roll has no option (a full card). */
static int turn_outcomes(const Kernels *t, const Scratch *sc, Walk *w, int mask, int y,
                         int u, int q, int r0, int left0) {
    const int nr = t->nr, nb = t->nb, fr = t->first_roll;
    const int slots = t->ne + FACES * nb;
    int left = r0 < 0 ? t->rolls - 1 : left0;
    for (int r = 0; r < nr; r++) w->M[r] = r0 < 0 ? t->roll_prob[r] : (r == r0);
    memset(w->slot, 0, sizeof(double) * slots);
    for (;;) {
        if (left > 0) memset(w->K, 0, sizeof(double) * t->nk);
        for (int r = 0; r < nr; r++) {
            if (w->M[r] == 0.0) continue;
            int pick = best_option(t, sc, r, left, q);
            if (pick < 0) return -1;
            if (pick < nb) {
                int f = t->five_of[r];
                w->slot[f >= 0 ? t->ne + f * nb + pick : t->entry_of[(size_t)pick * nr + r]] += w->M[r];
            } else {
                w->K[pick - nb] += w->M[r];
            }
        }
        if (left == 0) break;
        for (int k = 0; k < fr; k++) {
            double share = w->K[k] * (1.0 / 6.0);
            if (share == 0.0) continue;
            const int32_t *c = t->child + k * FACES;
            for (int f = 0; f < FACES; f++) w->K[c[f]] += share;
        }
        memcpy(w->M, w->K + fr, sizeof(double) * nr);
        left--;
    }
    w->n = 0;
    for (int e = 0; e < slots; e++) {
        if (w->slot[e] == 0.0) continue;
        int b, roll;
        if (e < t->ne) {
            b = t->entry_box[e];
            roll = t->entry_roll[e];
        } else {
            b = (e - t->ne) % nb;
            roll = t->five_rolls[(e - t->ne) / nb];
        }
        int extra, m2, y2, up, u2;
        int points = fill_box(t, mask, y, roll, b, &extra, &m2, &y2, &up);
        int bonus = add_upper(t, u, up, &u2);
        w->gain[w->n] = points + extra + bonus;
        w->key[w->n] = state_key(t, m2, y2, u2);
        w->prob[w->n++] = w->slot[e];
    }
    return 0;
}

/* The chance of each number of points a player has yet to score from one state: p[a -
 * lo] for a in lo .. hi - 1 (zeros inside are allowed). */
typedef struct {
    int lo, hi;
    double *p;
} Dist;

/* Add chance `prob` times d, shifted by `gain` points, to *to (which grows to fit). */
HOT static int dist_add(Dist *to, const Dist *d, int gain, double prob) {
    int lo = d->lo + gain, hi = d->hi + gain;
    if (!to->p || lo < to->lo || hi > to->hi) {
        const int pad = 16;
        int nlo = to->p ? (lo < to->lo ? lo - pad : to->lo) : lo;
        int nhi = to->p ? (hi > to->hi ? hi + pad : to->hi) : hi;
        if (nlo < 0) nlo = 0;
        double *p = calloc((size_t)(nhi - nlo), sizeof(double));
        if (!p) return -1;
        if (to->p) {
            memcpy(p + (to->lo - nlo), to->p, sizeof(double) * (size_t)(to->hi - to->lo));
            free(to->p);
        }
        to->p = p;
        to->lo = nlo;
        to->hi = nhi;
    }
    double *restrict out = to->p + (lo - to->lo);
    const double *restrict in = d->p;
    const int n = d->hi - d->lo;
    for (int a = 0; a < n; a++) out[a] += prob * in[a];
    return 0;
}

/* A state of a layer and the chance of every number of points scored so far in it. */
typedef struct {
    int key;
    Dist d;
} Held;

static int held_order(const void *a, const void *b) {
    int x = ((const Held *)a)->key, y = ((const Held *)b)->key;
    return (x > y) - (x < y);
}

/* Blocks of states sorted by key: up to LANES states of one (mask, y) in a row. Reads
 * key i at base + i * step (bytes); writes each block's first state to blocks[] and n
 * after the last; returns how many blocks. */
static int cut_blocks(const Kernels *t, const char *base, size_t step, int n, int *blocks) {
    int nblocks = 0;
    for (int i = 0; i < n; i++) {
        const int k = *(const int *)(base + i * step) / t->stride;
        if (i == 0 || i - blocks[nblocks - 1] == LANES
            || *(const int *)(base + blocks[nblocks - 1] * step) / t->stride != k)
            blocks[nblocks++] = i;
    }
    blocks[nblocks] = n;
    return nblocks;
}

/* run(&shares[q]) for every q < threads, on their own threads as far as there are
 * blocks for them (`size` bytes a share), share 0 on this one; returns when all are done. */
static void run_shares(void *(*run)(void *), void *shares, size_t size, int threads,
                       int nblocks) {
    pthread_t ids[64];
    int started = 0;
    char *s = shares;
    for (int q = 1; q < threads && q < nblocks; q++, started++)
        if (pthread_create(&ids[q], NULL, run, s + q * size) != 0) break;
    /* The threads not started: their blocks are worked out here. */
    for (int q = 1 + started; q < threads; q++) run(s + q * size);
    run(s);
    for (int q = 1; q <= started; q++) pthread_join(ids[q], NULL);
}

/* The states of a layer whose outcomes threads work out at a time. */
#define CHUNK 2048

/* A thread's share of a chunk of a layer's states (sorted by state): blocks first,
 * first + step, ... of up to LANES upper sums of one (mask, y), their turns' values
 * made at once (one upper sum a lane); state i's outcomes go to slot i of the chunk's
 * buffers. */
typedef struct {
    const Kernels *t;
    Scratch sc;
    Walk w;
    const Held *held;
    const int *blocks;
    int nblocks, first, step, r0, left0, u0, first_turn;
    int *gain, *key, *count;
    double *prob;
    int status;
} Share;

HOT static void *share_run(void *arg) {
    Share *s = arg;
    const Kernels *t = s->t;
    const int slots = t->ne + FACES * t->nb;
    for (int b = s->first; b < s->nblocks && s->status == 0; b += s->step) {
        const int a = s->blocks[b], nl = s->blocks[b + 1] - a;
        const int k = s->held[a].key;
        const int sy = (k / t->stride) % t->y_count, sm = k / t->stride / t->y_count;
        int lu[LANES];
        for (int q = 0; q < LANES; q++) lu[q] = s->held[a + (q < nl ? q : nl - 1)].key % t->stride;
        /* The first turn: the state's own upper sum and, mid-turn, its roll. */
        if (s->first_turn) lu[0] = s->u0;
        make_plan(t, sm, sy, &s->sc.plan);
        turn_block(t, &s->sc, lu, t->rolls - 1, NULL, NULL, 1);
        for (int q = 0; q < nl; q++) {
            if (turn_outcomes(t, &s->sc, &s->w, sm, sy, lu[q], q, s->first_turn ? s->r0 : -1,
                              s->left0) < 0) {
                s->status = -2;
                break;
            }
            const int i = a + q - s->blocks[0];
            memcpy(s->gain + (size_t)i * slots, s->w.gain, sizeof(int) * s->w.n);
            memcpy(s->key + (size_t)i * slots, s->w.key, sizeof(int) * s->w.n);
            memcpy(s->prob + (size_t)i * slots, s->w.prob, sizeof(double) * s->w.n);
            s->count[i] = s->w.n;
        }
    }
    return NULL;
}

/* The distribution of the points still to come from state (mask, y, u) under optimal
 * play (as turn_outcomes plays it), from its turn's first roll (r0 < 0) or from roll r0
 * with left0 rerolls left, into *res: the turns' outcomes carried forward one filled box
 * at a time, each state of a layer holding the chance of every number of points scored
 * since the start. The outcomes of a chunk of states are worked out on `threads`
 * threads, then added up in order (so the result does not depend on the threads).
 * Returns -1 when out of memory, -2 when a state has no option. */
static int score_distribution(const Kernels *t, int mask, int y, int u, int r0, int left0,
                              int threads, Dist *res) {
    const int full = (1 << t->nb) - 1;
    const int slots = t->ne + FACES * t->nb;
    const size_t nstates = ((size_t)1 << t->nb) * t->y_count * t->stride;
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    int status = 0, ready = 0;
    size_t n = 0, nn = 0, cap = 1024;
    Share shares[64];
    int32_t *where = malloc(sizeof(int32_t) * nstates);
    /* This layer's states and the next's. */
    Held *held = malloc(sizeof(Held) * cap), *next = malloc(sizeof(Held) * cap);
    int *blocks = malloc(sizeof(int) * (CHUNK + 1));
    int *gain = malloc(sizeof(int) * (size_t)CHUNK * slots);
    int *okey = malloc(sizeof(int) * (size_t)CHUNK * slots);
    int *count = malloc(sizeof(int) * CHUNK);
    double *prob = malloc(sizeof(double) * (size_t)CHUNK * slots);
    res->p = NULL;
    res->lo = res->hi = 0;
    for (; ready < threads; ready++) {
        Share *s = &shares[ready];
        s->t = t;
        if (scratch_init(t, &s->sc) < 0) break;
        if (walk_init(t, &s->w) < 0) {
            walk_free(&s->w);
            free(s->sc.block);
            break;
        }
        s->gain = gain;
        s->key = okey;
        s->prob = prob;
        s->count = count;
        s->blocks = blocks;
        s->step = threads;
        s->first = ready;
        s->r0 = r0;
        s->left0 = left0;
        s->u0 = u;
    }
    if (ready < threads || !where || !held || !next || !blocks || !gain || !okey || !count
        || !prob) {
        status = -1;
        goto done;
    }
    for (size_t i = 0; i < nstates; i++) where[i] = -1;
    n = 1;
    held[0].key = state_key(t, mask, y, u);
    held[0].d.lo = 0;
    held[0].d.hi = 1;
    held[0].d.p = malloc(sizeof(double));
    if (!held[0].d.p) {
        n = 0;
        status = -1;
        goto done;
    }
    held[0].d.p[0] = 1.0;
    if (mask == full) {
        *res = held[0].d;
        n = 0;
        goto done;
    }
    int first_turn = 1;
    while (n > 0 && status == 0) {
        for (size_t c0 = 0; c0 < n && status == 0; c0 += CHUNK) {
            const int cn = (int)(n - c0 < CHUNK ? n - c0 : CHUNK);
            const int nblocks = cut_blocks(t, (const char *)&held[c0].key, sizeof(Held), cn,
                                           blocks);
            for (int q = 0; q < threads; q++) {
                shares[q].held = held + c0;
                shares[q].nblocks = nblocks;
                shares[q].first_turn = first_turn;
                shares[q].status = 0;
            }
            run_shares(share_run, shares, sizeof(Share), threads, nblocks);
            for (int q = 0; q < threads; q++)
                if (shares[q].status) status = shares[q].status;
            for (int i = 0; i < cn && status == 0; i++) {
                const Dist *from = &held[c0 + i].d;
                const size_t base = (size_t)i * slots;
                for (int o = 0; o < count[i] && status == 0; o++) {
                    const int k2 = okey[base + o];
                    Dist *to;
                    if (k2 / t->stride / t->y_count == full) {
                        to = res;
                    } else {
                        int j = where[k2];
                        if (j < 0) {
                            if (nn == cap) {
                                Held *h1 = realloc(next, sizeof(Held) * cap * 2);
                                Held *h2 = h1 ? realloc(held, sizeof(Held) * cap * 2) : NULL;
                                if (h1) next = h1;
                                if (h2) held = h2;
                                if (!h1 || !h2) {
                                    status = -1;
                                    break;
                                }
                                cap *= 2;
                                from = &held[c0 + i].d;
                            }
                            j = (int)nn++;
                            where[k2] = j;
                            next[j].key = k2;
                            next[j].d.p = NULL;
                            next[j].d.lo = next[j].d.hi = 0;
                        }
                        to = &next[j].d;
                    }
                    if (dist_add(to, from, gain[base + o], prob[base + o]) < 0) status = -1;
                }
            }
        }
        for (size_t i = 0; i < n; i++) free(held[i].d.p);
        for (size_t j = 0; j < nn; j++) where[next[j].key] = -1;
        /* The next layer, in order of state, becomes this one. */
        qsort(next, nn, sizeof(Held), held_order);
        Held *swap = held;
        held = next;
        next = swap;
        n = nn;
        nn = 0;
        first_turn = 0;
    }
done:
    if (held)
        for (size_t i = 0; i < n; i++) free(held[i].d.p);
    if (status != 0) {
        free(res->p);
        res->p = NULL;
    }
    for (int q = 0; q < ready; q++) {
        walk_free(&shares[q].w);
        free(shares[q].sc.block);
    }
    free(where);
    free(held);
    free(next);
    free(blocks);
    free(gain);
    free(okey);
    free(count);
    free(prob);
    return status;
}

/* --- The table of what is still to come ------------------------------------------- */

/* For every state a game reaches, the distribution of the points still to come under
 * optimal play: rows in layers, row i for state key[i] holding the chances of lo[i] ..
 * lo[i] + len[i] - 1 more points (as floats), with tails of less than `tail` on each
 * side cut off. Worked out from the full card back, one layer of filled boxes at a time:
 * a state's row is its turn's outcomes' rows, shifted by their gains and weighted by
 * their chances. */

typedef struct {
    int n, cap;
    int *key, *lo, *len;
    float **p;
} Rows;

/* A thread's share of a layer's blocks (see Share) for the table. */
typedef struct {
    const Kernels *t;
    Scratch sc;
    Walk w;
    double *acc;          /* [most + 1] */
    int most;             /* the most points still to come from any state */
    const int *keys;      /* the layer's states, sorted */
    const int *blocks;
    int nblocks, first, step;
    const int32_t *row_of; /* key -> row of the layers done, -1 for none */
    Rows *rows;           /* the rows of the layers done (read) and of this one (written at
                           * rows->n + i for the layer's state i) */
    double tail;
    int status;
} TableShare;

HOT static void *table_run(void *arg) {
    TableShare *s = arg;
    const Kernels *t = s->t;
    const int full = (1 << t->nb) - 1;
    Rows *R = s->rows;
    for (int b = s->first; b < s->nblocks && s->status == 0; b += s->step) {
        const int a = s->blocks[b], nl = s->blocks[b + 1] - a;
        const int k = s->keys[a];
        const int sy = (k / t->stride) % t->y_count, sm = k / t->stride / t->y_count;
        int lu[LANES];
        for (int q = 0; q < LANES; q++) lu[q] = s->keys[a + (q < nl ? q : nl - 1)] % t->stride;
        make_plan(t, sm, sy, &s->sc.plan);
        turn_block(t, &s->sc, lu, t->rolls - 1, NULL, NULL, 1);
        for (int q = 0; q < nl; q++) {
            if (turn_outcomes(t, &s->sc, &s->w, sm, sy, lu[q], q, -1, 0) < 0) {
                s->status = -2;
                break;
            }
            int hi = 0;
            for (int o = 0; o < s->w.n; o++) {
                const int k2 = s->w.key[o];
                int top = s->w.gain[o];
                if (k2 / t->stride / t->y_count != full) {
                    const int r = s->row_of[k2];
                    if (r < 0) {
                        s->status = -2;
                        break;
                    }
                    top += R->lo[r] + R->len[r] - 1;
                }
                if (top > hi) hi = top;
            }
            if (s->status || hi > s->most) {
                s->status = s->status ? s->status : -2;
                break;
            }
            memset(s->acc, 0, sizeof(double) * (hi + 1));
            for (int o = 0; o < s->w.n; o++) {
                const int k2 = s->w.key[o], g = s->w.gain[o];
                const double p = s->w.prob[o];
                if (k2 / t->stride / t->y_count == full) {
                    s->acc[g] += p;
                    continue;
                }
                const int r = s->row_of[k2];
                const float *in = R->p[r];
                double *out = s->acc + g + R->lo[r];
                const int n = R->len[r];
                for (int j = 0; j < n; j++) out[j] += p * in[j];
            }
            /* Cut the tails. */
            int lo = 0, top = hi;
            double cut = 0.0;
            while (lo < top && cut + s->acc[lo] < s->tail) cut += s->acc[lo++];
            cut = 0.0;
            while (top > lo && cut + s->acc[top] < s->tail) cut += s->acc[top--];
            const int i = R->n + a + q;
            float *row = malloc(sizeof(float) * (top - lo + 1));
            if (!row) {
                s->status = -1;
                break;
            }
            for (int j = lo; j <= top; j++) row[j - lo] = (float)s->acc[j];
            R->key[i] = s->keys[a + q];
            R->lo[i] = lo;
            R->len[i] = top - lo + 1;
            R->p[i] = row;
        }
    }
    return NULL;
}

static void rows_free(Rows *R) {
    if (R->p)
        for (int i = 0; i < R->n; i++) free(R->p[i]);
    free(R->key);
    free(R->lo);
    free(R->len);
    free(R->p);
}

/* The table (see Rows) on `threads` threads; the rows come out in layers from the full
 * card back, sorted by state within a layer. Returns -1 when out of memory, -2 when a
 * state has no option. */
static int remaining_table(const Kernels *t, int threads, double tail, Rows *R) {
    const int full = (1 << t->nb) - 1;
    const size_t nstates = ((size_t)1 << t->nb) * t->y_count * t->stride;
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    int status = 0, ready = 0;
    TableShare shares[64];
    int32_t *row_of = malloc(sizeof(int32_t) * nstates);
    int *layer = malloc(sizeof(int) * nstates);
    int *blocks = malloc(sizeof(int) * (nstates + 1));
    /* The most points still to come: every box's most, the bonus, extra Yahtzees. */
    int most = 0;
    {
        int sum = 0, extra = 0;
        for (int b = 0; b < t->nb; b++) {
            int m = 0;
            for (int r = 0; r < t->nr; r++)
                if (t->score[r * t->nb + b] > m) m = t->score[r * t->nb + b];
            for (size_t i = b; i < ((size_t)1 << t->nb) * FACES * t->nb; i += t->nb)
                if (t->five_points[i] > m) m = t->five_points[i];
            sum += m;
        }
        for (int y = 0; y < t->y_count * FACES; y++)
            if (t->extra[y] > extra) extra = t->extra[y];
        most = sum + t->bonus + extra * t->nb;
    }
    memset(R, 0, sizeof(*R));
    R->cap = 1 << 16;
    R->key = malloc(sizeof(int) * R->cap);
    R->lo = malloc(sizeof(int) * R->cap);
    R->len = malloc(sizeof(int) * R->cap);
    R->p = calloc(R->cap, sizeof(float *));
    for (; ready < threads; ready++) {
        TableShare *s = &shares[ready];
        s->t = t;
        s->acc = malloc(sizeof(double) * (most + 1));
        if (!s->acc) break;
        if (scratch_init(t, &s->sc) < 0) {
            free(s->acc);
            break;
        }
        if (walk_init(t, &s->w) < 0) {
            walk_free(&s->w);
            free(s->sc.block);
            free(s->acc);
            break;
        }
        s->most = most;
        s->tail = tail;
        s->row_of = row_of;
        s->rows = R;
        s->blocks = blocks;
        s->step = threads;
        s->first = ready;
    }
    if (ready < threads || !row_of || !layer || !blocks || !R->key || !R->lo
        || !R->len || !R->p) {
        status = -1;
        goto done;
    }
    for (size_t i = 0; i < nstates; i++) row_of[i] = -1;
    /* The states a game reaches (those with a value), by number of filled boxes: layer c
     * is layer[bounds[c] .. bounds[c + 1] - 1], in order of state. */
    {
        int *bounds = malloc(sizeof(int) * (t->nb + 2));
        if (!bounds) {
            status = -1;
            goto done;
        }
        int end = 0;
        for (int c = 0; c < t->nb; c++) {
            bounds[c] = end;
            for (int mask = 0; mask < full; mask++) {
                if (__builtin_popcount(mask) != c || !t->allowed[mask]) continue;
                for (int y = 0; y < t->y_count; y++)
                    for (int u = 0; u <= t->threshold; u++) {
                        const int k = state_key(t, mask, y, u);
                        if (k != (mask * t->y_count + y) * t->stride + u) continue;
                        if (t->V[k] > NEG / 2) layer[end++] = k;
                    }
            }
        }
        bounds[t->nb] = end;
        /* From the last layer back. */
        for (int c = t->nb - 1; c >= 0 && status == 0; c--) {
            const int a0 = bounds[c], a1 = bounds[c + 1];
            const int n = a1 - a0;
            if (R->n + n > R->cap) {
                int cap = R->cap;
                while (R->n + n > cap) cap *= 2;
                int *k1 = realloc(R->key, sizeof(int) * cap);
                if (k1) R->key = k1;
                int *l1 = realloc(R->lo, sizeof(int) * cap);
                if (l1) R->lo = l1;
                int *n1 = realloc(R->len, sizeof(int) * cap);
                if (n1) R->len = n1;
                float **p1 = realloc(R->p, sizeof(float *) * cap);
                if (p1) R->p = p1;
                if (!k1 || !l1 || !n1 || !p1) {
                    status = -1;
                    break;
                }
                for (int i = R->cap; i < cap; i++) R->p[i] = NULL;
                R->cap = cap;
            }
            const int nblocks = cut_blocks(t, (const char *)(layer + a0), sizeof(int), n,
                                           blocks);
            for (int q = 0; q < threads; q++) {
                shares[q].keys = layer + a0;
                shares[q].nblocks = nblocks;
                shares[q].status = 0;
            }
            run_shares(table_run, shares, sizeof(TableShare), threads, nblocks);
            for (int q = 0; q < threads; q++)
                if (shares[q].status) status = shares[q].status;
            for (int i = 0; i < n; i++)
                if (R->p[R->n + i]) row_of[R->key[R->n + i]] = R->n + i;
            R->n += n;
        }
        free(bounds);
    }
done:
    for (int q = 0; q < ready; q++) {
        walk_free(&shares[q].w);
        free(shares[q].sc.block);
        free(shares[q].acc);
    }
    free(row_of);
    free(layer);
    free(blocks);
    if (status != 0) {
        /* Rows written past R->n by a failed layer. */
        for (int i = R->n; i < R->cap && R->p; i++) free(R->p[i]);
        rows_free(R);
        memset(R, 0, sizeof(*R));
    }
    return status;
}

/* --- The Python object ------------------------------------------------------------- */

static void Kernels_dealloc(Kernels *self) {
    for (int i = 0; i < self->nviews; i++) PyBuffer_Release(&self->views[i]);
    PyMem_Free(self->entry_by_roll);
    PyMem_Free(self->box_start);
    PyMem_Free(self->best_keep);
    PyMem_Free(self->best_par);
    PyMem_Free(self->group_len);
    PyMem_Free(self->group_par);
    PyMem_Free(self->group_roll);
    PyMem_Free(self->entry_gain);
    PyMem_Free(self->entry_key);
    PyMem_Free(self->key_start);
    PyMem_Free(self->key_up);
    PyMem_Free(self->key_y);
    PyMem_Free(self->adv_abox);
    PyMem_Free(self->adv_values);
    PyMem_Free(self->adv_keeps);
    if (self->scratch) {
        free(((Scratch *)self->scratch)->block);
        PyMem_Free(self->scratch);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static const char *const ARRAY_NAMES[N_ARRAYS] = {
    "score", "allowed", "five_points", "five_rolls", "five_of", "extra", "is_upper",
    "entry_of", "entry_box", "entry_roll", "child", "parent_start", "parent_list",
    "roll_prob", "sub_keeps", "sub_count", "counts", "code_to_keep", "lanes",
    "lane_count", "lane_of", "upper_bit", "possible", "V"};

static int view(Kernels *self, PyObject *arrays, int i, Py_ssize_t items, Py_ssize_t itemsize,
                 int writable) {
    Py_buffer *b = &self->views[i];
    PyObject *o = PyTuple_GET_ITEM(arrays, i);
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    self->nviews = i + 1;
    if (b->itemsize != itemsize || (items >= 0 && b->len != items * itemsize)) {
        PyErr_Format(PyExc_ValueError, "Kernels: %s has %zd items of %zd bytes, not %zd of %zd",
                     ARRAY_NAMES[i], b->len / (b->itemsize ? b->itemsize : 1), b->itemsize,
                     items, itemsize);
        return -1;
    }
    return 0;
}

/* Read fill_box once per entry (see Kernels.entry_gain). */
static int entry_keys(Kernels *self) {
    const int nb = self->nb, ne = self->ne;
    self->entry_gain = PyMem_Malloc(sizeof(double) * (ne + 1));
    self->entry_key = PyMem_Malloc(sizeof(int32_t) * (ne + 1));
    self->key_start = PyMem_Malloc(sizeof(int32_t) * (nb + 1));
    self->key_up = PyMem_Malloc(sizeof(int32_t) * (ne + 1));
    self->key_y = PyMem_Malloc(sizeof(int32_t) * (ne + 1));
    if (!self->entry_gain || !self->entry_key || !self->key_start || !self->key_up
        || !self->key_y) {
        PyErr_NoMemory();
        return -1;
    }
    int n = 0;
    for (int b = 0; b < nb; b++) {
        self->key_start[b] = n;
        /* A mask whose play order allows the box. */
        int mask = -1;
        for (int m = 0; m < (1 << nb) && mask < 0; m++)
            if ((self->allowed[m] >> b) & 1) mask = m;
        for (int e = self->box_start[b]; e < self->box_start[b + 1]; e++) {
            int extra = 0, m2, y2 = 0, up = 0, points = -1;
            if (mask >= 0)
                points = fill_box(self, mask, 0, self->entry_roll[e], b, &extra, &m2, &y2, &up);
            if (points < 0 || extra != 0) {
                /* A box no mask allows: its entries are never read. */
                points = 0;
                up = 0;
                y2 = 0;
            }
            int k = self->key_start[b];
            while (k < n && !(self->key_up[k] == up && self->key_y[k] == y2)) k++;
            if (k == n) {
                self->key_up[n] = up;
                self->key_y[n] = y2;
                n++;
            }
            self->entry_gain[e] = points;
            self->entry_key[e] = k - self->key_start[b];
        }
    }
    self->key_start[nb] = n;
    return 0;
}

/* The order of the best-keep pass (see Kernels.best_keep). */
static int best_keep_order(Kernels *self) {
    const int nk = self->nk;
    const int32_t *start = self->parent_start;
    int total = start[nk] - start[1];
    self->best_keep = PyMem_Malloc(sizeof(int32_t) * nk);
    self->best_par = PyMem_Malloc(sizeof(int32_t) * (total + 1));
    self->group_len = PyMem_Malloc(sizeof(int32_t) * nk);
    self->group_par = PyMem_Malloc(sizeof(int32_t) * nk);
    self->group_roll = PyMem_Malloc(sizeof(int32_t) * nk);
    int *size = PyMem_Malloc(sizeof(int) * nk);
    if (!self->best_keep || !self->best_par || !self->group_len || !self->group_par
        || !self->group_roll || !size) {
        PyMem_Free(size);
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < nk; k++) {
        size[k] = 0;
        for (int f = 0; f < FACES; f++) size[k] += self->counts[k * FACES + f];
        int n = start[k + 1] - start[k];
        for (int j = 0; j < n; j++) {
            int q = self->parent_list[start[k] + j];
            if (k == 0 || q < 0 || q >= k || size[q] != size[k] - 1) {
                PyMem_Free(size);
                PyErr_SetString(PyExc_ValueError, "Kernels: a parent is not one die less");
                return -1;
            }
        }
        if ((k >= self->first_roll) != (size[k] == self->dice) || (k > 0 && size[k] < size[k - 1])) {
            PyMem_Free(size);
            PyErr_SetString(PyExc_ValueError, "Kernels: keeps are not in order of size");
            return -1;
        }
    }
    /* One run per number of dice and of parents that some keep has. */
    int m = 0, used = 0, g = 0;
    for (int d = 1; d <= self->dice; d++)
        for (int c = 1; c <= FACES; c++) {
            self->group_len[g] = 0;
            for (int k = 1; k < nk; k++) {
                if (size[k] != d || start[k + 1] - start[k] != c) continue;
                self->group_len[g]++;
                self->best_keep[m++] = k;
                for (int j = 0; j < c; j++) self->best_par[used++] = self->parent_list[start[k] + j];
            }
            if (self->group_len[g] > 0) {
                self->group_par[g] = c;
                self->group_roll[g] = d == self->dice;
                g++;
            }
        }
    PyMem_Free(size);
    self->ngroups = g;
    if (m != nk - 1) {
        PyErr_SetString(PyExc_ValueError, "Kernels: a keep has no parent, or more than faces");
        return -1;
    }
    return 0;
}

static int Kernels_init(Kernels *self, PyObject *args, PyObject *kwds) {
    PyObject *arrays;
    if (self->nviews) {
        PyErr_SetString(PyExc_TypeError, "Kernels is initialised once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "(iiiiiiiiiiiiii)O!", &self->nr, &self->nb, &self->nk,
                          &self->ne, &self->first_roll, &self->dice, &self->rolls,
                          &self->threshold, &self->bonus, &self->yahtzee_box, &self->y_points,
                          &self->y_count, &self->sub_width, &self->nu, &PyTuple_Type, &arrays))
        return -1;
    if (PyTuple_GET_SIZE(arrays) != N_ARRAYS) {
        PyErr_Format(PyExc_ValueError, "Kernels needs %d arrays", N_ARRAYS);
        return -1;
    }
    if (self->nb < 1 || self->nb > 30 || self->threshold < 0 || self->threshold > 63
        || self->y_count < 1 || self->y_count > 2 || self->nr < 1 || self->nk < self->nr
        || self->dice < 1 || self->dice > 10 || self->rolls < 1) {
        PyErr_SetString(PyExc_ValueError, "Kernels: sizes out of range");
        return -1;
    }
    self->stride = self->threshold + 1;
    Py_ssize_t nb = self->nb, nr = self->nr, nk = self->nk, masks = (Py_ssize_t)1 << nb;
    Py_ssize_t codes = 1;
    for (int f = 0; f < FACES; f++) codes *= self->dice + 1;
    Py_ssize_t um = (Py_ssize_t)1 << self->nu, st = self->stride;
    const Py_ssize_t items[N_ARRAYS] = {
        nr * nb, masks, masks * FACES * nb, FACES, nr, self->y_count * FACES, nb,
        nb * nr, self->ne, self->ne, nk * FACES, nk + 1, -1,
        nr, nr * self->sub_width, nr, nk * FACES, codes, um * st,
        um, um * st, nb, -1, masks * self->y_count * st};
    for (int i = 0; i < N_ARRAYS; i++) {
        Py_ssize_t size = i == A_FIVE_POINTS ? 1
                          : (i == A_ROLL_PROB || i == A_V || i == A_POSSIBLE) ? 8 : 4;
        if (view(self, arrays, i, items[i], size, i == A_V) < 0) return -1;
    }
#define BUF(i) (self->views[i].buf)
    self->score = BUF(A_SCORE);
    self->allowed = BUF(A_ALLOWED);
    self->five_points = BUF(A_FIVE_POINTS);
    self->five_rolls = BUF(A_FIVE_ROLLS);
    self->five_of = BUF(A_FIVE_OF);
    self->extra = BUF(A_EXTRA);
    self->is_upper = BUF(A_IS_UPPER);
    self->entry_of = BUF(A_ENTRY_OF);
    self->entry_box = BUF(A_ENTRY_BOX);
    self->entry_roll = BUF(A_ENTRY_ROLL);
    self->child = BUF(A_CHILD);
    self->parent_start = BUF(A_PARENT_START);
    self->parent_list = BUF(A_PARENT_LIST);
    self->roll_prob = BUF(A_ROLL_PROB);
    self->sub_keeps = BUF(A_SUB_KEEPS);
    self->sub_count = BUF(A_SUB_COUNT);
    self->counts = BUF(A_COUNTS);
    self->code_to_keep = BUF(A_CODE_TO_KEEP);
    self->lanes = BUF(A_LANES);
    self->lane_count = BUF(A_LANE_COUNT);
    self->lane_of = BUF(A_LANE_OF);
    self->upper_bit = BUF(A_UPPER_BIT);
    self->possible = BUF(A_POSSIBLE);
    self->V = BUF(A_V);
#undef BUF
    self->pw = (int)(self->views[A_POSSIBLE].len / 8 / nb);
    if (self->pw < 1 || self->views[A_POSSIBLE].len != (Py_ssize_t)self->pw * nb * 8) {
        PyErr_SetString(PyExc_ValueError, "Kernels: possible is not nb rows of bits");
        return -1;
    }
    if (self->views[A_PARENT_LIST].len / 4 < self->parent_start[nk]) {
        PyErr_SetString(PyExc_ValueError, "Kernels: parent_list is too short");
        return -1;
    }
    for (Py_ssize_t i = 0; i < um; i++)
        if (self->lane_count[i] > 64) {
            PyErr_SetString(PyExc_ValueError, "Kernels: more than 64 lanes");
            return -1;
        }
    self->entry_by_roll = PyMem_Malloc(sizeof(int32_t) * nr * nb);
    self->box_start = PyMem_Malloc(sizeof(int32_t) * (nb + 1));
    if (!self->entry_by_roll || !self->box_start) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t b = 0; b < nb; b++)
        for (Py_ssize_t r = 0; r < nr; r++) {
            int32_t e = self->entry_of[b * nr + r];
            if (e < -1 || e >= self->ne) {
                PyErr_SetString(PyExc_ValueError, "Kernels: entry_of out of range");
                return -1;
            }
            /* Five of a kind (-1) reads entry 0 here and is set apart afterwards. */
            self->entry_by_roll[r * nb + b] = e >= 0 ? e : 0;
        }
    if (best_keep_order(self) < 0) return -1;
    for (int b = 0, e = 0; b <= nb; b++) {
        while (e < self->ne && self->entry_box[e] < b) e++;
        self->box_start[b] = e;
    }
    if (entry_keys(self) < 0) return -1;
    self->adv_mask = -1;
    self->adv_abox = PyMem_Malloc(sizeof(int64_t) * nb);
    self->adv_values = PyMem_Malloc(sizeof(double) * (self->ne + FACES * nb));
    self->adv_keeps = PyMem_Malloc(sizeof(double) * (self->rolls * nk));
    if (!self->adv_abox || !self->adv_values || !self->adv_keeps) {
        PyErr_NoMemory();
        return -1;
    }
    self->scratch = PyMem_Malloc(sizeof(Scratch));
    if (!self->scratch || scratch_init(self, self->scratch) < 0) {
        PyMem_Free(self->scratch);
        self->scratch = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int check_state(const Kernels *self, int mask, int y, int u) {
    if (mask < 0 || mask >= (1 << self->nb) || y < 0 || y >= self->y_count || u < 0
        || u > self->threshold) {
        PyErr_Format(PyExc_ValueError, "no state (%d, %d, %d)", mask, y, u);
        return -1;
    }
    return 0;
}

static PyObject *Kernels_fill(Kernels *self, PyObject *args) {
    int mask, y, u, roll, box;
    if (!PyArg_ParseTuple(args, "iiiii", &mask, &y, &u, &roll, &box)) return NULL;
    if (check_state(self, mask, y, u) < 0) return NULL;
    if (roll < 0 || roll >= self->nr || box < 0 || box >= self->nb) {
        PyErr_SetString(PyExc_ValueError, "no such roll or box");
        return NULL;
    }
    int extra, m2, y2, up, u2;
    int points = fill_box(self, mask, y, roll, box, &extra, &m2, &y2, &up);
    int bonus = add_upper(self, u, up, &u2);
    if (points < 0) u2 = u;
    return Py_BuildValue("(iiiiii)", points, extra, bonus, m2, y2, u2);
}

static int parse_buffer(PyObject *o, Py_buffer *b, Py_ssize_t items, Py_ssize_t itemsize,
                        int writable, const char *what) {
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (b->itemsize != itemsize || (items >= 0 && b->len < items * itemsize)) {
        PyErr_Format(PyExc_ValueError, "%s: wrong size or type", what);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

static PyObject *Kernels_solve(Kernels *self, PyObject *args) {
    PyObject *om, *oy;
    Py_ssize_t start, step;
    if (!PyArg_ParseTuple(args, "OOnn", &om, &oy, &start, &step)) return NULL;
    Py_buffer bm, by;
    if (parse_buffer(om, &bm, -1, 4, 0, "jobs_mask") < 0) return NULL;
    if (parse_buffer(oy, &by, bm.len / 4, 4, 0, "jobs_y") < 0) {
        PyBuffer_Release(&bm);
        return NULL;
    }
    Py_ssize_t n = bm.len / 4;
    const int32_t *jm = bm.buf, *jy = by.buf;
    int bad = step < 1 || start < 0;
    for (Py_ssize_t j = 0; j < n && !bad; j++)
        if (check_state(self, jm[j], jy[j], 0) < 0) bad = 2;
    if (bad) {
        if (bad == 1) PyErr_SetString(PyExc_ValueError, "bad start or step");
        PyBuffer_Release(&bm);
        PyBuffer_Release(&by);
        return NULL;
    }
    Scratch s;
    if (scratch_init(self, &s) < 0) {
        PyBuffer_Release(&bm);
        PyBuffer_Release(&by);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    solve_jobs(self, &s, jm, jy, start, n, step);
    Py_END_ALLOW_THREADS
    free(s.block);
    PyBuffer_Release(&bm);
    PyBuffer_Release(&by);
    Py_RETURN_NONE;
}

static PyObject *Kernels_turn(Kernels *self, PyObject *args) {
    int mask, y, u, rerolls;
    PyObject *oa, *ov, *ok;
    if (!PyArg_ParseTuple(args, "iiiiOOO", &mask, &y, &u, &rerolls, &oa, &ov, &ok))
        return NULL;
    if (check_state(self, mask, y, u) < 0) return NULL;
    if (rerolls < 0 || rerolls >= self->rolls) {
        PyErr_SetString(PyExc_ValueError, "rerolls out of range");
        return NULL;
    }
    Py_buffer ba, bv, bk;
    if (parse_buffer(oa, &ba, self->nb, 8, 1, "abox") < 0) return NULL;
    if (parse_buffer(ov, &bv, (Py_ssize_t)self->ne + FACES * self->nb, 8, 1, "values") < 0) {
        PyBuffer_Release(&ba);
        return NULL;
    }
    if (parse_buffer(ok, &bk, (Py_ssize_t)rerolls * self->nk, 8, 1, "keeps") < 0) {
        PyBuffer_Release(&ba);
        PyBuffer_Release(&bv);
        return NULL;
    }
    Scratch *s = self->scratch;
    turn_tables(self, s, mask, y, u, rerolls, bv.buf, bk.buf);
    int64_t *abox = ba.buf;
    int n = s->plan.nallowed;
    for (int i = 0; i < n; i++) abox[i] = s->plan.abox[i];
    PyBuffer_Release(&ba);
    PyBuffer_Release(&bv);
    PyBuffer_Release(&bk);
    return PyLong_FromLong(n);
}

/* The faces of `dice` (a tuple of nd ints 1 .. 6) in faces[], and their roll; -1 with an
 * exception set when they are not. */
static int read_dice(const Kernels *self, PyObject *dice, int *faces) {
    const int nd = self->dice;
    int c[FACES] = {0, 0, 0, 0, 0, 0};
    if (PyTuple_GET_SIZE(dice) != nd) {
        PyErr_SetString(PyExc_ValueError, "advise: wrong number of dice");
        return -1;
    }
    for (int i = 0; i < nd; i++) {
        long f = PyLong_AsLong(PyTuple_GET_ITEM(dice, i));
        if (f < 1 || f > FACES) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "advise: a die is 1 to 6");
            return -1;
        }
        faces[i] = (int)f;
        c[f - 1]++;
    }
    return roll_of_counts(self, c);
}

/* Every option of roll r (faces in their positions) from a turn's tables, best first, as
 * option_type((action, total + value)) tuples: the n boxes abox and, when kv is not NULL,
 * the keeps of the row kv. actions[b] fills box b, actions[nb + m] holds the dice of
 * position bit mask m (the first dice of each face, one option per kept multiset). */
static PyObject *option_list(const Kernels *self, const int64_t *abox, int n,
                             const double *vals, const double *kv, int r, const int *faces,
                             PyObject *actions, PyTypeObject *option_type, double total) {
    const int nb = self->nb, nd = self->dice;
    int count = 0, most = nb + self->sub_width;
    int code_here[64];
    double value_here[64];
    int *code = most <= 64 ? code_here : PyMem_Malloc(sizeof(int) * most);
    double *value = most <= 64 ? value_here : PyMem_Malloc(sizeof(double) * most);
    if (!code || !value) {
        if (code != code_here) PyMem_Free(code);
        if (value != value_here) PyMem_Free(value);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < n; i++) {
        if (abox[i] < 0 || abox[i] >= nb) continue;
        double v = box_value(self, vals, r, (int)abox[i]);
        if (v > NEG / 2) {
            code[count] = (int)abox[i];
            value[count++] = v;
        }
    }
    if (kv) {
        for (int i = 0; i < self->sub_count[r]; i++) {
            int k = self->sub_keeps[r * self->sub_width + i];
            int need[FACES], m = 0;
            for (int f = 0; f < FACES; f++) need[f] = self->counts[k * FACES + f];
            for (int pos = 0; pos < nd; pos++)
                if (need[faces[pos] - 1] > 0) {
                    need[faces[pos] - 1]--;
                    m |= 1 << pos;
                }
            code[count] = nb + m;
            value[count++] = kv[k];
        }
    }
    /* Best first; equal values keep their order (boxes, then keeps). */
    for (int i = 1; i < count; i++) {
        int ci = code[i];
        double vi = value[i];
        int j = i - 1;
        while (j >= 0 && value[j] < vi) {
            code[j + 1] = code[j];
            value[j + 1] = value[j];
            j--;
        }
        code[j + 1] = ci;
        value[j + 1] = vi;
    }
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++) {
        PyObject *v = PyFloat_FromDouble(value[i] + total);
        PyObject *a = PyTuple_GET_ITEM(actions, code[i]);
#if PY_VERSION_HEX < 0x030E0000
        /* As tuple.__new__(option_type, (a, v)) makes it, without the two tuples on the
         * way (tuples cache no hash before Python 3.14). */
        PyObject *opt = v ? option_type->tp_alloc(option_type, 2) : NULL;
        if (opt) {
            PyTuple_SET_ITEM(opt, 0, Py_NewRef(a));
            PyTuple_SET_ITEM(opt, 1, v);
        } else {
            Py_XDECREF(v);
        }
#else
        PyObject *pair = v ? PyTuple_Pack(2, a, v) : NULL;
        Py_XDECREF(v);
        PyObject *wrapped = pair ? PyTuple_Pack(1, pair) : NULL;
        Py_XDECREF(pair);
        PyObject *opt = wrapped ? PyTuple_Type.tp_new(option_type, wrapped, NULL) : NULL;
        Py_XDECREF(wrapped);
#endif
        if (!opt) {
            Py_DECREF(list);
            list = NULL;
            break;
        }
        PyList_SET_ITEM(list, i, opt);
    }
    if (code != code_here) PyMem_Free(code);
    if (value != value_here) PyMem_Free(value);
    return list;
}

static int check_actions(const Kernels *self, PyObject *actions, PyTypeObject *option_type) {
    if (PyTuple_GET_SIZE(actions) != self->nb + (1 << self->dice)
        || !PyType_IsSubtype(option_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_ValueError, "advise: wrong actions or option type");
        return -1;
    }
    return 0;
}

/* distribution(mask, y, u, roll, rerolls, threads) -> (lo, bytes): score_distribution
 * from roll number `roll` (-1: the turn's first roll is still to come) with `rerolls`
 * rerolls left, on `threads` threads; the bytes are the doubles p[a - lo]. */
static PyObject *Kernels_distribution(Kernels *self, PyObject *args) {
    int mask, y, u, roll, rerolls, threads;
    if (!PyArg_ParseTuple(args, "iiiiii", &mask, &y, &u, &roll, &rerolls, &threads))
        return NULL;
    if (check_state(self, mask, y, u) < 0) return NULL;
    if (roll < -1 || roll >= self->nr || rerolls < 0 || rerolls >= self->rolls) {
        PyErr_SetString(PyExc_ValueError, "distribution: no such roll or rerolls");
        return NULL;
    }
    Dist res;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = score_distribution(self, mask, y, u, roll, rerolls, threads, &res);
    Py_END_ALLOW_THREADS
    if (status == -1) return PyErr_NoMemory();
    if (status == -2) {
        PyErr_Format(PyExc_ValueError, "distribution: state (%d, %d, %d) has no option", mask,
                     y, u);
        return NULL;
    }
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)res.p,
                                                (Py_ssize_t)(res.hi - res.lo) * sizeof(double));
    free(res.p);
    if (!bytes) return NULL;
    return Py_BuildValue("(iN)", res.lo, bytes);
}

/* remaining(tail, threads) -> (keys, lo, len, chances): remaining_table as bytes: int32
 * keys, lows and lengths per row, and the rows' float32 chances one after the other. */
static PyObject *Kernels_remaining(Kernels *self, PyObject *args) {
    int threads;
    double tail;
    if (!PyArg_ParseTuple(args, "di", &tail, &threads)) return NULL;
    if (!(tail >= 0.0 && tail < 0.5)) {
        PyErr_SetString(PyExc_ValueError, "remaining: a tail is from 0 to 0.5");
        return NULL;
    }
    Rows R;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = remaining_table(self, threads, tail, &R);
    Py_END_ALLOW_THREADS
    if (status == -1) return PyErr_NoMemory();
    if (status == -2) {
        PyErr_SetString(PyExc_ValueError, "remaining: a state has no option");
        return NULL;
    }
    Py_ssize_t cells = 0;
    for (int i = 0; i < R.n; i++) cells += R.len[i];
    PyObject *keys = PyBytes_FromStringAndSize((const char *)R.key, sizeof(int) * R.n);
    PyObject *lo = PyBytes_FromStringAndSize((const char *)R.lo, sizeof(int) * R.n);
    PyObject *len = PyBytes_FromStringAndSize((const char *)R.len, sizeof(int) * R.n);
    PyObject *data = PyBytes_FromStringAndSize(NULL, cells * (Py_ssize_t)sizeof(float));
    if (data) {
        char *out = PyBytes_AS_STRING(data);
        for (int i = 0; i < R.n; i++) {
            memcpy(out, R.p[i], sizeof(float) * R.len[i]);
            out += sizeof(float) * R.len[i];
        }
    }
    rows_free(&R);
    if (!keys || !lo || !len || !data) {
        Py_XDECREF(keys);
        Py_XDECREF(lo);
        Py_XDECREF(len);
        Py_XDECREF(data);
        return NULL;
    }
    return Py_BuildValue("(NNNN)", keys, lo, len, data);
}

/* advise(entries, yahtzee_bonus, dice, rolls_left, actions, option_type): every option of
 * a scorecard — its boxes' entries (points or None) and the points of its extra-Yahtzee
 * bonuses — with `dice` rolled and `rolls_left` rolls left, best first, as options()
 * gives them, the card's total included: the state read off the entries, its turn tables
 * made (or kept from the last call, when the state is the same) and the options listed,
 * in one call. An empty list for a full card; None for entries no game of these tables
 * reaches (points a box cannot hold, or boxes the play order cannot have filled), which
 * the caller words. */
static PyObject *Kernels_advise(Kernels *self, PyObject *args) {
    PyObject *entries, *dice, *actions;
    PyTypeObject *option_type;
    long long ybonus;
    int left;
    if (!PyArg_ParseTuple(args, "O!LO!iO!O!", &PyTuple_Type, &entries, &ybonus,
                          &PyTuple_Type, &dice, &left, &PyTuple_Type, &actions,
                          &PyType_Type, &option_type))
        return NULL;
    const int nb = self->nb, pw = self->pw;
    if (check_actions(self, actions, option_type) < 0) return NULL;
    if (left < 0 || left >= self->rolls) {
        PyErr_SetString(PyExc_ValueError, "advise: rolls left out of range");
        return NULL;
    }
    if (PyTuple_GET_SIZE(entries) != nb) Py_RETURN_NONE;
    int mask = 0, up = 0, y = 0;
    long long total = ybonus;
    for (int b = 0; b < nb; b++) {
        PyObject *e = PyTuple_GET_ITEM(entries, b);
        if (e == Py_None) continue;
        if (!PyLong_Check(e)) Py_RETURN_NONE;
        int overflow;
        long p = PyLong_AsLongAndOverflow(e, &overflow);
        if (overflow || p < 0 || p >= 64L * pw
            || !((self->possible[(size_t)b * pw + p / 64] >> (p % 64)) & 1))
            Py_RETURN_NONE;
        mask |= 1 << b;
        total += p;
        if (self->is_upper[b]) up += (int)p;
        if (b == self->yahtzee_box && p == self->y_points && self->y_count > 1) y = 1;
    }
    if (mask == (1 << nb) - 1) return PyList_New(0);
    if (!self->allowed[mask]) Py_RETURN_NONE;
    int u = up < self->threshold ? up : self->threshold;
    if (up >= self->threshold) total += self->bonus;
    int faces[16];
    int r = read_dice(self, dice, faces);
    if (r < 0) return NULL;
    if (mask != self->adv_mask || y != self->adv_y || u != self->adv_u) {
        Scratch *s = self->scratch;
        self->adv_mask = -1;
        turn_tables(self, s, mask, y, u, self->rolls - 1, self->adv_values, self->adv_keeps);
        self->adv_n = s->plan.nallowed;
        for (int i = 0; i < self->adv_n; i++) self->adv_abox[i] = s->plan.abox[i];
        self->adv_mask = mask;
        self->adv_y = y;
        self->adv_u = u;
    }
    return option_list(self, self->adv_abox, self->adv_n, self->adv_values,
                       left ? self->adv_keeps + (size_t)(left - 1) * self->nk : NULL, r, faces,
                       actions, option_type, (double)total);
}

/* forget(): drop the turn tables advise() keeps. */
static PyObject *Kernels_forget(Kernels *self, PyObject *Py_UNUSED(ignored)) {
    self->adv_mask = -1;
    Py_RETURN_NONE;
}

/* play(state, lo, hi, faces or None, uniforms or None, temperature, choices or None,
 * threads, history or None): play games lo .. hi - 1 to their end on `threads` threads. */
static PyObject *Kernels_play(Kernels *self, PyObject *args) {
    PyObject *os, *of, *ou, *oc, *oh = Py_None;
    Py_ssize_t lo, hi;
    double temperature;
    int threads;
    if (!PyArg_ParseTuple(args, "OnnOOdOi|O", &os, &lo, &hi, &of, &ou, &temperature, &oc,
                          &threads, &oh))
        return NULL;
    Py_buffer bs, bf, bu, bc, bh;
    int hf = of != Py_None, hu = ou != Py_None, hc = oc != Py_None, hh = oh != Py_None;
    if (parse_buffer(os, &bs, -1, 8, 1, "state") < 0) return NULL;
    Py_ssize_t games = bs.len / (8 * G_COLS);
    const Py_ssize_t per_game = (Py_ssize_t)self->nb * self->rolls;
    int ok = lo >= 0 && hi >= lo && hi <= games && bs.len == games * 8 * G_COLS;
    if (!ok) PyErr_SetString(PyExc_ValueError, "play: bad game range or state");
    if (ok && hf && parse_buffer(of, &bf, games * per_game * self->dice, 1, 0, "faces") < 0) {
        ok = 0;
        hf = 0;
    }
    if (ok && hu && parse_buffer(ou, &bu, games * per_game, 8, 0, "uniforms") < 0) {
        ok = 0;
        hu = 0;
    }
    if (ok && hc && parse_buffer(oc, &bc, games * per_game, 8, 1, "choices") < 0) {
        ok = 0;
        hc = 0;
    }
    if (ok && hh
        && parse_buffer(oh, &bh, games * (self->nb + 1) * 4, 8, 1, "history") < 0) {
        ok = 0;
        hh = 0;
    }
    if (ok && hf) {
        const int8_t *f = bf.buf;
        for (Py_ssize_t i = 0; i < games * per_game * self->dice; i++)
            if (f[i] < 1 || f[i] > FACES) {
                PyErr_SetString(PyExc_ValueError, "play: a die is 1 to 6");
                ok = 0;
                break;
            }
    }
    if (ok && temperature > 0.0 && hf && !hu) {
        PyErr_SetString(PyExc_ValueError, "play: given dice need given uniforms");
        ok = 0;
    }
    int64_t *state = bs.buf;
    for (Py_ssize_t g = lo; ok && g < hi; g++)
        if (check_state(self, (int)state[g * G_COLS + G_MASK], (int)state[g * G_COLS + G_Y],
                        (int)state[g * G_COLS + G_U]) < 0)
            ok = 0;
    int status = 0;
    if (ok) {
        PlaySource src = {hf ? bf.buf : NULL, hu ? bu.buf : NULL, hc ? bc.buf : NULL,
                          hh ? bh.buf : NULL, temperature};
        Py_BEGIN_ALLOW_THREADS
        status = play_games(self, state, lo, hi, &src, threads);
        Py_END_ALLOW_THREADS
        if (status == -2) {
            PyErr_NoMemory();
            ok = 0;
        } else if (status < 0) {
            PyErr_SetString(PyExc_RuntimeError, "play: a game had no legal option");
            ok = 0;
        }
    }
    PyBuffer_Release(&bs);
    if (hf) PyBuffer_Release(&bf);
    if (hu) PyBuffer_Release(&bu);
    if (hc) PyBuffer_Release(&bc);
    if (hh) PyBuffer_Release(&bh);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* seed_games(state, seed, first): each game's own stream of dice, from the seed and the
 * game's number (first + row), so a game's dice do not depend on how games are split. */
static PyObject *Kernels_seed_games(Kernels *self, PyObject *args) {
    PyObject *os;
    unsigned long long seed;
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "OKn", &os, &seed, &first)) return NULL;
    Py_buffer bs;
    if (parse_buffer(os, &bs, -1, 8, 1, "state") < 0) return NULL;
    int64_t *state = bs.buf;
    Py_ssize_t games = bs.len / (8 * G_COLS);
    uint64_t base = mix64(seed ^ 0x5bd1e995a5a5a5a5ULL);
    for (Py_ssize_t g = 0; g < games; g++)
        state[g * G_COLS + G_RNG] = (int64_t)mix64(base + mix64((uint64_t)(first + g)));
    PyBuffer_Release(&bs);
    Py_RETURN_NONE;
}

/* --- Environments: solitaire games stepped together -------------------------------- */

/* The games of a vector environment (yatzy.rl.vector), one row each in arrays the caller
 * keeps: state [n][G_COLS] (the simulation's rows; the dice drawn from G_RNG), dice
 * [n][dice] (by position), left [n] (rerolls left), scores [n][nb] (each box's points, 0
 * while open), history [n][nb * rolls + 1][1 + dice] and count [n] (what each game did:
 * row 0 its first roll, then per action the action and the dice after it). Actions
 * number as the environment's: keep mask a (bit i = hold the die at position i) for
 * a < 2^dice - 1, else box a - (2^dice - 1). */
typedef struct {
    int64_t *state;
    int8_t *dice, *left, *legal;
    int16_t *scores, *history;
    int64_t *count, *reward;
    const int64_t *actions;
    const uint8_t *restart;
    int keeps, nactions, hrows;
} EnvGames;

static int dice_roll(const Kernels *t, const int8_t *d) {
    int c[FACES] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < t->dice; i++) c[d[i] - 1]++;
    return roll_of_counts(t, c);
}

/* 1 when the rules let the game in `row` fill `box` with roll r, else 0. */
INLINE int box_legal(const Kernels *t, const int64_t *row, int r, int box) {
    int extra, m2, y2, up;
    return fill_box(t, (int)row[G_MASK], (int)row[G_Y], r, box, &extra, &m2, &y2, &up) >= 0;
}

/* 1 when action a is legal in game g (whose card is not full), else 0. */
static int env_legal(const Kernels *t, const EnvGames *e, Py_ssize_t g, int64_t a) {
    if (a < 0 || a >= e->nactions) return 0;
    if (a < e->keeps) return e->left[g] > 0;
    return box_legal(t, e->state + g * G_COLS, dice_roll(t, e->dice + g * t->dice),
                     (int)(a - e->keeps));
}

static void env_record(const Kernels *t, EnvGames *e, Py_ssize_t g, int64_t a) {
    if (e->count[g] >= e->hrows) return;
    int16_t *h = e->history + (g * e->hrows + e->count[g]) * (1 + t->dice);
    h[0] = (int16_t)a;
    for (int i = 0; i < t->dice; i++) h[1 + i] = e->dice[g * t->dice + i];
    e->count[g]++;
}

/* Game g after its action (or restarted), and its next legal actions. */
static void env_apply(const Kernels *t, EnvGames *e, Py_ssize_t g) {
    int64_t *row = e->state + g * G_COLS;
    int8_t *d = e->dice + g * t->dice;
    uint64_t rng = (uint64_t)row[G_RNG];
    const int64_t full = ((int64_t)1 << t->nb) - 1;
    int64_t a = e->actions[g];
    e->reward[g] = 0;
    if (e->restart[g]) {
        row[G_MASK] = row[G_Y] = row[G_U] = row[G_TOTAL] = row[G_FIVE_BOX] = row[G_EXTRAS] = 0;
        memset(e->scores + g * t->nb, 0, sizeof(int16_t) * t->nb);
        e->count[g] = 0;
        for (int i = 0; i < t->dice; i++) d[i] = (int8_t)die(&rng);
        e->left[g] = (int8_t)(t->rolls - 1);
        a = -1;
    } else if (a < e->keeps) {
        for (int i = 0; i < t->dice; i++)
            if (!((a >> i) & 1)) d[i] = (int8_t)die(&rng);
        e->left[g]--;
    } else {
        const int box = (int)(a - e->keeps);
        int points;
        e->reward[g] = fill_row(t, row, (int)row[G_MASK], (int)row[G_Y], (int)row[G_U],
                                dice_roll(t, d), box, &points);
        e->scores[g * t->nb + box] = (int16_t)points;
        if (row[G_MASK] == full) {
            memset(d, 0, (size_t)t->dice);
            e->left[g] = 0;
        } else {
            for (int i = 0; i < t->dice; i++) d[i] = (int8_t)die(&rng);
            e->left[g] = (int8_t)(t->rolls - 1);
        }
    }
    row[G_RNG] = (int64_t)rng;
    env_record(t, e, g, a);
    int8_t *legal = e->legal + g * e->nactions;
    if (row[G_MASK] == full) {
        memset(legal, 0, (size_t)e->nactions);
        return;
    }
    memset(legal, e->left[g] > 0, (size_t)e->keeps);
    const int r = dice_roll(t, d);
    for (int box = 0; box < t->nb; box++) legal[e->keeps + box] = (int8_t)box_legal(t, row, r, box);
}

/* step_games(state, dice, left, scores, history, count, actions, restart, reward, legal)
 * -> -1, or the first game whose action is illegal (then no game changed). */
static PyObject *Kernels_step_games(Kernels *self, PyObject *args) {
    PyObject *o[10];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[8], &o[9]))
        return NULL;
    Py_buffer b[10];
    static const char *const names[10] = {"state", "dice", "left", "scores", "history",
                                          "count", "actions", "restart", "reward", "legal"};
    static const Py_ssize_t sizes[10] = {8, 1, 1, 2, 2, 8, 8, 1, 8, 1};
    static const int writable[10] = {1, 1, 1, 1, 1, 1, 0, 0, 1, 1};
    int got = 0;
    for (; got < 10; got++)
        if (parse_buffer(o[got], &b[got], -1, sizes[got], writable[got], names[got]) < 0) break;
    Py_ssize_t n = got == 10 ? b[0].len / (8 * G_COLS) : 0;
    EnvGames e = {0};
    e.keeps = (1 << self->dice) - 1;
    e.nactions = e.keeps + self->nb;
    e.hrows = self->nb * self->rolls + 1;
    int ok = got == 10 && b[0].len == n * 8 * G_COLS && b[1].len == n * self->dice
             && b[2].len == n && b[3].len == n * self->nb * 2
             && b[4].len == n * e.hrows * (1 + self->dice) * 2 && b[5].len == n * 8
             && b[6].len == n * 8 && b[7].len == n && b[8].len == n * 8
             && b[9].len == n * e.nactions;
    if (got == 10 && !ok) PyErr_SetString(PyExc_ValueError, "step_games: arrays of the wrong size");
    Py_ssize_t bad = -1;
    if (ok) {
        e.state = b[0].buf;
        e.dice = b[1].buf;
        e.left = b[2].buf;
        e.scores = b[3].buf;
        e.history = b[4].buf;
        e.count = b[5].buf;
        e.actions = b[6].buf;
        e.restart = b[7].buf;
        e.reward = b[8].buf;
        e.legal = b[9].buf;
        const int64_t full = ((int64_t)1 << self->nb) - 1;
        for (Py_ssize_t g = 0; g < n; g++) {
            if (e.restart[g]) continue;
            const int64_t *row = e.state + g * G_COLS;
            if (check_state(self, (int)row[G_MASK], (int)row[G_Y], (int)row[G_U]) < 0) {
                ok = 0;
                break;
            }
            int faces_ok = 1;
            for (int i = 0; i < self->dice; i++)
                faces_ok &= e.dice[g * self->dice + i] >= 1 && e.dice[g * self->dice + i] <= FACES;
            if (row[G_MASK] == full || !faces_ok || !env_legal(self, &e, g, e.actions[g])) {
                bad = g;
                break;
            }
        }
        if (ok && bad < 0)
            for (Py_ssize_t g = 0; g < n; g++) env_apply(self, &e, g);
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    if (!ok) return NULL;
    return PyLong_FromSsize_t(bad);
}

static PyMethodDef Kernels_methods[] = {
    {"fill", (PyCFunction)Kernels_fill, METH_VARARGS,
     "fill(mask, y, u, roll, box) -> (points, extra, bonus, mask2, y2, u2)"},
    {"solve", (PyCFunction)Kernels_solve, METH_VARARGS,
     "solve(jobs_mask, jobs_y, start, step): fill V for jobs start, start + step, ..."},
    {"turn", (PyCFunction)Kernels_turn, METH_VARARGS,
     "turn(mask, y, u, rerolls, abox, values, keeps) -> allowed boxes"},
    {"advise", (PyCFunction)Kernels_advise, METH_VARARGS,
     "advise(entries, yahtzee_bonus, dice, rolls_left, actions, option_type) -> list or None"},
    {"forget", (PyCFunction)Kernels_forget, METH_NOARGS, "forget() -> None"},
    {"remaining", (PyCFunction)Kernels_remaining, METH_VARARGS,
     "remaining(tail, threads) -> (keys, lo, len, chances)"},
    {"distribution", (PyCFunction)Kernels_distribution, METH_VARARGS,
     "distribution(mask, y, u, roll, rerolls, threads) -> (lo, bytes)"},
    {"play", (PyCFunction)Kernels_play, METH_VARARGS,
     "play(state, lo, hi, faces, uniforms, temperature, choices, threads, history=None)"},
    {"seed_games", (PyCFunction)Kernels_seed_games, METH_VARARGS,
     "seed_games(state, seed, first)"},
    {"step_games", (PyCFunction)Kernels_step_games, METH_VARARGS,
     "step_games(state, dice, left, scores, history, count, actions, restart, reward, legal)"
     " -> -1 or the first game whose action is illegal"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject KernelsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "yatzy.solver._kernels.Kernels",
    .tp_doc = "One ruleset's tables and value table, for the compiled loops.",
    .tp_basicsize = sizeof(Kernels),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernels_init,
    .tp_dealloc = (destructor)Kernels_dealloc,
    .tp_methods = Kernels_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels",
    "The solver's compiled loops (see yatzy.solver.kernels).", -1, NULL};

PyMODINIT_FUNC PyInit__kernels(void) {
    if (PyType_Ready(&KernelsType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&KernelsType);
    if (PyModule_AddObject(m, "Kernels", (PyObject *)&KernelsType) < 0) {
        Py_DECREF(&KernelsType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddObject(m, "NEG", PyFloat_FromDouble(NEG));
    PyModule_AddIntConstant(m, "COLUMNS", G_COLS);
    return m;
}
