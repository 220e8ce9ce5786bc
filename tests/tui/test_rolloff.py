"""Who rolls next in a roll-off with real dice."""

from __future__ import annotations

import pytest

import yatzy
from yatzy.core.game import roll_off
from yatzy.tui.rolloff import _falling_rolls, next_roller

RULES = yatzy.ruleset("yahtzee")


def test_falling_rolls_have_falling_sums() -> None:
    sums = [sum(r) for r in _falling_rolls(5)]
    assert sums == list(range(30, 4, -1))
    assert all(1 <= d <= 6 for r in _falling_rolls(5) for d in r)


@pytest.mark.parametrize("seed", range(20))
def test_next_roller_follows_the_cores_roll_off(seed: int) -> None:
    players = ["Ann", "Bo", "Cy", "Di"]
    _, rolls = roll_off(RULES, players, seed=seed)
    given: list[list[int]] = []
    for roll in rolls:
        assert next_roller(RULES, players, given) == roll.player
        given.append(list(roll.dice))
    assert next_roller(RULES, players, given) is None
