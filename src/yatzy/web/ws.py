"""The websocket of a game: ``/ws/games/{id}`` (``?token=`` for a seat, none to watch).

The server sends ``{"type": "welcome", "seat"}`` first (the seat the token opens, or
``null`` for a watcher), ``{"type": "state", "state": …}`` on connect and after every change,
``{"type": "computer", …}`` when a computer shows the dice it holds before rolling,
``{"type": "presence", "seat", "connected"}`` when a seat comes or goes, and
``{"type": "error", "error": {"code", "message"}}`` answering a message it refused. A
seat sends its actions as the HTTP API takes them (``{"type": "roll"}``, …) and
``{"type": "ping"}`` to keep the line open (answered with ``{"type": "pong"}``).
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from yatzy.app.access import seat_for_token
from yatzy.core.errors import YatzyError
from yatzy.i18n import DEFAULT_LANGUAGE, LANGUAGES, normalize_language, translator
from yatzy.web.errors import WebError, error_body, web_error_body, yatzy_error_body
from yatzy.web.play import perform
from yatzy.web.rooms import Listener, Room, Rooms
from yatzy.web.schemas import ActionIn
from yatzy.web.security import RateLimiter, client_key

router = APIRouter()

#: The largest message a client may send (bytes).
MAX_MESSAGE = 4096


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """Live updates of a game for a seat or a watcher, and a seat's actions."""
    rooms: Rooms = websocket.app.state.rooms
    token = websocket.query_params.get("token") or None
    lang = normalize_language(websocket.query_params.get("lang") or "") or DEFAULT_LANGUAGE
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    await websocket.accept()
    try:
        room = await rooms.get(game_id[:64])
    except YatzyError as error:
        await _refuse(websocket, yatzy_error_body(error, lang), 4404)
        return
    seat = seat_for_token(room.saved.seats, token) if token else None
    if token and seat is None:
        await _refuse(websocket, web_error_body(
            WebError(403, "forbidden", "Only the player in this seat can act for it"), lang),
            4403)
        return
    listener = Listener(websocket.send_text, None if seat is None else seat.name, lang)
    await websocket.send_json({"type": "welcome", "seat": listener.seat})
    release = await rooms.join(room, listener)
    try:
        while True:
            text = await websocket.receive_text()
            reply = await _handle(rooms, room, listener, token, text,
                                  websocket.client.host if websocket.client else None,
                                  websocket.app.state.limiter)
            if reply is not None:
                await websocket.send_json(reply)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await rooms.leave(room, listener)
        release()


async def _handle(rooms: Rooms, room: Room, listener: Listener, token: str | None,
                  text: str, address: str | None, limiter: RateLimiter
                  ) -> dict[str, Any] | None:
    """One message from a client: an action of its seat, or a ping."""
    t = translator(listener.lang)
    if len(text) > MAX_MESSAGE:
        return {"type": "error", **error_body("too_large", t._("The request is too large"))}
    if not limiter.allow(client_key(address, token)):
        return {"type": "error", **error_body("rate_limited",
                                              t._("Too many requests: wait a moment"))}
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and data.get("type") == "ping":
        return {"type": "pong"}
    if listener.seat is None:
        return {"type": "error", **error_body(
            "forbidden", t._("Only the player in this seat can act for it"))}
    try:
        body = ActionIn.model_validate(data)
    except ValidationError as error:
        details = error.errors()
        where = ".".join(str(p) for p in details[0]["loc"]) if details else ""
        problem = details[0]["msg"][:200] if details else "?"
        return {"type": "error", **error_body("invalid_request", t._(
            "The request is not valid: {field}: {problem}", field=where or "body",
            problem=problem))}
    seat = next(s for s in room.saved.seats if s.name == listener.seat)
    try:
        await perform(room, seat, body)
    except YatzyError as error:
        return {"type": "error", **yatzy_error_body(error, listener.lang, room.table.game)}
    except WebError as error:
        return {"type": "error", **web_error_body(error, listener.lang)}
    return None


async def _refuse(websocket: WebSocket, body: dict[str, Any], code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", **body})
        await websocket.close(code)
