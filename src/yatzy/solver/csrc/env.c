/* Games stepped by the caller's actions: the vector environment (yatzy.rl.vector; see
 * EnvGames). Every value is read from the caller's arrays once per phase into a local
 * and checked before it is used: the arrays stay the caller's throughout. */
#include <stdio.h>
#include <string.h>

#include "transition.h"

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
    s->count = e->count[g];
    s->action = e->actions[g];
    if (s->left < 0 || s->left >= t->rolls || s->count < 0 || s->count > e->hrows) return -1;
    for (int i = 0; i < t->dice; i++) {
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
