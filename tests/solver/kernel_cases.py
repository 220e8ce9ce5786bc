"""Misuses of the compiled kernels (``yatzy.solver._kernels``) that crashed the process, or
read or wrote outside an array, before the kernels checked their arguments: each case
calls ``Kernels`` as no wrapper in :mod:`yatzy.solver.kernels` would, and says what it
should raise (a ``TypeError`` or ``ValueError``, or nothing at all).

Run as a script it runs every case in this one process and prints a line per case as
it starts and one as it ends (``name<TAB>exception<TAB>message``):
``tests/solver/test_kernels_safety.py`` runs it in a child process, so that a crash
fails that test instead of killing pytest, and names the case that crashed.

    python -m tests.solver.kernel_cases [NAME ...]
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

#: The arrays of ``Kernels(sizes, arrays)``, in their order.
ARRAYS = ("score", "allowed", "five_points", "five_rolls", "five_of", "extra", "is_upper",
          "entry_of", "entry_box", "entry_roll", "child", "parent_start", "parent_list",
          "roll_prob", "sub_keeps", "sub_count", "counts", "code_to_keep", "lanes",
          "lane_count", "lane_of", "upper_bit", "possible", "V")

#: Every method of a Kernels object and arguments that suit a small game's (see
#: ``Setup.call``).
METHODS = ("fill", "solve", "turn", "advise", "forget", "remaining", "distribution",
           "play", "seed_games", "step_games", "regrets", "memo_width", "win_turn",
           "win_play")


@dataclass
class Setup:
    """A small game's tables, its solved value table and the arguments of ``Kernels``."""

    model: Any
    values: np.ndarray
    sizes: tuple[int, ...]
    arrays: list[Any]

    def make(self, **replace: Any) -> Any:
        """``Kernels`` of these tables, with some arrays replaced (by name)."""
        from yatzy.solver._kernels import Kernels

        arrays = [replace.get(name, a) for name, a in zip(ARRAYS, self.arrays, strict=True)]
        return Kernels(self.sizes, tuple(arrays))

    def games(self, n: int) -> np.ndarray:
        """``n`` games' rows at their start (not seeded)."""
        return np.zeros((n, 7), dtype=np.int64)

    def call(self, k: Any, method: str) -> Any:
        """Call ``method`` of ``k`` with arguments that suit these tables."""
        m = self.model
        nb, dice, rolls = m.boxes, m.ruleset.dice_count, m.ruleset.rolls
        if method == "fill":
            return k.fill(0, 0, 0, 0, 0)
        if method == "solve":
            jobs = m.masks[m.masks != (1 << nb) - 1].astype(np.int32)
            return k.solve(jobs, np.zeros_like(jobs), 0, 1)
        if method == "turn":
            return k.turn(0, 0, 0, rolls - 1, np.zeros(nb, np.int64),
                          np.zeros(m.tables.entry_box.shape[0] + 6 * nb),
                          np.zeros((rolls - 1) * m.keeps.keep_count))
        if method == "advise":
            from yatzy.solver.policy import Option

            return k.advise((None,) * nb, 0, (1,) * dice, rolls - 1,
                            tuple(range(nb + 2 ** dice)), Option)
        if method == "forget":
            return k.forget()
        if method == "remaining":
            return k.remaining(0.0, 1)
        if method == "distribution":
            return k.distribution(0, 0, 0, -1, rolls - 1, 1)
        if method == "play":
            state = self.games(8)
            k.seed_games(state, 1, 0)
            return k.play(state, 0, 8, None, None, 0.0, None, 2)
        if method == "seed_games":
            return k.seed_games(self.games(2), 1, 0)
        if method == "step_games":
            return k.step_games(*self.env(k, 2))
        if method == "regrets":
            args = self.regret_args(k, 2)
            k.regrets(*args)  # the games reroll: their memo rows are written ...
            args[2][:] -= 1  # ... and read at their next decision
            return k.regrets(*args)
        if method == "memo_width":
            return k.memo_width()
        if method == "win_turn":
            return k.win_turn(*self.win_turn_args(k))
        if method == "win_play":
            return k.win_play(*self.win_play_args(k, 2))
        raise AssertionError(method)

    def win_table(self, k: Any) -> list[np.ndarray]:
        """The arrays of the shared table of the points still to come of these tables (as
        ``yatzy.solver.winning.table_arrays`` gives them; built once, whatever ``k``)."""
        global _WIN_TABLE
        if _WIN_TABLE is None:
            from types import SimpleNamespace

            from yatzy.solver.remaining import quantise

            keys, lows, lengths, chances = self.make().remaining(1e-9, 1)
            n = np.frombuffer(lengths, dtype=np.int32)
            table = SimpleNamespace(
                _keys=np.frombuffer(keys, dtype=np.int32),
                _lows=np.frombuffer(lows, dtype=np.int32), _lengths=n,
                _chances=np.frombuffer(chances, dtype=np.float32),
                _starts=np.concatenate([[0], np.cumsum(n, dtype=np.int64)]), rows=len(n),
                strategy=SimpleNamespace(model=self.model))
            a = quantise(table)  # type: ignore[arg-type]
            _WIN_TABLE = [a["row_of"], a["lowest"], a["length"], a["offset"], a["wide"],
                          a["pool8"], a["pool16"]]
        return list(_WIN_TABLE)

    def win_turn_args(self, k: Any) -> list[Any]:
        """The arguments of ``win_turn`` at the start of a game against one player who has
        played a turn."""
        m = self.model
        nb, rolls = m.boxes, m.ruleset.rolls
        others = np.array([[1, 0, 1, 1]], dtype=np.int64)
        return [tuple(self.win_table(k)), others, 0, 0, 0, 0,
                np.zeros(m.tables.entry_box.shape[0] + 6 * nb),
                np.zeros((rolls - 1) * m.keeps.keep_count)]

    def win_play_args(self, k: Any, n: int) -> list[Any]:
        """The arguments of ``win_play`` for ``n`` games against one ``optimal`` player
        who sits first (its states from ``play``)."""
        m = self.model
        nb, dice, rolls = m.boxes, m.ruleset.dice_count, m.ruleset.rolls
        faces = (np.arange(n * nb * rolls * dice) * 7 % 6 + 1).astype(np.int8)
        state, history = self.games(n), np.zeros((n, nb + 1, 4), dtype=np.int64)
        with contextlib.suppress(ValueError):  # a Kernels of damaged tables may refuse
            k.play(state, 0, n, faces, None, 0.0, None, 1, history)
        return [tuple(self.win_table(k)), faces, history, np.ones(1, np.uint8), self.games(n)]

    def regret_args(self, k: Any, n: int) -> list[Any]:
        """The arguments of ``regrets`` for ``n`` games, just restarted, each with a
        legal action (a reroll, the first), on two threads, with an empty memo row for
        each game."""
        env = self.env(k, n)
        state, dice, left, actions, restart = env[0], env[1], env[2], env[6], env[7]
        actions[:] = np.argmax(env[9], axis=1)
        width = k.memo_width()
        return [state, dice, left, actions, restart, np.zeros(n), 2,
                np.full(n, -1, np.int64), np.zeros((n, width))]

    def env(self, k: Any, n: int) -> list[np.ndarray]:
        """The arrays of ``step_games`` for ``n`` games, just restarted."""
        m = self.model
        nb, dice, rolls = m.boxes, m.ruleset.dice_count, m.ruleset.rolls
        arrays = [self.games(n), np.zeros((n, dice), np.int8), np.zeros(n, np.int8),
                  np.zeros((n, nb), np.int16), np.zeros((n, nb * rolls + 1, 1 + dice), np.int16),
                  np.zeros(n, np.int64), np.zeros(n, np.int64), np.ones(n, np.uint8),
                  np.zeros(n, np.int64), np.zeros((n, 2 ** dice - 1 + nb), np.int8)]
        if k is not None:
            k.seed_games(arrays[0], 1, 0)
            assert k.step_games(*arrays) == -1
            arrays[7][:] = 0
        return arrays


#: The shared table of Setup.win_table, once made.
_WIN_TABLE: list[np.ndarray] | None = None


@cache
def setup() -> Setup:
    """A small Yahtzee (three dice, eight boxes: the upper bonus, the Joker rules and the
    extra-Yahtzee bonus all in play), solved."""
    import yatzy
    from yatzy.core.rulesets import UPPER_BOXES
    from yatzy.solver import dp
    from yatzy.solver.model import build_model

    ruleset = dataclasses.replace(
        yatzy.ruleset("yahtzee", joker="gated"), boxes=(*UPPER_BOXES, "full_house", "yahtzee"),
        dice_count=3, rolls=3, upper_bonus_threshold=8)
    model = build_model(ruleset)
    values = dp.solve(model)
    t = model.tables
    sizes = (t.score.shape[0], t.score.shape[1], t.child.shape[0], t.entry_box.shape[0],
             t.first_roll, t.dice, t.rolls, t.threshold, t.bonus, t.yahtzee_box, t.y_points,
             t.extra.shape[0], t.sub_keeps.shape[1], t.upper_count)
    arrays = [*(getattr(t, name) for name in ARRAYS[:-1]), values]
    return Setup(model, values, sizes, arrays)


@dataclass(frozen=True)
class Case:
    run: Callable[[Setup], object]
    #: The exception it must raise ("" for none) and a part of its message.
    raises: str
    message: str = ""


CASES: dict[str, Case] = {}


def case(name: str, raises: str, message: str = ""
         ) -> Callable[[Callable[[Setup], object]], Callable[[Setup], object]]:
    def add(run: Callable[[Setup], object]) -> Callable[[Setup], object]:
        CASES[name] = Case(run, raises, message)
        return run
    return add


# --- A failed __init__ leaves nothing callable ------------------------------------------

def _half_made(s: Setup, short: str) -> Any:
    """A Kernels object whose __init__ failed on a too short array ``short``."""
    from yatzy.solver._kernels import Kernels

    k = Kernels.__new__(Kernels)
    arrays = [a[:0] if name == short else a for name, a in zip(ARRAYS, s.arrays, strict=True)]
    try:
        k.__init__(s.sizes, tuple(arrays))
    except ValueError:
        pass
    else:
        raise AssertionError(f"{short} too short was accepted")
    return k


for _name in ARRAYS:
    case(f"__init__ failed on {_name}, then fill", "ValueError", "not initialised")(
        lambda s, name=_name: _half_made(s, name).fill(0, 0, 0, 0, 0))
for _method in METHODS:
    case(f"__init__ failed, then {_method}", "ValueError", "not initialised")(
        lambda s, method=_method: s.call(_half_made(s, "V"), method))


@case("__init__ twice", "TypeError", "initialised once")
def _twice(s: Setup) -> None:
    k = s.make()
    k.__init__(s.sizes, tuple(s.arrays))


@case("keyword arguments to __init__", "TypeError", "keyword")
def _keywords(s: Setup) -> None:
    from yatzy.solver._kernels import Kernels

    Kernels(s.sizes, tuple(s.arrays), threads=2)


@case("keyword arguments to a method", "TypeError", "keyword")
def _method_keywords(s: Setup) -> None:
    s.make().fill(mask=0, y=0, u=0, roll=0, box=0)


# --- Index tables: every index checked at construction ----------------------------------

def _workload(s: Setup, k: Any) -> None:
    """What the tables feed: the table build, advice, a distribution, games."""
    for method in ("solve", "turn", "advise", "distribution", "play", "step_games",
                   "regrets"):
        s.call(k, method)


def _poisoned(s: Setup, name: str, value: int, at: int = 0) -> None:
    """Kernels with one value of one table changed, then put to work."""
    changed = np.array(s.arrays[ARRAYS.index(name)], copy=True)
    changed.reshape(-1)[at] = value
    _workload(s, s.make(**{name: changed}))


#: (table, a value out of range for it, and where in it)
POISONS = [
    ("child", 10**8, 0), ("child", -5, 0), ("code_to_keep", 10**8, 0),
    ("lanes", 10**6, 0), ("lane_of", 50, 0), ("lane_count", 10**4, 0),
    ("entry_of", 10**6, 0), ("entry_box", 99, 0), ("entry_roll", -7, 0),
    ("five_rolls", 10**6, 0), ("five_of", 40, 0), ("sub_keeps", 10**6, 0),
    ("sub_count", 10**4, 0), ("parent_start", 10**6, 3), ("parent_list", 10**6, 0),
    ("counts", 9, 0), ("upper_bit", 1 << 20, 0), ("allowed", -1, 0), ("score", 10**9, 0),
    ("score", -1, 0), ("extra", -10**6, 0),
]
for _table, _value, _at in POISONS:
    case(f"{_table} out of range ({_value})", "ValueError", _table)(
        lambda s, table=_table, value=_value, at=_at: _poisoned(s, table, value, at))


@case("tables changed after construction", "")
def _changed_later(s: Setup) -> None:
    """The tables are copied: changing the caller's arrays afterwards changes nothing."""
    arrays = {name: np.array(a, copy=True) for name, a in zip(ARRAYS[:-1], s.arrays,
                                                               strict=False)}
    values = np.array(s.values, copy=True)
    k = s.make(**arrays, V=values)
    for a in arrays.values():
        if a.dtype == np.int32:
            a[...] = 10**8
    _workload(s, k)
    assert np.array_equal(values, s.values)


@case("boxes past the key width (nb = 25)", "ValueError", "boxes")
def _wide(s: Setup) -> None:
    from yatzy.solver._kernels import Kernels

    sizes = list(s.sizes)
    sizes[1] = 25
    Kernels(tuple(sizes), tuple(s.arrays))


@case("an upper bonus past 127 points", "ValueError", "threshold")
def _threshold(s: Setup) -> None:
    from yatzy.solver._kernels import Kernels

    sizes = list(s.sizes)
    sizes[7] = 128
    Kernels(tuple(sizes), tuple(s.arrays))


@case("states past 31 bits (24 boxes, bonus at 127, extra bonus)", "ValueError", "states")
def _states(s: Setup) -> None:
    from yatzy.solver._kernels import Kernels

    sizes = list(s.sizes)
    sizes[1], sizes[7], sizes[11] = 24, 127, 2  # 2^24 * 2 * 128 = 2^32 states
    Kernels(tuple(sizes), tuple(s.arrays))


@case("upper boxes past 1 << 31 (nu = 40)", "ValueError", "upper")
def _nu(s: Setup) -> None:
    from yatzy.solver._kernels import Kernels

    sizes = list(s.sizes)
    sizes[13] = 40
    Kernels(tuple(sizes), tuple(s.arrays))


# --- Buffers: kind, size, layout, writability -------------------------------------------

@case("float64 state for int64", "ValueError", "wrong type")
def _float_state(s: Setup) -> None:
    state = np.zeros((2, 7), dtype=np.float64)
    state[:, 0] = 1e300
    s.make().seed_games(state, 1, 0)


@case("float32 table for int32", "ValueError", "wrong type")
def _float_table(s: Setup) -> None:
    s.make(child=s.arrays[ARRAYS.index("child")].astype(np.float32))


@case("big-endian table", "ValueError", "wrong type")
def _big_endian(s: Setup) -> None:
    s.make(child=s.arrays[ARRAYS.index("child")].astype(">i4"))


@case("non-contiguous state", "ValueError", "contiguous")
def _strided(s: Setup) -> None:
    s.make().seed_games(s.games(4)[::2], 1, 0)


@case("read-only state", "ValueError", "read-only")
def _read_only(s: Setup) -> None:
    state = s.games(2)
    state.setflags(write=False)
    s.make().seed_games(state, 1, 0)


@case("bytes as state", "ValueError", "read-only")
def _bytes(s: Setup) -> None:
    s.make().seed_games(memoryview(bytes(8 * 7 * 2)).cast("q"), 1, 0)


@case("read-only value table", "ValueError", "read-only")
def _read_only_values(s: Setup) -> None:
    values = np.array(s.values, copy=True)
    values.setflags(write=False)
    s.make(V=values)


@case("misaligned state", "ValueError", "aligned")
def _misaligned(s: Setup) -> None:
    raw = bytearray(8 * 7 * 2 + 1)
    s.make().seed_games(np.frombuffer(raw, dtype=np.int64, offset=1).reshape(2, 7), 1, 0)


@case("not an array", "TypeError")
def _not_an_array(s: Setup) -> None:
    s.make().seed_games([[0] * 7], 1, 0)


# --- The callers' arrays: ranges, overlaps ----------------------------------------------

@case("step_games with a negative count", "ValueError", "no state")
def _negative_count(s: Setup) -> None:
    k = s.make()
    arrays = s.env(k, 2)
    arrays[5][:] = -10**12
    k.step_games(*arrays)


@case("step_games with rerolls left out of range", "ValueError", "no state")
def _left(s: Setup) -> None:
    k = s.make()
    arrays = s.env(k, 2)
    arrays[2][:] = -100
    k.step_games(*arrays)


@case("step_games with overlapping arrays", "ValueError", "overlap")
def _env_overlap(s: Setup) -> None:
    k = s.make()
    arrays = s.env(k, 2)
    arrays[9] = np.frombuffer(arrays[0], dtype=np.int8)[: arrays[9].size].reshape(
        arrays[9].shape)
    k.step_games(*arrays)


@case("regrets with rerolls left out of range", "ValueError", "no state")
def _regret_left(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[2][:] = 100
    k.regrets(*args)


@case("regrets with a die out of range", "ValueError", "no state")
def _regret_die(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[1][1, 0] = 7
    k.regrets(*args)


@case("regrets written over the state", "ValueError", "overlap")
def _regret_overlap(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[5] = args[0].reshape(-1).view(np.float64)[:2]
    k.regrets(*args)


@case("regrets on no threads", "ValueError", "threads must be 1 or more")
def _regret_threads(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[6] = 0
    k.regrets(*args)


@case("regrets with a state out of range", "ValueError", "no state")
def _regret_mask(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[0][0, 0] = 1 << s.model.boxes
    k.regrets(*args)


@case("regrets with a memo of the wrong width", "ValueError", "wrong size (memo)")
def _memo_width(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[8] = np.zeros((2, k.memo_width() - 1))
    k.regrets(*args)


@case("regrets with fewer memo rows than games, or more", "")
def _memo_rows(s: Setup) -> None:
    """The games past the memo's rows have none (any number of rows, 0 too)."""
    k = s.make()
    for rows in (0, 1, 5):
        args = s.regret_args(k, 2)
        args[7], args[8] = np.full(rows, -1, np.int64), np.zeros((rows, k.memo_width()))
        k.regrets(*args)
        args[2][:] -= 1
        k.regrets(*args)


@case("regrets with a read-only memo", "ValueError", "read-only")
def _memo_read_only(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[8].setflags(write=False)
    k.regrets(*args)


@case("regrets with memo keys of the wrong type", "ValueError", "wrong type")
def _memo_keys_type(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[7] = args[7].astype(np.float64)
    k.regrets(*args)


@case("regrets with the memo keys over the state", "ValueError", "overlap")
def _memo_overlap(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[7] = args[0].reshape(-1)[:2]
    k.regrets(*args)


@case("regrets written over the memo", "ValueError", "overlap")
def _regret_over_memo(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[5] = args[8].reshape(-1)[:2]
    k.regrets(*args)


@case("regrets with the memo keys over the memo", "ValueError", "overlap")
def _memo_keys_overlap(s: Setup) -> None:
    k = s.make()
    args = s.regret_args(k, 2)
    args[7] = args[8].reshape(-1).view(np.int64)[:2]
    k.regrets(*args)


@case("regrets with made-up memo rows", "")
def _memo_made_up(s: Setup) -> None:
    """Keys that claim any state and any number of rerolls, with any values: wrong
    regrets at worst, never memory outside the arrays."""
    k = s.make()
    args = s.regret_args(k, 2)
    for code in (0, 31, 2**62, -2, (1 << 5) | 2, 2**63 - 1):
        args[7][:] = code
        args[8][...] = np.nan if code % 2 else 1e300
        for left in range(s.model.ruleset.rolls):
            args[2][:] = left
            k.regrets(*args)


@case("play with choices over the state", "ValueError", "overlap")
def _play_overlap(s: Setup) -> None:
    m = s.model
    k = s.make()
    per_game = m.boxes * m.ruleset.rolls
    state = np.zeros(max(7, per_game) * 4, dtype=np.int64)
    k.seed_games(state[: 4 * 7].reshape(4, 7), 1, 0)
    k.play(state[: 4 * 7].reshape(4, 7), 0, 4, None, None, 0.0,
           state[: 4 * per_game].reshape(4, m.boxes, m.ruleset.rolls), 1)


@case("play from a full card", "ValueError", "no legal option")
def _no_option(s: Setup) -> None:
    state = s.games(2)
    state[:, 0] = (1 << s.model.boxes) - 1
    s.make().play(state, 0, 2, None, None, 0.0, None, 1)


@case("play with a state out of range", "ValueError", "no state")
def _play_range(s: Setup) -> None:
    state = s.games(2)
    state[1, 0] = (1 << 32) + 1  # 1 once cut to an int
    s.make().play(state, 0, 2, None, None, 0.0, None, 1)


@case("solve with jobs over the value table", "")
def _jobs_alias(s: Setup) -> None:
    """The jobs are read before the value table is written: the table build writes
    nothing the loop reads of the caller's."""
    values = np.zeros_like(s.values)
    k = s.make(V=values)
    jobs = values.reshape(-1).view(np.int32)[:64]
    k.solve(jobs, jobs, 0, 1)


@case("advise with a struct sequence as option type", "ValueError", "option type")
def _struct_seq(s: Setup) -> None:
    m = s.model
    k = s.make()
    nb, dice = m.boxes, m.ruleset.dice_count
    options = k.advise((None,) * nb, 0, (1,) * dice, 2, tuple(range(nb + 2 ** dice)),
                       time.struct_time)
    del options


@case("advise with a huge bonus", "ValueError", "yahtzee_bonus")
def _huge_bonus(s: Setup) -> None:
    m = s.model
    k = s.make()
    nb, dice = m.boxes, m.ruleset.dice_count
    from yatzy.solver.policy import Option

    k.advise((None,) * nb, 2**63 - 1, (1,) * dice, 2, tuple(range(nb + 2 ** dice)), Option)


# --- Playing to win: the shared table is the caller's, read in place ---------------------

def _win_table_with(s: Setup, which: int, at: int, value: int) -> list[Any]:
    k = s.make()
    args = s.win_play_args(k, 2)
    table = list(args[0])
    changed = np.array(table[which], copy=True)
    changed.reshape(-1)[at] = value
    table[which] = changed
    args[0] = tuple(table)
    return [k, args]


@case("win_play with rows that reach past their pool", "ValueError", "row")
def _win_offset(s: Setup) -> None:
    k, args = _win_table_with(s, 3, 0, 0)
    table = list(args[0])
    table[3] = np.full_like(table[3], 2**40)
    args[0] = tuple(table)
    k.win_play(*args)


@case("win_turn with rows longer than their pool", "ValueError", "row")
def _win_length(s: Setup) -> None:
    k = s.make()
    args = s.win_turn_args(k)
    table = list(args[0])
    table[2] = np.full_like(table[2], 2**31 - 1)
    args[0] = tuple(table)
    k.win_turn(*args)


@case("win_play with a state naming no row", "ValueError", "row")
def _win_row_of(s: Setup) -> None:
    k, args = _win_table_with(s, 0, 0, 0)
    table = list(args[0])
    table[0] = np.full_like(table[0], 10**9)
    args[0] = tuple(table)
    k.win_play(*args)


@case("win_play with a table of the wrong size", "ValueError", "row_of")
def _win_short(s: Setup) -> None:
    k = s.make()
    args = s.win_play_args(k, 2)
    table = list(args[0])
    table[0] = table[0][:-1]
    args[0] = tuple(table)
    k.win_play(*args)


@case("win_play with an other in no state", "ValueError", "no state")
def _win_other(s: Setup) -> None:
    k = s.make()
    args = s.win_play_args(k, 2)
    args[2][1, 3, 2] = 10**6
    k.win_play(*args)


@case("win_play with ahead 2", "ValueError", "ahead")
def _win_ahead(s: Setup) -> None:
    k = s.make()
    args = s.win_play_args(k, 2)
    args[3][0] = 2
    k.win_play(*args)


@case("win_play with the state over the faces", "ValueError", "overlap")
def _win_overlap(s: Setup) -> None:
    k = s.make()
    args = s.win_play_args(k, 2)
    m = s.model
    room = np.zeros(max(2 * 7 * 8, args[1].size), dtype=np.int8)
    room[: args[1].size] = args[1]
    args[1] = room[: args[1].size]
    args[4] = room.view(np.int64)[:14].reshape(2, 7)
    args[4][:] = 0
    del m
    k.win_play(*args)


@case("win_play plays", "")
def _win_plays(s: Setup) -> None:
    k = s.make()
    args = s.win_play_args(k, 3)
    k.win_play(*args)
    assert (args[4][:, 0] == (1 << s.model.boxes) - 1).all()


@case("remaining with a layer past the last", "ValueError", "upto")
def _remaining_upto(s: Setup) -> None:
    s.make().remaining(0.0, 1, s.model.boxes)


@case("remaining exact up to the first layer", "")
def _remaining_exact(s: Setup) -> None:
    keys, _lows, lengths, chances = s.make().remaining(0.0, 2, 1)
    n = np.frombuffer(lengths, dtype=np.int32)
    assert len(chances) == 8 * int(n.sum()) and len(keys) == 4 * len(n)
    assert abs(float(np.frombuffer(chances)[: n[0]].sum()) - 1.0) < 1e-12


@case("win_turn from a full card", "ValueError", "no open state")
def _win_full(s: Setup) -> None:
    k = s.make()
    args = s.win_turn_args(k)
    args[2] = (1 << s.model.boxes) - 1
    k.win_turn(*args)


@case("win_turn with a huge total", "ValueError", "no open state")
def _win_total(s: Setup) -> None:
    k = s.make()
    args = s.win_turn_args(k)
    args[5] = 2**31 - 1
    k.win_turn(*args)


@case("win_turn with too many others", "ValueError", "others")
def _win_many(s: Setup) -> None:
    k = s.make()
    args = s.win_turn_args(k)
    args[1] = np.repeat(args[1], 64, axis=0)
    k.win_turn(*args)


def run(names: list[str]) -> None:
    s = setup()
    for name in names:
        print(f"START\t{name}", flush=True)
        try:
            CASES[name].run(s)
        except Exception as error:  # what the case raised, whatever it is
            message = str(error).replace("\t", " ").replace("\n", " ")
            print(f"END\t{name}\t{type(error).__name__}\t{message}", flush=True)
        else:
            print(f"END\t{name}\t\t", flush=True)


if __name__ == "__main__":
    import faulthandler

    faulthandler.enable()
    run(sys.argv[1:] or list(CASES))
