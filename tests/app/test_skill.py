"""OpenSkill ratings of games of 3 to 6 players (yatzy.app.skill): the library's own
numbers, and what must hold for any game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from yatzy.app.skill import DEFAULT_MU, DEFAULT_SIGMA, Skill, rate_field

totals = st.lists(st.integers(0, 400), min_size=3, max_size=6)
skills = st.builds(Skill, st.floats(0, 50), st.floats(0.5, 9))


@given(totals)
def test_equal_players_move_by_their_totals(scores: list[int]) -> None:
    """New players: equal totals move equally; without ties, the higher the total the
    higher the new rating, the winner up and the last down. (With ties the library's
    Plackett-Luce can put a player behind tied leaders level with them, or above:
    totals 2, 2, 1, 0 give 25.93, 25.93, 25.93, 22.20; openskill.py issue #155, pull
    request #176. We rate as the library does.)"""
    after = rate_field([Skill()] * len(scores), scores)
    for a, b in zip(scores, after, strict=True):
        for c, d in zip(scores, after, strict=True):
            if a == c:
                assert b.mu == pytest.approx(d.mu)
            elif a > c and len(set(scores)) == len(scores):
                assert b.mu > d.mu
    assert all(s.sigma < DEFAULT_SIGMA for s in after)  # one game makes it surer
    if len(set(scores)) == len(scores):
        best, worst = scores.index(max(scores)), scores.index(min(scores))
        assert after[best].mu > DEFAULT_MU > after[worst].mu


def test_the_library_s_tie_quirk_is_kept() -> None:
    after = rate_field([Skill()] * 4, [2, 2, 1, 0])
    assert [round(s.mu, 2) for s in after] == [25.93, 25.93, 25.93, 22.2]


@given(st.data())
def test_the_library_s_numbers(data: st.DataObject) -> None:
    scores = data.draw(totals)
    before = data.draw(st.lists(skills, min_size=len(scores), max_size=len(scores)))
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=s.mu, sigma=s.sigma)] for s in before],
                          scores=scores)
    after = rate_field(before, scores)
    assert [(s.mu, s.sigma) for s in after] == [(t[0].mu, t[0].sigma) for t in expected]


@pytest.mark.parametrize("players", [1, 2, 7])
def test_only_games_of_three_to_six(players: int) -> None:
    with pytest.raises(ValueError):
        rate_field([Skill()] * players, [100] * players)
    with pytest.raises(ValueError):
        rate_field([Skill()] * 3, [1, 2])
