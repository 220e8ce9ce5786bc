"""Backward induction over turn-start states: the value table of a ruleset.

``V[mask, y, u]`` is the expected number of points still to come (bonuses included)
for a player at the start of a turn in state ``(mask, y, u)`` (see
:mod:`yatzy.solver.model`) who plays optimally, and :data:`~yatzy.solver.kernels.NEG`
for a state no game reaches. Masks are solved from full to empty, one size at a time;
the masks of one size are independent and solved on every core.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from yatzy.solver import kernels
from yatzy.solver.keeps import FloatArray, IntArray
from yatzy.solver.model import Model

#: ``progress(done, total)`` is called after each layer of the backward induction.
Progress = Callable[[int, int], None]


def upper_masks(model: Model, masks: IntArray) -> IntArray:
    """The 6-bit upper-section mask of each of ``masks``."""
    um = np.zeros_like(masks)
    for i, b in enumerate(model.upper):
        um |= ((masks >> b) & 1) << i
    return um


def state_count(model: Model) -> int:
    """How many distinct turn-start states the table holds values for."""
    um = upper_masks(model, model.masks)
    full = (1 << model.boxes) - 1
    ybit = 1 << model.yahtzee_box if model.yahtzee_box >= 0 else 0
    per_mask = (model.lane_of[um] >= 0).sum(axis=1)
    ys = np.where((model.masks & ybit) != 0, model.y_count, 1)
    return int((per_mask * ys)[model.masks != full].sum())


def solve(model: Model, progress: Progress | None = None, *, wide: bool = True) -> FloatArray:
    """The value table ``V[mask, y, u]`` of ``model``; states no game reaches hold
    :data:`~yatzy.solver.kernels.NEG`.

    Where the processor has AVX-512 (:data:`~yatzy.solver.kernels.WIDE_BUILD`) each state
    is worked out for eight upper sums at a time instead of four, to the same values to the
    last bit; ``wide=False`` keeps to four (the tests compare the two)."""
    nb = model.boxes
    full = (1 << nb) - 1
    V = np.full((1 << nb, model.y_count, model.threshold + 1), kernels.NEG)
    V[full] = 0.0
    k = kernels.compile_tables(model.tables, V)
    masks = model.masks[model.masks != full]
    sizes = np.zeros_like(masks)  # how many boxes each mask fills, counted bit by bit
    for b in range(nb):
        sizes += (masks >> b) & 1
    ybit = 1 << model.yahtzee_box if model.yahtzee_box >= 0 else 0
    cores = kernels.threads()
    for done, size in enumerate(range(nb - 1, -1, -1)):
        layer = masks[sizes == size]
        jm, jy = [layer], [np.zeros_like(layer)]
        if model.y_count > 1:
            with_y = layer[(layer & ybit) != 0]
            jm.append(with_y)
            jy.append(np.ones_like(with_y))
        jobs_mask = np.concatenate(jm)
        jobs_y = np.concatenate(jy)
        # Large jobs first, dealt out in turn, so that the threads finish together.
        jobs_um = upper_masks(model, jobs_mask)
        order = np.argsort(-model.lane_count[jobs_um], kind="stable")
        jobs_mask = np.ascontiguousarray(jobs_mask[order], dtype=np.int32)
        jobs_y = np.ascontiguousarray(jobs_y[order], dtype=np.int32)

        def work(i: int, parts: int, jobs_mask: IntArray = jobs_mask,
                 jobs_y: IntArray = jobs_y) -> None:
            k.solve(jobs_mask, jobs_y, i, parts, wide)

        kernels.run_parallel(work, min(cores, len(jobs_mask)))
        if progress is not None:
            progress(done + 1, nb)
    return V
