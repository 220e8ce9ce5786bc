r"""Typed errors of the game service and its storage port.

Each is a :class:`~yatzy.core.errors.YatzyError` with a message a player understands, a
machine-readable ``code`` and the data behind the message in ``params``. Those about bad
input (an unknown game, bad seats or arguments) are also
:class:`~yatzy.core.errors.BadInput`, so :class:`ValueError`\ s; a game changed elsewhere
and a failing store are not. Errors about dice in an action are also
:class:`~yatzy.core.errors.IllegalMove`, so an interface that shows illegal moves shows
these too.
"""

from __future__ import annotations

from yatzy.app.codes import AppCode
from yatzy.bots import UnknownBot as UnknownBot  # re-exported: a seat's level
from yatzy.core.errors import BadInput, ErrorCode, IllegalMove, YatzyError, shown


class AppError(YatzyError):
    """Base class of the errors raised by :mod:`yatzy.app`."""

    code = AppCode.APP


class GameNotFound(BadInput, AppError):
    """No saved game has this id (never saved, or deleted)."""

    code = AppCode.GAME_NOT_FOUND

    def __init__(self, game_id: str) -> None:
        super().__init__(f"No saved game with id {shown(game_id)}", game_id=game_id)
        self.game_id = game_id


class AmbiguousGameId(BadInput, AppError):
    """A shortened game id that is the start of several saved games' ids."""

    code = AppCode.AMBIGUOUS_GAME_ID

    def __init__(self, prefix: str, matches: list[str]) -> None:
        super().__init__(
            f"Several saved games have an id starting with {shown(prefix)}: "
            f"{', '.join(matches)}; give more of the id",
            game_id=prefix, matches=", ".join(matches), count=len(matches),
        )
        self.game_id = prefix
        self.matches = tuple(matches)


class GameChanged(AppError):
    """The game moved on elsewhere (another window or process) since it was read.

    Nothing was stored; load the game again to see where it stands.
    """

    code = AppCode.GAME_CHANGED

    def __init__(self, game_id: str, *, expected: int, actual: int,
                 what: str = "actions") -> None:
        # ``what`` says what differs: the number of actions, or (the same number, after
        # an undo and a new action elsewhere) the version, the count of writes.
        if what == "version":
            differs = f"it is at version {actual}, this copy at version {shown(expected)}"
        else:
            differs = f"it has {actual} actions, this copy {shown(expected)}"
        super().__init__(
            f"Game {game_id} was changed elsewhere ({differs}); load it again",
            game_id=game_id, expected=expected, actual=actual, what=what,
        )
        self.game_id = game_id


class BadSeats(BadInput, AppError):
    """Seats that cannot make a game: not a list of seats, or names the core refuses
    (then ``code`` and ``params`` are the core's, see :mod:`yatzy.core.names`)."""

    code = AppCode.BAD_SEATS


class BadQuery(BadInput, AppError):
    """An argument of the service of the wrong kind (a limit that is not a whole number,
    a game id that is not text...), refused before the store sees it. A player filter
    the core refuses as a name keeps the core's ``code`` and ``params``."""

    code = AppCode.BAD_QUERY


class BadMatch(BadInput, AppError):
    """A match that cannot be played: fewer than two computer players (code
    ``MATCH_LEVELS``), or a number of games that is no whole number of deals in the
    allowed range (code ``MATCH_GAMES``)."""

    code = AppCode.MATCH_GAMES


class BadDiceMode(BadInput, AppError):
    """A dice mode other than ``"auto"`` and ``"manual"``, or a seed for manual dice."""

    code = AppCode.BAD_DICE_MODE


class DiceNeeded(IllegalMove):
    """A roll without dice in a game whose dice are real ones typed in (manual mode)."""

    code = ErrorCode.DICE_NEEDED


class DiceNotAllowed(IllegalMove):
    """A roll with dice given in a game whose dice the program rolls (auto mode)."""

    code = AppCode.DICE_NOT_ALLOWED


class NameTaken(BadInput, AppError):
    """A display name another player has (as the core compares names)."""

    code = AppCode.NAME_TAKEN

    def __init__(self, name: str) -> None:
        super().__init__(f"The name {name} is taken: choose another", name=name)


class PlayerNotFound(BadInput, AppError):
    """No player has this display name."""

    code = AppCode.PLAYER_NOT_FOUND

    def __init__(self, name: str) -> None:
        super().__init__(f"No player is called {name}", name=name)


class DailyPlayed(BadInput, AppError):
    """A second ranked attempt at a day's challenge: one a player a day."""

    code = AppCode.DAILY_PLAYED

    def __init__(self, rules: str, day: str) -> None:
        super().__init__("You have played today's challenge already: one ranked attempt"
                         " a day", rules=rules, day=day)


class BadDay(BadInput, AppError):
    """A day that is not a date written ``YYYY-MM-DD``."""

    code = AppCode.BAD_DAY

    def __init__(self, value: object) -> None:
        super().__init__(f"A day is written YYYY-MM-DD, not {shown(value)}",
                         value=shown(value))


class DayNotOpen(BadInput, AppError):
    """A day's challenge asked for before that day (UTC) has begun."""

    code = AppCode.DAY_NOT_OPEN

    def __init__(self, day: str) -> None:
        super().__init__(f"The challenge of {day} is not open yet", day=day)


class NameNeeded(BadInput, AppError):
    """A rated game asked for by a player without a display name (the seat is named
    after the player)."""

    code = AppCode.DISPLAY_NAME_NEEDED

    def __init__(self) -> None:
        super().__init__("Choose a display name before you play a rated game")


class AlreadyWaiting(BadInput, AppError):
    """A second quick-match request of a player who waits with one already."""

    code = AppCode.ALREADY_WAITING

    def __init__(self) -> None:
        super().__init__("You are already waiting for an opponent: cancel that first")


class TicketNotFound(BadInput, AppError):
    """A quick-match ticket that is none of this player's (unknown, or another's)."""

    code = AppCode.TICKET_NOT_FOUND

    def __init__(self) -> None:
        super().__init__("There is no such quick match")


class TicketClosed(BadInput, AppError):
    """A quick-match ticket that no longer waits: cancelled, given up (``expired``) or,
    for a cancel, matched already (``params``: ``status``)."""

    code = AppCode.TICKET_CLOSED

    def __init__(self, status: str) -> None:
        super().__init__(f"This quick match no longer waits: it is {status}", status=status)


class NotPublic(BadInput, AppError):
    """A join of a game that is no public table (a private game, by link only)."""

    code = AppCode.NOT_PUBLIC

    def __init__(self, game_id: str) -> None:
        super().__init__(f"There is no public table with id {shown(game_id)}",
                         game_id=game_id)


class TableFull(AppError):
    """A join of a table whose every seat is taken."""

    code = AppCode.TABLE_FULL

    def __init__(self, game_id: str) -> None:
        super().__init__(f"Every seat at table {game_id} is taken", game_id=game_id)


class TableExpired(AppError):
    """A join of a table that waited too long for players (it is closed)."""

    code = AppCode.TABLE_EXPIRED

    def __init__(self, game_id: str, minutes: int) -> None:
        super().__init__(f"Nobody joined this table for {minutes} minutes: it is closed",
                         game_id=game_id, minutes=minutes)


class NameAtTable(BadInput, AppError):
    """A join under the name of a player at the table (as the core compares names)."""

    code = AppCode.NAME_AT_TABLE

    def __init__(self, name: str) -> None:
        super().__init__(f"A player called {name} sits at this table already", name=name)


class TableWaiting(IllegalMove):
    """An action at a table with open seats: nobody plays until every seat is taken."""

    code = AppCode.TABLE_WAITING

    def __init__(self, game_id: str, open_seats: int) -> None:
        super().__init__("The table waits for players: nobody plays until every seat is"
                         " taken", game_id=game_id, open_seats=open_seats)


class StorageError(AppError):
    """The game database cannot be opened, read or written (disk full, locked too
    long, unreadable file, unreachable server, a newer schema than this program)."""

    code = AppCode.STORAGE
