"""Players' profiles and the leaderboards: rating histories, recent games, bests, the
luck-free *accuracy* figure, and rated public tables.

**Rated games.** A quick match (:mod:`yatzy.app.quickmatch`) is a rated two-player game,
rated by Glicko-2 (:mod:`yatzy.app.ratings`). A *public table* of
:data:`~yatzy.app.skill.FEWEST_PLAYERS` to :data:`~yatzy.app.skill.MOST_PLAYERS` seats,
without a computer, becomes rated when its last seat is taken if every seat is then
held by a named player under their own display name (their browser claimed it): its
players are noted then (:meth:`ProfileService.rate_table`), and the table's result
counts for their OpenSkill ratings (:mod:`yatzy.app.skill`) once it is over, once,
whoever comes first (the process that stores the last action, or a profile read
later). A rating is *provisional* until :data:`~yatzy.app.ratings.PROVISIONAL_GAMES`
games of its kind counted. Every settlement is kept: the rating before and after, and
its deviation (:class:`RatingPoint`).

**Accuracy.** When a game is over, the points each named player's decisions lost against
optimal play (the solver's analysis, :func:`yatzy.solver.analysis.analyse`) are worked
out *in the background* (the advice pool, never a request) and stored per game
(:meth:`ProfileService.note_accuracy`); a named player's daily attempt is noted there
too, so that reading the day's results finds it done. A player's accuracy is the mean of their last
:data:`RECENT_GAMES` such figures: lower is better, and the dice's luck does not move
it (a decision's loss is measured against the best decision on the same dice).

A seat counts for a player when a browser of theirs claimed it and its name is their
display name (so that a pass-and-play game on one browser counts only the owner's seat).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Protocol

from yatzy.app.codes import AppCode
from yatzy.app.errors import BadQuery, GameNotFound
from yatzy.app.ratings import provisional
from yatzy.app.saved import BestScore, Player, SavedGame
from yatzy.app.skill import FEWEST_PLAYERS, MOST_PLAYERS
from yatzy.core.errors import RecordError, RulesError
from yatzy.core.names import name_key
from yatzy.core.rulesets import Ruleset

if TYPE_CHECKING:
    from yatzy.app.players import DailyResults
    from yatzy.app.service import GameService

#: The games a player's accuracy is the mean of (the most recent ones).
RECENT_GAMES = 20
#: The analysed games a player needs to be on the accuracy leaderboard.
ACCURACY_MIN_GAMES = 5
#: Rows of a profile's lists and of a leaderboard, at most.
PROFILE_GAMES = 20
HISTORY_POINTS = 200
LEADERBOARD_SIZE = 50

#: The kinds of rating: Glicko-2 (two players) and OpenSkill (3 to 6).
GLICKO, OPENSKILL = "glicko", "openskill"
KINDS = (GLICKO, OPENSKILL)
#: What a leaderboard can be by.
BOARDS = ("rating", "accuracy", "daily")

#: Runs a piece of work in the background (the advice pool).
Background = Callable[[Callable[[], object]], None]


@dataclass(frozen=True)
class RatingPoint:
    """One settlement of a rated game for a player: ``kind`` (:data:`GLICKO` or
    :data:`OPENSKILL`), the rating and deviation before and after."""

    game_id: str
    kind: str
    rated_at: datetime
    rating_before: float
    deviation_before: float
    rating_after: float
    deviation_after: float


@dataclass(frozen=True)
class PlayedGame:
    """A finished game a player sat in: their ``total`` and ``place`` among ``players``,
    and the points their decisions lost (``None`` until analysed, or never)."""

    game_id: str
    rules: Ruleset
    finished_at: datetime
    total: int
    place: int
    players: int
    points_lost: float | None


@dataclass(frozen=True)
class AccuracyPoint:
    """The points a player's decisions lost in one analysed game (of ruleset ``rules``,
    a name)."""

    game_id: str
    rules: str
    finished_at: datetime
    points_lost: float


@dataclass(frozen=True)
class RatingRow:
    """A row of the rating leaderboard: ``rating`` and ``deviation`` of the kind asked
    (Glicko-2's rating, or OpenSkill's mu and sigma) over ``games`` rated games."""

    name: str
    rating: float
    deviation: float
    games: int

    @property
    def provisional(self) -> bool:
        return provisional(self.games)


@dataclass(frozen=True)
class AccuracyRow:
    """A row of the accuracy leaderboard: the mean points lost over the player's last
    ``games`` analysed games (up to :data:`RECENT_GAMES`) of a ruleset."""

    name: str
    points_lost: float
    games: int


@dataclass(frozen=True)
class KindRating:
    """A player's rating of one kind, with its uncertainty; ``None`` values until a
    game of that kind counted."""

    kind: str
    rating: float | None
    deviation: float | None
    games: int

    @property
    def provisional(self) -> bool:
        return provisional(self.games)


@dataclass(frozen=True)
class PlayerHistory:
    """Everything a profile page shows beyond :class:`~yatzy.app.players.Profile`."""

    name: str
    ratings: tuple[KindRating, ...]
    history: tuple[RatingPoint, ...]
    games: tuple[PlayedGame, ...]
    bests: tuple[BestScore, ...]
    accuracy: tuple[AccuracyPoint, ...]
    recent_points_lost: float | None
    streak: int
    daily_days: tuple[tuple[date, str, int | None, float | None], ...]


@dataclass(frozen=True)
class Leaderboard:
    """A leaderboard: ``by`` rating (``kind``), accuracy (``rules``) or daily (``rules``
    on ``day``, its :class:`~yatzy.app.players.DailyResults`)."""

    by: str
    kind: str | None = None
    rules: str | None = None
    day: date | None = None
    ratings: tuple[RatingRow, ...] = ()
    accuracy: tuple[AccuracyRow, ...] = ()
    daily: DailyResults | None = None


class ProfileRepository(Protocol):
    """Where rated tables, rating histories and games' accuracy live (shared by every
    process of a site). Writes commit before they return; failures are
    :class:`~yatzy.app.errors.StorageError`."""

    def claimed_seats(self, game_id: str) -> list[tuple[int, Player]]:
        """The seats of ``game_id`` a named player's browser claimed, with the player,
        where the seat's name is the player's display name (as stored)."""
        ...

    def register_table(self, game_id: str, rules: str, players: Sequence[str],
                       when: datetime) -> bool:
        """Note the public table ``game_id`` as rated, with its players' ids in seat
        order; False (no change) when it is noted already."""
        ...

    def rate_table(self, game_id: str, seats: int,
                   rate: Callable[[list[tuple[float, float] | None]],
                                  list[tuple[float, float]]],
                   when: datetime) -> bool:
        """Count the result of the rated table ``game_id`` of ``seats`` seats once: its
        players' OpenSkill (mu, sigma), in seat order (``None`` for one not rated yet),
        become ``rate(...)``, and each settlement is kept. False, changing nothing, when
        it counted already or is not a rated table (and for nobody when one of its
        players is gone)."""
        ...

    def rating_history(self, player_id: str, limit: int) -> list[RatingPoint]:
        """The player's last ``limit`` settlements, oldest first."""
        ...

    def add_accuracy(self, game_id: str, rules: str, finished_at: datetime,
                     seats: Sequence[tuple[int, str, float]], *, recent: int) -> None:
        """Note the points lost of ``(seat, player id, points)`` in a finished game
        (a second note of a seat changes nothing), and each of its players' mean over
        their last ``recent`` analysed games of ``rules`` (for the leaderboard)."""
        ...

    def player_accuracy(self, player_id: str, limit: int) -> list[AccuracyPoint]:
        """The player's last ``limit`` analysed games, oldest first."""
        ...

    def played_games(self, player_id: str, name: str, limit: int) -> list[PlayedGame]:
        """The player's last ``limit`` finished games (seats named ``name``), newest
        first."""
        ...

    def player_bests(self, player_id: str, name: str) -> list[BestScore]:
        """The player's best total per ruleset variant (seats named ``name``)."""
        ...

    def rating_leaders(self, kind: str, limit: int, established: int) -> list[RatingRow]:
        """The named players with a rating of ``kind``: those with ``established``
        games or more first, each group by rating (OpenSkill: by mu - 3 sigma)."""
        ...

    def accuracy_leaders(self, rules: str, limit: int, *, recent: int,
                         min_games: int) -> list[AccuracyRow]:
        """The named players with ``min_games`` analysed games of ``rules`` or more, by
        their mean points lost over their last ``recent`` (fewest first; the means
        :meth:`add_accuracy` kept)."""
        ...


def _limit(value: object, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise BadQuery(f"limit must be a whole number from 1 to {most}, not {value!r}",
                       value=repr(value), code=AppCode.BAD_BOARD)
    return value


class ProfileService:
    """Profiles, leaderboards, rated tables and accuracy over a
    :class:`ProfileRepository` and the games of a
    :class:`~yatzy.app.service.GameService` (``service.profiles``). ``background``
    runs the analysis of a finished game (the web app gives the advice pool); without
    one, no accuracy is noted."""

    def __init__(self, games: GameService, repository: ProfileRepository,
                 clock: Callable[[], datetime]) -> None:
        self._games = games
        self._repo = repository
        self._clock = clock
        self.background: Background | None = None

    # --- Rated tables ---------------------------------------------------------------

    def rate_table(self, saved: SavedGame) -> bool:
        """Note the public table ``saved`` as rated if it is one that is (3 to 6 seats,
        none a computer or open, every one claimed by a named player under their
        display name, no player twice): True when it is (now or already)."""
        seats = saved.seats
        if not saved.public or saved.open_seats or not (
                FEWEST_PLAYERS <= len(seats) <= MOST_PLAYERS) or any(s.bot for s in seats):
            return False
        claimed: dict[int, Player] = {}
        for seat, player in self._repo.claimed_seats(saved.id):
            if seat < len(seats) and player.name is not None and (
                    name_key(player.name) == name_key(seats[seat].name)):
                claimed.setdefault(seat, player)
        ids = [claimed[i].id for i in range(len(seats)) if i in claimed]
        if len(ids) != len(seats) or len(set(ids)) != len(ids):
            return False
        self._repo.register_table(saved.id, saved.rules.name, ids, self._clock())
        return True

    # --- A game over ----------------------------------------------------------------

    def game_over(self, saved: SavedGame) -> None:
        """``saved`` is over (just stored by this process): its players' accuracy is
        worked out in the background."""
        if self.background is not None and saved.finished:
            game_id = saved.id
            self.background(lambda: self.note_accuracy(game_id))

    def note_accuracy(self, game_id: str) -> int:
        """Work out and store the points lost of each named player's seat of the
        finished game ``game_id`` (the solver's analysis, one per game): the seats
        noted (0 for a game not over, gone, or of rules the solver does not play).
        Costly: for the background, never a request."""
        from yatzy.solver import SolverMissing, TableNotBuilt, UnsupportedRuleset, check_ready
        from yatzy.solver.analysis import analyse

        try:
            saved = self._games.load(game_id)
        except (GameNotFound, RecordError):
            return 0
        if not saved.finished:
            return 0
        players: dict[int, str] = {}
        for seat, player in self._repo.claimed_seats(game_id):
            if (seat < len(saved.seats) and player.name is not None and not saved.seats[seat].bot
                    and name_key(player.name) == name_key(saved.seats[seat].name)):
                players.setdefault(seat, player.id)
        if not players:
            return 0
        try:
            check_ready(saved.rules)  # a table too large for a request is never built
            analysis = analyse(saved.game)
        except (RulesError, UnsupportedRuleset, TableNotBuilt, SolverMissing):
            return 0
        rows = [(seat, player_id, round(analysis.players[seat].total_loss, 3))
                for seat, player_id in sorted(players.items())]
        self._repo.add_accuracy(game_id, saved.rules.name, saved.updated_at, rows,
                                recent=RECENT_GAMES)
        if len(saved.seats) == 1:  # a daily attempt's result is noted here too, off the
            seat, player_id, lost = rows[0]  # request that would otherwise work it out
            self._games.players.settle_daily(player_id, game_id, lost)
        return len(rows)

    # --- Reading --------------------------------------------------------------------

    def history(self, name: object) -> PlayerHistory:
        """The profile page's data of the player called ``name``:
        :class:`~yatzy.app.errors.PlayerNotFound` when nobody is."""
        player = self._games.players.named(name)
        assert player.name is not None
        accuracy = self._repo.player_accuracy(player.id, HISTORY_POINTS)
        recent = [a.points_lost for a in accuracy[-RECENT_GAMES:]]
        daily = self._games.players.daily_days(player.id)
        return PlayerHistory(
            name=player.name,
            ratings=(KindRating(GLICKO, player.rating, player.rating_deviation,
                                player.rated_games),
                     KindRating(OPENSKILL, player.skill_mu, player.skill_sigma,
                                player.skill_games)),
            history=tuple(self._repo.rating_history(player.id, HISTORY_POINTS)),
            games=tuple(self._repo.played_games(player.id, player.name, PROFILE_GAMES)),
            bests=tuple(self._repo.player_bests(player.id, player.name)),
            accuracy=tuple(accuracy),
            recent_points_lost=round(sum(recent) / len(recent), 3) if recent else None,
            streak=daily[0],
            daily_days=daily[1],
        )

    def leaderboard(self, by: object, *, kind: object = None, rules: object = None,
                    day: object = None, limit: object = LEADERBOARD_SIZE,
                    player_key: str | None = None) -> Leaderboard:
        """The leaderboard ``by`` ``"rating"`` (``kind`` :data:`GLICKO`, the default,
        or :data:`OPENSKILL`; established players first), ``"accuracy"`` (``rules``, a
        ruleset's name, default ``"yatzy"``; players with
        :data:`ACCURACY_MIN_GAMES` analysed games) or ``"daily"`` (``rules`` on
        ``day``, default today). Anything else is :class:`~yatzy.app.errors.BadQuery`."""
        from yatzy.app.players import _standard
        from yatzy.app.ratings import PROVISIONAL_GAMES

        count = _limit(limit, LEADERBOARD_SIZE)
        if by not in BOARDS:
            raise BadQuery(f"by must be one of {', '.join(BOARDS)}, not {by!r}",
                           value=repr(by), code=AppCode.BAD_BOARD)
        if by == "rating":
            if rules is not None or day is not None:
                raise BadQuery("The rating leaderboard is one for every ruleset",
                               value=repr(rules if rules is not None else day),
                               code=AppCode.BAD_BOARD)
            chosen = GLICKO if kind is None else kind
            if chosen not in KINDS:
                raise BadQuery(f"kind must be one of {', '.join(KINDS)}, not {kind!r}",
                               value=repr(kind), code=AppCode.BAD_BOARD)
            assert isinstance(chosen, str)
            return Leaderboard("rating", kind=chosen, ratings=tuple(
                self._repo.rating_leaders(chosen, count, PROVISIONAL_GAMES)))
        if kind is not None:
            raise BadQuery("kind is for the rating leaderboard", value=repr(kind),
                           code=AppCode.BAD_BOARD)
        name = _standard("yatzy" if rules is None else rules).name
        if by == "accuracy":
            if day is not None:
                raise BadQuery("The accuracy leaderboard has no date", value=repr(day),
                               code=AppCode.BAD_BOARD)
            return Leaderboard("accuracy", rules=name, accuracy=tuple(
                self._repo.accuracy_leaders(name, count, recent=RECENT_GAMES,
                                            min_games=ACCURACY_MIN_GAMES)))
        players = self._games.players
        results = players.results(name, players.today() if day is None else day,
                                  player_key)
        return Leaderboard("daily", rules=name, day=results.challenge.day, daily=results)


__all__ = ["ACCURACY_MIN_GAMES", "BOARDS", "GLICKO", "KINDS", "LEADERBOARD_SIZE", "OPENSKILL",
           "RECENT_GAMES", "AccuracyPoint", "AccuracyRow", "KindRating", "Leaderboard",
           "PlayedGame", "PlayerHistory", "ProfileRepository", "ProfileService",
           "RatingPoint", "RatingRow"]
