"""Fast simulation on the tables: unbiased, seeded, and softened by a temperature."""

from __future__ import annotations

import numpy as np
import pytest

import yatzy
from yatzy.solver.simulate import simulate


@pytest.mark.parametrize("name", ["yatzy", "yahtzee"])
def test_optimal_mean_is_within_three_standard_errors(name: str) -> None:
    s = yatzy.strategy(yatzy.ruleset(name))
    result = simulate(s, 20_000, seed=11)
    assert abs(result.mean - s.expected_score) < 3 * result.standard_error
    assert 0.5 < result.bonus_rate < 1 and 0.2 < result.yahtzee_rate < 0.6


def test_in_order_mean_matches_too() -> None:
    s = yatzy.strategy(yatzy.ruleset("yatzy", order="in_order"))
    result = simulate(s, 20_000, seed=3)
    assert abs(result.mean - s.expected_score) < 3 * result.standard_error


def test_seeded_and_batched_runs_repeat() -> None:
    s = yatzy.strategy(yatzy.ruleset("yahtzee"))
    a = simulate(s, 3_000, seed=5)
    b = simulate(s, 3_000, seed=5)
    c = simulate(s, 3_000, seed=6)
    assert np.array_equal(a.scores, b.scores)
    assert not np.array_equal(a.scores, c.scores)
    assert a.player == "optimal" and a.games == 3_000
    assert (a.extra_yahtzees > 0).any()
    assert a.extra_yahtzees.max() * 100 <= a.scores.max()


def test_temperature_costs_points() -> None:
    s = yatzy.strategy(yatzy.ruleset("yatzy"))
    optimal = simulate(s, 5_000, seed=2)
    warm = simulate(s, 5_000, seed=2, temperature=1.0)
    hot = simulate(s, 5_000, seed=2, temperature=5.0)
    assert hot.mean < warm.mean < optimal.mean
    assert warm.player == "temperature=1.0"


def test_statistics() -> None:
    s = yatzy.strategy(yatzy.ruleset("yatzy"))
    r = simulate(s, 1_000, seed=1)
    pct = r.percentiles()
    assert list(pct) == [1, 5, 10, 25, 50, 75, 90, 95, 99]
    assert pct[1] <= pct[50] == r.median <= pct[99]
    assert r.sd == pytest.approx(float(np.std(r.scores, ddof=1)))
    assert r.games_per_second > 0
    with pytest.raises(ValueError, match="at least one game"):
        simulate(s, 0)
