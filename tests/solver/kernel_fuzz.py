"""A fuzz of the compiled kernels' Python entry points (``yatzy.solver._kernels``): every
method, the constructor and the module's ``quantise``, called with arguments hypothesis
makes up — arrays of any item type, length and layout (strided, read-only, misaligned,
other byte order), indices and states out of range, tables with one value changed,
arguments of the wrong kind or number, keywords. A call may succeed or raise
``TypeError``, ``ValueError`` or ``OverflowError`` (an int too large for C, as CPython's
own functions raise it); any other exception fails, and a crash kills the process.

Run as a script, in a child process (``tests/solver/test_kernels_safety.py``), so that a
crash fails that test; it prints one JSON line: examples and seconds per target.

    python -m tests.solver.kernel_fuzz [EXAMPLES_PER_TARGET] [--random]

(``--random``: a new random run instead of the fixed one.)
"""

from __future__ import annotations

import collections
import json
import sys
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.solver.kernel_cases import ARRAYS, METHODS, Setup, setup

ALLOWED = (TypeError, ValueError, OverflowError)
#: What each target raised, by exception name ("" for nothing).
SEEN: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
#: Examples run, by target.
EXAMPLES: collections.Counter[str] = collections.Counter()


def attempt(target: str, call: Callable[[], object]) -> object:
    try:
        result = call()
    except ALLOWED as error:
        SEEN[target][type(error).__name__] += 1
        return error
    SEEN[target][""] += 1
    return result


# --- Values -----------------------------------------------------------------------------

#: Numbers at the edges: of the small game's sizes, of C's ints, and of nothing.
EDGES = [0, 1, 2, 3, 5, 6, 7, 8, 9, 31, 32, 55, 56, 63, 64, 83, 84, 255, 256, -1, -2,
         2**15, 2**31 - 1, -(2**31), 2**31, 2**32 + 1, 2**63 - 1, -(2**63), 2**64, 10**30]
ints = st.one_of(st.sampled_from(EDGES), st.integers(-3, 300))
DTYPES = [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64,
          np.float32, np.float64, np.bool_, np.dtype(">i8"), np.dtype(">f8")]


@st.composite
def arrays(draw: st.DrawFn, size: int | None = None, dtype: Any = None,
           low: int = -3, high: int = 300) -> Any:
    """An array of about ``size`` items (any number when None) of ``dtype`` (usually;
    any when None), with values from ``low`` .. ``high`` or the edges, in any layout."""
    if dtype is None or draw(st.integers(0, 9)) == 0:
        dtype = draw(st.sampled_from(DTYPES))
    n = draw(st.integers(0, 40)) if size is None else size + draw(
        st.sampled_from([0, 0, 0, 0, 0, 0, -1, 1]))
    n = max(n, 0)
    values = draw(st.lists(st.one_of(st.integers(low, high), st.sampled_from(EDGES)),
                           min_size=min(n, 8), max_size=min(n, 8)))
    a = np.zeros(n, dtype=dtype)
    if n and values:
        with np.errstate(all="ignore"):
            picked = np.resize(np.array(values, dtype=object), n)
            a[:] = [dtype_cast(v, a.dtype) for v in picked]
    layout = draw(st.sampled_from(["plain"] * 6 + ["strided", "read-only", "misaligned",
                                                   "bytes", "memoryview"]))
    if layout == "strided":
        a = np.repeat(a, 2)[::2]
    elif layout == "read-only":
        a.setflags(write=False)
    elif layout == "misaligned":
        raw = np.zeros(a.nbytes + 1, dtype=np.uint8)
        b = np.frombuffer(raw.data, dtype=a.dtype, count=n, offset=1) if n else a
        a = b
    elif layout == "bytes":
        return a.tobytes()
    elif layout == "memoryview":
        return memoryview(a)
    return a


def dtype_cast(v: int, dtype: np.dtype[Any]) -> Any:
    """``v`` as an item of ``dtype``, wrapped round as C would."""
    if dtype.kind == "f":
        return float(v)
    if dtype.kind == "b":
        return bool(v)
    bits = dtype.itemsize * 8
    v %= 1 << bits
    if dtype.kind == "i" and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


anything = st.one_of(ints, st.floats(), st.none(), st.text(max_size=3),
                     st.tuples(ints, ints), arrays())


class Pair(NamedTuple):
    action: Any
    value: float


# --- Targets ----------------------------------------------------------------------------

# The small game and its Kernels, made by main() (importing this module does nothing).
S: Setup
K: Any
NB = DICE = ROLLS = NE = NK = 0


@st.composite
def plausible(draw: st.DrawFn, method: str) -> tuple[list[Any], dict[str, Any]]:
    """Arguments of about the right kinds and sizes for ``method``."""
    full = (1 << NB) - 1
    state_ints = st.one_of(st.integers(0, 3), st.sampled_from([full, full + 1, 8, 9, -1,
                                                               2**32 + 1]))
    if method == "fill":
        args: list[Any] = draw(st.lists(ints, min_size=5, max_size=5))
    elif method == "solve":
        n = draw(st.integers(0, 12))
        args = [draw(arrays(n, np.int32, -1, full + 1)), draw(arrays(n, np.int32, -1, 2)),
                draw(ints), draw(ints)]
    elif method == "turn":
        args = [draw(state_ints), draw(st.integers(-1, 2)), draw(st.integers(-1, 9)),
                draw(st.integers(-1, 3)), draw(arrays(NB, np.int64)),
                draw(arrays(NE + 6 * NB, np.float64)), draw(arrays(2 * NK, np.float64))]
    elif method == "advise":
        entries = tuple(draw(st.lists(st.one_of(st.none(), ints, st.text(max_size=1)),
                                      min_size=NB - 1, max_size=NB + 1)))
        option = draw(st.sampled_from([Pair, tuple, time.struct_time, int, Pair, Pair]))
        args = [entries, draw(ints), tuple(draw(st.lists(ints, min_size=DICE - 1,
                                                          max_size=DICE + 1))),
                draw(st.integers(-1, 3)),
                tuple(range(draw(st.sampled_from([NB + 2**DICE] * 4 + [0, 3])))), option]
    elif method == "distribution":
        args = [draw(state_ints), draw(st.integers(-1, 2)), draw(st.integers(-1, 9)),
                draw(st.integers(-2, 60)), draw(st.integers(-1, 3)), draw(ints)]
    elif method == "remaining":
        args = [draw(st.floats()), draw(st.integers(-2, 4))]
        if draw(st.booleans()):
            args.append(draw(st.one_of(st.integers(-3, NB + 1), ints)))
    elif method == "play":
        n = draw(st.integers(0, 6))
        state = np.zeros((n, 7), dtype=np.int64)
        K.seed_games(state, draw(st.integers(0, 9)), 0)
        for g in range(n):
            if draw(st.booleans()):
                state[g, draw(st.integers(0, 6))] = draw(ints) % 2**63
        per = NB * ROLLS
        maybe = st.one_of(st.none(), st.just(0))
        faces = draw(st.one_of(st.none(), arrays(n * per * DICE, np.int8, 0, 7)))
        uniforms = draw(st.one_of(st.none(), arrays(n * per, np.float64)))
        choices = draw(st.one_of(st.none(), arrays(n * per, np.int64)))
        history = draw(st.one_of(st.none(), arrays(n * (NB + 1) * 4, np.int64)))
        args = [state, draw(st.integers(-1, n + 1)), draw(st.integers(-1, n + 1)), faces,
                uniforms, draw(st.sampled_from([0.0, 0.5, -1.0, float("nan"), 1e-300])),
                choices, draw(st.integers(-1, 3)), history]
        if draw(maybe) is None:
            args.pop()
    elif method == "seed_games":
        args = [draw(arrays(7 * draw(st.integers(0, 3)), np.int64)), draw(ints), draw(ints)]
    elif method == "step_games":
        n = draw(st.integers(1, 4))
        env: list[Any] = S.env(K, n)
        for i, a in enumerate(env):
            if draw(st.integers(0, 5)) == 0:
                env[i] = draw(arrays(a.size, a.dtype, -3, 70))
            elif draw(st.integers(0, 2)) == 0 and a.size:
                flat = a.reshape(-1)
                flat[draw(st.integers(0, a.size - 1))] = dtype_cast(draw(ints), a.dtype)
        args = env
    elif method == "regrets":
        n = draw(st.integers(1, 6))
        found = S.regret_args(K, n)
        if draw(st.booleans()):  # rows written by a first call: a memo that answers
            K.regrets(*found)
            found[2][:] = np.maximum(found[2] - 1, 0)
        rows = draw(st.integers(0, n + 1))
        if rows != n:
            found[7], found[8] = np.full(rows, -1, np.int64), np.zeros((rows, K.memo_width()))
        for i, a in enumerate(found):
            if i == 6:
                continue
            if draw(st.integers(0, 5)) == 0:
                found[i] = draw(arrays(a.size, a.dtype, -3, 70))
            elif draw(st.integers(0, 2)) == 0 and a.size:
                flat = a.reshape(-1)
                flat[draw(st.integers(0, a.size - 1))] = dtype_cast(draw(ints), a.dtype)
        found[6] = draw(st.sampled_from([1, 2, 2, 0, -1, 65, 2**31]))
        args = found
    elif method in ("win_turn", "win_play"):
        found = S.win_turn_args(K) if method == "win_turn" else S.win_play_args(
            K, draw(st.integers(0, 4)))
        table = list(found[0])
        for i, a in enumerate(table):
            if draw(st.integers(0, 9)) == 0:
                table[i] = draw(arrays(min(a.size, 64), a.dtype, -3, 300))
            elif draw(st.integers(0, 2)) == 0 and a.size:
                changed = np.array(a, copy=True)
                changed[draw(st.integers(0, a.size - 1))] = dtype_cast(draw(ints), a.dtype)
                table[i] = changed
        found[0] = draw(st.sampled_from([tuple(table)] * 8 + [table, tuple(table[:-1])]))
        for i, a in enumerate(found[1:], 1):
            if not isinstance(a, np.ndarray):
                found[i] = draw(ints) if draw(st.integers(0, 3)) == 0 else a
            elif draw(st.integers(0, 5)) == 0:
                found[i] = draw(arrays(a.size, a.dtype, -3, 70))
            elif draw(st.integers(0, 2)) == 0 and a.size:
                flat = a.reshape(-1)
                flat[draw(st.integers(0, a.size - 1))] = dtype_cast(draw(ints), a.dtype)
        args = found
    else:
        args = []
    keywords = draw(st.sampled_from([{}] * 9 + [{"threads": 1}]))
    return args, keywords


@given(st.sampled_from(METHODS).flatmap(lambda m: st.tuples(st.just(m), plausible(m))))
def fuzz_plausible(call: tuple[str, tuple[list[Any], dict[str, Any]]]) -> None:
    method, (args, keywords) = call
    EXAMPLES["plausible arguments"] += 1
    attempt("plausible arguments", lambda: getattr(K, method)(*args, **keywords))


#: How many arguments each method takes (play: 8 or 9).
ARITY = {"fill": 5, "solve": 4, "turn": 7, "advise": 6, "forget": 0, "remaining": 3,
         "distribution": 6, "play": 9, "seed_games": 3, "step_games": 10,
         "regrets": 9, "memo_width": 0, "win_turn": 8, "win_play": 5}


@given(st.sampled_from(METHODS).flatmap(lambda m: st.tuples(
    st.just(m), st.lists(anything, min_size=max(ARITY[m] - 1, 0), max_size=ARITY[m] + 1))))
def fuzz_anything(call: tuple[str, list[Any]]) -> None:
    method, args = call
    EXAMPLES["any arguments"] += 1
    attempt("any arguments", lambda: getattr(K, method)(*args))


@given(st.integers(0, 13), ints, st.integers(0, len(ARRAYS) - 1), st.integers(0, 2),
       st.data())
def fuzz_construction(at: int, size: int, which: int, how: int, data: st.DataObject) -> None:
    """Sizes with one changed, or an array replaced or with one value changed; whatever
    is built is put to work."""
    from yatzy.solver._kernels import Kernels

    EXAMPLES["construction"] += 1
    sizes = list(S.sizes)
    arrays_ = list(S.arrays)
    original = np.asarray(S.arrays[which])
    if how == 0:
        sizes[at] = size
    elif how == 1:
        arrays_[which] = data.draw(arrays(original.size, original.dtype))
    else:
        changed = np.array(original, copy=True).reshape(-1)
        if changed.size:
            changed[data.draw(st.integers(0, changed.size - 1))] = dtype_cast(
                data.draw(ints), changed.dtype)
        arrays_[which] = changed
    made = attempt("construction", lambda: Kernels(tuple(sizes), tuple(arrays_)))
    if isinstance(made, Kernels):
        for method in ("fill", "turn", "advise", "distribution", "play", "step_games",
                       "regrets", "win_turn", "win_play", "solve"):
            attempt("construction", lambda method=method: S.call(made, method))


# Saved rolls (saved_layer, saved_turn, saved_play): on a game without the extra bonus (the small
# Yahtzee's Kernels refuses them: y matters there), SK; its layers in SL.
SK: Any = None
SL: Any = None


def _saved_setup() -> None:
    import dataclasses
    import tempfile
    from pathlib import Path

    import yatzy
    from yatzy.solver.saved import SolveContext, solve_saved

    global SK, SL
    rules = dataclasses.replace(yatzy.ruleset("maxi_yatzy"), dice_count=3,
                                boxes=("ones", "sixes", "chance"), upper_count=2,
                                upper_bonus_threshold=8)
    with tempfile.TemporaryDirectory() as d:
        sol = solve_saved(rules, Path(d))
        SL = (SolveContext.of(rules), [np.array(v) for v in sol.values])
    SK = SL[0].k


def spoilt(draw: st.DrawFn, args: list[Any], sizes: list[Any], kinds: list[Any]
           ) -> list[Any]:
    """``args`` with, often, one of them made up: anything at all, an array of its size
    (``sizes``, None for no array) and item type (``kinds``) with made-up values, or with
    one value changed; sometimes cut short."""
    which = draw(st.integers(0, len(args) - 1))
    how = draw(st.integers(0, 3))
    if how == 0:
        args[which] = draw(anything)
    elif how == 1 and sizes[which] is not None:
        args[which] = draw(arrays(sizes[which], kinds[which], -3, 70))
    elif how == 2 and isinstance(args[which], np.ndarray) and args[which].size:
        changed = np.array(args[which], copy=True)
        flat = changed.reshape(-1)
        flat[draw(st.integers(0, flat.size - 1))] = dtype_cast(draw(ints), changed.dtype)
        args[which] = changed
    if draw(st.integers(0, 9)) == 0:
        args = args[: draw(st.integers(0, len(args)))]
    return args


@st.composite
def saved_arguments(draw: st.DrawFn) -> tuple[str, Any, list[Any]]:
    """A saved-rolls call with arguments of about the right kinds and sizes, one of them
    often made up (any type, length, layout), on the saved game's Kernels or the small
    Yahtzee's."""
    ctx, values = SL
    nb = ctx.model.boxes
    stride = ctx.model.threshold + 1
    n = draw(st.integers(0, nb - 1))
    following = values[n + 1].reshape(-1)
    ns_next = values[n + 1].shape[2]
    ns = values[n].shape[2]
    count = len(ctx.layers[n]) if draw(st.booleans()) else draw(st.integers(0, 3))
    jobs = ctx.layers[n][:count] if count <= len(ctx.layers[n]) else np.zeros(count, np.int32)
    opt = draw(st.sampled_from([None, None, ctx.optimistic_of(n + 1).reshape(-1)]))
    kernel = draw(st.sampled_from([SK, SK, SK, K]))
    if draw(st.booleans()):
        method = "saved_layer"
        out = np.zeros(max(count, 0) * stride * ns, dtype=np.float32)
        args: list[Any] = [jobs, ctx.rank, following, ns_next, opt, out, ns,
                           draw(st.integers(-1, 2)), draw(st.integers(-1, 3))]
        sizes: list[Any] = [count, 1 << nb, following.size, None, None, out.size, None,
                            None, None]
        kinds: list[Any] = [np.int32, np.int32, np.float32, None, np.float32, np.float32,
                            None, None, None]
    elif draw(st.booleans()):
        method = "saved_play"
        games = draw(st.integers(0, 4))
        rows = np.zeros((games, 7), np.int64)
        mask = int(ctx.layers[n][0]) if draw(st.booleans()) else draw(ints)
        u = draw(st.integers(-1, stride))
        rows[:, 0] = mask if -(1 << 62) < mask < 1 << 62 else 0
        rows[:, 2] = max(u, 0)
        rows[:, 6] = np.arange(games)
        saved = np.array([draw(st.integers(-1, 2 * n + 1)) for _ in range(games)], np.int64)
        levels = draw(st.integers(-1, 3 + 2 * n + 2))
        order = np.arange(games, dtype=np.int64)
        if draw(st.booleans()):
            order = order[::-1].copy()
        args = [mask, u, levels, ctx.rank, following, ns_next, opt, rows, saved, order]
        sizes = [None, None, None, 1 << nb, following.size, None, None, games * 7, games,
                 games]
        kinds = [None, None, None, np.int32, np.float32, None, np.float32, np.int64,
                 np.int64, np.int64]
    else:
        method = "saved_turn"
        levels = draw(st.integers(-1, 3 + 2 * n + 1))
        lv = max(levels, 0)
        width = ctx.model.tables.entry_box.shape[0] + 6 * nb
        nk = ctx.model.tables.child.shape[0]
        mask = int(ctx.layers[n][0]) if draw(st.booleans()) else draw(ints)
        args = [mask, draw(st.integers(-1, stride)), levels, ctx.rank, following, ns_next, opt,
                np.zeros(nb, np.int64), np.zeros(lv * width), np.zeros(lv * nk)]
        sizes = [None, None, None, 1 << nb, following.size, None, None, nb, lv * width,
                 lv * nk]
        kinds = [None, None, None, np.int32, np.float32, None, np.float32, np.int64,
                 np.float64, np.float64]
    return method, kernel, spoilt(draw, args, sizes, kinds)


@given(saved_arguments())
def fuzz_saved(call: tuple[str, Any, list[Any]]) -> None:
    method, kernel, args = call
    EXAMPLES["saved rolls"] += 1
    attempt("saved rolls", lambda: getattr(kernel, method)(*args))


@st.composite
def quantise_arguments(draw: st.DrawFn) -> list[Any]:
    """The rounding of a made-up table (``_kernels.quantise``): rows of chances and their
    starts, the arrays it fills, one of them often made up (any type, length, layout)."""
    lengths = draw(st.lists(st.integers(1, 6), max_size=6))
    n = sum(lengths)
    # Mostly chances a table holds, some not (below 0, not a number, infinite).
    chances = np.array(draw(st.lists(st.sampled_from([0.0, 0.1, 0.5, 1.0, 3.0] * 30 + [
        -0.5, float("nan"), float("inf")]), min_size=n, max_size=n)), dtype=np.float32)
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    rows = len(lengths)
    quantum = draw(st.sampled_from([8192] * 6 + [4, 1, 0, 65535, 65536, -1]))
    args: list[Any] = [chances, starts, quantum,
                       np.zeros(rows, np.int32), np.zeros(rows, np.int32),
                       np.zeros(rows, np.uint8), np.zeros(n, np.uint8), np.zeros(n, np.uint16)]
    kinds = [np.float32, np.int64, None, np.int32, np.int32, np.uint8, np.uint8, np.uint16]
    sizes = [n, rows + 1, None, rows, rows, rows, n, n]
    return spoilt(draw, args, sizes, kinds)


@given(quantise_arguments())
def fuzz_quantise(args: list[Any]) -> None:
    from yatzy.solver._kernels import quantise

    EXAMPLES["quantise"] += 1
    attempt("quantise", lambda: quantise(*args))


def main() -> int:
    global S, K, NB, DICE, ROLLS, NE, NK
    S = setup()
    K = S.make()
    m = S.model
    NB, DICE, ROLLS = m.boxes, m.ruleset.dice_count, m.ruleset.rolls
    NE, NK = m.tables.entry_box.shape[0], m.keeps.keep_count
    examples = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 300
    config = settings(max_examples=examples, deadline=None, database=None,
                      derandomize="--random" not in sys.argv,
                      suppress_health_check=list(HealthCheck))
    report: dict[str, Any] = {}
    _saved_setup()
    for name, test in (("plausible arguments", fuzz_plausible),
                       ("any arguments", fuzz_anything),
                       ("construction", fuzz_construction),
                       ("saved rolls", fuzz_saved),
                       ("quantise", fuzz_quantise)):
        start = time.perf_counter()
        config(test)()
        report[name] = {"examples": EXAMPLES[name], "calls": sum(SEEN[name].values()),
                        "seconds": round(time.perf_counter() - start, 2),
                        "outcomes": dict(SEEN[name])}
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    import faulthandler

    faulthandler.enable()
    sys.exit(main())
