"""The backward induction: tiny games against brute force, and the published values."""

from __future__ import annotations

import dataclasses
import platform
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import yatzy
from tests.solver.bruteforce import expected_final_score
from yatzy.core.rulesets import UPPER_BOXES, Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.solver.dp import solve, state_count
from yatzy.solver.kernels import NEG, WIDE_BUILD
from yatzy.solver.model import build_model


def reduced(name: str, boxes: tuple[str, ...], dice: int, *, rolls: int = 3,
            threshold: int = 63, **options: Any) -> Ruleset:
    """A real ruleset cut down to ``boxes`` and ``dice`` dice, for brute force."""
    return dataclasses.replace(
        yatzy.ruleset(name, **options), boxes=boxes, dice_count=dice, rolls=rolls,
        upper_bonus_threshold=threshold,
    )


U = UPPER_BOXES
TINY = {
    "2 dice, bonus, free": reduced("yatzy", ("ones", "twos", "chance"), 2, threshold=6),
    "2 dice, in order": reduced("yatzy", ("ones", "twos", "chance"), 2, threshold=6,
                                order="in_order"),
    "2 dice, 1 roll": reduced("yatzy", ("ones", "twos", "chance"), 2, rolls=1, threshold=6),
    "3 dice, pairs": reduced("yatzy", ("twos", "one_pair", "yatzy"), 3, rolls=2, threshold=4),
    "1 die, upper first": reduced("yatzy", (*U, "chance", "yatzy"), 1, threshold=10,
                                  order="upper_first"),
    "Joker gated": reduced("yahtzee", (*U, "full_house", "yahtzee"), 1, rolls=2, threshold=8,
                           joker="gated"),
    "Joker forced": reduced("yahtzee", (*U, "full_house", "yahtzee"), 1, rolls=1,
                            threshold=8, joker="forced"),
    "Joker free": reduced("yahtzee", (*U, "large_straight", "yahtzee"), 1, rolls=1,
                          threshold=8, joker="free"),
    "no Joker": reduced("yahtzee", (*U, "yahtzee"), 1, rolls=2, threshold=8, joker="none"),
    "Joker gated, upper first": reduced("yahtzee", (*U, "full_house", "yahtzee"), 1,
                                        rolls=2, threshold=8, joker="gated", upper_first=True),
    "2 dice, forced": reduced("yahtzee", ("fives", "full_house", "yahtzee"), 2, threshold=8,
                              joker="forced"),
    "2 dice, forced, no bonus": reduced("yahtzee", ("fives", "full_house", "yahtzee"), 2,
                                        threshold=8, joker="forced", yahtzee_bonus=False),
    "2 dice, free": reduced("yahtzee", ("fives", "three_of_a_kind", "yahtzee"), 2,
                            threshold=8, joker="free"),
}


@pytest.mark.parametrize("ruleset", TINY.values(), ids=TINY.keys())
def test_tiny_games_agree_with_brute_force(ruleset: Ruleset) -> None:
    model = build_model(ruleset)
    values = solve(model)
    brute = expected_final_score(ruleset)
    assert values[0, 0, 0] == pytest.approx(brute(Scorecard.empty(ruleset)), abs=1e-9)
    # Every reachable state after one box, too.
    card = Scorecard.empty(ruleset)
    for box in ruleset.boxes:
        for points in sorted({ruleset.score(box, d) for d in _all_dice(ruleset)}):
            filled = card.fill(box, points)
            try:
                mask, y, u = model.state_of(filled)
            except yatzy.RulesError:
                continue
            assert filled.total + values[mask, y, u] == pytest.approx(brute(filled), abs=1e-9)


def _all_dice(ruleset: Ruleset) -> list[tuple[int, ...]]:
    from itertools import product

    return list(product(range(1, 7), repeat=ruleset.dice_count))


#: Exact values at the start of a game, published (see docs/solver.md) or, for the two
#: marked "ours", found by this solver.
KNOWN = {
    "yatzy free": (("yatzy", {"order": "free"}), 248.4399894),
    "yatzy in order": (("yatzy", {"order": "in_order"}), 122.5585274),
    "yatzy upper first": (("yatzy", {"order": "upper_first"}), 204.8723428),
    "yahtzee gated Joker": (("yahtzee", {"joker": "gated"}), 254.5896095),
    "yahtzee forced Joker": (("yahtzee", {"joker": "forced"}), 254.5877287),
    "yahtzee no Joker": (("yahtzee", {"joker": "none"}), 253.9702412),
    "yahtzee no Joker, no bonus": (
        ("yahtzee", {"joker": "none", "yahtzee_bonus": False}), 245.8707745
    ),
    "yahtzee free Joker (ours)": (("yahtzee", {"joker": "free"}), 254.7112726),
    "yahtzee upper first (ours)": (("yahtzee", {"upper_first": True}), 213.6881087),
}


@pytest.mark.parametrize(("spec", "expected"), KNOWN.values(), ids=KNOWN.keys())
def test_known_values(spec: tuple[str, dict[str, Any]], expected: float) -> None:
    name, options = spec
    s = yatzy.strategy(yatzy.ruleset(name, **options))
    assert s.expected_score == pytest.approx(expected, abs=1e-6)


def test_every_reachable_state_has_a_value() -> None:
    s = yatzy.strategy(yatzy.ruleset("yatzy"))
    model = s.model
    assert np.isfinite(s.values).all()  # unreachable states hold NEG, not NaN
    valued = (s.values > NEG / 2).sum()
    full = (1 << model.boxes) - 1
    assert valued == state_count(model) + (model.threshold + 1)  # the full card: zeros
    assert np.all(s.values[full] == 0)


def test_more_rolls_are_worth_more() -> None:
    base = yatzy.ruleset("yatzy", order="in_order")
    values = [solve(build_model(yatzy.ruleset("yatzy", order="in_order", rolls=n)))[0, 0, 0]
              for n in (1, 2, 3, 4)]
    assert values[2] == pytest.approx(yatzy.strategy(base).expected_score)
    assert values == sorted(values)


def test_progress_reports_every_layer() -> None:
    calls: list[tuple[int, int]] = []
    solve(build_model(yatzy.ruleset("yatzy", order="in_order")), lambda d, t: calls.append((d, t)))
    assert calls == [(i, 15) for i in range(1, 16)]


WIDE_CASES = {**TINY, "Scandinavian Yatzy": yatzy.ruleset("yatzy"),
              "Yatzy in order": yatzy.ruleset("yatzy", order="in_order"),
              "Yahtzee gated": yatzy.ruleset("yahtzee", joker="gated"),
              "Yahtzee forced": yatzy.ruleset("yahtzee")}


@pytest.mark.parametrize("ruleset", WIDE_CASES.values(), ids=WIDE_CASES.keys())
def test_the_wide_build_makes_the_same_table_to_the_bit(ruleset: Ruleset) -> None:
    """Eight upper sums at a time (AVX-512, where the processor has it) or four: the same
    bytes. (Without AVX-512 both builds are the four-lane one.)"""
    model = build_model(ruleset)
    wide, narrow = solve(model), solve(model, wide=False)
    assert wide.tobytes() == narrow.tobytes()


def test_the_wide_build_runs_only_where_the_processor_has_avx512() -> None:
    """(A build by another compiler than GCC, as make sanitize's clang, keeps to four
    lanes everywhere.)"""
    cpuinfo = Path("/proc/cpuinfo")
    flags = cpuinfo.read_text().split() if cpuinfo.exists() else []
    assert not WIDE_BUILD or (platform.machine() == "x86_64" and "avx512f" in flags)
