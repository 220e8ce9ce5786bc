"""Events the game service publishes after each change, for whoever listens (the web
app's websocket hub, a spectator view, a log).

Events are small frozen dataclasses; each has a ``type`` tag and a JSON-ready
:meth:`to_dict` form.

>>> event = ActionApplied("g1", 0, "Ann", {"type": "roll", "dice": [1, 2, 3, 4, 5]})
>>> event.type, event.to_dict()["action"]
('action_applied', {'type': 'roll', 'dice': [1, 2, 3, 4, 5]})
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class _Event:
    def to_dict(self) -> dict[str, Any]:
        """The event as a plain dict tagged by ``"type"``."""
        return asdict(self)


@dataclass(frozen=True)
class GameCreated(_Event):
    """A new game was stored."""

    game_id: str
    players: tuple[str, ...]
    type: str = field(default="game_created", init=False)


@dataclass(frozen=True)
class ActionApplied(_Event):
    """An action was applied and stored. ``step`` is its 0-based index in the game's
    history; ``action`` is its dict form with the dice it really used."""

    game_id: str
    step: int
    player: str
    action: dict[str, Any]
    #: Points put in the box (score actions only).
    points: int | None = None
    #: True when the score earned an extra-Yahtzee bonus.
    bonus: bool = False
    #: True when this action ended the game.
    finished: bool = False
    type: str = field(default="action_applied", init=False)


@dataclass(frozen=True)
class ActionUndone(_Event):
    """The last action (a box chosen by ``player``) was taken back; the game now has
    ``steps`` actions."""

    game_id: str
    steps: int
    player: str
    type: str = field(default="action_undone", init=False)


@dataclass(frozen=True)
class GameFinished(_Event):
    """The last box was filled; ``standings`` is ``(name, total)``, best first."""

    game_id: str
    standings: tuple[tuple[str, int], ...]
    type: str = field(default="game_finished", init=False)


@dataclass(frozen=True)
class GameDeleted(_Event):
    """A game was deleted from the store."""

    game_id: str
    type: str = field(default="game_deleted", init=False)


Event = GameCreated | ActionApplied | ActionUndone | GameFinished | GameDeleted
