"""The shortcut of the one request a game in play makes again and again: a seat's action,
``POST /api/games/{id}/actions``.

The route is FastAPI's (:func:`yatzy.web.api.act`: its contract, its OpenAPI entry),
but its way through FastAPI (routing among every route, the dependencies solved, the
exception middleware, an exit stack per request) cost a server more CPU than the action
itself. :class:`ActionShortcut`, an ASGI middleware inside the app's own (the secure
headers, the body limit, the request ids), serves a well-formed action directly: it
reads the body, validates it with the route's model (:class:`~yatzy.web.schemas.ActionIn`),
reads the seat's token as the route's ``HTTPBearer`` does, and calls what the route
calls (:func:`yatzy.web.api.act_for`); an error is answered by the app's own handler
for it (:func:`yatzy.web.errors.install`), as the route's would be. Anything else (a
body that is not JSON or not a valid action, another content type, an id too long) goes
through FastAPI as before, which answers it in its own words.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from yatzy.web.api import act_for
from yatzy.web.schemas import ActionIn
from yatzy.web.security import MAX_BODY, ASGIApp, Message, Receive, Scope, SendFn

#: The action route's path; the id as the route's ``Path(max_length=64)`` takes it.
ACTION_PATH = re.compile(r"/api/games/([^/]{1,64})/actions")

Handler = Callable[[Request, Exception], Awaitable[Response]]


class ActionShortcut:
    """Serves ``POST /api/games/{id}/actions`` with a JSON body that is a valid action
    without FastAPI's routing (see the module); every other request goes to ``app``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: SendFn) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        found = ACTION_PATH.fullmatch(scope["path"])
        if found is None:
            await self.app(scope, receive, send)
            return
        messages, body = await _read(receive)
        replay = _replay(messages, receive)
        action = None if body is None else _action(scope, body)
        if action is None:
            await self.app(scope, replay, send)
            return
        request = Request(scope, replay)
        try:
            response = await act_for(request, found[1], _bearer(request), action)
        except Exception as error:
            handler = _handler(scope["app"], error)
            if handler is None:
                raise
            response = await handler(request, error)
        await response(scope, replay, send)


async def _read(receive: Receive) -> tuple[list[Message], bytes | None]:
    """The messages of the request's body as received, and the body (``None`` when
    the client went away first, or it is over :data:`MAX_BODY`)."""
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, None
        size += len(message.get("body", b""))
        if size > MAX_BODY:
            return messages, None
        if not message.get("more_body", False):
            return messages, b"".join(m.get("body", b"") for m in messages)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` again, then what ``receive`` gives."""
    waiting = list(messages)

    async def replayed() -> Message:
        if waiting:
            return waiting.pop(0)
        return await receive()

    return replayed


def _action(scope: Scope, body: bytes) -> ActionIn | None:
    """The body as the route's model, or ``None`` when the route should say what is
    wrong with it (or when it is not plain JSON)."""
    content_type = b""
    for name, value in scope["headers"]:
        if name == b"content-type":
            content_type = value
            break
    if content_type.split(b";", 1)[0].strip().lower() != b"application/json":
        return None
    try:
        return ActionIn.model_validate(orjson.loads(body))
    except (orjson.JSONDecodeError, ValidationError):
        return None


def _bearer(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, as the route's
    ``HTTPBearer(auto_error=False)`` reads it."""
    authorization = request.headers.get("authorization")
    if not authorization:
        return None
    scheme, _, credentials = authorization.partition(" ")
    credentials = credentials.strip()
    if not (scheme and credentials) or scheme.lower() != "bearer":
        return None
    return credentials


def _handler(app: Any, error: Exception) -> Handler | None:
    """The app's handler of ``error`` (by its class, nearest first), as Starlette's
    exception middleware finds it: not one for every ``Exception`` (or for 500), which
    is the server-error middleware's, outside, that the error then reaches."""
    handlers: dict[Any, Handler] = app.exception_handlers
    for kind in type(error).__mro__:
        if kind is Exception:
            return None
        if kind in handlers:
            return handlers[kind]
    return None
