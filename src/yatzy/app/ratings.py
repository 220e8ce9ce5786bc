"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2022): pure
functions, no I/O.

A rating is three numbers: ``rating`` (1500 for a new player), ``deviation`` (how sure
we are, 350 at first, shrinking as games are played) and ``volatility`` (how erratic the
player's results are, 0.06 at first). :func:`update` takes a player's rating and the
results of one rating period (opponents' ratings and deviations, each score 1 for a win,
0.5 for a draw, 0 for a loss) and gives the new rating; a period without games only
widens the deviation. The system constant ``tau`` (0.5) limits how fast the volatility
changes. A rating is *provisional* until :data:`PROVISIONAL_GAMES` rated games.

The paper's worked example:

>>> new = update(Rating(1500, 200, 0.06),
...              [Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)])
>>> round(new.rating, 1), round(new.deviation, 2), round(new.volatility, 6)
(1464.1, 151.52, 0.059996)

(the paper, rounding as it goes, says 1464.06, 151.52 and 0.05999).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: A new player's rating, deviation and volatility, and the system constant.
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5

#: A rating is provisional until this many rated games.
PROVISIONAL_GAMES = 10

#: The factor between the Glicko scale and the Glicko-2 scale.
SCALE = 173.7178
#: The convergence tolerance of the volatility's iteration.
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Glicko scale (1500 is a new player)."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of a rating period: the opponent's rating and deviation (before the
    period) and the player's score, 1 won, 0.5 drawn, 0 lost."""

    opponent_rating: float
    opponent_deviation: float
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """``player``'s rating after a rating period with ``results`` (none: only the
    deviation grows, as time without games makes a rating less sure).

    >>> update(Rating(), []).deviation > 350
    True
    >>> update(Rating(), [Result(1500, 350, 1)]).rating > 1500
    True
    """
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, phi_star * SCALE, sigma)
    games = [((r.opponent_rating - DEFAULT_RATING) / SCALE, r.opponent_deviation / SCALE,
              r.score) for r in results]
    v = 1 / sum(_g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1 - _expected(mu, mu_j, phi_j))
                for mu_j, phi_j, _ in games)
    gain = sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in games)
    delta = v * gain
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(SCALE * new_mu + DEFAULT_RATING, SCALE * new_phi, new_sigma)


def game_scores(totals: Sequence[int]) -> tuple[float, float]:
    """The two players' scores of a two-player game from their totals: 1 and 0 for a
    win, 0.5 each for a tie.

    >>> game_scores([250, 231]), game_scores([200, 200])
    ((1.0, 0.0), (0.5, 0.5))
    """
    first, second = totals
    if first == second:
        return 0.5, 0.5
    return (1.0, 0.0) if first > second else (0.0, 1.0)


#: Taken off an idle player's total for the ratings: more than any total.
IDLE_PENALTY = 1_000_000


def ranked_totals(totals: Sequence[int], idle: Sequence[bool]) -> list[int]:
    """The totals a rated game's result is worked out from: a player whose clock ran
    out (``idle``: the computer finished their game) ranks last whatever the totals,
    below every player who was not; idle players among themselves by their totals.

    >>> ranked_totals([250, 231], [True, False])
    [-999750, 231]
    >>> game_scores(ranked_totals([250, 231], [True, False]))
    (0.0, 1.0)
    """
    return [total - IDLE_PENALTY if gone else total
            for total, gone in zip(totals, idle, strict=True)]


def rate_pair(first: Rating, second: Rating, scores: tuple[float, float]
              ) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (a rating period of one game
    each, each against the other's rating before it)."""
    return (update(first, [Result(second.rating, second.deviation, scores[0])]),
            update(second, [Result(first.rating, first.deviation, scores[1])]))


def provisional(games: int) -> bool:
    """True while a rating rests on fewer than :data:`PROVISIONAL_GAMES` rated games."""
    return games < PROVISIONAL_GAMES


#: The computer levels from weakest to strongest, with the rating below which each is
#: offered to a player of about that strength.
LEVEL_LADDER: tuple[tuple[str, float], ...] = (
    ("random", 1000.0), ("greedy", 1250.0), ("easy", 1400.0), ("medium", 1600.0),
    ("hard", 1800.0), ("optimal", math.inf),
)


def level_for(rating: float, offered: Sequence[str]) -> str | None:
    """The computer level of about the strength of a player rated ``rating``, among
    ``offered`` (the nearest weaker one offered, else the weakest offered; ``None``
    when none is).

    >>> level_for(1500, ["random", "greedy", "easy", "medium", "hard", "optimal"])
    'medium'
    >>> level_for(1900, ["random", "greedy"])
    'greedy'
    """
    ladder = [name for name, _ in LEVEL_LADDER if name in offered]
    if not ladder:
        return None
    fitting = next(name for name, below in LEVEL_LADDER if rating < below)
    order = [name for name, _ in LEVEL_LADDER]
    weaker = [name for name in ladder if order.index(name) <= order.index(fitting)]
    return weaker[-1] if weaker else ladder[0]


__all__ = [
    "DEFAULT_DEVIATION",
    "DEFAULT_RATING",
    "DEFAULT_VOLATILITY",
    "IDLE_PENALTY",
    "LEVEL_LADDER",
    "PROVISIONAL_GAMES",
    "TAU",
    "Rating",
    "Result",
    "game_scores",
    "level_for",
    "provisional",
    "ranked_totals",
    "rate_pair",
    "update",
]
