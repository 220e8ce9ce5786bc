/* The Python glue: the Kernels type and the module yatzy.solver._kernels (see
 * yatzy.solver.kernels). Every argument is checked here before the loops see it: arrays
 * by kind, item size, length, layout, alignment and writability, and arrays that a call
 * writes never overlap the others it is given. Every error is a TypeError (an argument
 * of the wrong kind, or keywords) or a ValueError (any other misfit), or MemoryError. */
#include "module.h"
#include "outcomes.h"

#include <stdio.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

/* How many bytes of freed rows may pile up before give_back_memory is called. */
#define TRIM_EVERY ((size_t)64 << 20)

/* Hand the memory freed so far back to the system where the C library can (glibc keeps
 * the many small blocks of a big table otherwise, and the process stays as large as it
 * was at its peak). */
static void give_back_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

#define ERRLEN 200

Kernels *ready(KernelsObject *self) {
    if (!self->t)
        PyErr_SetString(PyExc_ValueError,
                        "Kernels is not initialised (its __init__ did not succeed)");
    return self->t;
}

/* The kind of the struct-module format `f` of one item in this machine's byte order (a
 * byte-order prefix that says so is allowed), or -1. */
static int format_kind(const char *f) {
    if (!f) return UNSIGNED; /* bytes */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    if (*f == '@' || *f == '=' || *f == '>' || *f == '!') f++;
#else
    if (*f == '@' || *f == '=' || *f == '<') f++;
#endif
    if (!f[0] || f[1]) return -1;
    switch (f[0]) {
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
        return SIGNED;
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
        return UNSIGNED;
    case 'e': case 'f': case 'd':
        return FLOAT;
    default:
        return -1;
    }
}

int get_array(PyObject *o, Py_buffer *b, int kind, Py_ssize_t itemsize, int writable,
              const char *what) {
    static const char *const KINDS[] = {"signed integers", "unsigned integers", "floats"};
    if (PyObject_GetBuffer(o, b, PyBUF_RECORDS_RO) < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) return -1; /* not an array */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(PyExc_ValueError, "%s: cannot be read as an array (%S)", what,
                     value ? value : Py_None);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return -1;
    }
    const char *problem = NULL;
    if (format_kind(b->format) != kind || b->itemsize != itemsize)
        problem = "items of the wrong type";
    else if (!PyBuffer_IsContiguous(b, 'C'))
        problem = "not C-contiguous";
    else if (((uintptr_t)b->buf) % (uintptr_t)itemsize != 0)
        problem = "not aligned";
    else if (writable && b->readonly)
        problem = "read-only";
    if (problem) {
        PyErr_Format(PyExc_ValueError, "%s: %s (it needs %zd-byte %s)", what, problem, itemsize,
                     KINDS[kind]);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

/* 1 when two views share a byte. */
int overlap(const Py_buffer *a, const Py_buffer *b) {
    const char *x = a->buf, *y = b->buf;
    return a->len > 0 && b->len > 0 && x < y + b->len && y < x + a->len;
}

/* --- The object ---------------------------------------------------------------------- */

static void Kernels_dealloc(KernelsObject *self) {
    for (int i = 0; i < self->nviews; i++) PyBuffer_Release(&self->views[i]);
    /* A pool exists only with a record (see Kernels_init). */
    for (int i = 0; self->adv_pool && i < self->t->nb + self->t->sub_width; i++)
        Py_XDECREF(self->adv_pool[i]);
    PyMem_Free(self->adv_pool);
    kernels_free(self->t);
    PyMem_Free(self->adv_abox);
    PyMem_Free(self->adv_values);
    PyMem_Free(self->adv_keeps);
    PyMem_Free(self->adv_work);
    if (self->scratch) {
        scratch_free(self->scratch);
        PyMem_Free(self->scratch);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Kernels(sizes, arrays): see Sizes and the arrays' order in kernels.h. All or nothing:
 * when it fails, the object stays without a record. */
static int Kernels_init(KernelsObject *self, PyObject *args, PyObject *kwds) {
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Kernels() takes no keyword arguments");
        return -1;
    }
    if (self->t) {
        PyErr_SetString(PyExc_TypeError, "Kernels is initialised once");
        return -1;
    }
    Sizes s;
    PyObject *arrays;
    if (!PyArg_ParseTuple(args, "(iiiiiiiiiiiiii)O!", &s.nr, &s.nb, &s.nk, &s.ne,
                          &s.first_roll, &s.dice, &s.rolls, &s.threshold, &s.bonus,
                          &s.yahtzee_box, &s.y_points, &s.y_count, &s.sub_width, &s.nu,
                          &PyTuple_Type, &arrays))
        return -1;
    if (PyTuple_GET_SIZE(arrays) != N_ARRAYS) {
        PyErr_Format(PyExc_ValueError, "Kernels needs %d arrays", N_ARRAYS);
        return -1;
    }
    char err[ERRLEN] = "";
    int64_t items[N_ARRAYS], given[N_ARRAYS];
    if (kernels_sizes(&s, items, err, sizeof(err)) != K_OK) {
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    static const char *const names[N_ARRAYS] = {
        "Kernels: score", "Kernels: allowed", "Kernels: five_points", "Kernels: five_rolls",
        "Kernels: five_of", "Kernels: extra", "Kernels: is_upper", "Kernels: entry_of",
        "Kernels: entry_box", "Kernels: entry_roll", "Kernels: child", "Kernels: parent_start",
        "Kernels: parent_list", "Kernels: roll_prob", "Kernels: sub_keeps",
        "Kernels: sub_count", "Kernels: counts", "Kernels: code_to_keep", "Kernels: lanes",
        "Kernels: lane_count", "Kernels: lane_of", "Kernels: upper_bit", "Kernels: possible",
        "Kernels: V"};
    Py_buffer b[N_ARRAYS];
    void *data[N_ARRAYS];
    int got = 0, status = K_BAD;
    Kernels *t = NULL;
    for (; got < N_ARRAYS; got++) {
        const int i = got;
        const int kind = i == A_ROLL_PROB || i == A_V ? FLOAT : i == A_POSSIBLE ? UNSIGNED : SIGNED;
        const Py_ssize_t size = i == A_FIVE_POINTS ? 1 : kind == SIGNED ? 4 : 8;
        if (get_array(PyTuple_GET_ITEM(arrays, i), &b[i], kind, size, i == A_V, names[i]) < 0)
            break;
        given[i] = b[i].len / size;
        data[i] = b[i].buf;
        if (items[i] >= 0 && given[i] != items[i]) {
            PyErr_Format(PyExc_ValueError, "%s has %lld items, not %lld", names[i],
                         (long long)given[i], (long long)items[i]);
            PyBuffer_Release(&b[i]);
            break;
        }
    }
    if (got == N_ARRAYS) {
        Py_BEGIN_ALLOW_THREADS
        status = kernels_build(&s, data, given, &t, err, sizeof(err));
        Py_END_ALLOW_THREADS
        if (status == K_NOMEM) PyErr_NoMemory();
        else if (status == K_BAD) PyErr_SetString(PyExc_ValueError, err);
    }
    /* What the calls keep: their scratch memory and advice's tables. */
    Scratch *scratch = NULL;
    int64_t *abox = NULL;
    double *values = NULL, *keeps = NULL, *work = NULL;
    PyObject **pool = NULL;
    if (status == K_OK) {
        scratch = PyMem_Calloc(1, sizeof(Scratch));
        abox = PyMem_Malloc(sizeof(int64_t) * t->nb);
        values = PyMem_Malloc(sizeof(double) * ((size_t)t->ne + FACES * t->nb));
        keeps = PyMem_Malloc(sizeof(double) * ((size_t)t->rolls * t->nk));
        work = PyMem_Malloc(sizeof(double) * ((size_t)t->ne + FACES * t->nb + t->nr));
        pool = PyMem_Calloc((size_t)t->nb + t->sub_width, sizeof(PyObject *));
        if (!scratch || !abox || !values || !keeps || !work || !pool
            || scratch_init(t, scratch) < 0) {
            PyErr_NoMemory();
            status = K_NOMEM;
            if (scratch) scratch_free(scratch);
        }
    }
    /* Keep the views of the arrays read in place; the others were copied. */
    for (int i = 0; i < got; i++)
        if (status != K_OK || (i != A_FIVE_POINTS && i != A_V)) PyBuffer_Release(&b[i]);
    if (status != K_OK) {
        kernels_free(t);
        PyMem_Free(scratch);
        PyMem_Free(abox);
        PyMem_Free(values);
        PyMem_Free(keeps);
        PyMem_Free(work);
        PyMem_Free(pool);
        return -1;
    }
    self->views[0] = b[A_FIVE_POINTS];
    self->views[1] = b[A_V];
    self->nviews = 2;
    self->scratch = scratch;
    self->adv_abox = abox;
    self->adv_values = values;
    self->adv_keeps = keeps;
    self->adv_work = work;
    self->adv_pool = pool;
    self->adv_mask = -1;
    self->t = t;
    return 0;
}

static int check_state(const Kernels *t, int mask, int y, int u) {
    if (!state_ok(t, mask, y, u)) {
        PyErr_Format(PyExc_ValueError, "no state (%d, %d, %d)", mask, y, u);
        return -1;
    }
    return 0;
}

/* --- The calls ----------------------------------------------------------------------- */

static PyObject *Kernels_fill(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    int mask, y, u, roll, box;
    if (!PyArg_ParseTuple(args, "iiiii", &mask, &y, &u, &roll, &box)) return NULL;
    if (check_state(t, mask, y, u) < 0) return NULL;
    if (roll < 0 || roll >= t->nr || box < 0 || box >= t->nb) {
        PyErr_SetString(PyExc_ValueError, "no such roll or box");
        return NULL;
    }
    int extra, m2, y2, up, u2;
    int points = fill_box(t, mask, y, roll, box, &extra, &m2, &y2, &up);
    int bonus = add_upper(t, u, up, &u2);
    if (points < 0) u2 = u;
    return Py_BuildValue("(iiiiii)", points, extra, bonus, m2, y2, u2);
}

/* solve(jobs_mask, jobs_y, start, step, wide=True): fill V for jobs start, start + step,
 * ... (the jobs are copied first: the loop reads nothing of the caller's but V), on eight
 * lanes where the processor can (solve_jobs_wide) unless wide is false. */
static PyObject *Kernels_solve(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    PyObject *om, *oy;
    Py_ssize_t start, step;
    int wide = 1;
    if (!PyArg_ParseTuple(args, "OOnn|p", &om, &oy, &start, &step, &wide)) return NULL;
    if (step < 1 || start < 0) {
        PyErr_SetString(PyExc_ValueError, "bad start or step");
        return NULL;
    }
    Py_buffer bm, by;
    if (get_array(om, &bm, SIGNED, 4, 0, "jobs_mask") < 0) return NULL;
    if (get_array(oy, &by, SIGNED, 4, 0, "jobs_y") < 0) {
        PyBuffer_Release(&bm);
        return NULL;
    }
    const Py_ssize_t n = bm.len / 4;
    int32_t *jobs = NULL;
    if (by.len < bm.len) {
        PyErr_SetString(PyExc_ValueError, "jobs_y: fewer jobs than jobs_mask");
    } else if (!(jobs = PyMem_Malloc(sizeof(int32_t) * 2 * (n + 1)))) {
        PyErr_NoMemory();
    } else {
        memcpy(jobs, bm.buf, sizeof(int32_t) * n);
        memcpy(jobs + n, by.buf, sizeof(int32_t) * n);
    }
    PyBuffer_Release(&bm);
    PyBuffer_Release(&by);
    if (!jobs) return NULL;
    for (Py_ssize_t j = 0; j < n; j++)
        if (check_state(t, jobs[j], jobs[n + j], 0) < 0) {
            PyMem_Free(jobs);
            return NULL;
        }
    int done = 0;
    if (wide) {
        Py_BEGIN_ALLOW_THREADS
        done = solve_jobs_wide(t, jobs, jobs + n, start, n, step);
        Py_END_ALLOW_THREADS
    }
    if (done == 0) {
        Scratch s;
        if (scratch_init(t, &s) < 0) {
            done = -1;
        } else {
            Py_BEGIN_ALLOW_THREADS
            solve_jobs(t, &s, jobs, jobs + n, start, n, step);
            Py_END_ALLOW_THREADS
            scratch_free(&s);
        }
    }
    PyMem_Free(jobs);
    if (done < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* turn(mask, y, u, rerolls, abox, values, keeps) -> allowed boxes: a turn's tables. */
static PyObject *Kernels_turn(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    int mask, y, u, rerolls;
    PyObject *oa, *ov, *ok;
    if (!PyArg_ParseTuple(args, "iiiiOOO", &mask, &y, &u, &rerolls, &oa, &ov, &ok))
        return NULL;
    if (check_state(t, mask, y, u) < 0) return NULL;
    if (rerolls < 0 || rerolls >= t->rolls) {
        PyErr_SetString(PyExc_ValueError, "rerolls out of range");
        return NULL;
    }
    Py_buffer b[3];
    static const char *const names[3] = {"abox", "values", "keeps"};
    PyObject *o[3] = {oa, ov, ok};
    const Py_ssize_t need[3] = {t->nb, (Py_ssize_t)t->ne + FACES * t->nb,
                                (Py_ssize_t)rerolls * t->nk};
    int got = 0;
    for (; got < 3; got++) {
        if (get_array(o[got], &b[got], got ? FLOAT : SIGNED, 8, 1, names[got]) < 0) break;
        if (b[got].len < need[got] * 8) {
            PyErr_Format(PyExc_ValueError, "%s: fewer than %zd items", names[got], need[got]);
            PyBuffer_Release(&b[got]);
            break;
        }
    }
    PyObject *result = NULL;
    if (got == 3) {
        Scratch *s = self->scratch;
        turn_tables(t, s, mask, y, u, rerolls, b[1].buf, b[2].buf);
        int64_t *abox = b[0].buf;
        const int n = s->plan.nallowed;
        for (int i = 0; i < n; i++) abox[i] = s->plan.abox[i];
        result = PyLong_FromLong(n);
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return result;
}

/* distribution(mask, y, u, roll, rerolls, threads) -> (lo, bytes): score_distribution
 * from roll number `roll` (-1: the turn's first roll is still to come) with `rerolls`
 * rerolls left, on `threads` threads; the bytes are the doubles p[a - lo]. */
static PyObject *Kernels_distribution(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    int mask, y, u, roll, rerolls, threads;
    if (!PyArg_ParseTuple(args, "iiiiii", &mask, &y, &u, &roll, &rerolls, &threads))
        return NULL;
    if (check_state(t, mask, y, u) < 0) return NULL;
    if (roll < -1 || roll >= t->nr || rerolls < 0 || rerolls >= t->rolls) {
        PyErr_SetString(PyExc_ValueError, "distribution: no such roll or rerolls");
        return NULL;
    }
    Dist res;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = score_distribution(t, mask, y, u, roll, rerolls, threads, &res);
    Py_END_ALLOW_THREADS
    if (status == -1) return PyErr_NoMemory();
    if (status == -2) {
        PyErr_Format(PyExc_ValueError, "distribution: state (%d, %d, %d) has no option", mask,
                     y, u);
        return NULL;
    }
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)res.p,
                                                (Py_ssize_t)(res.hi - res.lo) * sizeof(double));
    free(res.p);
    if (!bytes) return NULL;
    return Py_BuildValue("(iN)", res.lo, bytes);
}

/* outcomes(mask, y, u, roll, rerolls) -> (gains, keys, probs): how the turn of state
 * (mask, y, u) ends under optimal play (turn_outcomes), from roll number `roll` with
 * `rerolls` rerolls left (roll -1: from the turn's first roll): int32 gains and next
 * states (state_key), and double chances, as bytes. */
static PyObject *Kernels_outcomes(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    int mask, y, u, roll, rerolls;
    if (!PyArg_ParseTuple(args, "iiiii", &mask, &y, &u, &roll, &rerolls)) return NULL;
    if (check_state(t, mask, y, u) < 0) return NULL;
    if (roll < -1 || roll >= t->nr || rerolls < 0 || rerolls >= t->rolls) {
        PyErr_SetString(PyExc_ValueError, "outcomes: no such roll or rerolls");
        return NULL;
    }
    if (mask == (1 << t->nb) - 1) {
        PyErr_SetString(PyExc_ValueError, "outcomes: the card is full");
        return NULL;
    }
    Walk w;
    if (walk_init(t, &w) < 0) {
        walk_free(&w);
        return PyErr_NoMemory();
    }
    Scratch *s = self->scratch;
    int lu[LANES];
    for (int q = 0; q < LANES; q++) lu[q] = u;
    make_plan(t, mask, y, &s->plan);
    turn_block(t, s, lu, t->rolls - 1, NULL, NULL, 1);
    int status = turn_outcomes(t, s, NULL, &w, mask, y, u, 0, roll, rerolls);
    PyObject *result = NULL;
    if (status < 0) {
        PyErr_Format(PyExc_ValueError, "outcomes: state (%d, %d, %d) has no option", mask, y,
                     u);
    } else {
        int32_t *gains = malloc(sizeof(int32_t) * (w.n ? w.n : 1));
        int32_t *keys = malloc(sizeof(int32_t) * (w.n ? w.n : 1));
        if (!gains || !keys) {
            PyErr_NoMemory();
        } else {
            for (int i = 0; i < w.n; i++) {
                gains[i] = w.gain[i];
                keys[i] = w.key[i];
            }
            result = Py_BuildValue("(y#y#y#)", (const char *)gains,
                                   (Py_ssize_t)(sizeof(int32_t) * w.n), (const char *)keys,
                                   (Py_ssize_t)(sizeof(int32_t) * w.n), (const char *)w.prob,
                                   (Py_ssize_t)(sizeof(double) * w.n));
        }
        free(gains);
        free(keys);
    }
    walk_free(&w);
    return result;
}

/* remaining(tail, threads, upto=-1) -> (keys, lo, len, chances): remaining_table as
 * bytes: int32 keys, lows and lengths per row, and the rows' chances one after the other,
 * float32; with upto >= 0 exact (float64, no tails cut) and only the rows of the states
 * with at most upto filled boxes. */
static PyObject *Kernels_remaining(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    int threads, upto = -1;
    double tail;
    if (!PyArg_ParseTuple(args, "di|i", &tail, &threads, &upto)) return NULL;
    if (!(tail >= 0.0 && tail < 0.5)) {
        PyErr_SetString(PyExc_ValueError, "remaining: a tail is from 0 to 0.5");
        return NULL;
    }
    if (upto < -1 || upto >= t->nb) {
        PyErr_SetString(PyExc_ValueError, "remaining: upto is -1 or a layer before the last");
        return NULL;
    }
    Rows R;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = remaining_table(t, threads, tail, upto, &R);
    Py_END_ALLOW_THREADS
    if (status == -1) return PyErr_NoMemory();
    if (status == -2) {
        PyErr_SetString(PyExc_ValueError, "remaining: a state has no option");
        return NULL;
    }
    const Py_ssize_t item = upto >= 0 ? sizeof(double) : sizeof(float);
    Py_ssize_t cells = 0, kept = 0;
    for (int i = 0; i < R.n; i++)
        if (upto < 0 || R.d[i]) {
            cells += R.len[i];
            R.key[kept] = R.key[i];
            R.lo[kept] = R.lo[i];
            R.len[kept] = R.len[i];
            if (upto >= 0) R.d[kept] = R.d[i];
            else R.p[kept] = R.p[i];
            kept++;
        }
    PyObject *keys = PyBytes_FromStringAndSize((const char *)R.key, sizeof(int) * kept);
    PyObject *lo = PyBytes_FromStringAndSize((const char *)R.lo, sizeof(int) * kept);
    PyObject *len = PyBytes_FromStringAndSize((const char *)R.len, sizeof(int) * kept);
    PyObject *data = PyBytes_FromStringAndSize(NULL, cells * item);
    if (data) {
        /* Each row freed once copied, and the freed memory handed back to the system as
         * it grows: the rows and their copy are never both whole in memory (the table is
         * hundreds of megabytes). Without the GIL: the copy takes about half a second,
         * and no other thread can see `data` yet. */
        char *out = PyBytes_AS_STRING(data);
        size_t since_trim = 0;
        Py_BEGIN_ALLOW_THREADS
        for (int i = 0; i < kept; i++) {
            void **row = upto >= 0 ? (void **)&R.d[i] : (void **)&R.p[i];
            const size_t bytes = (size_t)item * R.len[i];
            memcpy(out, *row, bytes);
            out += bytes;
            free(*row);
            *row = NULL;
            since_trim += bytes;
            if (since_trim >= TRIM_EVERY) {
                give_back_memory();
                since_trim = 0;
            }
        }
        give_back_memory();
        Py_END_ALLOW_THREADS
    }
    /* The rows moved down: the pointers past `kept` are copies or NULL. */
    for (int i = kept; i < R.n; i++) {
        if (upto >= 0) R.d[i] = NULL;
        else R.p[i] = NULL;
    }
    R.n = kept;
    rows_free(&R);
    if (!keys || !lo || !len || !data) {
        Py_XDECREF(keys);
        Py_XDECREF(lo);
        Py_XDECREF(len);
        Py_XDECREF(data);
        return NULL;
    }
    return Py_BuildValue("(NNNN)", keys, lo, len, data);
}

/* play(state, lo, hi, faces or None, uniforms or None, temperature, choices or None,
 * threads, history or None): play games lo .. hi - 1 to their end on `threads` threads. */
static PyObject *Kernels_play(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    PyObject *o[5] = {NULL, NULL, NULL, NULL, Py_None};
    Py_ssize_t lo, hi;
    double temperature;
    int threads;
    if (!PyArg_ParseTuple(args, "OnnOOdOi|O", &o[0], &lo, &hi, &o[1], &o[2], &temperature,
                          &o[3], &threads, &o[4]))
        return NULL;
    /* state, faces, uniforms, choices, history */
    static const char *const names[5] = {"state", "faces", "uniforms", "choices", "history"};
    static const int kinds[5] = {SIGNED, SIGNED, FLOAT, SIGNED, SIGNED};
    static const Py_ssize_t sizes[5] = {8, 1, 8, 8, 8};
    static const int writable[5] = {1, 0, 0, 1, 1};
    Py_buffer b[5];
    int has[5] = {0};
    int ok = 1;
    for (int i = 0; ok && i < 5; i++) {
        if (i > 0 && o[i] == Py_None) continue;
        ok = get_array(o[i], &b[i], kinds[i], sizes[i], writable[i], names[i]) == 0;
        has[i] = ok;
    }
    const Py_ssize_t games = ok ? b[0].len / (8 * G_COLS) : 0;
    const Py_ssize_t per_game = (Py_ssize_t)t->nb * t->rolls;
    const Py_ssize_t need[5] = {games * G_COLS, games * per_game * t->dice, games * per_game,
                                games * per_game, games * (t->nb + 1) * 4};
    if (ok && !(lo >= 0 && hi >= lo && hi <= games && b[0].len == games * 8 * G_COLS)) {
        PyErr_SetString(PyExc_ValueError, "play: bad game range or state");
        ok = 0;
    }
    for (int i = 1; ok && i < 5; i++)
        if (has[i] && b[i].len < need[i] * sizes[i]) {
            PyErr_Format(PyExc_ValueError, "play: %s: wrong size", names[i]);
            ok = 0;
        }
    for (int i = 0; ok && i < 5; i++)
        for (int j = i + 1; ok && j < 5; j++)
            if (has[i] && has[j] && (writable[i] || writable[j]) && overlap(&b[i], &b[j])) {
                PyErr_Format(PyExc_ValueError, "play: %s and %s overlap", names[i], names[j]);
                ok = 0;
            }
    if (ok && has[1]) {
        const int8_t *f = b[1].buf;
        for (Py_ssize_t i = 0; i < need[1]; i++)
            if (f[i] < 1 || f[i] > FACES) {
                PyErr_SetString(PyExc_ValueError, "play: a die is 1 to 6");
                ok = 0;
                break;
            }
    }
    if (ok && temperature > 0.0 && has[1] && !has[2]) {
        PyErr_SetString(PyExc_ValueError, "play: given dice need given uniforms");
        ok = 0;
    }
    int64_t *state = ok ? b[0].buf : NULL;
    for (Py_ssize_t g = lo; ok && g < hi; g++) {
        const int64_t *row = state + g * G_COLS;
        if (!state_ok(t, row[G_MASK], row[G_Y], row[G_U])) {
            PyErr_Format(PyExc_ValueError, "play: game %zd is in no state of the tables", g);
            ok = 0;
        }
    }
    if (ok) {
        PlaySource src = {has[1] ? b[1].buf : NULL, has[2] ? b[2].buf : NULL,
                          has[3] ? b[3].buf : NULL, has[4] ? b[4].buf : NULL, temperature};
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = play_games(t, state, lo, hi, &src, threads);
        Py_END_ALLOW_THREADS
        if (status == -2) {
            PyErr_NoMemory();
            ok = 0;
        } else if (status == -1) {
            PyErr_SetString(PyExc_ValueError, "play: a game had no legal option");
            ok = 0;
        } else if (status < 0) {
            PyErr_SetString(PyExc_ValueError, "play: a game's row or dice changed during play");
            ok = 0;
        }
    }
    for (int i = 0; i < 5; i++)
        if (has[i]) PyBuffer_Release(&b[i]);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* seed_games(state, seed, first): each game's own stream of dice, from the seed and the
 * game's number (first + row), so a game's dice do not depend on how games are split. */
static PyObject *Kernels_seed_games(KernelsObject *self, PyObject *args) {
    if (!ready(self)) return NULL;
    PyObject *os;
    unsigned long long seed;
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "OKn", &os, &seed, &first)) return NULL;
    Py_buffer bs;
    if (get_array(os, &bs, SIGNED, 8, 1, "state") < 0) return NULL;
    seed_games(bs.buf, bs.len / (8 * G_COLS), seed, (uint64_t)first);
    PyBuffer_Release(&bs);
    Py_RETURN_NONE;
}

/* step_games(state, dice, left, scores, history, count, actions, restart, reward, legal)
 * -> -1, or the first game whose action is illegal (then no game changed). */
static PyObject *Kernels_step_games(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    PyObject *o[10];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[8], &o[9]))
        return NULL;
    Py_buffer b[10];
    static const char *const names[10] = {"state", "dice", "left", "scores", "history",
                                          "count", "actions", "restart", "reward", "legal"};
    static const int kinds[10] = {SIGNED, SIGNED, SIGNED, SIGNED, SIGNED,
                                  SIGNED, SIGNED, UNSIGNED, SIGNED, SIGNED};
    static const Py_ssize_t sizes[10] = {8, 1, 1, 2, 2, 8, 8, 1, 8, 1};
    static const int writable[10] = {1, 1, 1, 1, 1, 1, 0, 0, 1, 1};
    int got = 0;
    for (; got < 10; got++)
        if (get_array(o[got], &b[got], kinds[got], sizes[got], writable[got], names[got]) < 0)
            break;
    const Py_ssize_t n = got == 10 ? b[0].len / (8 * G_COLS) : 0;
    const Py_ssize_t keeps = ((Py_ssize_t)1 << t->dice) - 1, hrows = t->nb * t->rolls + 1;
    const Py_ssize_t need[10] = {n * G_COLS, n * t->dice, n, n * t->nb,
                                 n * hrows * (1 + t->dice), n, n, n, n, n * (keeps + t->nb)};
    int ok = got == 10;
    for (int i = 0; ok && i < 10; i++)
        if (b[i].len != need[i] * sizes[i]) {
            PyErr_SetString(PyExc_ValueError, "step_games: arrays of the wrong size");
            ok = 0;
        }
    for (int i = 0; ok && i < 10; i++)
        for (int j = i + 1; ok && j < 10; j++)
            if (overlap(&b[i], &b[j])) {
                PyErr_Format(PyExc_ValueError, "step_games: %s and %s overlap", names[i],
                             names[j]);
                ok = 0;
            }
    ptrdiff_t bad = -1;
    if (ok) {
        EnvGames e = {b[0].buf, b[1].buf, b[2].buf, b[9].buf, b[3].buf, b[4].buf,
                      b[5].buf, b[8].buf, b[6].buf, b[7].buf, 0, 0, 0};
        char err[ERRLEN] = "";
        if (env_step(t, &e, n, &bad, err, sizeof(err)) != K_OK) {
            PyErr_SetString(PyExc_ValueError, err);
            ok = 0;
        }
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    if (!ok) return NULL;
    return PyLong_FromSsize_t(bad);
}

/* regrets(state, dice, left, actions, restart, regret, threads, memo_keys, memo): the
 * regret of each game's action before step_games takes it (see env_regrets), into regret
 * (float64, one per game), on `threads` threads (at most THREADS_MAX). The arrays are
 * step_games's (regret written, the others read), and the memo of the first `rows`
 * games' turns (RegretMemo, read and written): memo_keys int64 [rows], memo float64
 * [rows][memo_width()], any rows (0 for none). */
static PyObject *Kernels_regrets(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    enum { N = 8 };
    PyObject *o[N];
    int threads;
    if (!PyArg_ParseTuple(args, "OOOOOOiOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &threads, &o[6], &o[7]))
        return NULL;
    Py_buffer b[N];
    static const char *const names[N] = {"state", "dice", "left", "actions", "restart",
                                         "regret", "memo_keys", "memo"};
    static const int kinds[N] = {SIGNED, SIGNED, SIGNED, SIGNED, UNSIGNED, FLOAT, SIGNED,
                                 FLOAT};
    static const Py_ssize_t sizes[N] = {8, 1, 1, 8, 1, 8, 8, 8};
    static const int writable[N] = {0, 0, 0, 0, 0, 1, 1, 1};
    int got = 0;
    for (; got < N; got++)
        if (get_array(o[got], &b[got], kinds[got], sizes[got], writable[got], names[got]) < 0)
            break;
    const Py_ssize_t n = got == N ? b[0].len / (8 * G_COLS) : 0;
    const Py_ssize_t rows = got == N ? b[6].len / 8 : 0;
    const Py_ssize_t need[N] = {n * G_COLS, n * t->dice, n, n, n, n, rows,
                                rows * regret_memo_width(t)};
    int ok = got == N;
    for (int i = 0; ok && i < N; i++)
        if (b[i].len != need[i] * sizes[i]) {
            PyErr_Format(PyExc_ValueError, "regrets: arrays of the wrong size (%s)", names[i]);
            ok = 0;
        }
    /* The arrays written (regret, memo_keys, memo) overlap no other. */
    for (int i = 0; ok && i < N; i++)
        for (int j = i + 1; ok && j < N; j++)
            if (writable[j] && overlap(&b[i], &b[j])) {
                PyErr_Format(PyExc_ValueError, "regrets: %s and %s overlap", names[i],
                             names[j]);
                ok = 0;
            }
    if (ok && threads < 1) {
        PyErr_SetString(PyExc_ValueError, "regrets: threads must be 1 or more");
        ok = 0;
    }
    if (threads > THREADS_MAX) threads = THREADS_MAX; /* as many as the loops use */
    if (ok) {
        EnvGames e = {b[0].buf, b[1].buf, b[2].buf, NULL, NULL, NULL,
                      NULL, NULL, b[3].buf, b[4].buf, 0, 0, 0};
        RegretMemo memo = {b[6].buf, b[7].buf, rows};
        char err[ERRLEN] = "";
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = env_regrets(t, &e, n, b[5].buf, threads, &memo, err, sizeof(err));
        Py_END_ALLOW_THREADS
        if (status == K_NOMEM) {
            PyErr_NoMemory();
            ok = 0;
        } else if (status != K_OK) {
            PyErr_SetString(PyExc_ValueError, err);
            ok = 0;
        }
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* memo_width() -> the doubles of a row of the regrets' memo (see RegretMemo). */
static PyObject *Kernels_memo_width(KernelsObject *self, PyObject *Py_UNUSED(ignored)) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    return PyLong_FromLong(regret_memo_width(t));
}

static PyMethodDef Kernels_methods[] = {
    {"fill", (PyCFunction)Kernels_fill, METH_VARARGS,
     "fill(mask, y, u, roll, box) -> (points, extra, bonus, mask2, y2, u2)"},
    {"solve", (PyCFunction)Kernels_solve, METH_VARARGS,
     "solve(jobs_mask, jobs_y, start, step, wide=True): fill V for jobs start, start + step,"
     " ..."},
    {"turn", (PyCFunction)Kernels_turn, METH_VARARGS,
     "turn(mask, y, u, rerolls, abox, values, keeps) -> allowed boxes"},
    {"advise", (PyCFunction)(void (*)(void))Kernels_advise, METH_FASTCALL,
     "advise(entries, yahtzee_bonus, dice, rolls_left, actions, option_type) -> list or None"},
    {"forget", (PyCFunction)Kernels_forget, METH_NOARGS, "forget() -> None"},
    {"remaining", (PyCFunction)Kernels_remaining, METH_VARARGS,
     "remaining(tail, threads, upto=-1) -> (keys, lo, len, chances)"},
    {"outcomes", (PyCFunction)Kernels_outcomes, METH_VARARGS,
     "outcomes(mask, y, u, roll, rerolls) -> (gains, keys, probs)"},
    {"distribution", (PyCFunction)Kernels_distribution, METH_VARARGS,
     "distribution(mask, y, u, roll, rerolls, threads) -> (lo, bytes)"},
    {"play", (PyCFunction)Kernels_play, METH_VARARGS,
     "play(state, lo, hi, faces, uniforms, temperature, choices, threads, history=None)"},
    {"seed_games", (PyCFunction)Kernels_seed_games, METH_VARARGS,
     "seed_games(state, seed, first)"},
    {"step_games", (PyCFunction)Kernels_step_games, METH_VARARGS,
     "step_games(state, dice, left, scores, history, count, actions, restart, reward, legal)"
     " -> -1 or the first game whose action is illegal"},
    {"saved_layer", (PyCFunction)Kernels_saved_layer, METH_VARARGS,
     "saved_layer(jobs, rank, next, ns_next, optimistic, out, ns, start, step): the values "
     "of a layer of saved rolls (see csrc/saved.c)"},
    {"saved_turn", (PyCFunction)Kernels_saved_turn, METH_VARARGS,
     "saved_turn(mask, u, levels, rank, next, ns_next, optimistic, abox, values, keeps) -> "
     "allowed boxes: one state's turn with saved rolls"},
    {"saved_play", (PyCFunction)Kernels_saved_play, METH_VARARGS,
     "saved_play(mask, u, levels, rank, next, ns_next, optimistic, rows, saved, games): one "
     "turn of games in one state, played optimally with saved rolls"},
    {"regrets", (PyCFunction)Kernels_regrets, METH_VARARGS,
     "regrets(state, dice, left, actions, restart, regret, threads, memo_keys, memo): each "
     "game's regret"},
    {"memo_width", (PyCFunction)Kernels_memo_width, METH_NOARGS,
     "memo_width() -> the doubles of a row of the regrets' memo"},
    {"win_turn", (PyCFunction)Kernels_win_turn, METH_VARARGS,
     "win_turn(table, others, mask, y, u, total, values, keeps): a turn in shares of the win"},
    {"win_play", (PyCFunction)Kernels_win_play, METH_VARARGS,
     "win_play(table, faces, others, ahead, state): the winner level's games"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject KernelsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "yatzy.solver._kernels.Kernels",
    .tp_doc = "One ruleset's tables and value table, for the compiled loops.",
    .tp_basicsize = sizeof(KernelsObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernels_init,
    .tp_dealloc = (destructor)Kernels_dealloc,
    .tp_methods = Kernels_methods,
};

/* quantise(chances, starts, quantum, first, length, wide, pool8, pool16) -> (used8,
 * used16): quantise_rows (kernels.h) on float32 chances, int64 starts (one more than the
 * rows), and the arrays it fills: int32 first and length, uint8 wide (one per row), and
 * the uint8 and uint16 pools (room for every chance). */
static PyObject *module_quantise(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *o[7];
    int quantum;
    if (!PyArg_ParseTuple(args, "OOiOOOOO", &o[0], &o[1], &quantum, &o[2], &o[3], &o[4], &o[5],
                          &o[6]))
        return NULL;
    static const char *const names[7] = {"chances", "starts", "first", "length", "wide",
                                         "pool8", "pool16"};
    static const int kinds[7] = {FLOAT, SIGNED, SIGNED, SIGNED, UNSIGNED, UNSIGNED, UNSIGNED};
    static const Py_ssize_t sizes[7] = {4, 8, 4, 4, 1, 1, 2};
    Py_buffer b[7];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 7; got++)
        if (get_array(o[got], &b[got], kinds[got], sizes[got], got >= 2, names[got]) < 0) break;
    if (got == 7) {
        const int64_t chances = b[0].len / 4, rows = b[1].len / 8 - 1;
        const int64_t *starts = b[1].buf;
        const char *problem = NULL;
        if (quantum < 1 || quantum > 65535)
            problem = "quantise: quantum is 1 to 65535";
        else if (rows < 0 || b[2].len / 4 != rows || b[3].len / 4 != rows || b[4].len != rows)
            problem = "quantise: first, length and wide need one item per row";
        else if (b[5].len < chances || b[6].len / 2 < chances)
            problem = "quantise: the pools need room for every chance";
        for (int i = 2; !problem && i < 7; i++)
            for (int j = 0; !problem && j < 7; j++)
                if (j != i && overlap(&b[i], &b[j])) problem = "quantise: the arrays overlap";
        if (!problem && starts[0] != 0)
            problem = "quantise: starts are not rows of the chances, one at least each";
        for (int64_t r = 0; !problem && r < rows; r++)
            if (starts[r + 1] <= starts[r] || starts[r + 1] > chances)
                problem = "quantise: starts are not rows of the chances, one at least each";
        int status = 0;
        int64_t used8 = 0, used16 = 0;
        if (!problem) {
            Py_BEGIN_ALLOW_THREADS
            status = quantise_rows(b[0].buf, starts, rows, quantum, b[2].buf, b[3].buf, b[4].buf,
                                   b[5].buf, b[6].buf, &used8, &used16);
            Py_END_ALLOW_THREADS
            if (status == -1)
                problem = "quantise: a row's chances must be 0 or more and add up to more than 0";
        }
        if (status == -2)
            PyErr_NoMemory();
        else if (problem)
            PyErr_SetString(PyExc_ValueError, problem);
        else
            result = Py_BuildValue("(LL)", (long long)used8, (long long)used16);
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef module_methods[] = {
    {"quantise", module_quantise, METH_VARARGS,
     "quantise(chances, starts, quantum, first, length, wide, pool8, pool16) -> (used8, used16)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels",
    "The solver's compiled loops (see yatzy.solver.kernels).", -1, module_methods};

PyMODINIT_FUNC PyInit__kernels(void) {
    if (PyType_Ready(&KernelsType) < 0 || advise_module_init() < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *neg = PyFloat_FromDouble(NEG);
    if (!neg || PyModule_AddObjectRef(m, "Kernels", (PyObject *)&KernelsType) < 0
        || PyModule_AddObjectRef(m, "NEG", neg) < 0
        || PyModule_AddIntConstant(m, "COLUMNS", G_COLS) < 0
        || PyModule_AddObjectRef(m, "WIDE_BUILD", wide_build() ? Py_True : Py_False) < 0) {
        Py_XDECREF(neg);
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(neg);
    return m;
}
