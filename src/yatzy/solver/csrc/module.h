/* The Python glue's own declarations (module.c, advise.c): the only part of the compiled
 * loops that knows Python. */
#ifndef YATZY_MODULE_H
#define YATZY_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "turn.h"

/* The Python object: a handle on a Kernels record. t stays NULL until __init__ has
 * succeeded (a failed __init__ leaves nothing behind), and every method refuses to run
 * without it; __init__ runs once. */
typedef struct {
    PyObject_HEAD
    Kernels *t;
    /* The arrays read in place: five_points and V. */
    Py_buffer views[2];
    int nviews;
    /* Scratch memory of the calls that keep the GIL (turn, advise): one at a time. */
    Scratch *scratch;
    /* advise's turn tables of the state it was last asked (adv_mask -1: none): the
     * allowed boxes, the box values by entry, the keeps of each number of rerolls up to
     * adv_steps (those made so far), and turn_single's work memory. */
    int adv_mask, adv_y, adv_u, adv_n, adv_steps;
    int64_t *adv_abox;
    double *adv_values, *adv_keeps, *adv_work;
    /* The options advise() made last, one per place in its list (nb + sub_width places,
     * as many as a list can have; NULL where none yet): one nobody else holds any more is
     * made again in place (see make_option in advise.c). */
    PyObject **adv_pool;
} KernelsObject;

/* The kinds of array items. */
enum { SIGNED, UNSIGNED, FLOAT };

/* The record of a Kernels object, or NULL with a ValueError when it has none. */
Kernels *ready(KernelsObject *self);
/* A view of `o` as a C-contiguous, aligned array of items of `kind` and `itemsize`
 * bytes in this machine's byte order, writable when asked: 0, or -1 with a TypeError
 * (not an array) or ValueError (any other misfit) naming `what`. */
int get_array(PyObject *o, Py_buffer *b, int kind, Py_ssize_t itemsize, int writable,
              const char *what);

/* 1 when two views share a byte. */
int overlap(const Py_buffer *a, const Py_buffer *b);

/* saved_glue.c */
PyObject *Kernels_saved_layer(KernelsObject *self, PyObject *args);
PyObject *Kernels_saved_turn(KernelsObject *self, PyObject *args);
PyObject *Kernels_saved_play(KernelsObject *self, PyObject *args);

/* winning_glue.c */
PyObject *Kernels_win_turn(KernelsObject *self, PyObject *args);
PyObject *Kernels_win_play(KernelsObject *self, PyObject *args);

/* advise.c */
PyObject *Kernels_advise(KernelsObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Kernels_forget(KernelsObject *self, PyObject *ignored);
/* Learn what a plain Python subclass of tuple looks like (see check_option_type). */
int advise_module_init(void);

#endif
