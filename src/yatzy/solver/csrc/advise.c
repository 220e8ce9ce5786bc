/* Advice from Python: Kernels.advise reads a scorecard and the dice and lists every
 * option, best first, as the caller's option tuples, in one call. */
#include "module.h"

/* The faces of `dice` (a tuple of nd ints 1 .. 6) in faces[], and their roll; -1 with an
 * exception set when they are not. */
static int read_dice(const Kernels *t, PyObject *dice, int *faces) {
    const int nd = t->dice;
    int c[FACES] = {0, 0, 0, 0, 0, 0};
    if (PyTuple_GET_SIZE(dice) != nd) {
        PyErr_SetString(PyExc_ValueError, "advise: wrong number of dice");
        return -1;
    }
    for (int i = 0; i < nd; i++) {
        long f = PyLong_AsLong(PyTuple_GET_ITEM(dice, i));
        if (f < 1 || f > FACES) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "advise: a die is 1 to 6");
            return -1;
        }
        faces[i] = (int)f;
        c[f - 1]++;
    }
    return roll_of_counts(t, c);
}

/* What a class statement's subclass of tuple deallocates with (see advise_module_init). */
static destructor plain_dealloc;

int advise_module_init(void) {
    PyObject *plain = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O){}", "Plain",
                                            (PyObject *)&PyTuple_Type);
    if (!plain) return -1;
    plain_dealloc = ((PyTypeObject *)plain)->tp_dealloc;
    Py_DECREF(plain);
    return 0;
}

/* 1 when the options can be made as tuples of option_type without calling it: a tuple
 * or a subclass of it made by class statements only (as typing.NamedTuple makes them),
 * whose objects are tuples and nothing more. A tuple subclass written in C (e.g. a
 * struct sequence) may need more than its two items, so it is refused. */
static int plain_tuple_type(PyTypeObject *tp) {
    for (; tp && tp != &PyTuple_Type; tp = tp->tp_base)
        if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) || tp->tp_dealloc != plain_dealloc
            || tp->tp_alloc != PyType_GenericAlloc)
            return 0;
    return tp == &PyTuple_Type;
}

static int check_actions(const Kernels *t, PyObject *actions, PyTypeObject *option_type) {
    if (PyTuple_GET_SIZE(actions) != t->nb + (1 << t->dice) || !plain_tuple_type(option_type)) {
        PyErr_SetString(PyExc_ValueError, "advise: wrong actions or option type");
        return -1;
    }
    return 0;
}

/* Every option of roll r (faces in their positions) from a turn's tables, best first, as
 * option_type((action, total + value)) tuples: the n boxes abox and, when kv is not NULL,
 * the keeps of the row kv. actions[b] fills box b, actions[nb + m] holds the dice of
 * position bit mask m (the first dice of each face, one option per kept multiset). */
static PyObject *option_list(const Kernels *t, const int64_t *abox, int n,
                             const double *vals, const double *kv, int r, const int *faces,
                             PyObject *actions, PyTypeObject *option_type, double total) {
    const int nb = t->nb, nd = t->dice;
    int count = 0, most = nb + t->sub_width;
    int code_here[64];
    double value_here[64];
    int *code = most <= 64 ? code_here : PyMem_Malloc(sizeof(int) * most);
    double *value = most <= 64 ? value_here : PyMem_Malloc(sizeof(double) * most);
    if (!code || !value) {
        if (code != code_here) PyMem_Free(code);
        if (value != value_here) PyMem_Free(value);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < n; i++) {
        if (abox[i] < 0 || abox[i] >= nb) continue;
        double v = box_value(t, vals, r, (int)abox[i]);
        if (v > NEG / 2) {
            code[count] = (int)abox[i];
            value[count++] = v;
        }
    }
    if (kv) {
        for (int i = 0; i < t->sub_count[r]; i++) {
            int k = t->sub_keeps[r * t->sub_width + i];
            int need[FACES], m = 0;
            for (int f = 0; f < FACES; f++) need[f] = t->counts[k * FACES + f];
            for (int pos = 0; pos < nd; pos++)
                if (need[faces[pos] - 1] > 0) {
                    need[faces[pos] - 1]--;
                    m |= 1 << pos;
                }
            code[count] = nb + m;
            value[count++] = kv[k];
        }
    }
    /* Best first; equal values keep their order (boxes, then keeps). */
    for (int i = 1; i < count; i++) {
        int ci = code[i];
        double vi = value[i];
        int j = i - 1;
        while (j >= 0 && value[j] < vi) {
            code[j + 1] = code[j];
            value[j + 1] = value[j];
            j--;
        }
        code[j + 1] = ci;
        value[j + 1] = vi;
    }
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++) {
        PyObject *v = PyFloat_FromDouble(value[i] + total);
        PyObject *a = PyTuple_GET_ITEM(actions, code[i]);
#if PY_VERSION_HEX < 0x030E0000
        /* As tuple.__new__(option_type, (a, v)) makes it, without the two tuples on the
         * way (tuples cache no hash before Python 3.14). */
        PyObject *opt = v ? option_type->tp_alloc(option_type, 2) : NULL;
        if (opt) {
            PyTuple_SET_ITEM(opt, 0, Py_NewRef(a));
            PyTuple_SET_ITEM(opt, 1, v);
        } else {
            Py_XDECREF(v);
        }
#else
        PyObject *pair = v ? PyTuple_Pack(2, a, v) : NULL;
        Py_XDECREF(v);
        PyObject *wrapped = pair ? PyTuple_Pack(1, pair) : NULL;
        Py_XDECREF(pair);
        PyObject *opt = wrapped ? PyTuple_Type.tp_new(option_type, wrapped, NULL) : NULL;
        Py_XDECREF(wrapped);
#endif
        if (!opt) {
            Py_DECREF(list);
            list = NULL;
            break;
        }
        PyList_SET_ITEM(list, i, opt);
    }
    if (code != code_here) PyMem_Free(code);
    if (value != value_here) PyMem_Free(value);
    return list;
}

/* advise(entries, yahtzee_bonus, dice, rolls_left, actions, option_type): every option of
 * a scorecard — its boxes' entries (points or None) and the points of its extra-Yahtzee
 * bonuses — with `dice` rolled and `rolls_left` rolls left, best first, as options()
 * gives them, the card's total included: the state read off the entries, its turn tables
 * made (or kept from the last call, when the state is the same) and the options listed,
 * in one call. An empty list for a full card; None for entries no game of these tables
 * reaches (points a box cannot hold, or boxes the play order cannot have filled), which
 * the caller words. */
PyObject *Kernels_advise(KernelsObject *self, PyObject *args) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    PyObject *entries, *dice, *actions;
    PyTypeObject *option_type;
    long long ybonus;
    int left;
    if (!PyArg_ParseTuple(args, "O!LO!iO!O!", &PyTuple_Type, &entries, &ybonus,
                          &PyTuple_Type, &dice, &left, &PyTuple_Type, &actions,
                          &PyType_Type, &option_type))
        return NULL;
    const int nb = t->nb, pw = t->pw;
    if (check_actions(t, actions, option_type) < 0) return NULL;
    if (left < 0 || left >= t->rolls) {
        PyErr_SetString(PyExc_ValueError, "advise: rolls left out of range");
        return NULL;
    }
    /* Far beyond any card's bonuses, and no total overflows. */
    if (ybonus < -(1LL << 40) || ybonus > (1LL << 40)) {
        PyErr_SetString(PyExc_ValueError, "advise: yahtzee_bonus out of range");
        return NULL;
    }
    if (PyTuple_GET_SIZE(entries) != nb) Py_RETURN_NONE;
    int mask = 0, up = 0, y = 0;
    long long total = ybonus;
    for (int b = 0; b < nb; b++) {
        PyObject *e = PyTuple_GET_ITEM(entries, b);
        if (e == Py_None) continue;
        if (!PyLong_Check(e)) Py_RETURN_NONE;
        int overflow;
        long p = PyLong_AsLongAndOverflow(e, &overflow);
        if (overflow || p < 0 || p >= 64L * pw
            || !((t->possible[(size_t)b * pw + p / 64] >> (p % 64)) & 1))
            Py_RETURN_NONE;
        mask |= 1 << b;
        total += p;
        if (t->is_upper[b]) up += (int)p;
        if (b == t->yahtzee_box && p == t->y_points && t->y_count > 1) y = 1;
    }
    if (mask == (1 << nb) - 1) return PyList_New(0);
    if (!t->allowed[mask]) Py_RETURN_NONE;
    int u = up < t->threshold ? up : t->threshold;
    if (up >= t->threshold) total += t->bonus;
    int faces[DICE_MAX];
    int r = read_dice(t, dice, faces);
    if (r < 0) return NULL;
    /* The passes only as far as `left` needs them (none after the last roll): a turn
     * asks its state again with fewer rolls left. */
    if (mask != self->adv_mask || y != self->adv_y || u != self->adv_u
        || left > self->adv_steps) {
        Scratch *s = self->scratch;
        self->adv_mask = -1;
        turn_single(t, &s->plan, self->adv_work, mask, y, u, left, self->adv_values,
                    self->adv_keeps);
        self->adv_n = s->plan.nallowed;
        for (int i = 0; i < self->adv_n; i++) self->adv_abox[i] = s->plan.abox[i];
        self->adv_mask = mask;
        self->adv_y = y;
        self->adv_u = u;
        self->adv_steps = left;
    }
    return option_list(t, self->adv_abox, self->adv_n, self->adv_values,
                       left ? self->adv_keeps + (size_t)(left - 1) * t->nk : NULL, r, faces,
                       actions, option_type, (double)total);
}

/* forget(): drop the turn tables advise() keeps. */
PyObject *Kernels_forget(KernelsObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!ready(self)) return NULL;
    self->adv_mask = -1;
    Py_RETURN_NONE;
}
