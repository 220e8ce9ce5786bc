"""Two simple computer players: ``random`` and ``greedy``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

from yatzy.core import rules
from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.errors import N_
from yatzy.core.game import Game, check_game
from yatzy.core.scorecard import Scorecard

#: Rough mean points of each box under good play, used to decide where a poor roll hurts
#: least. A zero goes where it costs the least of these.
TYPICAL = {
    "ones": 2.1, "twos": 5.3, "threes": 8.6, "fours": 12.2, "fives": 15.7, "sixes": 19.2,
    "one_pair": 10.0, "two_pairs": 15.0, "three_of_a_kind": 12.0, "four_of_a_kind": 9.0,
    "small_straight": 9.0, "large_straight": 11.0, "full_house": 17.0, "chance": 22.0,
    "yatzy": 16.0, "yahtzee": 16.0,
    # Maxi Yatzy's own boxes (six dice, and rolls to save).
    "three_pairs": 15.0, "five_of_a_kind": 12.0, "full_straight": 10.0, "villa": 15.0,
    "tower": 15.0, "maxi_yatzy": 20.0,
}
#: The typical value of a box this table does not know (a ruleset's own box).
UNKNOWN_TYPICAL = 10.0


def typical(box: str) -> float:
    """The rough mean points of ``box`` (:data:`TYPICAL`)."""
    return TYPICAL.get(box, UNKNOWN_TYPICAL)


class RandomBot:
    """Rerolls a random choice of dice a random number of times, then fills a random
    allowed box."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game) -> Action:
        check_game(game)
        if game.dice is None:
            return Roll()
        n = game.ruleset.dice_count
        if game.rolls_left > 0 and self.rng.random() < 0.5:
            hold = tuple(i for i in range(n) if self.rng.random() < 0.5)
            if len(hold) < n:
                return Reroll(hold)
        return Score(self.rng.choice(sorted(game.choices())))


@lru_cache(maxsize=16)
def _outcomes(count: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every multiset of ``count`` dice with its probability."""
    result = []
    for faces in combinations_with_replacement(range(1, 7), count):
        ways = factorial(count)
        for face in set(faces):
            ways //= factorial(faces.count(face))
        result.append((faces, ways / 6**count))
    return tuple(result)


def _holds(dice: Dice) -> Iterator[tuple[int, ...]]:
    """Every set of positions to keep, at most one per multiset of kept faces."""
    seen: set[tuple[int, ...]] = set()
    n = len(dice)
    for mask in range((1 << n) - 1):
        hold = tuple(i for i in range(n) if mask >> i & 1)
        key = tuple(sorted(dice[i] for i in hold))
        if key not in seen:
            seen.add(key)
            yield hold


class GreedyBot:
    """Best points this turn: before a reroll it keeps the dice that give the highest
    expected value of its best box after one more roll; then it takes the box with the
    most points over that box's typical value."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def _value(self, game: Game, card: Scorecard, dice: tuple[int, ...]) -> float:
        options = rules.choices(game.ruleset, card, dice)
        earned = rules.earns_yahtzee_bonus(game.ruleset, card, dice)
        bonus = game.ruleset.extra_yahtzee_points if earned else 0
        return max(points - typical(box) / 2 for box, points in options.items()) + bonus

    def choose(self, game: Game) -> Action:
        check_game(game)
        if game.dice is None:
            return Roll()
        card = game.card
        dice = game.dice
        memo: dict[tuple[int, ...], float] = {}

        def value(faces: tuple[int, ...]) -> float:
            key = tuple(sorted(faces))
            if key not in memo:
                memo[key] = self._value(game, card, key)
            return memo[key]

        stay = value(tuple(dice))
        if game.rolls_left > 0:
            best_hold: tuple[int, ...] | None = None
            best = stay
            for hold in _holds(dice):
                kept = tuple(dice[i] for i in hold)
                expected = sum(
                    p * value(kept + faces) for faces, p in _outcomes(len(dice) - len(hold))
                )
                if expected > best + 1e-9:
                    best, best_hold = expected, hold
            if best_hold is not None:
                return Reroll(best_hold)
        options = game.choices()
        return Score(max(options, key=lambda b: (options[b] - typical(b) / 2, -typical(b))))


def register_all() -> None:
    from yatzy import bots

    bots.register("random", RandomBot, label=N_("Random"))
    bots.register("greedy", GreedyBot, label=N_("Greedy"))
