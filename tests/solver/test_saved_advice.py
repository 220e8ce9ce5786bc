"""Advice and the computer levels with saved rolls (Maxi Yatzy): the strategy read from
the table ``yatzy solve`` writes (:class:`yatzy.solver.SavedStrategy`), on games cut down
to a few boxes. Its options' values agree with the table and with each other (a roll is
worth the mean of the best options after it, a box the next turn's start), the core's
saved rolls are its decisions (a reroll past the turn's own rolls uses one, a box filled
with rolls left saves them), and the levels play it once the table is on the disk."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import yatzy
from tests.solver.test_saved import SIX, reduced
from yatzy import solver
from yatzy.bots import bot_names, check_level, make_bot, play_turn
from yatzy.core.actions import Reroll, Roll, Score
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.solver import policy
from yatzy.solver.saved import SavedSolution, save_table, solve_saved
from yatzy.solver.saved_strategy import SavedStrategy

#: Three dice, three boxes: a whole game in well under a second.
SMALL = reduced(("twos", "fives", "chance"), 2, 12, dice=3)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
          ) -> Iterator[Callable[[Ruleset], SavedSolution]]:
    """``store(ruleset)``: solve ``ruleset`` and write its table where the solver looks
    (a cache folder of this test's, no strategy held from another test)."""
    from yatzy.solver import artifacts

    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path / "cache"))
    held: set[Ruleset] = set()
    monkeypatch.setattr(solver, "_HELD", held)
    monkeypatch.setattr(policy, "_HELD", held)
    monkeypatch.setattr(policy, "_SAVED", {})

    def solve(ruleset: Ruleset) -> SavedSolution:
        sol = solve_saved(ruleset, tmp_path / f"layers-{len(ruleset.boxes)}-{ruleset.dice_count}")
        save_table(sol, {})
        return sol

    yield solve


def test_a_roll_is_worth_the_mean_of_the_best_options_after_it(
        store: Callable[[Ruleset], SavedSolution]) -> None:
    sol = store(SIX)
    s = solver.strategy(SIX)
    assert isinstance(s, SavedStrategy) and s.expected_score == sol.start_value
    card = Scorecard(SIX, (18, None, None))
    keeps = s.model.keeps
    probs = s.model.tables.roll_prob
    for saved in (0, 1, 2):
        [start] = s.advise_card(card, None, saved=saved)
        assert start.action == Roll()
        assert start.value == pytest.approx(card.total + sol.value(1, 18, saved), abs=1e-9)
        after = sum(float(p) * s.advise_card(card, keeps.faces(r), 2 + saved)[0].value
                    for r, p in enumerate(probs))
        assert after == pytest.approx(start.value, abs=1e-4)
    # Keeping four dice with 3 rolls left: the mean of the best options with 2 left.
    dice = (6, 6, 6, 6, 2, 3)
    options = s.advise_card(card, dice, 3)
    [held] = [o for o in options if o.action == Reroll((0, 1, 2, 3))]
    mean = np.mean([s.advise_card(card, (6, 6, 6, 6, a, b), 2)[0].value
                    for a, b in itertools.product(range(1, 7), repeat=2)])
    assert held.value == pytest.approx(mean, abs=1e-6)


def test_the_core_s_saved_rolls_are_the_strategy_s_decisions(
        store: Callable[[Ruleset], SavedSolution]) -> None:
    store(SIX)
    s = solver.strategy(SIX)
    game = yatzy.new_game(SIX, ["Ann"], seed=1).roll([6, 6, 6, 6, 6, 6])
    options = s.advise(game)
    best = options[0]
    assert best.action == Score("maxi_yatzy")  # six sixes at once: two rolls saved
    assert [o.value for o in options] == sorted((o.value for o in options), reverse=True)
    assert {type(o.action) for o in options} == {Score, Reroll}
    # Filling a box with rolls left saves them: the next turn starts with them, worth
    # what the option said.
    game = game.apply(best.action)
    assert game.saved_rolls() == 2 and game.rolls_left == 5
    [start] = s.advise(game)
    assert start.value == pytest.approx(best.value, abs=1e-4)
    # Past the turn's own rolls a reroll uses a saved roll: still offered.
    game = game.roll([1, 2, 3, 4, 5, 5]).reroll([]).reroll([])
    assert game.rolls_used == 3 and game.rolls_left == 2
    options = s.advise(game)
    assert any(isinstance(o.action, Reroll) for o in options)
    keep = next(o for o in options if isinstance(o.action, Reroll))
    game = game.apply(keep.action)
    assert game.saved_rolls() == 1
    # With no roll left, only boxes.
    game = game.reroll([]) if game.rolls_left else game
    assert all(isinstance(o.action, Score) for o in s.advise(game))
    with pytest.raises(yatzy.IllegalMove):
        s.advise_card(game.card, (1, 2, 3, 4, 5, 6), 9)  # more than a game can save
    with pytest.raises(yatzy.IllegalMove):
        s.advise_card(game.card, None, saved=-1)


def test_the_levels_play_it_once_its_table_is_built(
        store: Callable[[Ruleset], SavedSolution]) -> None:
    assert solver.supports(SMALL) and not solver.offers_chances(SMALL)
    assert not solver.table_ready(SMALL) and bot_names(SMALL) == ("random", "greedy")
    for level in ("easy", "optimal"):
        with pytest.raises(solver.TableNotBuilt):  # never built on demand
            check_level(level, SMALL)
    with pytest.raises(solver.ChancesUnsupported):
        check_level("winner", SMALL)
    sol = store(SMALL)
    assert solver.table_ready(SMALL)
    assert bot_names(SMALL) == ("random", "greedy", "easy", "medium", "hard", "optimal")
    with pytest.raises(solver.ChancesUnsupported):
        check_level("winner", SMALL)
    totals = []
    for seed in range(300):
        game = yatzy.new_game(SMALL, ["a", "b"], seed=seed)
        bots = [make_bot("optimal"), make_bot("hard", random.Random(seed))]
        while not game.is_over:
            game = play_turn(game, bots[game.current_seat])
        totals.append(game.cards[0].total)
        if seed == 0:
            from yatzy.solver.analysis import analyse

            assert analyse(game).players[0].total_loss == pytest.approx(0, abs=1e-9)
            assert analyse(game).players[1].decisions > 0
            with pytest.raises(solver.ChancesUnsupported):
                solver.strategy(SMALL).win_chances(game)
    # The optimal computer scores the solved mean (3 standard errors).
    assert abs(np.mean(totals) - sol.start_value) < 3 * np.std(totals) / np.sqrt(len(totals))


def test_another_ruleset_s_card_is_refused(store: Callable[[Ruleset], SavedSolution]) -> None:
    store(SIX)
    s = solver.strategy(SIX)
    game = yatzy.new_game(SMALL, ["Ann"], seed=1)
    with pytest.raises(yatzy.RulesError):
        s.advise(game)
