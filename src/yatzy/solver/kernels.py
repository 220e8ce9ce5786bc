"""The solver's compiled loops: the C extension :mod:`yatzy.solver._kernels`, built when
the package is installed, and the threads that run it. Installed without it (no C
compiler), this module still imports; handing tables to the compiled code raises
:class:`~yatzy.solver.SolverMissing`.

A ruleset's :class:`~yatzy.solver.model.Tables` and its value table ``V[mask, y, u]``
are handed to the compiled code once, as one :class:`Kernels` object (it reads the
arrays in place, through the buffer protocol). Filling a box — its points (Joker rules
included), the extra-Yahtzee bonus, the upper bonus and the next state — is written
once there (``fill_box`` and ``add_upper`` in ``csrc/transition.h``); the table build, the
turn tables of advice and the simulation all use it. :func:`fill` exposes it to tests.

One routine computes a turn's values for four upper sums (*lanes*, one AVX2 vector of
doubles) of one set of filled boxes at a time: the table build and the simulation fill
every lane (``Kernels.turn`` one); the vector environment's regrets (``Kernels.regrets``)
give each lane a game in a state of its own. On a processor with AVX-512
(:data:`WIDE_BUILD`) the table build runs it on eight lanes (``csrc/turn_wide.c``), to the
same values. Advice (``Kernels.advise``) works one state out on plain doubles, with the
same sums in the same order (the same values to the last bit, a quarter of the work).
Every long call releases the GIL: :func:`run_parallel` runs the table build on every
core, and the simulation and the regrets start :func:`threads` threads of their own.

Values are finite everywhere: :data:`NEG` stands for "no option".

The compiled code cannot be crashed from Python: ``Kernels`` copies the index tables
and checks every index once, when it is made (a failed ``__init__`` leaves an object
every method refuses), and every call checks its arrays' item type, size, layout and
writability; a misfit raises ``TypeError`` (an argument of the wrong kind, or keywords)
or ``ValueError``. ``tests/solver/test_kernels_safety.py`` tries the misuses, and
``make sanitize`` runs the solver's tests under AddressSanitizer and
UndefinedBehaviorSanitizer.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Lock

import numpy as np

from yatzy.solver import require
from yatzy.solver.keeps import FloatArray
from yatzy.solver.model import Tables

try:
    from yatzy.solver._kernels import COLUMNS as COLUMNS
    from yatzy.solver._kernels import NEG as NEG
    from yatzy.solver._kernels import WIDE_BUILD as WIDE_BUILD
    from yatzy.solver._kernels import Kernels as Kernels
    from yatzy.solver._kernels import quantise as quantise
except ImportError:  # installed without a C compiler: see compile_tables
    #: The value of no option: a box the rules forbid now, or a state no game reaches
    #: (the value table holds it there). Finite, and so low that any sum with it stays
    #: below ``NEG / 2``. (The compiled part's, also when it is missing.)
    NEG = -1.0e18
    #: Columns of a simulated game's row: mask, y, u, total, five-of-a-kind box points,
    #: extra Yahtzees, and the state of its own stream of dice.
    COLUMNS = 7
    #: Whether the table build works eight upper sums at a time (AVX-512) here.
    WIDE_BUILD = False

    class Kernels:  # type: ignore[no-redef]
        """Stands for the compiled class: making one says the solver is missing."""

        def __init__(self, *args: object) -> None:
            require()

    def quantise(*args: object) -> tuple[int, int]:  # type: ignore[misc]
        """Stands for the compiled rounding of the win-chance table (see
        :func:`yatzy.solver.remaining.quantise`): calling it says the solver is missing."""
        require()
        raise AssertionError  # require() raised


def compile_tables(tables: Tables, values: FloatArray) -> Kernels:
    """The compiled view of ``tables`` and the value table ``values`` (read and, while
    the table is built, written in place: keep both alive and unchanged in shape)."""
    require()
    if values.dtype != np.float64 or not values.flags.c_contiguous:
        raise ValueError("The value table must be a C-contiguous float64 array")
    t = tables
    sizes = (
        t.score.shape[0], t.score.shape[1], t.child.shape[0], t.entry_box.shape[0],
        t.first_roll, t.dice, t.rolls, t.threshold, t.bonus, t.yahtzee_box, t.y_points,
        t.extra.shape[0], t.sub_keeps.shape[1], t.upper_count,
    )
    arrays = (
        t.score, t.allowed, t.five_points, t.five_rolls, t.five_of, t.extra, t.is_upper,
        t.entry_of, t.entry_box, t.entry_roll, t.child, t.parent_start, t.parent_list,
        t.roll_prob, t.sub_keeps, t.sub_count, t.counts, t.code_to_keep, t.lanes,
        t.lane_count, t.lane_of, t.upper_bit, t.possible, values,
    )
    return Kernels(sizes, arrays)


def transition_kernels(tables: Tables) -> Kernels:
    """The compiled view of ``tables`` alone, for stepping games by the transition
    (``Kernels.step_games``, the vector environment's): its value table is zeros (never
    read by that call; the pages are not touched, so they take no memory)."""
    masks = tables.allowed.shape[0]
    values = np.zeros(masks * tables.extra.shape[0] * (tables.threshold + 1), dtype=np.float64)
    return compile_tables(tables, values)


def fill(k: Kernels, mask: int, y: int, u: int, roll: int, box: int
         ) -> tuple[int, int, int, int, int, int]:
    """Fill ``box`` with roll number ``roll`` in turn-start state ``(mask, y, u)``: the
    transition. Returns ``(points, extra, bonus, mask2, y2, u2)``: the box's points (the
    Joker rules' points for five of a kind), the extra-Yahtzee bonus, the upper bonus and
    the next state; the gain is ``points + extra + bonus``. ``points`` is -1 when the
    play order or the Joker rules forbid the box (the state is then unchanged)."""
    result: tuple[int, int, int, int, int, int] = k.fill(mask, y, u, roll, box)
    return result


def threads() -> int:
    """How many threads the long loops use: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = Lock()


def run_parallel(work: Callable[[int, int], None], parts: int) -> None:
    """Call ``work(i, parts)`` for ``i`` in ``0 .. parts - 1``, on threads when
    ``parts`` > 1 (the compiled loops release the GIL)."""
    global _POOL
    if parts <= 1:
        work(0, 1)
        return
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=threads(), thread_name_prefix="yatzy")
        pool = _POOL
    futures = [pool.submit(work, i, parts) for i in range(1, parts)]
    work(0, parts)
    for f in futures:
        f.result()
