"""The solver's rule tables agree with the core's rules on real scorecards."""

from __future__ import annotations

import random

import numpy as np
import pytest

import yatzy
from tests.solver.test_dp import TINY
from yatzy.core import rules
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.solver.keeps import keep_tables
from yatzy.solver.model import UnreachableCard, build_model, order_tables

RULESETS = [
    yatzy.ruleset("yatzy"),
    yatzy.ruleset("yatzy", order="in_order"),
    yatzy.ruleset("yatzy", order="upper_first"),
    yatzy.ruleset("yahtzee"),
    yatzy.ruleset("yahtzee", joker="gated"),
    yatzy.ruleset("yahtzee", joker="free"),
    yatzy.ruleset("yahtzee", joker="none", yahtzee_bonus=False),
    yatzy.ruleset("yahtzee", upper_first=True),
]


def random_cards(ruleset: Ruleset, rng: random.Random, count: int) -> list[Scorecard]:
    """Scorecards of games played with random dice and random legal boxes."""
    cards = []
    for _ in range(count):
        card = Scorecard.empty(ruleset)
        for _ in range(rng.randrange(len(ruleset.boxes))):
            dice = [rng.randint(1, 6) for _ in range(ruleset.dice_count)]
            if rng.random() < 0.2:
                dice = [dice[0]] * ruleset.dice_count
            options = rules.choices(ruleset, card, dice)
            box = rng.choice(sorted(options))
            card = card.fill(box, options[box],
                             extra_yahtzee=rules.earns_yahtzee_bonus(ruleset, card, dice))
        cards.append(card)
    return cards


@pytest.mark.parametrize("ruleset", RULESETS, ids=str)
def test_tables_agree_with_the_core(ruleset: Ruleset) -> None:
    model = build_model(ruleset)
    kt = keep_tables(ruleset.dice_count)
    rng = random.Random(4)
    for card in random_cards(ruleset, rng, 60):
        mask, y, u = model.state_of(card)
        assert mask == sum(1 << i for i, v in enumerate(card.entries) if v is not None)
        five = [6] * ruleset.dice_count
        assert y == int(rules.earns_yahtzee_bonus(ruleset, card, five) and model.y_count > 1)
        assert u == min(card.upper_sum, 63)
        allowed = {b for i, b in enumerate(ruleset.boxes) if model.allowed[mask] >> i & 1}
        assert allowed == set(rules.allowed_by_order(ruleset, card))
        for r in [*rng.sample(range(kt.roll_count), 10), *model.five_rolls.tolist()]:
            dice = kt.faces(r)
            expected = rules.choices(ruleset, card, dice)
            if r in model.five_rolls:
                f = dice[0] - 1
                row = model.five_points[mask, f]
                extra = model.extra[y, f]
            else:
                row = [p if b in allowed else -1
                       for b, p in zip(ruleset.boxes, model.score[r], strict=True)]
                extra = 0
            got = {b: int(p) for b, p in zip(ruleset.boxes, row, strict=True) if p >= 0}
            assert got == expected, (card, dice)
            bonus = rules.earns_yahtzee_bonus(ruleset, card, dice)
            assert extra == (ruleset.extra_yahtzee_points if bonus else 0)


def test_unreachable_cards_are_refused() -> None:
    model = build_model(yatzy.ruleset("yatzy"))
    r = model.ruleset
    with pytest.raises(UnreachableCard, match="Twos cannot hold 3 points") as refused:
        model.state_of(Scorecard.empty(r).fill("twos", 3))
    assert refused.value.params == {"box": "twos"}
    # The first box that cannot hold its points is named.
    with pytest.raises(UnreachableCard, match="Twos cannot hold 3 points"):
        model.state_of(Scorecard.empty(r).fill("fours", 4).fill("twos", 3).fill("fives", 1))
    with pytest.raises(UnreachableCard, match="Yatzy cannot hold 40"):
        model.state_of(Scorecard.empty(r).fill("yatzy", 40))
    in_order = build_model(yatzy.ruleset("yatzy", order="in_order"))
    with pytest.raises(UnreachableCard, match="play order"):
        in_order.state_of(Scorecard.parse(in_order.ruleset, "chance=20"))
    # The play order is checked before the points.
    with pytest.raises(UnreachableCard, match="play order"):
        in_order.state_of(Scorecard.empty(in_order.ruleset).fill("twos", 3))
    with pytest.raises(UnreachableCard, match="Twos cannot hold 3 points"):
        in_order.state_of(Scorecard.empty(in_order.ruleset).fill("ones", 1).fill("twos", 3))
    with pytest.raises(yatzy.RulesError, match="scorecard is for"):
        model.state_of(Scorecard.empty(yatzy.ruleset("yahtzee")))


def test_upper_sum_is_capped_and_hopeless_sums_share_a_lane() -> None:
    model = build_model(yatzy.ruleset("yatzy"))
    card = Scorecard.parse(model.ruleset, "sixes=30 fives=25 fours=20")
    assert model.state_of(card)[2] == 63
    # With only ones open, 55 and 50 cannot reach 63: both are in the hopeless lane 0.
    um = model.upper_mask(0b111110)
    assert model.lane_of[um, 55] == model.lane_of[um, 50] == 0
    assert model.lane_of[um, 60] > 0


@pytest.mark.parametrize("ruleset", RULESETS, ids=str)
def test_joker_boxes_are_among_the_boxes_the_order_allows(ruleset: Ruleset) -> None:
    """The kernels skip the boxes the play order forbids, five of a kind included: the
    core's Joker rules only ever choose among the boxes the order allows."""
    model = build_model(ruleset)
    bits = (model.allowed[:, None] >> np.arange(model.boxes)[None, :]) & 1
    assert not ((model.five_points >= 0) & (bits[:, None, :] == 0)).any()


#: Rulesets with few reachable masks, so that every one of them is checked.
FEW_MASKS = {
    **TINY,
    "yatzy, upper first": yatzy.ruleset("yatzy", order="upper_first"),
    "yatzy, in order": yatzy.ruleset("yatzy", order="in_order"),
    "yahtzee, gated, upper first": yatzy.ruleset("yahtzee", joker="gated", upper_first=True),
}


@pytest.mark.parametrize("ruleset", FEW_MASKS.values(), ids=FEW_MASKS.keys())
def test_order_tables_are_the_core_rules_on_every_mask(ruleset: Ruleset) -> None:
    """order_tables against the core's choices of five of a kind of each face, asked
    one face at a time on every mask a game reaches (walked with the core alone)."""
    allowed, five_points = order_tables(ruleset)
    nb = len(ruleset.boxes)
    assert allowed.dtype == np.int64 and allowed.shape == (1 << nb,)
    assert five_points.dtype == np.int8 and five_points.shape == (1 << nb, 6, nb)
    want_allowed = np.zeros_like(allowed)
    want_points = np.full_like(five_points, -1)
    todo, seen = [0], {0}
    while todo:
        mask = todo.pop()
        if mask == (1 << nb) - 1:
            continue
        card = Scorecard(ruleset, tuple(0 if mask >> i & 1 else None for i in range(nb)))
        for box in rules.allowed_by_order(ruleset, card):
            b = ruleset.boxes.index(box)
            want_allowed[mask] |= 1 << b
            if mask | 1 << b not in seen:
                seen.add(mask | 1 << b)
                todo.append(mask | 1 << b)
        for f in range(6):
            for box, points in rules.choices(ruleset, card, [f + 1] * ruleset.dice_count).items():
                want_points[mask, f, ruleset.boxes.index(box)] = points
    assert np.array_equal(allowed, want_allowed)
    assert np.array_equal(five_points, want_points)
