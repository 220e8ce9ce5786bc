"""Maxi Yatzy without saved rolls (six dice, twenty boxes, an upper bonus at 84): the
solver's tables of games cut down to a few of its boxes against brute force, from every
kind of start. The whole table is built by ``yatzy solve`` (minutes), never here."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import pytest

import yatzy
from tests.solver.bruteforce import expected_final_score_by_multisets
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.solver.dp import solve
from yatzy.solver.keeps import FloatArray
from yatzy.solver.model import Model, build_model


def reduced_maxi(boxes: tuple[str, ...], upper: int, threshold: int, **options: Any
                 ) -> Ruleset:
    """Maxi Yatzy without saved rolls cut down to ``boxes``, the first ``upper`` of them
    the upper section, with the bonus at ``threshold``: as a start of the whole game
    with the other boxes filled and the upper sum ``threshold`` points short of it."""
    return dataclasses.replace(
        yatzy.ruleset("maxi_yatzy", saved_rolls=False, **options), boxes=boxes,
        upper_count=upper, upper_bonus_threshold=threshold)


#: The upper section alone: its bonus at 84 (past the five-dice rulesets' 63).
UPPER = reduced_maxi(("ones", "twos", "threes", "fours", "fives", "sixes"), 6, 84)
#: The six-dice boxes, the upper sum 18 points short of the bonus of 50.
LOWER = reduced_maxi(("sixes", "three_pairs", "villa", "tower", "full_straight",
                      "maxi_yatzy"), 1, 18, bonus="50_at_75")

_SOLVED: dict[Ruleset, tuple[Model, FloatArray]] = {}


def solved(ruleset: Ruleset) -> tuple[Model, FloatArray]:
    if ruleset not in _SOLVED:
        model = build_model(ruleset)
        _SOLVED[ruleset] = (model, solve(model))
    return _SOLVED[ruleset]


def solver_value(ruleset: Ruleset, card: Scorecard) -> float:
    model, values = solved(ruleset)
    mask, y, u = model.state_of(card)
    return card.total + float(values[mask, y, u])


def card(ruleset: Ruleset, **entries: int) -> Scorecard:
    return Scorecard(ruleset, tuple(entries.get(b) for b in ruleset.boxes))


def test_the_reduced_games_are_what_they_say() -> None:
    assert UPPER.dice_count == 6 and UPPER.upper_bonus_points == 100
    assert UPPER.upper_bonus_threshold > 63
    assert LOWER.upper_boxes == ("sixes",) and LOWER.upper_bonus_points == 50
    assert not UPPER.saved_rolls and not LOWER.saved_rolls


#: Upper cards with one box open, one of each kind of start: far from the bonus, just
#: within reach of it (only six of the open face makes it), halfway, and past it.
ONE_OPEN_UPPER = [
    card(UPPER, twos=12, threes=18, fours=24, fives=30, sixes=0),       # ones: hopeless
    card(UPPER, ones=6, twos=12, threes=18, fours=24, fives=30, ),      # sixes: past 84
    card(UPPER, ones=4, threes=15, fours=20, fives=25, sixes=18),       # twos: 2 short
]


@pytest.mark.parametrize("start", ONE_OPEN_UPPER, ids=str)
def test_one_upper_box_left_agrees_with_brute_force(start: Scorecard) -> None:
    brute = expected_final_score_by_multisets(UPPER)
    assert solver_value(UPPER, start) == pytest.approx(brute(start), abs=1e-9)


ONE_OPEN_LOWER = [
    card(LOWER, sixes=18, three_pairs=0, villa=33, tower=34, full_straight=21),
    card(LOWER, sixes=36, three_pairs=24, tower=0, full_straight=0, maxi_yatzy=0),
    card(LOWER, sixes=0, villa=9, tower=10, full_straight=21, maxi_yatzy=100),
]


@pytest.mark.parametrize("start", ONE_OPEN_LOWER, ids=str)
def test_one_lower_box_left_agrees_with_brute_force(start: Scorecard) -> None:
    brute = expected_final_score_by_multisets(LOWER)
    assert solver_value(LOWER, start) == pytest.approx(brute(start), abs=1e-9)


def test_two_boxes_left_agree_with_brute_force() -> None:
    # Maxi Yatzy and the full straight open: the brute force plays both turns.
    start = card(LOWER, sixes=12, three_pairs=0, villa=33, tower=34)
    brute = expected_final_score_by_multisets(LOWER)
    assert solver_value(LOWER, start) == pytest.approx(brute(start), abs=1e-9)
    # And the start of the second turn, whichever box the first filled.
    for box, points in (("maxi_yatzy", 0), ("maxi_yatzy", 100), ("full_straight", 0),
                        ("full_straight", 21)):
        after = start.fill(box, points)
        assert solver_value(LOWER, after) == pytest.approx(brute(after), abs=1e-9)


#: A folder holding tables of Maxi Yatzy that ``yatzy solve`` built: when set, the test
#: below checks them (the suite never builds one: minutes, about 1.4 GB).
TABLES = "YATZY_MAXI_TABLES"


def upper_entries(ruleset: Ruleset, filled: list[str], total: int) -> dict[str, int] | None:
    """Points for the ``filled`` upper boxes that add up to ``total`` (``None`` when no
    points do), each a multiple of its face up to six of it."""
    face = {b: ruleset.boxes.index(b) + 1 for b in filled}
    ways: dict[int, dict[str, int]] = {0: {}}
    for b in filled:
        ways = {s + face[b] * k: {**w, b: face[b] * k} for s, w in ways.items() for k in range(7)}
    return ways.get(total)


@pytest.mark.parametrize("options", [
    # The free order's tables take minutes and 1.4 GB to build: checked where they are
    # built (the ``built_tables`` mark: deselected unless $YATZY_MAXI_TABLES names them).
    pytest.param({}, marks=pytest.mark.built_tables),
    pytest.param({"bonus": "50_at_75"}, marks=pytest.mark.built_tables),
    # In order, the table is small: built here, in every run.
    {"order": "in_order"},
], ids=str)
def test_a_built_table_agrees_with_brute_force(options: dict[str, str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every box left alone, from upper sums far from the bonus to past it, and pairs of
    boxes left: the built table against brute force."""
    from yatzy.solver import artifacts, policy

    rules = yatzy.ruleset("maxi_yatzy", saved_rolls=False, **options)
    monkeypatch.setenv(artifacts.ENV_VAR, os.environ.get(TABLES, str(tmp_path)))
    # The table is this test's: no other test of the process finds it in memory.
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    s = policy.strategy(rules, build=rules.order == "in_order")
    brute = expected_final_score_by_multisets(rules)
    upper = list(rules.upper_boxes)
    lowest = {b: min(rules.possible_points(b)) for b in rules.lower_boxes}
    open_sets = [[b] for b in rules.boxes] + [
        ["sixes", "maxi_yatzy"], ["full_straight", "chance"], ["villa", "tower"]]
    checked = 0
    for open_boxes in open_sets:
        for total in (0, 60, 75, 80, 84):
            entries = upper_entries(rules, [b for b in upper if b not in open_boxes], total)
            if entries is None:
                continue
            entries |= {b: p for b, p in lowest.items() if b not in open_boxes}
            start = card(rules, **entries)
            if rules.order != "free":
                try:
                    s.state_of(start)
                except yatzy.RulesError:  # the play order never leaves these boxes open
                    continue
            assert s.value(start) == pytest.approx(brute(start), abs=1e-4), str(start)
            checked += 1
    # Free order: every box and pair above; in order, only the last boxes can be open.
    assert checked >= (90 if rules.order == "free" else 4)
