/* Score distributions: the chance of every number of points still to come from one
 * state under optimal play, the turns' outcomes carried forward a layer of filled boxes
 * at a time. */
#include <stdlib.h>
#include <string.h>

#include "outcomes.h"

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
        /* Every lane's choices at once, but for the first turn: one state, from one roll
         * mid-turn, which reaches few rolls. */
        const int32_t *picks = NULL;
        if (!s->first_turn) {
            block_picks(t, &s->sc);
            picks = s->sc.picks;
        }
        for (int q = 0; q < nl; q++) {
            if (turn_outcomes(t, &s->sc, picks, &s->w, sm, sy, lu[q], q,
                              s->first_turn ? s->r0 : -1, s->left0) < 0) {
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
int score_distribution(const Kernels *t, int mask, int y, int u, int r0, int left0,
                       int threads, Dist *res) {
    const int full = (1 << t->nb) - 1;
    const int slots = t->ne + FACES * t->nb;
    const size_t nstates = ((size_t)1 << t->nb) * t->y_count * t->stride;
    if (threads < 1) threads = 1;
    if (threads > THREADS_MAX) threads = THREADS_MAX;
    int status = 0, ready = 0;
    size_t n = 0, nn = 0, cap = 1024;
    Share shares[THREADS_MAX];
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

