/* Playing to win (yatzy.solver.winning): a turn valued by the player's expected share of
 * the win instead of points, from the shared table of the points still to come
 * (yatzy.solver.remaining.SharedTable, read in place), and whole games of the `winner`
 * level against players whose turn-start states are known (the match's fast path).
 *
 * The table's rows: row r holds the chance of lowest[r] + i more points as steps[i] /
 * WIN_QUANTUM, steps[i] = pool[offset[r] + i] for i < length[r], pool the 16-bit pool
 * when wide[r], else the 8-bit one. Every read of a row checks it (see win_row): the
 * table is the caller's, read in place, and is never trusted. */
#include <stdlib.h>
#include <string.h>

#include "winning.h"

/* Row r's numbers, checked: 0, or -1 when r is no row or its numbers do not fit. */
INLINE int win_row(const WinTable *w, int64_t r, int *lo, int *len, const uint8_t **p8,
                   const uint16_t **p16) {
    if (r < 0 || r >= w->rows) return -1;
    const int64_t a = w->offset[r], l = w->length[r], low = w->lowest[r];
    const int wide = w->wide[r];
    if (l < 1 || low < 0 || low + l > WIN_POINTS_MAX || a < 0 || wide > 1) return -1;
    if (a + l > (wide ? w->n16 : w->n8)) return -1;
    *lo = (int)low;
    *len = (int)l;
    *p8 = wide ? NULL : w->pool8 + a;
    *p16 = wide ? w->pool16 + a : NULL;
    return 0;
}

/* The row of state (mask, y, u), mask not full: -1 when it has none. */
INLINE int64_t win_row_of(const Kernels *t, const WinTable *w, int mask, int y, int u) {
    return w->row_of[state_key(t, mask, y, u)];
}

int win_curve_init(WinCurve *c) {
    c->cap = 512;
    c->curve = malloc(sizeof(double) * (size_t)c->cap);
    c->high = -1;
    return c->curve ? 0 : -1;
}

void win_curve_free(WinCurve *c) {
    free(c->curve);
    c->curve = NULL;
}

/* One player's distribution for the curve: the chance of lo + i points is step(i) /
 * WIN_QUANTUM for i < len. */
typedef struct {
    int lo, len;
    const uint8_t *p8;
    const uint16_t *p16;
    int64_t below; /* the steps before the current score */
} Other;

INLINE int64_t other_step(const Other *o, int m) {
    const int i = m - o->lo;
    if (i < 0 || i >= o->len) return 0;
    return o->p8 ? o->p8[i] : (o->p16 ? o->p16[i] : WIN_QUANTUM);
}

int win_curve(const Kernels *t, const WinTable *w, int n, const int64_t *others, WinCurve *c) {
    const int full = (1 << t->nb) - 1;
    Other o[WIN_OTHERS_MAX];
    double poly[WIN_OTHERS_MAX + 1];
    if (n < 0 || n > WIN_OTHERS_MAX) return -2;
    int high = 0;
    for (int j = 0; j < n; j++) {
        const int64_t *s = others + (size_t)j * 4;
        const int total = (int)s[3];
        o[j].below = 0;
        if (s[0] == full) {
            /* A finished card: certain. */
            o[j].lo = total;
            o[j].len = 1;
            o[j].p8 = NULL;
            o[j].p16 = NULL;
        } else {
            int lo, len;
            if (win_row(w, win_row_of(t, w, (int)s[0], (int)s[1], (int)s[2]), &lo, &len, &o[j].p8,
                        &o[j].p16) < 0)
                return -2;
            o[j].lo = total + lo;
            o[j].len = len;
        }
        if (o[j].lo + o[j].len - 1 > high) high = o[j].lo + o[j].len - 1;
    }
    if (high + 1 > c->cap) {
        double *p = realloc(c->curve, sizeof(double) * (size_t)(high + 1));
        if (!p) return -1;
        c->curve = p;
        c->cap = high + 1;
    }
    const double q = 1.0 / WIN_QUANTUM;
    for (int m = 0; m <= high; m++) {
        /* poly[k]: the chance that, of the others, exactly k score m and the rest less
         * (as yatzy.solver.distribution.win_curve, in the same order). */
        poly[0] = 1.0;
        for (int k = 1; k <= n; k++) poly[k] = 0.0;
        for (int j = 0; j < n; j++) {
            const int64_t step = other_step(&o[j], m);
            const double exact = (double)step * q, below = (double)o[j].below * q;
            for (int k = j + 1; k >= 1; k--) poly[k] = poly[k] * below + poly[k - 1] * exact;
            poly[0] *= below;
            o[j].below += step;
        }
        double v = 0.0;
        for (int k = 0; k <= n; k++) v += poly[k] * (1.0 / (k + 1));
        c->curve[m] = v;
    }
    c->high = high;
    return 0;
}

/* The curve at m: 1 past every other player's highest score. */
INLINE double curve_at(const WinCurve *c, int m) { return m <= c->high ? c->curve[m] : 1.0; }

/* The share of ending the turn with `base` points (the total after it) in state (mask2,
 * y2, u2): the mean of the curve over the points still to come. -2 when the state has no
 * row. */
static double share_of(const Kernels *t, const WinTable *w, const WinCurve *c, int mask2,
                       int y2, int u2, int base, int *status) {
    if (mask2 == (1 << t->nb) - 1) return curve_at(c, base);
    int lo, len;
    const uint8_t *p8;
    const uint16_t *p16;
    if (win_row(w, win_row_of(t, w, mask2, y2, u2), &lo, &len, &p8, &p16) < 0) {
        *status = -2;
        return NEG;
    }
    const int a = base + lo;
    /* Scores past the curve's end count 1: their steps are added as they are. */
    int inside = c->high + 1 - a;
    if (inside < 0) inside = 0;
    if (inside > len) inside = len;
    const double *cv = c->curve + a;
    double sum = 0.0;
    int64_t rest = 0;
    if (p8) {
        for (int i = 0; i < inside; i++) sum += p8[i] * cv[i];
        for (int i = inside; i < len; i++) rest += p8[i];
    } else {
        for (int i = 0; i < inside; i++) sum += p16[i] * cv[i];
        for (int i = inside; i < len; i++) rest += p16[i];
    }
    return (sum + (double)rest) * (1.0 / WIN_QUANTUM);
}

HOT int win_turn(const Kernels *t, const WinTable *w, Scratch *sc, const WinCurve *c, int mask,
                 int y, int u, int total) {
    Plan *p = &sc->plan;
    const int nb = t->nb, nr = t->nr;
    int status = 0;
    make_plan(t, mask, y, p);
    vd *restrict ev = sc->ev, *restrict ev5 = sc->ev5, *restrict S = sc->S;
    const vd neg = splat(NEG);
    for (int i = 0; i < p->nallowed && status == 0; i++) {
        const int b = p->abox[i];
        for (int e = t->box_start[b]; e < t->box_start[b + 1]; e++) {
            const int g = p->box_row[i] + t->entry_key[e];
            int u2;
            const int bonus = add_upper(t, u, p->row_up[g], &u2);
            ev[e] = splat(share_of(t, w, c, p->row_mask[g], p->row_y[g], u2,
                                   total + (int)t->entry_gain[e] + bonus, &status));
        }
        for (int f = 0; f < FACES; f++) {
            const int j = f * nb + b, g = p->group5[j];
            if (g < 0) {
                ev5[j] = neg;
                continue;
            }
            int u2;
            const int bonus = add_upper(t, u, p->row_up[g], &u2);
            ev5[j] = splat(share_of(t, w, c, p->row_mask[g], p->row_y[g], u2,
                                    total + (int)p->gain5[j] + bonus, &status));
        }
    }
    if (status) return status;
    /* The best box for every roll (as best_boxes in turn.h). */
    const int na = p->nallowed;
    for (int r = 0; r < nr; r++) {
        const int32_t *row = t->entry_by_roll + (size_t)r * nb;
        vd out = neg;
        for (int i = 0; i < na; i++) out = vmax(out, ev[row[p->abox[i]]]);
        S[r] = out;
    }
    for (int f = 0; f < FACES; f++) {
        vd out = neg;
        for (int i = 0; i < na; i++) out = vmax(out, ev5[f * nb + p->abox[i]]);
        S[t->five_rolls[f]] = out;
    }
    turn_passes(t, sc, t->rolls - 1, NULL, 1);
    return 0;
}

HOT int win_games(const Kernels *t, const WinTable *w, ptrdiff_t games, int n,
                  const int8_t *faces, const int64_t *others, const uint8_t *ahead,
                  int64_t *state) {
    const int nb = t->nb, rolls = t->rolls, dice = t->dice, full = (1 << nb) - 1;
    Scratch sc;
    WinCurve c;
    int64_t now[WIN_OTHERS_MAX * 4];
    if (n < 0 || n > WIN_OTHERS_MAX) return -2;
    if (scratch_init(t, &sc) < 0) return -1;
    if (win_curve_init(&c) < 0) {
        scratch_free(&sc);
        return -1;
    }
    int status = 0;
    for (ptrdiff_t g = 0; g < games && status == 0; g++) {
        int64_t *row = state + g * G_COLS;
        const int64_t *hist = others + (size_t)g * n * (nb + 1) * 4;
        while (row[G_MASK] != full && status == 0) {
            const int m = (int)row[G_MASK], y = (int)row[G_Y], u = (int)row[G_U];
            const int turn = __builtin_popcount(m);
            for (int j = 0; j < n; j++)
                memcpy(now + j * 4, hist + ((size_t)j * (nb + 1) + turn + ahead[j]) * 4,
                       sizeof(int64_t) * 4);
            status = win_curve(t, w, n, now, &c);
            if (status == 0) status = win_turn(t, w, &sc, &c, m, y, u, (int)row[G_TOTAL]);
            if (status) break;
            const int8_t *gf = faces + ((size_t)g * nb + turn) * rolls * dice;
            int cnt[FACES] = {0, 0, 0, 0, 0, 0};
            for (int i = 0; i < dice; i++) {
                if ((unsigned)(gf[i] - 1) >= FACES) {
                    status = -3;
                    break;
                }
                cnt[gf[i] - 1]++;
            }
            int left = rolls - 1, r = 0, pick = -1;
            while (status == 0) {
                r = roll_of_counts(t, cnt);
                pick = best_option(t, &sc, r, left, 0);
                if (pick < 0) {
                    status = -4;
                    break;
                }
                if (pick < nb || left == 0) break;
                /* Reroll: keep pick - nb; the dice thrown are the first of the roll's row. */
                const int k = pick - nb, roll_no = rolls - left;
                int kept = 0;
                for (int f = 0; f < FACES; f++) {
                    cnt[f] = t->counts[k * FACES + f];
                    kept += cnt[f];
                }
                const int8_t *rf = gf + roll_no * dice;
                for (int i = 0; i < dice - kept; i++) {
                    if ((unsigned)(rf[i] - 1) >= FACES) {
                        status = -3;
                        break;
                    }
                    cnt[rf[i] - 1]++;
                }
                left--;
            }
            if (status) break;
            if (pick >= nb) {
                status = -4;
                break;
            }
            fill_row(t, row, m, y, u, r, pick, NULL);
            if (row[G_TOTAL] < 0 || row[G_TOTAL] >= WIN_POINTS_MAX) status = -2;
        }
    }
    scratch_free(&sc);
    win_curve_free(&c);
    return status;
}
