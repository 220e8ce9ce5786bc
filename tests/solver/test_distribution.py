"""Score distributions: exact, and agreeing with values, advice and simulation."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import yatzy
from tests.solver.games import random_moves
from yatzy.core.scorecard import Scorecard
from yatzy.solver import DistributionError, ScoreDistribution, Strategy, UnreachableCard, artifacts
from yatzy.solver.distribution import win_shares
from yatzy.solver.simulate import simulate

# --- The value ------------------------------------------------------------------------


def test_a_distribution_answers_from_its_chances() -> None:
    d = ScoreDistribution(100, [0.0, 0.1, 0.2, 0.0, 0.3, 0.4, 0.0])
    assert (d.lowest, d.highest) == (101, 105)
    assert dict(d.probabilities) == {101: 0.1, 102: 0.2, 104: 0.3, 105: 0.4}
    assert d.mean == pytest.approx(101 * 0.1 + 102 * 0.2 + 104 * 0.3 + 105 * 0.4)
    var = sum(p * (s - d.mean) ** 2 for s, p in d.probabilities.items())
    assert d.sd == pytest.approx(var**0.5)
    assert [d.percentile(q) for q in (0, 10, 10.5, 30, 31, 60, 61, 100)] == [
        101, 101, 102, 102, 104, 104, 105, 105]
    assert [d.at_least(s) for s in (-5, 101, 102, 103, 104, 105, 106)] == pytest.approx(
        [1.0, 1.0, 0.9, 0.7, 0.7, 0.4, 0.0])
    assert d.shifted(-100).lowest == 1 and d.shifted(-100).chances.tolist() == d.chances.tolist()
    assert d == ScoreDistribution(101, [0.1, 0.2, 0.0, 0.3, 0.4]) != d.shifted(1)
    assert ScoreDistribution.certain(7).probabilities == {7: 1.0}
    with pytest.raises(ValueError, match="read-only"):
        d.chances[0] = 1.0


@pytest.mark.parametrize("q", [-1, 100.5, float("nan"), True, "50", None])
def test_a_percentile_is_a_number_from_0_to_100(q: object) -> None:
    with pytest.raises(DistributionError, match="A percentile is a number from 0 to 100"):
        ScoreDistribution(0, [1.0]).percentile(q)  # type: ignore[arg-type]


@pytest.mark.parametrize("points", [1.5, "3", None, False])
def test_at_least_takes_a_whole_score(points: object) -> None:
    with pytest.raises(DistributionError, match="A score is a whole number"):
        ScoreDistribution(0, [1.0]).at_least(points)  # type: ignore[arg-type]


@pytest.mark.parametrize("chances", [[], [0.0, 0.0], [0.5, -0.1], [float("inf")]])
def test_a_distribution_needs_chances(chances: list[float]) -> None:
    with pytest.raises(ValueError, match="finite chances"):
        ScoreDistribution(0, chances)


# --- Exactness on a small game (in-order Scandinavian: few states) ----------------------


@pytest.fixture(scope="module")
def in_order() -> Strategy:
    return yatzy.strategy(yatzy.ruleset("yatzy", order="in_order"))


def test_the_start_distribution_has_the_expected_score_as_its_mean(in_order: Strategy) -> None:
    d = in_order.distribution(yatzy.new_game(in_order.ruleset, ["Ann"], seed=1))
    assert d.chances.sum() == pytest.approx(1.0, abs=1e-12)
    assert d.mean == pytest.approx(in_order.expected_score, abs=1e-9)
    assert d.lowest >= 0 and d.highest <= 374
    # Kept beside the table, and read back equal.
    assert in_order.path is not None
    folder = in_order.path.parent
    assert artifacts.distribution_path(in_order.ruleset, folder).exists()
    assert artifacts.load_distribution(in_order.ruleset, folder) == (
        d.lowest, pytest.approx(d.chances))
    # A new strategy object reads it from there.
    fresh = Strategy(in_order.model, in_order.values, build_seconds=None, source="cache",
                     path=in_order.path)
    assert fresh.distribution(Scorecard.empty(in_order.ruleset)) == d


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60))
def test_mid_game_and_mid_turn_means_are_the_values_advice_gives(
        in_order: Strategy, seed: int, steps: int) -> None:
    """The mean of the distribution from any position is the value of the best option
    there, and its chances sum to 1; the scores below the points already on the card
    cannot happen."""
    game = yatzy.new_game(in_order.ruleset, ["Ann", "Bo"], seed=seed)
    game = random_moves(game, seed, steps)
    d = in_order.distribution(game)
    if game.is_over:
        assert d == ScoreDistribution.certain(game.card.total)
        return
    assert d.chances.sum() == pytest.approx(1.0, abs=1e-12)
    assert d.mean == pytest.approx(in_order.advise(game)[0].value, abs=1e-9)
    assert d.lowest >= game.card.total


def test_a_scorecard_is_valued_at_its_next_turn(in_order: Strategy) -> None:
    r = in_order.ruleset
    card = Scorecard.parse(r, "ones=3 twos=6 threes=9")
    d = in_order.distribution(card)
    assert d.mean == pytest.approx(in_order.value(card), abs=1e-9)
    assert d == in_order.distribution_card(card)
    with pytest.raises(UnreachableCard):
        in_order.distribution(Scorecard.parse(r, "twos=6"))
    with pytest.raises(yatzy.IllegalMove, match="Rolls left after a roll"):
        in_order.distribution_card(card, (1, 2, 3, 4, 5), 5)


def test_the_last_roll_of_the_last_box_is_certain(in_order: Strategy) -> None:
    r = in_order.ruleset
    boxes = r.boxes
    card = Scorecard.empty(r)
    for box in boxes[:-1]:
        card = card.fill(box, min(r.possible_points(box)))
    d = in_order.distribution_card(card, (6, 6, 6, 6, 6), 0)
    assert d == ScoreDistribution.certain(card.total + 50)


# --- The published figures and a million games -----------------------------------------


@pytest.fixture(scope="module")
def yahtzee() -> Strategy:
    return yatzy.strategy(yatzy.ruleset("yahtzee"))


def test_yahtzee_matches_the_published_mean_and_standard_deviation(yahtzee: Strategy) -> None:
    d = yahtzee.distribution(yatzy.new_game(yahtzee.ruleset, ["Ann"], seed=1))
    assert d.mean == pytest.approx(yahtzee.expected_score, abs=1e-6)
    assert d.mean == pytest.approx(254.5877, abs=1e-4)
    assert d.sd == pytest.approx(59.61, abs=0.005)  # Glenn's table


def test_scandinavian_yatzy_has_the_expected_spread() -> None:
    s = yatzy.strategy(yatzy.ruleset("yatzy"))
    d = s.distribution(Scorecard.empty(s.ruleset))
    assert d.mean == pytest.approx(s.expected_score, abs=1e-6)
    assert 38.4 <= d.sd <= 38.5
    assert d.highest <= 374


def test_a_million_simulated_games_fit_the_distribution(yahtzee: Strategy) -> None:
    """Chi-squared goodness of fit of the optimal simulation's scores, in bins of about
    1% of the games each (the simulation is seeded: the test is deterministic)."""
    d = yahtzee.distribution(Scorecard.empty(yahtzee.ruleset))
    scores = simulate(yahtzee, 1_000_000, seed=2).scores
    cuts = sorted({d.percentile(q) for q in range(1, 100)})
    edges = np.array([d.lowest, *cuts[1:], d.highest + 1])
    expected = np.array([sum(p for s, p in d.probabilities.items() if a <= s < b)
                         for a, b in pairwise(edges.tolist())])
    observed = np.histogram(scores, bins=edges)[0]
    assert observed.sum() == len(scores)
    result = stats.chisquare(observed, expected * len(scores) / expected.sum())
    assert result.pvalue > 1e-3, result


# --- Win chances -----------------------------------------------------------------------


def test_win_shares_split_a_shared_first_place() -> None:
    certain = ScoreDistribution.certain
    assert win_shares([certain(5), certain(5), certain(3)]) == [0.5, 0.5, 0.0]
    coin = ScoreDistribution(0, [0.5, 0.5])
    # Three coins: each wins alone with 1/8, shares with one other (1/2 each) with
    # 2/8, with both (1/3) with 1/8, and ties at zero with everybody with 1/8.
    share = 1 / 8 + 2 / 8 * 1 / 2 + 1 / 8 * 1 / 3 + 1 / 8 * 1 / 3
    assert win_shares([coin, coin, coin]) == pytest.approx([share] * 3)
    assert sum(win_shares([coin, certain(1), ScoreDistribution(0, [0.1, 0.2, 0.7])])
               ) == pytest.approx(1.0)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 150), st.integers(2, 4))
def test_win_chances_sum_to_one_and_end_with_the_winners(
        in_order: Strategy, seed: int, steps: int, players: int) -> None:
    names = ["Ann", "Bo", "Cy", "Di"][:players]
    game = yatzy.new_game(in_order.ruleset, names, seed=seed)
    game = random_moves(game, seed, steps)
    chances = in_order.win_chances(game)
    assert list(chances) == names
    assert sum(chances.values()) == pytest.approx(1.0, abs=1e-9)
    assert all(-1e-12 <= c <= 1 + 1e-12 for c in chances.values())
    if game.is_over:
        best = max(c.total for c in game.cards)
        winners = [n for n, c in zip(names, game.cards, strict=True) if c.total == best]
        assert chances == {n: (1 / len(winners) if n in winners else 0.0) for n in names}


def test_win_chances_at_the_start_are_even_and_come_from_the_distributions(
        in_order: Strategy) -> None:
    """At the start two players have even chances; after a first turn the chances are
    the win shares of the players' distributions, and those agree with scores drawn from
    the distributions."""
    r = in_order.ruleset
    game = yatzy.new_game(r, ["Ann", "Bo"], seed=4)
    assert in_order.win_chances(game) == pytest.approx({"Ann": 0.5, "Bo": 0.5}, abs=1e-12)
    game = game.roll(dice=[1, 1, 1, 1, 1]).score("ones")  # Ann: 5 in ones
    game = game.roll(dice=[1, 2, 2, 3, 4]).score("ones")  # Bo: 1 in ones
    chances = in_order.win_chances(game)
    ann = in_order.distribution_card(game.cards[0])
    bo = in_order.distribution_card(game.cards[1])
    assert list(chances.values()) == pytest.approx(win_shares([ann, bo]), abs=1e-15)
    assert chances["Ann"] > 0.5
    rng = np.random.default_rng(5)
    sa = rng.choice(np.arange(ann.lowest, ann.highest + 1), size=400_000, p=ann.chances)
    sb = rng.choice(np.arange(bo.lowest, bo.highest + 1), size=400_000, p=bo.chances)
    observed = float(np.mean((sa > sb) + 0.5 * (sa == sb)))
    assert chances["Ann"] == pytest.approx(observed, abs=0.004)  # 5 standard errors
    # Mid-turn, the current player's distribution is of the dice on the table.
    rolled = game.roll(dice=[6, 6, 6, 6, 6])
    mid = in_order.win_chances(rolled)
    assert list(mid.values()) == pytest.approx(
        win_shares([in_order.distribution(rolled), bo]), abs=1e-15)


def test_a_distribution_with_too_many_open_boxes_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As Maxi Yatzy's early in a game (its layers would take gigabytes): refused at
    once, with a message in every language; later in the game it is worked out."""
    from yatzy.i18n import LANGUAGES, translator
    from yatzy.i18n.words import error_text
    from yatzy.solver import DistributionTooLarge, distribution

    assert distribution.most_open_boxes(85, 1) == 14  # Maxi Yatzy's
    assert distribution.most_open_boxes(64, 1) == 15  # the whole of Scandinavian Yatzy
    r = yatzy.ruleset("yatzy", order="in_order")
    s = yatzy.strategy(r)
    monkeypatch.setattr(distribution, "MAX_DISTRIBUTION_STATES", 64 * 4)  # two open boxes
    s.forget()
    fresh = Strategy(s.model, s.values, build_seconds=None, source="test")  # no start kept
    for card in (Scorecard.empty(r), Scorecard(r, (1, 2, 3) + (None,) * 12)):  # 15, 12 open
        with pytest.raises(DistributionTooLarge) as refused:
            fresh.distribution(card)
        assert refused.value.params == {"rules": "Yatzy", "most": 2,
                                         "open": card.entries.count(None)}
        for lang in LANGUAGES:
            text = error_text(translator(lang), refused.value)
            assert "Yatzy" in text and "{" not in text
    late = Scorecard(r, (3, 6, 9, 12, 15, 18) + (0,) * 7 + (None, None))
    assert fresh.distribution(late).mean == pytest.approx(fresh.value(late))


# --- Exact layers: the early positions looked up ------------------------------------------


@pytest.fixture(scope="module")
def upper_first() -> Strategy:
    return yatzy.strategy(yatzy.ruleset("yatzy", order="upper_first"))


def _forward(s: Strategy, game: yatzy.Game) -> ScoreDistribution:
    """The distribution worked out forward to the end of the game (as before the layers)."""
    (mask, y, u), total = s._lookup(game.card)
    if game.dice is None:
        roll, rerolls = -1, s.ruleset.rolls - 1
    else:
        faces, rerolls = s._roll(game.dice, game.rolls_left)
        roll = s.model.keeps.roll_index(tuple(sorted(faces)))
    lowest, raw = s.kernels.distribution(mask, y, u, roll, rerolls, 1)
    return ScoreDistribution(lowest + total, np.frombuffer(raw))


def _close(a: ScoreDistribution, b: ScoreDistribution) -> float:
    lo, hi = min(a.lowest, b.lowest), max(a.highest, b.highest)
    x, z = np.zeros(hi - lo + 1), np.zeros(hi - lo + 1)
    x[a.lowest - lo:a.highest - lo + 1] = a.chances
    z[b.lowest - lo:b.highest - lo + 1] = b.chances
    return float(np.abs(x - z).max())


def _early_positions(s: Strategy, seed: int) -> list[yatzy.Game]:
    """Every position of the first turns of an optimal game: turn starts and rolls."""
    game = yatzy.new_game(s.ruleset, ["Ann"], seed=seed)
    found = []
    while game.turns_played < 7:
        found.append(game)
        game = game.roll() if game.dice is None else game.apply(s.advise(game)[0].action)
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_early_distributions_are_looked_up_and_exact(upper_first: Strategy, seed: int) -> None:
    from yatzy.solver.distribution import exact_layers

    layers = exact_layers(upper_first, build=True)
    assert layers is not None and layers.upto == 6
    positions = _early_positions(upper_first, seed)
    assert any(layers.covers(upper_first.state_of(g.card)[0]) for g in positions)
    for game in positions:
        assert _close(upper_first.distribution(game), _forward(upper_first, game)) < 1e-15


def test_the_start_distribution_without_its_file_is_the_forward_one(tmp_path: object) -> None:
    s = yatzy.strategy(yatzy.ruleset("yatzy", order="upper_first"))
    artifacts.distribution_path(s.ruleset, s.path.parent if s.path else None).unlink(
        missing_ok=True)
    s._start = None
    start = yatzy.new_game(s.ruleset, ["Ann"], seed=1)
    assert _close(s.distribution(start), _forward(s, start)) < 1e-15
    assert s.distribution(start).mean == pytest.approx(s.expected_score, abs=1e-9)


def test_a_damaged_row_is_never_used(upper_first: Strategy,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A row that cannot be right (here: every chance doubled) is refused: the
    distribution is worked out forward, and the layers are not used again."""
    from yatzy.solver import distribution

    layers = distribution.exact_layers(upper_first, build=True)
    assert layers is not None
    game = _early_positions(upper_first, 3)[2]
    monkeypatch.setattr(layers, "_chances", layers._chances * 2)
    assert _close(upper_first.distribution(game), _forward(upper_first, game)) == 0.0
    assert distribution.exact_layers(upper_first, build=True) is None
    distribution._LAYERS.pop(upper_first.ruleset)  # opened again from the file


def test_the_layers_file_is_mapped_and_checked(upper_first: Strategy) -> None:
    from yatzy.solver import distribution

    assert upper_first.path is not None
    path = artifacts.layers_path(upper_first.ruleset, upper_first.path.parent)
    distribution.exact_layers(upper_first, build=True)
    assert path.is_file()
    opened = artifacts.open_layers(upper_first.ruleset, upper_first.path.parent)
    assert opened is not None and opened[1]["upto"] == 6
    data = bytearray(path.read_bytes())
    data[-1] ^= 1  # a chance: checked where read, not on opening
    damaged = path.with_name("copy" + path.name)
    damaged.write_bytes(bytes(data))
    header_end = data.index(b"}") + 1
    data[header_end + 70] ^= 1  # an index array: the SHA-256 refuses it
    path.write_bytes(bytes(data))
    with pytest.raises(artifacts.RemainingDamaged, match="SHA-256"):
        artifacts.open_layers(upper_first.ruleset, upper_first.path.parent)
    path.unlink()
    damaged.unlink()
