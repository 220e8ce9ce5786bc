/* How a turn ends under optimal play (see outcomes.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "outcomes.h"

int walk_init(const Kernels *t, Walk *w) {
    const size_t slots = (size_t)t->ne + FACES * t->nb;
    w->M = malloc(sizeof(double) * t->nr);
    w->K = malloc(sizeof(double) * t->nk);
    w->slot = malloc(sizeof(double) * slots);
    w->gain = malloc(sizeof(int) * slots);
    w->key = malloc(sizeof(int) * slots);
    w->prob = malloc(sizeof(double) * slots);
    return w->M && w->K && w->slot && w->gain && w->key && w->prob ? 0 : -1;
}

void walk_free(Walk *w) {
    free(w->M);
    free(w->K);
    free(w->slot);
    free(w->gain);
    free(w->key);
    free(w->prob);
}

/* How a turn in state (mask, y, u) ends under optimal play — the simulation's choices,
 * the first best option (turn_options) — read from lane q of the turn's values in the
 * scratch memory (make_plan and turn_block with snap done for the state's mask and y,
 * with u in lane q): from `picks` (block_picks' choices, sc->picks, for a block whose
 * every roll is walked), or, with picks NULL, worked out for each roll reached (one
 * state from one roll: few rolls), from its first roll (r0 < 0) or from roll r0 with left0 rerolls left: w->n
 * outcomes, each filling a box for w->gain[i] points (its points, the extra-Yahtzee and
 * the upper bonus) into state w->key[i], with chance w->prob[i]. The chance of each roll
 * is carried forward through the keeps: a keep's chance goes to the keeps with one die
 * more, a sixth each. Returns -1 when some roll has no option (a full card). */
int turn_outcomes(const Kernels *t, const Scratch *sc, const int32_t *picks, Walk *w, int mask,
                  int y, int u, int q, int r0, int left0) {
    const int nr = t->nr, nb = t->nb, fr = t->first_roll;
    const int slots = t->ne + FACES * nb;
    int left = r0 < 0 ? t->rolls - 1 : left0;
    for (int r = 0; r < nr; r++) w->M[r] = r0 < 0 ? t->roll_prob[r] : (r == r0);
    memset(w->slot, 0, sizeof(double) * slots);
    for (;;) {
        if (left > 0) memset(w->K, 0, sizeof(double) * t->nk);
        for (int r = 0; r < nr; r++) {
            if (w->M[r] == 0.0) continue;
            const int pick = picks ? picks[((size_t)left * nr + r) * LANES + q]
                                   : best_option(t, sc, r, left, q);
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
        if (points < 0) return -1; /* not with the tables checked (see tables.c) */
        int bonus = add_upper(t, u, up, &u2);
        w->gain[w->n] = points + extra + bonus;
        w->key[w->n] = state_key(t, m2, y2, u2);
        w->prob[w->n++] = w->slot[e];
    }
    return 0;
}

/* Blocks of states sorted by key: up to LANES states of one (mask, y) in a row. Reads
 * key i at base + i * step (bytes); writes each block's first state to blocks[] and n
 * after the last; returns how many blocks. */
int cut_blocks(const Kernels *t, const char *base, size_t step, int n, int *blocks) {
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
void run_shares(void *(*run)(void *), void *shares, size_t size, int threads, int nblocks) {
    pthread_t ids[THREADS_MAX];
    int started = 0;
    char *s = shares;
    for (int q = 1; q < threads && q < nblocks; q++, started++)
        if (pthread_create(&ids[q], NULL, run, s + q * size) != 0) break;
    /* The threads not started: their blocks are worked out here. */
    for (int q = 1 + started; q < threads; q++) run(s + q * size);
    run(s);
    for (int q = 1; q <= started; q++) pthread_join(ids[q], NULL);
}

