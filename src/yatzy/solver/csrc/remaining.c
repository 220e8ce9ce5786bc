/* The table of what is still to come (yatzy.solver.remaining). For every state a game
 * reaches, the distribution of the points still to come under optimal play: rows in
 * layers, row i for state key[i] holding the chances of lo[i] .. lo[i] + len[i] - 1 more
 * points (as floats), with tails of less than `tail` on each side cut off. Worked out
 * from the full card back, one layer of filled boxes at a time: a state's row is its
 * turn's outcomes' rows, shifted by their gains and weighted by their chances. */
#include <stdlib.h>
#include <string.h>

#include "outcomes.h"

/* A thread's share of a layer's blocks (see Share in distribution.c) for the table. */
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
        block_picks(t, &s->sc);
        for (int q = 0; q < nl; q++) {
            if (turn_outcomes(t, &s->sc, s->sc.picks, &s->w, sm, sy, lu[q], q, -1, 0) < 0) {
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
                double *out = s->acc + g + R->lo[r];
                const int n = R->len[r];
                if (R->d) {
                    const double *in = R->d[r];
                    for (int j = 0; j < n; j++) out[j] += p * in[j];
                } else {
                    const float *in = R->p[r];
                    for (int j = 0; j < n; j++) out[j] += p * in[j];
                }
            }
            /* Cut the tails (exact: the zeros only). */
            int lo = 0, top = hi;
            if (R->d) {
                while (lo < top && s->acc[lo] == 0.0) lo++;
                while (top > lo && s->acc[top] == 0.0) top--;
            } else {
                double cut = 0.0;
                while (lo < top && cut + s->acc[lo] < s->tail) cut += s->acc[lo++];
                cut = 0.0;
                while (top > lo && cut + s->acc[top] < s->tail) cut += s->acc[top--];
            }
            const int i = R->n + a + q;
            void *row = malloc((R->d ? sizeof(double) : sizeof(float)) * (top - lo + 1));
            if (!row) {
                s->status = -1;
                break;
            }
            if (R->d) {
                memcpy(row, s->acc + lo, sizeof(double) * (top - lo + 1));
                R->d[i] = row;
            } else {
                float *f = row;
                for (int j = lo; j <= top; j++) f[j - lo] = (float)s->acc[j];
                R->p[i] = f;
            }
            R->key[i] = s->keys[a + q];
            R->lo[i] = lo;
            R->len[i] = top - lo + 1;
        }
    }
    return NULL;
}

void rows_free(Rows *R) {
    if (R->p)
        for (int i = 0; i < R->n; i++) free(R->p[i]);
    if (R->d)
        for (int i = 0; i < R->n; i++) free(R->d[i]);
    free(R->key);
    free(R->lo);
    free(R->len);
    free(R->p);
    free(R->d);
}

/* The table (see Rows) on `threads` threads; the rows come out in layers from the full
 * card back, sorted by state within a layer. Returns -1 when out of memory, -2 when a
 * state has no option. */
int remaining_table(const Kernels *t, int threads, double tail, int upto, Rows *R) {
    const int full = (1 << t->nb) - 1;
    const size_t nstates = ((size_t)1 << t->nb) * t->y_count * t->stride;
    if (threads < 1) threads = 1;
    if (threads > THREADS_MAX) threads = THREADS_MAX;
    int status = 0, ready = 0;
    TableShare shares[THREADS_MAX];
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
    if (upto >= 0) R->d = calloc(R->cap, sizeof(double *));
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
        || !R->len || !R->p || (upto >= 0 && !R->d)) {
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
        /* From the last layer back; rows next_start .. R->n - 1 are those of the layer
         * after the one being worked out. */
        int next_start = 0;
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
                double **d1 = R->d ? realloc(R->d, sizeof(double *) * cap) : NULL;
                if (d1) R->d = d1;
                if (!k1 || !l1 || !n1 || !p1 || (R->d && !d1)) {
                    status = -1;
                    break;
                }
                for (int i = R->cap; i < cap; i++) R->p[i] = NULL;
                if (R->d)
                    for (int i = R->cap; i < cap; i++) R->d[i] = NULL;
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
                if (R->d ? R->d[R->n + i] != NULL : R->p[R->n + i] != NULL)
                    row_of[R->key[R->n + i]] = R->n + i;
            /* Exact: the layer after this one is read no more. */
            if (R->d && c + 1 > upto)
                for (int i = next_start; i < R->n; i++) {
                    free(R->d[i]);
                    R->d[i] = NULL;
                }
            next_start = R->n;
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
        for (int i = R->n; i < R->cap && R->d; i++) free(R->d[i]);
        rows_free(R);
        memset(R, 0, sizeof(*R));
    }
    return status;
}

