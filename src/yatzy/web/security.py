"""What keeps the server safe to put on a network: secure headers (a content security
policy without inline scripts), a size limit on request bodies, a per-client rate
limit, and no seat token in the logs.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from yatzy.app.limits import SharedGuard

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
SendFn = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, SendFn], Awaitable[None]]

#: No script or style but the app's own files; pictures also from blob: (QR codes).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:;"
       " connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none';"
       " form-action 'self'; frame-ancestors 'none'")

HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]

#: Only for a secure origin (HTTPS, or this machine): a browser ignores it elsewhere, and
#: says so in every page's console (a phone on the local network reaches the server over
#: plain HTTP).
SECURE_ORIGIN_HEADERS = [(b"cross-origin-opener-policy", b"same-origin")]


def secure_origin(scope: Scope, host_header: bytes | None = None) -> bool:
    """True when the browser sees the request's origin as secure: HTTPS, or a loopback
    address or name (``host_header``: the request's ``Host``, when read already)."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    if host_header is None:
        host_header = dict(scope.get("headers") or []).get(b"host", b"")
    return _loopback_host(host_header)


@functools.lru_cache(maxsize=64)
def _loopback_host(host_header: bytes) -> bool:
    """True for a ``Host`` that names this machine (a site has few hosts: the answer
    is kept for each)."""
    host = host_header.decode("latin-1").lower()
    name = host[1:host.find("]")] if host.startswith("[") else host.rsplit(":", 1)[0]
    return (name in ("localhost", "::1") or name.endswith(".localhost")
            or re.fullmatch(r"127(\.\d{1,3}){3}", name) is not None)

#: The largest request body taken (bytes); an action or a new game is far smaller.
MAX_BODY = 16 * 1024


class SecureHeaders:
    """Adds the secure headers to every HTTP response, and refuses request bodies over
    :data:`MAX_BODY` with 413 before they are read into memory."""

    def __init__(self, app: ASGIApp, *, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: SendFn) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # The headers it needs, in one pass (the last of a repeated one, as a dict's).
        length, chunked, host = b"0", False, b""
        for name, value in scope.get("headers") or ():
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = True
            elif name == b"host":
                host = value
        if not length.isdigit() or int(length) > self.max_body:
            await _too_large(send)
            return
        if chunked:
            # A chunked body says its size only at its end: read it here, up to the
            # limit (the app's body parser would turn the refusal into a 400).
            body = await _read_body(receive, self.max_body)
            if body is None:
                await _too_large(send)
                return
            receive = _replay(body, receive)
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body:
                raise _BodyTooLarge
            return message

        added = HEADERS + SECURE_ORIGIN_HEADERS if secure_origin(scope, host) else HEADERS

        async def secure_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in added if h[0] not in names)]
            await send(message)

        try:
            await self.app(scope, limited_receive, secure_send)
        except _BodyTooLarge:
            await _too_large(send)


class _BodyTooLarge(Exception):
    pass


async def _read_body(receive: Receive, most: int) -> bytes | None:
    """The whole request body, or ``None`` when it is over ``most`` bytes (or the
    client went away before its end)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > most:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` whole, then what ``receive`` gives (a
    disconnect)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed


async def _too_large(send: SendFn) -> None:
    body = b'{"error": {"code": "too_large", "message": "The request is too large"}}'
    await send({"type": "http.response.start", "status": 413, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        *HEADERS]})
    await send({"type": "http.response.body", "body": body})


class RateLimiter:
    """A token bucket per client (:func:`client_key`: its address, whatever token it
    shows): ``rate`` requests a second on average, bursts of ``burst``. ``rate=0``
    turns it off. With ``shared`` limits (Redis) the bucket is the site's, shared by
    every server process; while they do not answer, and without them, it is this
    process's."""

    def __init__(self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic,
                 max_clients: int = 100_000, shared: SharedGuard | None = None) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.max_clients = max_clients
        self.shared = shared or SharedGuard(None)
        self._buckets: dict[str, tuple[float, float]] = {}

    async def allow(self, client: str) -> bool:
        """Take one request from ``client``'s bucket; False when it is empty. The shared
        bucket is asked off the event loop (:meth:`SharedGuard.ask`)."""
        if self.rate <= 0:
            return True
        key, rate, burst = f"rate:{client}", self.rate, self.burst
        shared = await self.shared.ask(lambda store: store.take(key, rate, burst))
        if shared is not None:
            return shared.value
        return self.allow_here(client)

    def allow_here(self, client: str) -> bool:
        """:meth:`allow` in this process's memory (the shared limits are away)."""
        now = self.clock()
        tokens, last = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if len(self._buckets) >= self.max_clients and client not in self._buckets:
            self._forget_idle(now)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return False
        self._buckets[client] = (tokens - 1, now)
        return True

    def _forget_idle(self, now: float) -> None:
        full = self.burst / self.rate
        for key, (_, last) in list(self._buckets.items()):
            if now - last >= full:
                del self._buckets[key]


def client_key(address: str | None) -> str:
    """Who a request comes from, for the rate limit and the games per client: its
    address, the one thing a client cannot choose (a token, a cookie or a header it
    can). An IPv6 address counts by its /64 network, which one household gets whole;
    an IPv4 address mapped into IPv6 as the IPv4 address. The address is the socket's
    peer, or behind a reverse proxy trusted by ``FORWARDED_ALLOW_IPS`` (see
    ``yatzy serve``) the client the proxy names.

    >>> client_key("203.0.113.9")
    '203.0.113.9'
    >>> client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::7")
    True
    >>> client_key("::ffff:203.0.113.9")
    '203.0.113.9'
    """
    if not address:
        return "?"
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address[:100]  # not an IP address (a test client, a Unix socket)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


_TOKEN_IN_TEXT = re.compile(r"(token=)[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Hides seat tokens that a log line would show (a websocket address has
    ``?token=``): the log keeps ``token=…``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(_TOKEN_IN_TEXT.sub(r"\1…", a) if isinstance(a, str) else a
                                for a in (record.args if isinstance(record.args, tuple)
                                          else (record.args,)))
        if isinstance(record.msg, str):
            record.msg = _TOKEN_IN_TEXT.sub(r"\1…", record.msg)
        return True


def redact_server_logs() -> None:
    """Install :class:`RedactTokens` on uvicorn's loggers."""
    for name in ("uvicorn", "uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
