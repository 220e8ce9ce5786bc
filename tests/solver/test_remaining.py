"""The table of the points still to come: the same distributions, looked up."""

from __future__ import annotations

import random

import numpy as np
import pytest

import yatzy
from yatzy.core.scorecard import Scorecard
from yatzy.solver import UnreachableCard
from yatzy.solver.remaining import RemainingTable
from yatzy.solver.simulate import states


@pytest.mark.parametrize("name, options", [("yatzy", {"order": "in_order"}),
                                           ("yatzy", {"order": "upper_first"}),
                                           ("yahtzee", {"upper_first": True})])
def test_every_row_is_the_distribution_worked_out_from_its_state(
        name: str, options: dict[str, object]) -> None:
    s = yatzy.strategy(yatzy.ruleset(name, **options))
    table = RemainingTable(s, tail=0.0)
    assert table.nbytes == 4 * sum(len(table.chances(i)[1]) for i in range(table.rows))
    rng = random.Random(2)
    r = s.ruleset
    for _ in range(60):
        game = yatzy.new_game(r, ["Ann"], seed=rng.randrange(2**32))
        for _ in range(rng.randrange(len(r.boxes))):
            game = game.roll()
            game = game.score(rng.choice(sorted(game.choices())))
        exact = s.distribution_card(game.card)
        looked_up = table.distribution(game.card)
        assert looked_up.lowest == exact.lowest
        np.testing.assert_allclose(looked_up.chances, exact.chances, rtol=1e-5, atol=1e-9)
    full = Scorecard.empty(r)
    for box in r.boxes:
        full = full.fill(box, min(r.possible_points(box)))
    assert table.distribution(full) == s.distribution_card(full)


def test_the_table_holds_every_state_optimal_play_goes_through() -> None:
    s = yatzy.strategy(yatzy.ruleset("yatzy", order="upper_first"))
    table = RemainingTable(s)
    history = states(s, 2000, seed=1)
    for game in history[:200]:
        for mask, y, u, _ in game[:-1].tolist():
            table.row(mask, y, u)
    with pytest.raises(KeyError):
        table.row((1 << 15) - 2, 0, 0)  # all but ones filled: upper_first forbids it
    with pytest.raises(UnreachableCard):
        table.distribution(Scorecard.parse(s.ruleset, "chance=20"))
