/* The Python glue of saved rolls (saved.c): every argument checked before the loops see
 * it, as in module.c. */
#include "module.h"

/* The most saved rolls a layer may hold (0 .. SAVED_MAX - 1): a game of 24 boxes with 10
 * rolls a turn could save 9 a turn. */
#define SAVED_MAX 256

/* The arrays of a layer: the next layer's values, the ranks, the optimistic values or
 * None. Views in b[0 .. 2] (b[2] only when *has_opt), released on failure. */
static int layer_views(const Kernels *t, PyObject *orank, PyObject *onext, int ns_next,
                       PyObject *oopt, Py_buffer b[3], int *has_opt, SavedLayer *L) {
    if (t->y_count != 1) {
        PyErr_SetString(PyExc_ValueError,
                        "saved rolls: only for rules without an extra n-of-a-kind bonus");
        return -1;
    }
    if (ns_next < 1 || ns_next > SAVED_MAX) {
        PyErr_SetString(PyExc_ValueError, "saved rolls: ns_next out of range");
        return -1;
    }
    *has_opt = 0;
    if (get_array(orank, &b[0], SIGNED, 4, 0, "rank") < 0) return -1;
    if (get_array(onext, &b[1], FLOAT, 4, 0, "next") < 0) {
        PyBuffer_Release(&b[0]);
        return -1;
    }
    const char *problem = NULL;
    const Py_ssize_t cells = (Py_ssize_t)t->stride * ns_next;
    const Py_ssize_t n = b[1].len / 4;
    if (b[0].len != ((Py_ssize_t)4 << t->nb)) problem = "rank: one item per mask";
    else if (n % cells != 0) problem = "next: not whole rows of stride * ns_next values";
    if (!problem && oopt != Py_None) {
        if (get_array(oopt, &b[2], FLOAT, 4, 0, "optimistic") < 0) {
            PyBuffer_Release(&b[0]);
            PyBuffer_Release(&b[1]);
            return -1;
        }
        *has_opt = 1;
        if (b[2].len / 4 != n / cells * t->stride) problem = "optimistic: one row per mask of next";
    }
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        for (int i = 0; i < 2 + *has_opt; i++) PyBuffer_Release(&b[i]);
        return -1;
    }
    L->rank = b[0].buf;
    L->next = b[1].buf;
    L->optimistic = *has_opt ? b[2].buf : NULL;
    L->next_masks = n / cells;
    L->ns_next = ns_next;
    return 0;
}

/* saved_layer(jobs, rank, next, ns_next, optimistic, out, ns, start, step): out's rows
 * of jobs start, start + step, ... (the jobs are copied first). */
PyObject *Kernels_saved_layer(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    PyObject *ojobs, *orank, *onext, *oopt, *oout;
    int ns_next, ns;
    Py_ssize_t start, step;
    if (!PyArg_ParseTuple(args, "OOOiOOinn", &ojobs, &orank, &onext, &ns_next, &oopt, &oout,
                          &ns, &start, &step))
        return NULL;
    if (step < 1 || start < 0) {
        PyErr_SetString(PyExc_ValueError, "bad start or step");
        return NULL;
    }
    if (ns < 1 || ns > SAVED_MAX) {
        PyErr_SetString(PyExc_ValueError, "saved rolls: ns out of range");
        return NULL;
    }
    Py_buffer b[5], bj;
    int has_opt;
    SavedLayer L;
    if (layer_views(t, orank, onext, ns_next, oopt, b, &has_opt, &L) < 0) return NULL;
    int ok = 1, got_out = 0, got_jobs = 0;
    int32_t *jobs = NULL;
    Py_ssize_t n = 0;
    if (get_array(ojobs, &bj, SIGNED, 4, 0, "jobs") < 0) ok = 0;
    else got_jobs = 1;
    if (ok && get_array(oout, &b[3], FLOAT, 4, 1, "out") < 0) ok = 0;
    else if (ok) got_out = 1;
    if (ok) {
        n = bj.len / 4;
        if (b[3].len != n * 4 * t->stride * ns) {
            PyErr_SetString(PyExc_ValueError, "out: needs jobs * stride * ns items");
            ok = 0;
        }
        for (int i = 0; ok && i < 2 + has_opt; i++)
            if (overlap(&b[i], &b[3])) {
                PyErr_SetString(PyExc_ValueError, "out overlaps an array it reads");
                ok = 0;
            }
    }
    if (ok && !(jobs = PyMem_Malloc(sizeof(int32_t) * (n + 1)))) {
        PyErr_NoMemory();
        ok = 0;
    }
    if (ok) {
        memcpy(jobs, bj.buf, sizeof(int32_t) * n);
        for (Py_ssize_t j = 0; ok && j < n; j++)
            if (jobs[j] < 0 || jobs[j] >= (1 << t->nb)) {
                PyErr_Format(PyExc_ValueError, "jobs: no mask %d", jobs[j]);
                ok = 0;
            }
    }
    if (ok) {
        L.ns = ns;
        L.out = b[3].buf;
        Scratch s;
        int status = scratch_init(t, &s);
        if (status == 0) {
            Py_BEGIN_ALLOW_THREADS
            status = saved_jobs(t, &s, &L, jobs, start, n, step);
            Py_END_ALLOW_THREADS
            scratch_free(&s);
        }
        if (status < 0) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    PyMem_Free(jobs);
    if (got_jobs) PyBuffer_Release(&bj);
    if (got_out) PyBuffer_Release(&b[3]);
    for (int i = 0; i < 2 + has_opt; i++) PyBuffer_Release(&b[i]);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* saved_turn(mask, u, levels, rank, next, ns_next, optimistic, abox, values, keeps) ->
 * allowed boxes: see saved_turn in turn.h (abox int64 [nb], values float64 [levels][ne +
 * 6 nb], keeps float64 [levels][nk]). Keeps the GIL (one state: fast). */
PyObject *Kernels_saved_turn(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    int mask, u, levels, ns_next;
    PyObject *orank, *onext, *oopt, *o[3];
    if (!PyArg_ParseTuple(args, "iiiOOiOOOO", &mask, &u, &levels, &orank, &onext, &ns_next,
                          &oopt, &o[0], &o[1], &o[2]))
        return NULL;
    if (!state_ok(t, mask, 0, u)) {
        PyErr_Format(PyExc_ValueError, "no state (%d, 0, %d)", mask, u);
        return NULL;
    }
    if (levels < 1 || levels > t->rolls + SAVED_MAX) {
        PyErr_SetString(PyExc_ValueError, "saved rolls: levels out of range");
        return NULL;
    }
    Py_buffer b[6];
    int has_opt;
    SavedLayer L;
    if (layer_views(t, orank, onext, ns_next, oopt, b, &has_opt, &L) < 0) return NULL;
    static const char *const names[3] = {"abox", "values", "keeps"};
    const Py_ssize_t need[3] = {t->nb, (Py_ssize_t)levels * (t->ne + FACES * t->nb),
                                (Py_ssize_t)levels * t->nk};
    int got = 0, ok = 1;
    for (; got < 3; got++) {
        if (get_array(o[got], &b[3 + got], got ? FLOAT : SIGNED, 8, 1, names[got]) < 0) {
            ok = 0;
            break;
        }
        if (b[3 + got].len < need[got] * 8) {
            PyErr_Format(PyExc_ValueError, "%s: fewer than %zd items", names[got], need[got]);
            PyBuffer_Release(&b[3 + got]);
            ok = 0;
            break;
        }
    }
    for (int i = 0; ok && i < 3; i++)
        for (int j = 0; ok && j < 3 + i; j++)
            if ((j < 2 + has_opt || j >= 3) && overlap(&b[j], &b[3 + i])) {
                PyErr_Format(PyExc_ValueError, "%s overlaps another array", names[i]);
                ok = 0;
            }
    PyObject *result = NULL;
    if (ok) {
        int nallowed = 0;
        L.ns = 1;
        L.out = NULL;
        saved_turn(t, self->scratch, &L, mask, u, levels, b[4].buf, b[5].buf, b[3].buf,
                   &nallowed);
        result = PyLong_FromLong(nallowed);
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[3 + i]);
    for (int i = 0; i < 2 + has_opt; i++) PyBuffer_Release(&b[i]);
    return result;
}

/* saved_play(mask, u, levels, rank, next, ns_next, optimistic, rows, saved, games) ->
 * None: one turn of the games `games` (int64 row numbers) of `rows` (int64 [n][G_COLS],
 * the simulation's rows) with saved rolls `saved` (int64 [n]), all in state (mask, 0, u)
 * or one with an upper sum of u's lane (the same values),
 * played optimally on the turn tables of `levels` levels (see saved_play in saved.c).
 * Releases the GIL: callers play the groups of a turn on threads. */
PyObject *Kernels_saved_play(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    int mask, u, levels, ns_next;
    PyObject *orank, *onext, *oopt, *o[3];
    if (!PyArg_ParseTuple(args, "iiiOOiOOOO", &mask, &u, &levels, &orank, &onext, &ns_next,
                          &oopt, &o[0], &o[1], &o[2]))
        return NULL;
    if (!state_ok(t, mask, 0, u)) {
        PyErr_Format(PyExc_ValueError, "no state (%d, 0, %d)", mask, u);
        return NULL;
    }
    if (t->lane_of[(size_t)upper_mask(t, mask) * t->stride + u] < 0) {
        PyErr_Format(PyExc_ValueError, "no game reaches upper sum %d in state %d", u, mask);
        return NULL;
    }
    if (levels < t->rolls || levels > t->rolls + SAVED_MAX) {
        PyErr_SetString(PyExc_ValueError, "saved rolls: levels out of range");
        return NULL;
    }
    Py_buffer b[6];
    int has_opt;
    SavedLayer L;
    if (layer_views(t, orank, onext, ns_next, oopt, b, &has_opt, &L) < 0) return NULL;
    static const char *const names[3] = {"rows", "saved", "games"};
    static const int writable[3] = {1, 1, 0};
    int got = 0, ok = 1;
    for (; got < 3; got++)
        if (get_array(o[got], &b[3 + got], SIGNED, 8, writable[got], names[got]) < 0) {
            ok = 0;
            break;
        }
    const Py_ssize_t games = ok ? b[4].len / 8 : 0, n = ok ? b[5].len / 8 : 0;
    if (ok && b[3].len != games * 8 * G_COLS) {
        PyErr_SetString(PyExc_ValueError, "rows: one row of G_COLS items per saved count");
        ok = 0;
    }
    for (int i = 0; ok && i < 3; i++)
        for (int j = 0; ok && j < 3 + i; j++)
            if ((j < 2 + has_opt || j >= 3) && (j < 3 || writable[i] || writable[j - 3])
                && overlap(&b[j], &b[3 + i])) {
                PyErr_Format(PyExc_ValueError, "%s overlaps another array", names[i]);
                ok = 0;
            }
    int64_t *idx = NULL, *abox = NULL;
    double *bv = NULL, *keeps = NULL;
    const size_t nbv = (size_t)t->ne + FACES * t->nb;
    if (ok) {
        idx = PyMem_Malloc(sizeof(int64_t) * (n + 1));
        abox = PyMem_Malloc(sizeof(int64_t) * t->nb);
        bv = PyMem_Malloc(sizeof(double) * nbv * levels);
        keeps = PyMem_Malloc(sizeof(double) * t->nk * levels);
        if (!idx || !abox || !bv || !keeps) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    if (ok) {
        /* The games are copied, then checked: each game once, its row in this state, its
         * saved rolls within the levels. */
        memcpy(idx, b[5].buf, sizeof(int64_t) * n);
        const int64_t *rows = b[3].buf, *saved = b[4].buf;
        const int32_t *lane_of = t->lane_of + (size_t)upper_mask(t, mask) * t->stride;
        for (Py_ssize_t j = 0; ok && j < n; j++) {
            const int64_t g = idx[j];
            if (g < 0 || g >= games) {
                PyErr_Format(PyExc_ValueError, "games: no game %lld", (long long)g);
                ok = 0;
            } else if (rows[g * G_COLS + G_MASK] != mask || rows[g * G_COLS + G_U] < 0
                       || rows[g * G_COLS + G_U] > t->threshold
                       || lane_of[rows[g * G_COLS + G_U]] != lane_of[u]) {
                PyErr_Format(PyExc_ValueError, "game %lld is not in state (%d, 0, %d)",
                             (long long)g, mask, u);
                ok = 0;
            } else if (saved[g] < 0 || saved[g] > levels - t->rolls) {
                PyErr_Format(PyExc_ValueError, "game %lld: saved rolls not 0 to %d",
                             (long long)g, levels - t->rolls);
                ok = 0;
            }
        }
        for (Py_ssize_t j = 1; ok && j < n; j++)
            if (idx[j] <= idx[j - 1]) {
                PyErr_SetString(PyExc_ValueError, "games: in increasing order, each once");
                ok = 0;
            }
    }
    if (ok) {
        Scratch s;
        int status = scratch_init(t, &s);
        if (status == 0) {
            int nallowed = 0;
            L.ns = 1;
            L.out = NULL;
            Py_BEGIN_ALLOW_THREADS
            saved_turn(t, &s, &L, mask, u, levels, bv, keeps, abox, &nallowed);
            status = saved_play(t, &L, mask, u, levels, bv, keeps, abox, nallowed, b[3].buf,
                                b[4].buf, idx, n);
            Py_END_ALLOW_THREADS
            scratch_free(&s);
            if (status == -1) {
                PyErr_SetString(PyExc_ValueError, "saved_play: a game had no option");
                ok = 0;
            } else if (status == -3) {
                PyErr_SetString(PyExc_ValueError, "saved_play: a game changed while it played");
                ok = 0;
            }
        } else {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    PyMem_Free(idx);
    PyMem_Free(abox);
    PyMem_Free(bv);
    PyMem_Free(keeps);
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[3 + i]);
    for (int i = 0; i < 2 + has_opt; i++) PyBuffer_Release(&b[i]);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}
