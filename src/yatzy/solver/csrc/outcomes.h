/* How a turn ends under optimal play, and the threads that work such turns out for a
 * layer of states: shared by the score distributions and the table of what is still to
 * come. */
#ifndef YATZY_OUTCOMES_H
#define YATZY_OUTCOMES_H

#include "turn.h"

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

int walk_init(const Kernels *t, Walk *w);
void walk_free(Walk *w);
/* How a turn in state (mask, y, u) ends under optimal play: see outcomes.c. Returns -1
 * when some roll has no option (a full card). */
int turn_outcomes(const Kernels *t, const Scratch *sc, const int32_t *picks, Walk *w, int mask,
                  int y, int u, int q, int r0, int left0);
/* Blocks of states sorted by key: up to LANES states of one (mask, y) in a row. Reads
 * key i at base + i * step (bytes); writes each block's first state to blocks[] and n
 * after the last; returns how many blocks. */
int cut_blocks(const Kernels *t, const char *base, size_t step, int n, int *blocks);
/* run(&shares[q]) for every q < threads, on their own threads as far as there are
 * blocks for them (`size` bytes a share), share 0 on this one; returns when all are done. */
void run_shares(void *(*run)(void *), void *shares, size_t size, int threads, int nblocks);

#endif
