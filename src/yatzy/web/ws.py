"""The websocket of a game: ``/ws/games/{id}`` (``?token=`` for a seat, none to watch).

It only sends: ``{"type": "welcome", "seat"}`` first (the seat the token opens, or
``null`` for a watcher), ``{"type": "state", "state": …}`` on connect and after every
change, ``{"type": "computer", …}`` when a computer shows the dice it holds before
rolling, ``{"type": "presence", "seat", "connected"}`` when a seat comes or goes, and
``{"type": "error", "error": {"code", "message"}}`` answering a message it refused.
Actions go to the HTTP API (``POST /api/games/{id}/actions``), the one write path; a
client may send ``{"type": "ping"}`` to keep the line open (answered with
``{"type": "pong"}``). The messages are typed in the OpenAPI document
(``ServerMessage``). A connection that falls behind is closed (code 1013): its client
reconnects and gets the state afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from yatzy.app.access import seat_for_token
from yatzy.core.errors import YatzyError
from yatzy.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, normalize_language, translator
from yatzy.web.errors import (
    WebCode,
    WebError,
    error_body,
    status_of,
    web_error_body,
    yatzy_error_body,
)
from yatzy.web.metrics import Metrics
from yatzy.web.rooms import Listener, Rooms
from yatzy.web.security import RateLimiter, client_key

router = APIRouter()

#: The largest message a client may send (bytes).
MAX_MESSAGE = 4096
#: Close codes: refused (403, 404) and "try again later" (fell behind).
FORBIDDEN, NOT_FOUND, TRY_AGAIN = 4403, 4404, 1013


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """Live updates of a game for a seat or a watcher."""
    rooms: Rooms = websocket.app.state.rooms
    token = websocket.query_params.get("token") or None
    lang = normalize_language(websocket.query_params.get("lang") or "") or DEFAULT_LANGUAGE
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    try:
        await websocket.accept()
        room = await rooms.current(game_id[:64])
    except YatzyError as error:  # no such game, or the database failed: try later
        await _refuse(websocket, yatzy_error_body(error, lang),
                      TRY_AGAIN if status_of(error) == 503 else NOT_FOUND)
        return
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # gone during the handshake
    seat = seat_for_token(room.saved.seats, token) if token else None
    if token and seat is None:
        await _refuse(websocket, web_error_body(
            WebError(403, WebCode.FORBIDDEN, "Only the player in this seat can act for it"), lang),
            FORBIDDEN)
        return
    metrics: Metrics = websocket.app.state.metrics
    listener = Listener(websocket.send_text, None if seat is None else seat.name, lang)
    listener.offer(json.dumps({"type": "welcome", "seat": listener.seat}))
    listener.writer = asyncio.create_task(listener.pump())
    metrics.websocket_opened()
    release = await rooms.join(room, listener)
    reader = asyncio.create_task(read_client(websocket, listener,
                                             websocket.app.state.limiter, metrics))
    try:
        await asyncio.wait({listener.writer, reader}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        reader.cancel()
        listener.drop()
        for task in (reader, listener.writer):
            with contextlib.suppress(BaseException):
                await task
        await rooms.leave(room, listener)
        release()
        metrics.websocket_closed()
        with contextlib.suppress(Exception):
            await websocket.close(TRY_AGAIN)


async def read_client(websocket: WebSocket, listener: Listener, limiter: RateLimiter,
                      metrics: Metrics, *, game: bool = True) -> None:
    """Answer what the client of a socket that only sends (a game's, or with ``game``
    false the lobby's) sends, until it goes: a ping gets a pong, anything else an
    error, within the size and rate limits; a frame that is not text closes."""
    client = client_key(websocket.client.host if websocket.client else None)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:  # a binary frame: not this protocol
                metrics.error(WebCode.INVALID_REQUEST)
                listener.offer(json.dumps(_error(
                    listener.lang, WebCode.INVALID_REQUEST,
                    N_("The request is not valid: {field}: {problem}"), field="frame",
                    problem="text expected")))
                return
            reply = await _answer(listener, text, client, limiter, game)
            if reply is not None and reply["type"] == "error":
                metrics.error(reply["error"]["code"])
            if reply is not None:
                listener.offer(json.dumps(reply, ensure_ascii=False))
    except (WebSocketDisconnect, RuntimeError, OSError):
        return


async def _answer(listener: Listener, text: str, client: str, limiter: RateLimiter,
                  game: bool) -> dict[str, Any] | None:
    """One message from a client: a ping, or something this socket does not take (on a
    game's socket, a watcher is told that only a seat's player acts)."""
    if len(text) > MAX_MESSAGE:
        return _error(listener.lang, WebCode.TOO_LARGE, N_("The request is too large"))
    if not await limiter.allow(client):
        return _error(listener.lang, WebCode.RATE_LIMITED, N_("Too many requests: wait a moment"))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict) and data.get("type") == "ping":
        return {"type": "pong"}
    if game and listener.seat is None:
        return _error(listener.lang, WebCode.FORBIDDEN,
                      N_("Only the player in this seat can act for it"))
    return _error(listener.lang, WebCode.READ_ONLY,
                  N_("This connection only sends updates: send actions to the HTTP API"))


def _error(lang: str, code: str, message: str, **params: Any) -> dict[str, Any]:
    return {"type": "error", **error_body(code, translator(lang)._(message, **params))}


async def _refuse(websocket: WebSocket, body: dict[str, Any], code: int) -> None:
    websocket.app.state.metrics.error(body["error"]["code"])
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", **body})
        await websocket.close(code)
