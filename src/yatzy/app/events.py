"""Events the game service publishes after each change, for whoever listens (the web
app's rooms, the terminal game, a log), through its change feed (:mod:`yatzy.app.feed`).

Events are small frozen dataclasses; each has a ``type`` tag, the ``version`` the game
has after the change, and a JSON-ready :meth:`to_dict` form that :func:`event_from_dict`
reads back (so an event can travel between processes).

>>> event = ActionApplied("g1", 0, "Ann", {"type": "roll", "dice": [1, 2, 3, 4, 5]}, version=2)
>>> event.type, event.to_dict()["action"]
('action_applied', {'type': 'roll', 'dice': [1, 2, 3, 4, 5]})
>>> event_from_dict(event.to_dict()) == event
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class _Event:
    #: The game's version once the change is stored (:attr:`SavedGame.version`); a
    #: deleted game's last version. Whoever holds an older copy of the game reloads it.
    version: int = field(default=0, kw_only=True)

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


@dataclass(frozen=True)
class TurnsHandedOver(_Event):
    """A process that stops (a server shut down) let go of the game's computer turns,
    a computer still to play: another process that holds the game takes them over at
    once rather than when the lease would have run out (see
    :meth:`~yatzy.app.service.GameService.take_turns`). ``version`` is the game's."""

    game_id: str
    type: str = field(default="turns_handed_over", init=False)


@dataclass(frozen=True)
class SeatTaken(_Event):
    """A person joined a public table: ``player`` took the open seat ``seat`` (0-based);
    ``open_seats`` are still open (none: the game begins)."""

    game_id: str
    seat: int
    player: str
    open_seats: int
    type: str = field(default="seat_taken", init=False)


@dataclass(frozen=True)
class SeatIdle(_Event):
    """The clock of ``player`` (seat ``seat``, 0-based) ran out in a rated game: the
    computer of level ``level`` plays that seat from now on (and the game counts as
    lost for the player)."""

    game_id: str
    seat: int
    player: str
    level: str
    type: str = field(default="seat_idle", init=False)


@dataclass(frozen=True)
class TableRated(_Event):
    """The public table ``game_id`` became a rated game when its last seat was taken
    (every seat a named player under their own name): from now on each person to move
    has the move clock of rated games, and the result counts for their ratings."""

    game_id: str
    type: str = field(default="table_rated", init=False)


Event = (GameCreated | ActionApplied | ActionUndone | GameFinished | GameDeleted
         | TurnsHandedOver | SeatTaken | SeatIdle | TableRated)


_EVENT_TYPES: dict[str, type[_Event]] = {
    "game_created": GameCreated,
    "action_applied": ActionApplied,
    "action_undone": ActionUndone,
    "game_finished": GameFinished,
    "game_deleted": GameDeleted,
    "turns_handed_over": TurnsHandedOver,
    "seat_taken": SeatTaken,
    "seat_idle": SeatIdle,
    "table_rated": TableRated,
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event whose :meth:`~_Event.to_dict` form is ``data``. Raises ``ValueError``
    for a form no event has (an unknown type, a missing or an unknown field)."""
    if not isinstance(data, dict):
        raise ValueError(f"An event is a dict, not {type(data).__name__}")
    kind = _EVENT_TYPES.get(str(data.get("type")))
    if kind is None:
        raise ValueError(f"Unknown event type {data.get('type')!r}")
    names = {f.name for f in fields(kind) if f.init}
    values = {k: v for k, v in data.items() if k != "type"}
    if set(values) != names:
        raise ValueError(f"A {data['type']} event has the fields {sorted(names)}")
    for name in ("players", "standings"):
        if name in values:  # JSON has lists where the event has tuples
            values[name] = tuple(tuple(v) if isinstance(v, list) else v
                                 for v in values[name])
    event = kind(**values)
    assert isinstance(event, GameCreated | ActionApplied | ActionUndone | GameFinished
                      | GameDeleted | TurnsHandedOver | SeatTaken | SeatIdle | TableRated)
    return event
