"""The value types of the game service: seats, saved games, results and statistics.

>>> from datetime import datetime, timezone
>>> import yatzy
>>> game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann", "cpu"], seed=5)
>>> when = datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> saved = SavedGame("g1", game, (Seat("Ann"), Seat("cpu", bot="greedy")), "auto", when, when)
>>> saved.finished, saved.seat("cpu").is_bot
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from yatzy.app.codes import AppCode
from yatzy.core.errors import ErrorCode, IllegalMove
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset


@dataclass(frozen=True)
class Seat:
    """A place at the table: the player's name and, for a computer player, its level
    (``"greedy"``); ``bot=None`` is a person. A person's seat in an online game has
    ``token_hash``, the hash of the secret that lets its holder act for it
    (:mod:`yatzy.app.access`). An ``open`` seat of a public table waits for a person to
    join (:meth:`~yatzy.app.service.GameService.join`): until then its name is a
    stand-in the service chose, which no page shows. An ``idle`` seat is a person's of
    a rated game whose clock ran out (:meth:`~yatzy.app.service.GameService.time_out`):
    from then on the computer of level ``bot`` plays it, and the game counts as lost
    for that person."""

    name: str
    bot: str | None = None
    token_hash: str | None = field(default=None, repr=False)
    open: bool = False
    idle: bool = False

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.bot is not None

    def __str__(self) -> str:
        return self.name if self.bot is None else f"{self.name} ({self.bot})"


@dataclass(frozen=True)
class SavedGame:
    """A game as the service keeps it: the core game plus who sits where and when."""

    #: The game's id in the store.
    id: str
    #: The game itself (immutable); its record is what is stored.
    game: Game
    #: The seats in seat order, one per player of ``game``.
    seats: tuple[Seat, ...]
    #: ``"auto"`` (the program rolls, from the game's seed) or ``"manual"`` (real dice).
    dice_mode: str
    #: When the game was created (aware, UTC).
    created_at: datetime
    #: When the last action was played (aware, UTC).
    updated_at: datetime
    #: How many times the game was written: each action or undo adds one. A store only
    #: replaces the version it was read at, so a stale copy never overwrites a newer game
    #: (the number of actions cannot tell: an undo lowers it).
    version: int = 1
    #: Hints (the optimal move, on demand) are on for the people at this table.
    hints: bool = False
    #: The result counts for the players' ratings (a quick-match game).
    rated: bool = False
    #: A public table: listed in the lobby, where anyone may take its open seats.
    public: bool = False

    @property
    def open_seats(self) -> int:
        """Seats still waiting for a person to join."""
        return sum(seat.open for seat in self.seats)

    @property
    def waiting(self) -> bool:
        """True while a seat is open: nobody plays until every seat is taken."""
        return any(seat.open for seat in self.seats)

    @property
    def finished(self) -> bool:
        """True once every player has filled every box."""
        return self.game.is_over

    @property
    def rules(self) -> Ruleset:
        """The game's ruleset."""
        return self.game.ruleset

    @property
    def steps(self) -> int:
        """Actions played so far."""
        return len(self.game.history)

    def seat(self, name: str) -> Seat:
        """The seat of the player called ``name``."""
        for seat in self.seats:
            if seat.name == name:
                return seat
        raise IllegalMove(f"No player called {name!r}", code=ErrorCode.UNKNOWN_PLAYER)

    @property
    def current_seat(self) -> Seat:
        """The seat whose turn it is."""
        return self.seats[self.game.current_seat]


@dataclass(frozen=True)
class DamagedGame:
    """A stored game that cannot be read back: its record no longer replays, or its row
    holds data the program did not write (JSON, seats or dates). A listing shows it as a
    value rather than failing, so one damaged game hides no other; it can be exported
    (its row as stored) or deleted, never continued.

    >>> DamagedGame("g1", "bad seats")
    DamagedGame(id='g1', reason='bad seats', updated_at=None, finished=False)
    >>> str(DamagedGame("g1", "bad seats"))
    'damaged: bad seats'
    """

    #: The game's id in the store.
    id: str
    #: What is wrong with it, in English (the error that reading it raised).
    reason: str
    #: When it was last played, when the row still says so readably.
    updated_at: datetime | None = None
    #: True when its row says it is finished.
    finished: bool = False

    def __str__(self) -> str:
        return f"damaged: {self.reason}"


#: One entry of a listing of saved games: a game, or one that can no longer be read.
ListedGame = SavedGame | DamagedGame


@dataclass(frozen=True)
class PlayerResult:
    """One player's result in a finished game (one row of the history)."""

    seat: int
    player: str
    bot: str | None
    total: int
    #: The upper bonus awarded (0 when the upper section stayed under 63).
    upper_bonus: int
    #: Points in the five-of-a-kind box (Yatzy or Yahtzee): 50 or 0.
    yahtzee_points: int
    #: Extra Yahtzees that earned the Yahtzee bonus.
    yahtzee_bonuses: int
    #: 1 for the winner(s); players with equal totals share a place.
    place: int

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.bot is not None


def player_results(saved: SavedGame) -> tuple[PlayerResult, ...]:
    """The result of every player of a finished game, in seat order.

    >>> from datetime import datetime, timezone
    >>> import yatzy
    >>> g = yatzy.new_game(yatzy.ruleset("yatzy", rolls=1), ["Ann"], seed=1)
    >>> while not g.is_over:
    ...     g = g.roll([6, 6, 6, 6, 6])
    ...     g = g.score(next(iter(g.choices())))  # the first open box
    >>> t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    >>> r = player_results(SavedGame("x", g, (Seat("Ann"),), "auto", t, t))[0]
    >>> r.total, r.upper_bonus, r.yahtzee_points, r.place
    (164, 0, 50, 1)
    """
    game = saved.game
    if not game.is_over:
        raise IllegalMove("The game is not over yet", code=AppCode.GAME_NOT_OVER)
    totals = [card.total for card in game.cards]
    ybox = game.ruleset.yahtzee_box  # none in a ruleset without n of a kind
    return tuple(
        PlayerResult(
            seat=i,
            player=seat.name,
            bot=seat.bot,
            total=card.total,
            upper_bonus=card.upper_bonus,
            yahtzee_points=card[ybox] or 0 if ybox in card else 0,
            yahtzee_bonuses=card.yahtzee_bonus_count,
            place=1 + sum(t > card.total for t in totals),
        )
        for i, (seat, card) in enumerate(zip(saved.seats, game.cards, strict=True))
    )


@dataclass(frozen=True)
class StatsRow:
    """Statistics of one player under one ruleset (with its options), over finished
    games."""

    #: The ruleset in display form, e.g. ``"yatzy"`` or ``"yahtzee (joker=free)"``.
    ruleset: str
    player: str
    games: int
    best: int
    mean: float
    #: Share of games in which the upper bonus was reached, 0..1.
    bonus_rate: float
    #: Share of games with the five-of-a-kind box scored 50, 0..1.
    yahtzee_rate: float
    #: Games won (shared wins count).
    wins: int = 0


@dataclass(frozen=True)
class SeatedGame:
    """A game in which a browser's player key has a seat (``seat``: its index)."""

    saved: SavedGame
    seat: int


@dataclass(frozen=True)
class LeaderEntry:
    """One line of a leaderboard: a person's total in a finished game."""

    player: str
    total: int
    game_id: str
    finished_at: datetime


@dataclass(frozen=True)
class BestScore:
    """A player key's best total under one ruleset variant, over ``games`` games."""

    rules: Ruleset
    best: int
    games: int


@dataclass(frozen=True)
class Player:
    """A person who plays on a server, known by the keys of their browsers: ``name`` is
    their display name (``None`` until they choose one)."""

    id: str
    name: str | None
    created_at: datetime
    #: The Glicko-2 rating, deviation and volatility: ``None`` until a rated game counted.
    rating: float | None = None
    rating_deviation: float | None = None
    rating_volatility: float | None = None
    #: The rated games that counted for the rating.
    rated_games: int = 0
    #: The OpenSkill rating of rated games of 3 to 6 players (:mod:`yatzy.app.skill`):
    #: ``None`` until one counted, and how many did.
    skill_mu: float | None = None
    skill_sigma: float | None = None
    skill_games: int = 0


@dataclass(frozen=True)
class DailyEntry:
    """A player's ranked attempt at the challenge of ``rules`` (a ruleset's name) on
    ``day``: ``total`` and ``points_lost`` once the game is over (``points_lost``
    stays ``None`` where the solver does not play the rules), else ``None``."""

    rules: str
    day: date
    player_id: str
    player: str | None
    game_id: str
    started_at: datetime
    total: int | None = None
    points_lost: float | None = None
    finished_at: datetime | None = None

    @property
    def finished(self) -> bool:
        """True once the total is noted."""
        return self.total is not None


#: The states of a quick-match ticket.
WAITING, MATCHED, CANCELLED, EXPIRED = "waiting", "matched", "cancelled", "expired"


@dataclass(frozen=True)
class Ticket:
    """A player's request to be paired for a rated game of ``rules`` (a ruleset's
    name, its standard options). ``id`` is the SHA-256 of the secret ticket the player
    holds; ``token_hash`` the hash of the seat token it gives. Once ``status`` is
    ``"matched"``, ``game_id`` and ``seat`` say where the player sits."""

    id: str
    player_id: str
    name: str
    key_hash: str
    token_hash: str
    rules: str
    rating: float
    status: str
    created_at: datetime
    seen_at: datetime
    game_id: str | None = None
    seat: int | None = None
    matched_at: datetime | None = None
