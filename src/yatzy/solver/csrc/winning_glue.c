/* The Python glue of playing to win (winning.c): every argument checked before the loops
 * see it, as in module.c. The shared table's arrays are checked here by kind and length
 * (they are read in place, mapped from a file: checking every item would cost more than
 * a turn) and their contents at every read (see win_row). */
#include "module.h"
#include "winning.h"

#define TABLE_ARRAYS 7

/* Views of the table (row_of, lowest, length, offset, wide, pool8, pool16) in b, into *w;
 * released on failure. */
static int table_views(const Kernels *t, PyObject *otable, Py_buffer b[TABLE_ARRAYS],
                       WinTable *w) {
    static const char *const names[TABLE_ARRAYS] = {"row_of", "lowest", "length", "offset",
                                                    "wide", "pool8", "pool16"};
    static const int kinds[TABLE_ARRAYS] = {SIGNED, SIGNED, SIGNED, SIGNED,
                                            UNSIGNED, UNSIGNED, UNSIGNED};
    static const Py_ssize_t sizes[TABLE_ARRAYS] = {4, 4, 4, 8, 1, 1, 2};
    if (!PyTuple_Check(otable) || PyTuple_GET_SIZE(otable) != TABLE_ARRAYS) {
        PyErr_SetString(PyExc_TypeError,
                        "table: a tuple (row_of, lowest, length, offset, wide, pool8, pool16)");
        return -1;
    }
    int got = 0;
    for (; got < TABLE_ARRAYS; got++)
        if (get_array(PyTuple_GET_ITEM(otable, got), &b[got], kinds[got], sizes[got], 0,
                      names[got]) < 0)
            break;
    const char *problem = NULL;
    if (got == TABLE_ARRAYS) {
        const Py_ssize_t rows = b[1].len / 4;
        if (b[0].len / 4 != ((Py_ssize_t)1 << t->nb) * t->y_count * t->stride)
            problem = "table: row_of needs one item per state";
        else if (b[2].len / 4 != rows || b[3].len / 8 != rows || b[4].len != rows)
            problem = "table: lowest, length, offset and wide need one item per row";
        if (!problem) {
            w->row_of = b[0].buf;
            w->lowest = b[1].buf;
            w->length = b[2].buf;
            w->offset = b[3].buf;
            w->wide = b[4].buf;
            w->rows = rows;
            w->pool8 = b[5].buf;
            w->n8 = b[5].len;
            w->pool16 = b[6].buf;
            w->n16 = b[6].len / 2;
            return 0;
        }
        PyErr_SetString(PyExc_ValueError, problem);
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return -1;
}

/* 0 when others[0 .. n - 1] are (mask, y, u, total) of states of the tables with totals
 * in range, else -1 with a ValueError. */
static int check_others(const Kernels *t, const int64_t *s, Py_ssize_t n, const char *what) {
    for (Py_ssize_t j = 0; j < n; j++, s += 4)
        if (!state_ok(t, s[0], s[1], s[2]) || s[3] < 0 || s[3] >= WIN_POINTS_MAX) {
            PyErr_Format(PyExc_ValueError, "%s: no state with a total (%lld, %lld, %lld, %lld)",
                         what, (long long)s[0], (long long)s[1], (long long)s[2],
                         (long long)s[3]);
            return -1;
        }
    return 0;
}

static PyObject *status_error(int status) {
    if (status == -1) return PyErr_NoMemory();
    if (status == -2)
        PyErr_SetString(PyExc_ValueError,
                        "the table of the points still to come has no row for a state, or "
                        "a row that does not fit");
    else if (status == -3)
        PyErr_SetString(PyExc_ValueError, "a die is 1 to 6");
    else
        PyErr_SetString(PyExc_ValueError, "a roll had no legal option");
    return NULL;
}

/* win_turn(table, others, mask, y, u, total, values, keeps): the turn of (mask, y, u)
 * with `total` points in shares of the win against the others ((mask, y, u, total) rows):
 * values[ne + 6 nb] every way to fill a box (see box_value, NEG when forbidden), keeps
 * [(rolls - 1) * nk] the keeps of each number of rerolls left after the reroll. */
PyObject *Kernels_win_turn(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    PyObject *otable, *oothers, *ovalues, *okeeps;
    int mask, y, u, total;
    if (!PyArg_ParseTuple(args, "OOiiiiOO", &otable, &oothers, &mask, &y, &u, &total,
                          &ovalues, &okeeps))
        return NULL;
    if (!state_ok(t, mask, y, u) || mask == (1 << t->nb) - 1 || total < 0
        || total >= WIN_POINTS_MAX) {
        PyErr_Format(PyExc_ValueError, "win_turn: no open state with a total (%d, %d, %d, %d)",
                     mask, y, u, total);
        return NULL;
    }
    Py_buffer tb[TABLE_ARRAYS], b[3];
    WinTable w;
    if (table_views(t, otable, tb, &w) < 0) return NULL;
    int got = 0, ok = 1;
    static const char *const names[3] = {"others", "values", "keeps"};
    PyObject *o[3] = {oothers, ovalues, okeeps};
    static const int kinds[3] = {SIGNED, FLOAT, FLOAT};
    for (; got < 3; got++)
        if (get_array(o[got], &b[got], kinds[got], 8, got > 0, names[got]) < 0) break;
    ok = got == 3;
    const Py_ssize_t n = ok ? b[0].len / 32 : 0;
    if (ok && (b[0].len % 32 || n > WIN_OTHERS_MAX)) {
        PyErr_Format(PyExc_ValueError, "win_turn: others: rows of 4, at most %d",
                     WIN_OTHERS_MAX);
        ok = 0;
    }
    if (ok && (b[1].len != 8 * ((Py_ssize_t)t->ne + FACES * t->nb)
               || b[2].len != 8 * (Py_ssize_t)(t->rolls - 1) * t->nk)) {
        PyErr_SetString(PyExc_ValueError, "win_turn: values or keeps: wrong size");
        ok = 0;
    }
    if (ok && overlap(&b[1], &b[2])) {
        PyErr_SetString(PyExc_ValueError, "win_turn: values and keeps overlap");
        ok = 0;
    }
    if (ok && check_others(t, b[0].buf, n, "win_turn: others") < 0) ok = 0;
    if (ok) {
        Scratch sc;
        WinCurve c;
        int status = -1;
        if (scratch_init(t, &sc) == 0) {
            if (win_curve_init(&c) == 0) {
                status = win_curve(t, &w, (int)n, b[0].buf, &c);
                if (status == 0) status = win_turn(t, &w, &sc, &c, mask, y, u, total);
                win_curve_free(&c);
            }
            if (status == 0) {
                double *bv = b[1].buf, *keeps = b[2].buf;
                const Plan *p = &sc.plan;
                const int nb = t->nb;
                for (int e = 0; e < t->ne + FACES * nb; e++) bv[e] = NEG;
                for (int i = 0; i < p->nallowed; i++) {
                    const int bx = p->abox[i];
                    for (int e = t->box_start[bx]; e < t->box_start[bx + 1]; e++)
                        bv[e] = sc.ev[e][0];
                    for (int f = 0; f < FACES; f++) bv[t->ne + f * nb + bx] = sc.ev5[f * nb + bx][0];
                }
                for (size_t i = 0; i < (size_t)(t->rolls - 1) * t->nk; i++) keeps[i] = sc.snap[i][0];
            }
            scratch_free(&sc);
        }
        if (status) {
            status_error(status);
            ok = 0;
        }
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    for (int i = 0; i < TABLE_ARRAYS; i++) PyBuffer_Release(&tb[i]);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* win_play(table, faces, others, ahead, state): play the `winner` level's games (rows of
 * state) to their end on the dice faces [games][nb][rolls][dice] against the others,
 * whose turn-start states are others [games][n][nb + 1][4], other j having played
 * ahead[j] (0 or 1) turns more than the player at each of its turns (see win_games). */
PyObject *Kernels_win_play(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    PyObject *otable, *o[4];
    if (!PyArg_ParseTuple(args, "OOOOO", &otable, &o[0], &o[1], &o[2], &o[3])) return NULL;
    static const char *const names[4] = {"faces", "others", "ahead", "state"};
    static const int kinds[4] = {SIGNED, SIGNED, UNSIGNED, SIGNED};
    static const Py_ssize_t sizes[4] = {1, 8, 1, 8};
    Py_buffer tb[TABLE_ARRAYS], b[4];
    WinTable w;
    if (table_views(t, otable, tb, &w) < 0) return NULL;
    int got = 0, ok;
    for (; got < 4; got++)
        if (get_array(o[got], &b[got], kinds[got], sizes[got], got == 3, names[got]) < 0) break;
    ok = got == 4;
    const Py_ssize_t games = ok ? b[3].len / (8 * G_COLS) : 0, n = ok ? b[2].len : 0;
    const Py_ssize_t per_game = (Py_ssize_t)t->nb * t->rolls * t->dice;
    if (ok && (b[3].len != games * 8 * G_COLS || n > WIN_OTHERS_MAX
               || b[0].len != games * per_game
               || b[1].len != games * n * (t->nb + 1) * 4 * 8)) {
        PyErr_SetString(PyExc_ValueError, "win_play: faces, others, ahead or state: wrong size");
        ok = 0;
    }
    for (int i = 0; ok && i < 3; i++)
        if (overlap(&b[i], &b[3])) {
            PyErr_Format(PyExc_ValueError, "win_play: %s and state overlap", names[i]);
            ok = 0;
        }
    if (ok) {
        const uint8_t *ahead = b[2].buf;
        for (Py_ssize_t j = 0; j < n; j++)
            if (ahead[j] > 1) {
                PyErr_SetString(PyExc_ValueError, "win_play: ahead is 0 or 1");
                ok = 0;
                break;
            }
    }
    if (ok && check_others(t, b[1].buf, games * n * (t->nb + 1), "win_play: others") < 0)
        ok = 0;
    if (ok) {
        const int8_t *f = b[0].buf;
        for (Py_ssize_t i = 0; i < games * per_game; i++)
            if (f[i] < 1 || f[i] > FACES) {
                PyErr_SetString(PyExc_ValueError, "win_play: a die is 1 to 6");
                ok = 0;
                break;
            }
    }
    const int64_t *state = ok ? b[3].buf : NULL;
    for (Py_ssize_t g = 0; ok && g < games; g++) {
        const int64_t *row = state + g * G_COLS;
        if (!state_ok(t, row[G_MASK], row[G_Y], row[G_U]) || row[G_TOTAL] < 0
            || row[G_TOTAL] >= WIN_POINTS_MAX) {
            PyErr_Format(PyExc_ValueError, "win_play: game %zd is in no state of the tables", g);
            ok = 0;
        }
    }
    if (ok) {
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = win_games(t, &w, games, (int)n, b[0].buf, b[1].buf, b[2].buf, b[3].buf);
        Py_END_ALLOW_THREADS
        if (status) {
            status_error(status);
            ok = 0;
        }
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    for (int i = 0; i < TABLE_ARRAYS; i++) PyBuffer_Release(&tb[i]);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}
