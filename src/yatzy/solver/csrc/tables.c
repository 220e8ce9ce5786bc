/* Building a Kernels record: the caller's tables copied and checked once (every index in
 * range, every count consistent: the loops trust them), and what the loops read made
 * from them. Only V, which the table build writes, and five_points, points that any
 * value of is safe to read, stay the caller's. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transition.h"

/* An error: the message in err, K_BAD returned. */
static int bad(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return K_BAD;
}

static const char *const NAMES[N_ARRAYS] = {
    "score", "allowed", "five_points", "five_rolls", "five_of", "extra", "is_upper",
    "entry_of", "entry_box", "entry_roll", "child", "parent_start", "parent_list",
    "roll_prob", "sub_keeps", "sub_count", "counts", "code_to_keep", "lanes",
    "lane_count", "lane_of", "upper_bit", "possible", "V"};

/* The number of multisets of `dice` dice: C(dice + 5, 5). */
static int64_t multisets(int dice) {
    int64_t n = 1;
    for (int i = 1; i <= FACES - 1; i++) n = n * (dice + i) / i;
    return n;
}

int kernels_sizes(const Sizes *s, int64_t items[N_ARRAYS], char *err, size_t errlen) {
#define NEED(cond, what)                                                                   \
    if (!(cond)) return bad(err, errlen, "Kernels: sizes out of range (%s)", what)
    NEED(s->nb >= 1 && s->nb <= NB_MAX, "boxes");
    NEED(s->threshold >= 0 && s->threshold <= THRESHOLD_MAX, "threshold");
    NEED(s->y_count >= 1 && s->y_count <= 2, "y_count");
    NEED(s->dice >= 1 && s->dice <= DICE_MAX, "dice");
    NEED(s->rolls >= 1 && s->rolls <= ROLLS_MAX, "rolls");
    NEED(s->nr == multisets(s->dice), "rolls are not every multiset of the dice");
    NEED(s->first_roll >= 1 && s->nk == s->first_roll + s->nr, "keeps");
    NEED(s->ne >= 0 && s->ne <= s->nb * s->nr, "entries");
    NEED(s->nu >= 0 && s->nu <= s->nb && s->nu <= FACES, "upper boxes");
    NEED(s->bonus >= 0 && s->bonus <= POINTS_MAX, "bonus");
    NEED(s->yahtzee_box >= -1 && s->yahtzee_box < s->nb, "yahtzee_box");
    NEED(s->sub_width >= 0 && s->sub_width <= s->first_roll, "sub_width");
    /* A state's number fits in 31 bits (see NB_MAX). */
    NEED(((int64_t)1 << s->nb) * s->y_count * (s->threshold + 1) <= INT32_MAX, "states");
#undef NEED
    const int64_t masks = (int64_t)1 << s->nb, st = s->threshold + 1, um = (int64_t)1 << s->nu;
    int64_t codes = 1;
    for (int f = 0; f < FACES; f++) codes *= s->dice + 1;
    const int64_t n[N_ARRAYS] = {
        (int64_t)s->nr * s->nb, masks, masks * FACES * s->nb, FACES, s->nr,
        (int64_t)s->y_count * FACES, s->nb, (int64_t)s->nb * s->nr, s->ne, s->ne,
        (int64_t)s->nk * FACES, s->nk + 1, -1, s->nr, (int64_t)s->nr * s->sub_width, s->nr,
        (int64_t)s->nk * FACES, codes, um * st, um, um * st, s->nb, -1,
        masks * s->y_count * st};
    memcpy(items, n, sizeof(n));
    return K_OK;
}

/* Every a[i] in lo .. hi - 1 (i < n), else a message. */
static int in_range(const int32_t *a, int64_t n, int64_t lo, int64_t hi, int what, char *err,
                    size_t errlen) {
    for (int64_t i = 0; i < n; i++)
        if (a[i] < lo || a[i] >= hi)
            return bad(err, errlen, "Kernels: %s[%lld] is %d, not in %lld .. %lld", NAMES[what],
                       (long long)i, a[i], (long long)lo, (long long)hi - 1);
    return K_OK;
}

/* A copy that the record owns (freed with it), or NULL. */
static void *own(Kernels *t, const void *from, size_t bytes) {
    if ((size_t)t->nowned >= sizeof(t->owned) / sizeof(t->owned[0])) return NULL;
    void *p = malloc(bytes ? bytes : 1);
    if (!p) return NULL;
    if (from) memcpy(p, from, bytes);
    t->owned[t->nowned++] = p;
    return p;
}

/* The keeps: sizes in order, rolls last, counts within the dice, code_to_keep their
 * inverse, children one die more, parents one die less, the sub-keeps of each roll
 * smaller keeps inside it. */
static int check_keeps(const Kernels *t, int64_t parents, char *err, size_t errlen) {
    const int nk = t->nk, fr = t->first_roll;
    int64_t codes = 1;
    for (int f = 0; f < FACES; f++) codes *= t->dice + 1;
    if (in_range(t->code_to_keep, codes, -1, nk, A_CODE_TO_KEEP, err, errlen)) return K_BAD;
    if (in_range(t->counts, (int64_t)nk * FACES, 0, t->dice + 1, A_COUNTS, err, errlen))
        return K_BAD;
    int last = 0;
    for (int k = 0; k < nk; k++) {
        const int32_t *c = t->counts + k * FACES;
        int size = 0, code = 0;
        for (int f = FACES - 1; f >= 0; f--) {
            size += c[f];
            code = code * (t->dice + 1) + c[f];
        }
        if (size > t->dice || size < last || (k >= fr) != (size == t->dice))
            return bad(err, errlen, "Kernels: keeps are not in order of size, rolls last");
        if (t->code_to_keep[code] != k)
            return bad(err, errlen, "Kernels: code_to_keep does not find keep %d", k);
        last = size;
        for (int f = 0; f < FACES && k < fr; f++) {
            const int ch = t->child[k * FACES + f];
            if (ch <= k || ch >= nk)
                return bad(err, errlen, "Kernels: child[%d][%d] is %d, not a larger keep", k,
                           f, ch);
            for (int g = 0; g < FACES; g++)
                if (t->counts[ch * FACES + g] != c[g] + (g == f))
                    return bad(err, errlen, "Kernels: child[%d][%d] is not one die more", k, f);
        }
    }
    if (t->parent_start[0] != 0)
        return bad(err, errlen, "Kernels: parent_start does not start at 0");
    for (int k = 0; k < nk; k++)
        if (t->parent_start[k + 1] < t->parent_start[k] || t->parent_start[k + 1] > parents)
            return bad(err, errlen, "Kernels: parent_start is not in order within parent_list");
    for (int k = 0; k < nk; k++)
        for (int j = t->parent_start[k]; j < t->parent_start[k + 1]; j++) {
            const int q = t->parent_list[j];
            int less = 0, ok = k > 0 && q >= 0 && q < k;
            for (int f = 0; ok && f < FACES; f++) {
                const int d = t->counts[k * FACES + f] - t->counts[q * FACES + f];
                ok = d == 0 || d == 1;
                less += d;
            }
            if (!ok || less != 1)
                return bad(err, errlen, "Kernels: parent_list: a parent of keep %d is not one die less", k);
        }
    if (in_range(t->sub_count, t->nr, 0, t->sub_width + 1, A_SUB_COUNT, err, errlen))
        return K_BAD;
    for (int r = 0; r < t->nr; r++)
        for (int i = 0; i < t->sub_count[r]; i++) {
            const int k = t->sub_keeps[r * t->sub_width + i];
            int ok = k >= 0 && k < fr;
            for (int f = 0; ok && f < FACES; f++)
                ok = t->counts[k * FACES + f] <= t->counts[(fr + r) * FACES + f];
            if (!ok)
                return bad(err, errlen, "Kernels: sub_keeps[%d][%d] is not a keep of roll %d", r,
                           i, r);
        }
    for (int r = 0; r < t->nr; r++)
        if (!(t->roll_prob[r] >= 0.0 && t->roll_prob[r] <= 1.0))
            return bad(err, errlen, "Kernels: roll_prob[%d] is not a chance", r);
    return K_OK;
}

/* The rules: points and bonuses in range (no gain is negative), the play order never
 * allowing a filled box, five of a kind and the entries consistent (the rolls of an
 * entry give its box the same points). */
static int check_rules(const Kernels *t, char *err, size_t errlen) {
    const int nb = t->nb, nr = t->nr, ne = t->ne, masks = 1 << nb;
    if (in_range(t->score, (int64_t)nr * nb, 0, POINTS_MAX + 1, A_SCORE, err, errlen)
        || in_range(t->allowed, masks, 0, masks, A_ALLOWED, err, errlen)
        || in_range(t->five_rolls, FACES, 0, nr, A_FIVE_ROLLS, err, errlen)
        || in_range(t->five_of, nr, -1, FACES, A_FIVE_OF, err, errlen)
        || in_range(t->extra, (int64_t)t->y_count * FACES, 0, POINTS_MAX + 1, A_EXTRA, err,
                    errlen)
        || in_range(t->is_upper, nb, 0, 2, A_IS_UPPER, err, errlen)
        || in_range(t->entry_of, (int64_t)nb * nr, -1, ne, A_ENTRY_OF, err, errlen)
        || in_range(t->entry_box, ne, 0, nb, A_ENTRY_BOX, err, errlen)
        || in_range(t->entry_roll, ne, 0, nr, A_ENTRY_ROLL, err, errlen)
        || in_range(t->upper_bit, nb, 0, (int64_t)1 << t->nu, A_UPPER_BIT, err, errlen))
        return K_BAD;
    for (int m = 0; m < masks; m++)
        if (t->allowed[m] & m)
            return bad(err, errlen, "Kernels: allowed[%d] allows a filled box", m);
    for (int f = 0; f < FACES; f++)
        if (t->five_of[t->five_rolls[f]] != f)
            return bad(err, errlen, "Kernels: five_of and five_rolls disagree");
    for (int r = 0; r < nr; r++)
        if (t->five_of[r] >= 0 && t->five_rolls[t->five_of[r]] != r)
            return bad(err, errlen, "Kernels: five_of and five_rolls disagree");
    for (int e = 0; e < ne; e++) {
        const int b = t->entry_box[e], r = t->entry_roll[e];
        if ((e > 0 && b < t->entry_box[e - 1]) || t->five_of[r] >= 0
            || t->entry_of[(size_t)b * nr + r] != e)
            return bad(err, errlen, "Kernels: entry %d is not in order or not its roll's", e);
    }
    for (int b = 0; b < nb; b++)
        for (int r = 0; r < nr; r++) {
            const int e = t->entry_of[(size_t)b * nr + r];
            if (t->five_of[r] < 0
                && (e < 0 || t->entry_box[e] != b
                    || t->score[r * nb + b] != t->score[t->entry_roll[e] * nb + b]))
                return bad(err, errlen,
                           "Kernels: entry_of[%d][%d] is not the entry of box %d with its points",
                           b, r, b);
        }
    return K_OK;
}

/* The upper sums' lanes: at most LANES_MAX a mask, each an upper sum, lane_of naming
 * them. */
static int check_lanes(const Kernels *t, char *err, size_t errlen) {
    const int um = 1 << t->nu, st = t->stride;
    const int most = st < LANES_MAX ? st : LANES_MAX;
    if (in_range(t->lane_count, um, 0, most + 1, A_LANE_COUNT, err, errlen)) return K_BAD;
    for (int m = 0; m < um; m++) {
        if (in_range(t->lanes + (size_t)m * st, t->lane_count[m], 0, st, A_LANES, err, errlen)
            || in_range(t->lane_of + (size_t)m * st, st, -1, t->lane_count[m], A_LANE_OF, err,
                        errlen))
            return K_BAD;
    }
    return K_OK;
}

/* The order of the best-keep pass (see Kernels.best_keep); the keeps are checked. */
static int best_keep_order(Kernels *t, char *err, size_t errlen) {
    const int nk = t->nk;
    const int32_t *start = t->parent_start;
    const int total = start[nk] - start[1];
    int32_t *keep = own(t, NULL, sizeof(int32_t) * nk);
    int32_t *par = own(t, NULL, sizeof(int32_t) * (total + 1));
    int32_t *len = own(t, NULL, sizeof(int32_t) * nk);
    int32_t *npar = own(t, NULL, sizeof(int32_t) * nk);
    int32_t *roll = own(t, NULL, sizeof(int32_t) * nk);
    int *size = malloc(sizeof(int) * nk);
    if (!keep || !par || !len || !npar || !roll || !size) {
        free(size);
        return K_NOMEM;
    }
    for (int k = 0; k < nk; k++) {
        size[k] = 0;
        for (int f = 0; f < FACES; f++) size[k] += t->counts[k * FACES + f];
    }
    /* One run per number of dice and of parents that some keep has. */
    int m = 0, used = 0, g = 0;
    for (int d = 1; d <= t->dice; d++)
        for (int c = 1; c <= FACES; c++) {
            len[g] = 0;
            for (int k = 1; k < nk; k++) {
                if (size[k] != d || start[k + 1] - start[k] != c) continue;
                len[g]++;
                keep[m++] = k;
                for (int j = 0; j < c; j++) par[used++] = t->parent_list[start[k] + j];
            }
            if (len[g] > 0) {
                npar[g] = c;
                roll[g] = d == t->dice;
                g++;
            }
        }
    free(size);
    if (m != nk - 1)
        return bad(err, errlen, "Kernels: a keep has no parent, or more than faces");
    t->best_keep = keep;
    t->best_par = par;
    t->group_len = len;
    t->group_par = npar;
    t->group_roll = roll;
    t->ngroups = g;
    return K_OK;
}

/* Read fill_box once per entry (see Kernels.entry_gain). */
static int entry_keys(Kernels *t) {
    const int nb = t->nb, ne = t->ne;
    double *gain = own(t, NULL, sizeof(double) * (ne + 1));
    int32_t *key = own(t, NULL, sizeof(int32_t) * (ne + 1));
    int32_t *start = own(t, NULL, sizeof(int32_t) * (nb + 1));
    int32_t *key_up = own(t, NULL, sizeof(int32_t) * (ne + 1));
    int32_t *key_y = own(t, NULL, sizeof(int32_t) * (ne + 1));
    if (!gain || !key || !start || !key_up || !key_y) return K_NOMEM;
    int n = 0;
    for (int b = 0; b < nb; b++) {
        start[b] = n;
        /* A mask whose play order allows the box. */
        int mask = -1;
        for (int m = 0; m < (1 << nb) && mask < 0; m++)
            if ((t->allowed[m] >> b) & 1) mask = m;
        for (int e = t->box_start[b]; e < t->box_start[b + 1]; e++) {
            int extra = 0, m2, y2 = 0, up = 0, points = -1;
            if (mask >= 0)
                points = fill_box(t, mask, 0, t->entry_roll[e], b, &extra, &m2, &y2, &up);
            if (points < 0 || extra != 0) {
                /* A box no mask allows: its entries are never read. */
                points = 0;
                up = 0;
                y2 = 0;
            }
            int k = start[b];
            while (k < n && !(key_up[k] == up && key_y[k] == y2)) k++;
            if (k == n) {
                key_up[n] = up;
                key_y[n] = y2;
                n++;
            }
            gain[e] = points;
            key[e] = k - start[b];
        }
    }
    start[nb] = n;
    t->entry_gain = gain;
    t->entry_key = key;
    t->key_start = start;
    t->key_up = key_up;
    t->key_y = key_y;
    return K_OK;
}

/* Kernels.box_gain from the entries' gains (after entry_keys). */
static int box_rolls(Kernels *t) {
    const size_t cells = (size_t)t->nb * t->nr;
    double *gain = own(t, NULL, sizeof(double) * cells);
    if (!gain) return K_NOMEM;
    for (size_t i = 0; i < cells; i++)
        gain[i] = t->entry_of[i] >= 0 ? t->entry_gain[t->entry_of[i]] : 0.0;
    t->box_gain = gain;
    return K_OK;
}

void kernels_free(Kernels *t) {
    if (!t) return;
    for (int i = 0; i < t->nowned; i++) free(t->owned[i]);
    free(t);
}

static int build(Kernels *t, void *const arrays[N_ARRAYS], const int64_t items[N_ARRAYS],
                 char *err, size_t errlen) {
    const int nb = t->nb, nr = t->nr;
    if (items[A_POSSIBLE] < nb || items[A_POSSIBLE] % nb != 0)
        return bad(err, errlen, "Kernels: possible is not nb rows of bits");
    t->pw = (int)(items[A_POSSIBLE] / nb);
    const int32_t *given_start = arrays[A_PARENT_START];
    const int64_t parents = items[A_PARENT_LIST];
    if (given_start[t->nk] < 0 || given_start[t->nk] > parents)
        return bad(err, errlen, "Kernels: parent_list is too short");
    /* The copies. */
    const void **slot[N_ARRAYS] = {
        (const void **)&t->score, (const void **)&t->allowed, NULL,
        (const void **)&t->five_rolls, (const void **)&t->five_of, (const void **)&t->extra,
        (const void **)&t->is_upper, (const void **)&t->entry_of, (const void **)&t->entry_box,
        (const void **)&t->entry_roll, (const void **)&t->child,
        (const void **)&t->parent_start, (const void **)&t->parent_list,
        (const void **)&t->roll_prob, (const void **)&t->sub_keeps,
        (const void **)&t->sub_count, (const void **)&t->counts,
        (const void **)&t->code_to_keep, (const void **)&t->lanes,
        (const void **)&t->lane_count, (const void **)&t->lane_of,
        (const void **)&t->upper_bit, (const void **)&t->possible, NULL};
    for (int i = 0; i < N_ARRAYS; i++) {
        if (!slot[i]) continue;
        const size_t size = i == A_ROLL_PROB || i == A_POSSIBLE ? 8 : 4;
        if (!(*slot[i] = own(t, arrays[i], size * (size_t)items[i]))) return K_NOMEM;
    }
    t->five_points = arrays[A_FIVE_POINTS];
    t->V = arrays[A_V];
    int status;
    if ((status = check_rules(t, err, errlen)) || (status = check_keeps(t, parents, err, errlen))
        || (status = check_lanes(t, err, errlen)))
        return status;
    int32_t *by_roll = own(t, NULL, sizeof(int32_t) * nr * nb);
    int32_t *by_box = own(t, NULL, sizeof(int32_t) * nr * nb);
    int32_t *box_start = own(t, NULL, sizeof(int32_t) * (nb + 1));
    if (!by_roll || !by_box || !box_start) return K_NOMEM;
    for (int b = 0; b < nb; b++)
        for (int r = 0; r < nr; r++) {
            /* Five of a kind (-1) reads entry 0 here and is set apart afterwards. */
            const int32_t e = t->entry_of[(size_t)b * nr + r];
            by_roll[(size_t)r * nb + b] = by_box[(size_t)b * nr + r] = e >= 0 ? e : 0;
        }
    for (int b = 0, e = 0; b <= nb; b++) {
        while (e < t->ne && t->entry_box[e] < b) e++;
        box_start[b] = e;
    }
    t->entry_by_roll = by_roll;
    t->entry_by_box = by_box;
    t->box_start = box_start;
    if ((status = best_keep_order(t, err, errlen))) return status;
    if ((status = entry_keys(t))) return status;
    return box_rolls(t);
}

int kernels_build(const Sizes *s, void *const arrays[N_ARRAYS], const int64_t items[N_ARRAYS],
                  Kernels **out, char *err, size_t errlen) {
    Kernels *t = calloc(1, sizeof(Kernels));
    if (!t) return K_NOMEM;
    t->nr = s->nr;
    t->nb = s->nb;
    t->nk = s->nk;
    t->ne = s->ne;
    t->first_roll = s->first_roll;
    t->dice = s->dice;
    t->rolls = s->rolls;
    t->threshold = s->threshold;
    t->bonus = s->bonus;
    t->yahtzee_box = s->yahtzee_box;
    t->y_points = s->y_points;
    t->y_count = s->y_count;
    t->sub_width = s->sub_width;
    t->nu = s->nu;
    t->stride = s->threshold + 1;
    const int status = build(t, arrays, items, err, errlen);
    if (status != K_OK) {
        kernels_free(t);
        return status;
    }
    *out = t;
    return K_OK;
}
