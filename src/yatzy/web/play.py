"""A seat's action, the same over HTTP and over the websocket: who may act, then the
room applies it through the table (and so the core and the service)."""

from __future__ import annotations

from yatzy.app.access import seat_for_token
from yatzy.app.saved import SavedGame, Seat
from yatzy.app.table import Table
from yatzy.core.actions import Action, Reroll, Roll, action_from_dict
from yatzy.core.errors import ErrorCode, IllegalMove
from yatzy.web.errors import forbidden
from yatzy.web.rooms import Room, Rooms
from yatzy.web.schemas import ActionIn


def seat_of(room: Room, token: str | None) -> Seat:
    """The person's seat that ``token`` opens, else 403."""
    seat = seat_for_token(room.saved.seats, token)
    if seat is None or seat.is_bot:
        raise forbidden()
    return seat


async def perform(rooms: Rooms, room: Room, seat: Seat, body: ActionIn) -> SavedGame:
    """Apply ``body`` for ``seat``. In a manual-dice game any seat may type in the dice
    of a computer's roll that waits for them. The core refuses an illegal move or
    another player's turn; a stale ``expected_version`` is a conflict (409)."""
    action = action_from_dict(body.action())

    def change(table: Table) -> None:
        pending = table.pending
        if table.waiting_for_dice and isinstance(action, Roll | Reroll) and action.dice:
            if not _same_roll(pending, action):
                player = table.game.current_player
                raise IllegalMove(f"It is {player}'s turn", code=ErrorCode.NOT_YOUR_TURN,
                                  player=player)
            table.play_computer(action.dice, expected_version=body.expected_version)
            return
        table.act(action, player=seat.name, expected_version=body.expected_version)

    return await rooms.act(room, change)


def _same_roll(pending: Action | None, action: Roll | Reroll) -> bool:
    """True when ``action`` is the roll the computer chose (its held dice too)."""
    if isinstance(pending, Roll):
        return isinstance(action, Roll)
    return (isinstance(pending, Reroll) and isinstance(action, Reroll)
            and action.hold == pending.hold)
