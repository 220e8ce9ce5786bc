"""Computer players built on the exact solver: ``easy``, ``medium``, ``hard`` and
``optimal``.

``optimal`` always takes the option with the highest expected final score. The weaker
levels make human-like mistakes: each choice is drawn from a softmax over the values of
every legal option, ``P(option) ∝ exp(value / temperature)`` (temperature in points), so
near-equal options are confused often and costly blunders are rare. Mean solitaire
scores, measured with ``yatzy simulate -n 100000 --seed 1``:

=========  ===========  ========================  =====================
level      temperature  Scandinavian Yatzy        Yahtzee (forced Joker)
=========  ===========  ========================  =====================
easy       2.0          189.5                     205.1
medium     1.0          222.4                     234.8
hard       0.5          239.8                     249.3
optimal    0            248.44 (exact)            254.59 (exact)
=========  ===========  ========================  =====================

(docs/solver.md has the measured table.)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from yatzy.core.actions import Action
from yatzy.core.errors import N_, ErrorCode, IllegalMove, YatzyError
from yatzy.core.game import Game, check_game
from yatzy.core.rulesets import Ruleset

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from yatzy.solver.simulate import SimulationResult
    from yatzy.solver.winning import WinPlanner

# The solver (numpy and its compiled loops) is imported when a level first plays, not
# when the levels are registered: listing the computer players must stay cheap.

#: Softmax temperature (points) of each solver level, weakest first.
LEVELS: dict[str, float] = {"easy": 2.0, "medium": 1.0, "hard": 0.5, "optimal": 0.0}
#: The levels' names as people read them (translated by the front ends).
LABELS: dict[str, str] = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard"),
                          "optimal": N_("Optimal"), "winner": N_("Winner")}


class SolverBot:
    """A player that ranks options with the exact solver and picks one by softmax
    (``temperature`` 0: always the best)."""

    def __init__(self, name: str, temperature: float, rng: random.Random) -> None:
        self.name = name
        self.temperature = temperature
        self.rng = rng

    def __repr__(self) -> str:
        return f"<SolverBot {self.name} temperature={self.temperature}>"

    def choose(self, game: Game) -> Action:
        from yatzy.solver import strategy

        options = strategy(check_game(game).ruleset).advise(game)
        if not options:
            raise IllegalMove("The game is over", code=ErrorCode.GAME_OVER)
        if self.temperature <= 0 or len(options) == 1:
            return options[0].action
        best = options[0].value
        weights = [math.exp((o.value - best) / self.temperature) for o in options]
        return self.rng.choices(options, weights)[0].action


class WinnerBot:
    """``winner``: with opponents, the option with the largest expected share of the win
    (a shared first place counting 1/k), exact within the turn, assuming the others play
    for expected score (:class:`yatzy.solver.winning.WinPlanner`); solitaire it plays
    like ``optimal``. Its first decision in a process maps the table of the points still
    to come from its file (about 220 MB, shared by every process), or builds and saves
    it when there is none (7 to 14 s)."""

    name = "winner"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __repr__(self) -> str:
        return "<WinnerBot>"

    def choose(self, game: Game) -> Action:
        return _planner(check_game(game).ruleset).best(game).action


def _planner(ruleset: Ruleset) -> WinPlanner:
    """One planner per ruleset and process (it remembers the turn it planned)."""
    from yatzy.solver.policy import table_strategy
    from yatzy.solver.winning import WinPlanner

    s = table_strategy(ruleset)
    planner = _PLANNERS.get(ruleset)
    if planner is None or planner.strategy is not s:
        planner = _PLANNERS[ruleset] = WinPlanner(s)
    return planner


_PLANNERS: dict[Ruleset, WinPlanner] = {}


def prepare(name: str, ruleset: Ruleset) -> None:
    """Build what level ``name`` needs before its first move in ``ruleset``: the
    solver's table, and for ``winner`` the table of the points still to come (mapped
    from its file in well under a second; built and saved there in 7 to 14 s by the
    first process that lacks it), so that a caller can show that it is working."""
    from yatzy.solver import strategy

    if name == "winner":
        _ = _planner(ruleset).table
    elif name in LEVELS:
        strategy(ruleset)


#: The levels :func:`play_seated` plays by the solver's compiled loops.
COMPILED_LEVELS = frozenset({"optimal", "winner"})


def plays_compiled(ruleset: Ruleset, levels: Sequence[str]) -> bool:
    """Whether :func:`play_seated` plays a game of ``levels`` (in any seats) under
    ``ruleset``: each ``optimal`` or ``winner``, ``winner`` at most once (its play depends
    on the others', theirs not on anybody's), and the solver's compiled part there and
    playing ``ruleset`` from a value table per turn-start state (no saved rolls:
    :func:`~yatzy.solver.check_chances`; ``winner`` too, when it sits)."""
    from yatzy import solver

    if (not set(levels) <= COMPILED_LEVELS or list(levels).count("winner") > 1
            or not solver.available()):
        return False
    try:
        solver.check_winner(ruleset) if "winner" in levels else solver.check_chances(ruleset)
    except YatzyError:
        return False
    return True


def play_seated(ruleset: Ruleset, faces: npt.NDArray[np.int8],
                seatings: Sequence[Sequence[str]]) -> npt.NDArray[np.int64]:
    """Games of the solver's levels on given dice, by the compiled loops, with the very
    plays of their bots (:class:`SolverBot` at temperature 0, :class:`WinnerBot`): for
    every deal ``d`` and seating ``i`` (the level in each seat, seat 0 first to play; see
    :func:`plays_compiled`), the final totals by seat, ``totals[d, i, seat]``.

    ``faces[d, seat, turn, roll, die]``: the dice of seat ``seat`` in deal ``d``, whoever
    sits there (as :func:`yatzy.solver.simulate.play` takes them: a reroll takes the
    first dice of its row). ``optimal`` plays each seat's dice once per deal, whatever
    the seating; ``winner`` plays against the others' states at each of its turns."""
    import numpy as np

    from yatzy.solver.policy import table_strategy
    from yatzy.solver.simulate import histories
    from yatzy.solver.winning import play_winner, remaining_table

    deals, k = faces.shape[:2]
    s = table_strategy(ruleset)
    nb = s.model.boxes
    flat = faces.reshape(deals * k, *faces.shape[2:])
    seen = histories(s, flat).reshape(deals, k, nb + 1, 4)
    totals = np.empty((deals, len(seatings), k), dtype=np.int64)
    for i, levels in enumerate(seatings):
        totals[:, i, :] = seen[:, :, nb, 3]
        if "winner" in levels:
            me = list(levels).index("winner")
            others = [seat for seat in range(k) if seat != me]
            totals[:, i, me] = play_winner(s, remaining_table(s), faces[:, me],
                                           seen[:, others], [int(o < me) for o in others])
    return totals


def _factory(name: str, temperature: float) -> Callable[[random.Random], SolverBot]:
    def make(rng: random.Random) -> SolverBot:
        return SolverBot(name, temperature, rng)

    return make


def register_all() -> None:
    """Register the solver's levels; without its compiled part, as levels that cannot
    play here (refused with :class:`~yatzy.solver.SolverMissing`)."""
    from yatzy import bots, solver

    if not solver.available():
        for name in (*LEVELS, "winner"):
            bots.register_unavailable(name, solver.SolverMissing, label=LABELS[name])
        return
    for name, temperature in LEVELS.items():
        bots.register(name, _factory(name, temperature), plays=solver.check_ready,
                      label=LABELS[name])
    bots.register("winner", WinnerBot, plays=solver.check_winner, label=LABELS["winner"])


def simulate_level(name: str, ruleset: Ruleset, games: int, *, seed: int = 0
                   ) -> SimulationResult:
    """Solitaire games of the bot called ``name``: the solver's levels on the fast path
    (:func:`yatzy.solver.simulate.simulate`; with saved rolls ``optimal`` only, by
    :func:`yatzy.solver.saved.simulate_saved` on the table ``yatzy solve`` built), any
    other bot in real games (much slower: hundreds of games a second), seeded from
    ``seed``."""
    import numpy as np

    from yatzy.solver.policy import table_strategy
    from yatzy.solver.simulate import SimulationResult, check_run, simulate

    if name == "optimal" and ruleset.saved_rolls:
        from yatzy.solver.policy import saved_strategy
        from yatzy.solver.saved import simulate_saved

        return simulate_saved(saved_strategy(ruleset).solution, games, seed=seed,
                              player=name)
    if name in LEVELS and not ruleset.saved_rolls:
        return simulate(table_strategy(ruleset), games, seed=seed, temperature=LEVELS[name],
                        player=name)
    from yatzy import bots
    from yatzy.core.scorecard import Scorecard

    check_run(games)
    seeds = random.Random(seed)
    start = time.perf_counter()
    cards: list[Scorecard] = []
    for _ in range(games):
        game = Game.start(ruleset, ["cpu"], seed=seeds.randrange(2**53))
        bot = bots.make_bot(name, random.Random(seeds.randrange(2**63)))
        while not game.is_over:
            game = bots.play_turn(game, bot)
        cards.append(game.card)
    ybox = ruleset.yahtzee_box
    return SimulationResult(
        player=name,
        ruleset_name=str(ruleset),
        seed=seed,
        seconds=time.perf_counter() - start,
        scores=np.array([c.total for c in cards], dtype=np.int64),
        upper_bonus=np.array([c.upper_bonus > 0 for c in cards]),
        yahtzee=np.array([(c[ybox] or 0) > 0 for c in cards]),
        extra_yahtzees=np.array([c.yahtzee_bonus_count for c in cards], dtype=np.int64),
    )
