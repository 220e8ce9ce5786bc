/* Games stepped by the caller's actions: the vector environment (yatzy.rl.vector; see
 * EnvGames). Every value is read from the caller's arrays once per phase into a local
 * and checked before it is used: the arrays stay the caller's throughout. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "turn.h"

/* One game as read from the caller's arrays. */
typedef struct {
    int mask, y, u, roll, left;
    int64_t count, action;
    int8_t dice[DICE_MAX];
} Seen;

/* Read game g (not restarting): 0, or -1 when its row is no state of the tables, a die
 * no face, or its rerolls left or count out of range. */
static int env_read(const Kernels *t, const EnvGames *e, ptrdiff_t g, Seen *s) {
    const int64_t *row = e->state + g * G_COLS;
    const int64_t mask = row[G_MASK], y = row[G_Y], u = row[G_U];
    if (!state_ok(t, mask, y, u)) return -1;
    s->mask = (int)mask;
    s->y = (int)y;
    s->u = (int)u;
    s->left = e->left[g];
    s->count = e->count ? e->count[g] : 0; /* regrets need no count */
    s->action = e->actions[g];
    if (s->left < 0 || s->left >= t->rolls || s->count < 0 || s->count > e->hrows) return -1;
    /* t->dice <= DICE_MAX (checked when the tables were made); said again for the
     * compiler, which otherwise warns of a write past s->dice. */
    for (int i = 0; i < t->dice && i < DICE_MAX; i++) {
        const int8_t f = e->dice[g * t->dice + i];
        if (f < 1 || f > FACES) return -1;
        s->dice[i] = f;
    }
    s->roll = -1; /* worked out when a box is filled (env_legal) */
    return 0;
}

/* The roll of faces d[0 .. dice - 1] (each 1 .. 6). */
static int roll_of_faces(const Kernels *t, const int8_t *d) {
    int c[FACES] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < t->dice; i++) c[d[i] - 1]++;
    return roll_of_counts(t, c);
}

/* 1 when the rules let a game in state (mask, y) fill `box` with roll r, else 0. */
INLINE int box_legal(const Kernels *t, int mask, int y, int r, int box) {
    int extra, m2, y2, up;
    return fill_box(t, mask, y, r, box, &extra, &m2, &y2, &up) >= 0;
}

/* 1 when the game's action is legal (its card is not full), else 0; for a box, sets
 * s->roll. */
static int env_legal(const Kernels *t, const EnvGames *e, Seen *s) {
    const int64_t a = s->action;
    if (s->mask == (1 << t->nb) - 1 || a < 0 || a >= e->nactions) return 0;
    if (a < e->keeps) return s->left > 0;
    s->roll = roll_of_faces(t, s->dice);
    return box_legal(t, s->mask, s->y, s->roll, (int)(a - e->keeps));
}

/* Record action a (-1: a new game) and the dice after it in game g's history. */
static void env_record(const Kernels *t, EnvGames *e, ptrdiff_t g, int64_t count, int64_t a,
                       const int8_t *d) {
    if (count < 0 || count >= e->hrows) return;
    int16_t *h = e->history + (g * e->hrows + count) * (1 + t->dice);
    h[0] = (int16_t)a;
    for (int i = 0; i < t->dice; i++) h[1 + i] = d[i];
    e->count[g] = count + 1;
}

/* Game g after its legal action s->action (s: NULL to restart it), and its next legal
 * actions. */
static void env_apply(const Kernels *t, EnvGames *e, ptrdiff_t g, const Seen *s) {
    int64_t *row = e->state + g * G_COLS;
    int8_t d[DICE_MAX];
    uint64_t rng = (uint64_t)row[G_RNG];
    const int full = (1 << t->nb) - 1;
    int64_t a = -1, count = 0;
    int mask, y, left;
    e->reward[g] = 0;
    if (!s) {
        row[G_MASK] = row[G_Y] = row[G_U] = row[G_TOTAL] = row[G_FIVE_BOX] = row[G_EXTRAS] = 0;
        memset(e->scores + g * t->nb, 0, sizeof(int16_t) * t->nb);
        for (int i = 0; i < t->dice; i++) d[i] = (int8_t)die(&rng);
        mask = y = 0;
        left = t->rolls - 1;
    } else if ((a = s->action) < e->keeps) {
        for (int i = 0; i < t->dice; i++) d[i] = ((a >> i) & 1) ? s->dice[i] : (int8_t)die(&rng);
        mask = s->mask;
        y = s->y;
        left = s->left - 1;
        count = s->count;
    } else {
        const int box = (int)(a - e->keeps);
        int points;
        e->reward[g] = fill_row(t, row, s->mask, s->y, s->u, s->roll, box, &points);
        e->scores[g * t->nb + box] = (int16_t)points;
        mask = (int)row[G_MASK];
        y = (int)row[G_Y];
        count = s->count;
        if (mask == full) {
            memset(d, 0, sizeof(d));
            left = 0;
        } else {
            for (int i = 0; i < t->dice; i++) d[i] = (int8_t)die(&rng);
            left = t->rolls - 1;
        }
    }
    row[G_RNG] = (int64_t)rng;
    memcpy(e->dice + g * t->dice, d, (size_t)t->dice);
    e->left[g] = (int8_t)left;
    env_record(t, e, g, count, a, d);
    int8_t *legal = e->legal + g * e->nactions;
    if (mask == full) {
        memset(legal, 0, (size_t)e->nactions);
        return;
    }
    memset(legal, left > 0, (size_t)e->keeps);
    const int r = roll_of_faces(t, d);
    for (int box = 0; box < t->nb; box++)
        legal[e->keeps + box] = (int8_t)box_legal(t, mask, y, r, box);
}

int env_step(const Kernels *t, EnvGames *e, ptrdiff_t n, ptrdiff_t *bad, char *err,
             size_t errlen) {
    e->keeps = (1 << t->dice) - 1;
    e->nactions = e->keeps + t->nb;
    e->hrows = t->nb * t->rolls + 1;
    *bad = -1;
    Seen s;
    /* First every action is checked: one illegal action and no game moves. */
    for (ptrdiff_t g = 0; g < n; g++) {
        if (e->restart[g]) continue;
        if (env_read(t, e, g, &s) < 0) {
            snprintf(err, errlen, "step_games: game %td is in no state of the tables", g);
            return K_BAD;
        }
        if (!env_legal(t, e, &s)) {
            *bad = g;
            return K_OK;
        }
    }
    /* Read again: a caller's thread could have changed the arrays since. */
    int changed = 0;
    for (ptrdiff_t g = 0; g < n; g++) {
        if (e->restart[g]) {
            env_apply(t, e, g, NULL);
        } else if (env_read(t, e, g, &s) < 0 || !env_legal(t, e, &s)) {
            changed = 1;
        } else {
            env_apply(t, e, g, &s);
        }
    }
    if (changed) {
        snprintf(err, errlen, "step_games: the games changed while they were stepped");
        return K_BAD;
    }
    return K_OK;
}

/* --- Regrets: what each game's action gives up against the best option -------------- */

/* A game whose action is legal, as read once from the caller's arrays: its state, the
 * rerolls left, its roll, its action (a box b, or nb + the keep it holds), its total. */
typedef struct {
    ptrdiff_t g;
    int mask, y, u, left, roll, chosen;
    int64_t total;
} Ask;

/* The games of one call: the games whose turn is to be worked out, in blocks (a block is
 * up to LANES runs of games in one state, of the same number of rerolls left, whose
 * turns turn_mixed works out at once), and the games the memo answers (hits). */
typedef struct {
    const Kernels *t;
    const Ask *asks;
    const ptrdiff_t *runs;   /* [nruns + 1]: where each run starts in asks */
    const ptrdiff_t *blocks; /* [nblocks + 1]: where each block starts in runs */
    ptrdiff_t nblocks;
    ptrdiff_t next; /* the next block to take (atomic) */
    const Ask *hits;
    ptrdiff_t nhits;
    ptrdiff_t next_hit; /* the next hit to take (atomic) */
    RegretMemo *memo;
    int width;
    double *regret;
} Regrets;

typedef struct {
    Regrets *rs;
    Scratch scratch;
    int ok;
} RegretWorker;

/* The levels of keeps a memo row holds: rolls - 2 (a turn's first decision reads the
 * keeps of rolls - 2 rerolls left, and writes those of fewer). */
INLINE int memo_levels(const Kernels *t) { return t->rolls > 2 ? t->rolls - 2 : 0; }

int regret_memo_width(const Kernels *t) {
    return t->key_start[t->nb] + memo_levels(t) * t->first_roll;
}

/* The regret of game a: the value of the best option minus that of its action, each
 * with the game's total added (as advice lists them), or 0 when the action is no option
 * now. bv[b]: box b's value with the game's roll (read for the boxes its state allows;
 * NEG where the rules forbid it); keeps[k * step]: keep k's, with left - 1 rerolls left
 * after the reroll (NULL with no rerolls left). */
INLINE double ask_regret(const Kernels *t, const Ask *a, const double *bv, const double *keeps,
                         ptrdiff_t step) {
    const int nb = t->nb, r = a->roll;
    const int allowed = t->allowed[a->mask];
    double best = NEG, chosen = NEG;
    for (int b = 0; b < nb; b++) {
        if (!((allowed >> b) & 1)) continue;
        const double v = bv[b];
        if (v > NEG / 2) {
            if (v > best) best = v;
            if (b == a->chosen) chosen = v;
        }
    }
    if (keeps && a->left > 0) {
        const int32_t *sub = t->sub_keeps + r * t->sub_width;
        for (int i = 0; i < t->sub_count[r]; i++) {
            const double v = keeps[sub[i] * step];
            if (v > best) best = v;
            if (nb + sub[i] == a->chosen) chosen = v;
        }
    }
    if (!(chosen > NEG / 2)) return 0.0;
    const double total = (double)a->total;
    return (best + total) - (chosen + total);
}

/* The values of game a's allowed boxes with its roll into bv, worked out for the one
 * roll (fill_value). */
INLINE void boxes_filled(const Kernels *t, const Ask *a, double *bv) {
    const int allowed = t->allowed[a->mask];
    for (int b = 0; b < t->nb; b++)
        if ((allowed >> b) & 1) bv[b] = fill_value(t, a->mask, a->y, a->u, a->roll, b);
}

/* The same from lane q of a turn's entries (turn_mixed: the same sums). */
INLINE void boxes_of_lane(const Kernels *t, const Scratch *sc, const Ask *a, int q,
                          double *bv) {
    const int allowed = t->allowed[a->mask], nb = t->nb, r = a->roll, f = t->five_of[r];
    for (int b = 0; b < nb; b++)
        if ((allowed >> b) & 1)
            bv[b] = f >= 0 ? sc->ev5[f * nb + b][q]
                           : sc->ev[t->entry_of[(size_t)b * t->nr + r]][q];
}

/* The same from a row of keys' values (turn_mixed's rows, lane by lane: an entry is its
 * key's value plus its gain, as there); five of a kind worked out for the one roll. */
INLINE void boxes_of_keys(const Kernels *t, const double *keys, const Ask *a, double *bv) {
    const int allowed = t->allowed[a->mask], r = a->roll;
    if (t->five_of[r] >= 0) {
        boxes_filled(t, a, bv);
        return;
    }
    for (int b = 0; b < t->nb; b++)
        if ((allowed >> b) & 1) {
            const int e = t->entry_of[(size_t)b * t->nr + r];
            bv[b] = keys[t->key_start[b] + t->entry_key[e]] + t->entry_gain[e];
        }
}

/* A game's state's number (see state_ok): below 1 << 31. */
INLINE uint32_t ask_key(const Kernels *t, const Ask *a) {
    return (uint32_t)(((int64_t)a->mask * t->y_count + a->y) * t->stride + a->u);
}

/* 1 when memo key `code` answers game a's decision (see RegretMemo), else 0: a key
 * names the row's state and how many rerolls left it answers, and a row holds the keeps
 * of at most memo_levels(t) levels, whatever a made-up key says. */
INLINE int memo_answers(const Kernels *t, int64_t code, const Ask *a) {
    return code >= 0 && (code >> 5) == (int64_t)ask_key(t, a) && a->left <= (code & 31)
           && a->left <= memo_levels(t);
}

/* Game a's regret from its memo row (memo_answers said yes). */
INLINE double memo_regret(const Kernels *t, const Regrets *rs, const Ask *a) {
    const double *row = rs->memo->values + a->g * (ptrdiff_t)rs->width;
    const double *keeps = row + t->key_start[t->nb];
    double bv[NB_MAX];
    boxes_of_keys(t, row, a, bv);
    return ask_regret(t, a, bv, a->left > 0 ? keeps + (a->left - 1) * t->first_roll : NULL,
                      1);
}

/* Ask the memory for what memo_regret reads of game a's row, without waiting for it. */
INLINE void prefetch_memo(const Kernels *t, const Regrets *rs, const Ask *a) {
    const double *row = rs->memo->values + a->g * (ptrdiff_t)rs->width;
    const int nkeys = t->key_start[t->nb];
    for (int k = 0; k < nkeys; k += 8) __builtin_prefetch(row + k);
    if (a->left > 0) {
        const double *keeps = row + nkeys + (a->left - 1) * t->first_roll;
        const int32_t *sub = t->sub_keeps + a->roll * t->sub_width;
        for (int i = 0; i < t->sub_count[a->roll]; i++) __builtin_prefetch(keeps + sub[i]);
    }
}

/* Lane q of a turn with `rerolls` rerolls left (turn_mixed) into game a's memo row: what
 * its decisions with fewer rerolls left read. */
static void memo_write(const Kernels *t, const Regrets *rs, const Scratch *sc, const Ask *a,
                       int q, int rerolls) {
    const int nkeys = t->key_start[t->nb], fr = t->first_roll;
    double *row = rs->memo->values + a->g * (ptrdiff_t)rs->width;
    for (int k = 0; k < nkeys; k++) row[k] = sc->rows[k][q];
    double *keeps = row + nkeys;
    for (int l = 0; l + 1 < rerolls; l++) {
        const vd *kv = sc->snap + (size_t)l * t->nk;
        for (int k = 0; k < fr; k++) keeps[(ptrdiff_t)l * fr + k] = kv[k][q];
    }
    rs->memo->keys[a->g] = ((int64_t)ask_key(t, a) << 5) | (rerolls - 1);
}

/* The lanes of block bk (lanes past its runs repeat its last); returns the most rerolls
 * left of its games. */
static int block_lanes(const Regrets *rs, ptrdiff_t bk, int *mask, int *y, int *u) {
    const ptrdiff_t r0 = rs->blocks[bk], r1 = rs->blocks[bk + 1];
    int rerolls = 0;
    for (int q = 0; q < LANES; q++) {
        const Ask *a = rs->asks + rs->runs[r0 + q < r1 ? r0 + q : r1 - 1];
        mask[q] = a->mask;
        y[q] = a->y;
        u[q] = a->u;
        if (a->left > rerolls) rerolls = a->left;
    }
    return rerolls;
}

/* Blocks taken at a time by a thread; how many games ahead the last roll's are fetched;
 * hits taken at a time. */
#define REGRET_GRAIN 8
#define REGRET_AHEAD 6
#define HIT_GRAIN 256
#define HIT_AHEAD 4

HOT static void regret_blocks(RegretWorker *w) {
    Regrets *rs = w->rs;
    const Kernels *t = rs->t;
    const Scratch *sc = &w->scratch;
    int lane_mask[LANES], lane_y[LANES], lane_u[LANES];
    int next_mask[LANES], next_y[LANES], next_u[LANES];
    for (;;) {
        const ptrdiff_t first = __atomic_fetch_add(&rs->next, REGRET_GRAIN, __ATOMIC_RELAXED);
        if (first >= rs->nblocks) break;
        const ptrdiff_t last = first + REGRET_GRAIN < rs->nblocks ? first + REGRET_GRAIN
                                                                  : rs->nblocks;
        int next_rerolls = block_lanes(rs, first, next_mask, next_y, next_u);
        for (ptrdiff_t bk = first; bk < last; bk++) {
            const ptrdiff_t r0 = rs->blocks[bk], r1 = rs->blocks[bk + 1];
            const int rerolls = next_rerolls;
            memcpy(lane_mask, next_mask, sizeof(lane_mask));
            memcpy(lane_y, next_y, sizeof(lane_y));
            memcpy(lane_u, next_u, sizeof(lane_u));
            if (rerolls == 0) {
                /* A block of last rolls (see env_regrets): no turn to work out. */
                const ptrdiff_t lo = rs->runs[r0], hi = rs->runs[r1];
                for (ptrdiff_t i = lo; i < hi; i++) {
                    if (i + REGRET_AHEAD < hi) {
                        const Ask *b = rs->asks + i + REGRET_AHEAD;
                        prefetch_turn(t, b->mask, b->y, b->u);
                    }
                    double bv[NB_MAX];
                    boxes_filled(t, &rs->asks[i], bv);
                    rs->regret[rs->asks[i].g] = ask_regret(t, &rs->asks[i], bv, NULL, 1);
                }
                if (bk + 1 < last) next_rerolls = block_lanes(rs, bk + 1, next_mask, next_y,
                                                              next_u);
                continue;
            }
            /* The next block's memory comes while this one is worked out. */
            if (bk + 1 < last) {
                next_rerolls = block_lanes(rs, bk + 1, next_mask, next_y, next_u);
                if (next_rerolls > 0)
                    for (int q = 0; q < LANES; q++)
                        prefetch_turn(t, next_mask[q], next_y[q], next_u[q]);
            } else if (bk == first) {
                for (int q = 0; q < LANES; q++)
                    prefetch_turn(t, lane_mask[q], lane_y[q], lane_u[q]);
            }
            turn_mixed(t, &w->scratch, lane_mask, lane_y, lane_u, rerolls);
            const double *kv = (const double *)(sc->snap + (size_t)(rerolls - 1) * t->nk);
            for (int q = 0; q < LANES && r0 + q < r1; q++)
                for (ptrdiff_t i = rs->runs[r0 + q]; i < rs->runs[r0 + q + 1]; i++) {
                    const Ask *a = &rs->asks[i];
                    double bv[NB_MAX];
                    boxes_of_lane(t, sc, a, q, bv);
                    rs->regret[a->g] = ask_regret(t, a, bv, kv + q, LANES);
                    /* A reroll: the game's next decision is in this state. */
                    if (a->chosen >= t->nb && a->g < rs->memo->rows)
                        memo_write(t, rs, sc, a, q, rerolls);
                }
        }
    }
    /* The memo's rows are not those the turns above write (a game is a hit or not). */
    for (;;) {
        const ptrdiff_t first = __atomic_fetch_add(&rs->next_hit, HIT_GRAIN, __ATOMIC_RELAXED);
        if (first >= rs->nhits) break;
        const ptrdiff_t last = first + HIT_GRAIN < rs->nhits ? first + HIT_GRAIN : rs->nhits;
        for (ptrdiff_t i = first; i < last; i++) {
            if (i + HIT_AHEAD < rs->nhits) prefetch_memo(t, rs, &rs->hits[i + HIT_AHEAD]);
            rs->regret[rs->hits[i].g] = memo_regret(t, rs, &rs->hits[i]);
        }
    }
}

static void *regret_thread(void *arg) {
    regret_blocks(arg);
    return NULL;
}

/* The keep that holds the dice at the positions of bit mask m of faces d. */
static int keep_of(const Kernels *t, const int8_t *d, int64_t m) {
    int c[FACES] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < t->dice; i++)
        if ((m >> i) & 1) c[d[i] - 1]++;
    int code = 0;
    for (int f = FACES - 1; f >= 0; f--) code = code * (t->dice + 1) + c[f];
    return t->code_to_keep[code];
}

int env_regrets(const Kernels *t, EnvGames *e, ptrdiff_t n, double *regret, int threads,
                RegretMemo *memo, char *err, size_t errlen) {
    e->keeps = (1 << t->dice) - 1;
    e->nactions = e->keeps + t->nb;
    e->hrows = t->nb * t->rolls + 1;
    if (threads < 1) threads = 1;
    if (threads > THREADS_MAX) threads = THREADS_MAX;
    Ask *asks = malloc(sizeof(Ask) * (size_t)(n + 1));
    Ask *sorted = malloc(sizeof(Ask) * (size_t)(n + 1));
    Ask *hits = malloc(sizeof(Ask) * (size_t)(n + 1));
    ptrdiff_t *runs = malloc(sizeof(ptrdiff_t) * (size_t)(n + 2));
    ptrdiff_t *blocks = malloc(sizeof(ptrdiff_t) * (size_t)(n + 2));
    ptrdiff_t *per_left = calloc(ROLLS_MAX + 1, sizeof(ptrdiff_t));
    ptrdiff_t *count = malloc(sizeof(ptrdiff_t) * 2049);
    RegretWorker *workers = calloc((size_t)threads, sizeof(RegretWorker));
    pthread_t *ids = calloc((size_t)threads, sizeof(pthread_t));
    int status = (!asks || !sorted || !hits || !runs || !blocks || !per_left || !count
                  || !workers || !ids) ? K_NOMEM : K_OK;
    /* Every game read once, here: the threads below read only these copies (and the
     * memo's rows, whose keys are read here too). */
    ptrdiff_t na = 0, nhits = 0;
    Seen s;
    for (ptrdiff_t g = 0; status == K_OK && g < n; g++) {
        regret[g] = 0.0;
        if (e->restart[g]) continue;
        if (env_read(t, e, g, &s) < 0) {
            snprintf(err, errlen, "regrets: game %td is in no state of the tables", g);
            status = K_BAD;
            break;
        }
        if (!env_legal(t, e, &s)) continue; /* the step refuses it */
        Ask *a = asks + na;
        a->g = g;
        a->mask = s.mask;
        a->y = s.y;
        a->u = s.u;
        a->left = s.left;
        a->roll = roll_of_faces(t, s.dice);
        a->total = e->state[g * G_COLS + G_TOTAL];
        if (s.action < e->keeps) {
            const int k = keep_of(t, s.dice, s.action);
            if (k < 0) continue; /* no keep of the tables: no regret */
            a->chosen = t->nb + k;
        } else {
            a->chosen = (int)(s.action - e->keeps);
        }
        if (g < memo->rows && memo_answers(t, memo->keys[g], a)) {
            hits[nhits++] = *a;
            continue;
        }
        na++;
        per_left[a->left + 1]++;
    }
    ptrdiff_t nblocks = 0;
    if (status == K_OK && na > 0) {
        /* By rerolls left, so that a block's lanes need as many passes, and by state
         * within: games in one state share a lane, and neighbouring lanes' states have
         * most of their open boxes in common. Radix sort, 11 bits a pass, stable. */
        int bits = 1;
        while ((1LL << bits) < ((int64_t)1 << t->nb) * t->y_count * t->stride) bits++;
        for (int shift = 0; shift < bits; shift += 11) {
            memset(count, 0, sizeof(ptrdiff_t) * 2049);
            for (ptrdiff_t i = 0; i < na; i++) count[(ask_key(t, asks + i) >> shift & 2047) + 1]++;
            for (int d = 0; d < 2048; d++) count[d + 1] += count[d];
            for (ptrdiff_t i = 0; i < na; i++)
                sorted[count[ask_key(t, asks + i) >> shift & 2047]++] = asks[i];
            Ask *swap = asks;
            asks = sorted;
            sorted = swap;
        }
        for (int l = 0; l < ROLLS_MAX; l++) per_left[l + 1] += per_left[l];
        for (ptrdiff_t i = 0; i < na; i++) sorted[per_left[asks[i].left]++] = asks[i];
        ptrdiff_t nruns = 0;
        int lanes = 0;
        for (ptrdiff_t i = 0; i < na; i++) {
            const Ask *a = sorted + i, *b = i > 0 ? sorted + i - 1 : NULL;
            if (b && a->left == b->left && a->mask == b->mask && a->y == b->y && a->u == b->u)
                continue;
            /* Blocks of the last roll need no turn: larger ones. */
            if (!b || a->left != b->left || lanes == (a->left ? LANES : 16 * LANES)) {
                blocks[nblocks++] = nruns;
                lanes = 0;
            }
            runs[nruns++] = i;
            lanes++;
        }
        runs[nruns] = na;
        blocks[nblocks] = nruns;
    }
    for (int i = 0; status == K_OK && nblocks > 0 && i < threads; i++) {
        RegretWorker *w = &workers[i];
        w->ok = scratch_init(t, &w->scratch) == 0;
        if (!w->ok) status = K_NOMEM;
    }
    if (status == K_OK && (nblocks > 0 || nhits > 0)) {
        Regrets rs = {t, sorted, runs, blocks, nblocks, 0, hits, nhits, 0, memo,
                      regret_memo_width(t), regret};
        int started = 0;
        for (int i = 1; i < threads && nblocks * 64 + nhits > (ptrdiff_t)i * 512; i++) {
            workers[i].rs = &rs;
            if (pthread_create(&ids[i], NULL, regret_thread, &workers[i]) != 0) break;
            started = i;
        }
        workers[0].rs = &rs;
        regret_blocks(&workers[0]);
        for (int i = 1; i <= started; i++) pthread_join(ids[i], NULL);
    }
    for (int i = 0; workers && i < threads; i++) {
        if (workers[i].scratch.block) scratch_free(&workers[i].scratch);
    }
    free(asks);
    free(sorted);
    free(hits);
    free(runs);
    free(blocks);
    free(per_left);
    free(count);
    free(workers);
    free(ids);
    return status;
}
