"""The compiled kernels: the one transition against the core, and states no game reaches."""

from __future__ import annotations

import random

import numpy as np
import pytest

import yatzy
from tests.solver.test_model import RULESETS, random_cards
from yatzy.core import rules
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.solver import Strategy, kernels
from yatzy.solver.kernels import NEG
from yatzy.solver.model import build_model


@pytest.mark.parametrize("ruleset", RULESETS, ids=str)
def test_fill_is_the_cores_transition(ruleset: Ruleset) -> None:
    """``kernels.fill`` (the solver's only statement of the scoring transition) gives
    what the core's own ``Scorecard.fill`` gives, on real scorecards, for every box."""
    model = build_model(ruleset)
    kt = model.keeps
    values = np.zeros((1 << model.boxes, model.y_count, model.threshold + 1))
    k = kernels.compile_tables(model.tables, values)
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
                points, extra, bonus, mask2, y2, u2 = kernels.fill(k, mask, y, u, roll, b)
                if box not in choices:
                    assert points == -1, (card, dice, box)
                    continue
                after = card.fill(box, choices[box], extra_yahtzee=extra_yahtzee)
                assert points == choices[box]
                assert extra == (ruleset.extra_yahtzee_points if extra_yahtzee else 0)
                assert points + extra + bonus == after.total - card.total, (card, dice, box)
                assert (mask2, y2, u2) == model.state_of(after), (card, dice, box)


@pytest.fixture(scope="module")
def scandinavian() -> Strategy:
    return yatzy.strategy(yatzy.ruleset("yatzy"))


def test_unreachable_states_hold_neg(scandinavian: Strategy) -> None:
    """States no game reaches hold the finite NEG (the kernels run with fastmath, which
    assumes no NaN): e.g. twos holding an odd sum, or a full Yatzy box with u above 0
    when nothing else is filled."""
    model, values = scandinavian.model, scandinavian.values
    assert not np.isnan(values).any()
    twos = 1 << model.ruleset.boxes.index("twos")
    assert values[twos, 0, 1] == NEG and values[twos, 0, 3] == NEG
    assert values[twos, 0, 2] > NEG / 2
    ybox = 1 << model.ruleset.boxes.index("yatzy")
    assert values[ybox, 0, 5] == NEG and values[ybox, 0, 0] > NEG / 2


def test_an_unreachable_successor_is_never_chosen(scandinavian: Strategy) -> None:
    """If a box led to states marked unreachable, every kernel treats it as no option:
    its values stay below NEG / 2 (so advice drops it), the other options keep their
    exact values, and the turn's value stays finite and does not grow."""
    model = scandinavian.model
    r = model.ruleset
    card = Scorecard.parse(r, "ones=3 sixes=24 chance=20")
    mask, y, u = model.state_of(card)
    box = r.boxes.index("two_pairs")
    poisoned = scandinavian.values.copy()
    poisoned[mask | 1 << box] = NEG
    t = model.tables
    weak = Strategy(model, poisoned, build_seconds=None, source="built")
    strong_turn, weak_turn = scandinavian.turn_tables(card), weak.turn_tables(card)
    abox, vals, keeps = strong_turn.abox, strong_turn.vals, strong_turn.keeps
    abox2, vals2, keeps2 = weak_turn.abox, weak_turn.vals, weak_turn.keeps
    assert abox.tolist() == abox2.tolist()
    i = abox.tolist().index(box)
    assert (vals2[i] < NEG / 2).all()
    others = [j for j in range(len(abox)) if j != i]
    assert np.array_equal(vals2[others], vals[others])
    assert np.isfinite(keeps2).all() and (keeps2 > NEG / 2).all() and (keeps2 <= keeps).all()
    # The same through advice: the box is gone, nothing else changes.
    for dice in ([2, 2, 5, 5, 6], [1, 2, 3, 4, 5], [4, 4, 4, 4, 4]):
        options = {o.action: o.value for o in scandinavian.advise_card(card, dice, 0)}
        left = {o.action: o.value for o in weak.advise_card(card, dice, 0)}
        assert yatzy.Score("two_pairs") in options
        assert left == {a: v for a, v in options.items() if a != yatzy.Score("two_pairs")}
    # And in the table build's kernel, for every upper sum of this mask.
    um = sum(1 << i for i, b in enumerate(model.upper) if mask >> b & 1)
    reachable = t.lane_of[um] >= 0

    def rebuilt(values: np.ndarray) -> np.ndarray:
        copy = values.copy()
        copy[mask, y] = 0.0
        jobs = np.array([mask], dtype=np.int32), np.array([y], dtype=np.int32)
        kernels.compile_tables(t, copy).solve(*jobs, 0, 1)
        return copy[mask, y]

    before, after = rebuilt(scandinavian.values), rebuilt(poisoned)
    assert (after[reachable] > NEG / 2).all() and (after[reachable] <= before[reachable]).all()
    assert after[u] < before[u]
    assert before[reachable] == pytest.approx(scandinavian.values[mask, y][reachable], abs=1e-9)
