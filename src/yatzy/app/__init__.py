"""The application layer: the game service, its dice roller, events and ports.

Interfaces (terminal, web) talk to :class:`GameService`; storage implements
:class:`GameRepository`. Get a ready service from :func:`yatzy.bootstrap.open_service`.
"""

from yatzy.app.dice import DICE_MODES
from yatzy.app.errors import (
    AmbiguousGameId,
    AppError,
    BadDiceMode,
    BadMatch,
    BadQuery,
    BadSeats,
    DiceNeeded,
    DiceNotAllowed,
    GameChanged,
    GameNotFound,
    StorageError,
    UnknownBot,
)
from yatzy.app.events import (
    ActionApplied,
    ActionUndone,
    Event,
    GameCreated,
    GameDeleted,
    GameFinished,
    SeatTaken,
    TurnsHandedOver,
)
from yatzy.app.ports import GameRepository, Lease, LeaseStore, RulesFilter
from yatzy.app.saved import (
    DamagedGame,
    ListedGame,
    PlayerResult,
    SavedGame,
    Seat,
    StatsRow,
    player_results,
)
from yatzy.app.service import GameService

__all__ = [
    "DICE_MODES",
    "ActionApplied",
    "ActionUndone",
    "AmbiguousGameId",
    "AppError",
    "BadDiceMode",
    "BadMatch",
    "BadQuery",
    "BadSeats",
    "DamagedGame",
    "DiceNeeded",
    "DiceNotAllowed",
    "Event",
    "GameChanged",
    "GameCreated",
    "GameDeleted",
    "GameFinished",
    "GameNotFound",
    "GameRepository",
    "GameService",
    "Lease",
    "LeaseStore",
    "ListedGame",
    "PlayerResult",
    "RulesFilter",
    "SavedGame",
    "Seat",
    "SeatTaken",
    "StatsRow",
    "StorageError",
    "TurnsHandedOver",
    "UnknownBot",
    "player_results",
]
