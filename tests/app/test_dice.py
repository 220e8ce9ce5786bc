"""The dice roller: dice modes, seeds, and which actions carry dice."""

from __future__ import annotations

import pytest

import yatzy
from yatzy.app.dice import (
    DICE_MODES,
    check_action_dice,
    check_dice_mode,
    program_roll_off,
    starting_seed,
)
from yatzy.app.errors import BadDiceMode, DiceNeeded, DiceNotAllowed
from yatzy.core.actions import Reroll, Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.game import Game
from yatzy.core.seeded import MAX_SEED, SECRET_SEED, check_seed


def test_modes() -> None:
    assert DICE_MODES == ("auto", "manual")
    assert [check_dice_mode(m) for m in DICE_MODES] == ["auto", "manual"]
    for bad in ("Auto", "", None, 1):
        with pytest.raises(BadDiceMode, match="'auto' or 'manual'"):
            check_dice_mode(bad)


def test_seeds() -> None:
    assert starting_seed("auto", 0) == 0
    seeds = {starting_seed("auto", None) for _ in range(20)}
    # Secret seeds: 256 bits as hexadecimal text, never the same twice.
    assert len(seeds) == 20
    assert all(isinstance(s, str) and SECRET_SEED.fullmatch(s) and len(s) == 64
               for s in seeds)
    assert check_seed(starting_seed("auto", MAX_SEED)) == MAX_SEED
    assert starting_seed("manual", None) is None
    with pytest.raises(BadDiceMode, match="no seed"):
        starting_seed("manual", 3)


@pytest.mark.parametrize("action", [Roll(), Reroll((0,))])
def test_manual_needs_dice(action: Roll | Reroll) -> None:
    with pytest.raises(DiceNeeded):
        check_action_dice("manual", action)
    check_action_dice("auto", action)


@pytest.mark.parametrize("action", [Roll(Dice([1, 2, 3, 4, 5])), Reroll((0,), Dice([6] * 4))])
def test_auto_refuses_dice(action: Roll | Reroll) -> None:
    with pytest.raises(DiceNotAllowed):
        check_action_dice("auto", action)
    check_action_dice("manual", action)


def test_scores_never_carry_dice() -> None:
    check_action_dice("auto", Score("chance"))
    check_action_dice("manual", Score("chance"))


def test_program_roll_off_decides_the_start() -> None:
    rules = yatzy.ruleset("yatzy")
    players = ["Ann", "Bo", "Cy", "Di"]
    for _ in range(10):
        dice = program_roll_off(rules, players)
        assert dice is not None and len(dice) >= 4
        game = Game.start(rules, players, first_player="roll", roll_off_dice=dice)
        assert len(game.roll_offs) == len(dice)
    assert program_roll_off(rules, ["Solo"]) is None
