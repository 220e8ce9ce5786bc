"""A seat's action, the same over HTTP and over the websocket: who may act, then the
game's session applies it (through the core and the service)."""

from __future__ import annotations

from yatzy.app.access import seat_for_token
from yatzy.app.saved import SavedGame, Seat
from yatzy.core.actions import action_from_dict
from yatzy.web.errors import forbidden
from yatzy.web.rooms import Room
from yatzy.web.schemas import ActionIn


def seat_of(room: Room, token: str | None) -> Seat:
    """The person's seat that ``token`` opens, else 403 (a seat whose clock ran out is
    still its person's: the session refuses their moves, as ``seat_idle``)."""
    seat = seat_for_token(room.saved.seats, token)
    if seat is None or (seat.is_bot and not seat.idle):
        raise forbidden()
    return seat


async def perform(room: Room, seat: Seat, body: ActionIn) -> SavedGame:
    """Apply ``body`` for ``seat`` through the game's session (which decides what it
    means: in a manual-dice game, the dice of a computer's roll that waits for them may
    come from any seat). The core refuses an illegal move or another player's turn; a
    stale ``expected_version`` is a conflict (409)."""
    return await room.session.act(action_from_dict(body.action()), player=seat.name,
                                  expected_version=body.expected_version)
