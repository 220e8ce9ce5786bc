"""Fast simulation of optimal (or softened) play directly on the value tables.

Games are played in lockstep, one turn at a time; games in the same turn-start state
share one in-turn table, computed once, and every box is filled by
:func:`~yatzy.solver.kernels.fill`. :func:`simulate` draws the dice from numpy's seeded
``Generator``, so a seed gives the same games every time (these are not
:class:`~yatzy.core.game.Game` objects and do not use the game's own seeded dice);
:func:`play` plays given dice and can record every decision.

``temperature`` 0 plays optimally (ties to the first option: boxes in scorecard order,
then keeps); above 0 each choice is drawn with probability proportional to
``exp(value / temperature)`` over every legal option: the softmax players of
:mod:`yatzy.bots.solver_bots`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from yatzy.solver.keeps import FloatArray, IntArray
from yatzy.solver.kernels import NEG, fill
from yatzy.solver.model import Tables
from yatzy.solver.policy import Strategy
from yatzy.solver.turn import turn_tables

BoolArray = npt.NDArray[np.bool_]

#: The most games that share one in-turn table in one thread.
_CHUNK = 1024


@njit(cache=True)
def _choose(vals: np.ndarray, n: int, temperature: float, uniform: float) -> int:
    best = 0
    for i in range(1, n):
        if vals[i] > vals[best]:
            best = i
    if temperature <= 0.0:
        return best
    total = 0.0
    for i in range(n):
        total += np.exp((vals[i] - vals[best]) / temperature)
    target = uniform * total
    acc = 0.0
    for i in range(n):
        acc += np.exp((vals[i] - vals[best]) / temperature)
        if acc >= target:
            return i
    return best


@njit(cache=True, parallel=True)
def _play_turn(
    t: Tables, V: np.ndarray, order: np.ndarray, starts: np.ndarray, state: np.ndarray,
    faces: np.ndarray, uniforms: np.ndarray, turn: int, temperature: float,
    choices: np.ndarray, trace: bool,
) -> None:
    """Play turn ``turn`` of every game; games ``order[starts[g]:starts[g+1]]`` share
    a turn-start state, whose in-turn table is computed once. ``state[game]`` holds the
    game's mask, y, u, total, five-of-a-kind box points and extra Yahtzees (one row, so
    one cache line per game). With ``trace``, ``choices[game, turn, roll]`` receives
    every decision (see :func:`play`)."""
    nb = t.score.shape[1]
    dice = t.dice
    rolls = t.rolls
    base = dice + 1
    for g in prange(starts.shape[0] - 1):
        first = order[starts[g]]
        m = state[first, 0]
        y = state[first, 1]
        u = state[first, 2]
        abox, bvals, keeps = turn_tables(t, V, m, y, u, rolls - 1)
        vals = np.empty(nb + t.sub_keeps.shape[1])
        what = np.empty(nb + t.sub_keeps.shape[1], dtype=np.int64)
        c = np.zeros(6, dtype=np.int64)
        for j in range(starts[g], starts[g + 1]):
            game = order[j]
            # First roll: all dice.
            for f in range(6):
                c[f] = 0
            for i in range(dice):
                c[faces[game, turn, 0, i] - 1] += 1
            left = rolls - 1
            while True:
                code = 0
                for f in range(5, -1, -1):
                    code = code * base + c[f]
                r = t.code_to_keep[code] - t.first_roll
                n = 0
                for i in range(abox.shape[0]):
                    if bvals[i, r] > NEG / 2:
                        vals[n] = bvals[i, r]
                        what[n] = abox[i]
                        n += 1
                if left > 0:
                    for i in range(t.sub_count[r]):
                        k = t.sub_keeps[r, i]
                        vals[n] = keeps[left - 1, k]
                        what[n] = nb + k
                        n += 1
                # At temperature 0 ``uniforms`` is a (1, 1, 1) placeholder: never index it.
                draw = uniforms[game, turn, rolls - 1 - left] if temperature > 0.0 else 0.0
                pick = what[_choose(vals, n, temperature, draw)]
                if trace:
                    choices[game, turn, rolls - 1 - left] = pick
                if pick < nb or left == 0:
                    break
                # Reroll: keep ``pick - nb``, throw the other dice.
                k = pick - nb
                roll_no = rolls - left
                kept = 0
                for f in range(6):
                    c[f] = t.counts[k, f]
                    kept += t.counts[k, f]
                for i in range(dice - kept):
                    c[faces[game, turn, roll_no, i] - 1] += 1
                left -= 1
            points, extra, bonus, m2, y2, u2 = fill(t, m, y, u, r, pick)
            row = state[game]
            row[3] += points + extra + bonus
            if extra > 0:
                row[5] += 1
            if pick == t.yahtzee_box:
                row[4] = points
            row[0] = m2
            row[1] = y2
            row[2] = u2


@dataclass(frozen=True)
class SimulationResult:
    """Final scores and events of simulated games."""

    #: Who played (``optimal``, a bot level, or ``temperature=T``).
    player: str
    ruleset_name: str
    seed: int
    seconds: float
    scores: IntArray
    #: Per game: upper bonus earned; five-of-a-kind box holds 50; extra Yahtzees.
    upper_bonus: BoolArray = field(repr=False)
    yahtzee: BoolArray = field(repr=False)
    extra_yahtzees: IntArray = field(repr=False)

    @property
    def games(self) -> int:
        return int(self.scores.shape[0])

    @property
    def mean(self) -> float:
        return float(self.scores.mean())

    @property
    def sd(self) -> float:
        return float(self.scores.std(ddof=1)) if self.games > 1 else 0.0

    @property
    def standard_error(self) -> float:
        return self.sd / float(np.sqrt(self.games))

    @property
    def median(self) -> float:
        return float(np.median(self.scores))

    def percentiles(self, qs: tuple[int, ...] = (1, 5, 10, 25, 50, 75, 90, 95, 99)
                    ) -> dict[int, float]:
        values = np.percentile(self.scores, qs, method="nearest")
        return {q: float(v) for q, v in zip(qs, values, strict=True)}

    @property
    def bonus_rate(self) -> float:
        return float(self.upper_bonus.mean())

    @property
    def yahtzee_rate(self) -> float:
        return float(self.yahtzee.mean())

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")



def play(strategy: Strategy, faces: npt.NDArray[np.int8], *, temperature: float = 0.0,
         uniforms: FloatArray | None = None, choices: IntArray | None = None) -> IntArray:
    """Play one solitaire game per row of ``faces`` with ``strategy`` (softened by
    ``temperature``) on the dice given, and return each game's final ``(mask, y, u,
    total, five-of-a-kind box points, extra Yahtzees)``.

    ``faces[game, turn, roll, i]`` is die ``i`` thrown at roll ``roll`` (0 = the first)
    of turn ``turn``; a reroll takes the first dice of its row that it needs.
    ``uniforms[game, turn, roll]`` in [0, 1) draws each softmax choice (needed when
    ``temperature`` > 0). ``choices`` (shape ``(games, turns, rolls)``), when given,
    receives every decision: the index of the box filled, or ``boxes + k`` for keeping
    keep ``k`` (:class:`~yatzy.solver.keeps.KeepTables`) and rerolling the rest; it is
    left as it was after a turn's last decision.
    """
    model = strategy.model
    t = model.tables
    n = faces.shape[0]
    if faces.shape[1:] != (model.boxes, t.rolls, t.dice):
        raise ValueError(f"faces must have shape (games, {model.boxes}, {t.rolls}, {t.dice})")
    if temperature > 0 and (uniforms is None or uniforms.shape != faces.shape[:3]):
        raise ValueError("A temperature needs uniforms of shape (games, turns, rolls)")
    draws = uniforms if temperature > 0 and uniforms is not None else np.zeros((1, 1, 1))
    trace = choices is not None
    if choices is not None and choices.shape != faces.shape[:3]:
        raise ValueError("choices must have shape (games, turns, rolls)")
    out = choices if choices is not None else np.zeros((1, 1, 1), dtype=np.int64)
    # Per game: mask, y, u, total, five-of-a-kind box points, extra Yahtzees.
    state = np.zeros((n, 6), dtype=np.int64)
    stride = t.threshold + 1
    for turn in range(model.boxes):
        keys = (state[:, 0] * model.y_count + state[:, 1]) * stride + state[:, 2]
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1], True])
        # Split big groups (early turns) so that both threads get work.
        starts = np.union1d(starts, np.arange(0, n, _CHUNK))
        _play_turn(t, strategy.values, order, starts, state, faces, draws, turn,
                   float(temperature), out, trace)
    return state


def simulate(strategy: Strategy, games: int, *, seed: int = 0, temperature: float = 0.0,
             player: str | None = None, batch: int = 200_000) -> SimulationResult:
    """Play ``games`` solitaire games with ``strategy`` (softened by ``temperature``);
    ``player`` names the player in the result."""
    if games < 1:
        raise ValueError("Simulate at least one game")
    if seed < 0:
        raise ValueError(f"The seed must be a whole number >= 0, not {seed}")
    model = strategy.model
    t = model.tables
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    parts = []
    for lo in range(0, games, batch):
        n = min(batch, games - lo)
        faces = rng.integers(1, 7, size=(n, model.boxes, t.rolls, t.dice), dtype=np.int8)
        uniforms = rng.random((n, model.boxes, t.rolls)) if temperature > 0 else None
        state = play(strategy, faces, temperature=temperature, uniforms=uniforms)
        parts.append((state[:, 3], state[:, 2] >= t.threshold, state[:, 4] > 0,
                      state[:, 5]))
    seconds = time.perf_counter() - start
    return SimulationResult(
        player=player or ("optimal" if temperature <= 0 else f"temperature={temperature}"),
        ruleset_name=str(strategy.ruleset),
        seed=seed,
        seconds=seconds,
        scores=np.concatenate([p[0] for p in parts]),
        upper_bonus=np.concatenate([p[1] for p in parts]),
        yahtzee=np.concatenate([p[2] for p in parts]),
        extra_yahtzees=np.concatenate([p[3] for p in parts]),
    )


__all__ = ["SimulationResult", "play", "simulate"]
