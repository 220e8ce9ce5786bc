"""Fast simulation of optimal (or softened) play directly on the value tables.

Games are played in lockstep, one turn at a time, in compiled code
(:mod:`yatzy.solver.kernels`) on every core; games in the same turn-start state share
one in-turn table, computed once, and every box is filled by the one transition.
:func:`simulate` gives every game its own stream of dice, drawn from the seed and the
game's number, so a seed gives the same games every time, however the games are split
between threads (these are not :class:`~yatzy.core.game.Game` objects and do not use
the game's own seeded dice); :func:`play` plays given dice and can record every
decision.

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

from yatzy.solver import kernels
from yatzy.solver.keeps import FloatArray, IntArray
from yatzy.solver.policy import Strategy

BoolArray = npt.NDArray[np.bool_]

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



def _run(strategy: Strategy, state: IntArray, faces: npt.NDArray[np.int8] | None,
         uniforms: FloatArray | None, temperature: float, choices: IntArray | None,
         history: IntArray | None = None) -> None:
    """Play every game of ``state`` to its end, on every core: the compiled code sorts
    all games by state each turn, so that games in one state share one in-turn table
    whichever thread plays them. ``history[game, turn]``, when given, receives the
    ``(mask, y, u, total)`` of each turn's start and, at ``turn`` = boxes, the end."""
    strategy.kernels.play(state, 0, state.shape[0], faces, uniforms, float(temperature),
                          choices, kernels.threads(), history)


def check_run(games: int, seed: int = 0) -> None:
    """The checks every simulation makes of its ``games`` (at least one) and ``seed``
    (0 to 2**64 - 1): ValueError."""
    if games < 1:
        raise ValueError("Simulate at least one game")
    if not 0 <= seed < 2**64:
        raise ValueError(f"The seed must be a whole number from 0 to 2**64 - 1, not {seed}")


def check_faces(strategy: Strategy, faces: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """``faces`` as the compiled games read them (``[game, turn, roll, die]``, C-ordered
    int8), or ValueError when its shape is not ``strategy``'s ruleset's."""
    model = strategy.model
    t = model.tables
    if faces.shape[1:] != (model.boxes, t.rolls, t.dice):
        raise ValueError(f"faces must have shape (games, {model.boxes}, {t.rolls}, {t.dice})")
    return np.ascontiguousarray(faces, dtype=np.int8)


def states(strategy: Strategy, games: int, *, seed: int = 0) -> IntArray:
    """The states optimal play goes through in ``games`` solitaire games (the games of
    :func:`simulate` with this seed): ``[game, turn]`` is ``(mask, y, u, total)`` at the
    start of turn ``turn`` (0-based) and, at ``turn`` = the number of boxes, at the end."""
    check_run(games, seed)
    nb = strategy.model.boxes
    state = np.zeros((games, kernels.COLUMNS), dtype=np.int64)
    history = np.zeros((games, nb + 1, 4), dtype=np.int64)
    strategy.kernels.seed_games(state, seed, 0)
    _run(strategy, state, None, None, 0.0, None, history)
    return history


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
    n = faces.shape[0]
    faces = check_faces(strategy, faces)
    if temperature > 0 and (uniforms is None or uniforms.shape != faces.shape[:3]):
        raise ValueError("A temperature needs uniforms of shape (games, turns, rolls)")
    if choices is not None and (choices.shape != faces.shape[:3]
                                or choices.dtype != np.int64):
        raise ValueError("choices must have shape (games, turns, rolls) and dtype int64")
    state = np.zeros((n, kernels.COLUMNS), dtype=np.int64)
    _run(strategy, state, faces,
         None if uniforms is None else np.ascontiguousarray(uniforms, dtype=np.float64),
         temperature, choices)
    return state[:, :6]


def histories(strategy: Strategy, faces: npt.NDArray[np.int8], *, threads: int = 1
              ) -> IntArray:
    """The states optimal play goes through on the dice ``faces`` (as :func:`play` takes
    them), on ``threads`` threads: ``[game, turn]`` is ``(mask, y, u, total)`` at the start
    of turn ``turn`` and, at ``turn`` = the number of boxes, at the end."""
    n = faces.shape[0]
    faces = check_faces(strategy, faces)
    state = np.zeros((n, kernels.COLUMNS), dtype=np.int64)
    history = np.zeros((n, strategy.model.boxes + 1, 4), dtype=np.int64)
    strategy.kernels.play(state, 0, n, faces, None, 0.0, None, threads, history)
    return history


def simulate(strategy: Strategy, games: int, *, seed: int = 0, temperature: float = 0.0,
             player: str | None = None, batch: int = 1_000_000) -> SimulationResult:
    """Play ``games`` solitaire games with ``strategy`` (softened by ``temperature``);
    ``player`` names the player in the result. Game ``i``'s dice depend only on ``seed``
    and ``i``."""
    check_run(games, seed)
    t = strategy.model.tables
    start = time.perf_counter()
    parts = []
    for lo in range(0, games, batch):
        n = min(batch, games - lo)
        state = np.zeros((n, kernels.COLUMNS), dtype=np.int64)
        strategy.kernels.seed_games(state, seed, lo)
        _run(strategy, state, None, None, temperature, None)
        parts.append((state[:, 3].copy(), state[:, 2] >= t.threshold, state[:, 4] > 0,
                      state[:, 5].copy()))
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


__all__ = ["SimulationResult", "histories", "play", "simulate", "states"]
