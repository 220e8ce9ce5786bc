"""Errors on the wire: every error body is ``{"error": {"code", "message"}}``, the
message in the player's language. The rules raise typed errors; this module only
translates them into a status and a body.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from yatzy.app import devices as d
from yatzy.app.advice import AdviceBusy
from yatzy.app.errors import (
    AlreadyWaiting,
    DailyPlayed,
    DayNotOpen,
    GameChanged,
    GameNotFound,
    NameAtTable,
    NameTaken,
    NotPublic,
    PlayerNotFound,
    StorageError,
    TableExpired,
    TableFull,
    TicketClosed,
    TicketNotFound,
)
from yatzy.app.policy import SeatsRefused, TooManyGames
from yatzy.core.errors import YatzyError, register_error_texts
from yatzy.core.game import Game
from yatzy.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, normalize_language, translator
from yatzy.i18n.words import error_text
from yatzy.solver import SolverMissing, TableNotBuilt


class WebCode(StrEnum):
    """The error codes of the web layer itself (see :class:`WebError`)."""

    FORBIDDEN = "forbidden"
    RATE_LIMITED = "rate_limited"
    TOO_LARGE = "too_large"
    QR_TOO_LONG = "qr_too_long"
    NOT_READY = "not_ready"
    READ_ONLY = "read_only"
    INVALID_REQUEST = "invalid_request"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    HTTP_ERROR = "http_error"


#: Each code's text when its error brings none of its own.
register_error_texts(WebCode, {
    WebCode.FORBIDDEN: N_("Only the player in this seat can act for it"),
    WebCode.RATE_LIMITED: N_("Too many requests: wait a moment"),
    WebCode.TOO_LARGE: N_("The request is too large"),
    WebCode.QR_TOO_LONG: N_(
        "The text is too long for a QR code: at most {most} bytes of UTF-8"),
    WebCode.NOT_READY: N_("Not ready: the game database does not answer"),
    WebCode.READ_ONLY: N_("This connection only sends updates: send actions to the HTTP API"),
    WebCode.INVALID_REQUEST: N_("The request is not valid: {field}: {problem}"),
    WebCode.NOT_FOUND: N_("There is nothing here"),
    WebCode.METHOD_NOT_ALLOWED: N_("This address does not take that method"),
    WebCode.HTTP_ERROR: N_("That cannot be done: {detail}"),
})


class WebError(YatzyError):
    """An error of the web layer itself (no token, another seat's token, too many
    requests), in the one hierarchy of :class:`~yatzy.core.errors.YatzyError`: with its
    HTTP status, its code and an English message, a catalog text marked with ``N_``
    where it is raised and translated when sent."""

    def __init__(self, status: int, code: WebCode, message: str, *,
                 retry_after: int | None = None, **params: Any) -> None:
        super().__init__(message, code=code, **params)
        self.status = status
        #: Seconds to wait before asking again (``Retry-After``), when it helps.
        self.retry_after = retry_after


def forbidden(message: str = N_("Only the player in this seat can act for it")) -> WebError:
    """403: no token, a watcher, or another seat's token."""
    return WebError(403, WebCode.FORBIDDEN, message)


#: The cookie that keeps the language a person chose (a page opened with ``?lang=``).
LANG_COOKIE = "yatzy_lang"


def asked_lang(request: Request) -> str | None:
    """The language ``?lang=`` asks for, when we have it."""
    asked = request.query_params.get("lang")
    if asked and (lang := normalize_language(asked)) in LANGUAGES:
        return lang
    return None


def request_lang(request: Request) -> str:
    """The language of a request: ``?lang=``, else the language this browser chose last
    (:data:`LANG_COOKIE`), else the first language of ``Accept-Language`` that we have,
    else English."""
    if (lang := asked_lang(request)) is not None:
        return lang
    kept = normalize_language(request.cookies.get(LANG_COOKIE, "")[:16])
    if kept in LANGUAGES:
        return kept
    for part in request.headers.get("accept-language", "").split(","):
        lang = normalize_language(part.split(";")[0].strip())
        if lang in LANGUAGES:
            return lang
    return DEFAULT_LANGUAGE


def wants_page(request: Request) -> bool:
    """True for a browser asking for a page (not the API, not a script's request): its
    errors are pages, the API's are JSON."""
    path = request.url.path
    return (not path.startswith(("/api/", "/ws/", "/static/", "/docs/"))
            and "text/html" in request.headers.get("accept", ""))


def error_body(code: str, message: str) -> dict[str, Any]:
    """The one shape of an error, over HTTP and over the websocket."""
    return {"error": {"code": code, "message": message}}


def status_of(error: YatzyError) -> int:
    """The HTTP status of a typed error of the core or the app."""
    if (status := _device_status(error)) is not None:
        return status
    if isinstance(error, GameNotFound | PlayerNotFound | DayNotOpen | TicketNotFound
                  | NotPublic):
        return 404
    if isinstance(error, GameChanged | NameTaken | DailyPlayed | AlreadyWaiting
                  | TicketClosed | TableFull | TableExpired | NameAtTable):
        return 409
    if isinstance(error, StorageError | AdviceBusy | SolverMissing | TableNotBuilt):
        return 503  # not the request's fault: the server cannot do it now
    if isinstance(error, TooManyGames):
        return 429
    if isinstance(error, SeatsRefused):
        return 403
    return 422


def _device_status(error: YatzyError) -> int | None:
    """The status of an error of linking a device or of a passkey."""
    if isinstance(error, d.LinkCodeUnknown | d.PasskeyUnknown):
        return 404
    if isinstance(error, d.LinkCodeUsed | d.LinkCodeExpired | d.PasskeyChallenge):
        return 409
    if isinstance(error, d.TooManyLinkAttempts):
        return 429
    if isinstance(error, d.PasskeyRefused):
        return 403
    return None


#: Seconds to wait before asking again when the game database failed (it may be back
#: by then: a database server restarting, a file restored).
STORAGE_RETRY = 5


def retry_after(error: YatzyError) -> int | None:
    """The seconds a client should wait before it asks again, for an error that is
    the server's state rather than the request's (``None``: asking again won't help)."""
    retry: int | None = getattr(error, "retry_after", None)
    if retry is None and isinstance(error, StorageError):
        return STORAGE_RETRY
    return retry


def yatzy_error_body(error: YatzyError, lang: str, game: Game | None = None) -> dict[str, Any]:
    """A typed error's body, its message in ``lang``."""
    return error_body(error.code, error_text(translator(lang), error, game))


def web_error_body(error: WebError, lang: str) -> dict[str, Any]:
    """A web error's body, its message in ``lang``."""
    return error_body(error.code, translator(lang)._(error.message, **error.params))


def count_error(request: Request, code: str) -> None:
    """Count an error answered, by code (``/metrics``)."""
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.error(code)


def install(app: FastAPI) -> None:
    """Answer every error with the one error shape."""

    @app.exception_handler(YatzyError)
    async def yatzy_error(request: Request, error: YatzyError) -> JSONResponse:
        count_error(request, error.code)
        retry = retry_after(error)
        return JSONResponse(yatzy_error_body(error, request_lang(request)),
                            status_code=status_of(error),
                            headers=None if retry is None else {"Retry-After": str(retry)})

    @app.exception_handler(WebError)
    async def web_error(request: Request, error: WebError) -> JSONResponse:
        count_error(request, error.code)
        retry = error.retry_after if error.retry_after is not None else (
            1 if error.status == 429 else None)
        return JSONResponse(web_error_body(error, request_lang(request)),
                            status_code=error.status,
                            headers=None if retry is None else {"Retry-After": str(retry)})

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        t = translator(request_lang(request))
        message = t._("The request is not valid: {field}: {problem}",
                      field=where or "body", problem=str(first.get("msg", "?"))[:200])
        count_error(request, WebCode.INVALID_REQUEST)
        return JSONResponse(error_body(WebCode.INVALID_REQUEST, message), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and wants_page(request):
            from yatzy.web.pages import not_found_page

            return not_found_page(request)
        t = translator(request_lang(request))
        texts = {404: (WebCode.NOT_FOUND, t._("There is nothing here")),
                 405: (WebCode.METHOD_NOT_ALLOWED, t._("This address does not take that method"))}
        code, message = texts.get(error.status_code, (WebCode.HTTP_ERROR, str(error.detail)))
        count_error(request, code)
        return JSONResponse(error_body(code, message), status_code=error.status_code,
                            headers=getattr(error, "headers", None))
