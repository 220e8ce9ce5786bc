"""How a turn ends under optimal play: ``Kernels.outcomes`` (one state, each roll's choice
worked out as the simulation works it out) against advice, the turn played out in Python
with ``Strategy.advise_card``'s first option at each step, which must end in the same
boxes with the same chances; and the win-chance table's rows, whose turns choose for a
block of states at once (``block_picks``), against ``Kernels.outcomes``."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import yatzy
from tests.solver.games import turn_starts
from yatzy.core import rules
from yatzy.core.actions import Reroll, Score
from yatzy.core.scorecard import Scorecard
from yatzy.solver.policy import Strategy
from yatzy.solver.remaining import RemainingTable

RULESETS = {"Scandinavian Yatzy": ("yatzy", {}),
            "Yahtzee gated": ("yahtzee", {"joker": "gated"}), "Yahtzee forced": ("yahtzee", {})}


@pytest.fixture(scope="module", params=RULESETS.values(), ids=RULESETS.keys())
def strategy(request: pytest.FixtureRequest) -> Strategy:
    name, options = request.param
    return yatzy.strategy(yatzy.ruleset(name, **options))


def _key(s: Strategy, card: Scorecard) -> int:
    """The compiled code's number of the state of ``card``."""
    return s.model.state_key(*s.model.state_of(card))


def _advised(s: Strategy, card: Scorecard, dice: tuple[int, ...], left: int
             ) -> dict[tuple[int, int], Fraction]:
    """The ends of the turn played by advice's first option from ``dice`` with ``left``
    rerolls left: (points gained, next state) -> chance."""
    ends: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    best = s.advise_card(card, dice, left)[0].action
    if isinstance(best, Score):
        after = card.fill(best.box, rules.choices(s.ruleset, card, dice)[best.box],
                          extra_yahtzee=rules.earns_yahtzee_bonus(s.ruleset, card, dice))
        ends[(after.total - card.total, _key(s, after))] += 1
        return ends
    assert isinstance(best, Reroll)
    kept = [dice[i] for i in best.hold]
    n = len(dice) - len(kept)
    for faces in product(range(1, 7), repeat=n):
        for end, chance in _advised(s, card, tuple(sorted([*kept, *faces])), left - 1).items():
            ends[end] += chance / 6**n
    return ends


def _cards(s: Strategy, count: int, seed: int) -> list[Scorecard]:
    """Scorecards of random real games at random turns."""
    return [g.card for g in turn_starts(s.ruleset, count, seed)]


def test_a_turns_compiled_ends_are_advices(strategy: Strategy) -> None:
    s = strategy
    keeps = s.model.keeps
    rng = random.Random(7)
    checked = 0
    for card in _cards(s, 12, seed=3):
        mask, y, u = s.model.state_of(card)
        for left in (0, 1):
            dice = tuple(sorted(rng.randint(1, 6) for _ in range(s.ruleset.dice_count)))
            roll = keeps.roll_index(dice)
            gains, keys, probs = (np.frombuffer(b, dtype=d) for b, d in zip(
                s.kernels.outcomes(mask, y, u, roll, left), (np.int32, np.int32, np.float64),
                strict=True))
            got: dict[tuple[int, int], float] = defaultdict(float)
            for g, k, p in zip(gains.tolist(), keys.tolist(), probs.tolist(), strict=True):
                got[(g, k)] += p
            want = _advised(s, card, dice, left)
            assert got.keys() == want.keys(), (card, dice, left)
            for end, chance in want.items():
                assert got[end] == pytest.approx(float(chance), abs=1e-12)
            checked += 1
    assert checked == 24


@pytest.mark.parametrize("options", [{"order": "upper_first"}, {"order": "in_order"}])
def test_a_tables_row_is_its_turns_ends_carried_on(options: dict[str, str]) -> None:
    """Each row of the win-chance table (its turn's choices made for a block of states at
    once) is the turn's ends as ``Kernels.outcomes`` finds them (choice by choice, one
    state), each followed by its next state's row."""
    s = yatzy.strategy(yatzy.ruleset("yatzy", **options))
    table = RemainingTable(s, tail=0.0)
    full = (1 << s.model.boxes) - 1
    per_mask = s.model.y_count * (s.model.tables.threshold + 1)
    checked = 0
    for card in _cards(s, 40, seed=5):
        mask, y, u = s.model.state_of(card)
        lowest, chances = table.chances(table.row(mask, y, u))
        gains, keys, probs = (np.frombuffer(b, dtype=d) for b, d in zip(
            s.kernels.outcomes(mask, y, u, -1, s.ruleset.rolls - 1),
            (np.int32, np.int32, np.float64), strict=True))
        want: dict[int, float] = defaultdict(float)
        for g, k, p in zip(gains.tolist(), keys.tolist(), probs.tolist(), strict=True):
            if k // per_mask == full:
                want[g] += p
                continue
            low, row = table.chances(int(table._row[k]))
            for i, c in enumerate(row.tolist()):
                want[g + low + i] += p * c
        got = {lowest + i: c for i, c in enumerate(chances.tolist())}
        for points in set(want) | set(got):
            assert got.get(points, 0.0) == pytest.approx(want.get(points, 0.0), abs=1e-6)
        checked += 1
    assert checked == 40
