"""Helpers for tests that need whole games with known scores (real dice, each player
filling the first open box of the card every turn) and a clock that ticks."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from yatzy.app import GameService, SavedGame, Seat
from yatzy.core.actions import Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.rulesets import Ruleset

START = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


class TickingClock:
    """A clock that moves on one second each time it is read."""

    def __init__(self) -> None:
        self._ticks = itertools.count()

    def __call__(self) -> datetime:
        return START + timedelta(seconds=next(self._ticks))


#: ``dice_for(player, box)``: the dice a player rolls for the box they fill next.
DicePlan = Callable[[str, str], Sequence[int]]


def same_dice(dice: Sequence[int]) -> DicePlan:
    """Everyone rolls ``dice`` every turn."""
    return lambda player, box: dice


def per_player(plans: dict[str, DicePlan]) -> DicePlan:
    """A plan for each player."""
    return lambda player, box: plans[player](player, box)


def upper_kind_then(dice: Sequence[int]) -> DicePlan:
    """Five of the box's face in the upper section (ones: 1 1 1 1 1, …), ``dice`` below:
    reaches the upper bonus (5 + 10 + … + 30 = 105)."""
    faces = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
    return lambda player, box: [faces[box]] * 5 if box in faces else dice


def play_turns(service: GameService, saved: SavedGame, plan: DicePlan, turns: int) -> SavedGame:
    """Play ``turns`` turns: roll ``plan``'s dice, fill the first open box."""
    for _ in range(turns):
        game = saved.game
        player = game.current_player
        box = game.card.open_boxes[0]
        saved = service.apply(saved.id, Roll(Dice(plan(player, box))))
        saved = service.apply(saved.id, Score(box))
    return saved


def play_game(
    service: GameService, rules: Ruleset, seats: Sequence[Seat | str], plan: DicePlan
) -> SavedGame:
    """A whole manual-dice game played by ``plan``."""
    saved = service.create(rules, seats, dice_mode="manual")
    turns = len(rules.boxes) * len(saved.seats)
    saved = play_turns(service, saved, plan, turns)
    assert saved.finished
    return saved
