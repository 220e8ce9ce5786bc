"""The table: one game in play, its seats and computer players, behind the game service.

Every action goes through the service, which validates, applies and saves it at once,
so quitting or a crash loses nothing already played. The table owns no rules: it asks
the core what is allowed and the bots what they would do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from yatzy.app import GameChanged, GameService, SavedGame, Seat
from yatzy.bots import Bot, make_bot
from yatzy.core.actions import Action
from yatzy.core.game import Game


@dataclass
class Table:
    """The game being played and the computer players at it."""

    service: GameService
    saved: SavedGame
    bots: dict[str, Bot] = field(default_factory=dict)
    #: In solitaire, the person's best total of these rules before this game.
    best_before: int | None = None

    @classmethod
    def open(cls, service: GameService, saved: SavedGame, *, seed: int | None = None) -> Table:
        """A table for ``saved``, with a bot for every computer seat."""
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

    def bot_for(self, player: str) -> Bot | None:
        """The computer player in ``player``'s seat, or ``None`` for a person."""
        return self.bots.get(player)

    @property
    def bot_to_play(self) -> Bot | None:
        """The computer player whose turn it is, if it is one's turn."""
        if self.game.is_over:
            return None
        return self.bot_for(self.game.current_player)

    def act(self, action: Action) -> Game:
        """Apply ``action`` for the current player through the service; returns the game
        after it. Raises the core's :class:`~yatzy.core.errors.IllegalMove` unchanged,
        and :class:`~yatzy.app.GameChanged` when the game moved on elsewhere (another
        window): the table then holds the game as stored, and nothing was applied."""
        return self._write(lambda: self.service.apply(
            self.saved.id, action, player=self.game.current_player,
            expected_version=self.saved.version,
        ))

    def undo(self) -> Game:
        """Take back the last box a person chose, through the service; returns the game
        after it. Raises :class:`~yatzy.core.errors.IllegalMove` when that is not allowed
        (nothing to take back, a computer's move, the game over)."""
        return self._write(
            lambda: self.service.undo(self.saved.id, expected_version=self.saved.version))

    def _write(self, change: Callable[[], SavedGame]) -> Game:
        try:
            self.saved = change()
        except GameChanged:
            self.saved = self.service.load(self.saved.id)
            raise
        return self.game
