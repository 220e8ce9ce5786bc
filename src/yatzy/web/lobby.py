"""The lobby over HTTP: the public tables waiting for players, the public games in play
to watch, and joining a table. The service decides everything (who may sit where, when
a table is full or closed); this module only translates. The contract is in
``docs/web.md`` and at ``/docs``."""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

from fastapi import Request
from fastapi.routing import APIRouter

from yatzy.app.access import new_token, player_key_hash, token_hash
from yatzy.app.errors import GameChanged, StorageError
from yatzy.app.saved import SavedGame
from yatzy.app.service import LOBBY_SIZE, TABLE_WAIT
from yatzy.i18n import Translator, translator
from yatzy.i18n.words import option_texts, ruleset_title
from yatzy.web.api import GameId, PlayerKey, check_rate, client_of, rooms_of
from yatzy.web.errors import request_lang
from yatzy.web.schemas import ERRORS, Joined, JoinIn, LobbyOut, SeatOut
from yatzy.web.texts import seat_label

router = APIRouter()

def _when(moment: datetime) -> str:
    return moment.isoformat()


def _table(t: Translator, base: str, saved: SavedGame) -> dict[str, Any]:
    rules = saved.rules
    return {
        "id": saved.id, "rules": rules.to_dict(), "title": ruleset_title(t, rules),
        "options_text": " · ".join(option_texts(t, rules)),
        "seats": [{"name": None if s.open else seat_label(t, s.name, s.bot), "bot": s.bot,
                   "open": s.open} for s in saved.seats],
        "taken": len(saved.seats) - saved.open_seats, "free": saved.open_seats,
        "hints": saved.hints, "created_at": _when(saved.created_at),
        "expires_at": _when(saved.updated_at + TABLE_WAIT),
        "watch_url": f"{base}/games/{saved.id}",
    }


def _live(t: Translator, base: str, saved: SavedGame) -> dict[str, Any]:
    rules = saved.rules
    return {
        "id": saved.id, "rules": rules.to_dict(), "title": ruleset_title(t, rules),
        "options_text": " · ".join(option_texts(t, rules)),
        "players": [seat_label(t, s.name, s.bot) for s in saved.seats],
        "round": min(saved.game.round, len(rules.boxes)), "rounds": len(rules.boxes),
        "rated": saved.rated, "created_at": _when(saved.created_at),
        "watch_url": f"{base}/games/{saved.id}",
    }


@router.get("/api/lobby", response_model=LobbyOut, responses=ERRORS, tags=["lobby"])
async def lobby(request: Request) -> dict[str, Any]:
    """The public tables waiting for players (ruleset, options, seats taken and free)
    and the public games in play to watch, newest first, at most twenty of each. A
    table nobody joins for thirty minutes leaves the list (and closes); a finished game
    leaves it at once."""
    await check_rate(request)
    rooms = rooms_of(request)
    waiting, live = await rooms.run(rooms.service.lobby, LOBBY_SIZE)
    t = translator(request_lang(request))
    base = str(request.base_url).rstrip("/")
    return {"waiting": [_table(t, base, g) for g in waiting],
            "live": [_live(t, base, g) for g in live],
            "wait_minutes": int(TABLE_WAIT.total_seconds() // 60)}


@router.post("/api/games/{game_id}/join", status_code=201, response_model=Joined,
             responses=ERRORS, tags=["lobby"])
async def join(game_id: GameId, request: Request, body: JoinIn | None = None,
               player_key: PlayerKey = None) -> dict[str, Any]:
    """Take a free seat of a public table, under ``name`` or else the display name of
    the browser's ``X-Player-Key`` (whose "my games" then lists the game). The answer
    holds the seat's secret token and link, shown this once. Two people never get one
    seat, whichever server they ask: one of two joins of the last seat is told the
    table is full (409). A private game is no public table (404); a name a player at the
    table has, or a table closed for waiting too long, is 409. The game begins when
    the last seat is taken."""
    await check_rate(request)
    rooms = rooms_of(request)
    service = rooms.service
    if player_key is not None:
        player_key_hash(player_key)  # a bad key is refused before anything is done
    name = await rooms.run(service.players.seat_name, player_key,
                           None if body is None else body.name)
    # A seat taken is a game begun for this client: it counts toward its games.
    await request.app.state.games_started.admit_async(client_of(request))
    token = new_token()
    async with rooms.using(game_id) as room:
        saved = await room.session.join(name, token_hash=token_hash(token))
    if player_key is not None:
        await rooms.run(service.claim_seat, saved.id, name, player_key)
    if saved.open_seats == 0:
        # The last seat: a table of named players under their own names becomes rated.
        with contextlib.suppress(StorageError, GameChanged):  # else it is played unrated
            if await rooms.run(service.profiles.rate_table, saved):
                async with rooms.using(game_id) as room:
                    saved = await room.session.make_rated()
    page = f"{str(request.base_url).rstrip('/')}/games/{saved.id}"
    return {"id": saved.id,
            "seat": SeatOut(name=name, token=token, url=f"{page}#token={token}"),
            "watch_url": page, "open_seats": saved.open_seats}
