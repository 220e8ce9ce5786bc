"""The game service: create, play, save, resume and look back on games.

Every change goes validate -> apply -> persist -> publish: the core checks the action
and computes the new game, the repository commits it, and only then do subscribers
hear of it. An illegal action raises and stores nothing.

>>> import yatzy
>>> from yatzy.bootstrap import open_service
>>> service = open_service("sqlite://")          # an in-memory database
>>> saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=1)
>>> saved = service.apply(saved.id, yatzy.Roll())
>>> service.load(saved.id).game.dice == saved.game.dice
True
>>> service.close()
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import Any

from yatzy.app.access import player_key_hash
from yatzy.app.codes import AppCode
from yatzy.app.devices import DeviceService
from yatzy.app.dice import (
    check_action_dice,
    check_dice_mode,
    program_roll_off,
    starting_seed,
)
from yatzy.app.errors import (
    AmbiguousGameId,
    BadQuery,
    BadSeats,
    GameChanged,
    GameNotFound,
    NameAtTable,
    NotPublic,
    StorageError,
    TableExpired,
    TableFull,
    TableWaiting,
)
from yatzy.app.events import (
    ActionApplied,
    ActionUndone,
    Event,
    GameCreated,
    GameDeleted,
    GameFinished,
    SeatIdle,
    SeatTaken,
    TableRated,
    TurnsHandedOver,
)
from yatzy.app.feed import (
    ChangeFeed,
    LocalFeed,
    Presence,
    PresenceSubscriber,
    StoreFeed,
    Subscriber,
)
from yatzy.app.players import PlayerService
from yatzy.app.ports import GameRepository, Lease, LeaseStore, NewGame, RulesFilter
from yatzy.app.profiles import ProfileService
from yatzy.app.quickmatch import QuickMatch
from yatzy.app.saved import (
    BestScore,
    LeaderEntry,
    ListedGame,
    SavedGame,
    Seat,
    SeatedGame,
    StatsRow,
)
from yatzy.bots import check_level
from yatzy.core.actions import Action, Undo, action_from_dict
from yatzy.core.errors import IllegalMove, RulesError, YatzyError, shown
from yatzy.core.game import Game, Step
from yatzy.core.names import MAX_PLAYERS, check_name, check_players, free_name, same_name
from yatzy.core.rulesets import Ruleset, check_ruleset, ruleset
from yatzy.core.seeded import Seed, check_seed
from yatzy.solver import check_ready

#: Games in play a service keeps in memory by default (the least recently used go first).
CACHE_SIZE = 64

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time, aware, in UTC."""
    return datetime.now(UTC)


#: How long a person in a rated game has for each decision (a roll, a reroll, a box) by
#: default: when it runs out, a computer plays their seat (:meth:`GameService.time_out`).
MOVE_CLOCK = timedelta(seconds=60)
#: Overdue rated games :meth:`GameService.overdue` lists at most per call.
OVERDUE_BATCH = 100

#: How long a game nobody has moved in is kept by :meth:`GameService.prune_unmoved`.
UNMOVED_AGE = timedelta(days=1)

#: How long a public table waits for its next player: one nobody joins for so long
#: leaves the lobby and can no longer be joined.
TABLE_WAIT = timedelta(minutes=30)
#: A full public table nobody has moved in for so long leaves the lobby's live games.
LIVE_IDLE = timedelta(minutes=30)
#: Public tables of each kind (waiting, live) the lobby lists at most.
LOBBY_SIZE = 20
#: Joins of one table tried while others take its seats at the same moment.
JOIN_TRIES = 5

#: Reads of the stored game an :meth:`GameService.apply` without an expectation tries
#: the action on while other writers keep moving the game on.
APPLY_TRIES = 3

#: The most games one call lists (a number every database binds).
MAX_LIMIT = 2**31 - 1
#: The longest game id the service looks up (ids are 32 hexadecimal digits).
MAX_ID_LENGTH = 64


def _seats(seats: Iterable[Seat | str], rules: Ruleset | None = None) -> tuple[Seat, ...]:
    if isinstance(seats, str | bytes) or not isinstance(seats, Iterable):
        raise BadSeats(f"Seats must be a list of seats, not {shown(seats)}",
                       seats=shown(seats))
    result = tuple(Seat(s) if isinstance(s, str) else s
                   for s in islice(seats, MAX_PLAYERS + 1))
    for seat in result:
        if not isinstance(seat, Seat):
            raise BadSeats(f"A seat must be a Seat or a name, not {shown(seat)}",
                           seats=shown(seat))
        if seat.bot is not None:
            check_level(seat.bot, rules)  # a level that does not play the rules, too
    try:
        check_players([seat.name for seat in result])
    except IllegalMove as exc:
        # The core decides what a name is; the service only says it as its own error.
        raise BadSeats(exc.message, code=exc.code, **exc.params) from exc
    return result


def _open_names(seats: Sequence[Seat | str]) -> list[Seat | str]:
    """``seats`` with a stand-in name for each open seat (``Open seat 2`` for the second
    seat, or one more number where a player has that name): the game's players must
    have names, and a person who joins may take any other."""
    taken = [s if isinstance(s, str) else s.name for s in seats
             if isinstance(s, str) or (isinstance(s, Seat) and not s.open
                                       and isinstance(s.name, str))]
    named: list[Seat | str] = []
    for i, seat in enumerate(seats):
        if isinstance(seat, Seat) and seat.open:
            seat = replace(seat, name=free_name(f"Open seat {i + 1}", taken))
            taken.append(seat.name)
        named.append(seat)
    return named


def _check_open_seats(seats: Sequence[Seat | str], public: bool, dice_mode: str) -> None:
    """An open seat is a person's place to take (no name, no computer), at a public
    table, which plays with the program's dice (its players are not at one table)."""
    if not any(isinstance(seat, Seat) and seat.open for seat in seats):
        return
    if not public:
        raise BadSeats("Only a public table has open seats", code=AppCode.OPEN_SEATS_PRIVATE)
    for seat in seats:
        if isinstance(seat, Seat) and seat.open and (seat.name or seat.bot is not None
                                                     or seat.token_hash):
            raise BadSeats("An open seat has no name and no computer",
                           code=AppCode.OPEN_SEAT)
    if dice_mode != "auto":
        raise BadSeats("A public table plays with the program's dice",
                       code=AppCode.PUBLIC_DICE)


def _as_query(exc: IllegalMove | RulesError) -> BadQuery:
    """The core's refusal of an argument, said as the service's error (same code)."""
    return BadQuery(exc.message, code=exc.code, **exc.params)


def _check_game_id(game_id: object) -> str:
    """``game_id`` if it is text the store can look up; an id no game can have (not
    printable ASCII, or too long) is :class:`GameNotFound` before the store sees it."""
    if not isinstance(game_id, str):
        raise BadQuery(f"A game id must be text, not {shown(game_id)}", value=shown(game_id))
    if len(game_id) > MAX_ID_LENGTH or not (game_id.isascii() and game_id.isprintable()):
        raise GameNotFound(shown(game_id))
    return game_id


def _check_limit(limit: object) -> int:
    """A limit the store can bind (0 or less lists nothing, as before)."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit > MAX_LIMIT:
        raise BadQuery(
            f"The number of games must be a whole number up to {MAX_LIMIT},"
            f" not {shown(limit)}", value=shown(limit),
        )
    return limit


def _check_count(value: object, what: str) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise BadQuery(f"{what} must be a whole number, not {shown(value)}", value=shown(value))
    return value


def _check_player(player: object) -> str | None:
    if player is None:
        return None
    try:
        return check_name(player)
    except IllegalMove as exc:
        raise _as_query(exc) from exc


def _check_rules_filter(rules: object) -> RulesFilter:
    """A ruleset, the name of one (checked by the core) or ``None``."""
    if rules is None or isinstance(rules, Ruleset):
        return rules
    if not isinstance(rules, str):
        raise BadQuery(f"Rules to filter by must be a ruleset or its name, not {shown(rules)}",
                       value=shown(rules))
    try:
        return ruleset(rules).name
    except RulesError as exc:
        raise _as_query(exc) from exc


class GameService:
    """Plays and keeps games through a :class:`~yatzy.app.ports.GameRepository`.

    All state is in the instance and its repository: two services on one database see
    the same games. Get one with :func:`yatzy.bootstrap.open_service`. Every stored
    change is published on the service's change feed (:meth:`subscribe`); with
    ``follow=True`` the feed also carries the changes other services (processes) store
    in the same database (:class:`~yatzy.app.feed.StoreFeed`), and so does a ``feed``
    given (one that also goes through Redis, say). With ``leases`` (a store that
    other processes on the database share), one process at a time plays a game's
    computer turns (:meth:`take_turns`). ``move_clock`` is how long a person of a rated
    game has for each decision (``None``: no clock; see :meth:`deadline`).
    """

    def __init__(self, repository: GameRepository, *, clock: Clock = utc_now,
                 cache_size: int = CACHE_SIZE, follow: bool = False,
                 feed: ChangeFeed | None = None, leases: LeaseStore | None = None,
                 move_clock: timedelta | None = MOVE_CLOCK) -> None:
        self._repo = repository
        if move_clock is not None and (not isinstance(move_clock, timedelta)
                                       or move_clock <= timedelta(0)):
            raise BadQuery(f"The move clock must be a positive duration, not "
                           f"{shown(move_clock)}", value=shown(move_clock))
        #: How long a person of a rated game has for each decision (``None``: no clock).
        self.move_clock = move_clock
        self._leases = leases
        #: A feed given carries other processes' changes (it is for nothing else).
        self._follows = follow or feed is not None
        self._feed: ChangeFeed = feed or (StoreFeed(repository) if follow else LocalFeed())
        if self._follows:
            # A change made elsewhere makes this process's copy stale.
            self._feed.subscribe(self._heard, others_only=True)
        #: Games in play kept in memory: a server with many games at once wants them all
        #: (a game not kept is read and replayed from the store for each action).
        self._cache_size = cache_size
        self._clock = clock
        self._cache: OrderedDict[str, SavedGame] = OrderedDict()
        #: The games the lobby last listed (:meth:`lobby`).
        self._listed: dict[str, SavedGame] = {}
        self._lock = threading.Lock()
        #: Players' names and profiles, and the daily challenges.
        self.players = PlayerService(self, repository, clock)
        #: Quick match and ratings.
        self.matches = QuickMatch(self, repository, clock)
        #: Profiles, leaderboards, rated public tables and games' accuracy.
        self.profiles = ProfileService(self, repository, clock)
        #: A player's devices: link codes and passkeys.
        self.devices = DeviceService(repository, clock)

    # --- Playing --------------------------------------------------------------------

    def create(
        self,
        rules: Ruleset,
        seats: Sequence[Seat | str],
        *,
        seed: Seed | None = None,
        first_player: str = "seat",
        roll_off_dice: Sequence[Sequence[int]] | None = None,
        dice_mode: str = "auto",
        hints: bool = False,
        game_id: str | None = None,
        rated: bool = False,
        claims: Sequence[tuple[int, str]] = (),
        public: bool = False,
    ) -> SavedGame:
        """Start and store a new game of ``rules`` with ``seats``: :meth:`new_game`
        (which see), stored with ``claims`` (:meth:`add_games`)."""
        saved = self.new_game(rules, seats, seed=seed, first_player=first_player,
                              roll_off_dice=roll_off_dice, dice_mode=dice_mode, hints=hints,
                              game_id=game_id, rated=rated, public=public)
        self.add_games([(saved, claims)])
        return saved

    def new_game(
        self,
        rules: Ruleset,
        seats: Sequence[Seat | str],
        *,
        seed: Seed | None = None,
        first_player: str = "seat",
        roll_off_dice: Sequence[Sequence[int]] | None = None,
        dice_mode: str = "auto",
        hints: bool = False,
        game_id: str | None = None,
        rated: bool = False,
        public: bool = False,
    ) -> SavedGame:
        """A new game of ``rules`` with ``seats`` (in seat order; a plain name is a
        person), not stored yet (:meth:`add_games`, or :meth:`create` does both).

        A ``public`` table is listed in the lobby (:meth:`lobby`); its ``open`` seats
        (``Seat("", open=True)``) are for anyone to take (:meth:`join`), and nobody
        plays until every one is taken. It plays with the program's dice.

        ``dice_mode="auto"`` rolls from ``seed`` (random when ``None``);
        ``"manual"`` takes every roll's dice from the actions (no seed). With
        ``first_player="roll"`` a roll-off picks the starter (``roll_off_dice`` are its
        real dice in manual mode; without them the program rolls it). ``hints`` turns
        on the optimal-move hint for the people at the table. ``game_id`` is the new
        game's id (a new random one by default); a ``rated`` game's result counts for
        its players' ratings (:mod:`yatzy.app.quickmatch`).
        """
        mode = check_dice_mode(dice_mode)
        if not isinstance(seats, str | bytes) and isinstance(seats, Sequence):
            seats = list(islice(seats, MAX_PLAYERS + 1))  # more is refused by _seats
            _check_open_seats(seats, bool(public), mode)
            seats = _open_names(seats)
        table = _seats(seats, check_ruleset(rules))
        if hints:
            check_ready(rules)  # the hints are the solver's, from its table
        names = [seat.name for seat in table]
        game_seed = starting_seed(mode, seed)
        if roll_off_dice is None and game_seed is None and first_player == "roll":
            roll_off_dice = program_roll_off(rules, names)
        game = Game.start(
            rules, names, seed=game_seed, first_player=first_player,
            roll_off_dice=roll_off_dice,
        )
        now = self._clock()
        return SavedGame(game_id or uuid.uuid4().hex, game, table, mode, now, now,
                         hints=bool(hints), rated=rated, public=bool(public))

    def add_games(self, new: Sequence[tuple[SavedGame, Sequence[tuple[int, str]]]]) -> None:
        """Store new games (of :meth:`new_game`) in one transaction, each with its
        ``claims``: ``(seat, key_hash)``, the browsers (hashes of their player keys)
        that sit in its seats from the start."""
        creations = self.creations(new)
        self._repo.add_many(creations)
        self.created(creations)

    @staticmethod
    def creations(new: Sequence[tuple[SavedGame, Sequence[tuple[int, str]]]]
                  ) -> list[NewGame]:
        """New games (of :meth:`new_game`, with their claims) as the store takes them:
        each with its event (:class:`~yatzy.app.events.GameCreated`); once stored (by
        :meth:`add_games`, or in another write of the store), :meth:`created`."""
        return [(saved, [GameCreated(saved.id, saved.game.players, version=saved.version)],
                 claims) for saved, claims in new]

    def created(self, creations: Sequence[NewGame]) -> None:
        """Keep and announce the games of :meth:`creations`, stored."""
        for saved, events, _ in creations:
            self._remember(saved)
            for event in events:
                self._publish(event)

    def apply(
        self,
        game_id: str,
        action: Action,
        *,
        player: str | None = None,
        expected_steps: int | None = None,
        expected_version: int | None = None,
    ) -> SavedGame:
        """Apply ``action`` to game ``game_id`` and store it before returning.

        ``player`` (optional) must be the player whose turn it is. ``expected_steps``
        (optional) is the number of actions the caller has seen, ``expected_version``
        (optional, stricter) the :attr:`SavedGame.version` it has seen: when the game has
        moved on since, :class:`~yatzy.app.errors.GameChanged` is raised. An illegal action
        raises :class:`~yatzy.core.errors.IllegalMove` and stores nothing. An
        :class:`~yatzy.core.actions.Undo` is :meth:`undo` (``player`` is then the one
        whose move it takes back).
        """
        if isinstance(action, Undo):
            return self.undo(game_id, player=player, expected_steps=expected_steps,
                             expected_version=expected_version)
        game_id = _check_game_id(game_id)
        _check_count(expected_steps, "The number of actions seen")
        _check_count(expected_version, "The version seen")
        cached = self._cached(game_id)
        if cached is not None:
            try:
                return self._apply_to(cached, action, player, expected_steps,
                                      expected_version)
            except (IllegalMove, GameChanged, GameNotFound):
                # The copy may be stale (another writer moved the game on): decide on
                # the game as stored.
                self._forget(game_id)
        if expected_steps is not None or expected_version is not None:
            return self._apply_to(self._repo.get(game_id), action, player, expected_steps,
                                  expected_version)
        # No expectation: the action is for the game as stored. Another writer may store
        # a change between our read and our write; then read again and decide there
        # (legal there, or refused), a bounded number of times.
        for attempt in range(1, APPLY_TRIES + 1):
            try:
                return self._apply_to(self._repo.get(game_id), action, player, None, None)
            except GameChanged:
                self._forget(game_id)
                if attempt == APPLY_TRIES:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _apply_to(
        self, saved: SavedGame, action: Action, player: str | None,
        expected_steps: int | None, expected_version: int | None,
    ) -> SavedGame:
        _check_expected(saved, expected_steps, expected_version)
        if saved.waiting:
            raise TableWaiting(saved.id, saved.open_seats)
        check_action_dice(saved.dice_mode, action)
        game = saved.game.apply(action, player=player)
        new = replace(saved, game=game, updated_at=self._clock(), version=saved.version + 1)
        step = game.history[-1]
        events: list[Event] = [ActionApplied(
            saved.id, len(game.history) - 1, step.player, step.action.to_dict(),
            step.points, step.bonus, game.is_over, version=new.version,
        )]
        if game.is_over:
            events.append(GameFinished(saved.id, tuple(game.standings()), version=new.version))
        self._repo.save(new, expected_version=saved.version, events=events)
        self._remember(new)
        for event in events:
            self._publish(event)
        if game.is_over:
            if new.rated or new.public:
                with contextlib.suppress(StorageError):  # rated when the players are read
                    self.matches.settle(new)
            self.profiles.game_over(new)
        return new

    def follow(self, saved: SavedGame, event: Event) -> SavedGame | None:
        """``saved`` moved on by ``event``, a change another process has stored, without
        reading the store: when ``event`` is the very next change of ``saved`` (one
        version on: an action at the end of its history, or the undo of its last move)
        and the core, playing it, gets what the event says it got (the same action with
        its dice, points and bonus), the game as that process stored it (its time of
        the last action is this process's clock). ``None`` otherwise: read the game
        again (:meth:`load`), as for any change this cannot follow."""
        if event.game_id != saved.id or event.version != saved.version + 1:
            return None
        game = saved.game
        try:
            if isinstance(event, ActionApplied):
                if event.step != len(game.history):
                    return None
                game = game.apply(action_from_dict(event.action), player=event.player)
                step = game.history[-1]
                if (step.action.to_dict(), step.points, step.bonus, game.is_over) != (
                        event.action, event.points, event.bonus, event.finished):
                    return None
            elif isinstance(event, ActionUndone):
                game = game.undo(player=event.player)
                if len(game.history) != event.steps:
                    return None
            else:
                return None
        except YatzyError:
            return None
        new = replace(saved, game=game, updated_at=self._clock(), version=event.version)
        self._remember(new)
        return new

    def undo(
        self, game_id: str, *, player: str | None = None, expected_steps: int | None = None,
        expected_version: int | None = None,
    ) -> SavedGame:
        """Take back the last box chosen in game ``game_id`` (in a game of real dice, or
        the dice just typed), as long as the next action has not been made: the turn is
        back as it was before, with its dice. The rules are the core's
        (:meth:`Game.check_undo <yatzy.core.game.Game.check_undo>`); a computer's move is
        never taken back. ``player``, when given, must be the one who made the move. The
        game's record keeps the move and the undo
        (:class:`~yatzy.core.actions.Undo`).
        """
        game_id = _check_game_id(game_id)
        _check_count(expected_steps, "The number of actions seen")
        _check_count(expected_version, "The version seen")
        saved = self._cached(game_id) or self._repo.get(game_id)
        _check_expected(saved, expected_steps, expected_version)
        last = check_undo(saved, player)
        new = replace(saved, game=saved.game.undo(player=last.player),
                      updated_at=self._clock(), version=saved.version + 1)
        event = ActionUndone(saved.id, new.steps, last.player, version=new.version)
        self._repo.save(new, expected_version=saved.version, events=[event])
        self._remember(new)
        self._publish(event)
        return new

    # --- The idle clock of rated games ------------------------------------------------

    def now(self) -> datetime:
        """The service's time (its clock: a test's fake one too)."""
        return self._clock()

    def deadline(self, saved: SavedGame) -> datetime | None:
        """When the person to move in ``saved`` must have made their decision (a roll,
        a reroll or a box): :attr:`move_clock` after the game's last change, in a rated
        game in play whose player to move is a person; else ``None``. It rests on the
        stored game alone (its time of the last change), so every process, and a
        server started again, works out the same deadline."""
        clock = self.move_clock
        if (clock is None or not saved.rated or saved.finished or saved.waiting
                or saved.current_seat.bot is not None):
            return None
        return saved.updated_at + clock

    def time_out(self, game_id: str, *, expected_version: int | None = None
                 ) -> SavedGame | None:
        """Give the seat of the person to move in the rated game ``game_id`` to a
        computer, when their :meth:`deadline` has passed on the game as stored: the
        seat becomes ``idle`` and is played from now on by the level a quick match
        offers a player of their rating (:meth:`QuickMatch.stand_in
        <yatzy.app.quickmatch.QuickMatch.stand_in>`); the game counts as lost for them
        (:func:`~yatzy.app.ratings.game_scores`). Decided on the stored game by a
        conditional write, so of two processes at the same moment one stores it.
        ``None`` (nothing changed) when no deadline has passed; :class:`GameChanged`
        when the stored game is not at ``expected_version`` or moved on meanwhile."""
        game_id = _check_game_id(game_id)
        # Read as stored, not from the cache: a copy moved on by another process's event
        # has this process's time of that change, not the stored one.
        saved = self._repo.get(game_id)
        _check_expected(saved, None, expected_version)
        deadline = self.deadline(saved)
        now = self._clock()
        if deadline is None or now < deadline:
            self._remember(saved)
            return None
        index = saved.game.current_seat
        seat = saved.seats[index]
        level = self.matches.stand_in(saved, seat.name)
        seats = list(saved.seats)
        seats[index] = replace(seat, bot=level, idle=True)
        new = replace(saved, seats=tuple(seats), updated_at=now, version=saved.version + 1)
        event = SeatIdle(saved.id, index, seat.name, level, version=new.version)
        try:
            self._repo.save(new, expected_version=saved.version, events=[event])
        except GameChanged:
            self._forget(game_id)
            raise
        self._remember(new)
        self._publish(event)
        return new

    def make_rated(self, game_id: str) -> SavedGame:
        """Store the public table ``game_id`` as a rated game, once its players are
        noted as rated (:meth:`ProfileService.rate_table
        <yatzy.app.profiles.ProfileService.rate_table>`): the move clock runs for it
        (:meth:`deadline`) from now on, in every process (they hear
        :class:`~yatzy.app.events.TableRated` and read the game again). A game rated
        already or over is returned as it is. Decided on the stored game: a move made
        meanwhile (the first roll at once) is kept, and the mark is made on the game
        after it."""
        game_id = _check_game_id(game_id)
        for _ in range(JOIN_TRIES):
            saved = self._repo.get(game_id)
            if saved.rated or saved.finished:
                self._remember(saved)
                return saved
            new = replace(saved, rated=True, updated_at=self._clock(),
                          version=saved.version + 1)
            event = TableRated(saved.id, version=new.version)
            try:
                self._repo.save(new, expected_version=saved.version, events=[event])
            except GameChanged:
                self._forget(game_id)  # a move came first: mark the game after it
                continue
            self._remember(new)
            self._publish(event)
            return new
        raise GameChanged(game_id, expected=saved.version, actual=saved.version + 1,
                          what="version")

    def overdue(self, limit: int = OVERDUE_BATCH) -> list[str]:
        """Rated games in play whose player to move may have let the clock run out
        (nobody moved in them for :attr:`move_clock`): a process that holds no session
        of them opens them, so that the clock runs out even when nobody watches (after
        a restart, say). None without a clock."""
        if self.move_clock is None:
            return []
        return self._repo.overdue_rated(self._clock() - self.move_clock, _check_limit(limit))

    # --- Public tables ---------------------------------------------------------------

    def join(self, game_id: str, name: object, *, token_hash: str | None = None
             ) -> SavedGame:
        """Seat the person called ``name`` at the first open seat of the public table
        ``game_id`` (``token_hash``: the hash of their seat's secret) and store it; the
        game begins when the last seat is taken. Refused, with nothing changed: a game
        that is no public table (:class:`~yatzy.app.errors.NotPublic`), a table whose
        seats are all taken or that is over (:class:`~yatzy.app.errors.TableFull`), one
        nobody joined for :data:`TABLE_WAIT` (:class:`~yatzy.app.errors.TableExpired`),
        a name the core refuses, or one a player at the table has
        (:class:`~yatzy.app.errors.NameAtTable`). Two joins of the last seat at the same
        moment, in any processes: the store takes one (a conditional write) and the
        other is told the table is full."""
        game_id = _check_game_id(game_id)
        try:
            name = check_name(name)
        except IllegalMove as exc:
            raise BadSeats(exc.message, code=exc.code, **exc.params) from exc
        for _ in range(JOIN_TRIES):
            saved = self._repo.get(game_id, known=self._cached(game_id))
            index = self._open_seat(saved, name)
            seats = list(saved.seats)
            seats[index] = Seat(name, None, token_hash)
            table = tuple(s for s in _open_names(seats) if isinstance(s, Seat))
            game = saved.game
            started = Game.start(game.ruleset, [seat.name for seat in table], seed=game.seed,
                                 first_player=game.first_player)
            new = replace(saved, game=started, seats=table, updated_at=self._clock(),
                          version=saved.version + 1)
            event = SeatTaken(saved.id, index, name, new.open_seats, version=new.version)
            try:
                self._repo.reseat(new, expected_version=saved.version, events=[event])
            except GameChanged:
                self._forget(game_id)  # another join came first: decide on the table now
                continue
            self._remember(new)
            self._publish(event)
            return new
        raise GameChanged(game_id, expected=saved.version, actual=saved.version + 1,
                          what="version")

    def _open_seat(self, saved: SavedGame, name: str) -> int:
        """The seat ``name`` would take at ``saved``, or the error that says why none."""
        if not saved.public:
            raise NotPublic(saved.id)
        if not saved.waiting or saved.finished or saved.steps:
            raise TableFull(saved.id)
        if saved.updated_at < self._clock() - TABLE_WAIT:
            raise TableExpired(saved.id, int(TABLE_WAIT.total_seconds() // 60))
        for seat in saved.seats:
            if not seat.open and same_name(seat.name, name):
                raise NameAtTable(name)
        return next(i for i, seat in enumerate(saved.seats) if seat.open)

    def lobby(self, limit: int = LOBBY_SIZE) -> tuple[list[SavedGame], list[SavedGame]]:
        """The public tables for the lobby, up to ``limit`` of each kind, newest first:
        those waiting for players (joined or opened within :data:`TABLE_WAIT`), and the
        games in play with every seat taken (moved in within :data:`LIVE_IDLE`), to
        watch. Finished games are in neither."""
        now = self._clock()
        with self._lock:
            known = {**self._listed, **self._cache}
        waiting, live = self._repo.lobby(waiting_since=now - TABLE_WAIT,
                                         live_since=now - LIVE_IDLE,
                                         limit=_check_limit(limit), known=known)
        # Kept for the next call (the lobby is read every few seconds): only the games
        # that moved on since are replayed then.
        with self._lock:
            self._listed = {game.id: game for game in waiting + live}
        return waiting, live

    # --- The cache of games in play -------------------------------------------------
    #
    # Replaying a record checks every step; doing that for each action of a long game
    # costs more than the rest of the action together. So the service keeps the games
    # it last wrote or read. The store stays the judge: a save names the steps the game
    # had, so a game moved on by another writer is never overwritten from a stale copy.

    def _cached(self, game_id: str) -> SavedGame | None:
        with self._lock:
            saved = self._cache.get(game_id)
            if saved is not None:
                self._cache.move_to_end(game_id)
            return saved

    def _remember(self, saved: SavedGame) -> None:
        with self._lock:
            if saved.finished:
                self._cache.pop(saved.id, None)
                return
            self._cache[saved.id] = saved
            self._cache.move_to_end(saved.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._lock:
            self._cache.pop(game_id, None)

    # --- Saved games ----------------------------------------------------------------

    def load(self, game_id: str) -> SavedGame:
        """The saved game ``game_id`` (replayed from its record, unless the copy kept in
        memory is still the stored version), or :class:`~yatzy.app.errors.GameNotFound`."""
        game_id = _check_game_id(game_id)
        saved = self._repo.get(game_id, known=self._cached(game_id))
        self._remember(saved)
        return saved

    def unfinished(self) -> list[ListedGame]:
        """Games not over yet that someone has moved in, most recently played first
        (for "resume": a game started and left before any roll is nothing to resume;
        :meth:`prune_unmoved` deletes such games). A game that
        can no longer be read is a :class:`~yatzy.app.saved.DamagedGame` in the list
        (to export or delete), so it hides none of the others."""
        games = self._repo.unfinished()
        for saved in games:
            if isinstance(saved, SavedGame):
                self._remember(saved)
        return games

    def recent(
        self, limit: int = 20, *, finished: bool | None = None, player: str | None = None,
        seed: Seed | None = None,
    ) -> list[ListedGame]:
        """Up to ``limit`` saved games, most recently played first: finished ones
        (``finished=True``), unfinished ones (``False``) or both (``None``, the
        default); with ``player``, only the games that player has a seat in; with
        ``seed``, only the games dealt from that seed (a bad seed is refused as a new
        game refuses it). A game that can no longer be read is a
        :class:`~yatzy.app.saved.DamagedGame`."""
        if finished is not None and not isinstance(finished, bool):
            raise BadQuery(f"finished must be True, False or None, not {shown(finished)}",
                           value=shown(finished))
        checked = check_seed(seed)
        return self._repo.recent(_check_limit(limit), finished=finished,
                                 player=_check_player(player),
                                 seed=None if checked is None else str(checked))

    def find(self, game_id: str) -> SavedGame:
        """The saved game whose id is ``game_id`` or, failing that, the only one whose
        id starts with it, ignoring case (ids are long; their first characters
        usually tell them apart). :class:`~yatzy.app.errors.GameNotFound` when none matches,
        :class:`~yatzy.app.errors.AmbiguousGameId` when several do."""
        return self.load(self.full_id(game_id))

    def full_id(self, game_id: str) -> str:
        """The id of the one saved game :meth:`find` would load, without reading the
        game (so it works for a damaged one too)."""
        game_id = _check_game_id(game_id)
        matches = self._repo.ids_starting_with(game_id) if game_id else []
        if game_id in matches:
            return game_id
        if not matches:
            raise GameNotFound(game_id)
        if len(matches) > 1:
            raise AmbiguousGameId(game_id, matches)
        return matches[0]

    def stored(self, game_id: str) -> dict[str, Any]:
        """The row of game ``game_id`` as stored, JSON-ready: what there is to export of
        a game that no longer reads (its record, seats and dates as they are)."""
        return self._repo.stored(_check_game_id(game_id))

    def delete(self, game_id: str) -> None:
        """Delete a game (finished or not) and its results."""
        game_id = _check_game_id(game_id)
        self._forget(game_id)
        event = GameDeleted(game_id)
        self._repo.delete(game_id, events=[event])
        self._publish(event)

    def prune_unmoved(self, older_than: timedelta = UNMOVED_AGE, *,
                      online: bool = False) -> int:
        """Delete the unfinished games nobody has moved in for ``older_than`` (a day)
        and say how many. A web game is created before its players join, so games with
        a seat token or a claimed seat are kept unless ``online``; a younger game is
        always kept."""
        if not isinstance(older_than, timedelta) or older_than < timedelta(0):
            raise BadQuery(f"The age must be a duration of 0 or more, not {shown(older_than)}",
                           value=shown(older_than))
        deleted = self._repo.delete_unmoved(self._clock() - older_than, online=bool(online))
        for game_id in deleted:
            self._forget(game_id)
            self._publish(GameDeleted(game_id))
        return len(deleted)

    # --- Player keys (a browser's "my games" and "my best") -----------------------------

    def claim_seat(self, game_id: str, seat: str, player_key: str) -> None:
        """Note that the browser with ``player_key`` sits in ``seat`` (a player's name)
        of game ``game_id``."""
        key_hash = player_key_hash(player_key)
        saved = self._cached(game_id) or self._repo.get(_check_game_id(game_id))
        names = [s.name for s in saved.seats]
        if seat not in names:
            raise BadSeats(f"Game {game_id} has no seat {seat!r}")
        self._repo.claim(game_id, names.index(seat), key_hash, self._clock())

    def my_games(self, player_key: str, limit: int = 50) -> list[SeatedGame]:
        """The games the browser with ``player_key`` sat in, most recently played first."""
        return self._repo.seated_games(player_key_hash(player_key), _check_limit(limit))

    def my_bests(self, player_key: str) -> list[BestScore]:
        """The best finished total of ``player_key``'s seats per ruleset variant."""
        return self._repo.bests(player_key_hash(player_key))

    def leaderboard(self, rules: Ruleset, limit: int = 10) -> list[LeaderEntry]:
        """The best totals of people under exactly ``rules`` (its options too)."""
        if not isinstance(rules, Ruleset):
            raise BadQuery(f"A leaderboard is for a ruleset, not {shown(rules)}",
                           value=shown(rules))
        return self._repo.leaderboard(rules, _check_limit(limit))

    # --- History --------------------------------------------------------------------

    def best(self, rules: Ruleset, player: str, *, excluding: str | None = None) -> int | None:
        """``player``'s best finished total under ``rules`` with the same options;
        ``excluding`` leaves one game out (say, the one just finished, to tell whether
        it beat the old best). ``None`` when there is no such game."""
        try:
            rules = check_ruleset(rules)
        except RulesError as exc:
            raise _as_query(exc) from exc
        name = _check_player(player)
        if name is None:
            raise BadQuery("best() needs a player's name, not None", value="None")
        return self._repo.best(
            rules, name, excluding=None if excluding is None else _check_game_id(excluding)
        )

    def stats(self, rules_name: RulesFilter = None, player: str | None = None) -> list[StatsRow]:
        """Statistics per ruleset (with options) and player over finished games,
        ordered by ruleset then player. ``rules_name`` is a ruleset name (every variant)
        or a :class:`Ruleset` (that variant only)."""
        return self._repo.stats(_check_rules_filter(rules_name), _check_player(player))

    def scores(self, rules: RulesFilter = None, player: str | None = None) -> list[int]:
        """Finished totals under ``rules`` (every player's, or ``player``'s), oldest
        first: the data of a score histogram."""
        return self._repo.scores(_check_rules_filter(rules), _check_player(player))

    def rulesets(self, rules_name: RulesFilter = None) -> list[Ruleset]:
        """The ruleset variants with finished games, in display order."""
        return self._repo.rulesets(_check_rules_filter(rules_name))

    # --- Events ---------------------------------------------------------------------

    @property
    def follows(self) -> bool:
        """True when the feed carries the changes of other processes too."""
        return self._follows

    def subscribe(self, callback: Subscriber, *, others_only: bool = False
                  ) -> Callable[[], None]:
        """Call ``callback(event)`` after each stored change (this service's, and with
        ``follow=True`` other processes' on the same database, on the feed's thread;
        ``others_only``: only those); returns a function that unsubscribes. A callback
        that raises is logged and does not undo the change or stop the other
        callbacks."""
        return self._feed.subscribe(callback, others_only=others_only)

    def announce(self, game_id: str, seat: str, connected: bool, ttl: float) -> None:
        """Tell the other processes (through a feed that reaches them at once) that
        ``seat`` of ``game_id`` has a connection here, or no longer has one; the news
        holds ``ttl`` seconds unless told again."""
        self._feed.announce(Presence(game_id, seat, connected, ttl))

    def subscribe_presence(self, callback: PresenceSubscriber) -> Callable[[], None]:
        """Call ``callback(presence)`` with what the other processes announce (on the
        feed's thread); returns a function that unsubscribes."""
        return self._feed.subscribe_presence(callback)

    def _publish(self, event: Event) -> None:
        self._feed.publish(event)

    def _heard(self, event: Event) -> None:
        """Forget a kept copy older than a change heard of (made elsewhere)."""
        with self._lock:
            kept = self._cache.get(event.game_id)
            if kept is not None and (event.version > kept.version or event.version == 0):
                del self._cache[event.game_id]

    # --- Computer turns -------------------------------------------------------------

    @property
    def leases_turns(self) -> bool:
        """True when a game's computer turns are leased (other processes on the same
        database may play them): see :meth:`take_turns`."""
        return self._leases is not None

    def take_turns(self, game_id: str, seconds: float) -> Lease | None:
        """Take the lease on game ``game_id``'s computer turns for ``seconds``, or renew
        it when this process holds it: the computers of a game are played by the one
        process that holds it. Returns the lease as it stands (held by another process
        for :attr:`~yatzy.app.ports.Lease.remaining` seconds, unless it is
        :attr:`~yatzy.app.ports.Lease.mine`); ``None`` when this service leases
        nothing (it plays its games' computers alone)."""
        if self._leases is None:
            return None
        return self._leases.take(game_id, seconds)

    def release_turns(self, game_id: str, *, hand_over: int | None = None) -> bool:
        """Let go of the lease on game ``game_id``'s computer turns (when this process
        holds it). With ``hand_over`` (the game's version, a computer still to play),
        the other processes are told at once (:class:`~yatzy.app.events.TurnsHandedOver`)
        so that one of them plays on without waiting for the lease to run out. True
        when the lease was held."""
        if self._leases is None:
            return False
        events: list[Event] = []
        if hand_over is not None:
            events.append(TurnsHandedOver(game_id, version=hand_over))
        released = self._leases.release(game_id, events=events)
        if released:
            for event in events:
                self._publish(event)
        return released

    def release_all_turns(self) -> list[str]:
        """Let go of every lease this process holds (at shutdown); the games' ids."""
        return [] if self._leases is None else self._leases.release_all()

    def abandoned_turns(self, limit: int = 100) -> list[str]:
        """Games whose computer turns were leased by a process that stopped without
        letting go (killed): their leases ran out, and nobody took them since."""
        return [] if self._leases is None else self._leases.expired(limit)

    # --- Readiness ------------------------------------------------------------------

    def database_ready(self) -> bool:
        """Whether the store answers one cheap question now (``/readyz`` asks it, and
        :meth:`feed_reachable`, each within its own time)."""
        try:
            self._repo.ping()
        except StorageError:
            return False
        return True

    def feed_reachable(self) -> dict[str, bool]:
        """Each service the feed needs beyond the database and whether it answers now
        (``{"redis": True}``; empty for a feed that needs none)."""
        return self._feed.reachable()

    def feed_services(self) -> tuple[str, ...]:
        """The names :meth:`feed_reachable` answers for, without asking them."""
        return self._feed.services

    # --- Lifetime -------------------------------------------------------------------

    def close(self) -> None:
        """Stop the feed and release the store's connections."""
        self._feed.close()
        self._repo.close()

    def __enter__(self) -> GameService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_undo(saved: SavedGame, player: str | None = None) -> Step:
    """The step an undo would take back (``player``'s, when given), or the
    :class:`IllegalMove` that says why nothing can be taken back now: the core's rules
    (:meth:`Game.check_undo <yatzy.core.game.Game.check_undo>`), and never a
    computer's move."""
    last = saved.game.check_undo(player)
    if any(seat.name == last.player and seat.bot for seat in saved.seats):
        raise IllegalMove("A computer player's move cannot be taken back",
                          code=AppCode.COMPUTER_MOVE, player=last.player)
    return last


def undo_by(saved: SavedGame) -> str | None:
    """The player who may take back their last box now, or ``None``."""
    try:
        return check_undo(saved).player
    except IllegalMove:
        return None


def _check_expected(saved: SavedGame, steps: int | None, version: int | None) -> None:
    """Raise :class:`GameChanged` unless ``saved`` is the game the caller last saw: the
    same number of actions (``steps``) or, stricter, the same version (an undo and a new
    action elsewhere leave the number of actions as it was, not the version)."""
    if steps is not None and steps != saved.steps:
        raise GameChanged(saved.id, expected=steps, actual=saved.steps)
    if version is not None and version != saved.version:
        raise GameChanged(saved.id, expected=version, actual=saved.version, what="version")
