"""The table: one game in play, its seats and computer players, behind the game service.

This is the one place that drives a game, for every front end (the terminal game and
the web app): whose turn it is, what a computer player does next, and when a person
must type in real dice for it. Every action goes through the service, which validates,
applies and saves it at once, so quitting or a crash loses nothing already played. The
table owns no rules: it asks the core what is allowed and the bots what they would do.
Pacing (how long a computer seems to think) belongs to the front end.

>>> import yatzy
>>> from yatzy.bootstrap import open_service
>>> service = open_service("sqlite://")
>>> saved = service.create(yatzy.ruleset("yatzy"), [Seat("cpu", bot="greedy")], seed=3)
>>> table = Table.open(service, saved, seed=1)
>>> table.computer_choice()
Roll(dice=None)
>>> table.play_computer().dice is not None      # rolled, and saved
True
>>> service.close()
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from yatzy.app.codes import AppCode
from yatzy.app.errors import GameChanged, NameAtTable, TableExpired, TableFull
from yatzy.app.events import Event
from yatzy.app.saved import SavedGame, Seat
from yatzy.app.service import GameService
from yatzy.bots import Bot, make_bot
from yatzy.core.actions import Action, Reroll, Roll
from yatzy.core.dice import Dice
from yatzy.core.errors import IllegalMove
from yatzy.core.game import Game


@dataclass
class Table:
    """The game being played, the computer players at it, and a computer's chosen step
    until it is played."""

    service: GameService
    saved: SavedGame
    bots: dict[str, Bot] = field(default_factory=dict)
    #: In solitaire, the person's best total of these rules before this game.
    best_before: int | None = None
    #: The computer's chosen next step and the game it was chosen for: a step is chosen
    #: once, so a front end can show it (the dice held) before it is played, and in
    #: scorepad mode ask for its dice in between.
    _pending: tuple[Game, Action] | None = field(default=None, repr=False)

    @classmethod
    def open(cls, service: GameService, saved: SavedGame, *, seed: int | None = None) -> Table:
        """A table for ``saved``, with a bot for every computer seat (``seed`` seeds the
        computers' own choices, for levels that choose at random)."""
        rng = random.Random(seed)
        bots = {
            seat.name: make_bot(seat.bot, random.Random(rng.getrandbits(64)))
            for seat in saved.seats
            if seat.bot
        }
        best = None
        if len(saved.seats) == 1 and not saved.seats[0].bot:
            best = service.best(saved.game.ruleset, saved.seats[0].name, excluding=saved.id)
        return cls(service, saved, bots, best)

    @property
    def game(self) -> Game:
        """The game as it stands."""
        return self.saved.game

    @property
    def seats(self) -> Sequence[Seat]:
        """The seats in seat order."""
        return self.saved.seats

    @property
    def manual(self) -> bool:
        """True in scorepad mode: the dice of every roll are typed in."""
        return self.saved.dice_mode == "manual"

    @property
    def hold(self) -> tuple[int, ...]:
        """The dice (positions) the current player held at the last reroll of this turn:
        they stay held for the next reroll. A hold is not a move, so only a reroll puts
        it in the game's history; deriving it from there shows it again after a resume
        or an undo, as the player left it (a hold chosen but not rerolled is lost).

        >>> import yatzy
        >>> from yatzy.bootstrap import open_service
        >>> service = open_service("sqlite://")
        >>> saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=3)
        >>> table = Table.open(service, saved)
        >>> _ = table.act(Roll()); table.hold
        ()
        >>> _ = table.act(Reroll((0, 2))); table.hold
        (0, 2)
        >>> service.close()
        """
        game = self.game
        if game.dice is None or not game.history:
            return ()
        last = game.history[-1]
        if last.player != game.current_player or not isinstance(last.action, Reroll):
            return ()
        return last.action.hold

    def bot_for(self, player: str) -> Bot | None:
        """The computer player in ``player``'s seat, or ``None`` for a person."""
        return self.bots.get(player)

    @property
    def bot_to_play(self) -> Bot | None:
        """The computer player whose turn it is, if it is one's turn (none plays while
        the table waits for players)."""
        if self.game.is_over or self.saved.waiting:
            return None
        return self.bot_for(self.game.current_player)

    # --- A computer's turn ------------------------------------------------------------

    def computer_choice(self) -> Action | None:
        """The next step of the computer whose turn it is, or ``None`` on a person's turn
        (or once the game is over). Chosen once per position and kept until played, so
        asking again gives the same step. May take a moment (the first use of a solver
        level loads its table): front ends call it off their UI thread."""
        game = self.game
        if self._pending is not None and self._pending[0] is game:
            return self._pending[1]
        bot = self.bot_to_play
        if bot is None:
            return None
        action = bot.choose(game)
        self._pending = (game, action)
        return action

    @property
    def pending(self) -> Action | None:
        """The computer's chosen step not played yet (``None`` when there is none)."""
        if self._pending is not None and self._pending[0] is self.game:
            return self._pending[1]
        return None

    def needs_dice(self, action: Action | None) -> bool:
        """True when ``action`` is a roll whose real dice must be typed in first."""
        return (self.manual and isinstance(action, Roll | Reroll)
                and action.dice is None)

    @property
    def waiting_for_dice(self) -> bool:
        """True when a computer's chosen roll waits for its real dice (scorepad mode)."""
        return self.needs_dice(self.pending)

    def play_computer(self, dice: Sequence[int] | None = None, *,
                      expected_version: int | None = None) -> Game:
        """Play the computer's chosen step (choosing it first if need be); in scorepad
        mode a roll takes ``dice``, the real dice thrown for it. Returns the game after
        it. Raises :class:`~yatzy.core.errors.IllegalMove` on a person's turn;
        ``expected_version`` as for :meth:`act`."""
        action = self.computer_choice()
        if action is None:
            raise IllegalMove("It is not a computer player's turn",
                              code=AppCode.NOT_COMPUTER_TURN)
        if dice is not None:
            if isinstance(action, Roll):
                action = Roll(Dice(dice))
            elif isinstance(action, Reroll):
                action = Reroll(action.hold, Dice(dice))
            else:
                raise IllegalMove("The computer chose a box: no dice to type in",
                                  code=AppCode.DICE_NOT_ALLOWED)
        return self.act(action, expected_version=expected_version)

    # --- Moves ------------------------------------------------------------------------

    def act(self, action: Action, *, player: str | None = None,
            expected_version: int | None = None) -> Game:
        """Apply ``action`` for ``player`` (by default whoever's turn it is) through the
        service; returns the game after it. Raises the core's
        :class:`~yatzy.core.errors.IllegalMove` unchanged, and
        :class:`~yatzy.app.GameChanged` when the game moved on elsewhere (another window)
        or is not at ``expected_version`` (the version the player saw; by default the
        table's own): the table then holds the game as stored, and nothing was applied."""
        return self._write(lambda: self.service.apply(
            self.saved.id, action,
            player=self.game.current_player if player is None else player,
            expected_version=self.saved.version if expected_version is None
            else expected_version,
        ))

    def undo(self, *, player: str | None = None, expected_version: int | None = None) -> Game:
        """Take back the last box a person chose (``player``'s, when given), through the
        service; returns the game after it. Raises
        :class:`~yatzy.core.errors.IllegalMove` when that is not allowed (nothing to take
        back, a computer's move, the game over); ``expected_version`` as for
        :meth:`act`."""
        return self._write(lambda: self.service.undo(
            self.saved.id, player=player,
            expected_version=self.saved.version if expected_version is None
            else expected_version))

    def join(self, name: str, *, token_hash: str | None = None) -> Game:
        """Seat ``name`` at an open seat of this public table through the service
        (:meth:`~yatzy.app.service.GameService.join`); returns the game after it. The
        service decides on the table as stored: when it refuses (the table full, say),
        the table holds the game as stored too (this copy may be older)."""
        try:
            return self._write(lambda: self.service.join(self.saved.id, name,
                                                         token_hash=token_hash))
        except (TableFull, TableExpired, NameAtTable):
            self.reload()
            raise

    def make_rated(self) -> Game:
        """Store this public table as a rated game through the service
        (:meth:`~yatzy.app.service.GameService.make_rated`); returns the game after it."""
        return self._write(lambda: self.service.make_rated(self.saved.id))

    def reload(self) -> Game:
        """Read the game again as stored (another window or process may have moved it)."""
        self._seat(self.service.load(self.saved.id))
        return self.game

    def time_out(self) -> bool:
        """Give the seat of the person to move to a computer if their clock has run out
        (:meth:`GameService.time_out <yatzy.app.service.GameService.time_out>`, on the
        game as stored); True when it did. Raises
        :class:`~yatzy.app.errors.GameChanged` when the game moved on elsewhere (the
        table then holds it as stored)."""
        try:
            new = self.service.time_out(self.saved.id, expected_version=self.saved.version)
        except GameChanged:
            self.reload()
            raise
        if new is None:
            self.reload()  # this copy's time may be a little off the stored one
            return False
        self._seat(new)
        return True

    def _seat(self, saved: SavedGame) -> None:
        """Hold ``saved``, with a computer player for every computer seat (a seat the
        clock gave to a computer has none yet)."""
        self.saved = saved
        for seat in saved.seats:
            if seat.bot and seat.name not in self.bots:
                self.bots[seat.name] = make_bot(seat.bot)

    def follow(self, event: Event) -> bool:
        """Move the game on by ``event``, a change stored elsewhere, without reading the
        store (:meth:`GameService.follow`); False when that cannot be done (then
        :meth:`reload`)."""
        new = self.service.follow(self.saved, event)
        if new is None:
            return False
        self._seat(new)
        return True

    def _write(self, change: Callable[[], SavedGame]) -> Game:
        try:
            self._seat(change())
        except GameChanged:
            self.reload()
            raise
        return self.game
