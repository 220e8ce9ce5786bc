"""The server's logs: a request id for every request, and log lines as JSON objects.

Every HTTP request and websocket gets an id: the ``X-Request-ID`` it came with (a
proxy's, when it is a short text of letters, digits and ``._:-``), else a new random
one. The answer carries it back in ``X-Request-ID``, and every log line written while
the request is served says it (``request_id``), the work done on the server's threads
included. With :func:`configure` ``(json=True)`` each log line is one JSON object:

>>> import logging
>>> record = logging.LogRecord("yatzy", logging.INFO, __file__, 1, "%s joined", ("Ann",), None)
>>> line = json.loads(JsonLines().format(record))
>>> line["level"], line["logger"], line["message"], line["request_id"]
('info', 'yatzy', 'Ann joined', None)

No log line holds a seat token or a secret: an address is logged without its query
(a websocket's ``?token=``), no header is logged, and the lines go through
:class:`Redact`, which hides ``token=…``, ``Bearer …`` and any run of 64 hexadecimal
digits (a token's hash, a game's secret seed) that a message might quote:

>>> Redact.text("GET /ws/games/1?token=abc Authorization: Bearer xyz")
'GET /ws/games/1?token=… Authorization: Bearer …'
>>> Redact.text("DELETE /api/quick-match/Zm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9v 204")
'DELETE /api/quick-match/… 204'
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from yatzy.web.security import ASGIApp, Message, Receive, Scope, SendFn

#: The id of the request being served (``None`` outside a request).
request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "request_id", default=None)

#: An ``X-Request-ID`` taken as it is; anything else is replaced by a new id.
_GOOD_ID = re.compile(rb"[A-Za-z0-9._:-]{1,64}")

#: Where each request's line goes (with ``access=True``).
access_log = logging.getLogger("yatzy.access")

#: A record's own attributes: anything else on it was given as ``extra`` and is logged.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message", "asctime", "color_message"}  # uvicorn's copy of the message, with colours


class RequestIds:
    """ASGI middleware: gives each request its id (see the module), sends it back in
    ``X-Request-ID``, and with ``access=True`` logs one line per request: its method,
    its path without the query, its status and how long it took."""

    def __init__(self, app: ASGIApp, *, access: bool = False) -> None:
        self.app = app
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: SendFn) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = b""
        for name, value in scope.get("headers") or ():
            if name == b"x-request-id":
                given = value  # the last, as a dict of the headers would keep
        rid = given.decode() if _GOOD_ID.fullmatch(given) else uuid.uuid4().hex
        token = request_id.set(rid)
        started = time.perf_counter()
        status = 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []),
                                      (b"x-request-id", rid.encode())]
            elif message["type"] == "websocket.accept":
                status = 101
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.access:
                path = Redact.text(scope.get("path", ""))
                access_log.info(
                    "%s %s %s", scope.get("method", "WS"), path, status,
                    extra={"method": scope.get("method", "WS"), "path": path,
                           "status": status,
                           "ms": round((time.perf_counter() - started) * 1000, 2)})
            request_id.reset(token)


class Redact(logging.Filter):
    """Hides tokens and secrets in a line (see the module); the record is formatted
    here, so that what its arguments say is hidden too."""

    _PATTERNS = (
        (re.compile(r"(token=)[^&\s\"']+"), r"\1…"),
        (re.compile(r"(Bearer )[^\s\"']+", re.IGNORECASE), r"\1…"),
        (re.compile(r"\b[0-9a-fA-F]{64}\b"), "…"),
        # A quick-match ticket, a secret in its address.
        (re.compile(r"(/api/quick-match/)[^/?\s\"']+"), r"\1…"),
    )

    @classmethod
    def text(cls, text: str) -> str:
        for pattern, replacement in cls._PATTERNS:
            text = pattern.sub(replacement, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.text(record.getMessage())
        record.args = None
        if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
            record.exc_text = self.text(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = self.text(record.exc_text)
        return True


class RequestIdField(logging.Filter):
    """Puts the request's id on every record (``request_id``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, ``request_id``, what the record was given as ``extra``, and
    ``exception`` (its traceback) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", request_id.get()),
            "pid": record.process,  # which worker of `yatzy serve --workers N`
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line and not key.startswith("_"):
                line[key] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


class TextLines(logging.Formatter):
    """A line for a person: time, level, logger, the request's id, the message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")


def configure(*, json_lines: bool, level: int = logging.INFO) -> logging.Handler:
    """Send every log line of the process (yatzy's, uvicorn's, the libraries') to
    standard error, as JSON objects or as text, each with its request's id and
    redacted; returns the handler."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RequestIdField())
    handler.addFilter(Redact())
    handler.setFormatter(JsonLines() if json_lines else TextLines())
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_yatzy", False)]:
        root.removeHandler(old)
    handler._yatzy = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("alembic").setLevel(max(level, logging.WARNING))  # each migration
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        # uvicorn's own handlers would write the same lines again, unformatted.
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
    return handler
