"""After a game: what every decision cost, against optimal solitaire play.

For each reroll and each box chosen, :func:`analyse` gives the option taken, the best
option, both values (expected final score of the player's card) and the points lost,
in the spirit of Verhoeff's Yahtzee Proficiency Test. Values are solitaire values: the
best play to maximise one's own expected score, whatever the others do.

>>> import yatzy
>>> r = yatzy.ruleset("yatzy", order="in_order")
>>> g = yatzy.new_game(r, ["Ann"], seed=1).roll(dice=[1, 1, 1, 2, 3]).score("ones")
>>> a = analyse(g, strategy(r, cache=False))
>>> a.decisions[0].chosen, a.decisions[0].best, round(a.decisions[0].loss, 4)
(Score(box='ones'), Reroll(hold=(0, 1, 2), dice=None), 0.9427)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.game import Game
from yatzy.core.scorecard import Scorecard
from yatzy.solver.policy import Option, Strategy, strategy, table_strategy
from yatzy.solver.saved_strategy import SavedStrategy


@dataclass(frozen=True)
class Decision:
    """One choice of a game, with its cost."""

    player: str
    #: Round (1 = the first turn of every player) and roll within the turn (1 = first).
    round: int
    roll: int
    dice: Dice
    rolls_left: int
    #: The player's scorecard before the decision.
    card: Scorecard
    #: The action taken (rerolls without their new dice) and the best one.
    chosen: Action
    best: Action
    chosen_value: float
    best_value: float

    @property
    def loss(self) -> float:
        """Expected points lost by this choice (0 for a best choice)."""
        return max(0.0, self.best_value - self.chosen_value)


@dataclass(frozen=True)
class PlayerSummary:
    """The totals of one player's decisions."""

    player: str
    decisions: int
    total_loss: float
    #: Decisions that lost more than 0.001 points.
    mistakes: int

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Analysis:
    """Every decision of a game and each player's totals."""

    decisions: tuple[Decision, ...]
    players: tuple[PlayerSummary, ...]
    #: Expected score of optimal play from the start, for scale.
    expected_score: float


def _kept(dice: Dice, action: Action) -> tuple[int, ...] | str:
    if isinstance(action, Reroll):
        return tuple(sorted(dice[i] for i in action.hold))
    assert isinstance(action, Score)
    return action.box


def _match(options: list[Option], dice: Dice, action: Action) -> Option:
    key = _kept(dice, action)
    for option in options:
        if _kept(dice, option.action) == key:
            return option
    raise ValueError(f"{action} is not among the options")  # pragma: no cover


def analyse(game: Game, solver: Strategy | SavedStrategy | None = None) -> Analysis:
    """Replay ``game`` (finished or not) and price every decision with ``solver``
    (default: the optimal strategy of the game's ruleset)."""
    solver = solver or strategy(game.ruleset)
    replay = game.at_start()
    decisions: list[Decision] = []
    for step in game.history:
        action = step.action
        if not isinstance(action, Roll):
            dice = replay.dice
            assert dice is not None
            options = solver.advise(replay)
            chosen = _match(options, dice, action)
            decisions.append(Decision(
                player=step.player,
                round=replay.round,
                roll=replay.rolls_used,
                dice=dice,
                rolls_left=replay.rolls_left,
                card=replay.card,
                chosen=chosen.action,
                best=options[0].action,
                chosen_value=chosen.value,
                best_value=options[0].value,
            ))
        replay = replay.apply(action, player=step.player)
    summaries = []
    for player in game.players:
        mine = [d for d in decisions if d.player == player]
        summaries.append(PlayerSummary(
            player=player,
            decisions=len(mine),
            total_loss=sum(d.loss for d in mine),
            mistakes=sum(d.loss > 1e-3 for d in mine),
        ))
    return Analysis(tuple(decisions), tuple(summaries), solver.expected_score)


@dataclass(frozen=True)
class WinChances:
    """Every player's chance of winning at one moment of a game."""

    #: How many turns had been played (0: the start; the number of turns: the end).
    turn: int
    #: The round of the turn about to start (the last round at the end).
    round: int
    #: Whose turn starts (``None`` at the end).
    player: str | None
    chances: dict[str, float]


def win_chance_history(game: Game, solver: Strategy | None = None, *,
                       progress: Callable[[int, int], None] | None = None
                       ) -> tuple[WinChances, ...]:
    """Every player's chance of winning at the start of every turn of ``game`` and at its
    end (or where it stands, when it is not over), as :meth:`Strategy.win_chances` gives
    them: the graph of a game, as a chess engine draws its evaluation.
    ``progress(done, total)`` is called after each point (the first ones take seconds).
    Not with saved rolls (:class:`~yatzy.solver.ChancesUnsupported`)."""
    solver = solver or table_strategy(game.ruleset)
    replay = game.at_start()
    positions = []
    for step in game.history:
        if isinstance(step.action, Roll) and replay.rolls_used == 0:
            positions.append(replay)
        replay = replay.apply(step.action, player=step.player)
    positions.append(replay)
    points = []
    for i, position in enumerate(positions):
        points.append(WinChances(position.turns_played, position.round,
                                 None if position.is_over else position.current_player,
                                 solver.win_chances(position)))
        if progress is not None:
            progress(i + 1, len(positions))
    return tuple(points)
