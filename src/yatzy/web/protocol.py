"""HTTP as clients speak it: ``HEAD`` answered wherever ``GET`` is, and the answer to a
request the HTTP parser cannot read (uvicorn's own 400) in the one error shape.

>>> import asyncio
>>> async def app(scope, receive, send):
...     await send({"type": "http.response.start", "status": 200,
...                 "headers": [(b"content-length", b"2")]})
...     await send({"type": "http.response.body", "body": scope["method"].encode()})
>>> sent = []
>>> async def send(message):
...     sent.append(message)
>>> asyncio.run(HeadAsGet(app)({"type": "http", "method": "HEAD"}, None, send))
>>> sent[1]["body"], sent[0]["headers"]
(b'', [(b'content-length', b'2')])
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from yatzy.i18n import DEFAULT_LANGUAGE, translator
from yatzy.web.errors import WebCode, error_body
from yatzy.web.security import HEADERS, ASGIApp, Message, Receive, Scope, SendFn


class HeadAsGet:
    """Answers ``HEAD`` as the app answers ``GET``, without the body (the headers, the
    length included, are the ``GET``'s)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: SendFn) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return

        async def no_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, no_body)


def unreadable_request_body() -> bytes:
    """The body of the answer to a request that is not HTTP the server can read."""
    t = translator(DEFAULT_LANGUAGE)
    message = t._("The request is not valid: {field}: {problem}", field="HTTP",
                  problem="the request line, a header or the body's length cannot be read")
    return json.dumps(error_body(WebCode.INVALID_REQUEST, message)).encode()


def json_error_protocol() -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (``http="auto"``), its answer to a request it cannot
    parse (a malformed request line, method, header or ``Content-Length``, an
    overlong address) a JSON error with the secure headers rather than plain text."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    def send_400_response(self: Any, msg: str) -> None:
        body = unreadable_request_body()
        headers = [*self.server_state.default_headers,
                   (b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close"), *HEADERS]
        head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
        self.transport.write(b"HTTP/1.1 400 Bad Request\r\n" + head + b"\r\n" + body)
        self.transport.close()

    return type("JsonErrorHTTPProtocol", (AutoHTTPProtocol,),
                {"send_400_response": send_400_response})


def __getattr__(name: str) -> Any:
    """``JsonErrorHTTPProtocol``: :func:`json_error_protocol`'s class, made once, for
    uvicorn to import by name (``yatzy.web.protocol:JsonErrorHTTPProtocol``) in each
    process it starts."""
    if name == "JsonErrorHTTPProtocol":
        made = globals()[name] = json_error_protocol()
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
