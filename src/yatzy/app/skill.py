"""Ratings of rated games of three to six players: the Plackett-Luce model of OpenSkill
(Weng and Lin, "A Bayesian Approximation Method for Online Ranking", 2011), as the
``openskill`` package computes it. Pure functions, no I/O.

A *skill* is two numbers: ``mu`` (25 for a new player) and ``sigma``, how unsure the
model is (25/3 at first, shrinking as games are played). A game's totals rank its
players (equal totals tie); :func:`rate_field` gives every player's skill after it,
each against all the others at once. Two-player games keep Glicko-2
(:mod:`yatzy.app.ratings`): the two scales are not comparable, so a profile shows both.

Ties are rated as the library rates them, quirk included: its Plackett-Luce can put a
player behind tied leaders level with them (totals 2, 2, 1, 0 from equal skills give
25.93, 25.93, 25.93 and 22.20; openskill.py issue #155, a fix proposed in pull request
#176). Without ties, the higher the total the higher the new rating.

>>> after = rate_field([Skill(), Skill(), Skill()], [250, 200, 150])
>>> after[0].mu > 25 > after[2].mu
True
>>> [round(s.mu, 2) for s in after]
[27.87, 25.72, 21.41]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: The model with its published defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
_MODEL = PlackettLuce()

#: A new player's skill.
DEFAULT_MU = float(_MODEL.mu)
DEFAULT_SIGMA = float(_MODEL.sigma)

#: The sizes of game OpenSkill rates (two players are Glicko-2's).
FEWEST_PLAYERS, MOST_PLAYERS = 3, 6


@dataclass(frozen=True)
class Skill:
    """A player's OpenSkill rating: ``mu`` and its uncertainty ``sigma``."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a skill the player very probably has at least (what a
        leaderboard orders by, so that one lucky game does not top it).

        >>> Skill().ordinal
        0.0
        """
        return self.mu - 3 * self.sigma


def rate_field(before: Sequence[Skill], totals: Sequence[int]) -> list[Skill]:
    """Every player's skill after one game, in seat order: ``before`` their skills,
    ``totals`` their final totals (the higher the better; equal totals tie)."""
    if len(before) != len(totals) or not FEWEST_PLAYERS <= len(before) <= MOST_PLAYERS:
        raise ValueError(f"A rated game of {len(before)} players with {len(totals)} totals")
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = _MODEL.rate(teams, scores=[float(t) for t in totals])
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in after]


__all__ = ["DEFAULT_MU", "DEFAULT_SIGMA", "FEWEST_PLAYERS", "MOST_PLAYERS", "Skill",
           "rate_field"]
