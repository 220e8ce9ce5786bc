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

/* order[i]: the option that comes i-th among value[0 .. n - 1], best first, equal values
 * in the order they come (boxes, then keeps): its rank is the number of options before
 * it that are worth at least as much and after it that are worth more. Without a branch
 * on the values, so that it stays fast whatever their order. */
HOT static void rank_options(const double *value, int n, int *order) {
    for (int i = 0; i < n; i++) {
        const double v = value[i];
        int rank = 0;
        for (int j = 0; j < i; j++) rank += value[j] >= v;
        for (int j = i + 1; j < n; j++) rank += value[j] > v;
        order[rank] = i;
    }
}

/* option_type((a, value)): *pool, the option made last in this place of a list, made
 * again in place when nobody else holds it (as zip() does with its tuples: no one can
 * tell, and it saves making and freeing a tuple and a float, over a quarter of advice's
 * time on a new state), else a new one, which *pool then keeps. A new reference, or NULL
 * with an exception set. */
static PyObject *make_option(PyObject **pool, PyObject *a, double value,
                             PyTypeObject *option_type) {
    PyObject *opt = *pool;
#if PY_VERSION_HEX < 0x030E0000
    /* Tuples cache no hash before Python 3.14, so one held by no one else can change. */
    if (opt && Py_TYPE(opt) == option_type && Py_REFCNT(opt) == 1) {
        PyObject *old_a = PyTuple_GET_ITEM(opt, 0), *v = PyTuple_GET_ITEM(opt, 1);
        /* The caller's reference first: code that the references given up below run
         * (an action's last) sees the option held, and leaves it alone. */
        Py_INCREF(opt);
        if (Py_REFCNT(v) == 1 && PyFloat_CheckExact(v)) {
            /* Its value too, when only the option holds it. */
            ((PyFloatObject *)v)->ob_fval = value;
            v = NULL;
        } else {
            PyObject *fresh = PyFloat_FromDouble(value);
            if (!fresh) {
                Py_DECREF(opt);
                return NULL;
            }
            PyTuple_SET_ITEM(opt, 1, fresh);
        }
        PyTuple_SET_ITEM(opt, 0, Py_NewRef(a));
        /* The collector stops tracking tuples that hold no containers. */
        if (!PyObject_GC_IsTracked(opt)) PyObject_GC_Track(opt);
        Py_DECREF(old_a);
        Py_XDECREF(v);
        return opt;
    }
    PyObject *v = PyFloat_FromDouble(value);
    /* As tuple.__new__(option_type, (a, v)) makes it, without the two tuples on the way. */
    opt = v ? option_type->tp_alloc(option_type, 2) : NULL;
    if (!opt) {
        Py_XDECREF(v);
        return NULL;
    }
    PyTuple_SET_ITEM(opt, 0, Py_NewRef(a));
    PyTuple_SET_ITEM(opt, 1, v);
    Py_XSETREF(*pool, Py_NewRef(opt));
#else
    (void)pool;
    PyObject *v = PyFloat_FromDouble(value);
    PyObject *pair = v ? PyTuple_Pack(2, a, v) : NULL;
    Py_XDECREF(v);
    PyObject *wrapped = pair ? PyTuple_Pack(1, pair) : NULL;
    Py_XDECREF(pair);
    opt = wrapped ? PyTuple_Type.tp_new(option_type, wrapped, NULL) : NULL;
    Py_XDECREF(wrapped);
#endif
    return opt;
}

/* Every option of roll r (faces in their positions) from a turn's tables, best first, as
 * option_type((action, total + value)) tuples: the n boxes abox and, when kv is not NULL,
 * the keeps of the row kv. actions[b] fills box b, actions[nb + m] holds the dice of
 * position bit mask m (the first dice of each face, one option per kept multiset).
 * pool[i] is the option last made i-th (see make_option). */
static PyObject *option_list(const Kernels *t, const int64_t *abox, int n,
                             const double *vals, const double *kv, int r, const int *faces,
                             PyObject *actions, PyTypeObject *option_type, double total,
                             PyObject **pool) {
    const int nb = t->nb, nd = t->dice;
    int count = 0, most = nb + t->sub_width;
    int code_here[64], order_here[64];
    double value_here[64];
    int *code = most <= 64 ? code_here : PyMem_Malloc(sizeof(int) * most);
    int *order = most <= 64 ? order_here : PyMem_Malloc(sizeof(int) * most);
    double *value = most <= 64 ? value_here : PyMem_Malloc(sizeof(double) * most);
    if (!code || !order || !value) {
        if (code != code_here) PyMem_Free(code);
        if (order != order_here) PyMem_Free(order);
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
        /* first[f][c]: the positions of the first c dice showing face f + 1. */
        int first[FACES][DICE_MAX + 1];
        int seen[FACES] = {0, 0, 0, 0, 0, 0};
        for (int f = 0; f < FACES; f++) first[f][0] = 0;
        for (int pos = 0; pos < nd; pos++) {
            const int f = faces[pos] - 1;
            first[f][seen[f] + 1] = first[f][seen[f]] | 1 << pos;
            seen[f]++;
        }
        const int32_t *sub = t->sub_keeps + (size_t)r * t->sub_width;
        for (int i = 0; i < t->sub_count[r]; i++) {
            const int k = sub[i];
            const int32_t *need = t->counts + (size_t)k * FACES;
            int m = 0;
            /* A sub-multiset of the roll: it needs at most the dice each face shows. */
            for (int f = 0; f < FACES; f++) m |= first[f][need[f]];
            code[count] = nb + m;
            value[count++] = kv[k];
        }
    }
    rank_options(value, count, order);
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++) {
        const int o = order[i];
        PyObject *opt = make_option(pool + i, PyTuple_GET_ITEM(actions, code[o]),
                                    value[o] + total, option_type);
        if (!opt) {
            Py_DECREF(list);
            list = NULL;
            break;
        }
        PyList_SET_ITEM(list, i, opt);
    }
    if (code != code_here) PyMem_Free(code);
    if (order != order_here) PyMem_Free(order);
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
PyObject *Kernels_advise(KernelsObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Kernels *t = ready(self);
    if (!t) return NULL;
    /* Read as PyArg_ParseTuple("O!LO!iO!O!") reads them, without making a tuple of the
     * arguments: advice's every call comes here. */
    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "advise() takes 6 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *entries = args[0], *dice = args[2], *actions = args[4];
    if (!PyTuple_Check(entries) || !PyTuple_Check(dice) || !PyTuple_Check(actions)
        || !PyType_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "advise(entries, yahtzee_bonus, dice, rolls_left, actions, option_type):"
                        " tuples, ints and a type");
        return NULL;
    }
    PyTypeObject *option_type = (PyTypeObject *)args[5];
    if (PyFloat_Check(args[1]) || PyFloat_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "advise: yahtzee_bonus and rolls_left are ints");
        return NULL;
    }
    const long long ybonus = PyLong_AsLongLong(args[1]);
    if (ybonus == -1 && PyErr_Occurred()) return NULL;
    const long left_long = PyLong_AsLong(args[3]);
    if (left_long == -1 && PyErr_Occurred()) return NULL;
    if (left_long < INT_MIN || left_long > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "advise: rolls_left does not fit a C int");
        return NULL;
    }
    const int left = (int)left_long;
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
                       actions, option_type, (double)total, self->adv_pool);
}

/* forget(): drop the turn tables advise() keeps. */
PyObject *Kernels_forget(KernelsObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!ready(self)) return NULL;
    self->adv_mask = -1;
    Py_RETURN_NONE;
}
