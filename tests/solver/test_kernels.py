"""The compiled kernels: the one transition against the core."""

from __future__ import annotations

import random

import pytest

from tests.solver.test_model import RULESETS, random_cards
from yatzy.core import rules
from yatzy.core.rulesets import Ruleset
from yatzy.solver import kernels
from yatzy.solver.model import build_model


@pytest.mark.parametrize("ruleset", RULESETS, ids=str)
def test_fill_is_the_cores_transition(ruleset: Ruleset) -> None:
    """``kernels.fill`` (the solver's only statement of the scoring transition) gives
    what the core's own ``Scorecard.fill`` gives, on real scorecards, for every box."""
    model = build_model(ruleset)
    kt = model.keeps
    t = model.tables
    rng = random.Random(5)
    for card in random_cards(ruleset, rng, 40):
        mask, y, u = model.state_of(card)
        for _ in range(4):
            dice = [rng.randint(1, 6) for _ in range(ruleset.dice_count)]
            if rng.random() < 0.5:
                dice = [dice[0]] * ruleset.dice_count
            roll = kt.roll_index(dice)
            choices = rules.choices(ruleset, card, dice)
            extra_yahtzee = rules.earns_yahtzee_bonus(ruleset, card, dice)
            for b, box in enumerate(ruleset.boxes):
                points, extra, bonus, mask2, y2, u2 = kernels.fill(t, mask, y, u, roll, b)
                if box not in choices:
                    assert points == -1, (card, dice, box)
                    continue
                after = card.fill(box, choices[box], extra_yahtzee=extra_yahtzee)
                assert points == choices[box]
                assert extra == (ruleset.extra_yahtzee_points if extra_yahtzee else 0)
                assert points + extra + bonus == after.total - card.total, (card, dice, box)
                assert (mask2, y2, u2) == model.state_of(after), (card, dice, box)
