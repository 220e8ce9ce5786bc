"""The roll-off with real dice: who rolls next, asked of the core's own roll-off rule.

>>> import yatzy
>>> rules = yatzy.ruleset("yahtzee")
>>> next_roller(rules, ["Ann", "Bo"], [])
'Ann'
>>> next_roller(rules, ["Ann", "Bo"], [[6, 6, 6, 1, 1]])
'Bo'
>>> next_roller(rules, ["Ann", "Bo"], [[6, 6, 6, 1, 1], [6, 6, 6, 2, 1]]) is None
True
>>> next_roller(rules, ["Ann", "Bo", "Cy"], [[2] * 5, [2] * 5, [1] * 5])  # a tie: again
'Ann'
"""

from __future__ import annotations

from collections.abc import Sequence

from yatzy.core.errors import IllegalMove
from yatzy.core.game import roll_off
from yatzy.core.rulesets import Ruleset


def _falling_rolls(count: int) -> list[list[int]]:
    """Rolls of ``count`` dice with strictly falling sums, from all sixes to all ones."""
    rolls = []
    for total in range(6 * count, count - 1, -1):
        dice, left = [], total
        for i in range(count):
            face = min(6, left - (count - i - 1))
            dice.append(face)
            left -= face
        rolls.append(dice)
    return rolls


def next_roller(
    ruleset: Ruleset, players: Sequence[str], given: Sequence[Sequence[int]]
) -> str | None:
    """Who rolls next in the roll-off after the rolls ``given`` (in order), or ``None``
    when those rolls decide who starts.

    The core's :func:`~yatzy.core.game.roll_off` owns the rule; it is asked with the
    given rolls followed by made-up rolls of falling sums (which end any roll-off),
    and the player of the first made-up roll is the one to roll next.
    """
    try:
        roll_off(ruleset, players, seed=None, dice=given)
        return None
    except IllegalMove as error:
        if error.code != "roll_off_incomplete":
            raise
    pads = _falling_rolls(ruleset.dice_count)
    for extra in range(1, len(pads) + 1):
        try:
            _, rolls = roll_off(ruleset, players, seed=None, dice=[*given, *pads[:extra]])
        except IllegalMove as error:
            if error.code == "roll_off_incomplete":
                continue
            raise
        return rolls[len(given)].player
    raise IllegalMove("The roll-off cannot be decided", code="roll_off_incomplete")
