"""Matches between computer players: many games of the same levels against each other,
and each level's share of the wins.

A match has ``K`` *entrants*, each a computer level by its name in
:func:`yatzy.bots.bot_names` (a level may enter more than once), and is played in
*deals*. A deal is ``K`` games of all the entrants, one per rotation of the seats: in
game ``r`` of a deal (``r`` from 0 to ``K - 1``) entrant ``i`` sits in seat
``(i + r) % K`` (:func:`seating`), and seat 0 starts. So in every deal each entrant
sits once in every seat, and starts once. A match of ``N`` games is ``N / K`` deals.

**Paired dice.** Everything random about a seat comes from that seat's own streams,
fixed by the match's seed, the deal and the seat, whoever sits there: the dice of the
seat's turn ``t`` are the ``rolls × dice`` faces of :func:`turn_dice` (the core's pure
:func:`~yatzy.core.seeded.seeded_dice`), the turn's first roll taking the first five
and its ``k``-th reroll the first faces it needs of the ``k + 1``-th five; and the
computer in the seat makes its random choices (the softmax levels) with the
``random.Random`` of :func:`seat_rng`. So the entrants of a deal play the same dice in
each seat, and nothing one player does moves the dice of another, or of its own later
turns. (A level against itself therefore ties every deal exactly: the deal's games are
one game with the entrants in other seats.) The core's own seeded games cannot pair
this well: their dice for a roll depend on the roll's place among all the game's
actions, so one player's extra reroll changes every later die of every player. The
match's games have no seed and get their dice as physical dice are given.

**Tallies.** A game's winner gets 1; a first place shared by ``k`` players gives ``1/k``
to each (:func:`win_shares`). An entrant's *share of the wins* is the mean of its win
shares over the games; the shares of a game add up to 1, so the fair share is ``1/K``.
The games of one deal are not independent (they share their dice), so the standard
errors take the deals as the independent units: the standard deviation of the
entrant's per-deal means, over the square root of the number of deals. The mean score
and its standard error are taken the same way. The sums behind them are exact whole
numbers (:class:`Tally`), so a result does not depend on the order the deals were
played in, nor on how many processes played them.

>>> import yatzy
>>> rules = yatzy.ruleset("yatzy", order="in_order")
>>> result = play_match(["optimal", "random"], 20, rules, seed=1, workers=1)
>>> result.games, result.deals, result.fair_share
(20, 10, 0.5)
>>> [(s.level, s.share, round(s.mean_score, 1)) for s in result.standings]
[('optimal', 1.0, 118.8), ('random', 0.0, 48.6)]
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from yatzy.app.codes import AppCode
from yatzy.app.errors import BadMatch
from yatzy.bots import check_level, make_bot
from yatzy.core.actions import Reroll, Roll
from yatzy.core.dice import Dice
from yatzy.core.errors import ErrorCode, IllegalMove, shown
from yatzy.core.game import Game
from yatzy.core.names import MAX_NAME_LENGTH
from yatzy.core.rulesets import Ruleset
from yatzy.core.seeded import MAX_SEED, Seed, check_seed, seeded_faces

#: The most games one match plays (about 45 minutes for the solver's levels on two
#: cores).
MOST_MATCH_GAMES = 1_000_000

#: About how many games a worker process plays per piece of work it is given.
GAMES_PER_CHUNK = 64

#: Called with the games played so far and the games of the whole match.
Progress = Callable[[int, int], None]

__all__ = ["MOST_MATCH_GAMES", "MatchResult", "Progress", "Standing", "Tally",
           "check_games", "check_levels", "play_deal", "play_game", "play_match", "player_names",
           "seat_rng", "seating", "turn_dice", "win_shares"]


# --- Seats, names and the seats' streams ------------------------------------------------


def seating(entrants: int, rotation: int) -> tuple[int, ...]:
    """The entrant in each seat, in seat order, in game ``rotation`` of a deal: entrant
    ``i`` sits in seat ``(i + rotation) % entrants``.

    >>> seating(3, 0), seating(3, 1), seating(3, 2)
    ((0, 1, 2), (2, 0, 1), (1, 2, 0))
    """
    return tuple((seat - rotation) % entrants for seat in range(entrants))


def player_names(levels: Sequence[str]) -> tuple[str, ...]:
    """The entrants' names in the match's games: number and level, cut to the longest
    name a player may have (the number keeps them apart).

    >>> player_names(["optimal", "optimal"])
    ('1 optimal', '2 optimal')
    """
    return tuple(f"{i} {level}"[:MAX_NAME_LENGTH] for i, level in enumerate(levels, 1))


def turn_dice(ruleset: Ruleset, seed: Seed, deal: int, seat: int, turn: int) -> Dice:
    """Every die seat ``seat`` may roll in its turn ``turn`` (0-based) of deal ``deal``:
    a row of ``ruleset.dice_count`` faces for each roll the turn may have (``rolls``, or
    with saved rolls every roll of the game). The turn's first roll is the first row;
    its ``k``-th reroll takes the first faces it needs of row ``k``."""
    return Dice(_turn_faces(ruleset, seed, deal, seat, turn))


def _turn_faces(ruleset: Ruleset, seed: Seed, deal: int, seat: int, turn: int) -> list[int]:
    """The faces of :func:`turn_dice` (no :class:`Dice` made: the compiled games)."""
    most = ruleset.rolls * (len(ruleset.boxes) if ruleset.saved_rolls else 1)
    return seeded_faces(seed, f"match deal {deal} seat {seat} turn {turn}", 0,
                        ruleset.dice_count * most)


def seat_rng(seed: Seed, deal: int, seat: int) -> random.Random:
    """The random choices of the computer in seat ``seat`` of deal ``deal``."""
    return random.Random(f"{seed}:match deal {deal} seat {seat}")


# --- Playing ---------------------------------------------------------------------------


def play_game(ruleset: Ruleset, levels: Sequence[str], *, seed: Seed, deal: int,
              players: Sequence[str] | None = None) -> Game:
    """One game of deal ``deal`` with ``levels[s]`` in seat ``s`` (called ``players[s]``,
    by default :func:`player_names`), played to the end with the seats' dice and random
    choices (see the module's text); returns the finished game.

    Every action is the bot's and goes through the core, which refuses what the rules
    do not allow; only the dice are the match's (any dice an action carries are left
    out, so a bot cannot choose its luck).
    """
    names = player_names(levels) if players is None else tuple(players)
    bots = [make_bot(level, seat_rng(seed, deal, seat)) for seat, level in enumerate(levels)]
    game = Game.start(ruleset, names)
    n = ruleset.dice_count
    rows: list[Dice | None] = [None] * len(bots)
    while not game.is_over:
        seat = game.current_seat
        action = bots[seat].choose(game)
        if isinstance(action, Roll):
            entries = game.cards[seat].entries
            row = rows[seat] = turn_dice(ruleset, seed, deal, seat,
                                         len(entries) - entries.count(None))
            game = game.roll(row[:n])
        elif isinstance(action, Reroll):
            rolled = rows[seat]
            start = game.rolls_used * n
            # A hold the core refuses is refused before it looks at the dice.
            faces = None if rolled is None else rolled[start : start + n - len(action.hold)]
            game = game.reroll(action.hold, faces)
        else:
            game = game.apply(action)
    return game


def play_deal(ruleset: Ruleset, levels: Sequence[str], *, seed: Seed, deal: int
              ) -> tuple[tuple[int, ...], ...]:
    """The ``K`` games of deal ``deal`` (one per rotation of the seats, see
    :func:`seating`): each game's final totals, in the order of ``levels``."""
    k = len(levels)
    names = player_names(levels)
    results = []
    for rotation in range(k):
        seats = seating(k, rotation)
        game = play_game(ruleset, [levels[e] for e in seats], seed=seed, deal=deal,
                         players=[names[e] for e in seats])
        totals = [0] * k
        for seat, entrant in enumerate(seats):
            totals[entrant] = game.cards[seat].total
        results.append(tuple(totals))
    return tuple(results)


# --- Tallies ----------------------------------------------------------------------------


def win_shares(totals: Sequence[int]) -> tuple[Fraction, ...]:
    """Each player's share of one game's win: 1 for the winner, ``1/k`` to each of the
    ``k`` players who share the first place, 0 for the others.

    >>> [str(s) for s in win_shares([250, 231, 250])]
    ['1/2', '0', '1/2']
    """
    best = max(totals)
    first = sum(1 for total in totals if total == best)
    return tuple(Fraction(1, first) if total == best else Fraction(0) for total in totals)


def _unit(entrants: int) -> int:
    """How many units a game's win is worth, so that every shared win is whole units:
    the least common multiple of 1 to ``entrants``."""
    return math.lcm(*range(1, entrants + 1))


@dataclass(frozen=True)
class Tally:
    """The exact sums a match's statistics come from, per entrant, over its deals:
    the per-deal sums of the win shares (in units of ``1/unit``, ``unit`` = the least
    common multiple of 1 to ``K``, so a shared win is whole units) and of the final
    totals, and the sums of their squares. Tallies add up (``+``) in any order."""

    entrants: int
    deals: int
    #: Per entrant: the sum over deals of its win units in the deal.
    wins: tuple[int, ...]
    #: Per entrant: the sum over deals of the square of its win units in the deal.
    wins_squared: tuple[int, ...]
    #: Per entrant: the sum over deals of its totals in the deal's games.
    scores: tuple[int, ...]
    #: Per entrant: the sum over deals of the square of its totals' sum in the deal.
    scores_squared: tuple[int, ...]
    #: Games whose first place was shared.
    shared_firsts: int

    @classmethod
    def empty(cls, entrants: int) -> Tally:
        """The tally of no deals."""
        zeros = (0,) * entrants
        return cls(entrants, 0, zeros, zeros, zeros, zeros, 0)

    @classmethod
    def of_deal(cls, games: Sequence[Sequence[int]]) -> Tally:
        """The tally of one deal, given each game's totals in entrant order (as
        :func:`play_deal` gives them)."""
        k = len(games[0])
        unit = _unit(k)
        wins, scores, shared = [0] * k, [0] * k, 0
        for totals in games:
            best = max(totals)
            first = sum(1 for total in totals if total == best)
            shared += first > 1
            for entrant, total in enumerate(totals):
                scores[entrant] += total
                if total == best:
                    wins[entrant] += unit // first
        return cls(k, 1, tuple(wins), tuple(w * w for w in wins), tuple(scores),
                   tuple(s * s for s in scores), shared)

    @property
    def unit(self) -> int:
        """The units of one game's win (see the class's text)."""
        return _unit(self.entrants)

    def __add__(self, other: Tally) -> Tally:
        if not isinstance(other, Tally) or other.entrants != self.entrants:
            return NotImplemented

        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        return Tally(self.entrants, self.deals + other.deals, add(self.wins, other.wins),
                     add(self.wins_squared, other.wins_squared),
                     add(self.scores, other.scores),
                     add(self.scores_squared, other.scores_squared),
                     self.shared_firsts + other.shared_firsts)


def _mean_and_error(total: int, squares: int, deals: int, scale: int
                    ) -> tuple[float, float | None]:
    """The mean of per-deal values ``x = s / scale`` given the sums of ``s`` and of
    ``s²`` over ``deals`` deals, and its standard error (``None`` for one deal)."""
    mean = Fraction(total, deals * scale)
    if deals < 2:
        return float(mean), None
    variance = Fraction(deals * squares - total * total, deals * (deals - 1) * scale * scale)
    return float(mean), math.sqrt(variance / deals)


@dataclass(frozen=True)
class Standing:
    """One entrant's results in a match."""

    #: The entrant's place in the match's levels (0-based).
    entrant: int
    level: str
    #: Games won, a first place shared by ``k`` counting ``1/k``.
    wins: float
    #: The share of the wins: ``wins`` over the games.
    share: float
    #: The standard error of ``share``, over the deals (``None`` for one deal).
    share_error: float | None
    mean_score: float
    #: The standard error of ``mean_score``, over the deals (``None`` for one deal).
    score_error: float | None


@dataclass(frozen=True)
class MatchResult:
    """What a match found: each entrant's :class:`Standing`, in the order of the levels,
    and the exact sums behind them (:attr:`tally`)."""

    ruleset: Ruleset
    levels: tuple[str, ...]
    seed: Seed
    tally: Tally
    standings: tuple[Standing, ...]

    @classmethod
    def of(cls, ruleset: Ruleset, levels: Sequence[str], seed: Seed, tally: Tally
           ) -> MatchResult:
        """The result of a match of ``levels`` whose deals add up to ``tally``."""
        k, deals, unit = len(levels), tally.deals, tally.unit
        standings = []
        for i, level in enumerate(levels):
            share, share_error = _mean_and_error(tally.wins[i], tally.wins_squared[i],
                                                 deals, k * unit)
            mean, score_error = _mean_and_error(tally.scores[i], tally.scores_squared[i],
                                                deals, k)
            standings.append(Standing(i, level, float(Fraction(tally.wins[i], unit)), share,
                                      share_error, mean, score_error))
        return cls(ruleset, tuple(levels), seed, tally, tuple(standings))

    @property
    def deals(self) -> int:
        """Deals played: each is one game per rotation of the seats."""
        return self.tally.deals

    @property
    def games(self) -> int:
        """Games played."""
        return self.tally.deals * len(self.levels)

    @property
    def fair_share(self) -> float:
        """The share of the wins each entrant would have if all were equally strong."""
        return 1 / len(self.levels)

    def exact_share(self, entrant: int) -> Fraction:
        """The share of the wins of entrant ``entrant`` (0-based) as an exact fraction
        (:attr:`Standing.share` is its nearest float), for rounding it without surprises:
        with two entrants, the shares' differences from the fair share are then always
        equal and opposite."""
        return Fraction(self.tally.wins[entrant], self.tally.unit * self.games)

    @property
    def shared_firsts(self) -> int:
        """Games whose first place was shared."""
        return self.tally.shared_firsts

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON data."""
        return {
            "ruleset": self.ruleset.to_dict(),
            "levels": list(self.levels),
            "seed": self.seed,
            "games": self.games,
            "deals": self.deals,
            "fair_share": self.fair_share,
            "shared_firsts": self.shared_firsts,
            "standings": [
                {"level": s.level, "wins": s.wins, "share": s.share,
                 "share_error": s.share_error, "mean_score": s.mean_score,
                 "score_error": s.score_error}
                for s in self.standings
            ],
        }


# --- The match --------------------------------------------------------------------------


def check_levels(levels: object, ruleset: Ruleset | None = None) -> tuple[str, ...]:
    """``levels`` as a tuple of level names, if they can play a match: two or more, each
    a name :func:`yatzy.bots.make_bot` knows (:class:`BadMatch`, :class:`UnknownBot`)
    that plays ``ruleset`` when given (:class:`~yatzy.solver.UnsupportedRuleset`)."""
    if isinstance(levels, str | bytes) or not isinstance(levels, Sequence):
        raise BadMatch(f"A match needs a list of computer players, not {shown(levels)}",
                       code=AppCode.MATCH_LEVELS, count=shown(levels))
    for level in levels:
        check_level(level, ruleset)
    if len(levels) < 2:
        raise BadMatch(f"A match needs two or more computer players, not {len(levels)}",
                       code=AppCode.MATCH_LEVELS, count=len(levels))
    return tuple(levels)


def check_games(games: object, entrants: int) -> int:
    """``games`` if a match of ``entrants`` players can play that many games: a multiple
    of ``entrants`` from ``entrants`` to :data:`MOST_MATCH_GAMES` (else :class:`BadMatch`)."""
    most = MOST_MATCH_GAMES - MOST_MATCH_GAMES % entrants
    if (isinstance(games, bool) or not isinstance(games, int) or not entrants <= games <= most
            or games % entrants):
        raise BadMatch(
            f"A match of {entrants} computer players is played in deals of {entrants} "
            f"games: the number of games must be a multiple of {entrants} from {entrants} "
            f"to {most}, not {shown(games)}",
            code=AppCode.MATCH_GAMES, levels=entrants, most=most, games=shown(games))
    return games


#: One piece of a match's work: the ruleset (as :meth:`Ruleset.to_dict`, which a
#: worker process can be sent, unlike the ruleset itself), the levels, the seed and the
#: deals from ``start`` to ``stop - 1``.
_Job = tuple[dict[str, Any], tuple[str, ...], Seed, int, int]

#: The rulesets of the matches played in this process, by their ``repr``: a worker
#: forked from it finds the very ruleset the solver's table was loaded for (an equal
#: copy would be compared field by field at every piece of advice).
_RULESETS: dict[str, Ruleset] = {}


def _ruleset(rules: dict[str, Any]) -> Ruleset:
    """The ruleset of a :data:`_Job`: the one this process already has, if it has it."""
    ruleset = Ruleset.from_dict(rules)
    return _RULESETS.setdefault(repr(ruleset), ruleset)


def compiled_deals(ruleset: Ruleset, levels: Sequence[str], *, seed: Seed, start: int,
                   stop: int) -> list[tuple[tuple[int, ...], ...]] | None:
    """:func:`play_deal` of deals ``start`` to ``stop - 1``, by the solver's compiled loops
    (:func:`yatzy.bots.solver_bots.play_seated`): the same games, the same dice and the
    same plays, some hundred times faster; ``None`` when they cannot play these levels
    (:func:`~yatzy.bots.solver_bots.plays_compiled`: ``optimal``, and ``winner`` once)."""
    from yatzy.bots.solver_bots import play_seated, plays_compiled

    if not plays_compiled(ruleset, levels) or ruleset.saved_rolls:
        return None
    import numpy as np

    k = len(levels)
    nb, rolls, dice = len(ruleset.boxes), ruleset.rolls, ruleset.dice_count
    faces = np.array([[[_turn_faces(ruleset, seed, deal, seat, turn) for turn in range(nb)]
                       for seat in range(k)] for deal in range(start, stop)], dtype=np.int8)
    faces = faces.reshape(stop - start, k, nb, rolls, dice)
    seats = [seating(k, rotation) for rotation in range(k)]
    totals = play_seated(ruleset, faces, [[levels[e] for e in order] for order in seats])
    deals = []
    for d in range(stop - start):
        games = []
        for rotation, order in enumerate(seats):
            by_entrant = [0] * k
            for seat, entrant in enumerate(order):
                by_entrant[entrant] = int(totals[d, rotation, seat])
            games.append(tuple(by_entrant))
        deals.append(tuple(games))
    return deals


def _play_deals(job: _Job) -> Tally:
    """The tally of one piece of a match's work (see :data:`_Job`): by the compiled loops
    when they play its levels (:func:`compiled_deals`), else in real games."""
    rules, levels, seed, start, stop = job
    ruleset = _ruleset(rules)
    tally = Tally.empty(len(levels))
    compiled = compiled_deals(ruleset, levels, seed=seed, start=start, stop=stop)
    if compiled is not None:
        for games in compiled:
            tally += Tally.of_deal(games)
        return tally
    for deal in range(start, stop):
        tally += Tally.of_deal(play_deal(ruleset, levels, seed=seed, deal=deal))
    return tally


def _ignore_interrupts() -> None:
    """Workers leave Ctrl+C to the process that started them, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def available_cores() -> int:
    """The processor cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)  # pragma: no cover (no affinity on this system)


def play_match(levels: Sequence[str], games: int, ruleset: Ruleset, seed: Seed = 0, *,
               workers: int | None = None, progress: Progress | None = None
               ) -> MatchResult:
    """Play ``games`` games between the computer levels ``levels`` (two or more, repeats
    allowed) under ``ruleset``, in deals of ``len(levels)`` games with the seats rotated
    and the dice paired (see the module's text), and tally them.

    ``games`` must be a multiple of ``len(levels)``, at most :data:`MOST_MATCH_GAMES`.
    ``seed`` (a whole number from 0 to 2^53 - 1, or a secret seed) fixes every die and
    every random choice. The deals are shared out among ``workers`` processes (default:
    one per available core; 1 plays them all in this process); the result is the same
    for any number of them. ``progress(done, games)`` is called as games are done.
    """
    names = check_levels(levels, ruleset)
    k = len(names)
    count = check_games(games, k)
    if seed is None:
        raise IllegalMove(f"A seed must be a whole number from 0 to {MAX_SEED}, not None",
                          code=ErrorCode.BAD_SEED, most=MAX_SEED, seed="None")
    checked_seed = check_seed(seed)
    assert checked_seed is not None
    Game.start(ruleset, player_names(names))  # the core's refusal of the rules or players
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise BadMatch(f"Workers must be a whole number 1 or more, not {shown(workers)}",
                       code=AppCode.APP)
    _RULESETS[repr(ruleset)] = ruleset
    deals = count // k
    size = max(1, GAMES_PER_CHUNK // k)
    jobs: list[_Job] = [(ruleset.to_dict(), names, checked_seed, start, min(start + size, deals))
            for start in range(0, deals, size)]
    tally = Tally.empty(k)

    def add(part: Tally) -> None:
        nonlocal tally
        tally += part
        if progress is not None:
            progress(tally.deals * k, count)

    # The first piece is played here: it loads what the bots need (the solver's table)
    # before any worker starts, so that workers forked from this process share it.
    add(_play_deals(jobs[0]))
    rest = jobs[1:]
    processes = min(available_cores() if workers is None else workers, len(rest))
    if processes <= 1:
        for job in rest:
            add(_play_deals(job))
    else:
        with multiprocessing.get_context().Pool(processes, _ignore_interrupts) as pool:
            for part in pool.imap_unordered(_play_deals, rest):
                add(part)
    return MatchResult.of(ruleset, names, checked_seed, tally)
