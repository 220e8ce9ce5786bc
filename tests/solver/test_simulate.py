"""Fast simulation on the tables: unbiased, seeded, and softened by a temperature."""

from __future__ import annotations

import numpy as np
import pytest

import yatzy
from yatzy.core.actions import Reroll, Score
from yatzy.solver import kernels
from yatzy.solver.simulate import play, simulate


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


@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_a_games_dice_depend_on_the_seed_and_its_number_only(
    temperature: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games are sorted by state and shared out between threads by blocks: neither the
    batch size nor the number of threads may change a game."""
    s = yatzy.strategy(yatzy.ruleset("yatzy"))
    whole = simulate(s, 6_000, seed=9, temperature=temperature)
    parts = simulate(s, 6_000, seed=9, temperature=temperature, batch=1_000)
    monkeypatch.setattr(kernels, "threads", lambda: 1)
    alone = simulate(s, 6_000, seed=9, temperature=temperature)
    monkeypatch.setattr(kernels, "threads", lambda: 5)
    many = simulate(s, 6_000, seed=9, temperature=temperature)
    for other in (parts, alone, many):
        assert np.array_equal(whole.scores, other.scores)
        assert np.array_equal(whole.upper_bonus, other.upper_bonus)
    # Games 0 .. 999 are the same games when played on their own; 5000 .. 5999 are not.
    tail = simulate(s, 1_000, seed=9, temperature=temperature, batch=1_000)
    assert not np.array_equal(tail.scores, whole.scores[-1_000:])
    assert np.array_equal(tail.scores, whole.scores[:1_000])


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


@pytest.mark.parametrize(("name", "options", "games"), [
    ("yatzy", {}, 300),
    ("yahtzee", {}, 300),
    ("yahtzee", {"joker": "gated", "upper_first": True}, 100),
    ("yatzy", {"order": "in_order"}, 100),
])
def test_the_fast_path_plays_what_advise_plays(name: str, options: dict[str, object],
                                               games: int) -> None:
    """The same dice through the fast path and through real games whose every move is
    ``Strategy.advise``'s best: the same choice at every decision, the same final card."""
    s = yatzy.strategy(yatzy.ruleset(name, **options))
    r = s.ruleset
    nb, keeps = len(r.boxes), s.model.keeps.keeps
    rng = np.random.default_rng(len(name) + games)
    faces = rng.integers(1, 7, size=(games, nb, r.rolls, r.dice_count), dtype=np.int8)
    # Many rolls of five of a kind, so that Jokers and extra Yahtzees are played too.
    five = rng.random((games, nb, r.rolls)) < 0.15
    faces[five] = faces[five][:, :1]
    choices = np.full((games, nb, r.rolls), -1, dtype=np.int64)
    final = play(s, faces, choices=choices)
    jokers = 0
    for g in range(games):
        game = yatzy.new_game(r, ["cpu"], seed=1)
        for turn in range(nb):
            game = game.roll(dice=faces[g, turn, 0].tolist())
            for roll in range(r.rolls):
                best = s.advise(game)[0].action
                code = int(choices[g, turn, roll])
                where = (g, turn, roll, game.dice, best)
                if isinstance(best, Score):
                    assert code == r.boxes.index(best.box), where
                    jokers += game.joker
                    game = game.score(best.box)
                    break
                assert isinstance(best, Reroll)
                assert keeps[code - nb] == tuple(sorted(game.dice[i] for i in best.hold)), where
                new = faces[g, turn, roll + 1, : r.dice_count - len(best.hold)]
                game = game.reroll(best.hold, dice=new.tolist())
            assert (choices[g, turn, roll + 1:] == -1).all()
        card = game.card
        assert game.is_over
        assert final[g, 3] == card.total, g
        assert final[g, 5] == card.yahtzee_bonus_count
        assert (final[g, 2] >= r.upper_bonus_threshold) == (card.upper_bonus > 0)
    if r.extra_yahtzee_points:
        assert jokers > 0 and final[:, 5].sum() > 0


def test_play_checks_its_arrays() -> None:
    s = yatzy.strategy(yatzy.ruleset("yatzy"))
    faces = np.ones((2, 15, 3, 5), dtype=np.int8)
    with pytest.raises(ValueError, match="faces must have shape"):
        play(s, faces[:, :14])
    with pytest.raises(ValueError, match="A temperature needs uniforms"):
        play(s, faces, temperature=1.0)
    with pytest.raises(ValueError, match="choices must have shape"):
        play(s, faces, choices=np.zeros((2, 15, 2), dtype=np.int64))
