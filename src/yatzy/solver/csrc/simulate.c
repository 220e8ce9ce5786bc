/* Games played to their end by the optimal strategy (or at a temperature), many at a
 * time: yatzy.solver.simulate. The games move in lockstep, a turn at a time; each turn
 * they are sorted by state, and the games of up to LANES upper sums of one set of filled
 * boxes share one turn_block. Threads take blocks in turn. */
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "turn.h"

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

/* Sort idx[0 .. n - 1] by keys (below 1 << bits), stably: radix sort, 11 bits a pass. */
static void sort_by_key(int64_t *idx, int64_t *tmp, const uint32_t *keys, ptrdiff_t n,
                        int bits, ptrdiff_t *count) {
    for (int shift = 0; shift < bits; shift += 11) {
        memset(count, 0, sizeof(ptrdiff_t) * 2049);
        for (ptrdiff_t i = 0; i < n; i++) count[((keys[idx[i]] >> shift) & 2047) + 1]++;
        for (int b = 0; b < 2048; b++) count[b + 1] += count[b];
        for (ptrdiff_t i = 0; i < n; i++) tmp[count[(keys[idx[i]] >> shift) & 2047]++] = idx[i];
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

/* Add n dice to the face counts c: the given faces (checked before the games started,
 * but read again here, where a caller's thread could have changed them) or, without
 * them, dice drawn from the stream. Returns 0, or -1 for a face outside 1 .. 6. */
INLINE int add_dice(int *c, const int8_t *given, int n, uint64_t *rng) {
    for (int i = 0; i < n; i++) {
        const int f = given ? given[i] : die(rng);
        if ((unsigned)(f - 1) >= FACES) return -1;
        c[f - 1]++;
    }
    return 0;
}

/* One turn of one game in state (m, y, u), from lane q of the turn's values in the
 * scratch memory (entries ev and ev5, keeps snap: see turn_block). Returns 0, -1 when
 * the game had no option, -3 when a given die is no face (see add_dice). */
INLINE int play_turn(const Kernels *t, const Scratch *sc, int64_t *row, ptrdiff_t game,
                     int turn, int m, int y, int u, int q, Memo *memo, double *opt,
                     int *what, const PlaySource *src) {
    const int nb = t->nb, nr = t->nr, rolls = t->rolls, dice = t->dice;
    const int rerolls = rolls - 1;
    const int greedy = src->temperature <= 0.0;
    uint64_t rng = (uint64_t)row[G_RNG];
    const int8_t *gf = src->faces ? src->faces + ((size_t)game * nb + turn) * rolls * dice : NULL;
    int64_t *chosen = src->choices ? src->choices + ((size_t)game * nb + turn) * rolls : NULL;
    int c[FACES] = {0, 0, 0, 0, 0, 0};
    if (add_dice(c, gf, dice, &rng) < 0) {
        row[G_RNG] = (int64_t)rng;
        return -3;
    }
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
        if (add_dice(c, rf, dice - kept, &rng) < 0) {
            row[G_RNG] = (int64_t)rng;
            return -3;
        }
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
    ptrdiff_t lo, n;
    const PlaySource *src;
    int turn;
    int64_t *idx;           /* [n]: the games, sorted by state */
    uint32_t *keys;         /* [n]: each game's state */
    ptrdiff_t *blocks;     /* [nblocks + 1]: where each block starts in idx */
    ptrdiff_t nblocks;
    ptrdiff_t next;        /* the next block to take (atomic) */
    int status;             /* -1 or -3 when a game stopped (see play_turn; atomic) */
} Lockstep;

/* The block that starts at sorted game a (ending before `end`): the games of up to
 * LANES upper sums of the (mask, y) of game a. Sets lane q's upper sum lu[q] and its
 * first game start[q] (start[nl] = the block's end) and returns nl. */
static int block_lanes(const Lockstep *ls, ptrdiff_t a, ptrdiff_t end, int *lu,
                       ptrdiff_t *start) {
    const uint32_t stride = (uint32_t)ls->t->stride;
    const uint32_t my = ls->keys[ls->idx[a]] / stride;
    ptrdiff_t j = a;
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
        ptrdiff_t first = __atomic_fetch_add(&ls->next, GRAIN, __ATOMIC_RELAXED);
        if (first >= ls->nblocks) break;
        ptrdiff_t last = first + GRAIN < ls->nblocks ? first + GRAIN : ls->nblocks;
        for (ptrdiff_t bk = first; bk < last; bk++) {
            const ptrdiff_t a = ls->blocks[bk];
            const uint32_t my = ls->keys[ls->idx[a]] / stride;
            int lu[LANES];
            ptrdiff_t start[LANES + 1];
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
                for (ptrdiff_t g = start[q]; g < start[q + 1]; g++) {
                    ptrdiff_t game = ls->lo + ls->idx[g];
                    /* Rows are visited in the order of states, all over memory: ask for
                     * a row some games ahead (both cache lines it may span). */
                    if (g + PREFETCH < ls->n) {
                        const int64_t *ahead = ls->state + (ls->lo + ls->idx[g + PREFETCH]) * G_COLS;
                        __builtin_prefetch(ahead, 1);
                        __builtin_prefetch(ahead + G_COLS - 1, 1);
                    }
                    const int done = play_turn(t, s, ls->state + game * G_COLS, game, ls->turn,
                                               m, y, lu[q], q, &w->memo, w->opt, w->what,
                                               ls->src);
                    if (done < 0) __atomic_store_n(&ls->status, done, __ATOMIC_RELAXED);
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

HOT int play_games(const Kernels *t, int64_t *state, ptrdiff_t lo, ptrdiff_t hi,
                          const PlaySource *src, int threads) {
    const int nb = t->nb;
    ptrdiff_t n = hi - lo;
    if (threads < 1) threads = 1;
    if (threads > THREADS_MAX) threads = THREADS_MAX;
    int bits = 1;
    while ((1LL << bits) < (1LL << nb) * t->y_count * t->stride) bits++;
    Lockstep ls = {t, state, lo, n, src, 0, NULL, NULL, NULL, 0, 0, 0};
    int64_t *tmp = malloc(sizeof(int64_t) * (n + 1));
    ptrdiff_t *count = malloc(sizeof(ptrdiff_t) * 2049);
    Worker *workers = calloc((size_t)threads, sizeof(Worker));
    pthread_t *ids = calloc((size_t)threads, sizeof(pthread_t));
    ls.idx = malloc(sizeof(int64_t) * (n + 1));
    ls.keys = malloc(sizeof(uint32_t) * (n + 1));
    ls.blocks = malloc(sizeof(ptrdiff_t) * (n + 1));
    int status = (!tmp || !count || !workers || !ids || !ls.idx || !ls.keys || !ls.blocks) ? -2 : 0;
    for (int i = 0; status == 0 && i < threads; i++)
        if (worker_init(t, &ls, &workers[i]) < 0) status = -2;
    for (int turn = 0; status == 0 && turn <= nb; turn++) {
        if (src->history)
            for (ptrdiff_t i = 0; i < n; i++) {
                const int64_t *row = state + (lo + i) * G_COLS;
                int64_t *h = src->history + ((lo + i) * (nb + 1) + turn) * 4;
                h[0] = row[G_MASK];
                h[1] = row[G_Y];
                h[2] = row[G_U];
                h[3] = row[G_TOTAL];
            }
        if (turn == nb) break;
        for (ptrdiff_t i = 0; i < n; i++) {
            /* Checked before the games started, and again here: the rows are the
             * caller's, and the loop trusts nothing it reads from them. */
            const int64_t *row = state + (lo + i) * G_COLS;
            const int64_t m = row[G_MASK], y = row[G_Y], u = row[G_U];
            if (!state_ok(t, m, y, u)) {
                status = -3;
                break;
            }
            ls.idx[i] = i;
            ls.keys[i] = (uint32_t)((m * t->y_count + y) * t->stride + u);
        }
        if (status) break;
        sort_by_key(ls.idx, tmp, ls.keys, n, bits, count);
        /* Blocks: up to LANES upper sums of one (mask, y). */
        ls.nblocks = 0;
        for (ptrdiff_t a = 0; a < n;) {
            int lu[LANES];
            ptrdiff_t start[LANES + 1];
            const int nl = block_lanes(&ls, a, n, lu, start);
            ls.blocks[ls.nblocks++] = a;
            a = start[nl];
        }
        ls.blocks[ls.nblocks] = n;
        ls.turn = turn;
        ls.next = 0;
        int started = 0;
        for (int i = 1; i < threads && ls.nblocks > (ptrdiff_t)i * GRAIN; i++) {
            if (pthread_create(&ids[i], NULL, play_thread, &workers[i]) != 0) break;
            started = i;
        }
        play_blocks(&workers[0]);
        for (int i = 1; i <= started; i++) pthread_join(ids[i], NULL);
        if (ls.status < 0) status = ls.status;
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


void seed_games(int64_t *state, ptrdiff_t games, uint64_t seed, uint64_t first) {
    uint64_t base = mix64(seed ^ 0x5bd1e995a5a5a5a5ULL);
    for (ptrdiff_t g = 0; g < games; g++)
        state[g * G_COLS + G_RNG] = (int64_t)mix64(base + mix64(first + (uint64_t)g));
}
