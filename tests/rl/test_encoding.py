"""Action numbers and action masks against the core's own rules."""

from __future__ import annotations

import random

import numpy as np
import pytest

import yatzy
from yatzy.core.actions import Reroll, Roll, Score
from yatzy.core.errors import ErrorCode, IllegalMove, UnknownBox
from yatzy.core.game import Game
from yatzy.rl.encoding import Layout, chosen_value, regret
from yatzy.rl.play import advance

RULESETS = [
    yatzy.ruleset("yatzy"),
    yatzy.ruleset("yatzy", order="in_order"),
    yatzy.ruleset("yatzy", order="upper_first", rolls=2),
    yatzy.ruleset("yahtzee"),
    yatzy.ruleset("yahtzee", joker="gated"),
    yatzy.ruleset("yahtzee", joker="free", upper_first=True),
    yatzy.ruleset("yahtzee", joker="none", yahtzee_bonus=False),
]


def test_every_action_number_round_trips() -> None:
    layout = Layout(yatzy.ruleset("yahtzee"))
    assert layout.action_count == 31 + 13
    for index in range(layout.action_count):
        assert layout.to_index(layout.to_action(index)) == index
    assert layout.to_action(0) == Reroll(())
    assert layout.to_action(30) == Reroll((1, 2, 3, 4))
    assert layout.to_action(31) == Score("ones")
    assert layout.to_index(Reroll((4, 0))) == 0b10001


@pytest.mark.parametrize("bad", [-1, 44, 2.0, True, "3", None])
def test_bad_action_numbers_are_refused(bad: object) -> None:
    with pytest.raises(IllegalMove) as info:
        Layout(yatzy.ruleset("yahtzee")).to_action(bad)
    assert info.value.code is ErrorCode.UNKNOWN_ACTION


def test_actions_without_a_number_are_refused() -> None:
    layout = Layout(yatzy.ruleset("yatzy"))
    for action in (Roll(), Reroll((0, 1, 2, 3, 4)), Reroll((0, 0)), Reroll((5,)),
                   Reroll((True,))):
        with pytest.raises(IllegalMove, match="no action number"):
            layout.to_index(action)
    with pytest.raises(UnknownBox):
        layout.to_index(Score("yahtzee"))


def random_positions(rules: yatzy.Ruleset, count: int, seed: int) -> list[Game]:
    """Positions of random games: after every action of each game."""
    rng = random.Random(seed)
    games = []
    for k in range(count):
        g = yatzy.new_game(rules, ["Ann"], seed=seed * 1000 + k).roll()
        while not g.is_over:
            games.append(g)
            actions = [a for a in g.legal_actions() if not isinstance(a, Roll)]
            g = g.apply(rng.choice(actions))
            if g.dice is None and not g.is_over:
                g = g.roll()
        games.append(g)
    return games


def joker_positions(rules: yatzy.Ruleset) -> list[Game]:
    """Five of a kind with the Yahtzee box filled (50 or 0), its upper box open or not
    (with the upper section first: filled, as it must be by then)."""
    games = []
    upper_first = rules.order == "upper_first"
    for yahtzee_dice in ([6, 6, 6, 6, 6], [1, 2, 3, 3, 5]):
        for fill_fives in (False, True) if not upper_first else (True,):
            g = Game.start(rules, ["Ann"], seed=1)
            for box in rules.upper_boxes if upper_first else ("fives",) * fill_fives:
                g = g.roll([5, 5, 1, 2, 3]).score(box)
            g = g.roll(yahtzee_dice).score(rules.yahtzee_box)
            games.append(g.roll([5, 5, 5, 5, 5]))
    return games


@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_the_mask_is_what_the_core_allows(rules: yatzy.Ruleset) -> None:
    layout = Layout(rules)
    games = random_positions(rules, 4, seed=len(str(rules)))
    if rules.name == "yahtzee":
        jokers = joker_positions(rules)
        assert all(g.joker for g in jokers) == (rules.joker != "none")
        if rules.joker == "forced" and rules.order == "free":  # Fives must take them
            assert [g.choices() for g in jokers[:1]] == [{"fives": 25}]
        games += jokers
    for g in games:
        mask = layout.mask(g)
        assert len(mask) == layout.action_count
        boxes = {b for b, m in zip(rules.boxes, mask[layout.keep_count:], strict=True) if m}
        assert boxes == set(g.choices())
        assert all(m == (1 if g.rolls_left > 0 and not g.is_over else 0)
                   for m in mask[:layout.keep_count])
        # Every action the mask allows is one the core takes, and no other is.
        for index in range(layout.action_count):
            if mask[index]:
                advance(layout, g, index, None)
            else:
                with pytest.raises(IllegalMove):
                    advance(layout, g, index, None)


def test_observations_lie_in_their_space() -> None:
    for rules in RULESETS:
        layout = Layout(rules)
        space = layout.observation_space()
        flat = layout.flat_space(3)
        for g in random_positions(rules, 1, seed=3):
            obs = layout.observe(g, g.card, layout.mask(g))
            assert space.contains(obs), (rules, g)
            assert flat.contains(layout.flatten(g, g.card, [g.card.total, 0, 0]))
        assert obs["filled"].all() and not obs["action_mask"].any()


def test_the_flat_fields_cover_the_vector() -> None:
    layout = Layout(yatzy.ruleset("yatzy"))
    fields = layout.flat_fields(2)
    assert fields["dice"] == slice(0, 5)
    assert fields["totals"].stop == layout.flat_space(2).shape[0] == 5 + 1 + 15 + 15 + 3 + 2
    g = yatzy.new_game(layout.ruleset, ["Ann"], seed=1).roll([6, 6, 6, 6, 6]).score("sixes")
    g = g.roll([1, 1, 2, 2, 3])
    vector = layout.flatten(g, g.card, [30, 7])
    assert vector[fields["dice"]].tolist() == [1, 1, 2, 2, 3]
    assert vector[fields["rolls_left"]].tolist() == [2]
    assert vector[fields["scores"]].tolist()[5] == 30
    assert vector[fields["upper_sum"]].tolist() == [30]
    assert vector[fields["totals"]].tolist() == [30, 7]


def test_a_layout_needs_a_ruleset_and_takes_numpy_numbers() -> None:
    with pytest.raises(IllegalMove) as info:
        Layout("yatzy")  # type: ignore[arg-type]
    assert info.value.code is ErrorCode.NOT_A_RULESET
    layout = Layout(yatzy.ruleset("yatzy"))
    assert layout.to_action(np.array(31)) == layout.to_action(np.int8(31)) == Score("ones")
    assert repr(layout) == "<Layout ruleset('yatzy') actions=46>"


def test_the_value_of_an_action_the_solver_does_not_list_is_refused() -> None:
    strategy = yatzy.strategy(yatzy.ruleset("yatzy"))
    g = yatzy.new_game(strategy.ruleset, ["Ann"], seed=1).roll([1, 2, 3, 4, 5])
    options = strategy.advise(g)
    assert regret(options, g.dice, Score("small_straight")) == 0.0
    with pytest.raises(IllegalMove, match="not a legal action"):
        chosen_value(options, g.dice, Score("yahtzee"))
    last = g.reroll([0]).reroll([0])
    with pytest.raises(IllegalMove, match="not a legal action"):
        chosen_value(strategy.advise(last), last.dice, Reroll((0,)))
